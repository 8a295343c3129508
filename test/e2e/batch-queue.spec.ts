// E2E: a batch payout in the Withdrawals screen's approvals queue and in the notifications, in the real renderer. A
// 3-line batch imported at another workstation reaches the approver signed in here as one notice (none per line) and
// counts once in the tray and in the queue tab; the queue shows it as one entry (fingerprint, line count, totals) and
// no row of its lines, beside a single request; All orders marks each line with its batch; "Open batch" and a click on
// the notice open it in Batch payouts. Axe on each state.
import { test, expect, type Desk } from './support/desk';
import { DEMO_ADMIN, DEMO_APPROVER, go, signInAs, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { evmAddress, writePayoutCsv } from './support/payout-files';

const shown = (desk: Desk): string[] => desk.harness.desktop.notifications().map((notice) => notice.id);

test('a batch waits in the queue and the notifications once, never as its lines, and opens in Batch payouts', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await signInAs(page, DEMO_APPROVER);

  // demo-admin imports a 3-line batch and requests one single withdrawal, elsewhere.
  const path = writePayoutCsv(desk.dataDir, 'june.csv', [
    ['eth.usdt', '21', evmAddress(), 'one'],
    ['eth.usdt', '22', evmAddress(), 'two'],
    ['eth.usdt', '23.5', evmAddress(), 'three'],
  ]);
  const batch = await desk.value('payouts/import', { path, as: DEMO_ADMIN });
  const { withdrawal: single } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '31', toAddress: evmAddress(), as: DEMO_ADMIN });
  const lineIds = batch.lines.map((line) => line.requestId);

  // One notice for the batch, one for the single request; the tray counts the batch once.
  await expect.poll(() => [...shown(desk)].sort()).toEqual([`demo:approval:${single.id}`, `demo:approval:batch:${batch.id}`].sort());
  const notice = desk.harness.desktop.notifications().find((candidate) => candidate.id === `demo:approval:batch:${batch.id}`);
  expect(notice?.body).toMatch(new RegExp(`^Batch ${batch.fingerprint}: 3 payouts waits for your approval\\.`));
  await expect.poll(() => desk.harness.desktop.approvalsWaiting().at(-1)).toEqual({ count: 2, operator: DEMO_APPROVER.operator });

  // The queue: the batch once, the single request, no line of the batch.
  await go(page, 'withdrawals');
  await expect(page.getByTestId('@withdrawals/tab-queue')).toHaveText('Approvals queue (2)');
  await expect(page.getByLabel('2 waiting for approval')).toHaveText('2');
  const queue = page.getByTestId('@withdrawals/queue');
  const entry = queue.getByTestId('@withdrawals/queue-batch');
  await expect(entry).toHaveCount(1);
  await expect(entry).toHaveAttribute('data-id', batch.id);
  await expect(entry.getByTestId('@withdrawals/queue-batch-fingerprint')).toHaveText(batch.fingerprint);
  await expect(entry.getByTestId('@withdrawals/queue-batch-lines')).toHaveText('3 payouts');
  await expect(entry.getByTestId('@withdrawals/queue-batch-totals')).toContainText(batch.totals[0]?.total ?? 'no totals');
  await expect(entry.getByTestId('@withdrawals/queue-batch-counted')).toHaveText('0 of 1 independent approval');
  const items = queue.getByTestId('@withdrawals/queue-item');
  await expect(items).toHaveCount(1);
  await expect(items).toHaveAttribute('data-id', single.id);
  for (const id of lineIds) await expect(page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${id}"]`)).toHaveCount(0);
  await expectAccessible(page, 'approvals queue with a batch payout');
  await saveScreenshot(page, 'batch-queue');

  // All orders still lists the lines, each marked with its batch; the single request is not.
  await page.getByTestId('@withdrawals/tab-orders').click();
  for (const line of batch.lines) {
    await expect(page.locator(`[data-testid="@withdrawals/order-row"][data-id="${line.requestId}"]`).getByTestId('@withdrawals/order-batch')).toHaveText(`Batch ${batch.id}, line ${line.line}`);
  }
  await expect(page.locator(`[data-testid="@withdrawals/order-row"][data-id="${single.id}"]`).getByTestId('@withdrawals/order-batch')).toHaveCount(0);
  await expectAccessible(page, 'all orders with batch lines marked');

  // "Open batch" in the queue opens it in Batch payouts.
  await page.getByTestId('@withdrawals/tab-queue').click();
  await entry.getByTestId('@withdrawals/open-batch-button').click();
  await expect(page.getByTestId('@withdrawals/tab-batches')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('@payouts/detail').getByTestId('@payouts/fingerprint')).toHaveText(batch.fingerprint);

  // Clicking the notice from elsewhere in the app opens the batch too.
  await go(page, 'dashboard');
  desk.harness.desktop.clickNotification(`demo:approval:batch:${batch.id}`);
  await expect(page.getByTestId('@screen/withdrawals')).toBeVisible();
  await expect(page.getByTestId('@withdrawals/tab-batches')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('@payouts/detail').getByTestId('@payouts/line-count')).toHaveText('3 lines');
  await expectAccessible(page, 'batch payout opened from its notice');
  await saveScreenshot(page, 'batch-opened-from-notice');
});
