// The team desk's shared store on PostgreSQL (node-postgres): a Pool for queries and one dedicated LISTEN client that
// reconnects by itself. Appends are serialised by an advisory lock and checked against the expected head; leases use
// the database's clock. Invariant: no error, reason or location it produces holds the database password.
import pg from 'pg';
import type { ClientBase, PoolClient, PoolConfig } from 'pg';
import { AUDIT_COLUMNS, auditRowFromDb, type AuditDbRow } from '../audit';
import {
  HEAD_ACK_COLUMNS,
  toClaim,
  toHeadAck,
  toWitnessRequest,
  type ClaimDbRow,
  type HeadAckDbRow,
  type WitnessRequestDbRow,
} from './store-rows';
import type { SignedHeadAck } from '../ledger';
import {
  assertKnownSchema,
  MIGRATION_LOCK_KEY,
  migratePostgres,
  PG_MIGRATIONS,
  readSchemaVersion,
  TEAM_SCHEMA,
} from './pg-migrations';
import { hostList, HostPicker, NoHostError, withHostList } from './pg-hosts';
import {
  checkAppend,
  checkClaimArguments,
  checkClaimChange,
  checkProjectionQuery,
  checkRowsAfter,
  checkDeskId,
  checkHeadAck,
  checkWitnessQuery,
  checkWitnessRequest,
  otherDeskError,
  pageOf,
} from './shared-store-rules';
import {
  redactDatabaseUrl,
  SharedStoreError,
  type AppendOutcome,
  type ChainHead,
  type ClaimChange,
  type ClaimOutcome,
  type ConnectionState,
  type SharedDeskIdentity,
  type ProjectionPage,
  type ProjectionQuery,
  type ProjectionRow,
  type ProjectionTable,
  type ProjectionWrite,
  type SharedChainRow,
  type SharedDeskStore,
  type SharedStoreErrorKind,
  type SubmissionClaim,
  type WitnessRequest,
  type WitnessSignal,
} from './shared-store';

/** The LISTEN/NOTIFY channel: each append notifies the new head's seq. */
export const NOTIFY_CHANNEL = 'treasury_desk';
/** The witness channel: `request` for a new witness request, `ack:NONCE` for an ack bound to NONCE (0040's definer functions notify it). */
export const WITNESS_CHANNEL = 'treasury_desk_witness';

export interface PostgresStoreOptions {
  /** How long a connection attempt may take before the server counts as unreachable (default 5 s). */
  readonly connectTimeoutMs?: number;
  /** How long one query may take (default 15 s). */
  readonly queryTimeoutMs?: number;
  /** Connections in the pool (default 10). */
  readonly poolSize?: number;
  /** How often the LISTEN connection is checked with a query (default 5 s): a silent network loss is noticed. */
  readonly heartbeatMs?: number;
  /** First and longest wait between reconnect attempts of the LISTEN connection (default 250 ms, 5 s). */
  readonly reconnectDelayMs?: { readonly first: number; readonly longest: number };
  /** Epoch ms for `since` (Date.now by default). */
  readonly clock?: () => number;
  /**
   * The owner role's URL, used by `initialise` only (migrations and the desk's identity) on a connection of its own
   * that is closed at once; every other call runs as the workstation role of `url`. Without it, `initialise` runs as
   * that role (a database where one role does both).
   */
  readonly ownerUrl?: string;
}

const CLAIM_COLUMNS = `user_order, workstation, floor(extract(epoch FROM lease_until) * 1000)::float8 AS lease_until_ms, state, result`;

const UNREACHABLE_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  '57P01': 'the server was shut down by its administrator',
  '57P02': 'the server crashed',
  '57P03': 'the server is starting up or shutting down',
  '53300': 'the server has too many connections',
};
const TLS_CODE = /CERT|SSL|TLS|ALTNAME|SIGNATURE/;

