// Opens the desk's SQLite database: WAL, synchronous=FULL, foreign keys, busy timeout, an integrity check that
// refuses a damaged file, and the numbered migrations. Also the per-handle caches every repository uses.
import Database from 'better-sqlite3';
import { closeSync, constants as fsConstants, openSync } from 'node:fs';
import { damagedMessage, sqliteCode, StoreError } from './errors';
import { latestVersion, MIGRATIONS, readUserVersion, runMigrations, trigramAvailable, type Migration } from './migrations';
import { ensureParentDirectory } from './paths';

declare const readableBrand: unique symbol;
declare const writableBrand: unique symbol;
/**
 * A handle a repository function may only read through (Signal Desktop's ReadableDB). Read functions take it, so they
 * accept both handles. A read that must see a write transaction's own writes runs on that transaction's WritableDB,
 * never on a separate read-only connection (openReadableDatabase), which sees only committed data.
 */
export type ReadableDB = Database.Database & { readonly [readableBrand]: true };
/** A handle that may write: INSERT, UPDATE, DELETE, DDL, write transactions. Usable wherever a ReadableDB is asked. */
export type WritableDB = ReadableDB & { readonly [writableBrand]: true };
/** The desk's writable handle, the one openDatabase returns and the engine holds (kept as a name to keep diffs small). */
export type StoreDatabase = WritableDB;
export type Statement = Database.Statement<unknown[], unknown>;

export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;
/** Every commit reaches the disk before it returns, unless a transaction asks for less (writeTransaction). */
const SYNCHRONOUS = 'FULL';

/**
 * How much to check at open.
 * - `auto` (default): `PRAGMA quick_check` of every ordinary table except the deposit history and its search index
 *   (the rebuildable bulk: seconds at a million deposits), plus the whole file, those included, when the last
 *   whole-file check is older than a day (recorded in settings). SQLite still reports damage it meets later.
 * - `quick`: `PRAGMA quick_check` of every ordinary table and index, the search index's shadow tables included.
 * - `full`: `PRAGMA integrity_check` of the whole file, the search index checked against its content too (a
 *   "doctor" run: about 40 s at a million deposits).
 * - `none`: no check (benchmarks; tests that open a file they damaged on purpose).
 */
export type IntegrityCheckLevel = 'auto' | 'quick' | 'full' | 'none';

/** How often `auto` extends the open-time check to the whole file. */
export const WHOLE_FILE_CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** The settings key holding when the whole file last passed a check (epoch ms). */
export const LAST_WHOLE_FILE_CHECK_SETTING = 'store.lastWholeFileCheckAt';
/** Tables the everyday `auto` check skips: the deposit history and its FTS shadow tables (`sync --full` rebuilds them). */
const HISTORY_TABLES = /^deposits(_search_.*)?$/;

export interface OpenDatabaseOptions {
  readonly readonly?: boolean;
  readonly integrityCheck?: IntegrityCheckLevel;
  readonly busyTimeoutMs?: number;
  /** The migrations to apply; tests pass a prefix of MIGRATIONS. */
  readonly migrations?: readonly Migration[];
  /** Milliseconds since the epoch, for the `auto` check's schedule; Date.now by default. */
  readonly clock?: () => number;
}

