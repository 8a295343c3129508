// Least privilege on a real PostgreSQL (scripts/with-postgres.sh: an owner role and a workstation login, member of
// treasury_desk_workstation): the workstation role reads and appends through the owner's definer functions only; its
// UPDATE, DELETE, TRUNCATE, INSERT, ALTER TABLE and DISABLE TRIGGER on the chain, projections, claims and witness tables
// are refused, while its witness requests and head acks go through the definer functions and still notify listeners.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { WORKSTATION_FUNCTIONS } from '../../../electron/core/team/pg-migrations/0040-roles';
import { openPostgresDeskStore, WITNESS_CHANNEL, type PostgresDeskStore } from '../../../electron/core/team/postgres-store';
import { PROJECTION_TABLES } from '../../../electron/core/team/shared-store';
import { chainRows } from '../../support/shared-chain';
import { databaseUrl, emptyTeamDatabase, ownerDatabaseUrl, within } from './desk-support';

let store: PostgresDeskStore;
const workstation = new pg.Client({ connectionString: databaseUrl() });

beforeAll(async () => {
  await emptyTeamDatabase();
  store = await openPostgresDeskStore(databaseUrl(), { ownerUrl: ownerDatabaseUrl() });
  await store.initialise('desk-roles', 1_700_000_000_000);
  const rows = chainRows(null, 2);
  const projections = PROJECTION_TABLES.map((table) => ({ table, key: `k-${table}`, row: { state: 'pending', userOrder: 'td-1' } }));
  expect(await store.append(rows, projections, null)).toMatchObject({ appended: true });
  expect(await store.claimSubmission('td-1', 'A', 60_000)).toMatchObject({ claimed: true });
  await workstation.connect();
});
afterAll(async () => {
  await workstation.end();
  await store.close();
});

async function refusal(sql: string, params: unknown[] = []): Promise<string> {
  const error: unknown = await workstation.query(sql, params).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, sql).toBeInstanceOf(Error);
  return (error as Error).message;
}

const DENIED = /permission denied|must be owner/;

