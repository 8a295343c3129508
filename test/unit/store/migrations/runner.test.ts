// The migration runner: order, one transaction per migration, user_version, idempotence, rollback on failure,
// and the refusals of a database from a newer version or one a read-only open would have to migrate.
import { describe, expect, it } from 'vitest';
import { openDatabase, userVersion } from '../../../../electron/core/store/database';
import { StoreError } from '../../../../electron/core/store/errors';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { latestVersion, runMigrations, type Migration } from '../../../../electron/core/store/migrations/runner';
import { assertMigrationList } from '../../../../electron/core/store/migrations';
import { useTempDir } from '../helpers';

const temp = useTempDir();

describe('migration runner', () => {
  it('numbers migrations 10, 20, 30 … and names them', () => {
    // 0130 is unused: the address book's additions are signed statements in the chain, with no table of their own.
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 140, 150, 160, 170, 180]);
    for (const migration of MIGRATIONS) expect(migration.name).toMatch(/^[a-z0-9-]+$/);
    expect(() => assertMigrationList(MIGRATIONS)).not.toThrow();
    expect(() => assertMigrationList([{ version: 15, name: 'odd', up: () => undefined }])).toThrow(/multiple of 10/);
    expect(() => assertMigrationList([...MIGRATIONS].reverse())).toThrow(/out of order/);
  });

  it('brings a new database to the latest version and does nothing the second time', () => {
    const db = temp.open();
    expect(userVersion(db)).toBe(latestVersion(MIGRATIONS));
    expect(runMigrations(db, MIGRATIONS)).toEqual([]);
  });

  it('rolls a failing migration back entirely and keeps the previous version', () => {
    const path = temp.path('failing.sqlite');
    const failing: Migration = {
      version: latestVersion(MIGRATIONS) + 10,
      name: 'failing',
      up(db) {
        db.exec('CREATE TABLE half_done (x INTEGER)');
        throw new Error('boom');
      },
    };
    let caught: unknown;
    try {
      openDatabase(path, { migrations: [...MIGRATIONS, failing] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StoreError);
    expect((caught as StoreError).kind).toBe('migrationFailed');
    expect((caught as StoreError).message).toContain('boom');
    expect((caught as StoreError).message).toContain(`left unchanged at schema ${latestVersion(MIGRATIONS)}`);
    const db = temp.open('failing.sqlite');
    expect(userVersion(db)).toBe(latestVersion(MIGRATIONS));
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'").pluck().get()).toBe(0);
  });

  it('refuses a database written by a newer version, with a clear message', () => {
    const path = temp.path('newer.sqlite');
    const db = openDatabase(path);
    db.pragma(`user_version = ${latestVersion(MIGRATIONS) + 10}`);
    db.close();
    let caught: unknown;
    try {
      openDatabase(path);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StoreError);
    expect((caught as StoreError).kind).toBe('newerSchema');
    expect((caught as StoreError).message).toContain(path);
    expect((caught as StoreError).message).toMatch(/newer Treasury Desk .*Update Treasury Desk/);
    expect(() => openDatabase(path, { readonly: true })).toThrow(/newer Treasury Desk/);
  });

  it('refuses to open read-only a database that still needs migrating', () => {
    const path = temp.path('old.sqlite');
    openDatabase(path, { migrations: MIGRATIONS.slice(0, 1) }).close();
    expect(() => openDatabase(path, { readonly: true })).toThrow(/needs upgrading/);
    openDatabase(path).close();
    const readonly = openDatabase(path, { readonly: true });
    expect(userVersion(readonly)).toBe(latestVersion(MIGRATIONS));
    readonly.close();
  });

  it('lets two handles on one file migrate safely (the second finds nothing to do)', () => {
    const path = temp.path('shared.sqlite');
    const first = openDatabase(path, { migrations: MIGRATIONS.slice(0, 1) });
    const second = openDatabase(path);
    expect(runMigrations(first, MIGRATIONS)).toEqual([]);
    expect(userVersion(first)).toBe(latestVersion(MIGRATIONS));
    first.close();
    second.close();
  });
});
