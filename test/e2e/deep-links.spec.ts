// E2E: treasury-desk:// links through the app's own link handling (electron/main/deep-links.ts over the harness's
// stand-in for Electron's app): a link on a second instance's command line, or macOS's open-url, opens the withdrawal,
// the batch payout or the deposit it names in the running window; a malformed, unknown, bad-id or control-character link
// is shown as such, escaped, and changes nothing (no request changes state, no statement is signed). Also the desktop's
// other notice of this kind: a verified update's "Version X is ready: restart now / later" banner, notes escaped.
import { test, expect, type Desk } from './support/desk';
import { DEMO_ADMIN, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { evmAddress, writePayoutCsv } from './support/payout-files';

const SECOND_INSTANCE = '/opt/Treasury Desk/treasury-desk';

async function deskState(desk: Desk): Promise<string> {
  const withdrawals = await desk.value('withdrawals/list', { limit: 200 });
  const head = await desk.value('audit/head', {});
  return JSON.stringify({ withdrawals: withdrawals.rows.map((row) => [row.id, row.state]), head });
}

test('each link kind opens its screen in the running window', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '32', toAddress: evmAddress(), as: DEMO_ADMIN });
  const path = writePayoutCsv(desk.dataDir, 'links.csv', [
    ['eth.usdt', '21', evmAddress(), 'one'],
    ['eth.usdt', '22', evmAddress(), 'two'],
  ]);
  const batch = await desk.value('payouts/import', { path, as: DEMO_ADMIN });
  const [deposit] = (await desk.value('deposits/list', { limit: 1 })).rows;
  if (deposit === undefined) throw new Error('the demo has no deposit');
  const before = await deskState(desk);

  // A link on a second instance's command line reaches this window, which shows the withdrawal.
  desk.harness.links.secondInstance([SECOND_INSTANCE, `treasury-desk://withdrawal/${withdrawal.id}`]);
  expect(desk.harness.desktop.records.at(-1)).toEqual({ kind: 'showMainWindow' });
  await expect(page.getByTestId('@screen/withdrawals')).toBeVisible();
  await expect(page.getByTestId('@withdrawals/detail')).toHaveAttribute('data-id', withdrawal.id);
  await saveScreenshot(page, 'deep-link-withdrawal');

  // The batch payout, from elsewhere in the app.
  await go(page, 'dashboard');
  desk.harness.links.secondInstance([SECOND_INSTANCE, `treasury-desk://batch/${batch.id}`]);
  await expect(page.getByTestId('@withdrawals/tab-batches')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('@payouts/detail').getByTestId('@payouts/fingerprint')).toHaveText(batch.fingerprint);

  // The deposit, found by its transaction (macOS hands links over with open-url).
  await go(page, 'dashboard');
  desk.harness.links.openUrl(`treasury-desk://deposit/${deposit.txid}`);
  await expect(page.getByTestId('@screen/deposits')).toBeVisible();
  await expect(page.getByTestId('@deposits/search')).toHaveValue(deposit.txid);
  await expect(page.getByTestId('@banner/link-refused')).toHaveCount(0);
  await expectAccessible(page, 'deposit opened from a link');

  // Opening never acted: every request is in the state it was, and the audit log has no new row.
  expect(await deskState(desk)).toBe(before);
});

test('a malformed, unknown, bad-id or control-character link is shown as such and changes nothing', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'dashboard');
  const before = await deskState(desk);
  const notice = page.getByTestId('@banner/link-refused');

  desk.harness.links.secondInstance([SECOND_INSTANCE, 'treasury-desk://withdrawal/1?approve=yes']);
  await expect(notice).toHaveAttribute('data-problem', 'malformed');
  await expect(notice).toContainText('Link not opened.');
  await expect(page.getByTestId('@banner/link-refused-link')).toHaveText('treasury-desk://withdrawal/1?approve=yes');
  await expect(page.getByTestId('@screen/dashboard')).toBeVisible();

  desk.harness.links.secondInstance([SECOND_INSTANCE, 'treasury-desk://approve/7']);
  await expect(notice).toHaveAttribute('data-problem', 'unknownKind');
  await expect(notice).toContainText('"approve", which this desk does not know');

  // A payee link whose id the payees list would never show (payees.spec.ts opens a real one).
  desk.harness.links.secondInstance([SECOND_INSTANCE, 'treasury-desk://payee/ACME']);
  await expect(notice).toHaveAttribute('data-problem', 'badId');
  await expect(notice).toContainText('payee id');

  // A right-to-left override is shown as a mark, never applied.
  desk.harness.links.openUrl('treasury-desk://withdrawal/\u202E12');
  await expect(notice).toHaveAttribute('data-problem', 'malformed');
  await expect(page.getByTestId('@banner/link-refused-link')).toHaveText('treasury-desk://withdrawal/⟨U+202E⟩12');
  expect(await notice.textContent()).not.toContain('\u202E');
  await expectAccessible(page, 'a refused link');
  await saveScreenshot(page, 'deep-link-refused');

  await page.getByTestId('@banner/link-refused-dismiss').click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('@screen/dashboard')).toBeVisible();
  expect(await deskState(desk)).toBe(before);
});

test('a verified update shows "Version X is ready" with its notes escaped; the operator chooses restart now or later', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const banner = page.getByTestId('@banner/update-ready');
  await expect(banner).toHaveCount(0);
  desk.harness.updates.offer({ version: '1.3.0', notes: 'Fixes <img src=x onerror="window.hacked=1"> the batch screen \u202Ereversed' });
  await expect(banner).toContainText('Version 1.3.0 is ready.');
  await banner.getByText('What changes').click();
  const notes = page.getByTestId('@banner/update-notes');
  await expect(notes).toHaveText('Fixes <img src=x onerror="window.hacked=1"> the batch screen ⟨U+202E⟩reversed');
  await expect(notes.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (globalThis as unknown as { hacked?: number }).hacked)).toBeUndefined();
  await expectAccessible(page, 'an update ready');
  await saveScreenshot(page, 'update-ready');

  await page.getByTestId('@banner/update-restart').click();
  await expect.poll(() => desk.harness.updates.restarts).toEqual(['1.3.0']);
  await expect(page.getByTestId('@banner/update-problem')).toHaveCount(0);

  await page.getByTestId('@banner/update-later').click();
  await expect(banner).toHaveCount(0);
  // A reload asks again: the update is still ready until the operator restarts.
  await page.reload();
  await expect(page.getByTestId('@banner/update-ready')).toContainText('Version 1.3.0 is ready.');
});
