// The runner of the numbered migrations (their list is index.ts): each runs in one IMMEDIATE transaction, checks
// foreign keys, and sets PRAGMA user_version to its number. A migration imports this file only (never another
// migration or the store's modules), so that, once released, nothing outside it can change what it does.
import type Database from 'better-sqlite3';
import { StoreError } from '../errors';

/** The store's SQLite handle (store/database.ts calls it StoreDatabase; named here so the runner does not import it). */
type StoreDatabase = Database.Database;

export interface Migration {
  /** 10, 20, 30, …: becomes PRAGMA user_version once applied. */
  readonly version: number;
  readonly name: string;
  /** Runs inside the runner's transaction; must not open its own. */
  up(db: StoreDatabase): void;
  /**
   * Rebuilds tables that others reference (SQLite's 12-step ALTER): the runner turns foreign keys off around the
   * transaction, as SQLite requires, and still refuses to commit when `foreign_key_check` finds a violation.
   */
  readonly rebuildsReferencedTables?: boolean;
}


export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.reduce((latest, migration) => Math.max(latest, migration.version), 0);
}

export function readUserVersion(db: StoreDatabase): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/** Checks the list is well formed: versions positive multiples of ten, strictly increasing. */
export function assertMigrationList(migrations: readonly Migration[]): void {
  let previous = 0;
  for (const migration of migrations) {
    if (!Number.isInteger(migration.version) || migration.version <= 0 || migration.version % 10 !== 0) {
      throw new Error(`migration ${migration.name}: version ${migration.version} is not a positive multiple of 10`);
    }
    if (migration.version <= previous) {
      throw new Error(`migration ${migration.version}-${migration.name} is out of order (after ${previous})`);
    }
    previous = migration.version;
  }
}

/**
 * Applies, in order, every migration above the database's user_version. Each runs in its own IMMEDIATE transaction
 * and re-reads user_version under the write lock, so two processes opening the same file never apply one twice.
 * Returns the versions applied. A failure rolls that migration back and throws StoreError('migrationFailed').
 */
export function runMigrations(db: StoreDatabase, migrations: readonly Migration[], path: string = db.name): number[] {
  assertMigrationList(migrations);
  const applied: number[] = [];
  for (const migration of migrations) {
    const apply = db.transaction((): boolean => {
      const current = readUserVersion(db);
      if (current >= migration.version) return false;
      migration.up(db);
      const violations = db.pragma('foreign_key_check') as unknown[];
      if (violations.length > 0) {
        throw new Error(`${violations.length} foreign key violation(s) after the migration`);
      }
      db.pragma(`user_version = ${migration.version}`);
      return true;
    });
    const toggleForeignKeys = migration.rebuildsReferencedTables === true && Number(db.pragma('foreign_keys', { simple: true })) === 1;
    if (toggleForeignKeys) db.pragma('foreign_keys = OFF');
    try {
      if (apply.immediate()) applied.push(migration.version);
    } catch (error) {
      if (error instanceof StoreError) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw new StoreError(
        'migrationFailed',
        `upgrading ${path} to schema ${migration.version} (${migration.name}) failed: ${detail}. ` +
          `The database was left unchanged at schema ${readUserVersion(db)}.`,
        { path, cause: error },
      );
    } finally {
      if (toggleForeignKeys) db.pragma('foreign_keys = ON');
    }
  }
  return applied;
}

/**
 * Whether this connection's SQLite offers FTS5 with the trigram tokenizer (SQLite 3.34+ built with FTS5): migration
 * 0020 creates the deposit search index only then, and the store reports which search it uses.
 */
export function trigramAvailable(db: { exec(sql: string): unknown }): boolean {
  try {
    db.exec("CREATE VIRTUAL TABLE temp.trigram_probe USING fts5(x, tokenize = 'trigram')");
    db.exec('DROP TABLE temp.trigram_probe');
    return true;
  } catch {
    return false;
  }
}
