// Shared set-up for the migration tests: the migrations up to a version (to open a database as an older desk left
// it) and a profile row written with plain SQL, so a test does not depend on today's store functions.
import { type StoreDatabase } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';

/** The migrations up to and including `version`, in order: a database opened with them is at that schema. */
export function migrationsUpTo(version: number): typeof MIGRATIONS {
  return MIGRATIONS.filter((migration) => migration.version <= version);
}

/** Inserts a profile row at any schema version since 0010 (the profiles table's first columns never changed). */
export function insertProfileRow(db: StoreDatabase, name = 'p'): void {
  db.prepare("INSERT INTO profiles (name, base_url, merchant_id, created_at, updated_at) VALUES (?, 'http://127.0.0.1:1', 'M-1', 1, 1)").run(name);
}
