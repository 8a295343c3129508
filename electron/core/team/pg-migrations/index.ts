// The team database's numbered migrations (0010, 0020, … like the SQLite ones), in order; their runner is runner.ts.
import { migration0010 } from './0010-initial';
import { migration0020 } from './0020-desk-state';
import { migration0025 } from './0025-public-keys-only';
import { migration0030 } from './0030-head-acks';
import { migration0040 } from './0040-roles';
import type { PgMigration } from './runner';

export { assertKnownSchema, latestPgVersion, migratePostgres, MIGRATION_LOCK_KEY, readSchemaVersion, TEAM_SCHEMA, type PgMigration } from './runner';

export const PG_MIGRATIONS: readonly PgMigration[] = [migration0010, migration0020, migration0025, migration0030, migration0040];
