// Batch payouts through the CLI against the real sandbox (issue 13): a 200-line CSV with 3 bad lines is refused naming
// lines 17, 88 and 150 with nothing stored; a good batch is approved by one signature and submitted; a CLI process
// SIGKILLed mid-batch and then resumed leaves exactly one order per line at the sandbox; the export matches the
// sandbox's orders; a line whose amount is edited in the database after approval is not sent, and is named.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutBatchView, PayoutSubmitResult } from '../../../electron/contract';
import { SandboxState } from '../engine/fixtures/sandbox-state';
import { APPROVER, as, expectFailure, expectOk, INITIATOR, json, openCliDesk, processEnv, setUpDesk, startCliProcess, tronAddress, type CliDesk } from './support';

let desk: CliDesk;
let sandbox: SandboxState;
let merchantId: string;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '1000000', trx: '100000' } })).status).toBe(200);
  expectOk(await desk.cli(['sync']));
  sandbox = new SandboxState(desk.sandbox.dataDir);
}, 120_000);

afterAll(async () => {
  sandbox?.close();
  await desk?.close();
});

interface Line {
  readonly currency: string;
  readonly amount: string;
  readonly toAddress: string;
  readonly memo: string;
  readonly userOrder?: string;
}

/** A CSV as a spreadsheet saves it: a byte-order mark, CRLF, a quoted memo with a comma and a quote. */
function writeCsv(name: string, lines: readonly Line[]): string {
  const quote = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const body = lines.map((line) => [line.currency, line.amount, line.toAddress, quote(line.memo), line.userOrder ?? ''].join(',')).join('\r\n');
  const path = join(desk.dir, name);
  writeFileSync(path, `\uFEFFcurrency,amount,toAddress,memo,userOrder\r\n${body}\r\n`);
  return path;
}

function goodLines(count: number, tag: string): Line[] {
  return Array.from({ length: count }, (_, index) => ({ currency: 'trx.usdt', amount: `${10 + index}.5`, toAddress: tronAddress(), memo: `${tag} payout ${index + 1}, "net"` }));
}

