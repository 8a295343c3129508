// The shared store over one SQLite file: the team desk's interface for a single-workstation desk and for the shared
// test suite. Subscribers are told of appends made through any store on the same file within this process; the
// lease clock is this machine's. Same rules (shared-store-rules) as the PostgreSQL store.
import Database from 'better-sqlite3';
import { realpathSync } from 'node:fs';
import { closeDatabase, openDatabase, userVersion, writeTransaction, type StoreDatabase } from '../store/database';
import { StoreError } from '../store/errors';
import { latestVersion, type Migration } from '../store/migrations';
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
  checkAppend,
  checkClaimArguments,
  checkClaimChange,
  checkDeskId,
  checkHeadAck,
  checkProjectionQuery,
  checkWitnessQuery,
  checkWitnessRequest,
  checkRowsAfter,
  decideClaim,
  newerSchemaError,
  otherDeskError,
  pageOf,
  sameHead,
} from './shared-store-rules';
import {
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
  type SubmissionClaim,
  type WitnessRequest,
  type WitnessSignal,
} from './shared-store';

const GENESIS = '0'.repeat(64);

/** The shared SQLite file's schema, numbered like every migration list (the runner sets user_version). */
export const SHARED_SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 10,
    name: 'shared-desk',
    up(db) {
      db.exec(`
CREATE TABLE settings (key TEXT PRIMARY KEY, value_json TEXT NOT NULL, updated_at INTEGER NOT NULL) STRICT;
CREATE TABLE desk_identity (
  singleton  INTEGER PRIMARY KEY CHECK (singleton = 1),
  desk_id    TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY CHECK (seq >= 1), at INTEGER NOT NULL, profile TEXT, kind TEXT NOT NULL, action TEXT NOT NULL,
  operator TEXT, subject TEXT NOT NULL, key_id TEXT NOT NULL, statement TEXT NOT NULL, signature TEXT NOT NULL,
  prev_hash TEXT NOT NULL, hash TEXT NOT NULL UNIQUE
) STRICT;
CREATE TRIGGER shared_chain_append_only_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the shared chain is append-only'); END;
CREATE TRIGGER shared_chain_append_only_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'the shared chain is append-only'); END;
CREATE TRIGGER shared_chain_extends BEFORE INSERT ON audit_log
WHEN NEW.seq IS NOT COALESCE((SELECT MAX(seq) FROM audit_log), 0) + 1
  OR NEW.prev_hash IS NOT COALESCE((SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1), '${GENESIS}')
BEGIN SELECT RAISE(ABORT, 'a new shared chain row must extend the chain'); END;
CREATE TABLE projections (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  table_name TEXT NOT NULL,
  key        TEXT NOT NULL,
  data       TEXT NOT NULL CHECK (json_valid(data)),
  UNIQUE (table_name, key)
) STRICT;
CREATE INDEX projections_by_state ON projections (table_name, json_extract(data, '$.state'), key);
CREATE INDEX projections_by_profile ON projections (table_name, json_extract(data, '$.profile'), key);
CREATE INDEX projections_by_user_order ON projections (table_name, json_extract(data, '$.userOrder'), key);
CREATE TABLE submission_claims (
  user_order  TEXT PRIMARY KEY,
  workstation TEXT NOT NULL,
  lease_until INTEGER NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('claimed', 'sent', 'unknown', 'done')),
  result      TEXT
) STRICT;
`);
    },
  },
  {
    // Witnessed sends (team/witness.ts): append-only witness requests and signed head acks, like PostgreSQL's 0030.
    version: 20,
    name: 'head-acks',
    up(db) {
      db.exec(`
CREATE TABLE witness_requests (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  nonce        TEXT NOT NULL UNIQUE,
  workstation  TEXT NOT NULL,
  requested_at INTEGER NOT NULL
) STRICT;
CREATE INDEX witness_requests_by_time ON witness_requests (requested_at);
CREATE TABLE head_acks (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  desk_id     TEXT NOT NULL,
  workstation TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  hash        TEXT NOT NULL,
  nonce       TEXT,
  at          INTEGER NOT NULL,
  key_id      TEXT NOT NULL,
  signature   TEXT NOT NULL
) STRICT;
CREATE INDEX head_acks_by_nonce ON head_acks (nonce, workstation, id);
CREATE INDEX head_acks_by_workstation ON head_acks (workstation, id);
CREATE TRIGGER head_acks_append_only_update BEFORE UPDATE ON head_acks BEGIN SELECT RAISE(ABORT, 'head acks are append-only'); END;
CREATE TRIGGER head_acks_append_only_delete BEFORE DELETE ON head_acks BEGIN SELECT RAISE(ABORT, 'head acks are append-only'); END;
`);
    },
  },
];

