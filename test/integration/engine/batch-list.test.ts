// withdrawals/list over a 200-line batch payout: the lines of one batch share its parsed statements in one list call,
// and every check still holds per line: each listed line's view equals the one withdrawals/get judges on its own, and a
// line whose row was edited after signing is flagged as altered while the other lines of the page still verify.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutBatchView } from '../../../electron/contract';
import { INITIATOR, openDesk, payoutFile, type Desk } from './support';

let desk: Desk;
let batch: PayoutBatchView;

beforeAll(async () => {
  desk = await openDesk();
  expect((await desk.admin('PATCH', `/merchants/${desk.sandbox.credentials.merchantId}`, { balances: { 'trx.usdt': '100000' } })).status).toBe(200);
  await desk.value('sync/run', {});
  batch = await desk.value('payouts/import', { path: payoutFile(desk, 'two-hundred.csv', 200), as: INITIATOR });
}, 180_000);
afterAll(async () => desk?.close());

/** The time one withdrawals/list call of 100 rows takes, the median of `runs`. */
async function listMedianMs(runs: number): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await desk.value('withdrawals/list', { limit: 100 });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? Number.NaN;
}

describe('withdrawals/list with a 200-line batch', () => {
  it('shows each line as withdrawals/get judges it alone', async () => {
    const { rows } = await desk.value('withdrawals/list', { limit: 100 });
    expect(rows).toHaveLength(100);
    console.info(`withdrawals/list, 100 rows of a 200-line batch: median ${(await listMedianMs(7)).toFixed(0)} ms`);
    for (const row of rows.filter((_, index) => index % 9 === 0)) {
      const alone = await desk.value('withdrawals/get', { id: row.id });
      expect(row).toEqual({ ...alone, stuck: row.stuck });
    }
    expect(rows.every((row) => row.batch?.id === batch.id && row.batch.fingerprint === batch.fingerprint)).toBe(true);
    expect(rows.every((row) => row.verification.problems.some((problem) => problem.startsWith('waiting for')))).toBe(true);
  });

  it('flags a line edited after signing, the other lines of the same page still verify as signed', async () => {
    const { rows } = await desk.value('withdrawals/list', { limit: 100 });
    const edited = rows[3];
    if (edited === undefined) throw new Error('no row to edit');
    const db = new Database(desk.dbPath);
    db.prepare("UPDATE withdrawal_requests SET amount = '9999' WHERE id = ?").run(Number(edited.id));
    db.close();
    const after = (await desk.value('withdrawals/list', { limit: 100 })).rows;
    const flagged = after.filter((row) => row.verification.problems.some((problem) => problem.includes('altered after it was made')));
    expect(flagged.map((row) => row.id)).toEqual([edited.id]);
    expect(flagged[0]?.verification.problems.join(' ')).toContain('(amount)');
    expect(after.filter((row) => row.id !== edited.id).every((row) => row.verification.problems.length === 1)).toBe(true);
  });
});