function rowCount(table: string): number {
  const db = new Database(desk.dbPath, { readonly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function importBatch(path: string): Promise<PayoutBatchView> {
  return json<PayoutBatchView>(expectOk(await desk.cli(['payouts', 'import', path, '--as', INITIATOR.name, '--json'], as(INITIATOR))));
}

async function approve(batch: PayoutBatchView): Promise<PayoutBatchView> {
  return json<PayoutBatchView>(expectOk(await desk.cli(['payouts', 'approve', batch.id, '--as', APPROVER.name, '--json'], as(APPROVER))));
}

/** Orders at the sandbox per line of the batch (by destination: an order created twice under two userOrders would show). */
function ordersPerLine(batch: PayoutBatchView): number[] {
  return batch.lines.map((line) => sandbox.ordersTo(merchantId, line.toAddress).length);
}

describe('payouts import', () => {
  it('refuses a 200-line file with 3 bad lines, naming lines 17, 88 and 150, and stores nothing', async () => {
    const lines = goodLines(200, 'bad');
    lines[16] = { ...(lines[16] as Line), toAddress: 'TnotAnAddress' };
    lines[87] = { ...(lines[87] as Line), amount: '1.1234567' };
    lines[149] = { ...(lines[149] as Line), currency: 'doge' };
    const requestsBefore = rowCount('withdrawal_requests');
    const auditBefore = rowCount('audit_log');
    const run = await desk.cli(['payouts', 'import', writeCsv('bad.csv', lines), '--as', INITIATOR.name], as(INITIATOR));
    const message = expectFailure(run, 2);
    expect(message).toContain('nothing was stored');
    expect(message).toContain('3 of 200 lines');
    expect([...message.matchAll(/line (\d+): /g)].map((match) => Number(match[1]))).toEqual([17, 88, 150]);
    expect(message).toMatch(/line 88: amount: [^;]*at most 6 decimal places/);
    expect(rowCount('payout_batches')).toBe(0);
    expect(rowCount('payout_lines')).toBe(0);
    expect(rowCount('withdrawal_requests')).toBe(requestsBefore);
    expect(rowCount('audit_log')).toBe(auditBefore);
  }, 60_000);

  it('refuses a header without the required columns, and a userOrder used twice in the file', async () => {
    const path = join(desk.dir, 'header.csv');
    writeFileSync(path, 'currency,amount,address\ntrx.usdt,1,T\n');
    expect(expectFailure(await desk.cli(['payouts', 'import', path, '--as', INITIATOR.name], as(INITIATOR)), 2)).toMatch(/unknown column "address".*first line must name the columns currency, amount, toAddress, memo/);
    const lines = goodLines(3, 'dup').map((line) => ({ ...line, userOrder: 'same-order' }));
    const message = expectFailure(await desk.cli(['payouts', 'import', writeCsv('dup.csv', lines), '--as', INITIATOR.name], as(INITIATOR)), 2);
    expect(message).toContain("line 2: userOrder: same-order is also line 1's");
    expect(message).toContain("line 3: userOrder: same-order is also line 1's");
    expect(rowCount('payout_batches')).toBe(0);
  }, 60_000);
});

describe('a batch approved as a whole and submitted', () => {
  it('shows the intent, takes one approval, and sends each line exactly once even when SIGKILLed mid-batch', async () => {
    const lines = goodLines(40, 'kill');
    lines[4] = { ...(lines[4] as Line), userOrder: 'payroll-2026-05-line5' };
    const batch = await importBatch(writeCsv('good.csv', lines));
    expect(batch.fingerprint).toMatch(/^[A-Z2-7]{4}(?:-[A-Z2-7]{4}){3}$/);
    expect(batch.lineCount).toBe(40);
    expect(batch.state).toBe('awaitingApproval');
    const amount = lines.reduce((sum, line) => sum + Number(line.amount) * 10, 0) / 10;
    expect(batch.totals).toHaveLength(1);
    expect(batch.totals[0]).toMatchObject({ currency: 'trx.usdt', lines: 40, amount: String(amount) });
    expect(Number(batch.totals[0]?.total)).toBeGreaterThan(amount);
    expect(batch.flags.filter((flag) => flag.kind === 'newDestination')).toHaveLength(40);
    expect(batch.policies[0]).toMatchObject({ currency: 'trx.usdt', reference: 'default', largestLine: '49.5', approvalsForLargestLine: 1 });
    expect(batch.lines[4]?.userOrder).toBe('payroll-2026-05-line5');
    expect(batch.lines[0]?.userOrder).toMatch(/^pb-\d{8}-[0-9a-f]{12}-1$/);

    // The initiator cannot approve; the approver's one signature approves every line.
    const ownApproval = await desk.cli(['payouts', 'approve', batch.id, '--as', INITIATOR.name], as(INITIATOR));
    expect(ownApproval.stdout).toBe(`Approving batch ${batch.id}: 40 lines (${batch.totals[0]?.total} trx.usdt with fees) from good.csv, requested by carol; fingerprint ${batch.fingerprint}\n`);
    expect(expectFailure({ ...ownApproval, stdout: '' }, 1)).toContain('carol is an initiator and may not approve withdrawals');
    const approved = await approve(batch);
    expect(approved).toMatchObject({ state: 'approved', countedApprovals: 1, requiredApprovals: 1, verified: true, fingerprint: batch.fingerprint });
    expect(approved.stateCounts).toEqual({ approved: 40 });

    // Submit as a real process and kill it once some lines reached the sandbox.
    const child = await startCliProcess(['--db', desk.dbPath, 'payouts', 'submit', batch.id, '--as', INITIATOR.name], processEnv({ ...desk.env, TREASURY_DESK_PASSPHRASE: INITIATOR.passphrase }), '', { testSeals: true });
    let sentBeforeKill = 0;
    const started = Date.now();
    while (Date.now() - started < 60_000) {
      sentBeforeKill = sandbox.orderCount(merchantId);
      if (sentBeforeKill >= 5 || child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    expect(sentBeforeKill).toBeGreaterThanOrEqual(5);
    const afterKill = sandbox.orderCount(merchantId);
    expect(afterKill, 'the kill came before the last line').toBeLessThan(40);

    // Resume: the in-flight line is checked with checkWithdrawOrder, the rest are sent.
    const resumed = json<PayoutSubmitResult>(expectOk(await desk.cli(['payouts', 'submit', batch.id, '--as', INITIATOR.name, '--json'], as(INITIATOR))));
    expect(resumed.failures).toEqual([]);
    expect(resumed.batch.stateCounts).toEqual({ submitted: 40 });
    expect(ordersPerLine(resumed.batch)).toEqual(Array.from({ length: 40 }, () => 1));
    expect(sandbox.orderCount(merchantId)).toBe(40);
    expect(sandbox.ordersTo(merchantId, lines[4]?.toAddress ?? '')[0]?.userOrder).toBe('payroll-2026-05-line5');

    // A third run sends nothing.
    const third = await desk.cli(['payouts', 'submit', batch.id, '--as', INITIATOR.name], as(INITIATOR));
    expect(expectFailure({ ...third, stdout: '' }, 1)).toContain('has no line to submit: it is inProgress');
    expect(sandbox.orderCount(merchantId)).toBe(40);

    // The export matches the sandbox's orders line by line.
    const exportPath = join(desk.dir, 'results.csv');
    expectOk(await desk.cli(['payouts', 'export', batch.id, '--csv', exportPath]));
    const { readFileSync } = await import('node:fs');
    const rows = parse(readFileSync(exportPath, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual(['line', 'currency', 'amount', 'fee', 'toAddress', 'memo', 'userOrder', 'state', 'apiOrder', 'txid', 'status', 'error']);
    expect(rows).toHaveLength(40);
    rows.forEach((row, index) => {
      const order = sandbox.ordersTo(merchantId, row['toAddress'] ?? '');
      expect(row['line']).toBe(String(index + 1));
      expect(row['amount']).toBe(lines[index]?.amount);
      expect(row['memo']).toBe(lines[index]?.memo);
      expect(row['userOrder']).toBe(order[0]?.userOrder);
      expect(row['fee']).toBe(order[0]?.fee);
      expect(row['state']).toBe('submitted');
      expect(row['apiOrder']).not.toBe('');
      expect(row['error']).toBe('');
    });
  }, 240_000);

  it('does not send a line whose amount was edited in the database after approval, and names it', async () => {
    const lines = goodLines(3, 'tamper');
    const batch = await approve(await importBatch(writeCsv('tamper.csv', lines)));
    const before = sandbox.orderCount(merchantId);
    const db = new Database(desk.dbPath);
    db.prepare('UPDATE withdrawal_requests SET amount = ? WHERE id = ?').run('9999', Number(batch.lines[1]?.requestId));
    db.close();
    const run = await desk.cli(['payouts', 'submit', batch.id, '--as', INITIATOR.name], as(INITIATOR));
    expect(expectFailure({ ...run, stdout: '' }, 1)).toContain('line 2');
    expect(run.stdout).toMatch(/line 2 not sent: [^\n]*differs from what carol signed \(amount\)/);
    expect(sandbox.orderCount(merchantId)).toBe(before + 2);
    expect(sandbox.ordersTo(merchantId, lines[1]?.toAddress ?? '')).toEqual([]);
    const status = json<PayoutBatchView>(expectOk(await desk.cli(['payouts', 'status', batch.id, '--json'])));
    expect(status.verified).toBe(false);
    expect(status.problems.join('\n')).toMatch(/^line 2: what would be sent differs/m);
  }, 120_000);
});
