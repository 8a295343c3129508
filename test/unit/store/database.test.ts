// Opening the database: pragmas (WAL, synchronous=FULL, foreign keys, busy timeout), owner-only files and folders,
// and the refusal to run on a damaged file (with the path and what to do), including the daily whole-file check.
import { closeSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDatabaseIntegrity, closeDatabase, LAST_WHOLE_FILE_CHECK_SETTING, openDatabase, WHOLE_FILE_CHECK_INTERVAL_MS } from '../../../electron/core/store/database';
import { insertOrTouchDeposits } from '../../../electron/core/deposits/deposits-table';
import { StoreError } from '../../../electron/core/store/errors';
import { ensureOperator } from '../../../electron/core/operators/operators-table';
import { createProfile } from '../../../electron/core/profiles/profiles-table';
import { getSetting } from '../../../electron/core/profiles/settings-table';
import { depositRecord, useTempDir } from './helpers';

const temp = useTempDir();

function openError(path: string, options?: Parameters<typeof openDatabase>[1]): StoreError {
  try {
    openDatabase(path, options).close();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected the open to fail');
}

describe('openDatabase', () => {
  it('sets WAL, synchronous=FULL, foreign keys and the busy timeout', () => {
    const db = temp.open(undefined, { busyTimeoutMs: 1234 });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(1234);
  });

  it('creates missing folders 0700 and the file 0600', () => {
    const path = temp.path(join('nested', 'deeper', 'treasury.sqlite'));
    const db = openDatabase(path);
    createProfile(db, { name: 'p', baseUrl: 'https://x', merchantId: 'M' });
    expect(statSync(temp.path('nested')).mode & 0o777).toBe(0o700);
    expect(statSync(temp.path(join('nested', 'deeper'))).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(`${path}-wal`).mode & 0o777).toBe(0o600);
    closeDatabase(db);
    closeDatabase(db);
  });

  it('opens read-only, refuses writes, and reports a missing file', () => {
    const path = temp.path('ro.sqlite');
    openDatabase(path).close();
    const db = openDatabase(path, { readonly: true });
    expect(() => createProfile(db, { name: 'p', baseUrl: 'https://x', merchantId: 'M' })).toThrow(/readonly/);
    db.close();
    expect(openError(temp.path('missing.sqlite'), { readonly: true }).kind).toBe('notFound');
  });

  it('refuses a file that is not a database, naming it and saying what to do', () => {
    const path = temp.path('garbage.sqlite');
    writeFileSync(path, 'this is not a database, it is a shopping list\n'.repeat(200));
    const error = openError(path);
    expect(error.kind).toBe('damaged');
    expect(error.path).toBe(path);
    expect(error.message).toContain(`the local cache at ${path} is damaged`);
    expect(error.message).toMatch(/move it aside.*sync --full/i);
  });

  /** A database with deposits and operators, checkpointed, closed; returns a function that scribbles over a b-tree root page. */
  function preparedFile(name: string, now: number): { path: string; damage(object: string): void } {
    const path = temp.path(name);
    const db = openDatabase(path, { clock: () => now });
    createProfile(db, { name: 'p', baseUrl: 'https://x', merchantId: 'M' });
    ensureOperator(db, 'p', 'op');
    insertOrTouchDeposits(
      db,
      'p',
      Array.from({ length: 400 }, (_, n) => ({ record: depositRecord(n), source: 'query' as const, observedAt: 1_000 + n })),
    );
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const roots = new Map(
      (db.prepare('SELECT name, rootpage FROM sqlite_schema WHERE rootpage > 0').all() as { name: string; rootpage: number }[]).map((row) => [
        row.name,
        row.rootpage,
      ]),
    );
    db.close();
    return {
      path,
      damage(object) {
        // Scribble over the b-tree page header: the kind of damage a torn write or a bad disk leaves.
        const root = roots.get(object);
        if (root === undefined) throw new Error(`no b-tree ${object}`);
        expect(readFileSync(path).length).toBeGreaterThan(root * pageSize);
        const fd = openSync(path, 'r+');
        writeSync(fd, Buffer.alloc(64, 0xa5), 0, 64, (root - 1) * pageSize);
        closeSync(fd);
      },
    };
  }

  it('refuses a database whose desk records (operators, requests, audit log) are damaged, at every open', () => {
    const day0 = 1_800_000_000_000;
    const file = preparedFile('damaged-operators.sqlite', day0);
    file.damage('operators');
    const error = openError(file.path, { clock: () => day0 + 1_000 });
    expect(error.kind).toBe('damaged');
    expect(error.message).toContain(file.path);
    expect(error.message).toMatch(/sync --full/);
  });

  it('checks the bulky deposit history at open once a day, or always with "quick" and "full"', () => {
    const day0 = 1_800_000_000_000;
    const file = preparedFile('damaged-history.sqlite', day0);
    file.damage('deposits_by_seen');
    // Within a day of the last whole-file check the everyday check skips the history tables...
    const db = openDatabase(file.path, { clock: () => day0 + 60_000 });
    expect(getSetting(db, LAST_WHOLE_FILE_CHECK_SETTING)).toBe(day0);
    db.close();
    // ...and a day later it checks them and refuses.
    expect(openError(file.path, { clock: () => day0 + WHOLE_FILE_CHECK_INTERVAL_MS }).kind).toBe('damaged');
    expect(openError(file.path, { clock: () => day0 + 60_000, integrityCheck: 'quick' }).message).toMatch(/deposits_by_seen/);
    expect(openError(file.path, { integrityCheck: 'full' }).kind).toBe('damaged');
    // A clock set back counts as due too.
    expect(openError(file.path, { clock: () => day0 - 60_000 }).kind).toBe('damaged');
  });

  it('reports damage through checkDatabaseIntegrity for a doctor command', () => {
    const db = temp.open();
    expect(checkDatabaseIntegrity(db, 'full')).toEqual([]);
    expect(checkDatabaseIntegrity(db, 'quick')).toEqual([]);
  });
});
