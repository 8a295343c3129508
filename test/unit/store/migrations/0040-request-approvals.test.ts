// Migration 0040 (request approvals): existing requests get required_approvals 1; the column is bounded 1..5; the last
// submission error is kept. Tested on databases brought to schema 30 and 40 by the first migrations only.
import { describe, expect, it } from 'vitest';
import { userVersion, type StoreDatabase } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { migration0040 } from '../../../../electron/core/store/migrations/0040-request-approvals';
import { useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();
/** A profile, an operator (schema 10: global, with a role and a passphrase hash) and one request, in raw SQL. */
function seedRequest(db: StoreDatabase, userOrder: string, extra: { column: string; value: unknown } | null = null): void {
  db.prepare("INSERT OR IGNORE INTO profiles (name, base_url, merchant_id, created_at, updated_at) VALUES ('p', 'http://127.0.0.1:1', 'm', 1, 1)").run();
  db.prepare("INSERT OR IGNORE INTO operators (id, name, role, passphrase_hash, created_at, updated_at) VALUES (1, 'ann', 'initiator', 'scrypt$1$1$1$a$b', 1, 1)").run();
  const columns = ['profile', 'currency', 'amount', 'to_address', 'withdraw_type', 'memo', 'user_order', 'initiator_id', 'state', 'created_at', 'updated_at'];
  const values: unknown[] = ['p', 'trx', '5', 'T', 'normal', null, userOrder, 1, 'awaitingApproval', 1, 1];
  if (extra) {
    columns.push(extra.column);
    values.push(extra.value);
  }
  db.prepare(`INSERT INTO withdrawal_requests (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...values);
}

function requestRow(db: StoreDatabase, userOrder: string): { required_approvals: number; last_error: string | null } | undefined {
  return db.prepare('SELECT required_approvals, last_error FROM withdrawal_requests WHERE user_order = ?').get(userOrder) as
    | { required_approvals: number; last_error: string | null }
    | undefined;
}

describe('migration 0040-request-approvals', () => {
  it('upgrades a version 30 database, keeping its requests with one required approval', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(30) });
    seedRequest(old, 'td-old');
    old.close();
    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(40) });
    expect(userVersion(db)).toBe(40);
    expect(MIGRATIONS.find((migration) => migration.version === 40)).toBe(migration0040);
    expect(requestRow(db, 'td-old')).toEqual({ required_approvals: 1, last_error: null });
  });

  it('keeps the required approvals given at creation, bounded 1..5, and the last submission error', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(40) });
    seedRequest(db, 'td-a', { column: 'required_approvals', value: 3 });
    expect(requestRow(db, 'td-a')?.required_approvals).toBe(3);
    expect(() => seedRequest(db, 'td-b', { column: 'required_approvals', value: 6 })).toThrow(/CHECK/);
    expect(() => seedRequest(db, 'td-c', { column: 'required_approvals', value: 0 })).toThrow(/CHECK/);
    expect(db.prepare("UPDATE withdrawal_requests SET last_error = 'insufficientBalance' WHERE user_order = 'td-a'").run().changes).toBe(1);
    expect(requestRow(db, 'td-a')).toEqual({ required_approvals: 3, last_error: 'insufficientBalance' });
  });
});
