// Migration 0010 (initial schema): tables, STRICT types, decimal-string CHECKs on money, foreign keys, no secrets.
import { describe, expect, it } from 'vitest';
import { userVersion } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { migration0010 } from '../../../../electron/core/store/migrations/0010-initial';
import { useTempDir } from '../helpers';
import { insertProfileRow } from './helpers';

const temp = useTempDir();

function at0010() {
  return temp.open(undefined, { migrations: [migration0010] });
}

describe('migration 0010-initial', () => {
  it('is the first migration and sets user_version to 10', () => {
    expect(MIGRATIONS[0]).toBe(migration0010);
    const db = at0010();
    expect(userVersion(db)).toBe(10);
  });

  it('creates every table of the store, all STRICT', () => {
    const db = at0010();
    const tables = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as {
      name: string;
      sql: string;
    }[];
    expect(tables.map((table) => table.name)).toEqual([
      'address_book',
      'approvals',
      'balance_snapshots',
      'currencies',
      'deposit_addresses',
      'deposits',
      'operators',
      'policies',
      'profiles',
      'settings',
      'sync_state',
      'withdrawal_requests',
      'withdrawal_status_history',
    ]);
    for (const table of tables) expect(table.sql, table.name).toMatch(/\)\s*STRICT/);
  });

  it('has no column that could hold a secret (profiles keep no keys, tokens or secrets)', () => {
    const db = at0010();
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    for (const table of tables) {
      const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
      for (const column of columns) {
        if (column === 'passphrase_hash' || (table === 'settings' && column === 'key')) continue;
        expect(column, `${table}.${column}`).not.toMatch(/secret|private|token|password|passphrase|key/i);
      }
    }
  });

  it('keeps money as decimal strings: other text, numbers and signs are refused', () => {
    const db = at0010();
    insertProfileRow(db);
    const insert = db.prepare('INSERT INTO balance_snapshots (profile, currency, available, frozen, observed_at, last_observed_at) VALUES (?, ?, ?, ?, 1, 1)');
    expect(() => insert.run('p', 'trx', '12.500000', '0')).not.toThrow();
    expect(() => insert.run('p', 'trx', '0.000000000000000001', '100000000000')).not.toThrow();
    for (const bad of ['', '-1', '1e5', '1.', '.5', '1.2.3', ' 1', '1,5', 'NaN']) {
      expect(() => insert.run('p', 'trx', bad, '0'), bad).toThrow(/CHECK constraint failed/);
    }
    // A JavaScript number is refused, not coerced to text (money columns are ANY + typeof check).
    expect(() => insert.run('p', 'trx', 12.5, '0')).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('p', 'trx', '1', 0)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('p', 'trx', Buffer.from('1'), '0')).toThrow(/CHECK constraint failed/);
  });

  it('enforces the deposit uniqueness, sources and JSON columns', () => {
    const db = at0010();
    insertProfileRow(db);
    const insert = db.prepare(
      `INSERT INTO deposits (profile, api_order, user_order, business_type, txid, address, address_type, from_address, currency,
         amount, fee, raw_json, source, first_seen_at, last_seen_at) VALUES ('p', ?, 'u', 'deposit', 't', 'a', 'trx', 'f', 'trx', '1', '0', ?, ?, 1, 1)`,
    );
    insert.run('A1', '{}', 'callback');
    expect(() => insert.run('A1', '{}', 'query')).toThrow(/UNIQUE/);
    expect(() => insert.run('A2', '{', 'query')).toThrow(/CHECK/);
    expect(() => insert.run('A3', '{}', 'sync')).toThrow(/CHECK/);
  });

  it('enforces foreign keys (deposits need their profile) and cascades profile deletion to cached rows', () => {
    const db = at0010();
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() =>
      db.prepare("INSERT INTO currencies (profile, symbol, record_json, fetched_at) VALUES ('nobody', 'trx', '{}', 1)").run(),
    ).toThrow(/FOREIGN KEY/);
    insertProfileRow(db);
    db.prepare("INSERT INTO currencies (profile, symbol, record_json, fetched_at) VALUES ('p', 'trx', '{}', 1)").run();
    db.prepare("DELETE FROM profiles WHERE name = 'p'").run();
    expect(db.prepare('SELECT count(*) FROM currencies').pluck().get()).toBe(0);
  });

  it('keeps userOrder within PROTOCOL §8 and unique across the desk', () => {
    const db = at0010();
    insertProfileRow(db);
    db.prepare("INSERT INTO operators (name, role, passphrase_hash, created_at, updated_at) VALUES ('o', 'admin', 'h', 1, 1)").run();
    const insert = db.prepare(
      `INSERT INTO withdrawal_requests (profile, currency, amount, to_address, withdraw_type, user_order, initiator_id, state, created_at, updated_at)
       VALUES ('p', 'trx', '1', 'T1', 'normal', ?, 1, 'awaitingApproval', 1, 1)`,
    );
    insert.run('W-1_a');
    expect(() => insert.run('W-1_a')).toThrow(/UNIQUE/);
    expect(() => insert.run('has space')).toThrow(/CHECK/);
    expect(() => insert.run('x'.repeat(65))).toThrow(/CHECK/);
  });

  it('uses the indexes history queries rely on', () => {
    const db = at0010();
    const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_%'").pluck().all();
    expect(indexes).toEqual(
      expect.arrayContaining([
        'deposits_by_seen',
        'deposits_by_currency_seen',
        'deposits_by_txid',
        'deposits_by_user_order',
        'withdrawal_requests_by_created',
        'withdrawal_requests_by_state',
        'balance_snapshots_by_currency',
      ]),
    );
  });
});
