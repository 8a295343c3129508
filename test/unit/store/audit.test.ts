// The signed audit log as stored rows (store/audit.ts): appendStatement chains each signed statement to the previous
// row inside the signature, the columns repeat the statement, triggers refuse edits and rows that do not extend the
// chain, reads page and filter, and the closed legacy log is re-checked by its old rule. Verification is core/audit's.
import { describe, expect, it } from 'vitest';
import { actionOf, appendStatement, auditHead, auditRosterRows, auditRowsBySubject, auditRowsOfKinds, checkLegacyAudit, countAuditRows, exportAudit, getAuditRow, iterateAudit, listAudit, type StatementDraft } from '../../../electron/core/audit/audit-table';
import { openDatabase, type StoreDatabase } from '../../../electron/core/store/database';
import { generateSigningKey, importPublicKey } from '../../../electron/core/statements/keys';
import {
  auditRowHash,
  CHAIN_GENESIS,
  parseStatement,
  signStatementText,
  verifyStatementText,
  type StatementKind,
} from '../../../electron/core/statements/statement';
import { useTempDir } from './helpers';

const temp = useTempDir();
const alice = generateSigningKey();
const alicePublic = importPublicKey(alice.publicKey);
const sign = (text: string): string => signStatementText(alice.privateKey, text);

function draft(overrides: Partial<StatementDraft> = {}): StatementDraft {
  return { kind: 'action', profile: 'main', subject: 'W1', body: { action: 'test/append', details: {} }, operator: 'alice', keyId: alice.keyId, ...overrides };
}

function withEntries(count: number): StoreDatabase {
  const db = temp.open();
  for (let i = 1; i <= count; i++) {
    appendStatement(
      db,
      draft({
        kind: i % 2 === 0 ? 'approve' : 'request',
        profile: i % 2 === 0 ? 'main' : 'other',
        subject: `intent-${i % 3}`,
        body: { amount: `${i}.50`, nested: { z: 1, a: [i, 'x'] } },
      }),
      sign,
      1_000 * i,
    );
  }
  return db;
}

describe('appendStatement', () => {
  it('chains each row from the genesis hash: seq and prev are inside the signed statement', () => {
    const db = temp.open();
    expect(auditHead(db)).toBeNull();
    const first = appendStatement(db, draft({ body: { action: 'test/one', details: { b: 1, a: 2 } } }), sign, 10);
    const second = appendStatement(db, draft({ kind: 'request', subject: 'hash-1', body: { intent: { amount: '5' } } }), sign, 20);
    expect(first).toMatchObject({ seq: 1, at: 10, prevHash: CHAIN_GENESIS, kind: 'action', action: 'test/one', operator: 'alice', keyId: alice.keyId, profile: 'main' });
    expect(second).toMatchObject({ seq: 2, at: 20, prevHash: first.hash, kind: 'request', action: 'withdrawals/request', subject: 'hash-1' });
    expect(first.statement).toBe(
      `{"at":10,"body":{"action":"test/one","details":{"a":2,"b":1}},"keyId":"${alice.keyId}","kind":"action","operator":"alice","prev":"${CHAIN_GENESIS}","profile":"main","seq":1,"subject":"W1","v":1}`,
    );
    for (const row of [first, second]) {
      const statement = parseStatement(row.statement);
      expect(statement).toMatchObject({ seq: row.seq, prev: row.prevHash, at: row.at, kind: row.kind, subject: row.subject, operator: row.operator });
      expect(row.hash).toBe(auditRowHash(row.statement, row.signature));
      if (!alicePublic) throw new Error('no public key');
      expect(verifyStatementText(alicePublic, row.statement, row.signature)).toBe(true);
    }
    expect(auditHead(db)).toEqual({ seq: 2, hash: second.hash });
    expect(getAuditRow(db, 1)).toEqual(first);
    expect(getAuditRow(db, 3)).toBeUndefined();
    expect(countAuditRows(db)).toBe(2);
  });

  it('hands the signer the final canonical text, and stores exactly what it returns', () => {
    const db = temp.open();
    const seen: string[] = [];
    const row = appendStatement(db, draft(), (text) => {
      seen.push(text);
      return 'c2lnbmF0dXJl';
    }, 5);
    expect(seen).toEqual([row.statement]);
    expect(row.signature).toBe('c2lnbmF0dXJl');
  });

  it('refuses a statement that has no canonical form, or a subject over 512 characters, and writes nothing', () => {
    const db = temp.open();
    expect(() => appendStatement(db, draft({ body: { amount: 1.5 } }), sign)).toThrow(/safe integers/);
    expect(() => appendStatement(db, draft({ subject: 'x'.repeat(513) }), sign)).toThrow(/512/);
    expect(() =>
      appendStatement(db, draft(), () => {
        throw new Error('the key is gone');
      }),
    ).toThrow(/the key is gone/);
    expect(countAuditRows(db)).toBe(0);
  });

  it('keeps one chain when two connections append to the same file', () => {
    const path = temp.path('shared-audit.sqlite');
    const a = openDatabase(path);
    const b = openDatabase(path);
    for (let i = 0; i < 20; i++) appendStatement(i % 2 === 0 ? a : b, draft({ body: { action: 'test/append', details: { i } } }), sign, i);
    const rows = [...iterateAudit(a)];
    expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    rows.forEach((row, index) => expect(row.prevHash).toBe(index === 0 ? CHAIN_GENESIS : rows[index - 1]?.hash));
    a.close();
    b.close();
  });
});

