// Migration 0020 (deposit search): an FTS5 trigram index over deposits, backfilled from rows that already exist and
// kept in sync by triggers on insert, update and delete.
import { describe, expect, it } from 'vitest';
import { sqliteCapabilities, userVersion } from '../../../../electron/core/store/database';
import { trigramQuery, type DepositRecord } from '../../../../electron/core/deposits/deposits-table';
import { runMigrations } from '../../../../electron/core/store/migrations/runner';
import { migration0010 } from '../../../../electron/core/store/migrations/0010-initial';
import { migration0020 } from '../../../../electron/core/store/migrations/0020-deposit-search';
import { depositRecord, useTempDir } from '../helpers';
import { insertProfileRow } from './helpers';

const temp = useTempDir();

/** Rows the trigram index returns for a fragment (a superset in general; exact for these distinctive fragments). */
function matches(db: ReturnType<typeof temp.open>, fragment: string): number[] {
  return db.prepare('SELECT rowid FROM deposits_search WHERE deposits_search MATCH ? ORDER BY rowid').pluck().all(trigramQuery(fragment)) as number[];
}

/** Stores a deposit as the schema of 0010 holds it (the store's code writes columns later migrations add). */
function insertAtSchema10(db: ReturnType<typeof temp.open>, profile: string, record: DepositRecord, source: 'callback' | 'query', at: number): number {
  const result = db
    .prepare(
      `INSERT INTO deposits (profile, api_order, user_order, business_type, txid, address, address_type, from_address, currency, amount, fee,
         raw_json, source, first_seen_at, last_seen_at) VALUES (?, ?, ?, 'deposit', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(profile, record.apiOrder, record.userOrder, record.txid, record.address, record.addressType, record.fromAddress, record.currency, record.amount, record.fee, JSON.stringify(record), source, at, at);
  return Number(result.lastInsertRowid);
}

/** Whether the trigram index exists (what depositSearchMode reports, read without the store's later-schema statements). */
function searchMode(db: ReturnType<typeof temp.open>): 'fts-trigram' | 'scan' {
  return db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'deposits_search'").pluck().get() === 1 ? 'fts-trigram' : 'scan';
}

describe('migration 0020-deposit-search', () => {
  it('needs SQLite 3.34+ with FTS5 trigram, which the bundled better-sqlite3 has', () => {
    const db = temp.open();
    const capabilities = sqliteCapabilities(db);
    expect(capabilities.trigram).toBe(true);
    const [major = 0, minor = 0] = capabilities.version.split('.').map(Number);
    expect(major * 1000 + minor).toBeGreaterThanOrEqual(3034);
  });

  it('backfills deposits stored before it ran and sets user_version to 20', () => {
    const db = temp.open(undefined, { migrations: [migration0010] });
    insertProfileRow(db);
    const old = depositRecord(1, { txid: 'aaaa1111bbbb2222', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' });
    insertAtSchema10(db, 'p', old, 'query', 10);
    expect(searchMode(db)).toBe('scan');

    expect(runMigrations(db, [migration0010, migration0020])).toEqual([20]);
    expect(userVersion(db)).toBe(20);
    expect(searchMode(db)).toBe('fts-trigram');
    expect(matches(db, '1111bbbb')).toEqual([1]);
    expect(matches(db, 'EsLJW1ch')).toEqual([1]);
    expect(matches(db, 'eslj')).toEqual([1]);
  });

  it('indexes new rows, follows edits and forgets deleted rows (triggers)', () => {
    const db = temp.open(undefined, { migrations: [migration0010, migration0020] });
    insertProfileRow(db);
    const id = insertAtSchema10(db, 'p', depositRecord(2, { fromAddress: 'TSenderFragmentXYZ' }), 'callback', 10);
    expect(matches(db, 'FragmentXYZ')).toEqual([id]);
    db.prepare("UPDATE deposits SET from_address = 'TOtherSender' WHERE id = ?").run(id);
    expect(matches(db, 'FragmentXYZ')).toEqual([]);
    expect(matches(db, 'OtherSend')).toEqual([id]);
    db.prepare('DELETE FROM deposits WHERE id = ?').run(id);
    expect(matches(db, 'OtherSend')).toEqual([]);
    db.exec("INSERT INTO deposits_search (deposits_search) VALUES ('integrity-check')");
  });
});
