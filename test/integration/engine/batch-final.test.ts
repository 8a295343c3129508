// A batch payout's end with the real engine against the sandbox: when its lines are rejected, cancelled or final at the
// platform, one notice for the batch (never one per line), raised once, to the same people a single request's final
// notice reaches; lines that end differently are counted by outcome, and nothing is said while a line is under way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutBatchView } from '../../../electron/contract';
import type { EngineOptions } from '../../../electron/core/engine';
import { APPROVER, collectNotices, INITIATOR, openDesk, payoutFile, tronAddress, type Desk } from './support';

const NOTIFYING: Partial<EngineOptions> = { notifications: { reviewIntervalMs: 3_600_000, offlineNoticeDelayMs: 3_600_000, watchdogIntervalMs: 3_600_000 } };

let desk: Desk;
let merchantId: string;
let notices: ReturnType<typeof collectNotices>;

/** A batch of `count` lines, imported by carol, with its "waiting for your approval" notice already raised. */
async function importBatch(name: string, count: number): Promise<PayoutBatchView> {
  const from = notices.raised.length;
  const batch = await desk.value('payouts/import', { path: payoutFile(desk, name, count), as: INITIATOR });
  expect((await notices.after(from, 1)).map((notice) => notice.id)).toEqual([`main:approval:batch:${batch.id}`]);
  return batch;
}

/** Moves the sandbox's order through `statuses`, in order. */
async function advance(userOrder: string, statuses: readonly string[]): Promise<void> {
  for (const status of statuses) {
    const moved = await desk.admin('POST', `/withdrawals/${merchantId}/${userOrder}/advance`, { to: status });
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
  }
}

beforeAll(async () => {
  desk = await openDesk({ engine: NOTIFYING });
  notices = collectNotices(desk.engine);
  merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '50000' } })).status).toBe(200);
  await desk.value('sync/run', {});
}, 120_000);
afterAll(async () => desk?.close());

describe('the end of a batch payout', () => {
  it('rejected: one notice naming who and why, to whom a single rejected request goes, none per line', async () => {
    const asking = notices.raised.length;
    const { withdrawal: single } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '40', toAddress: tronAddress(), as: INITIATOR });
    await notices.after(asking, 1);
    const rejectingSingle = notices.raised.length;
    await desk.value('withdrawals/reject', { id: single.id, reason: 'duplicate', as: APPROVER });
    const [singleNotice] = await notices.after(rejectingSingle, 1);

    const batch = await importBatch('rejected.csv', 3);
    const from = notices.raised.length;
    await desk.value('payouts/reject', { id: batch.id, reason: 'wrong month', as: APPROVER });
    const [notice, ...others] = await notices.after(from, 1);
    expect(others).toEqual([]);
    expect(notice).toMatchObject({ id: `main:final:batch:${batch.id}`, kind: 'orderFinal', title: 'A batch payout was rejected', target: { kind: 'payoutBatch', id: batch.id } });
    expect(notice?.recipients).toEqual(singleNotice?.recipients);
    expect(notice?.recipients).toEqual(['carol']);
    expect(notice?.body).toBe(`Batch ${batch.fingerprint}: 3 payouts rejected by bob: "wrong month" (batch ${batch.id}).`);
    expect(notice?.discreetBody).not.toMatch(/bob|month|[0-9]/);
  });

  it('cancelled: one notice; raised once, whatever later reviews see', async () => {
    const batch = await importBatch('cancelled.csv', 2);
    const from = notices.raised.length;
    await desk.value('payouts/cancel', { id: batch.id, as: INITIATOR });
    const [notice, ...others] = await notices.after(from, 1);
    expect(others).toEqual([]);
    expect(notice).toMatchObject({ id: `main:final:batch:${batch.id}`, title: 'A batch payout was cancelled', body: `Batch ${batch.fingerprint}: 2 payouts cancelled (batch ${batch.id}).` });
    const later = notices.raised.length;
    await desk.value('sync/run', {});
    expect(await notices.after(later, 0)).toEqual([]);
  });

  it('paid out and refunded: nothing while a line is under way, then one notice counting each outcome', async () => {
    const batch = await importBatch('mixed.csv', 3);
    await desk.value('payouts/approve', { id: batch.id, as: APPROVER });
    await desk.value('payouts/submit', { id: batch.id, as: INITIATOR });
    const [first, second, third] = batch.lines.map((line) => line.userOrder) as [string, string, string];
    await advance(first, ['pendingTransfer', 'pendingCallback', 'success']);
    await advance(second, ['pendingTransfer', 'WithdrawRefund']);
    await advance(third, ['pendingTransfer', 'pendingCallback']);
    const early = notices.raised.length;
    await desk.value('sync/run', {});
    expect(await notices.after(early, 0)).toEqual([]);

    await advance(third, ['success']);
    const from = notices.raised.length;
    await desk.value('sync/run', {});
    const [notice, ...others] = await notices.after(from, 1);
    expect(others).toEqual([]);
    expect(notice).toMatchObject({ id: `main:final:batch:${batch.id}`, kind: 'orderFinal', recipients: ['carol'], title: 'A batch payout has ended' });
    expect(notice?.body).toBe(`Batch ${batch.fingerprint}: 3 payouts ended: 2 paid out, 1 refunded (batch ${batch.id}).`);
  });
});
