// E2E: Settings lists the callbacks the listener refused (callbacks/refusals), newest first, with the time in the
// reporting time zone, the source, the check in plain words and the verifier's reason; a reason carrying a sender's
// right-to-left override (a field name of the body it echoes) is shown escaped as ⟨U+202E⟩, never as the raw character.
import { isoInZone } from '../../electron/contract';
import { test, expect } from './support/desk';
import { go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';

test('Settings lists refused callbacks newest first with their check and reason, the reason escaped', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const [profile] = (await desk.value('profiles/list', {})).filter((candidate) => candidate.active);
  if (profile === undefined) throw new Error('no active profile after demo/start');

  await go(page, 'settings');
  const card = page.getByTestId('@settings/callbacks');
  await card.getByLabel('Port (0: any free port)').fill('0');
  await page.getByTestId('@settings/callbacks-start').click();
  await expect(page.getByTestId('@settings/callbacks-state')).toHaveText('listening');
  await expect(page.getByTestId('@settings/callback-refusals-empty')).toBeVisible();
  const url = (await desk.value('callbacks/state', {})).url ?? '';

  // No SVC-APP-ID: refused before anything is parsed.
  expect((await fetch(url, { method: 'POST', body: 'data=forged' })).status).toBe(400);
  // Addressed to this merchant but not the envelope: the verifier names the body's fields, one carrying U+202E.
  const bidi = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'SVC-APP-ID': profile.merchantId }, body: '{"evil\u202Eelif": 1}' });
  expect(bidi.status).toBe(400);

  const rows = page.getByTestId('@settings/callback-refusal');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-code', 'malformedEnvelope');
  await expect(rows.nth(0)).toContainText('not the JSON envelope {code, data, message}');
  await expect(rows.nth(1)).toHaveAttribute('data-code', 'missingHeaders');
  await expect(rows.nth(1)).toContainText('signature headers missing');
  await expect(rows.nth(1)).toContainText('127.0.0.1');
  const reason = rows.nth(0).getByTestId('@settings/callback-refusal-reason');
  await expect(reason).toContainText('evil⟨U+202E⟩elif');
  expect(await reason.textContent()).not.toContain('\u202E');
  // The time is the refusal's instant in the desk's reporting time zone.
  const zone = (await desk.value('session/state', {})).reportingTimeZone;
  const [newest] = (await desk.value('callbacks/refusals', {})).refusals;
  if (newest === undefined) throw new Error('the engine lists no refusal');
  await expect(rows.nth(0).locator('time')).toHaveAttribute('datetime', isoInZone(newest.at, zone));
  await expect(page.getByTestId('@settings/callback-refusals-counts')).toHaveText(
    'not the JSON envelope {code, data, message}: 1; signature headers missing: 1',
  );
  await expect(page.getByTestId('@settings/callback-refusals')).toContainText("Kept in this app's memory only");
  await expectAccessible(page, 'settings with refused callbacks');
  await saveScreenshot(page, 'settings-callback-refusals');

  // The newest ten first, the rest on request.
  for (let index = 0; index < 10; index += 1) expect((await fetch(url, { method: 'POST', body: `forged ${index}` })).status).toBe(400);
  await expect(page.getByTestId('@settings/callbacks')).toContainText('0 / 12');
  await expect(rows).toHaveCount(10);
  await page.getByTestId('@settings/callback-refusals-all').click();
  await expect(rows).toHaveCount(12);
  await expect(rows.nth(11)).toHaveAttribute('data-code', 'missingHeaders');
  await expect(rows.nth(10).getByTestId('@settings/callback-refusal-reason')).toContainText('evil⟨U+202E⟩elif');
});