/** A short, password-free reason for a failure and the kind of refusal it is. */
export function describePgFailure(error: unknown): { kind: SharedStoreErrorKind; reason: string } {
  if (error instanceof SharedStoreError) return { kind: error.kind, reason: error.message };
  if (error instanceof NoHostError) return { kind: 'unreachable', reason: error.message };
  const code = error !== null && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : '';
  const message = error instanceof Error ? error.message : String(error);
  const known = UNREACHABLE_CODES[code];
  if (known !== undefined) return { kind: 'unreachable', reason: `${known} (${code})` };
  if (code.startsWith('08') || /Connection terminated|connection timeout|timeout expired|Query read timeout/i.test(message)) {
    return { kind: 'unreachable', reason: /timeout/i.test(message) ? 'the server did not answer in time' : 'the connection was lost' };
  }
  if ((code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') && 'path' in (error as object)) {
    return { kind: 'tls', reason: `a certificate or key file named in the URL cannot be read (${code} ${String((error as { path: unknown }).path)})` };
  }
  if (code === '28P01' || code === '28000') return { kind: 'authentication', reason: message };
  if (code === '42501') return { kind: 'authentication', reason: `permission denied (${message})` };
  if (code === '3D000') return { kind: 'badUrl', reason: message };
  if (code === '42P01' || code === '3F000') return { kind: 'notInitialised', reason: 'the database has no Treasury Desk schema yet' };
  if (TLS_CODE.test(code) || /SSL|certificate|self.signed/i.test(message)) return { kind: 'tls', reason: message };
  return { kind: 'invalidArgument', reason: message };
}

const ADVICE: Readonly<Record<SharedStoreErrorKind, string>> = {
  badUrl: 'check the database name in the URL (postgres://ROLE@HOST:PORT/DATABASE)',
  unreachable: 'check the host and port, that the server runs, and that this workstation may connect (firewall, pg_hba.conf); then try again',
  authentication: "check the role and password with your IT (the README's team database section lists what the role needs)",
  tls: 'check sslmode and sslrootcert in the URL and the server certificate (sslmode=verify-full checks the host name too)',
  otherDesk: 'use an empty database for a new desk',
  notEmpty: 'use an empty database for a new desk',
  newerSchema: 'update this workstation',
  notInitialised: 'run `treasury-desk team init --database URL` on the desk that owns the data first',
  invalidArgument: 'this is a Treasury Desk fault or a changed database: report it with the steps that led here',
};

/** The one translation of any failure into a SharedStoreError naming the (redacted) database and what to do. */
export function pgFailure(error: unknown, location: string): SharedStoreError {
  if (error instanceof SharedStoreError) return error;
  const { kind, reason } = describePgFailure(error);
  return new SharedStoreError(kind, `team database ${location}: ${reason}; ${ADVICE[kind]}`);
}

/** Checks the URL's shape before node-postgres sees it: a postgres:// URL with a host and a database. */
export function checkDatabaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = withHostList(url, (read) => read);
  } catch {
    throw new SharedStoreError('badUrl', 'the team database URL could not be read; write it as postgres://ROLE:PASSWORD@HOST:PORT/DATABASE');
  }
  try {
    hostList(url);
  } catch (error) {
    throw new SharedStoreError('badUrl', `${redactDatabaseUrl(url)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const shown = redactDatabaseUrl(url);
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new SharedStoreError('badUrl', `${shown} is not a PostgreSQL URL; write it as postgres://ROLE:PASSWORD@HOST:PORT/DATABASE`);
  }
  if (parsed.hostname === '' || parsed.pathname.length <= 1) {
    throw new SharedStoreError('badUrl', `${shown} lacks a host or a database name; write it as postgres://ROLE:PASSWORD@HOST:PORT/DATABASE`);
  }
  if (parsed.username === '') throw new SharedStoreError('badUrl', `${shown} names no role; write it as postgres://ROLE:PASSWORD@HOST:PORT/DATABASE`);
  return parsed;
}

