// Each line of a batch payout is sent on its own submit statement: a line whose state column was flipped to
// `submitting` in the database (as a crash would leave it, but with no operator's submit statement for it) is never
// sent on the strength of another line's statement, and says so; the line that was really submitted goes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVER, INITIATOR, tronAddress, type Desk } from '../engine/support';
import { expectNoOrder, fundedDesk, tamper } from './support';

let desk: Desk;
beforeAll(async () => {
  desk = await fundedDesk();
}, 120_000);
afterAll(async () => desk?.close());

describe('a batch line without its own submit statement', () => {
  it('is not sent when another line of the batch was submitted', async () => {
    const path = join(desk.dir, 'two-lines.csv');
    writeFileSync(path, `currency,amount,toAddress,memo\ntrx.usdt,12,${tronAddress()},first\ntrx.usdt,13,${tronAddress()},second\n`);
    const batch = await desk.value('payouts/import', { path, as: INITIATOR });
    await desk.value('payouts/approve', { id: batch.id, as: APPROVER });
    const [first, second] = batch.lines;
    if (first === undefined || second === undefined) throw new Error('the batch has not two lines');
    tamper(desk, (db) => db.prepare("UPDATE withdrawal_requests SET state = 'submitting' WHERE id = ?").run(Number(second.requestId)));

    const result = await desk.value('payouts/submit', { id: batch.id, as: INITIATOR });
    expect(result.sent).toBe(1);
    expect(result.failures).toEqual([{ line: 2, error: expect.stringContaining('no operator signed the submission') }]);
    expect(result.batch.lines.map((line) => line.state)).toEqual(['submitted', 'submitting']);
    await expectNoOrder(desk, second.userOrder);
    const order = await desk.admin('GET', `/withdrawals/${desk.sandbox.credentials.merchantId}/${first.userOrder}`);
    expect(order.status).toBe(200);
  });
});
