// The hash-chained audit log: appends link to the previous hash, triggers refuse edits, and verifyAuditChain finds
// the first altered row, a deleted row (gap) and a re-hashed row when someone drops the triggers.
import { describe, expect, it } from 'vitest';
import {
  appendAudit,
  AUDIT_GENESIS_HASH,
  auditRowHash,
  exportAudit,
  listAudit,
  openDatabase,
  verifyAuditChain,
  verifyAuditRows,
  type StoreDatabase,
} from '../../../electron/core/store';
import { useTempDir } from './helpers';

const temp = useTempDir();

function withEntries(count: number): StoreDatabase {
  const db = temp.open();
  for (let i = 1; i <= count; i++) {
    appendAudit(
      db,
      {
        profile: i % 2 === 0 ? 'main' : null,
        operator: i % 3 === 0 ? 'carol' : 'alice',
        action: i % 2 === 0 ? 'withdrawals/approve' : 'withdrawals/request',
        subject: `W${i}`,
        details: { amount: `${i}.50`, currency: 'trx.usdt', nested: { z: 1, a: [i, 'x'] } },
      },
      1_000 * i,
    );
  }
  return db;
}

function dropGuards(db: StoreDatabase): void {
  db.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;');
}

describe('audit log', () => {
  it('chains each row to the previous one from the genesis hash, with canonical details', () => {
    const db = temp.open();
    const first = appendAudit(db, { action: 'operators/create', subject: 'carol', details: { role: 'admin', b: 1, a: 2 } }, 10);
    const second = appendAudit(db, { profile: 'main', operator: 'carol', action: 'profiles/create', subject: 'main' }, 20);
    expect(first).toMatchObject({ seq: 1, at: 10, prevHash: AUDIT_GENESIS_HASH, detailsJson: '{"a":2,"b":1,"role":"admin"}' });
    expect(first.prevHash).toBe('0'.repeat(64));
    expect(second).toMatchObject({ seq: 2, prevHash: first.hash, profile: 'main', operator: 'carol', details: {} });
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(auditRowHash(first)).toBe(first.hash);
    expect(verifyAuditChain(db)).toEqual({ ok: true, rows: 2, headHash: second.hash });
  });

  it('hashes every field: changing any one of them changes the hash', () => {
    const base = { seq: 5, at: 123, profile: 'p', operator: 'o', action: 'a/b', subject: 's', detailsJson: '{}', prevHash: 'f'.repeat(64) };
    const hash = auditRowHash(base);
    const variants = [
      { seq: 6 },
      { at: 124 },
      { profile: null },
      { operator: 'p' },
      { action: 'a/c' },
      { subject: null },
      { detailsJson: '{"x":1}' },
      { prevHash: 'e'.repeat(64) },
    ];
    for (const change of variants) expect(auditRowHash({ ...base, ...change }), JSON.stringify(change)).not.toBe(hash);
    // Field boundaries are unambiguous: moving text from one field to the next changes the hash.
    expect(auditRowHash({ ...base, profile: 'ab', operator: 'c' })).not.toBe(auditRowHash({ ...base, profile: 'a', operator: 'bc' }));
  });

  it('finds the first altered row after the triggers are dropped and a row is edited', () => {
    const db = withEntries(12);
    expect(verifyAuditChain(db).ok).toBe(true);
    dropGuards(db);
    db.prepare("UPDATE audit_log SET details_json = json_set(details_json, '$.amount', '9999.50') WHERE seq = 7").run();
    db.prepare("UPDATE audit_log SET operator = 'mallory' WHERE seq = 9").run();
    expect(verifyAuditChain(db)).toEqual({ ok: false, firstBadSeq: 7, reason: 'row 7 does not match its hash: it was altered', rows: 6 });
  });

  it('finds a deleted row (a gap in seq)', () => {
    const db = withEntries(8);
    dropGuards(db);
    db.prepare('DELETE FROM audit_log WHERE seq = 4').run();
    const result = verifyAuditChain(db);
    expect(result).toMatchObject({ ok: false, firstBadSeq: 4, rows: 3 });
    expect(result.ok ? '' : result.reason).toMatch(/row 4 is missing/);
  });

  it('finds a deleted first row', () => {
    const db = withEntries(3);
    dropGuards(db);
    db.prepare('DELETE FROM audit_log WHERE seq = 1').run();
    expect(verifyAuditChain(db)).toMatchObject({ ok: false, firstBadSeq: 1 });
  });

  it('finds a row edited and re-hashed: the next row no longer links to it', () => {
    const db = withEntries(6);
    dropGuards(db);
    const row = exportAudit(db, { fromSeq: 3, toSeq: 3 })[0];
    if (row === undefined) throw new Error('no row 3');
    const forged = { ...row, subject: 'W-forged' };
    db.prepare('UPDATE audit_log SET subject = ?, hash = ? WHERE seq = 3').run(forged.subject, auditRowHash(forged));
    expect(verifyAuditChain(db)).toMatchObject({ ok: false, firstBadSeq: 4, reason: "row 4 does not link to row 3's hash" });
  });

  it('finds rows renumbered to hide a deletion', () => {
    const db = withEntries(5);
    dropGuards(db);
    db.exec('DELETE FROM audit_log WHERE seq = 2; UPDATE audit_log SET seq = seq - 1 WHERE seq > 2;');
    expect(verifyAuditChain(db)).toMatchObject({ ok: false, firstBadSeq: 2 });
  });

  it('exports rows that verify on their own, and pages newest first, optionally by profile', () => {
    const db = withEntries(9);
    const exported = exportAudit(db);
    expect(exported.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(exported[0]?.details).toEqual({ amount: '1.50', currency: 'trx.usdt', nested: { a: [1, 'x'], z: 1 } });
    const copy = JSON.parse(JSON.stringify(exported)) as typeof exported;
    expect(verifyAuditRows(copy)).toMatchObject({ ok: true, rows: 9 });
    copy[4] = { ...copy[4]!, at: 1 };
    expect(verifyAuditRows(copy)).toMatchObject({ ok: false, firstBadSeq: 5 });

    const first = listAudit(db, { limit: 4 });
    expect(first.rows.map((row) => row.seq)).toEqual([9, 8, 7, 6]);
    const second = listAudit(db, { limit: 4, after: first.nextCursor });
    expect(second.rows.map((row) => row.seq)).toEqual([5, 4, 3, 2]);
    expect(listAudit(db, { profile: 'main', limit: 10 }).rows.map((row) => row.seq)).toEqual([8, 6, 4, 2]);
  });

  it('keeps one chain when two connections append to the same file', () => {
    const path = temp.path('shared-audit.sqlite');
    const a = openDatabase(path);
    const b = openDatabase(path);
    for (let i = 0; i < 20; i++) appendAudit(i % 2 === 0 ? a : b, { action: 'test/append', details: { i } }, i);
    expect(verifyAuditChain(a)).toMatchObject({ ok: true, rows: 20 });
    a.close();
    b.close();
  });

  it('refuses an empty action', () => {
    const db = temp.open();
    expect(() => appendAudit(db, { action: '' })).toThrow(/empty/);
    expect(verifyAuditChain(db)).toEqual({ ok: true, rows: 0, headHash: AUDIT_GENESIS_HASH });
  });
});