/** Opens the store: checks the URL, connects once (so a wrong password or host is reported now), refuses a newer schema. */
export async function openPostgresDeskStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresDeskStore> {
  checkDatabaseUrl(url);
  const location = redactDatabaseUrl(url);
  const base: PoolConfig = {
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    query_timeout: options.queryTimeoutMs ?? 15_000,
    max: options.poolSize ?? 10,
    keepAlive: true,
    application_name: 'treasury-desk',
  };
  const picker = new HostPicker(hostList(url), base);
  let pool: pg.Pool;
  try {
    pool = poolFor(await picker.pick());
  } catch (error) {
    throw pgFailure(error, location);
  }
  const store = new PostgresDeskStore(pool, picker, base, location, options);
  try {
    await store.checkSchema();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw pgFailure(error, location);
  }
  return store;
}

/** A pool on one host's settings, that never lets a dropped connection's 'error' end the process. */
function poolFor(config: PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  // A pooled idle connection that the server drops (restart, outage) must not crash the process; the next query
  // gets a fresh connection or a clear 'unreachable' refusal.
  pool.on('error', () => undefined);
  // Every pooled connection listens for 'error' for its whole life: node-postgres can emit it between the pool
  // handing a new connection out and its holder listening (a termination arriving in the same packet as the end of
  // the handshake, seen when a server restarts), and an 'error' nobody hears ends the process. The holder's next
  // query still fails and answers the caller.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export class PostgresDeskStore implements SharedDeskStore {
  readonly kind = 'postgres';
  private readonly listeners = new Set<TeamListener>();
  /** With several hosts: a failure that may mean the primary moved marks the pool stale; the next call picks again. */
  private stale = false;
  private switching: Promise<pg.Pool> | null = null;

  constructor(
    private pool: pg.Pool,
    private readonly picker: HostPicker,
    private readonly base: PoolConfig,
    readonly location: string,
    private readonly options: PostgresStoreOptions,
  ) {}

  /** The pool of the host in use; after a failure on a URL with several hosts, the pool of the host picked again. */
  private async currentPool(): Promise<pg.Pool> {
    if (!this.stale) return this.pool;
    this.switching ??= (async () => {
      try {
        const config = await this.picker.pick();
        const old = this.pool;
        this.pool = poolFor(config);
        this.stale = false;
        void old.end().catch(() => undefined);
        return this.pool;
      } finally {
        this.switching = null;
      }
    })();
    return this.switching;
  }

  /** A lost server, or one that turned read-only (a demoted primary): pick the host again before the next call. */
  private noteFailure(error: unknown): void {
    if (!this.picker.several) return;
    const code = error !== null && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : '';
    if (code === '25006' || describePgFailure(error).kind === 'unreachable') this.stale = true;
  }

  /** Refuses a database whose schema is newer than this build's. */
  async checkSchema(): Promise<void> {
    await this.withClient(async (client) => assertKnownSchema(await readSchemaVersion(client), PG_MIGRATIONS));
  }

  async identity(): Promise<SharedDeskIdentity | null> {
    return this.withClient((client) => readIdentity(client));
  }

  async initialise(deskId: string, now: number): Promise<void> {
    checkDeskId(deskId, now);
    await this.withOwner(async (client) => {
      // Another desk's database is refused before anything in it changes (a migration included).
      const before = await readIdentity(client);
      if (before !== null && before.deskId !== deskId) throw otherDeskError(before);
      await migratePostgres(client, PG_MIGRATIONS);
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
        const existing = await readIdentity(client);
        if (existing !== null && existing.deskId !== deskId) throw otherDeskError(existing);
        if (existing === null) {
          const used = await client.query(`SELECT 1 FROM ${TEAM_SCHEMA}.audit_log LIMIT 1`);
          if (used.rowCount !== 0) throw new SharedStoreError('notEmpty', `team database ${this.location} holds audit rows but no desk identity; use an empty database for a new desk`);
          await client.query(`INSERT INTO ${TEAM_SCHEMA}.desk_identity (desk_id, created_at) VALUES ($1, $2)`, [deskId, now]);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  async head(): Promise<ChainHead | null> {
    return this.withClient((client) => readHead(client));
  }

  async rowsAfter(seq: number, limit: number): Promise<SharedChainRow[]> {
    checkRowsAfter(seq, limit);
    const result = await this.query<AuditDbRow>(`SELECT ${AUDIT_COLUMNS} FROM ${TEAM_SCHEMA}.audit_log WHERE seq > $1 ORDER BY seq LIMIT $2`, [seq, limit], 'repeatable');
    return result.rows.map(auditRowFromDb);
  }

  async append(rows: readonly SharedChainRow[], projections: readonly ProjectionWrite[], expectedHead: ChainHead | null): Promise<AppendOutcome> {
    checkAppend(rows, projections, expectedHead);
    // One call of the owner's definer function (0040): the workstation role cannot insert into the chain itself.
    const result = await this.query<{ appended: boolean; head_seq: string | null; head_hash: string | null }>(
      `SELECT appended, head_seq, head_hash FROM ${TEAM_SCHEMA}.append_chain($1::bigint, $2::text, $3::bigint[], $4::bigint[], $5::text[], $6::text[],
         $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::jsonb)`,
      [
        expectedHead?.seq ?? null,
        expectedHead?.hash ?? null,
        rows.map((row) => row.seq),
        rows.map((row) => row.at),
        rows.map((row) => row.profile),
        rows.map((row) => row.kind),
        rows.map((row) => row.action),
        rows.map((row) => row.operator),
        rows.map((row) => row.subject),
        rows.map((row) => row.keyId),
        rows.map((row) => row.statement),
        rows.map((row) => row.signature),
        rows.map((row) => row.prevHash),
        rows.map((row) => row.hash),
        JSON.stringify(projections.map((write) => ({ table: write.table, key: write.key, row: write.row }))),
      ],
    );
    const answer = result.rows[0];
    if (answer === undefined) throw new SharedStoreError('invalidArgument', `team database ${this.location}: the append answered nothing; report it`);
    const head = answer.head_seq === null || answer.head_hash === null ? null : { seq: Number(answer.head_seq), hash: answer.head_hash };
    return answer.appended && head !== null ? { appended: true, head } : { appended: false, head };
  }

  async projection(table: ProjectionTable, query: ProjectionQuery): Promise<ProjectionPage> {
    const checked = checkProjectionQuery(table, query);
    const params: (string | number)[] = [];
    const conditions = checked.where.map(([field, value]) => {
      params.push(value);
      // The field is written into the SQL (checked: letters, digits, _) so the expression indexes apply.
      return `data->>'${field}' = $${params.length} AND jsonb_typeof(data->'${field}') = 'string'`;
    });
    if (query.after !== undefined && query.after !== null) {
      params.push(query.after);
      conditions.push(`key > $${params.length}`);
    }
    params.push(query.limit + 1);
    const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
    const result = await this.query<{ id: string; key: string; data: Record<string, ProjectionWrite['row'][string]> }>(
      `SELECT id, key, data FROM ${TEAM_SCHEMA}.${checked.table} ${where} ORDER BY key LIMIT $${params.length}`,
      params,
      'repeatable',
    );
    const rows: ProjectionRow[] = result.rows.map((row) => ({ table: checked.table, key: row.key, row: row.data, rowId: Number(row.id) }));
    return pageOf(rows, query.limit);
  }

  async claimSubmission(userOrder: string, workstation: string, leaseMs: number): Promise<ClaimOutcome> {
    checkClaimArguments(userOrder, workstation, leaseMs);
    // The owner's definer function (0040) takes, renews or takes over the claim by decideClaim's rule, in one statement.
    const result = await this.query<ClaimDbRow & { outcome: 'claimed' | 'previous' | 'held' }>(
      `SELECT outcome, c_user_order AS user_order, c_workstation AS workstation, c_lease_until_ms AS lease_until_ms, c_state AS state, c_result AS result
       FROM ${TEAM_SCHEMA}.claim_submission($1, $2, $3)`,
      [userOrder, workstation, leaseMs],
      'repeatable',
    );
    const row = (outcome: string): ClaimDbRow | undefined => result.rows.find((candidate) => candidate.outcome === outcome);
    const held = row('held');
    if (held !== undefined) return { claimed: false, heldBy: toClaim(held) };
    const claimed = row('claimed');
    if (claimed === undefined) throw new SharedStoreError('invalidArgument', `team database ${this.location}: the claim for ${userOrder} answered nothing; try again`);
    const previous = row('previous');
    return { claimed: true, claim: toClaim(claimed), tookOverFrom: previous === undefined ? null : toClaim(previous) };
  }

  async updateClaim(userOrder: string, workstation: string, change: ClaimChange): Promise<boolean> {
    checkClaimArguments(userOrder, workstation, change.leaseMs);
    checkClaimChange(change);
    const result = await this.query<{ changed: boolean }>(`SELECT ${TEAM_SCHEMA}.update_claim($1, $2, $3, $4, $5, $6) AS changed`, [
      userOrder,
      workstation,
      change.state,
      change.result !== undefined,
      change.result ?? null,
      change.leaseMs ?? null,
    ]);
    return result.rows[0]?.changed === true;
  }

  async getClaim(userOrder: string): Promise<SubmissionClaim | null> {
    checkClaimArguments(userOrder, 'any');
    const result = await this.query<ClaimDbRow>(`SELECT ${CLAIM_COLUMNS} FROM ${TEAM_SCHEMA}.submission_claims WHERE user_order = $1`, [userOrder], 'repeatable');
    const row = result.rows[0];
    return row === undefined ? null : toClaim(row);
  }

  async requestWitness(nonce: string, workstation: string): Promise<WitnessRequest> {
    checkWitnessRequest(nonce, workstation);
    // The owner's definer function (0040) inserts the request and notifies the witness channel.
    const result = await this.query<WitnessRequestDbRow>(`SELECT id, nonce, workstation FROM ${TEAM_SCHEMA}.request_witness($1, $2)`, [nonce, workstation]);
    const row = result.rows[0];
    if (row === undefined) throw new SharedStoreError('invalidArgument', `team database ${this.location}: the witness request answered nothing; try again`);
    return toWitnessRequest(row);
  }

  async witnessRequests(afterId: number, maxAgeMs: number): Promise<WitnessRequest[]> {
    checkWitnessQuery(afterId, maxAgeMs);
    const result = await this.query<WitnessRequestDbRow>(
      `SELECT id, nonce, workstation FROM ${TEAM_SCHEMA}.witness_requests
       WHERE id > $1 AND requested_at > now() - $2 * interval '1 millisecond' ORDER BY id LIMIT 100`,
      [afterId, maxAgeMs],
      'repeatable',
    );
    return result.rows.map(toWitnessRequest);
  }

  async appendHeadAck(ack: SignedHeadAck): Promise<void> {
    checkHeadAck(ack);
    // The owner's definer function (0040) inserts the ack and notifies the witness channel with its nonce.
    await this.query(`SELECT ${TEAM_SCHEMA}.append_head_ack($1, $2, $3, $4, $5, $6, $7, $8)`, [
      ack.deskId,
      ack.workstation,
      ack.seq,
      ack.hash,
      ack.nonce,
      ack.at,
      ack.keyId,
      ack.signature,
    ]);
  }

  async headAcks(nonce?: string): Promise<SignedHeadAck[]> {
    if (nonce !== undefined) checkWitnessRequest(nonce, 'any');
    const result = await this.query<HeadAckDbRow>(
      `SELECT DISTINCT ON (workstation) ${HEAD_ACK_COLUMNS} FROM ${TEAM_SCHEMA}.head_acks
       WHERE $1::text IS NULL OR nonce = $1 ORDER BY workstation, id DESC`,
      [nonce ?? null],
      'repeatable',
    );
    return result.rows.map(toHeadAck);
  }

  async subscribe(
    onAppended: (seq: number) => void,
    onConnectionChange: (state: ConnectionState) => void,
    onWitness?: (signal: WitnessSignal) => void,
  ): Promise<() => Promise<void>> {
    const listener = new TeamListener(() => this.picker.pick(), this.location, this.options, onAppended, onConnectionChange, () => this.head(), onWitness);
    await listener.start();
    this.listeners.add(listener);
    return async () => {
      this.listeners.delete(listener);
      await listener.stop();
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.listeners].map((listener) => listener.stop()));
    this.listeners.clear();
    await this.pool.end().catch(() => undefined);
  }

  /**
   * One statement on the pool. `repeatable` statements (reads, and a claim, which renews the caller's own claim when it
   * is asked twice) are sent once more on another connection when the first was lost: a pooled connection the server
   * ended while idle is handed out before its end is read, and fails a statement that never ran. Appends, witness
   * requests, head acks and claim updates are never sent twice; their callers see the refusal and ask again.
   */
  private async query<R extends object>(sql: string, params: readonly unknown[], repeatable: 'repeatable' | 'once' = 'once'): Promise<pg.QueryResult<R>> {
    const attempts = repeatable === 'repeatable' ? 2 : 1;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await (await this.currentPool()).query<R>(sql, params as unknown[]);
      } catch (error) {
        this.noteFailure(error);
        if (attempt >= attempts || describePgFailure(error).kind !== 'unreachable') throw pgFailure(error, this.location);
      }
    }
  }

  /** Runs `fn` as the owner role (options.ownerUrl) on a connection of its own, or as this store's role without one. */
  private async withOwner<R>(fn: (client: ClientBase) => Promise<R>): Promise<R> {
    const ownerUrl = this.options.ownerUrl;
    if (ownerUrl === undefined) {
      return this.withClient(fn).catch((error: unknown) => {
        if (!(error instanceof SharedStoreError) || !/permission denied/.test(error.message)) throw error;
        throw new SharedStoreError(
          'authentication',
          `${error.message.replace(/; check the role and password.*$/, '')}; this is a workstation's role: team init runs the migrations as the database's owner role, ` +
            'give its URL (CLI: TREASURY_DESK_OWNER_DATABASE_URL or --owner-database)',
        );
      });
    }
    checkDatabaseUrl(ownerUrl);
    const location = redactDatabaseUrl(ownerUrl);
    const client = new pg.Client(await new HostPicker(hostList(ownerUrl), this.base).pick().catch((error: unknown) => {
      throw pgFailure(error, `${location} (owner role)`);
    }));
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await fn(client);
    } catch (error) {
      throw pgFailure(error, `${location} (owner role)`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private async withClient<R>(fn: (client: PoolClient) => Promise<R>): Promise<R> {
    let client: PoolClient;
    try {
      client = await (await this.currentPool()).connect();
    } catch (error) {
      this.noteFailure(error);
      throw pgFailure(error, this.location);
    }
    let failed = false;
    // A connection the server ends while it is checked out (a restart, an administrator's pg_terminate_backend) emits
    // 'error' between two queries; node-postgres leaves that event to whoever holds the client, and an 'error' nobody
    // listens to ends the process. The next query fails and answers the caller; the connection is then dropped.
    const onLost = (): void => {
      failed = true;
    };
    client.on('error', onLost);
    try {
      return await fn(client);
    } catch (error) {
      failed = true;
      this.noteFailure(error);
      throw pgFailure(error, this.location);
    } finally {
      client.off('error', onLost);
      // A connection that saw a failure is dropped rather than reused (it may be broken or mid-transaction).
      client.release(failed);
    }
  }
}

async function readHead(client: ClientBase): Promise<ChainHead | null> {
  const result = await client.query<{ seq: string; hash: string }>(`SELECT seq, hash FROM ${TEAM_SCHEMA}.audit_log ORDER BY seq DESC LIMIT 1`);
  const row = result.rows[0];
  return row === undefined ? null : { seq: Number(row.seq), hash: row.hash };
}

async function readIdentity(client: ClientBase): Promise<SharedDeskIdentity | null> {
  const version = await readSchemaVersion(client);
  assertKnownSchema(version, PG_MIGRATIONS);
  if (version === null) return null;
  const result = await client.query<{ desk_id: string; created_at: string }>(`SELECT desk_id, created_at FROM ${TEAM_SCHEMA}.desk_identity`);
  const row = result.rows[0];
  return row === undefined ? null : { deskId: row.desk_id, schemaVersion: version, createdAt: Number(row.created_at) };
}

/**
 * The dedicated LISTEN connection: reports each append, notices a lost connection (error, end, or a failed
 * heartbeat), reports it with the reason and since when, reconnects with a growing delay, and after reconnecting
 * reports the head's seq so the subscriber catches up.
 */
class TeamListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private connected = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private delayMs: number;
  private readonly clock: () => number;

  constructor(
    private readonly pick: () => Promise<PoolConfig>,
    private readonly location: string,
    private readonly options: PostgresStoreOptions,
    private readonly onAppended: (seq: number) => void,
    private readonly onConnectionChange: (state: ConnectionState) => void,
    private readonly readHead: () => Promise<ChainHead | null>,
    private readonly onWitness?: (signal: WitnessSignal) => void,
  ) {
    this.clock = options.clock ?? Date.now;
    this.delayMs = options.reconnectDelayMs?.first ?? 250;
  }

  /** The first connection must succeed: its failure is thrown (translated) to the caller. */
  async start(): Promise<void> {
    await this.connect();
    this.onConnectionChange({ connected: true, reason: null, since: this.clock() });
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.options.heartbeatMs ?? 5_000);
    this.heartbeatTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    if (this.heartbeatTimer !== null) clearInterval(this.heartbeatTimer);
    const client = this.client;
    this.client = null;
    if (client !== null) await client.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    let config: PoolConfig;
    try {
      config = await this.pick();
    } catch (error) {
      throw pgFailure(error, this.location);
    }
    const client = new pg.Client({ ...config, keepAlive: true });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('Connection terminated')));
    client.on('notification', (message) => {
      if (message.channel === WITNESS_CHANNEL) {
        const payload = message.payload ?? '';
        if (payload === 'request') this.onWitness?.({ kind: 'request' });
        else if (payload.startsWith('ack:')) this.onWitness?.({ kind: 'ack', nonce: payload.slice(4) });
        return;
      }
      if (message.channel !== NOTIFY_CHANNEL) return;
      const seq = Number(message.payload);
      if (Number.isSafeInteger(seq) && seq > 0) this.onAppended(seq);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      if (this.onWitness !== undefined) await client.query(`LISTEN ${WITNESS_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw pgFailure(error, this.location);
    }
    this.client = client;
    this.connected = true;
  }

  private async heartbeat(): Promise<void> {
    const client = this.client;
    if (client === null || !this.connected) return;
    try {
      await client.query('SELECT 1');
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.stopped || client !== this.client) return;
    this.client = null;
    this.connected = false;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    this.onConnectionChange({ connected: false, reason: describePgFailure(error).reason, since: this.clock() });
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.reconnectTimer = setTimeout(() => void this.reconnect(), this.delayMs);
    this.reconnectTimer.unref();
    this.delayMs = Math.min(this.delayMs * 2, this.options.reconnectDelayMs?.longest ?? 5_000);
  }

  private async reconnect(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.connect();
    } catch {
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      await this.stop();
      return;
    }
    this.delayMs = this.options.reconnectDelayMs?.first ?? 250;
    this.onConnectionChange({ connected: true, reason: null, since: this.clock() });
    // Catch-up by seq: whatever was appended while the connection was down.
    const head = await this.readHead().catch(() => null);
    if (head !== null) this.onAppended(head.seq);
    // Witness requests posted while the connection was down are read now.
    this.onWitness?.({ kind: 'request' });
  }
}
