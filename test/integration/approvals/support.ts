// Shared helpers for the approval attack tests: desks with the operators a theme needs, direct edits of the desk's
// SQLite file (triggers dropped, as an attacker with the file would), the keychain anchor, and the checks every
// attack ends with (nothing at the sandbox, a refusal in the audit).
import { createHash, randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { MethodName, ResponseOf, Result } from '../../../electron/contract';
import { callMethod } from '../../../electron/contract';
import type { Engine } from '../../../electron/core/engine';
import { ADMIN, APPROVER, enrol, INITIATOR, openDesk, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';

export type AuditEntry = ResponseOf<'audit/list'>['rows'][number];
export type Raw = Database.Database;

/** Calls a handler of any engine (a reopened one, a demo one) and returns its Result. */
export async function callOn<M extends MethodName>(engine: Engine, method: M, request: unknown): Promise<Result<ResponseOf<M>>> {
  return callMethod(engine.handlers, method, request);
}

/** Calls and expects success. */
export async function valueOn<M extends MethodName>(engine: Engine, method: M, request: unknown): Promise<ResponseOf<M>> {
  const result = await callOn(engine, method, request);
  if (!result.ok) expect.fail(`${method} failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/**
 * A founded desk (alice + frank) with only the operators a test needs, funded and synced: cheaper than openDesk's
 * full roster when a test wants a desk of its own (every enrolment costs three passphrase checks).
 */
export async function fundedDesk(operators: readonly ('approver' | 'initiator')[] = ['approver', 'initiator'], balance = '5000'): Promise<Desk> {
  const desk = await openDesk({ profile: false });
  await desk.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
  await desk.value('operators/found', { admins: [ADMIN, SECOND_ADMIN] });
  if (operators.includes('approver')) await enrol(desk, APPROVER, 'approver');
  if (operators.includes('initiator')) await enrol(desk, INITIATOR, 'initiator');
  await fund(desk, balance);
  return desk;
}

export async function fund(desk: Desk, balance = '5000'): Promise<void> {
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': balance } })).status).toBe(200);
  await desk.value('sync/run', {});
}

/** The sandbox credits a deposit to `toAddress` from `fromAddress` (its admin API), as a payee or a poisoner would send it. */
export async function creditDeposit(desk: Desk, toAddress: string, currency: string, amount: string, fromAddress: string): Promise<void> {
  const answer = await desk.admin<{ credited: boolean }>('POST', '/transfers', { toAddress, currency, amount, fromAddress });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  expect(answer.json.credited).toBe(true);
}

/** Puts an address in the book: the initiator proposes it, the approver (an independent party) approves it. */
export async function addApprovedToBook(desk: Desk, chain: string, address: string): Promise<void> {
  const added = await desk.value('addressbook/add', { chain, address, as: INITIATOR });
  const pending = added.pending.find((entry) => entry.address === address);
  if (pending !== undefined) await desk.value('addressbook/approve', { proposal: pending.proposal, as: APPROVER });
}

export interface Requested {
  readonly id: string;
  readonly userOrder: string;
  readonly toAddress: string;
  readonly fingerprint: string;
}

/** carol (or `as`) requests `amount` trx.usdt to a fresh address. */
export async function requestWithdrawal(desk: Desk, amount = '14', as = INITIATOR): Promise<Requested> {
  const toAddress = tronAddress();
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress, as });
  expect(withdrawal.state).toBe('awaitingApproval');
  return { id: withdrawal.id, userOrder: withdrawal.userOrder, toAddress, fingerprint: withdrawal.fingerprint ?? '' };
}

/** Opens the desk's SQLite file beside the running engine, as an attacker would, with the audit triggers dropped. */
export function tamper<T>(desk: Pick<Desk, 'dbPath'>, edit: (db: Raw) => T): T {
  const db = new Database(desk.dbPath);
  try {
    db.pragma('busy_timeout = 5000');
    db.exec('DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete; DROP TRIGGER IF EXISTS audit_log_extends_chain;');
    return db.transaction(() => edit(db))();
  } finally {
    db.close();
  }
}

/** Reads the desk's file without changing it. */
export function inspect<T>(desk: Pick<Desk, 'dbPath'>, read: (db: Raw) => T): T {
  const db = new Database(desk.dbPath, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export interface RawAuditRow {
  seq: number;
  at: number;
  profile: string | null;
  kind: string;
  action: string;
  operator: string | null;
  subject: string;
  key_id: string;
  statement: string;
  signature: string;
  prev_hash: string;
  hash: string;
}

export function auditRow(db: Raw, seq: number): RawAuditRow {
  const row = db.prepare('SELECT * FROM audit_log WHERE seq = ?').get(seq) as RawAuditRow | undefined;
  if (!row) throw new Error(`no audit row ${seq}`);
  return row;
}

export function headRow(db: Raw): RawAuditRow {
  const row = db.prepare('SELECT * FROM audit_log ORDER BY seq DESC LIMIT 1').get() as RawAuditRow | undefined;
  if (!row) throw new Error('the audit log is empty');
  return row;
}

/** The audit rows of one withdrawal decision kind about a request (by its intent hash). */
export function decisionRows(db: Raw, intentHash: string, kind: 'request' | 'approve' | 'reject' | 'cancel' | 'submit'): RawAuditRow[] {
  return db.prepare('SELECT * FROM audit_log WHERE subject = ? AND kind = ? ORDER BY seq').all(intentHash, kind) as RawAuditRow[];
}

export function requestColumns(db: Raw, id: string): { intent_hash: string; intent_json: string; state: string; amount: string; to_address: string; fingerprint: string } {
  const row = db.prepare('SELECT intent_hash, intent_json, state, amount, to_address, fingerprint FROM withdrawal_requests WHERE id = ?').get(Number(id)) as
    | { intent_hash: string; intent_json: string; state: string; amount: string; to_address: string; fingerprint: string }
    | undefined;
  if (!row) throw new Error(`no withdrawal request ${id}`);
  return row;
}

export function insertAuditRow(db: Raw, row: RawAuditRow): void {
  db.prepare(
    'INSERT INTO audit_log (seq, at, profile, kind, action, operator, subject, key_id, statement, signature, prev_hash, hash) ' +
      'VALUES (@seq, @at, @profile, @kind, @action, @operator, @subject, @key_id, @statement, @signature, @prev_hash, @hash)',
  ).run(row);
}

/** A hash no row has (an attacker's filler for the UNIQUE hash column). */
export function randomHash(): string {
  return createHash('sha256').update(randomBytes(32)).digest('hex');
}

export function deskId(desk: Pick<Desk, 'dbPath'>): string {
  return inspect(desk, (db) => JSON.parse((db.prepare("SELECT value_json FROM settings WHERE key = 'desk.id'").get() as { value_json: string }).value_json) as string);
}

/** The keychain entry of the anchor: named after the chain's first row (electron/core/audit/trail.ts). */
export function anchorName(desk: Pick<Desk, 'dbPath'>): string {
  const first = inspect(desk, (db) => db.prepare('SELECT hash FROM audit_log WHERE seq = 1').get() as { hash: string });
  return `audit-head/${first.hash.slice(0, 32)}`;
}

/** This workstation's keychain anchor of the desk's audit head. */
export async function readAnchor(desk: Desk): Promise<{ seq: number; hash: string } | null> {
  const text = await desk.vault.readDeskEntry(anchorName(desk));
  return text === null ? null : (JSON.parse(text) as { seq: number; hash: string });
}

/** Waits until the engine has anchored the current head in the keychain (it does so just after each commit). */
export async function anchored(desk: Desk): Promise<{ seq: number; hash: string }> {
  const head = inspect(desk, (db) => headRow(db));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const anchor = await readAnchor(desk);
    if (anchor && anchor.seq === head.seq) {
      expect(anchor.hash).toBe(head.hash);
      return anchor;
    }
    if (Date.now() > deadline) expect.fail(`the keychain anchor stayed at ${JSON.stringify(anchor)}; the head is row ${head.seq}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The sandbox received no createWithdrawOrder for this userOrder (admin API: 404). */
export async function expectNoOrder(desk: Desk, userOrder: string): Promise<void> {
  const order = await desk.admin('GET', `/withdrawals/${desk.sandbox.credentials.merchantId}/${userOrder}`);
  expect(order.status, `the sandbox has an order ${userOrder}: ${JSON.stringify(order.json)}`).toBe(404);
}

/** Every audit entry, oldest first. */
export async function auditEntries(desk: Desk): Promise<AuditEntry[]> {
  const rows: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const page: ResponseOf<'audit/list'> = await desk.value('audit/list', { limit: 1000, ...(cursor ? { cursor } : {}) });
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows.reverse();
}

/** The desk's `withdrawals/submitRefused` rows for a request. */
export async function submitRefusals(desk: Desk, userOrder: string): Promise<AuditEntry[]> {
  return (await auditEntries(desk)).filter((row) => row.action === 'withdrawals/submitRefused' && row.subject === userOrder);
}

/**
 * carol's submit is refused for the reason `problem` names, the sandbox has no order, and the refusal is audited
 * (signed by the desk key) with the same problems. Returns the refusal's message.
 */
export async function expectSubmitRefused(desk: Desk, request: Requested, problem: RegExp, code: 'unverified' | 'conflict' = 'unverified'): Promise<string> {
  const before = (await submitRefusals(desk, request.userOrder)).length;
  const result = await desk.call('withdrawals/submit', { id: request.id, as: INITIATOR });
  if (result.ok) expect.fail(`the tampered request ${request.id} was submitted: ${JSON.stringify(result.value)}`);
  expect(result.error.code).toBe(code);
  expect(result.error.message).toMatch(problem);
  await expectNoOrder(desk, request.userOrder);
  if (code === 'unverified') {
    const refusals = await submitRefusals(desk, request.userOrder);
    expect(refusals).toHaveLength(before + 1);
    const refusal = refusals.at(-1)!;
    expect(refusal).toMatchObject({ operator: null, kind: 'system' });
    expect(refusal.details).toMatchObject({ id: Number(request.id), operator: INITIATOR.operator });
    expect(JSON.stringify((refusal.details as { problems: string[] }).problems)).toMatch(problem);
  }
  return result.error.message;
}
