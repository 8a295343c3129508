// A batch payout in the approvals queue and the notifications, with the real engine against the sandbox: a 3-line
// batch raises exactly one "waiting for your approval" notice, to the operators whose approval would count (not its
// initiator, not the viewer), and none per line; it counts once in notifications/waiting and in withdrawals/queue,
// whose single requests never include its lines; every line's view names its batch, line and fingerprint; once
// approved, nobody is asked any more and no notice is raised again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutBatchView } from '../../../electron/contract';
import type { EngineOptions } from '../../../electron/core/engine';
import { APPROVER, collectNotices, INITIATOR, openDesk, payoutFile, tronAddress, type Desk } from './support';

const NOTIFYING: Partial<EngineOptions> = { notifications: { reviewIntervalMs: 3_600_000, offlineNoticeDelayMs: 3_600_000, watchdogIntervalMs: 3_600_000 } };

let desk: Desk;
let notices: ReturnType<typeof collectNotices>;

const waitingFor = async (operator: string): Promise<number> => (await desk.value('notifications/waiting', { operator })).approvals;

beforeAll(async () => {
  desk = await openDesk({ engine: NOTIFYING });
  notices = collectNotices(desk.engine);
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '50000' } })).status).toBe(200);
  await desk.value('sync/run', {});
}, 120_000);
afterAll(async () => desk?.close());

describe('a 3-line batch payout waiting for approval', () => {
  let batch: PayoutBatchView;

  it('is one notice, to the approvers (not the initiator, not the viewer), none per line', async () => {
    const from = notices.raised.length;
    batch = await desk.value('payouts/import', { path: payoutFile(desk, 'three.csv', 3), as: INITIATOR });
    const [notice, ...others] = await notices.after(from, 1);
    expect(others).toEqual([]);
    expect(notice).toMatchObject({ id: `main:approval:batch:${batch.id}`, kind: 'approvalWaiting', title: 'A batch payout is waiting for your approval', target: { kind: 'payoutBatch', id: batch.id } });
    expect([...(notice?.recipients ?? [])].sort()).toEqual(['alice', 'bob', 'frank']);
    expect(notice?.body).toMatch(new RegExp(`^Batch ${batch.fingerprint}: 3 payouts waits for your approval\\. carol imported "three\\.csv" \\(batch ${batch.id}\\): `));
    expect(notice?.body).toContain(`${batch.totals[0]?.total} USDT on TRON with fees. Approvals: 0 of 1.`);
    expect(notice?.discreetBody).not.toMatch(/carol|three|USDT|[0-9]/);
  });

  it('counts once for each approver, not at all for its initiator', async () => {
    expect(await waitingFor('bob')).toBe(1);
    expect(await waitingFor('alice')).toBe(1);
    expect(await waitingFor('carol')).toBe(0);
    expect(await waitingFor('dave')).toBe(0);
  });

  it('is one entry of the approvals queue, whose single requests hold none of its lines; each line names its batch', async () => {
    const asking = notices.raised.length;
    const { withdrawal: single } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '40', toAddress: tronAddress(), as: INITIATOR });
    expect(single.batch).toBeNull();
    expect((await notices.after(asking, 1)).map((notice) => notice.id)).toEqual([`main:approval:${single.id}`]);
    const queue = await desk.value('withdrawals/queue', {});
    expect(queue.batches).toEqual([
      expect.objectContaining({ id: batch.id, fingerprint: batch.fingerprint, lineCount: 3, totals: batch.totals, state: 'awaitingApproval', countedApprovals: 0, requiredApprovals: 1, verified: false }),
    ]);
    expect(queue.batches[0]).not.toHaveProperty('lines');
    expect(queue.requests.map((request) => request.id)).toEqual([single.id]);
    expect(await waitingFor('bob')).toBe(2);

    const lineIds = batch.lines.map((line) => line.requestId);
    const listed = (await desk.value('withdrawals/list', {})).rows.filter((row) => lineIds.includes(row.id));
    expect(listed.map((row) => [row.id, row.batch])).toEqual(
      batch.lines.map((line) => [line.requestId, { id: batch.id, fingerprint: batch.fingerprint, line: line.line }]).reverse(),
    );
  });

  it('once approved as a whole, asks nobody and raises nothing more; the queue still shows it once, to be sent', async () => {
    const from = notices.raised.length;
    await desk.value('payouts/approve', { id: batch.id, as: APPROVER });
    expect(await waitingFor('bob')).toBe(1);
    expect(await waitingFor('alice')).toBe(1);
    expect(await notices.after(from, 0)).toEqual([]);
    const queue = await desk.value('withdrawals/queue', {});
    expect(queue.batches.map((entry) => [entry.id, entry.state, entry.countedApprovals])).toEqual([[batch.id, 'approved', 1]]);
    expect(queue.requests.every((request) => request.batch === null)).toBe(true);
  });
});