type Subscriber = (seq: number) => void;
/** Per file (real path): the subscribers of every store open on it in this process. */
const subscribersByFile = new Map<string, Set<Subscriber>>();
type WitnessSubscriber = (signal: WitnessSignal) => void;
/** Per file (real path): the witness subscribers of every store open on it in this process. */
const witnessSubscribersByFile = new Map<string, Set<WitnessSubscriber>>();

export interface SqliteStoreOptions {
  /** Epoch ms: the lease clock and `since` (Date.now by default). */
  readonly clock?: () => number;
}

/** Opens (creating and migrating) the shared SQLite file; refuses a file of a newer Treasury Desk. */
export function openSqliteDeskStore(path: string, options: SqliteStoreOptions = {}): SqliteDeskStore {
  let db: StoreDatabase;
  try {
    db = openDatabase(path, { migrations: SHARED_SQLITE_MIGRATIONS });
  } catch (error) {
    if (error instanceof StoreError && error.kind === 'newerSchema') throw newerSchemaError(readVersionOf(path), latestVersion(SHARED_SQLITE_MIGRATIONS));
    const detail = error instanceof Error ? error.message : String(error);
    throw new SharedStoreError('badUrl', `the shared desk file ${path} cannot be used (${detail}); choose a Treasury Desk shared desk file or a new path`);
  }
  return new SqliteDeskStore(db, realpathSync(path), options.clock ?? Date.now);
}

function readVersionOf(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return Number(db.pragma('user_version', { simple: true }));
  } finally {
    db.close();
  }
}

export class SqliteDeskStore implements SharedDeskStore {
  readonly kind = 'sqlite';
  private readonly ownSubscribers = new Set<Subscriber>();
  private readonly ownWitnessSubscribers = new Set<WitnessSubscriber>();

  constructor(
    private readonly db: StoreDatabase,
    readonly location: string,
    private readonly clock: () => number,
  ) {}

  async identity(): Promise<SharedDeskIdentity | null> {
    return this.readIdentity();
  }

  private readIdentity(): SharedDeskIdentity | null {
    const row = this.db.prepare('SELECT desk_id, created_at FROM desk_identity').get() as { desk_id: string; created_at: number } | undefined;
    return row === undefined ? null : { deskId: row.desk_id, schemaVersion: userVersion(this.db), createdAt: row.created_at };
  }

  async initialise(deskId: string, now: number): Promise<void> {
    checkDeskId(deskId, now);
    writeTransaction(this.db, () => {
      const existing = this.readIdentity();
      if (existing !== null) {
        if (existing.deskId !== deskId) throw otherDeskError(existing);
        return;
      }
      if (this.db.prepare('SELECT 1 FROM audit_log LIMIT 1').get() !== undefined) {
        throw new SharedStoreError('notEmpty', `the shared desk file ${this.location} holds audit rows but no desk identity; use an empty file for a new desk`);
      }
      this.db.prepare('INSERT INTO desk_identity (singleton, desk_id, created_at) VALUES (1, ?, ?)').run(deskId, now);
    });
  }

  async head(): Promise<ChainHead | null> {
    return this.readHead();
  }

