// Migration 0070 (seen nonces): a database at schema 50 gains the nonce table (issue 11, item 8), its rows are
// checked (nonce length), and the expiry index serves both the prune and the upsert's key lookup.
import { describe, expect, it } from 'vitest';
import { userVersion } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { migration0070 } from '../../../../electron/core/store/migrations/0070-seen-nonces';
import { useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();

describe('migration 0070-seen-nonces', () => {
  it('upgrades a version 50 database and sets user_version to 70', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(50) });
    expect(old.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'seen_nonces'").pluck().get()).toBe(0);
    old.close();
    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(70) });
    expect(userVersion(db)).toBe(70);
    expect(MIGRATIONS.find((migration) => migration.version === 70)).toBe(migration0070);
    expect(db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('seen_nonces')).toEqual(['nonce', 'expires_at']);
  });

  it('keeps one row per nonce, of a nonce length §4.3 allows, with a whole-number expiry', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(70) });
    const insert = db.prepare('INSERT INTO seen_nonces (nonce, expires_at) VALUES (?, ?)');
    insert.run('a'.repeat(32), 1_000);
    expect(() => insert.run('a'.repeat(32), 2_000)).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => insert.run('short', 1_000)).toThrow(/CHECK/);
    expect(() => insert.run('b'.repeat(65), 1_000)).toThrow(/CHECK/);
    expect(() => insert.run('c'.repeat(32), 'soon')).toThrow(/cannot store TEXT value in INTEGER column/);
  });

  it('prunes through the expiry index and looks a nonce up by its key, never by a table scan', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(70) });
    const plan = (sql: string): string => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((row) => row.detail).join('; ');
    expect(plan('DELETE FROM seen_nonces WHERE expires_at < 5')).toMatch(/USING COVERING INDEX seen_nonces_by_expiry/);
    expect(plan("SELECT expires_at FROM seen_nonces WHERE nonce = 'x'")).toMatch(/USING PRIMARY KEY/);
  });
});