describe('the table guards', () => {
  it('refuses UPDATE and DELETE of rows', () => {
    const db = withEntries(3);
    expect(() => db.prepare("UPDATE audit_log SET subject = 'x' WHERE seq = 2").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log WHERE seq = 3').run()).toThrow(/append-only/);
    expect(countAuditRows(db)).toBe(3);
  });

  it('refuses a row that does not extend the chain, and malformed columns', () => {
    const db = withEntries(2);
    const head = auditHead(db);
    if (!head) throw new Error('no head');
    const insert = db.prepare(
      `INSERT INTO audit_log (seq, at, profile, kind, action, operator, subject, key_id, statement, signature, prev_hash, hash)
       VALUES (?, 1, NULL, 'system', 'x/y', NULL, '', 'K', '{}', 'sig', ?, ?)`,
    );
    expect(() => insert.run(4, head.hash, 'a'.repeat(64))).toThrow(/extend the chain/);
    expect(() => insert.run(3, CHAIN_GENESIS, 'a'.repeat(64))).toThrow(/extend the chain/);
    expect(() => insert.run(3, head.hash, 'not-hex')).toThrow(/CHECK/);
    expect(() => insert.run(3, head.hash, head.hash)).toThrow(/UNIQUE/);
    expect(countAuditRows(db)).toBe(2);
  });
});

describe('reading the log', () => {
  it('walks from any seq, exports ranges, pages newest first, optionally with one profile’s and desk-wide rows', () => {
    const db = withEntries(9);
    appendStatement(db, draft({ kind: 'system', profile: null, operator: null, body: { action: 'sync/run', details: {} } }), sign, 10_000);
    expect([...iterateAudit(db, 7)].map((row) => row.seq)).toEqual([7, 8, 9, 10]);
    expect(exportAudit(db).map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(exportAudit(db, { fromSeq: 3, toSeq: 5 }).map((row) => row.seq)).toEqual([3, 4, 5]);
    const first = listAudit(db, { limit: 4 });
    expect(first.rows.map((row) => row.seq)).toEqual([10, 9, 8, 7]);
    const second = listAudit(db, { limit: 4, after: first.nextCursor });
    expect(second.rows.map((row) => row.seq)).toEqual([6, 5, 4, 3]);
    expect(listAudit(db, { profile: 'main', limit: 10 }).rows.map((row) => row.seq)).toEqual([10, 8, 6, 4, 2]);
  });

  it('finds a profile’s rows by subject, by kind, and its roster rows with the desk-signed end marker', () => {
    const db = withEntries(9);
    expect(auditRowsBySubject(db, 'main', 'intent-1').map((row) => row.seq)).toEqual([4]);
    expect(auditRowsBySubject(db, 'other', 'intent-1').map((row) => row.seq)).toEqual([1, 7]);
    expect(auditRowsOfKinds(db, 'main', ['approve']).map((row) => row.seq)).toEqual([2, 4, 6, 8]);
    expect(auditRowsOfKinds(db, 'main', ['request'])).toEqual([]);
    const enrol = appendStatement(db, draft({ kind: 'enrol', subject: 'bob', body: { role: 'approver' } }), sign, 20_000);
    const end = appendStatement(db, draft({ kind: 'system', operator: null, subject: 'main', body: { action: 'profiles/remove', details: {} } }), sign, 21_000);
    appendStatement(db, draft({ kind: 'system', operator: null, body: { action: 'sync/run', details: {} } }), sign, 22_000);
    expect(auditRosterRows(db, 'main', ['found', 'enrol'], 'profiles/remove').map((row) => row.seq)).toEqual([enrol.seq, end.seq]);
  });

  it('names the action of every kind of statement', () => {
    const cases: [StatementKind, string][] = [
      ['request', 'withdrawals/request'],
      ['approve', 'withdrawals/approve'],
      ['reject', 'withdrawals/reject'],
      ['cancel', 'withdrawals/cancel'],
      ['submit', 'withdrawals/submit'],
      ['policy', 'policies/propose'],
      ['found', 'operators/found'],
      ['enrol', 'operators/enrol'],
      ['confirm', 'operators/confirm'],
      ['withdraw-proposal', 'operators/withdraw-proposal'],
      ['passphrase', 'operators/passphrase'],
    ];
    for (const [kind, action] of cases) expect(actionOf(kind, {}), kind).toBe(action);
    expect(actionOf('system', { action: 'callbacks/refused' })).toBe('callbacks/refused');
    expect(actionOf('action', { action: 'addresses/create' })).toBe('addresses/create');
    expect(actionOf('system', {})).toBe('system');
    expect(actionOf('action', { action: '' })).toBe('action');
  });
});

describe('the legacy log (before signed approvals)', () => {
  it('is empty on a new database: nothing to seal, its head is the genesis hash', () => {
    const db = temp.open();
    expect(checkLegacyAudit(db)).toEqual({ rows: 0, headHash: CHAIN_GENESIS, firstBadSeq: null });
    expect(() => db.prepare("INSERT INTO legacy_audit_log (seq, at, action, details_json, prev_hash, hash) VALUES (1, 1, 'x', '{}', ?, ?)").run(CHAIN_GENESIS, 'a'.repeat(64))).toThrow(
      /legacy_audit_log is closed/,
    );
  });
});
