// Migration 0100 (deposit intake in batches): a version 90 database gains the staging table for verified pages and the
// search index's mark (set to its newest deposit: the insert trigger had indexed them all), loses the insert trigger,
// and keeps the index right through deletes and edits, indexed rows or not; without the search index only the staging
// table is made.
import { describe, expect, it } from 'vitest';
import { userVersion, type StoreDatabase } from '../../../../electron/core/store/database';
import { depositSearchBacklog, depositSearchMode, indexDepositSearchBacklog, insertOrTouchDeposit, trigramQuery } from '../../../../electron/core/deposits/deposits-table';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { runMigrations } from '../../../../electron/core/store/migrations/runner';
import { migration0100 } from '../../../../electron/core/store/migrations/0100-deposit-intake';
import { depositRecord, useTempDir } from '../helpers';
import { insertProfileRow, migrationsUpTo } from './helpers';

const temp = useTempDir();

function matches(db: StoreDatabase, fragment: string): number[] {
  return db.prepare('SELECT rowid FROM deposits_search WHERE deposits_search MATCH ? ORDER BY rowid').pluck().all(trigramQuery(fragment)) as number[];
}

const objects = (db: StoreDatabase, type: string): string[] =>
  db.prepare('SELECT name FROM sqlite_schema WHERE type = ? ORDER BY name').pluck().all(type) as string[];

describe('migration 0100-deposit-intake', () => {
  it('upgrades a version 90 database: staging table, the mark at the newest deposit, no insert trigger', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(90) });
    insertProfileRow(old);
    for (const n of [1, 2, 3]) insertOrTouchDeposit(old, 'p', depositRecord(n, { fromAddress: `TOldSender${n}zz` }), 'query', n);
    expect(objects(old, 'trigger')).toContain('deposits_search_insert');
    old.close();

    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(100) });
    expect(userVersion(db)).toBe(100);
    expect(MIGRATIONS.find((migration) => migration.version === 100)).toBe(migration0100);
    expect(objects(db, 'trigger').filter((name) => name.startsWith('deposits_'))).toEqual(['deposits_search_delete', 'deposits_search_update']);
    expect(db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('deposit_intake')).toEqual(['id', 'profile', 'source', 'observed_at', 'records', 'records_json']);
    expect(db.prepare('SELECT indexed_through FROM deposit_search_state').pluck().get()).toBe(3);
    expect(depositSearchBacklog(db)).toBe(0);
    expect(matches(db, 'OldSender2zz')).toEqual([2]);
    // A new deposit waits for the index; indexing takes exactly it.
    insertOrTouchDeposit(db, 'p', depositRecord(4, { fromAddress: 'TNewSender4zz' }), 'query', 4);
    expect(matches(db, 'NewSender4zz')).toEqual([]);
    expect(depositSearchBacklog(db)).toBe(1);
    expect(indexDepositSearchBacklog(db)).toBe(1);
    expect(matches(db, 'NewSender4zz')).toEqual([4]);
  });

  it('checks staged pages: a known profile, a known source, at least one record, valid JSON', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(100) });
    insertProfileRow(db);
    const stage = db.prepare('INSERT INTO deposit_intake (profile, source, observed_at, records, records_json) VALUES (?, ?, ?, ?, ?)');
    stage.run('p', 'query', 1, 1, '[{}]');
    expect(() => stage.run('nobody', 'query', 1, 1, '[{}]')).toThrow(/FOREIGN KEY/);
    expect(() => stage.run('p', 'guess', 1, 1, '[{}]')).toThrow(/CHECK/);
    expect(() => stage.run('p', 'query', 1, 0, '[]')).toThrow(/CHECK/);
    expect(() => stage.run('p', 'query', 1, 1, '[{')).toThrow(/CHECK/);
  });

  it('keeps the index right through deletes and edits of indexed and unindexed rows, ids reused included', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(100) });
    insertProfileRow(db);
    for (const n of [1, 2, 3]) insertOrTouchDeposit(db, 'p', depositRecord(n, { fromAddress: `TSender${n}qq` }), 'query', n);
    indexDepositSearchBacklog(db);
    insertOrTouchDeposit(db, 'p', depositRecord(4, { fromAddress: 'TSender4qq' }), 'query', 4);
    const mark = () => db.prepare('SELECT indexed_through FROM deposit_search_state').pluck().get();
    expect(mark()).toBe(3);

    // Edits: an indexed row's index entry follows it; an unindexed row stays out of the index.
    db.prepare("UPDATE deposits SET from_address = 'TEdited2qq' WHERE id = 2").run();
    db.prepare("UPDATE deposits SET from_address = 'TEdited4qq' WHERE id = 4").run();
    expect(matches(db, 'Sender2qq')).toEqual([]);
    expect(matches(db, 'Edited2qq')).toEqual([2]);
    expect(matches(db, 'Edited4qq')).toEqual([]);

    // Deleting an unindexed row leaves the mark; deleting the newest indexed one lowers it, so the id SQLite hands out
    // again belongs to the backlog.
    db.prepare('DELETE FROM deposits WHERE id = 4').run();
    expect(mark()).toBe(3);
    db.prepare('DELETE FROM deposits WHERE id = 3').run();
    expect(mark()).toBe(2);
    expect(matches(db, 'Sender3qq')).toEqual([]);
    const { id } = insertOrTouchDeposit(db, 'p', depositRecord(5, { fromAddress: 'TSender5qq' }), 'query', 5);
    expect(id).toBe(3);
    expect(depositSearchBacklog(db)).toBe(1);
    expect(indexDepositSearchBacklog(db)).toBe(1);
    expect(matches(db, 'Sender5qq')).toEqual([3]);
    db.exec("INSERT INTO deposits_search (deposits_search) VALUES ('integrity-check')");
    // Every row is in the index exactly as stored.
    for (const row of db.prepare('SELECT id, from_address FROM deposits').all() as Array<{ id: number; from_address: string }>) {
      expect(matches(db, row.from_address.slice(1))).toEqual([row.id]);
    }
  });

  it('makes only the staging table where SQLite had no trigram search (0020 skipped)', () => {
    const withoutSearch = MIGRATIONS.filter((migration) => migration.version !== 20 && migration.version < 100);
    const db = temp.open(undefined, { migrations: withoutSearch });
    expect(runMigrations(db, [...withoutSearch, migration0100])).toEqual([100]);
    expect(depositSearchMode(db)).toBe('scan');
    expect(objects(db, 'table')).toContain('deposit_intake');
    expect(objects(db, 'table')).not.toContain('deposit_search_state');
    expect(depositSearchBacklog(db)).toBe(0);
    expect(indexDepositSearchBacklog(db)).toBe(0);
  });
});