/** Opens (creating if needed, unless read-only) and migrates the database at `path`. Throws StoreError on refusal. */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): StoreDatabase {
  const readonly = options.readonly ?? false;
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const migrations = options.migrations ?? MIGRATIONS;
  const inMemory = path === ':memory:';
  if (!readonly && !inMemory) createPrivateFile(path);

  let db: StoreDatabase;
  try {
    // The one place a raw better-sqlite3 handle becomes a branded one (and openReadableDatabase, which narrows it).
    db = new Database(path, {
      readonly,
      fileMustExist: readonly,
      timeout: busyTimeoutMs,
    }) as StoreDatabase;
  } catch (error) {
    if (readonly && sqliteCode(error) === 'SQLITE_CANTOPEN') {
      throw new StoreError('notFound', `no database at ${path}`, { path, cause: error });
    }
    throw mapSqliteError(error, path);
  }

  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    // The first statement that reads the header: a file that is not SQLite fails here (SQLITE_NOTADB).
    db.pragma('schema_version', { simple: true });
    if (!readonly && !inMemory) {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new StoreError('unsupported', `could not switch ${path} to WAL journaling (got ${String(mode)})`, { path });
    }
    db.pragma(`synchronous = ${SYNCHRONOUS}`);
    db.pragma('foreign_keys = ON');
    const now = (options.clock ?? Date.now)();
    const level = options.integrityCheck ?? 'auto';
    const wholeFileDue = level === 'auto' && wholeFileCheckDue(db, now);
    const scope = level === 'auto' ? (wholeFileDue ? 'quick' : 'everyday') : level;
    const problems = checkDatabaseIntegrity(db, scope);
    if (problems.length > 0) throw new StoreError('damaged', damagedMessage(path, problems.slice(0, 3).join('; ')), { path });

    const version = userVersion(db);
    const latest = latestVersion(migrations);
    if (version > latest) {
      throw new StoreError(
        'newerSchema',
        `the database at ${path} was written by a newer Treasury Desk (schema ${version}; this version knows up to ${latest}). ` +
          'Update Treasury Desk, or open a different file with --db.',
        { path },
      );
    }
    if (readonly) {
      if (version < latest) {
        throw new StoreError(
          'notMigrated',
          `the database at ${path} is at schema ${version} and needs upgrading to ${latest}; open it once without read-only mode`,
          { path },
        );
      }
    } else {
      runMigrations(db, migrations, path);
      if (scope === 'quick' || scope === 'full') recordWholeFileCheck(db, now);
    }
    return db;
  } catch (error) {
    db.close();
    throw mapSqliteError(error, path);
  }
}

/** Options of openReadableDatabase: those of openDatabase without the ones only a writer uses. */
export type OpenReadableOptions = Omit<OpenDatabaseOptions, 'readonly' | 'migrations'>;

/**
 * Opens a second, read-only connection to the desk's database at `path` (SQLite's readonly open flag plus
 * `PRAGMA query_only`), so a write through it is refused by SQLite itself (SQLITE_READONLY), not only by the
 * compiler. Both are needed: the read-only flag refuses every change of data or schema, and `query_only` also refuses
 * BEGIN IMMEDIATE, which a read-only connection to a WAL file otherwise accepts. It sees what the writable handle has committed (WAL), never a transaction still open there: a read that
 * belongs to a write transaction uses that transaction's WritableDB. The file must exist at the latest schema (the
 * writer migrates it); the integrity check is `none` by default, as the writer checked the file at its own open.
 */
export function openReadableDatabase(path: string, options: OpenReadableOptions = {}): ReadableDB {
  const db: ReadableDB = openDatabase(path, { integrityCheck: 'none', ...options, readonly: true });
  db.pragma('query_only = ON');
  return db;
}

/** Closes the handle; safe to call twice. */
export function closeDatabase(db: ReadableDB): void {
  if (db.open) db.close();
}

/** The schema version (`PRAGMA user_version`): the number of the last migration applied. */
export function userVersion(db: ReadableDB): number {
  return readUserVersion(db);
}

/** What a commit waits for: `full` (the default) until it is on disk; `processCrash` only until the OS has it. */
export type CommitDurability = 'full' | 'processCrash';

/**
 * Runs `fn` in a write transaction that takes the write lock at BEGIN (IMMEDIATE), so two processes never deadlock
 * upgrading read locks; nested calls become savepoints of the outer transaction (whose durability applies).
 * `processCrash` commits with synchronous=NORMAL: the commit survives the process dying at any point, but a power
 * loss or OS crash before the next fully synced commit may roll it back (whole, WAL). Only for data the desk can fetch
 * again and whose loss, together with everything committed with it, leaves a consistent state (a verified deposit
 * page with the walk's position): never for the desk's own records, audit rows above all.
 */
export function writeTransaction<T>(db: WritableDB, fn: () => T, durability: CommitDurability = 'full'): T {
  if (db.inTransaction) return db.transaction(fn)();
  if (durability === 'full') return db.transaction(fn).immediate();
  db.pragma('synchronous = NORMAL');
  try {
    return db.transaction(fn).immediate();
  } finally {
    db.pragma(`synchronous = ${SYNCHRONOUS}`);
  }
}

