// The numbered migrations (0010, 0020, … in steps of ten) and their runner: each runs in one IMMEDIATE transaction,
// checks foreign keys, and sets PRAGMA user_version to its number. A migration, once released, never changes.
import type { StoreDatabase } from '../database';
import { StoreError } from '../errors';
import { migration0010 } from './0010-initial';
import { migration0020 } from './0020-deposit-search';
import { migration0030 } from './0030-audit-log';
import { migration0040 } from './0040-request-approvals';
import { migration0050 } from './0050-signed-approvals';
import { migration0060 } from './0060-notifications';
import { migration0070 } from './0070-seen-nonces';
import { migration0080 } from './0080-merchant-info';
import { migration0090 } from './0090-deposit-sightings';
import { migration0100 } from './0100-deposit-intake';
import { migration0110 } from './0110-payout-batches';
import { migration0120 } from './0120-labels';
import { migration0140 } from './0140-connection-log';
import { migration0150 } from './0150-team-mode';
import { migration0160 } from './0160-team-refusals-now';

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

export const MIGRATIONS: readonly Migration[] = [
  migration0010,
  migration0020,
  migration0030,
  migration0040,
  migration0050,
  migration0060,
  migration0070,
  migration0080,
  migration0090,
  migration0100,
  migration0110,
  migration0120,
  migration0140,
  migration0150,
  migration0160,
];

export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
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
export function runMigrations(db: StoreDatabase, migrations: readonly Migration[] = MIGRATIONS, path: string = db.name): number[] {
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