  async rowsAfter(seq: number, limit: number): Promise<SharedChainRow[]> {
    checkRowsAfter(seq, limit);
    const rows = this.db.prepare(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?`).all(seq, limit) as AuditDbRow[];
    return rows.map(auditRowFromDb);
  }

  async append(rows: readonly SharedChainRow[], projections: readonly ProjectionWrite[], expectedHead: ChainHead | null): Promise<AppendOutcome> {
    checkAppend(rows, projections, expectedHead);
    const outcome = writeTransaction(this.db, (): AppendOutcome => {
      const head = this.readHead();
      if (!sameHead(head, expectedHead)) return { appended: false, head };
      const insert = this.db.prepare(
        `INSERT INTO audit_log (${AUDIT_COLUMNS})
         VALUES (@seq, @at, @profile, @kind, @action, @operator, @subject, @keyId, @statement, @signature, @prevHash, @hash)`,
      );
      for (const row of rows) insert.run(row);
      const upsert = this.db.prepare(
        `INSERT INTO projections (table_name, key, data) VALUES (?, ?, ?) ON CONFLICT (table_name, key) DO UPDATE SET data = excluded.data`,
      );
      for (const write of projections) upsert.run(write.table, write.key, JSON.stringify(write.row));
      const last = rows[rows.length - 1] as SharedChainRow;
      return { appended: true, head: { seq: last.seq, hash: last.hash } };
    });
    if (outcome.appended) {
      const seq = outcome.head.seq;
      // Like NOTIFY: delivered after the commit, never inside the caller's call stack.
      setImmediate(() => {
        for (const subscriber of subscribersByFile.get(this.location) ?? []) subscriber(seq);
      });
    }
    return outcome;
  }

  async projection(table: ProjectionTable, query: ProjectionQuery): Promise<ProjectionPage> {
    const checked = checkProjectionQuery(table, query);
    const params: (string | number)[] = [checked.table];
    // The field is written into the SQL (checked: letters, digits, _) so the expression indexes apply; json_extract
    // gives text only for text fields, so a number or boolean never equals the given text.
    const conditions = ['table_name = ?', ...checked.where.map(([field]) => `json_extract(data, '$.${field}') = ?`)];
    params.push(...checked.where.map(([, value]) => value));
    if (query.after !== undefined && query.after !== null) {
      conditions.push('key > ?');
      params.push(query.after);
    }
    params.push(query.limit + 1);
    const fetched = this.db.prepare(`SELECT id, key, data FROM projections WHERE ${conditions.join(' AND ')} ORDER BY key LIMIT ?`).all(...params) as {
      id: number;
      key: string;
      data: string;
    }[];
    const rows: ProjectionRow[] = fetched.map((row) => ({ table: checked.table, key: row.key, row: JSON.parse(row.data) as ProjectionWrite['row'], rowId: row.id }));
    return pageOf(rows, query.limit);
  }

  async claimSubmission(userOrder: string, workstation: string, leaseMs: number): Promise<ClaimOutcome> {
    checkClaimArguments(userOrder, workstation, leaseMs);
    return writeTransaction(this.db, (): ClaimOutcome => {
      const now = this.clock();
      const existing = this.readClaim(userOrder);
      if (existing === null) {
        this.db.prepare(`INSERT INTO submission_claims (user_order, workstation, lease_until, state) VALUES (?, ?, ?, 'claimed')`).run(userOrder, workstation, now + leaseMs);
        return { claimed: true, claim: this.readClaim(userOrder) as SubmissionClaim, tookOverFrom: null };
      }
      const decision = decideClaim(existing, workstation, now);
      if (decision.take === 'refuse') return decision.outcome;
      if (decision.take === 'renew') {
        this.db.prepare('UPDATE submission_claims SET lease_until = ? WHERE user_order = ?').run(now + leaseMs, userOrder);
      } else {
        this.db
          .prepare(`UPDATE submission_claims SET workstation = ?, lease_until = ?, state = 'claimed', result = NULL WHERE user_order = ?`)
          .run(workstation, now + leaseMs, userOrder);
      }
      return { claimed: true, claim: this.readClaim(userOrder) as SubmissionClaim, tookOverFrom: decision.take === 'over' ? existing : null };
    });
  }

  async updateClaim(userOrder: string, workstation: string, change: ClaimChange): Promise<boolean> {
    checkClaimArguments(userOrder, workstation, change.leaseMs);
    checkClaimChange(change);
    const result = this.db
      .prepare(
        `UPDATE submission_claims SET state = @state,
           result = CASE WHEN @setResult THEN @result ELSE result END,
           lease_until = COALESCE(@leaseUntil, lease_until)
         WHERE user_order = @userOrder AND workstation = @workstation AND state <> 'done'`,
      )
      .run({
        userOrder,
        workstation,
        state: change.state,
        setResult: change.result !== undefined ? 1 : 0,
        result: change.result ?? null,
        leaseUntil: change.leaseMs === undefined ? null : this.clock() + change.leaseMs,
      });
    return result.changes === 1;
  }

  async getClaim(userOrder: string): Promise<SubmissionClaim | null> {
    checkClaimArguments(userOrder, 'any');
    return this.readClaim(userOrder);
  }

  async requestWitness(nonce: string, workstation: string): Promise<WitnessRequest> {
    checkWitnessRequest(nonce, workstation);
    const id = writeTransaction(this.db, () =>
      Number(this.db.prepare('INSERT INTO witness_requests (nonce, workstation, requested_at) VALUES (?, ?, ?)').run(nonce, workstation, this.clock()).lastInsertRowid),
    );
    this.signalWitness({ kind: 'request' });
    return { id, nonce, workstation };
  }

  async witnessRequests(afterId: number, maxAgeMs: number): Promise<WitnessRequest[]> {
    checkWitnessQuery(afterId, maxAgeMs);
    const rows = this.db
      .prepare('SELECT id, nonce, workstation FROM witness_requests WHERE id > ? AND requested_at > ? ORDER BY id LIMIT 100')
      .all(afterId, this.clock() - maxAgeMs) as WitnessRequestDbRow[];
    return rows.map(toWitnessRequest);
  }

  async appendHeadAck(ack: SignedHeadAck): Promise<void> {
    checkHeadAck(ack);
    writeTransaction(this.db, () =>
      this.db
        .prepare(`INSERT INTO head_acks (${HEAD_ACK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(ack.deskId, ack.workstation, ack.seq, ack.hash, ack.nonce, ack.at, ack.keyId, ack.signature),
    );
    this.signalWitness({ kind: 'ack', nonce: ack.nonce ?? '' });
  }

  async headAcks(nonce?: string): Promise<SignedHeadAck[]> {
    if (nonce !== undefined) checkWitnessRequest(nonce, 'any');
    const rows = this.db
      .prepare(
        `SELECT ${HEAD_ACK_COLUMNS} FROM head_acks WHERE id IN (
           SELECT max(id) FROM head_acks WHERE ? IS NULL OR nonce = ? GROUP BY workstation
         ) ORDER BY workstation`,
      )
      .all(nonce ?? null, nonce ?? null) as HeadAckDbRow[];
    return rows.map(toHeadAck);
  }

  /** Like NOTIFY: delivered after the write, never inside the caller's call stack. */
  private signalWitness(signal: WitnessSignal): void {
    setImmediate(() => {
      for (const subscriber of witnessSubscribersByFile.get(this.location) ?? []) subscriber(signal);
    });
  }

  async subscribe(
    onAppended: (seq: number) => void,
    onConnectionChange: (state: ConnectionState) => void,
    onWitness?: (signal: WitnessSignal) => void,
  ): Promise<() => Promise<void>> {
    let subscribers = subscribersByFile.get(this.location);
    if (subscribers === undefined) {
      subscribers = new Set();
      subscribersByFile.set(this.location, subscribers);
    }
    const subscriber: Subscriber = (seq) => onAppended(seq);
    subscribers.add(subscriber);
    this.ownSubscribers.add(subscriber);
    let witness: WitnessSubscriber | null = null;
    if (onWitness !== undefined) {
      const listening = witnessSubscribersByFile.get(this.location) ?? new Set<WitnessSubscriber>();
      witnessSubscribersByFile.set(this.location, listening);
      witness = (signal) => onWitness(signal);
      listening.add(witness);
      this.ownWitnessSubscribers.add(witness);
    }
    onConnectionChange({ connected: true, reason: null, since: this.clock() });
    return async () => {
      this.unsubscribe(subscriber);
      if (witness !== null) this.unsubscribeWitness(witness);
    };
  }

  private unsubscribeWitness(subscriber: WitnessSubscriber): void {
    this.ownWitnessSubscribers.delete(subscriber);
    const listening = witnessSubscribersByFile.get(this.location);
    listening?.delete(subscriber);
    if (listening?.size === 0) witnessSubscribersByFile.delete(this.location);
  }

  async close(): Promise<void> {
    for (const subscriber of [...this.ownSubscribers]) this.unsubscribe(subscriber);
    for (const subscriber of [...this.ownWitnessSubscribers]) this.unsubscribeWitness(subscriber);
    closeDatabase(this.db);
  }

  private unsubscribe(subscriber: Subscriber): void {
    this.ownSubscribers.delete(subscriber);
    const subscribers = subscribersByFile.get(this.location);
    subscribers?.delete(subscriber);
    if (subscribers?.size === 0) subscribersByFile.delete(this.location);
  }

  private readHead(): ChainHead | null {
    return (this.db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as ChainHead | undefined) ?? null;
  }

  private readClaim(userOrder: string): SubmissionClaim | null {
    const row = this.db.prepare('SELECT user_order, workstation, lease_until AS lease_until_ms, state, result FROM submission_claims WHERE user_order = ?').get(userOrder) as
      | ClaimDbRow
      | undefined;
    return row === undefined ? null : toClaim(row);
  }
}
