// The team database's migrations on a real PostgreSQL (scripts/with-postgres.sh): each runs in one transaction (a
// failing one leaves nothing behind), a newer schema is refused untouched, the chain's triggers refuse changes, and
// the approvals-queue queries use their indexes at 10,000 requests.
import pg from 'pg';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { latestPgVersion, migratePostgres, PG_MIGRATIONS, readSchemaVersion, TEAM_SCHEMA, type PgMigration } from '../../../electron/core/team/pg-migrations';
import { SharedStoreError } from '../../../electron/core/team/shared-store';
import { chainRows } from '../../support/shared-chain';

// As the owner role: the one that runs migrations.
const url = process.env['TREASURY_DESK_OWNER_DATABASE_URL'];
if (url === undefined) throw new Error('these tests need a PostgreSQL: run `bash scripts/with-postgres.sh npx vitest run test/integration/team`');

const client = new pg.Client({ connectionString: url });
await client.connect();
afterAll(async () => client.end());

beforeEach(async () => {
  await client.query(`DROP SCHEMA IF EXISTS ${TEAM_SCHEMA} CASCADE`);
});

async function failure(sql: string, params: unknown[] = []): Promise<string> {
  const error: unknown = await client.query(sql, params).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

describe('team database migrations', () => {
  it('applies every migration once, recording them in schema_version', async () => {
    expect(await readSchemaVersion(client)).toBeNull();
    expect(await migratePostgres(client, PG_MIGRATIONS)).toEqual(PG_MIGRATIONS.map((migration) => migration.version));
    expect(await migratePostgres(client, PG_MIGRATIONS)).toEqual([]);
    expect(await readSchemaVersion(client)).toBe(latestPgVersion(PG_MIGRATIONS));
    const tables = await client.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename', [TEAM_SCHEMA]);
    expect(tables.rows.map((row) => row.tablename)).toEqual([
      'address_book',
      'approvals',
      'audit_log',
      'desk_identity',
      'head_acks',
      'labels',
      'operators',
      'order_statuses',
      'payout_batches',
      'schema_version',
      'submission_claims',
      'withdrawal_requests',
      'witness_requests',
      'workstations',
    ]);
  });

  it('0030 keeps witness requests and head acks well-formed: a bad nonce or hash is refused', async () => {
    await migratePostgres(client, PG_MIGRATIONS);
    const hash = 'a'.repeat(64);
    expect(await failure(`INSERT INTO ${TEAM_SCHEMA}.witness_requests (nonce, workstation) VALUES ('not-hex', 'A')`)).toMatch(/witness_requests_nonce_check/);
    expect(
      await failure(`INSERT INTO ${TEAM_SCHEMA}.head_acks (desk_id, workstation, seq, hash, nonce, at, key_id, signature) VALUES ('d', 'A', 1, 'short', NULL, 1, 'k', 's')`),
    ).toMatch(/head_acks_hash_check/);
    await client.query(`INSERT INTO ${TEAM_SCHEMA}.head_acks (desk_id, workstation, seq, hash, nonce, at, key_id, signature) VALUES ('d', 'A', 1, $1, NULL, 1, 'k', 's')`, [hash]);
    await client.query(`INSERT INTO ${TEAM_SCHEMA}.head_acks (desk_id, workstation, seq, hash, nonce, at, key_id, signature) VALUES ('d', 'A', 2, $1, NULL, 2, 'k', 's')`, [hash]);
    expect((await client.query(`SELECT count(*)::int AS n FROM ${TEAM_SCHEMA}.head_acks`)).rows[0]).toEqual({ n: 2 });
  });

  it('0025 removes the sealed private keys earlier workstations wrote into the operators rows, keeping their public keys', async () => {
    await migratePostgres(client, PG_MIGRATIONS.filter((migration) => migration.version <= 20));
    const sealed = { profile: 'main', name: 'bob', keyId: 'AAAA-BBBB-CCCC-DDDD', publicKey: 'cHVibGlj', sealedKey: '{"v":1,"kdf":{"name":"scrypt"},"ciphertext":"x"}' };
    await client.query(`INSERT INTO ${TEAM_SCHEMA}.operators (key, data) VALUES ($1, $2)`, ['main/bob/AAAA-BBBB-CCCC-DDDD', sealed]);
    expect(await migratePostgres(client, PG_MIGRATIONS.filter((migration) => migration.version <= 25))).toEqual([25]);
    const rows = await client.query<{ data: Record<string, unknown> }>(`SELECT data FROM ${TEAM_SCHEMA}.operators`);
    expect(rows.rows.map((row) => row.data)).toEqual([{ profile: 'main', name: 'bob', keyId: 'AAAA-BBBB-CCCC-DDDD', publicKey: 'cHVibGlj' }]);
  });

  it('rolls a failing migration back whole, leaving the previous version', async () => {
    const broken: PgMigration = { version: latestPgVersion(PG_MIGRATIONS) + 10, name: 'broken', sql: 'CREATE TABLE half_made (a int); SELECT 1 / 0;' };
    await expect(migratePostgres(client, [...PG_MIGRATIONS, broken])).rejects.toThrow(/division by zero/);
    expect(await readSchemaVersion(client)).toBe(latestPgVersion(PG_MIGRATIONS));
    expect((await client.query(`SELECT to_regclass('${TEAM_SCHEMA}.half_made') AS found`)).rows[0]).toEqual({ found: null });
  });

  it('refuses a newer schema without changing it', async () => {
    await migratePostgres(client, PG_MIGRATIONS);
    await client.query(`INSERT INTO ${TEAM_SCHEMA}.schema_version (version, name) VALUES (990, 'future')`);
    const error = await migratePostgres(client, PG_MIGRATIONS).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SharedStoreError);
    expect((error as SharedStoreError).message).toContain(`newer Treasury Desk (schema 990; this version knows up to ${latestPgVersion(PG_MIGRATIONS)}); update this workstation`);
    expect(await readSchemaVersion(client)).toBe(990);
  });

  it('keeps the chain append-only: UPDATE, DELETE, TRUNCATE and a row that does not extend it are refused', async () => {
    await migratePostgres(client, PG_MIGRATIONS);
    const [first, second] = chainRows(null, 2);
    const insert = `INSERT INTO ${TEAM_SCHEMA}.audit_log (seq, at, profile, kind, action, operator, subject, key_id, statement, signature, prev_hash, hash)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`;
    const values = (row: typeof first) =>
      row === undefined ? [] : [row.seq, row.at, row.profile, row.kind, row.action, row.operator, row.subject, row.keyId, row.statement, row.signature, row.prevHash, row.hash];
    expect(await failure(insert, values(second))).toMatch(/must extend the chain/);
    await client.query(insert, values(first));
    expect(await failure(insert, values(first === undefined ? undefined : { ...first, seq: 2 }))).toMatch(/must extend the chain/);
    expect(await failure(`UPDATE ${TEAM_SCHEMA}.audit_log SET signature = 'x'`)).toMatch(/append-only/);
    expect(await failure(`DELETE FROM ${TEAM_SCHEMA}.audit_log`)).toMatch(/append-only/);
    expect(await failure(`TRUNCATE ${TEAM_SCHEMA}.audit_log`)).toMatch(/append-only/);
    expect((await client.query(`SELECT count(*)::int AS rows FROM ${TEAM_SCHEMA}.audit_log`)).rows[0]).toEqual({ rows: 1 });
  });

  it('answers the approvals-queue queries from indexes at 10,000 requests', async () => {
    await migratePostgres(client, PG_MIGRATIONS);
    await client.query(
      `INSERT INTO ${TEAM_SCHEMA}.withdrawal_requests (key, data)
       SELECT 'wd-' || lpad(n::text, 6, '0'), jsonb_build_object('userOrder', 'wd-' || lpad(n::text, 6, '0'), 'profile', 'main',
              'state', CASE WHEN n % 20 = 0 THEN 'pending' ELSE 'final' END)
       FROM generate_series(1, 10000) AS n`,
    );
    await client.query(
      `INSERT INTO ${TEAM_SCHEMA}.approvals (key, data)
       SELECT 'wd-' || lpad((n / 2)::text, 6, '0') || '/op-' || (n % 50), jsonb_build_object('userOrder', 'wd-' || lpad((n / 2)::text, 6, '0'))
       FROM generate_series(1, 20000) AS n`,
    );
    await client.query(`ANALYZE ${TEAM_SCHEMA}.withdrawal_requests, ${TEAM_SCHEMA}.approvals`);
    const plan = async (sql: string): Promise<string> => JSON.stringify((await client.query(`EXPLAIN (FORMAT JSON) ${sql}`)).rows);
    const queue = await plan(
      `SELECT id, key, data FROM ${TEAM_SCHEMA}.withdrawal_requests WHERE data->>'state' = 'pending' AND jsonb_typeof(data->'state') = 'string' ORDER BY key LIMIT 51`,
    );
    expect(queue).toContain('withdrawal_requests_by_state');
    const approvals = await plan(
      `SELECT id, key, data FROM ${TEAM_SCHEMA}.approvals WHERE data->>'userOrder' = 'wd-000042' AND jsonb_typeof(data->'userOrder') = 'string' ORDER BY key LIMIT 101`,
    );
    expect(approvals).toContain('approvals_by_user_order');
    expect(queue + approvals).not.toContain('Seq Scan');
  });
});
