// `withdraw list` and `withdraw status` mark the lines of a batch payout: "batch <id> line <n> (<fingerprint>)" where
// the request's view names its batch, nothing for a single request, and "line ?" once the line's row is gone (what the
// altered desk database no longer tells), against the real sandbox.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutBatchView, WithdrawalView } from '../../../electron/contract';
import { as, expectOk, INITIATOR, json, openCliDesk, setUpDesk, tronAddress, type CliDesk } from './support';

let desk: CliDesk;
let batch: PayoutBatchView;
let single: WithdrawalView;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  expect((await desk.admin('PATCH', `/merchants/${desk.sandbox.credentials.merchantId}`, { balances: { 'trx.usdt': '100000' } })).status).toBe(200);
  expectOk(await desk.cli(['sync']));
  const path = join(desk.dir, 'two.csv');
  writeFileSync(path, `currency,amount,toAddress,memo\ntrx.usdt,15,${tronAddress()},first\ntrx.usdt,16,${tronAddress()},second\n`);
  batch = json<PayoutBatchView>(expectOk(await desk.cli(['payouts', 'import', path, '--as', INITIATOR.name, '--json'], as(INITIATOR))));
  const made = json<{ withdrawal: WithdrawalView }>(
    expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '17', '--to', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR))),
  );
  single = made.withdrawal;
}, 120_000);
afterAll(async () => desk?.close());

/** The `withdraw list` line of request `id`. */
function listedLine(stdout: string, id: string): string {
  const line = stdout.split('\n').find((text) => text.trimStart().startsWith(`${id} `));
  if (line === undefined) throw new Error(`request ${id} is not listed:\n${stdout}`);
  return line;
}

describe('batch payout lines in the withdraw commands', () => {
  it('withdraw list names each line of the batch, its number and fingerprint, and nothing for a single request', async () => {
    const { stdout } = expectOk(await desk.cli(['withdraw', 'list']));
    expect(stdout.split('\n')[0]).toMatch(/requested \([^)]+\)\s+batch payout$/);
    for (const line of batch.lines) expect(listedLine(stdout, line.requestId)).toMatch(new RegExp(`  batch ${batch.id} line ${line.line} \\(${batch.fingerprint}\\)$`));
    expect(listedLine(stdout, single.id)).toMatch(/ {2}-$/);
    expect(listedLine(stdout, single.id)).not.toContain('batch');
  });

  it('withdraw status says which batch and line a request is, and nothing of a batch for a single request', async () => {
    const second = batch.lines.find((line) => line.line === 2);
    const { stdout } = expectOk(await desk.cli(['withdraw', 'status', second?.requestId ?? '']));
    expect(stdout).toMatch(new RegExp(`^batch payout +batch ${batch.id} line 2 \\(${batch.fingerprint}\\)$`, 'm'));
    expect(expectOk(await desk.cli(['withdraw', 'status', single.id])).stdout).not.toMatch(/batch/);
  });

  it('a line whose line row was deleted is still marked as the batch\'s, its number unknown', async () => {
    const first = batch.lines.find((line) => line.line === 1);
    const db = new Database(desk.dbPath);
    db.prepare('DELETE FROM payout_lines WHERE request_id = ?').run(Number(first?.requestId));
    db.close();
    const { stdout } = expectOk(await desk.cli(['withdraw', 'status', first?.requestId ?? '']));
    expect(stdout).toMatch(new RegExp(`^batch payout +batch ${batch.id} line \\? \\(${batch.fingerprint}\\)$`, 'm'));
  });
});
