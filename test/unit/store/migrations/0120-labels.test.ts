// Migration 0120 (labels): a version 110 desk upgrades keeping its address book (each entry's label, note NULL) and
// gains the labels table; a label is stored, replaced and read back per (profile, type, ref), and the schema refuses an
// unknown type, an empty ref, an over-long label or note, no author, a second row for one key, text in an INTEGER
// column and a missing profile; labels follow their profile (renamed or deleted); a book entry's note is bounded too.
import { describe, expect, it } from 'vitest';
import { listAddressBook, setAddressBookLabel } from '../../../../electron/core/address-book/address-book-table';
import { userVersion, type StoreDatabase } from '../../../../electron/core/store/database';
import { getLabel, listLabels, saveLabel, searchLabels, type StoredLabelType } from '../../../../electron/core/labels/labels-table';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { createProfile, deleteProfile } from '../../../../electron/core/profiles/profiles-table';
import { migration0120 } from '../../../../electron/core/store/migrations/0120-labels';
import { useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();

const PROFILE = 'main';

const tables = (db: StoreDatabase): string[] => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[];

function labelsDatabase(): StoreDatabase {
  const db = temp.open(undefined, { migrations: migrationsUpTo(120) });
  createProfile(db, { name: PROFILE, baseUrl: 'https://pay.example', merchantId: 'M-1' }, 1_000);
  return db;
}

describe('migration 0120-labels', () => {
  it('upgrades a version 110 database: book entries keep their label, with no note, and no label is invented', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(110) });
    createProfile(old, { name: PROFILE, baseUrl: 'https://pay.example', merchantId: 'M-1' }, 1_000);
    // Rows as the version 110 code wrote them (address_book had no note column then).
    const book = old.prepare('INSERT INTO address_book (profile, chain, address, label, created_at, last_used_at, use_count) VALUES (?, ?, ?, ?, ?, ?, ?)');
    book.run(PROFILE, 'trx', 'TCold', 'cold wallet', 1_000, 3_000, 2);
    book.run(PROFILE, 'eth', '0xabc', null, 1_100, 2_000, 1);
    expect(tables(old)).not.toContain('labels');
    old.close();

    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(120) });
    expect(userVersion(db)).toBe(120);
    expect(MIGRATIONS.find((migration) => migration.version === 120)).toBe(migration0120);
    expect(listAddressBook(db, PROFILE).map(({ chain, address, label, note, useCount }) => ({ chain, address, label, note, useCount }))).toEqual([
      { chain: 'trx', address: 'TCold', label: 'cold wallet', note: null, useCount: 2 },
      { chain: 'eth', address: '0xabc', label: null, note: null, useCount: 1 },
    ]);
    expect(listLabels(db, PROFILE)).toEqual([]);
    // The new column takes a note beside the label the entry already had.
    expect(setAddressBookLabel(db, PROFILE, { chain: 'trx', address: 'TCold', label: 'cold wallet', note: 'the safe' })).toMatchObject({ label: 'cold wallet', note: 'the safe' });
  });

  it('stores one label per (profile, type, ref): replaced in place, found by text or note, removed when emptied', () => {
    const db = labelsDatabase();
    saveLabel(db, PROFILE, { type: 'deposit', ref: 'D000000000001', label: 'Invoice 7', note: null }, 'alice', 2_000);
    saveLabel(db, PROFILE, { type: 'addr', ref: 'TAddr', label: 'shop', note: 'front desk' }, 'bob', 2_100);
    saveLabel(db, PROFILE, { type: 'deposit', ref: 'D000000000001', label: 'Invoice 8', note: 'corrected' }, 'carol', 3_000);
    expect(getLabel(db, PROFILE, 'deposit', 'D000000000001')).toEqual({ type: 'deposit', ref: 'D000000000001', label: 'Invoice 8', note: 'corrected', updatedAt: 3_000, updatedBy: 'carol' });
    expect(listLabels(db, PROFILE).map((label) => [label.type, label.ref])).toEqual([['addr', 'TAddr'], ['deposit', 'D000000000001']]);
    expect(searchLabels(db, PROFILE, 'FRONT').map((label) => label.ref)).toEqual(['TAddr']);
    saveLabel(db, PROFILE, { type: 'deposit', ref: 'D000000000001', label: '', note: null }, 'carol', 4_000);
    expect(getLabel(db, PROFILE, 'deposit', 'D000000000001')).toBeUndefined();
  });

  it('refuses an unknown type, an empty ref, an over-long label or note, no author, a duplicate key, text for a time and a missing profile', () => {
    const db = labelsDatabase();
    const save = (entry: { type?: string; ref?: string; label?: string; note?: string | null }, by = 'alice', profile = PROFILE) =>
      saveLabel(db, profile, { type: (entry.type ?? 'withdrawal') as StoredLabelType, ref: entry.ref ?? 'td-1', label: entry.label ?? 'x', note: entry.note ?? null }, by, 1_000);
    save({ label: 'l'.repeat(200), note: 'n'.repeat(1_000) });
    expect(getLabel(db, PROFILE, 'withdrawal', 'td-1')?.label).toHaveLength(200);
    expect(() => save({ type: 'book' })).toThrow(/CHECK/);
    expect(() => save({ ref: '' })).toThrow(/CHECK/);
    expect(() => save({ ref: 'r'.repeat(201) })).toThrow(/CHECK/);
    expect(() => save({ label: 'l'.repeat(201) })).toThrow(/CHECK/);
    expect(() => save({ note: 'n'.repeat(1_001) })).toThrow(/CHECK/);
    expect(() => save({}, '')).toThrow(/CHECK/);
    expect(() => save({}, 'alice', 'nobody')).toThrow(/FOREIGN KEY/);
    const insert = db.prepare("INSERT INTO labels (profile, type, ref, label, updated_at, updated_by) VALUES ('main', 'withdrawal', ?, 'x', ?, 'alice')");
    expect(() => insert.run('td-1', 5)).toThrow(/UNIQUE/);
    expect(() => insert.run('td-2', 'yesterday')).toThrow(/cannot store TEXT value in INTEGER column/);
    insert.run('td-2', 5);
    expect(listLabels(db, PROFILE).map((label) => label.ref)).toEqual(['td-1', 'td-2']);
  });

  it('moves labels with a renamed profile and deletes them with a deleted one', () => {
    const db = labelsDatabase();
    saveLabel(db, PROFILE, { type: 'addr', ref: 'TAddr', label: 'shop', note: null }, 'alice', 1_000);
    db.prepare("UPDATE profiles SET name = 'renamed' WHERE name = ?").run(PROFILE);
    expect(listLabels(db, PROFILE)).toEqual([]);
    expect(listLabels(db, 'renamed').map((label) => label.label)).toEqual(['shop']);
    expect(deleteProfile(db, 'renamed')).toBe(true);
    expect(db.prepare('SELECT count(*) FROM labels').pluck().get()).toBe(0);
  });

  it('bounds an address book entry’s note at 1000 characters', () => {
    const db = labelsDatabase();
    db.prepare("INSERT INTO address_book (profile, chain, address, label, created_at) VALUES (?, 'trx', 'TBook', 'payroll', 1)").run(PROFILE);
    expect(() => setAddressBookLabel(db, PROFILE, { chain: 'trx', address: 'TBook', label: 'payroll', note: 'n'.repeat(1_001) })).toThrow(/CHECK/);
    expect(listAddressBook(db, PROFILE)[0]?.note).toBeNull();
    expect(setAddressBookLabel(db, PROFILE, { chain: 'trx', address: 'TBook', label: 'payroll', note: 'n'.repeat(1_000) })?.note).toHaveLength(1_000);
  });
});