/**
 * Per-handle lazily built values (prepared statements). `const statements = perDatabase((db) => ({...}))`, then
 * `statements(db).insert.run(...)`. Entries die with the handle (WeakMap).
 */
export function perDatabase<T>(build: (db: ReadableDB) => T): (db: ReadableDB) => T {
  const cache = new WeakMap<ReadableDB, T>();
  return (db) => {
    let value = cache.get(db);
    if (value === undefined) {
      value = build(db);
      cache.set(db, value);
    }
    return value;
  };
}

/** Per-handle cache of statements whose SQL varies (optional filters), keyed by the SQL text. */
export function statementCache(): (db: ReadableDB, sql: string) => Statement {
  const caches = perDatabase(() => new Map<string, Statement>());
  return (db, sql) => {
    const cache = caches(db);
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}

/** What this SQLite build offers the store. */
export interface SqliteCapabilities {
  readonly version: string;
  /** FTS5 with the trigram tokenizer (SQLite 3.34+ built with FTS5): substring search over txids and addresses. */
  readonly trigram: boolean;
}

export function sqliteCapabilities(db: ReadableDB): SqliteCapabilities {
  return { version: String(db.prepare('SELECT sqlite_version()').pluck().get()), trigram: trigramAvailable(db) };
}

/**
 * Runs an integrity check and returns SQLite's complaints (empty when the file is sound). `everyday` is the `auto`
 * level's usual scope: every ordinary table except the deposit history and its search index.
 */
export function checkDatabaseIntegrity(db: ReadableDB, scope: 'everyday' | 'quick' | 'full' | 'none'): string[] {
  if (scope === 'none') return [];
  if (scope === 'full') return pragmaProblems(db, 'integrity_check(20)');
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name")
    .pluck()
    .all() as string[];
  const problems: string[] = [];
  for (const table of tables) {
    if (scope === 'everyday' && HISTORY_TABLES.test(table)) continue;
    problems.push(...pragmaProblems(db, `quick_check(${quoteIdentifier(table)})`));
    if (problems.length >= 20) break;
  }
  return problems;
}

function wholeFileCheckDue(db: ReadableDB, now: number): boolean {
  const hasSettings = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'settings'").pluck().get() === 1;
  if (!hasSettings) return true;
  const text = db.prepare('SELECT value_json FROM settings WHERE key = ?').pluck().get(LAST_WHOLE_FILE_CHECK_SETTING);
  const last = typeof text === 'string' ? Number(text) : Number.NaN;
  // A clock that went backwards counts as due too.
  return !Number.isFinite(last) || now - last >= WHOLE_FILE_CHECK_INTERVAL_MS || now < last;
}

function recordWholeFileCheck(db: WritableDB, now: number): void {
  db.prepare(
    `INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
  ).run(LAST_WHOLE_FILE_CHECK_SETTING, JSON.stringify(now), now);
}

function pragmaProblems(db: ReadableDB, pragma: string): string[] {
  const lines = db.pragma(pragma) as Record<string, unknown>[];
  const texts = lines.map((line) => String(Object.values(line)[0]));
  return texts.length === 1 && texts[0] === 'ok' ? [] : texts;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Creates the file with mode 0600 (and its folders 0700) so SQLite, and its -wal/-shm files, inherit owner-only access. */
function createPrivateFile(path: string): void {
  ensureParentDirectory(path);
  try {
    closeSync(openSync(path, fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_WRONLY, 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Turns SQLite's "not a database" and corruption codes into the damaged-file refusal; passes anything else through. */
export function mapSqliteError(error: unknown, path: string): unknown {
  if (error instanceof StoreError) return error;
  const code = sqliteCode(error);
  if (code === 'SQLITE_NOTADB' || (code !== undefined && code.startsWith('SQLITE_CORRUPT'))) {
    const detail = error instanceof Error ? error.message : String(error);
    return new StoreError('damaged', damagedMessage(path, detail), { path, cause: error });
  }
  return error;
}
