// E2E: a service base URL over plain http:// to another computer is refused (issue 11, item 7), typed in the form
// (the field says to use https, nothing is stored) or in an imported credentials file, while a sandbox on this
// computer is still accepted over http.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from './support/desk';
import { expectAccessible } from './support/page-checks';

test('an http:// base URL for another host is refused in the form and in an imported file, saying to use https', async ({ page, desk }) => {
  const sandbox = await desk.startSandbox();
  await page.goto(desk.url);
  await page.getByTestId('@onboarding/connect-button').click();

  await page.getByTestId('@profiles/tab-type').click();
  await page.getByLabel('Service base URL').fill('http://pay.example.com');
  await page.getByLabel('Merchant ID (SVC-APP-ID)').fill(sandbox.credentials.merchantId);
  await page.getByLabel('Secret').fill(sandbox.credentials.secret);
  await page.getByLabel('Platform public key (PEM or base64)').fill(sandbox.credentials.platformPublicKey);
  await page.getByLabel('Merchant private key (PEM or base64)').fill(sandbox.credentials.merchantPrivateKey);
  await page.getByTestId('@profiles/add-button').click();
  await expect(page.getByTestId('@profiles/base-url-error')).toHaveText(
    'the base URL must use https:// (plain http:// is accepted only for this computer itself, such as a local sandbox at http://127.0.0.1)',
  );
  await expect(page.getByLabel('Service base URL')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'profile form with a refused base URL');
  expect(await desk.value('profiles/list', {})).toEqual([]);

  const file = join(desk.dataDir, 'plain-http.json');
  writeFileSync(file, JSON.stringify({ ...sandbox.credentials, baseUrl: 'http://pay.example.com:8787' }), { mode: 0o600 });
  await page.getByTestId('@profiles/tab-import').click();
  desk.harness.desktop.answerNextOpenDialog(file);
  await page.getByTestId('@profiles/import-button').click();
  await expect(page.getByTestId('@profiles/import-error')).toContainText('baseUrl: must use https://');
  expect(await desk.value('profiles/list', {})).toEqual([]);

  // The sandbox on this computer, over http: accepted.
  desk.harness.desktop.answerNextOpenDialog(sandbox.credentialsPath);
  await page.getByTestId('@profiles/import-button').click();
  await expect(page.getByTestId('@onboarding/selfcheck')).toBeVisible();
});
