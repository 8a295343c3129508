// The sandbox's SQLite state (better-sqlite3, WAL, synchronous=FULL): schema migrations and typed queries.
// Invariant: money is TEXT holding a decimal string, never REAL; every answer to a client follows its commit. The
// database holds the merchant secrets and private keys: its folder is 0700 and the file, -wal and -shm are 0600.
import Database from 'better-sqlite3';
import { chmodSync, closeSync, constants as fsConstants, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type Db = Database.Database;

export const DATABASE_FILE = 'sandbox.sqlite';

/** Numbered migrations in steps of ten; each runs in one transaction and sets user_version. */
const MIGRATIONS: ReadonlyArray<{ readonly version: number; readonly sql: string }> = [
  {
    version: 10,
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE keys (
        id INTEGER PRIMARY KEY,
        role TEXT NOT NULL CHECK (role IN ('platform', 'merchant')),
        public_pem TEXT NOT NULL,
        private_pem TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE merchants (
        merchant_id TEXT PRIMARY KEY,
        merchant_name TEXT NOT NULL,
        secret TEXT NOT NULL,
        api_version INTEGER NOT NULL CHECK (api_version IN (1, 2)),
        platform_key_id INTEGER NOT NULL REFERENCES keys(id),
        merchant_key_id INTEGER NOT NULL REFERENCES keys(id),
        ip_whitelist TEXT NOT NULL,
        callback_url TEXT,
        auditor_messenger_bound INTEGER NOT NULL CHECK (auditor_messenger_bound IN (0, 1)),
        withdraw_types TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE balances (
        merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
        currency TEXT NOT NULL,
        available TEXT NOT NULL,
        frozen TEXT NOT NULL,
        opening TEXT NOT NULL,
        PRIMARY KEY (merchant_id, currency)
      ) WITHOUT ROWID;
      CREATE TABLE addresses (
        merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
        user_order TEXT NOT NULL,
        address_type TEXT NOT NULL,
        address TEXT NOT NULL,
        address_key TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (merchant_id, user_order)
      ) WITHOUT ROWID;
      CREATE UNIQUE INDEX addresses_by_key ON addresses (address_type, address_key);
      CREATE TABLE chain_transfers (
        chain TEXT NOT NULL,
        txid_key TEXT NOT NULL,
        txid TEXT NOT NULL,
        currency TEXT NOT NULL,
        from_address TEXT NOT NULL,
        to_address TEXT NOT NULL,
        amount TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('deposit', 'withdrawal')),
        credited INTEGER NOT NULL CHECK (credited IN (0, 1)),
        reason TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (chain, txid_key)
      ) WITHOUT ROWID;
      CREATE TABLE deposits (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        api_order TEXT NOT NULL UNIQUE,
        merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
        txid TEXT NOT NULL,
        chain TEXT NOT NULL,
        currency TEXT NOT NULL,
        address TEXT NOT NULL,
        address_type TEXT NOT NULL,
        from_address TEXT NOT NULL,
        gross TEXT NOT NULL,
        amount TEXT NOT NULL,
        fee TEXT NOT NULL,
        user_order TEXT NOT NULL,
        credited_at INTEGER NOT NULL
      );
      CREATE INDEX deposits_by_merchant ON deposits (merchant_id, seq);
      CREATE INDEX deposits_by_currency ON deposits (merchant_id, currency, seq);
      CREATE TABLE withdrawals (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
        user_order TEXT NOT NULL,
        api_order TEXT NOT NULL UNIQUE,
        currency TEXT NOT NULL,
        amount TEXT NOT NULL,
        fee TEXT NOT NULL,
        to_address TEXT NOT NULL,
        withdraw_type TEXT NOT NULL,
        remark TEXT NOT NULL,
        message TEXT NOT NULL,
        txid TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (merchant_id, user_order)
      );
      CREATE INDEX withdrawals_by_status ON withdrawals (status);
      CREATE TABLE withdrawal_history (
        id INTEGER PRIMARY KEY,
        withdrawal_seq INTEGER NOT NULL REFERENCES withdrawals(seq),
        from_status TEXT,
        to_status TEXT NOT NULL,
        actor TEXT NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE INDEX withdrawal_history_by_order ON withdrawal_history (withdrawal_seq, id);
      CREATE TABLE tokens (
        token TEXT PRIMARY KEY,
        merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
        issued_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE nonces (
        merchant_id TEXT NOT NULL,
        nonce TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (merchant_id, nonce)
      ) WITHOUT ROWID;
      CREATE INDEX nonces_by_expiry ON nonces (expires_at);
      CREATE TABLE callbacks (
        id INTEGER PRIMARY KEY,
        merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
        kind TEXT NOT NULL CHECK (kind IN ('deposit', 'withdraw')),
        ref TEXT NOT NULL,
        payload TEXT NOT NULL,
        event_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL,
        next_attempt_at INTEGER,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed'))
      );
      CREATE INDEX callbacks_due ON callbacks (state, next_attempt_at);
      CREATE INDEX callbacks_by_merchant ON callbacks (merchant_id, id);
      CREATE TABLE callback_attempts (
        id INTEGER PRIMARY KEY,
        callback_id INTEGER NOT NULL REFERENCES callbacks(id),
        attempt INTEGER NOT NULL,
        at INTEGER NOT NULL,
        url TEXT NOT NULL,
        http_status INTEGER,
        outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'failed')),
        detail TEXT NOT NULL
      );
      CREATE INDEX callback_attempts_by_callback ON callback_attempts (callback_id, attempt);
    `,
  },
  {
    // Currencies platform staff add after launch (added-currencies.ts): chain, decimals and the getCurrencies record.
    version: 20,
    sql: `
      CREATE TABLE added_currencies (
        symbol TEXT PRIMARY KEY,
        chain TEXT NOT NULL,
        decimals INTEGER NOT NULL,
        record TEXT NOT NULL,
        added_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** Owner-only access: `path` gets `mode` when it allows more (group or others). Not on Windows, which has no modes. */
function restrict(path: string, mode: number): void {
  if (process.platform === 'win32' || !existsSync(path)) return;
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, mode);
}

/**
 * The folder 0700 and the database file created 0600 before SQLite opens it (SQLite gives its -wal and -shm files the
 * database file's mode); files left wider by an older sandbox are narrowed.
 */
function preparePrivateFiles(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  restrict(dataDir, 0o700);
  const file = join(dataDir, DATABASE_FILE);
  try {
    closeSync(openSync(file, fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_WRONLY, 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const path of [file, `${file}-wal`, `${file}-shm`]) restrict(path, 0o600);
}

/** Opens (creating if needed) the sandbox database in `dataDir` and brings its schema up to date. */
export function openDatabase(dataDir: string, options: { readonly readonly?: boolean } = {}): Db {
  if (!options.readonly) preparePrivateFiles(dataDir);
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  if (options.readonly) return db;
  db.pragma('journal_mode = WAL');
  // Durability: an answer is sent only after its commit is on disk, so kill -9 loses nothing acknowledged.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  try {
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(`the sandbox database has schema version ${current}, newer than this program's ${SCHEMA_VERSION}; use a newer build or a fresh --data folder.`);
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
}

// ---- rows -------------------------------------------------------------------------------------------------------

export interface KeyRow {
  readonly id: number;
  readonly role: 'platform' | 'merchant';
  readonly public_pem: string;
  readonly private_pem: string;
}

export interface MerchantRow {
  readonly merchant_id: string;
  readonly merchant_name: string;
  readonly secret: string;
  readonly api_version: number;
  readonly platform_key_id: number;
  readonly merchant_key_id: number;
  readonly ip_whitelist: string;
  readonly callback_url: string | null;
  readonly auditor_messenger_bound: number;
  readonly withdraw_types: string;
  readonly created_at: number;
}

export interface BalanceRow {
  readonly merchant_id: string;
  readonly currency: string;
  readonly available: string;
  readonly frozen: string;
  readonly opening: string;
}

export interface AddressRow {
  readonly merchant_id: string;
  readonly user_order: string;
  readonly address_type: string;
  readonly address: string;
  readonly address_key: string;
}

export interface TransferRow {
  readonly chain: string;
  readonly txid_key: string;
  readonly txid: string;
  readonly currency: string;
  readonly from_address: string;
  readonly to_address: string;
  readonly amount: string;
  readonly source: 'deposit' | 'withdrawal';
  readonly credited: number;
  readonly reason: string | null;
  readonly created_at: number;
}

export interface DepositRow {
  readonly seq: number;
  readonly api_order: string;
  readonly merchant_id: string;
  readonly txid: string;
  readonly chain: string;
  readonly currency: string;
  readonly address: string;
  readonly address_type: string;
  readonly from_address: string;
  readonly gross: string;
  readonly amount: string;
  readonly fee: string;
  readonly user_order: string;
  readonly credited_at: number;
}

export interface WithdrawalRow {
  readonly seq: number;
  readonly merchant_id: string;
  readonly user_order: string;
  readonly api_order: string;
  readonly currency: string;
  readonly amount: string;
  readonly fee: string;
  readonly to_address: string;
  readonly withdraw_type: string;
  readonly remark: string;
  readonly message: string;
  readonly txid: string;
  readonly status: string;
  readonly created_at: number;
  readonly updated_at: number;
}

export interface HistoryRow {
  readonly id: number;
  readonly withdrawal_seq: number;
  readonly from_status: string | null;
  readonly to_status: string;
  readonly actor: string;
  readonly at: number;
}

export interface TokenRow {
  readonly token: string;
  readonly merchant_id: string;
  readonly issued_at: number;
  readonly expires_at: number;
}

export interface CallbackRow {
  readonly id: number;
  readonly merchant_id: string;
  readonly kind: 'deposit' | 'withdraw';
  readonly ref: string;
  readonly payload: string;
  readonly event_at: number;
  readonly attempts: number;
  readonly next_attempt_at: number | null;
  readonly state: 'pending' | 'delivered' | 'failed';
}

export interface AttemptRow {
  readonly id: number;
  readonly callback_id: number;
  readonly attempt: number;
  readonly at: number;
  readonly url: string;
  readonly http_status: number | null;
  readonly outcome: 'delivered' | 'failed';
  readonly detail: string;
}

// ---- group commit -------------------------------------------------------------------------------------------------

/**
 * Group commit: the first write of an event-loop turn opens a transaction, every later write of that turn joins it
 * (as a savepoint), and one COMMIT (one fsync under synchronous=FULL) ends the turn. Anything a client can observe
 * (an answer, a callback) waits for `settled()`, so nothing is acknowledged before it is on disk.
 */
export class GroupCommit {
  private pending: Promise<void> | undefined;

  constructor(private readonly db: Db) {}

  /** Runs `work` in the current batch (opening one if needed); it rolls back alone if it throws. */
  write<T>(work: () => T): T {
    if (!this.db.inTransaction) {
      this.db.exec('BEGIN');
      this.pending = new Promise<void>((resolve, reject) => {
        setImmediate(() => {
          try {
            this.commitNow();
            resolve();
          } catch (error) {
            reject(error as Error);
          }
        });
      });
    }
    return this.db.transaction(work)();
  }

  /** Resolves once every write made so far is committed (at once when no batch is open). */
  settled(): Promise<void> {
    return this.pending ?? Promise.resolve();
  }

  /** Commits the open batch now (before closing the database). */
  commitNow(): void {
    this.pending = undefined;
    if (!this.db.inTransaction) return;
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }
}

// ---- statements -------------------------------------------------------------------------------------------------

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>();

/** A prepared statement for `sql`, prepared once per database handle and reused (requests run many per second). */
export function sql(db: Db, text: string): Database.Statement {
  let cache = statementCache.get(db);
  if (!cache) {
    cache = new Map();
    statementCache.set(db, cache);
  }
  let statement = cache.get(text);
  if (!statement) {
    statement = db.prepare(text);
    cache.set(text, statement);
  }
  return statement;
}

// ---- meta -------------------------------------------------------------------------------------------------------

export function getMeta(db: Db, key: string): string | undefined {
  const row = sql(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  sql(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** Next value of a named counter kept in meta (used for apiOrder numbers); call inside a transaction. */
export function nextCounter(db: Db, name: string): number {
  const key = `counter:${name}`;
  const next = Number(getMeta(db, key) ?? '0') + 1;
  setMeta(db, key, String(next));
  return next;
}
