// Readable and writable handles: the compiler refuses a ReadableDB to a writer (the @ts-expect-error lines fail
// typecheck if it ever accepts one), and SQLite itself refuses a write through openReadableDatabase's connection.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { closeDatabase, openReadableDatabase, writeTransaction, type ReadableDB, type StoreDatabase, type WritableDB } from '../../../electron/core/store/database';
import { sqliteCode, StoreError } from '../../../electron/core/store/errors';
import { getProfile } from '../../../electron/core/profiles/profiles-table';
import { getSetting, listSettings, setSetting } from '../../../electron/core/profiles/settings-table';
import { PROFILE, seededDatabase, useTempDir } from './helpers';

const temp = useTempDir('td-handles-');

/** The SQLite code of what `write` throws; fails the test when it does not throw. */
function refusal(write: () => unknown): string | undefined {
  try {
    write();
  } catch (error) {
    return sqliteCode(error);
  }
  throw new Error('expected the write to be refused');
}

/** A writable desk database and a read-only second connection to the same file. */
function pair(name: string): { writer: StoreDatabase; reader: ReadableDB } {
  const writer = seededDatabase(temp, name);
  setSetting(writer, 'ui.theme', 'dark', 1_000);
  const reader = openReadableDatabase(temp.path(name));
  return { writer, reader };
}

describe('handle types', () => {
  it('lets a writable handle go where a readable one is asked, never the reverse', () => {
    const { writer, reader } = pair('types.sqlite');
    const asReadable: ReadableDB = writer;
    const asWritable: WritableDB = writer;
    expect(getSetting(asReadable, 'ui.theme')).toBe('dark');
    expect(getSetting(reader, 'ui.theme')).toBe('dark');
    expect(getProfile(asWritable, PROFILE)?.name).toBe(PROFILE);

    // @ts-expect-error a read-only handle is not a writable one
    const notWritable: WritableDB = reader;
    expect(notWritable.readonly).toBe(true);
    // @ts-expect-error a writer refuses a ReadableDB at compile time (and SQLite refuses it at run time)
    expect(refusal(() => setSetting(reader, 'ui.theme', 'light'))).toBe('SQLITE_READONLY');
    // A read-only connection alone accepts BEGIN IMMEDIATE in WAL mode; query_only is what refuses it, before fn runs.
    let ran = false;
    // @ts-expect-error a write transaction needs a WritableDB
    expect(refusal(() => writeTransaction(reader, () => { ran = true; setSetting(writer, 'ui.theme', 'light'); }))).toBe('SQLITE_READONLY');
    expect(ran).toBe(false);
    expect(getSetting(writer, 'ui.theme')).toBe('dark');
    closeDatabase(reader);
  });
});

describe('openReadableDatabase', () => {
  it('opens with the readonly flag and query_only', () => {
    const { reader } = pair('flags.sqlite');
    expect(reader.readonly).toBe(true);
    expect(reader.pragma('query_only', { simple: true })).toBe(1);
    closeDatabase(reader);
  });

  it('refuses a store writer and raw SQL with SQLite read-only error, and changes nothing', () => {
    const { writer, reader } = pair('refuse.sqlite');
    const before = listSettings(writer);
    // The compiler already refuses this call; the cast stands for a handle that reached a writer some other way.
    expect(refusal(() => setSetting(reader as WritableDB, 'ui.theme', 'light'))).toBe('SQLITE_READONLY');
    expect(refusal(() => reader.prepare("UPDATE settings SET value_json = '\"light\"' WHERE key = 'ui.theme'").run())).toBe('SQLITE_READONLY');
    expect(refusal(() => reader.exec('DELETE FROM settings'))).toBe('SQLITE_READONLY');
    expect(refusal(() => reader.exec('CREATE TABLE intruder (x INTEGER)'))).toBe('SQLITE_READONLY');
    expect(listSettings(writer)).toEqual(before);
    expect(writer.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'intruder'").pluck().get()).toBe(0);
    closeDatabase(reader);
  });

  it('still refuses a write when query_only is switched off: the connection itself is read-only', () => {
    const { writer, reader } = pair('flag-only.sqlite');
    reader.pragma('query_only = OFF');
    expect(reader.pragma('query_only', { simple: true })).toBe(0);
    expect(refusal(() => reader.exec('DELETE FROM settings'))).toBe('SQLITE_READONLY');
    expect(getSetting(writer, 'ui.theme')).toBe('dark');
    closeDatabase(reader);
  });

  it("sees what the writable handle committed (WAL), never a write transaction's uncommitted rows", () => {
    const { writer, reader } = pair('wal.sqlite');
    expect(writer.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(getSetting(reader, 'ui.theme')).toBe('dark');
    setSetting(writer, 'ui.theme', 'light', 2_000);
    expect(getSetting(reader, 'ui.theme')).toBe('light');

    writeTransaction(writer, () => {
      setSetting(writer, 'ui.theme', 'sepia', 3_000);
      // Inside the transaction only its own handle sees the write.
      expect(getSetting(writer, 'ui.theme')).toBe('sepia');
      expect(getSetting(reader, 'ui.theme')).toBe('light');
    });
    expect(getSetting(reader, 'ui.theme')).toBe('sepia');
    closeDatabase(reader);
  });

  it('refuses a missing file with the store error, and creates nothing', () => {
    const path = temp.path('missing.sqlite');
    let error: unknown;
    try {
      openReadableDatabase(path);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).kind).toBe('notFound');
    expect(() => openReadableDatabase(path)).toThrow(/no database at/);
    expect(existsSync(path)).toBe(false);
  });
});
