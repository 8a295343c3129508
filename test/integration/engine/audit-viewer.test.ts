// The audit viewer's engine side on a real SQLite file: audit/list's filters (operator, action, request by id or
// fingerprint, time range, search) and its cursor under them, each row's verification standing (a tampered row fails,
// the rows after it are unchecked), and audit/export of the filtered view as CSV and JSON lines, recorded in the log.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseOf } from '../../../electron/contract';
import { APPROVER, INITIATOR, type Desk } from './support';
import { fundedDesk, requestWithdrawal, tamper, type AuditEntry, type Requested } from '../approvals/support';

type Filter = Record<string, unknown>;

/** Every row the filter selects, walking the cursor `limit` rows at a time (newest first). */
async function walk(desk: Desk, filter: Filter, limit: number): Promise<AuditEntry[]> {
  const rows: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const page: ResponseOf<'audit/list'> = await desk.value('audit/list', { ...filter, limit, ...(cursor === null ? {} : { cursor }) });
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows;
}

const seqs = (rows: readonly AuditEntry[]): number[] => rows.map((row) => row.seq);

describe('audit/list filters and paging', () => {
  let desk: Desk;
  let first: Requested;
  let second: Requested;
  beforeAll(async () => {
    desk = await fundedDesk();
    first = await requestWithdrawal(desk, '1250.5');
    await desk.value('withdrawals/approve', { id: first.id, as: APPROVER });
    second = await requestWithdrawal(desk, '14');
    await desk.value('withdrawals/reject', { id: second.id, as: APPROVER, reason: 'wrong\naddress' });
    for (let i = 0; i < 4; i += 1) await requestWithdrawal(desk, String(20 + i));
  }, 120_000);
  afterAll(async () => desk?.close());

  it('without a filter every row comes, each with a sentence and a verified standing', async () => {
    const all = await walk(desk, {}, 1000);
    expect(all.length).toBe(17);
    expect(seqs(all)).toEqual([...seqs(all)].sort((a, b) => b - a));
    for (const row of all) {
      expect(row.sentence).not.toBe('');
      expect(row.verification).toEqual({ status: 'verified' });
    }
  });

  it('the approval reads as a sentence naming the request from its signed statement', async () => {
    const [approval] = (await desk.value('audit/list', { action: 'withdrawals/approve' })).rows;
    expect(approval?.withdrawal).toMatchObject({ fingerprint: first.fingerprint, amount: '1250.5', currency: 'trx.usdt', toAddress: first.toAddress });
    expect(approval?.sentence).toBe(`bob approved withdrawal ${first.fingerprint} of 1250.5 USDT on TRON to ${first.toAddress}`);
  });

  it('a rejection reason from a person stays on the sentence line, its newline escaped', async () => {
    const [rejection] = (await desk.value('audit/list', { action: 'withdrawals/reject' })).rows;
    expect(rejection?.sentence).toContain(': wrong⟨U+000A⟩address');
    expect(rejection?.sentence).not.toContain('\n');
  });

  it('filters by operator (any case), action and request, by id or fingerprint alike', async () => {
    const carol = await walk(desk, { operator: 'CAROL' }, 1000);
    expect(carol.every((row) => row.operator === 'carol')).toBe(true);
    expect(carol.map((row) => row.action)).toEqual([...Array<string>(6).fill('withdrawals/request'), 'operators/accept']);

    const requests = await walk(desk, { action: 'withdrawals/request' }, 1000);
    expect(requests.length).toBe(6);

    const byId = await walk(desk, { request: first.id }, 1000);
    expect(byId.map((row) => row.action).sort()).toEqual(['withdrawals/approve', 'withdrawals/request']);
    expect(await walk(desk, { request: first.fingerprint.toLowerCase() }, 1000)).toEqual(byId);
    const bobOnSecond = await walk(desk, { request: second.id, operator: 'bob' }, 1000);
    expect(bobOnSecond.map((row) => row.action)).toEqual(['withdrawals/reject']);
  });

  it('a request the desk does not hold, or text that is neither, is refused saying what to give', async () => {
    const missing = await desk.call('audit/list', { request: '999999' });
    expect(missing.ok ? null : missing.error).toMatchObject({ code: 'notFound', message: expect.stringMatching(/no withdrawal request 999999.*withdrawals list/) });
    const nonsense = await desk.call('audit/list', { request: 'yesterday' });
    expect(nonsense.ok ? null : nonsense.error).toMatchObject({ code: 'invalidInput', message: expect.stringMatching(/fingerprint ABCD-EFGH-IJKL-MNOP/) });
    const backwards = await desk.call('audit/list', { from: 2000, to: 1000 });
    expect(backwards.ok ? null : backwards.error).toMatchObject({ code: 'invalidInput', message: expect.stringMatching(/"to" later than "from"/) });
  });

  it('filters by time range [from, to)', async () => {
    const all = await walk(desk, {}, 1000);
    const middle = all[Math.floor(all.length / 2)] as AuditEntry;
    const from = middle.at;
    const to = (all[0] as AuditEntry).at;
    const ranged = await walk(desk, { from, to }, 1000);
    expect(ranged.length).toBeGreaterThan(0);
    expect(ranged.every((row) => row.at >= from && row.at < to)).toBe(true);
    expect(seqs(ranged)).toEqual(seqs(all.filter((row) => row.at >= from && row.at < to)));
  });

  it('searches sentences and details, case-insensitive', async () => {
    const approved = await walk(desk, { search: 'APPROVED withdrawal' }, 1000);
    expect(approved.map((row) => row.action)).toEqual(['withdrawals/approve']);
    const byAddress = await walk(desk, { search: first.toAddress }, 1000);
    expect(byAddress.map((row) => row.action).sort()).toEqual(['withdrawals/approve', 'withdrawals/request']);
    expect(await walk(desk, { search: 'no row says this' }, 1000)).toEqual([]);
  });

  it('pages under filters and search keep every matching row once, in order', async () => {
    for (const filter of [{}, { operator: 'carol' }, { search: 'requested' }, { search: 'usdt', operator: 'carol' }] as Filter[]) {
      const whole = await walk(desk, filter, 1000);
      for (const limit of [1, 2, 5]) expect(seqs(await walk(desk, filter, limit)), `${JSON.stringify(filter)} by ${limit}`).toEqual(seqs(whole));
    }
  });

  it('exports the filtered view as CSV and as JSON lines, and records each export', async () => {
    const csvPath = join(desk.dir, 'audit.csv');
    const csv = await desk.value('audit/export', { operator: 'carol', action: 'withdrawals/request', path: csvPath, format: 'csv' });
    expect(csv.rows).toBe(6);
    const lines = readFileSync(csvPath, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('seq,at,profile,operator,action,subject,sentence,verification,verification_reason,details,key_id,hash');
    expect(lines.length).toBe(7);
    expect(lines.slice(1).every((line) => line.includes(',carol,withdrawals/request,') && line.includes('carol requested withdrawal') && line.includes(',verified,'))).toBe(true);

    const jsonPath = join(desk.dir, 'audit.jsonl');
    const json = await desk.value('audit/export', { request: first.id, path: jsonPath });
    expect(json.rows).toBe(2);
    const records = readFileSync(jsonPath, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((record) => Object.keys(record).sort())).toEqual([0, 1].map(() => ['hash', 'sentence', 'seq', 'signature', 'statement', 'verification']));
    expect(records[0]?.['seq']).toBeLessThan(records[1]?.['seq'] as number);

    const exports = (await desk.value('audit/list', { action: 'audit/export' })).rows;
    expect(exports.map((row) => row.details)).toEqual([
      { rows: 2, format: 'jsonl', filter: { request: first.id } },
      { rows: 6, format: 'csv', filter: { operator: 'carol', action: 'withdrawals/request' }, timeZone: expect.any(String) },
    ]);
    expect(exports[0]?.sentence).toBe('The desk exported 2 audit entries as JSONL');
  });

  it('a row edited in the file fails verification; the rows before verify, those after are unchecked', async () => {
    const [approval] = (await desk.value('audit/list', { action: 'withdrawals/approve' })).rows;
    const bad = approval?.seq as number;
    tamper(desk, (db) => db.prepare('UPDATE audit_log SET operator = ? WHERE seq = ?').run(INITIATOR.operator, bad));
    const all = await walk(desk, {}, 1000);
    for (const row of all) {
      if (row.seq < bad) expect(row.verification, `row ${row.seq}`).toEqual({ status: 'verified' });
      else if (row.seq === bad) expect(row.verification).toEqual({ status: 'failed', reason: `row ${bad}'s columns no longer say what its signed statement says` });
      else expect(row.verification).toEqual({ status: 'unchecked', reason: `the chain is broken at entry #${bad}, so nothing vouches for the entries after it` });
    }
    const [failed] = (await desk.value('audit/list', { request: first.id, operator: 'carol' })).rows.filter((row) => row.seq === bad);
    expect(failed?.verification.status).toBe('failed');
  });
});