describe('the workstation role', () => {
  it('is not the owner and holds no write privilege on any table of the schema', async () => {
    const who = await workstation.query<{ me: string; owner: string }>(
      `SELECT current_user AS me, (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = '${TEAM_SCHEMA}.audit_log'::regclass) AS owner`,
    );
    expect(who.rows[0]?.me).not.toBe(who.rows[0]?.owner);
    const writable = await workstation.query<{ table: string; privilege: string }>(
      `SELECT c.relname AS table, p.privilege FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
         unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER', 'REFERENCES']) AS p(privilege)
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'S') AND has_table_privilege(current_user, c.oid, p.privilege)`,
      [TEAM_SCHEMA],
    );
    expect(writable.rows).toEqual([]);
    expect((await workstation.query(`SELECT has_schema_privilege(current_user, $1, 'CREATE') AS create`, [TEAM_SCHEMA])).rows[0]).toEqual({ create: false });
  });

  it('cannot UPDATE, DELETE, TRUNCATE, INSERT into, ALTER or disable the triggers of the chain', async () => {
    const table = `${TEAM_SCHEMA}.audit_log`;
    expect(await refusal(`UPDATE ${table} SET signature = 'x'`)).toMatch(DENIED);
    expect(await refusal(`DELETE FROM ${table}`)).toMatch(DENIED);
    expect(await refusal(`TRUNCATE ${table}`)).toMatch(DENIED);
    expect(await refusal(`ALTER TABLE ${table} DISABLE TRIGGER ALL`)).toMatch(DENIED);
    expect(await refusal(`ALTER TABLE ${table} DISABLE TRIGGER audit_log_no_update`)).toMatch(DENIED);
    expect(await refusal(`DROP TRIGGER audit_log_no_update ON ${table}`)).toMatch(DENIED);
    expect(await refusal(`SELECT seq FROM ${table} FOR UPDATE`)).toMatch(DENIED);
    const [, , third] = chainRows(null, 3);
    expect(third).toBeDefined();
    expect(await refusal(`INSERT INTO ${table} (seq, at, kind, action, subject, key_id, statement, signature, prev_hash, hash) VALUES (3, 1, 'k', 'a', 's', 'k', 's', 's', $1, $2)`, [third?.prevHash, third?.hash])).toMatch(DENIED);
    const count = await workstation.query<{ rows: number }>(`SELECT count(*)::int AS rows FROM ${table}`);
    expect(count.rows[0]).toEqual({ rows: 2 });
  });

  it('cannot UPDATE, DELETE, TRUNCATE, INSERT into or ALTER a projection table, the claims, the identity or the schema version', async () => {
    for (const name of [...PROJECTION_TABLES, 'submission_claims', 'desk_identity', 'schema_version']) {
      const table = `${TEAM_SCHEMA}.${name}`;
      expect(await refusal(`UPDATE ${table} SET ${name === 'submission_claims' ? "state = 'done'" : name === 'desk_identity' ? "desk_id = 'x'" : name === 'schema_version' ? "name = 'x'" : "data = '{}'"}`)).toMatch(DENIED);
      expect(await refusal(`DELETE FROM ${table}`)).toMatch(DENIED);
      expect(await refusal(`TRUNCATE ${table}`)).toMatch(DENIED);
      expect(await refusal(`ALTER TABLE ${table} DISABLE TRIGGER ALL`)).toMatch(DENIED);
      expect(await refusal(`ALTER TABLE ${table} ADD COLUMN forged text`)).toMatch(DENIED);
    }
    expect(await refusal(`INSERT INTO ${TEAM_SCHEMA}.approvals (key, data) VALUES ('forged', '{}')`)).toMatch(DENIED);
    expect(await refusal(`INSERT INTO ${TEAM_SCHEMA}.submission_claims (user_order, workstation, lease_until, state) VALUES ('td-2', 'A', now(), 'done')`)).toMatch(DENIED);
    const projections = await store.projection('approvals', { limit: 10 });
    expect(projections.rows.map((row) => row.key)).toEqual(['k-approvals']);
  });

  it('calls only the append, claim and witness functions, each a definer function with its search_path fixed', async () => {
    const functions = await workstation.query<{ name: string; executable: boolean; definer: boolean; config: string[] | null }>(
      `SELECT p.proname AS name, has_function_privilege(current_user, p.oid, 'EXECUTE') AS executable, p.prosecdef AS definer, p.proconfig AS config
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 ORDER BY p.proname`,
      [TEAM_SCHEMA],
    );
    const executable = functions.rows.filter((row) => row.executable);
    // Exactly the functions 0040 lists (a later write for the workstations joins that list, and so this check).
    expect(executable.map((row) => row.name)).toEqual(WORKSTATION_FUNCTIONS.map((signature) => signature.slice(0, signature.indexOf('('))).sort());
    expect(executable.map((row) => row.name)).toEqual(expect.arrayContaining(['append_chain', 'claim_submission', 'update_claim', 'request_witness', 'append_head_ack']));
    for (const row of executable) {
      expect(row.definer, row.name).toBe(true);
      expect(row.config, row.name).toContain('search_path=pg_catalog, treasury_desk');
    }
    expect(await refusal(`SELECT ${TEAM_SCHEMA}.audit_log_refuse_change()`)).toMatch(/permission denied|trigger functions can only be called as triggers/);
  });

  it("appends through the function only on the condition of the head, and a projection only into the projection tables", async () => {
    const [first, second, third] = chainRows(null, 3);
    if (first === undefined || second === undefined || third === undefined) throw new Error('chainRows made too few rows');
    // A stale head (another row 2 on row 1): nothing is written, the current head comes back.
    const [otherSecond] = chainRows({ seq: first.seq, hash: first.hash }, 1, 1_800_000_000_000);
    if (otherSecond === undefined) throw new Error('chainRows made no row');
    expect(await store.append([otherSecond], [], { seq: first.seq, hash: first.hash })).toEqual({ appended: false, head: { seq: 2, hash: second.hash } });
    // Straight through the function, a projection write naming another table is refused whole.
    const call = `SELECT * FROM ${TEAM_SCHEMA}.append_chain(2, $1, ARRAY[3]::bigint[], ARRAY[$2]::bigint[], ARRAY[NULL]::text[], ARRAY[$3]::text[], ARRAY[$4]::text[],
                    ARRAY[NULL]::text[], ARRAY[$5]::text[], ARRAY[$6]::text[], ARRAY[$7]::text[], ARRAY[$8]::text[], ARRAY[$9]::text[], ARRAY[$10]::text[], $11::jsonb)`;
    const values = (projections: unknown): unknown[] => [
      second.hash,
      third.at,
      third.kind,
      third.action,
      third.subject,
      third.keyId,
      third.statement,
      third.signature,
      third.prevHash,
      third.hash,
      JSON.stringify(projections),
    ];
    expect(await refusal(call, values([{ table: 'submission_claims', key: 'td-1', row: {} }]))).toMatch(/no projection table named submission_claims/);
    expect(await refusal(call, values([{ table: 'desk_identity', key: 'x', row: {} }]))).toMatch(/no projection table named desk_identity/);
    expect((await workstation.query(`SELECT count(*)::int AS rows FROM ${TEAM_SCHEMA}.audit_log`)).rows[0]).toEqual({ rows: 2 });
    expect(await store.append([third], [], { seq: second.seq, hash: second.hash })).toEqual({ appended: true, head: { seq: 3, hash: third.hash } });
  });

  it('cannot take over a live claim of another workstation by calling the claim function', async () => {
    const outcome = await workstation.query<{ outcome: string; c_workstation: string }>(`SELECT outcome, c_workstation FROM ${TEAM_SCHEMA}.claim_submission('td-1', 'B', 60000)`);
    expect(outcome.rows).toEqual([{ outcome: 'held', c_workstation: 'A' }]);
    expect((await workstation.query(`SELECT ${TEAM_SCHEMA}.update_claim('td-1', 'B', 'done', true, 'forged', NULL) AS changed`)).rows[0]).toEqual({ changed: false });
    expect(await store.getClaim('td-1')).toMatchObject({ workstation: 'A', state: 'claimed', result: null });
  });

  it('asks and answers witnesses through the definer functions only, and their notifications reach a listener', async () => {
    const nonce = 'ab'.repeat(16);
    const hash = 'cd'.repeat(32);
    for (const name of ['witness_requests', 'head_acks']) {
      const table = `${TEAM_SCHEMA}.${name}`;
      expect(await refusal(`UPDATE ${table} SET workstation = 'forged'`)).toMatch(DENIED);
      expect(await refusal(`DELETE FROM ${table}`)).toMatch(DENIED);
      expect(await refusal(`TRUNCATE ${table}`)).toMatch(DENIED);
    }
    expect(await refusal(`INSERT INTO ${TEAM_SCHEMA}.witness_requests (nonce, workstation) VALUES ($1, 'A')`, [nonce])).toMatch(DENIED);
    expect(
      await refusal(`INSERT INTO ${TEAM_SCHEMA}.head_acks (desk_id, workstation, seq, hash, nonce, at, key_id, signature) VALUES ('desk-roles', 'A', 1, $1, NULL, 1, 'k', 's')`, [hash]),
    ).toMatch(DENIED);
    const heard: string[] = [];
    const listener = new pg.Client({ connectionString: databaseUrl() });
    await listener.connect();
    try {
      listener.on('notification', (message) => heard.push(`${message.channel} ${message.payload ?? ''}`));
      await listener.query(`LISTEN ${WITNESS_CHANNEL}`);
      const request = await store.requestWitness(nonce, 'A');
      expect(request).toMatchObject({ nonce, workstation: 'A' });
      expect(request.id).toBeGreaterThan(0);
      expect(await store.witnessRequests(0, 60_000)).toEqual([request]);
      const ack = { deskId: 'desk-roles', workstation: 'B', seq: 3, hash, nonce, at: 1_700_000_000_000, keyId: 'key-b', signature: 'signed' };
      await store.appendHeadAck(ack);
      await store.appendHeadAck({ ...ack, nonce: null, seq: 2 });
      expect(await store.headAcks(nonce)).toEqual([ack]);
      await within('the witness notifications', 10_000, async () => heard.length >= 3);
      expect(heard).toEqual([`${WITNESS_CHANNEL} request`, `${WITNESS_CHANNEL} ack:${nonce}`, `${WITNESS_CHANNEL} ack:`]);
    } finally {
      await listener.end();
    }
  });
});
