// Migration 0050 (signed approvals): a schema-40 desk with operators, approvals, audit rows and requests migrates; the
// unsigned past stays readable under legacy_* names (the legacy audit log closed to writes and still checkable by its
// old rule), requests name their initiator, and a legacy request carries no signed intent, so it can never be sent.
import { beforeAll, describe, expect, it } from 'vitest';
import { appendStatement, checkLegacyAudit, countAuditRows } from '../../../../electron/core/audit/audit-table';
import { userVersion, type StoreDatabase } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { ensureOperator } from '../../../../electron/core/operators/operators-table';
import { getSetting } from '../../../../electron/core/profiles/settings-table';
import { createWithdrawalRequest, getWithdrawalRequest, listOrderStatusHistory } from '../../../../electron/core/withdrawals/withdrawals-table';
import { migration0050 } from '../../../../electron/core/store/migrations/0050-signed-approvals';
import { Roster } from '../../../../electron/core/ledger/roster';
import { judgeRequest } from '../../../../electron/core/withdrawals/verify';
import { CHAIN_GENESIS } from '../../../../electron/core/statements/statement';
import { appendLegacyAuditRow, useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();

const UP_TO_40 = migrationsUpTo(40);
const UP_TO_50 = migrationsUpTo(50);

let db: StoreDatabase;
let legacyHead: string;

/** A desk as schema 40 left it: two operators, two requests (one with approvals and a status), three audit rows. */
function seedSchema40(target: StoreDatabase): string {
  const run = (sql: string, ...params: unknown[]) => target.prepare(sql).run(...params);
  run("INSERT INTO profiles (name, base_url, merchant_id, created_at, updated_at) VALUES ('p', 'http://127.0.0.1:1', 'M-1', 1, 1)");
  run("INSERT INTO operators (id, name, role, passphrase_hash, created_at, updated_at) VALUES (1, 'Ann', 'initiator', 'scrypt$32768$8$1$c2FsdA$a2V5', 1, 1)");
  run("INSERT INTO operators (id, name, role, passphrase_hash, created_at, updated_at, disabled) VALUES (2, 'ben', 'approver', 'scrypt$32768$8$1$c2FsdA$b2V5', 1, 2, 1)");
  const request = `INSERT INTO withdrawal_requests (id, profile, currency, amount, to_address, withdraw_type, memo, user_order, initiator_id, state,
      created_at, updated_at, api_order, order_status, order_status_at, fee, txid, raw_json, required_approvals, last_error)
    VALUES (?, 'p', 'trx.usdt', ?, 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', 'normal', ?, ?, ?, ?, 10, 20, ?, ?, ?, ?, NULL, ?, ?, ?)`;
  run(request, 1, '250.5', 'invoice 7', 'td-legacy-1', 1, 'awaitingApproval', null, null, null, null, null, 2, 'insufficientBalance');
  run(request, 2, '10', null, 'td-legacy-2', 2, 'submitted', 'WD0001', 'pendingTransfer', 30, '1.5', '{"orderStatus":"pendingTransfer"}', 1, null);
  run("INSERT INTO approvals (request_id, operator_id, decision, reason, at) VALUES (1, 2, 'approve', NULL, 15)");
  run("INSERT INTO approvals (request_id, operator_id, decision, reason, at) VALUES (2, 1, 'reject', 'unknown payee', 16)");
  run("INSERT INTO withdrawal_status_history (request_id, status, observed_at, source, raw_json) VALUES (2, 'pendingTransfer', 30, 'query', '{}')");
  appendLegacyAuditRow(target, { at: 10, profile: 'p', operator: 'Ann', action: 'withdrawals/request', subject: 'td-legacy-1', detailsJson: '{"amount":"250.5"}' });
  appendLegacyAuditRow(target, { at: 15, profile: 'p', operator: 'ben', action: 'withdrawals/approve', subject: 'td-legacy-1' });
  return appendLegacyAuditRow(target, { at: 16, action: 'operators/disable', subject: 'ben' }).hash;
}

beforeAll(() => {
  const old = temp.open('desk.sqlite', { migrations: UP_TO_40 });
  expect(userVersion(old)).toBe(40);
  legacyHead = seedSchema40(old);
  old.close();
  db = temp.open('desk.sqlite', { migrations: UP_TO_50 });
});

describe('migration 0050-signed-approvals', () => {
  it('is the migration after 0040 and brings a schema-40 desk to 50', () => {
    expect(MIGRATIONS.find((migration) => migration.version === 50)).toBe(migration0050);
    expect(userVersion(db)).toBe(50);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('keeps the legacy operators and approvals readable under legacy_* names', () => {
    expect(db.prepare('SELECT id, name, role, disabled, passphrase_hash FROM legacy_operators ORDER BY id').all()).toEqual([
      { id: 1, name: 'Ann', role: 'initiator', disabled: 0, passphrase_hash: 'scrypt$32768$8$1$c2FsdA$a2V5' },
      { id: 2, name: 'ben', role: 'approver', disabled: 1, passphrase_hash: 'scrypt$32768$8$1$c2FsdA$b2V5' },
    ]);
    expect(db.prepare('SELECT request_id, operator_id, decision, reason, at FROM legacy_approvals ORDER BY request_id').all()).toEqual([
      { request_id: 1, operator_id: 2, decision: 'approve', reason: null, at: 15 },
      { request_id: 2, operator_id: 1, decision: 'reject', reason: 'unknown payee', at: 16 },
    ]);
    // The legacy approvals still point at the (rebuilt) requests.
    const joined = db
      .prepare('SELECT r.user_order, o.name FROM legacy_approvals a JOIN withdrawal_requests r ON r.id = a.request_id JOIN legacy_operators o ON o.id = a.operator_id ORDER BY a.request_id')
      .all();
    expect(joined).toEqual([
      { user_order: 'td-legacy-1', name: 'ben' },
      { user_order: 'td-legacy-2', name: 'Ann' },
    ]);
  });

  it('keeps the legacy audit rows readable and checkable by their old rule', () => {
    expect(db.prepare('SELECT seq, operator, action, subject FROM legacy_audit_log ORDER BY seq').all()).toEqual([
      { seq: 1, operator: 'Ann', action: 'withdrawals/request', subject: 'td-legacy-1' },
      { seq: 2, operator: 'ben', action: 'withdrawals/approve', subject: 'td-legacy-1' },
      { seq: 3, operator: null, action: 'operators/disable', subject: 'ben' },
    ]);
    expect(checkLegacyAudit(db)).toEqual({ rows: 3, headHash: legacyHead, firstBadSeq: null });
  });

  it('refuses any further write to the legacy audit log', () => {
    expect(() =>
      db.prepare("INSERT INTO legacy_audit_log (seq, at, action, details_json, prev_hash, hash) VALUES (4, 40, 'late/write', '{}', ?, ?)").run(legacyHead, 'b'.repeat(64)),
    ).toThrow(/legacy_audit_log is closed/);
    expect(() => db.prepare("UPDATE legacy_audit_log SET subject = 'x' WHERE seq = 2").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM legacy_audit_log WHERE seq = 3').run()).toThrow(/append-only/);
    expect(checkLegacyAudit(db).rows).toBe(3);
  });

  it('maps each request’s initiator to the legacy operator’s name, keeping every other field', () => {
    // Repositories read the latest schema: the upgraded desk, as the app opens it.
    const db = temp.open('desk.sqlite');
    expect(getWithdrawalRequest(db, 1)).toMatchObject({
      userOrder: 'td-legacy-1',
      initiator: 'Ann',
      state: 'awaitingApproval',
      amount: '250.5',
      memo: 'invoice 7',
      requiredApprovals: 2,
      lastError: 'insufficientBalance',
      createdAt: 10,
      updatedAt: 20,
      intentJson: null,
      intentHash: null,
      fingerprint: null,
      requestSeq: null,
    });
    expect(getWithdrawalRequest(db, 2)).toMatchObject({
      userOrder: 'td-legacy-2',
      initiator: 'ben',
      state: 'submitted',
      apiOrder: 'WD0001',
      orderStatus: 'pendingTransfer',
      orderStatusAt: 30,
      fee: '1.5',
      raw: { orderStatus: 'pendingTransfer' },
    });
    expect(db.prepare('SELECT id, legacy_initiator_id FROM withdrawal_requests ORDER BY id').all()).toEqual([
      { id: 1, legacy_initiator_id: 1 },
      { id: 2, legacy_initiator_id: 2 },
    ]);
    expect(listOrderStatusHistory(db, 2).map((event) => event.status)).toEqual(['pendingTransfer']);
    // New requests continue the id sequence, named by their initiator.
    const next = createWithdrawalRequest(db, { profile: 'p', currency: 'trx', amount: '1', toAddress: 'T', withdrawType: 'normal', userOrder: 'td-new', initiator: 'Ann' }, 50);
    expect(next.id).toBe(3);
  });

  it('never lets a legacy request be submitted: it carries no signed intent', () => {
    const db = temp.open('desk.sqlite');
    const legacy = getWithdrawalRequest(db, 1);
    if (!legacy) throw new Error('request 1 is gone');
    const evidence = judgeRequest(new Roster(), legacy, [], 'M-1', Date.now());
    expect(evidence.verification.ok).toBe(false);
    expect(evidence.verification.problems.join(' ')).toMatch(/made before signed approvals: it can never be submitted/);
    expect(evidence.intent).toBeNull();
  });

  it('starts an empty signed log, empty per-profile operators, and gives the database a desk id', () => {
    expect(countAuditRows(db)).toBe(0);
    expect(db.prepare('SELECT count(*) FROM operators').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM operator_keys').pluck().get()).toBe(0);
    expect(getSetting(db, 'desk.id')).toMatch(/^[0-9a-f]{32}$/);
    // Legacy names can be enrolled again as new operators of the profile (the roster decides who they are).
    expect(ensureOperator(db, 'p', 'ann')).toMatchObject({ profile: 'p', name: 'ann', failedAttempts: 0 });
    const row = appendStatement(db, { kind: 'system', profile: null, subject: '', body: { action: 'audit/legacySealed', details: {} }, operator: null, keyId: 'K' }, () => 'sig', 60);
    expect(row).toMatchObject({ seq: 1, prevHash: CHAIN_GENESIS });
  });

  it('notices a legacy row edited after the migration (with the guards dropped) by the old hash rule', () => {
    const copy = temp.open('tampered.sqlite', { migrations: UP_TO_40 });
    seedSchema40(copy);
    copy.close();
    const tampered = temp.open('tampered.sqlite');
    tampered.exec('DROP TRIGGER legacy_audit_log_no_update');
    tampered.prepare("UPDATE legacy_audit_log SET operator = 'mallory' WHERE seq = 2").run();
    expect(checkLegacyAudit(tampered)).toMatchObject({ rows: 1, firstBadSeq: 2 });
  });

  it('gives two databases different desk ids', () => {
    const other = temp.open();
    expect(getSetting(other, 'desk.id')).toMatch(/^[0-9a-f]{32}$/);
    expect(getSetting(other, 'desk.id')).not.toBe(getSetting(db, 'desk.id'));
  });
});
