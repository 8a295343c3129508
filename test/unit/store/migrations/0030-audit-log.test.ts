// Migration 0030 (audit log): the table, the triggers that make it append-only, and the chain-extension guard.
import { describe, expect, it } from 'vitest';
import { appendAudit, MIGRATIONS, userVersion } from '../../../../electron/core/store';
import { AUDIT_GENESIS_HASH, migration0030 } from '../../../../electron/core/store/migrations/0030-audit-log';
import { useTempDir } from '../helpers';

const temp = useTempDir();

describe('migration 0030-audit-log', () => {
  it('applies on top of 0020 and sets user_version to 30', () => {
    const db = temp.open('upgrade.sqlite', { migrations: MIGRATIONS.filter((migration) => migration.version <= 20) });
    expect(userVersion(db)).toBe(20);
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'audit_log'").pluck().get()).toBe(0);
    db.close();
    const upgraded = temp.open('upgrade.sqlite', { migrations: MIGRATIONS.filter((migration) => migration.version <= 30) });
    expect(userVersion(upgraded)).toBe(30);
    expect(MIGRATIONS.find((migration) => migration.version === 30)).toBe(migration0030);
    expect(upgraded.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'audit_log'").pluck().get()).toBe(1);
  });

  it('refuses UPDATE and DELETE of audit rows', () => {
    const db = temp.open();
    appendAudit(db, { action: 'test/one' }, 1);
    expect(() => db.prepare("UPDATE audit_log SET action = 'x'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(db.prepare('SELECT action FROM audit_log').pluck().all()).toEqual(['test/one']);
  });

  it('refuses a row that does not extend the chain', () => {
    const db = temp.open();
    const first = appendAudit(db, { action: 'test/one' }, 1);
    const insert = db.prepare(
      "INSERT INTO audit_log (seq, at, action, details_json, prev_hash, hash) VALUES (?, 2, 'forged', '{}', ?, ?)",
    );
    expect(() => insert.run(3, first.hash, 'a'.repeat(64))).toThrow(/extend the chain/);
    expect(() => insert.run(2, AUDIT_GENESIS_HASH, 'a'.repeat(64))).toThrow(/extend the chain/);
    expect(() => insert.run(2, first.hash, 'not-hex')).toThrow(/CHECK/);
  });
});
