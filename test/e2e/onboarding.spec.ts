// E2E: first start and connection — the demo sandbox onboarding with selfcheck, importing a credentials file and
// founding its desk with one admin (which says it cannot give four-eyes), the version 2 switch, and the explanations
// for "Oops" (IP not whitelisted) and a wrong clock; and removing a profile from the profiles screen.
import { test, expect } from './support/desk';
import { DEMO_ADMIN, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

const SELFCHECK_STEPS = ['token', 'request', 'response', 'echo', 'clock', 'version'];

test('first start: explore with a sandbox, pass selfcheck step by step, and the demo is marked on every screen', async ({ page, desk }) => {
  await page.goto(desk.url);
  await expect(page.getByTestId('@onboarding/welcome')).toBeVisible();
  await expectAccessible(page, 'onboarding welcome');
  await saveScreenshot(page, 'onboarding-welcome');

  await page.getByTestId('@onboarding/demo-button').click();
  await expect(page.getByTestId('@onboarding/selfcheck')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('@banner/demo')).toBeVisible();
  await page.getByTestId('@selfcheck/run-button').click();
  await expect(page.getByTestId('@selfcheck/result')).toHaveText(/Selfcheck passed/);
  for (const step of SELFCHECK_STEPS) await expect(page.getByTestId(`@selfcheck/step-${step}`)).toHaveClass(/steps__item--ok/);
  await expect(page.getByTestId('@selfcheck/drift')).toContainText(/Clock drift: [+-]?\d+ s/);
  await expect(page.getByTestId('@selfcheck/version-guide')).toContainText('platform');
  await expectAccessible(page, 'onboarding selfcheck');
  await saveScreenshot(page, 'onboarding-selfcheck');

  await page.getByTestId('@onboarding/continue').click();
  await expect(page.getByTestId('@screen/dashboard')).toBeVisible();
  await expect(page.getByTestId('@shell/profile')).toContainText('demo');
  for (const screen of ['dashboard', 'deposits', 'addresses', 'withdrawals', 'tools', 'audit', 'operators', 'settings', 'profiles'] as const) {
    await go(page, screen);
    await expect(page.getByTestId('@banner/demo')).toBeVisible();
  }
  // Balances are the engine's exact strings: every available amount shown equals the cached one digit for digit.
  await go(page, 'dashboard');
  const balances = await desk.value('balances/list', {});
  expect(balances.length).toBeGreaterThan(0);
  for (const balance of balances) {
    await expect(page.getByTestId(`@dashboard/available-${balance.currency}`)).toHaveAttribute('data-value', balance.available);
  }
  await page.getByTestId('@dashboard/hide-toggle').click();
  await expect(page.getByTestId('@dashboard/balances')).not.toContainText(balances[0]?.available.split('.')[0] ?? 'x');
  await page.getByTestId('@dashboard/hide-toggle').click();
});

test('import a credentials file, pass selfcheck, and confirm the version 2 switch with merchantInfo', async ({ page, desk }) => {
  const sandbox = await desk.startSandbox();
  const admin = sandboxAdmin(sandbox.baseUrl);
  await admin.patchMerchant(sandbox.credentials.merchantId, { apiVersion: 1 });

  await page.goto(desk.url);
  await page.getByTestId('@onboarding/connect-button').click();
  await page.getByTestId('@profiles/import-name').fill('main');
  desk.harness.desktop.answerNextOpenDialog(sandbox.credentialsPath);
  await page.getByTestId('@profiles/import-button').click();
  await expect(page.getByTestId('@onboarding/selfcheck')).toBeVisible();
  await expect(page.getByTestId('@banner/demo')).toHaveCount(0);

  // Selfcheck is validated under version 2 even while the account is still on version 1: the pipeline passes and
  // only the account's version is behind, which the switch guidance explains.
  await page.getByTestId('@selfcheck/run-button').click();
  await expect(page.getByTestId('@selfcheck/result')).toHaveText(/version 2 pipeline passed; the account itself is still on protocol version 1/);
  for (const step of SELFCHECK_STEPS.filter((name) => name !== 'version')) await expect(page.getByTestId(`@selfcheck/step-${step}`)).toHaveClass(/steps__item--ok/);
  await expect(page.getByTestId('@selfcheck/step-version')).toHaveClass(/steps__item--bad/);
  await expect(page.getByTestId('@selfcheck/version-guide')).toHaveAttribute('open', '');
  await expect(page.getByTestId('@selfcheck/guidance')).toContainText('platform');
  await saveScreenshot(page, 'onboarding-selfcheck-version-1');

  // Not founded yet: the founding step comes next. One admin founds it alone, and the desk says plainly that it cannot
  // give four-eyes.
  await page.getByTestId('@onboarding/continue').click();
  await expect(page.getByTestId('@onboarding/operator')).toBeVisible();
  await expect(page.getByTestId('@founding/why-two')).toContainText('four-eyes');
  await expectAccessible(page, 'onboarding founding');
  await saveScreenshot(page, 'onboarding-founding');
  await page.getByTestId('@founding/name').fill('alice');
  await page.getByTestId('@founding/passphrase').fill('alice passphrase 1');
  await page.getByTestId('@founding/confirm').fill('alice passphrase 1');
  await page.getByTestId('@founding/found-alone').click();
  await expect(page.getByTestId('@screen/dashboard')).toBeVisible();
  await go(page, 'operators');
  await expect(page.getByTestId('@operators/notice')).toHaveAttribute('data-four-eyes', 'false');
  await expect(page.getByTestId('@operators/notice')).toContainText('cannot give four-eyes');
  await expect(page.locator('[data-testid="@operators/row"][data-name="alice"]')).toHaveAttribute('data-status', 'active');
  await expectAccessible(page, 'operators of a single-admin desk');
  await saveScreenshot(page, 'operators-single-admin');

  // Before the platform switches the account, merchantInfo is refused.
  await go(page, 'profiles');
  await page.getByTestId('@selfcheck/confirm-v2').click();
  const refused = page.getByTestId('@selfcheck/v2-error').or(page.getByTestId('@selfcheck/v2-outcome'));
  await expect(refused.first()).toBeVisible();
  await expect(page.getByTestId('@selfcheck/version-guide')).not.toContainText('Confirmed:');

  // Platform staff switch the account; merchantInfo confirms it, and selfcheck now passes entirely.
  await admin.patchMerchant(sandbox.credentials.merchantId, { apiVersion: 2 });
  await page.getByTestId('@selfcheck/confirm-v2').click();
  await expect(page.getByTestId('@selfcheck/v2-outcome')).toContainText('Confirmed: the service answered merchantInfo');
  await page.getByTestId('@selfcheck/run-button').click();
  await expect(page.getByTestId('@selfcheck/result')).toHaveText(/Selfcheck passed/);
  await expectAccessible(page, 'profiles and connection');
  await saveScreenshot(page, 'profiles-version-2-confirmed');
});

test('"Oops" explains the IP whitelist and a wrong clock explains the drift', async ({ page, desk }) => {
  const sandbox = await desk.startSandbox();
  const admin = sandboxAdmin(sandbox.baseUrl);
  await desk.value('profiles/importFile', { name: 'main', path: sandbox.credentialsPath });
  await page.goto(desk.url);
  await expect(page.getByTestId('@screen/dashboard')).toBeVisible();
  // Imported behind the onboarding's back: the desk still says it is not founded, on every screen.
  await expect(page.getByTestId('@banner/not-founded')).toBeVisible();

  await admin.patchMerchant(sandbox.credentials.merchantId, { ipWhitelist: ['10.0.0.0/8'] });
  await go(page, 'profiles');
  await page.getByTestId('@selfcheck/run-button').click();
  await expect(page.getByTestId('@selfcheck/whitelist')).toBeVisible();
  await expect(page.getByTestId('@selfcheck/whitelist')).toContainText('Oops');
  await expect(page.getByTestId('@selfcheck/whitelist')).toContainText('not whitelisted');
  await saveScreenshot(page, 'selfcheck-not-whitelisted');
  await go(page, 'dashboard');
  await page.getByTestId('@dashboard/sync-button').click();
  await expect(page.getByTestId('@banner/offline')).toHaveAttribute('data-reason', 'notWhitelisted');
  await expect(page.getByTestId('@banner/offline')).toContainText('whitelist');
  await expect(page.getByTestId('@banner/offline')).toContainText(/since \d\d:\d\d/);
  await expectAccessible(page, 'dashboard offline (not whitelisted)');
  await saveScreenshot(page, 'dashboard-offline-not-whitelisted');

  await admin.patchMerchant(sandbox.credentials.merchantId, { ipWhitelist: ['127.0.0.0/8', '::1/128'] });
  await admin.setClock(900);
  await go(page, 'profiles');
  await page.getByTestId('@selfcheck/run-button').click();
  await expect(page.getByTestId('@selfcheck/clock')).toBeVisible();
  await expect(page.getByTestId('@selfcheck/clock')).toContainText('clock is off');
  await expect(page.getByTestId('@selfcheck/report')).toContainText(/900 s/);
  await saveScreenshot(page, 'selfcheck-clock-drift');
  await go(page, 'dashboard');
  await page.getByTestId('@dashboard/sync-button').click();
  await expect(page.getByTestId('@banner/offline')).toHaveAttribute('data-reason', 'clockDrift');
  await expect(page.getByTestId('@banner/offline')).toContainText('clock');
});

test('a profile is removed from the profiles screen: one nobody founded after a second click, a founded one signed by its admin', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const sandbox = await desk.startSandbox();
  await desk.value('profiles/importFile', { name: 'old', path: sandbox.credentialsPath });
  // Imported behind the window's back: open the app again so it lists both.
  await page.goto(desk.url);
  await go(page, 'profiles');
  const rows = page.getByTestId('@profiles/row');
  await expect(rows).toHaveCount(2);
  const old = rows.filter({ has: page.getByText('old', { exact: true }) });
  await old.getByTestId('@profiles/remove-button').click();
  await expect(old.getByTestId('@profiles/remove-confirm')).toHaveText('Remove old for good');
  await expectAccessible(page, 'profiles, a removal waiting for its second click');
  await old.getByTestId('@profiles/remove-keep').click();
  await expect(old.getByTestId('@profiles/remove-confirm')).toHaveCount(0);
  await old.getByTestId('@profiles/remove-button').click();
  await old.getByTestId('@profiles/remove-confirm').click();
  await expect(page.getByTestId('@profiles/notice')).toHaveText('Profile old removed.');
  await expect(rows).toHaveCount(1);
  expect((await desk.value('profiles/list', {})).map((profile) => profile.name)).toEqual(['demo']);

  // The founded demo profile asks one of its admins: a wrong passphrase removes nothing.
  await rows.first().getByTestId('@profiles/remove-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog).toContainText('Remove profile demo');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill('not the passphrase at all');
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toHaveAttribute('data-code', 'wrongPassphrase');
  expect((await desk.value('profiles/list', {})).map((profile) => profile.name)).toEqual(['demo']);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog).toBeHidden();
  // Its credentials are gone; the row stays because the demo desk's own withdrawal requests keep it for the audit trail.
  expect((await desk.value('profiles/list', {})).map((profile) => [profile.name, profile.credentialSource])).toEqual([['demo', 'missing']]);
});
