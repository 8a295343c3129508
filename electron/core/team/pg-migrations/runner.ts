// The runner of the team database's numbered migrations (their list is index.ts): each runs in ONE transaction under
// an advisory lock (two workstations never apply one twice), records itself in schema_version, and a database from a
// newer Treasury Desk is refused. Everything lives in the `treasury_desk` schema. A migration imports this file only.
import type { ClientBase } from 'pg';
import { newerSchemaError } from '../shared-store-rules';

export interface PgMigration {
  /** 10, 20, 30, …: recorded in schema_version once applied. */
  readonly version: number;
  readonly name: string;
  /** Runs with search_path = treasury_desk inside the runner's transaction; must not commit. */
  readonly sql: string;
}


/** The schema holding every table of the team desk. */
export const TEAM_SCHEMA = 'treasury_desk';
/** pg_advisory_xact_lock key serialising migrations (and initialise) across workstations: "tdmigrat", as an int8. */
export const MIGRATION_LOCK_KEY = BigInt('0x74646d6967726174').toString();

export function latestPgVersion(migrations: readonly PgMigration[]): number {
  return migrations.reduce((latest, migration) => Math.max(latest, migration.version), 0);
}

/** The schema version of the team database, or null when it has no Treasury Desk schema yet. */
export async function readSchemaVersion(client: ClientBase): Promise<number | null> {
  const table = await client.query<{ present: boolean }>(`SELECT to_regclass('${TEAM_SCHEMA}.schema_version') IS NOT NULL AS present`);
  if (table.rows[0]?.present !== true) return null;
  const version = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${TEAM_SCHEMA}.schema_version`);
  return version.rows[0]?.version ?? null;
}

/** Refuses (SharedStoreError 'newerSchema') a database whose schema is above what this build knows. */
export function assertKnownSchema(version: number | null, migrations: readonly PgMigration[]): void {
  const latest = latestPgVersion(migrations);
  if (version !== null && version > latest) throw newerSchemaError(version, latest);
}

/** Creates the schema if needed and applies every migration above its version; returns the versions applied. */
export async function migratePostgres(client: ClientBase, migrations: readonly PgMigration[]): Promise<number[]> {
  const applied: number[] = [];
  for (const migration of migrations) {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      // CREATE SCHEMA needs CREATE on the database even with IF NOT EXISTS: skip it when IT created the schema.
      const schema = await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [TEAM_SCHEMA]);
      if (schema.rowCount === 0) await client.query(`CREATE SCHEMA ${TEAM_SCHEMA}`);
      await client.query(`SET LOCAL search_path = ${TEAM_SCHEMA}`);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const current = await readSchemaVersion(client);
      assertKnownSchema(current, migrations);
      if ((current ?? 0) < migration.version) {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_version (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        applied.push(migration.version);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
  return applied;
}

/** One projection table, as migrations 0010 and 0020 create them (a later shape is a new migration): the database's id (named in refusals), the key, the row as JSON (data). */
export function projectionTable(name: string): string {
  return `
CREATE TABLE ${name} (
  id          bigserial PRIMARY KEY,
  key         text COLLATE "C" NOT NULL UNIQUE CHECK (length(key) BETWEEN 1 AND 200),
  data        jsonb NOT NULL CHECK (jsonb_typeof(data) = 'object'),
  updated_at  timestamptz NOT NULL DEFAULT now()
);`;
}
