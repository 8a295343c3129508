// E2E: the deposit history — a deposit made through the sandbox's admin interface appears without a reload (verified
// callback → engine → event → table), search by txid, and the offline banner with the cached history still browsable.
import { test, expect } from './support/desk';
import { go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

test('a deposit made through the sandbox appears without a reload, from a verified callback', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const [profile] = (await desk.value('profiles/list', {})).filter((candidate) => candidate.active);
  if (profile === undefined) throw new Error('no active profile after demo/start');
  const admin = sandboxAdmin(desk.demoSandbox().baseUrl);

  // Start the callback listener from Settings and point the sandbox merchant's callback URL at it.
  await go(page, 'settings');
  await page.getByTestId('@settings/callbacks').getByLabel('Port (0: any free port)').fill('0');
  await page.getByTestId('@settings/callbacks-start').click();
  await expect(page.getByTestId('@settings/callbacks-state')).toHaveText('listening');
  const listener = await desk.value('callbacks/state', {});
  expect(listener.url).not.toBeNull();
  await admin.patchMerchant(profile.merchantId, { callbackUrl: listener.url });

  await go(page, 'deposits');
  await expect(page.getByTestId('@deposits/row').first()).toBeVisible();
  // A TRON address of the demo merchant: the one its seeded deposits were paid to.
  const [seeded] = (await desk.value('deposits/list', { currency: 'trx.usdt', limit: 1 })).rows;
  if (seeded === undefined) throw new Error('the demo has no TRON deposit');
  const address = { address: seeded.address };
  const transfer = await admin.transfer({ toAddress: address.address, currency: 'trx.usdt', amount: '1234.567891' });
  expect(transfer.credited).toBe(true);

  const row = page.locator(`[data-testid="@deposits/row"][data-txid="${transfer.txid}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText('callback');
  await expect(row).toContainText('trx.usdt');
  await expect(page.getByTestId('@deposits/count')).toContainText('1 new since opened');

  await page.getByTestId('@deposits/search').fill(transfer.txid);
  await expect(page.getByTestId('@deposits/row')).toHaveCount(1);
  await expect(page.getByTestId('@deposits/row').first()).toHaveAttribute('data-txid', transfer.txid);
  await expectAccessible(page, 'deposits (searched)');
  await saveScreenshot(page, 'deposits-new-callback-deposit');
});

test('when the sandbox stops, the offline banner says why and since when, and cached history stays browsable', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'deposits');
  await expect(page.getByTestId('@deposits/row').first()).toBeVisible();
  const before = await page.getByTestId('@deposits/row').count();

  await desk.demoSandbox().close();
  await go(page, 'dashboard');
  await page.getByTestId('@dashboard/sync-button').click();
  const banner = page.getByTestId('@banner/offline');
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute('data-reason', 'network');
  await expect(banner).toContainText(/Offline since \d\d:\d\d/);
  await expect(banner).toContainText('cannot be reached');
  await expect(page.getByTestId('@shell/connection')).toHaveText(/Offline/);
  // Balances stay on screen from the cache.
  await expect(page.getByTestId('@dashboard/balances')).toBeVisible();
  await saveScreenshot(page, 'dashboard-offline-sandbox-stopped');

  await go(page, 'deposits');
  await expect(page.getByTestId('@banner/offline')).toBeVisible();
  await expect(page.getByTestId('@deposits/row').first()).toBeVisible();
  expect(await page.getByTestId('@deposits/row').count()).toBeGreaterThanOrEqual(Math.min(before, 10));
  const scroller = page.getByTestId('@deposits/scroller');
  await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect(page.getByTestId('@deposits/row').last()).toBeVisible();
  await page.getByTestId('@deposits/currency-filter').selectOption('trx');
  await expect(page.getByTestId('@deposits/row').first()).toBeVisible();
  for (const text of await page.getByTestId('@deposits/row').locator('[role="cell"]:nth-child(2)').allTextContents()) expect(text).toBe('trx');
  await expectAccessible(page, 'deposits offline');
  await saveScreenshot(page, 'deposits-offline');
});
