// Migration 0030 (audit log): the table, the triggers that make it append-only, and the chain-extension guard, on a
// database brought to schema 30 by the first migrations only (later ones move this log to legacy_audit_log).
import { describe, expect, it } from 'vitest';
import { userVersion } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { AUDIT_GENESIS_HASH, migration0030 } from '../../../../electron/core/store/migrations/0030-audit-log';
import { appendLegacyAuditRow, useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();

const UP_TO_30 = migrationsUpTo(30);

describe('migration 0030-audit-log', () => {
  it('applies on top of 0020 and sets user_version to 30', () => {
    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(20) });
    expect(userVersion(db)).toBe(20);
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'audit_log'").pluck().get()).toBe(0);
    db.close();
    const upgraded = temp.open('upgrade.sqlite', { migrations: UP_TO_30 });
    expect(userVersion(upgraded)).toBe(30);
    expect(MIGRATIONS.find((migration) => migration.version === 30)).toBe(migration0030);
    expect(upgraded.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('audit_log')).toEqual([
      'seq',
      'at',
      'profile',
      'operator',
      'action',
      'subject',
      'details_json',
      'prev_hash',
      'hash',
    ]);
  });

  it('refuses UPDATE and DELETE of audit rows', () => {
    const db = temp.open(undefined, { migrations: UP_TO_30 });
    appendLegacyAuditRow(db, { at: 1, action: 'test/one' });
    expect(() => db.prepare("UPDATE audit_log SET action = 'x'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(db.prepare('SELECT action FROM audit_log').pluck().all()).toEqual(['test/one']);
  });

  it('refuses a row that does not extend the chain', () => {
    const db = temp.open(undefined, { migrations: UP_TO_30 });
    const first = appendLegacyAuditRow(db, { at: 1, action: 'test/one' });
    expect(first).toMatchObject({ seq: 1 });
    const insert = db.prepare("INSERT INTO audit_log (seq, at, action, details_json, prev_hash, hash) VALUES (?, 2, 'forged', '{}', ?, ?)");
    expect(() => insert.run(3, first.hash, 'a'.repeat(64))).toThrow(/extend the chain/);
    expect(() => insert.run(2, AUDIT_GENESIS_HASH, 'a'.repeat(64))).toThrow(/extend the chain/);
    expect(() => insert.run(2, first.hash, 'not-hex')).toThrow(/CHECK/);
    expect(appendLegacyAuditRow(db, { at: 2, action: 'test/two' })).toMatchObject({ seq: 2 });
  });
});
