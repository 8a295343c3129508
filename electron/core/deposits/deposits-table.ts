// Deposits the desk has verified: insert-or-touch by (profile, apiOrder) that never changes a stored amount,
// keyset-paged history, txid lookup, and substring search (FTS5 trigram index brought up to date in batches, the
// rows stored since tested one by one; scan fallback without the index).
import type { DepositRecord } from '../../protocol';
import { AMOUNT_SYNTAX, Money } from '../../chains/amounts';
import { perDatabase, statementCache, writeTransaction, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument } from '../store/errors';
import { canonicalJson, parseObjectColumn } from '../store/json';
import { checkPageSize, decodeCursor, toPage, type Page } from '../store/pagination';

/** The deposit search index (migration 0020), how far it is brought up to date, and the staged pages (0100). */
const DEPOSIT_SEARCH_TABLE = 'deposits_search';
const DEPOSIT_SEARCH_STATE_TABLE = 'deposit_search_state';
const DEPOSIT_INTAKE_TABLE = 'deposit_intake';

/** How the desk learned of a deposit: the callback receiver or a getDeposits query. */
export type DepositSource = 'callback' | 'query';

/** The deposit record of the spec (getDeposits element = deposit callback payload), already verified by the
 * protocol layer. Fields the desk does not know are kept in the raw JSON (PROTOCOL §8). */
export type { DepositRecord };

const RECORD_FIELDS = [
  'businessType',
  'txid',
  'address',
  'addressType',
  'fromAddress',
  'amount',
  'currency',
  'fee',
  'apiOrder',
  'userOrder',
] as const satisfies readonly (keyof DepositRecord)[];
const MONEY_FIELDS: ReadonlySet<string> = new Set(['amount', 'fee']);

export interface Deposit extends DepositRecord {
  readonly id: number;
  readonly profile: string;
  /** How the desk first learned of it. */
  readonly source: DepositSource;
  readonly firstSeenAt: number;
  readonly lastSeenAt: number;
  /** When a verified callback first reported it, or null: never (reconciliation's "seen by callback"). */
  readonly callbackSeenAt: number | null;
  /** When a getDeposits answer first listed it, or null: never (reconciliation's "seen by query"). */
  readonly querySeenAt: number | null;
  /** The whole verified record as first observed, unknown fields included. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface DepositUpsertResult {
  readonly id: number;
  /** True when this call stored the deposit; false when the apiOrder was already known (only last_seen_at moved). */
  readonly isNew: boolean;
  /** True when a re-observed record differs from the stored one: the first is kept; the caller should audit it. */
  readonly conflict: boolean;
  /** Top-level fields that differ (amounts compared as decimals: "1.50" equals "1.5"). */
  readonly conflictFields: readonly string[];
}

interface DepositRow {
  id: number;
  profile: string;
  api_order: string;
  user_order: string;
  business_type: string;
  txid: string;
  address: string;
  address_type: string;
  from_address: string;
  currency: string;
  amount: string;
  fee: string;
  raw_json: string;
  source: DepositSource;
  first_seen_at: number;
  last_seen_at: number;
  callback_seen_at: number | null;
  query_seen_at: number | null;
}

const COLUMNS =
  'id, profile, api_order, user_order, business_type, txid, address, address_type, from_address, currency, amount, fee, ' +
  'raw_json, source, first_seen_at, last_seen_at, callback_seen_at, query_seen_at';
const D_COLUMNS = COLUMNS.split(', ')
  .map((column) => `d.${column}`)
  .join(', ');

function toDeposit(row: DepositRow): Deposit {
  return {
    id: row.id,
    profile: row.profile,
    businessType: 'deposit', // the only kind stored here (checkRecord refuses any other)
    txid: row.txid,
    address: row.address,
    addressType: row.address_type,
    fromAddress: row.from_address,
    amount: row.amount,
    currency: row.currency,
    fee: row.fee,
    apiOrder: row.api_order,
    userOrder: row.user_order,
    source: row.source,
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
    callbackSeenAt: row.callback_seen_at,
    querySeenAt: row.query_seen_at,
    raw: parseObjectColumn(row.raw_json),
  };
}

const statements = perDatabase((db) => ({
  insert: db.prepare(
    `INSERT INTO deposits (profile, api_order, user_order, business_type, txid, address, address_type, from_address,
       currency, amount, fee, raw_json, source, first_seen_at, last_seen_at, callback_seen_at, query_seen_at)
     VALUES (@profile, @apiOrder, @userOrder, @businessType, @txid, @address, @addressType, @fromAddress,
       @currency, @amount, @fee, @raw, @source, @now, @now,
       CASE WHEN @source = 'callback' THEN @now END, CASE WHEN @source = 'query' THEN @now END)
     ON CONFLICT (profile, api_order) DO NOTHING`,
  ),
  byApiOrder: db.prepare(`SELECT ${COLUMNS} FROM deposits WHERE profile = ? AND api_order = ?`),
  // Also notes the first sighting by this source (a deposit called back, then listed, was seen both ways).
  touch: db.prepare(
    `UPDATE deposits SET last_seen_at = MAX(last_seen_at, @now),
       callback_seen_at = CASE WHEN @source = 'callback' THEN COALESCE(callback_seen_at, @now) ELSE callback_seen_at END,
       query_seen_at = CASE WHEN @source = 'query' THEN COALESCE(query_seen_at, @now) ELSE query_seen_at END
     WHERE id = @id`,
  ),
  byId: db.prepare(`SELECT ${COLUMNS} FROM deposits WHERE id = ?`),
  byTxid: db.prepare(`SELECT ${COLUMNS} FROM deposits WHERE profile = ? AND txid = ? COLLATE NOCASE ORDER BY id`),
  count: db.prepare('SELECT count(*) FROM deposits WHERE profile = ?').pluck(),
  anyInCurrency: db.prepare('SELECT 1 FROM deposits WHERE profile = ? AND currency = ? LIMIT 1').pluck(),
  sightings: db.prepare(
    `SELECT api_order, txid, amount, fee, first_seen_at, callback_seen_at, query_seen_at FROM deposits INDEXED BY deposits_by_currency_seen
     WHERE profile = @profile AND currency = @currency AND first_seen_at >= @from AND first_seen_at < @to ORDER BY first_seen_at, id`,
  ),
  currencies: db.prepare('SELECT DISTINCT currency FROM deposits WHERE profile = ? ORDER BY currency').pluck(),
  firstCallback: db.prepare('SELECT MIN(callback_seen_at) FROM deposits WHERE profile = ? AND callback_seen_at IS NOT NULL').pluck(),
  maxId: db.prepare('SELECT COALESCE(MAX(id), 0) FROM deposits').pluck(),
  afterId: db.prepare(`SELECT ${COLUMNS} FROM deposits WHERE id > ? AND profile = ? ORDER BY id LIMIT ?`),
  // The poisoning radar (radar.ts): every sender once per address type, with its first deposit; and one sender's deposits.
  senders: db.prepare(
    `SELECT address_type, from_address, MIN(id) AS first_id, COUNT(*) AS deposits FROM deposits
     WHERE profile = ? AND from_address <> '' GROUP BY address_type, from_address`,
  ),
  sendersAfter: db.prepare('SELECT id, address_type, from_address FROM deposits WHERE profile = ? AND id > ? ORDER BY id'),
  // substr, not LIKE: a userOrder may hold `_`, which LIKE reads as a wildcard.
  userOrderPrefixAfter: db.prepare(`SELECT ${COLUMNS} FROM deposits WHERE profile = ? AND id > ? AND substr(user_order, 1, length(?)) = ? ORDER BY id`),
  fromSender: db.prepare(`SELECT ${COLUMNS} FROM deposits WHERE profile = @profile AND address_type = @addressType AND from_address = @from ORDER BY id`),
  fromSenderCaseless: db.prepare(
    `SELECT ${COLUMNS} FROM deposits WHERE profile = @profile AND address_type = @addressType AND lower(from_address) IN (@from, '0x' || @from) ORDER BY id`,
  ),
  lastSeenBefore: db.prepare('SELECT id FROM deposits WHERE profile = ? AND first_seen_at < ? ORDER BY first_seen_at DESC, id DESC LIMIT 1').pluck(),
  searchTable: db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck(),
}));
/** Statements of the search index and its mark (migrations 0020, 0100), prepared only where the index exists. */
const searchStatements = perDatabase((db) => ({
  indexedThrough: db.prepare(`SELECT indexed_through FROM ${DEPOSIT_SEARCH_STATE_TABLE}`).pluck(),
  nthAbove: db.prepare('SELECT id FROM deposits WHERE id > ? ORDER BY id LIMIT 1 OFFSET ?').pluck(),
  index: db.prepare(
    `INSERT INTO ${DEPOSIT_SEARCH_TABLE} (rowid, txid, address, from_address, user_order, api_order)
     SELECT id, txid, address, from_address, user_order, api_order FROM deposits WHERE id > ? AND id <= ?`,
  ),
  setIndexedThrough: db.prepare(`UPDATE ${DEPOSIT_SEARCH_STATE_TABLE} SET indexed_through = ?`),
}));
const dynamic = statementCache();

function checkRecord(record: DepositRecord): void {
  for (const field of RECORD_FIELDS) {
    if (typeof record[field] !== 'string') throw invalidArgument(`deposit record field ${field} must be a string`);
  }
  if (record.apiOrder === '') throw invalidArgument('deposit record has an empty apiOrder');
  if ((record.businessType as string) !== 'deposit') throw invalidArgument(`deposit ${record.apiOrder}: businessType is not "deposit"`);
  for (const field of ['amount', 'fee'] as const) {
    if (!AMOUNT_SYNTAX.test(record[field])) {
      throw invalidArgument(`deposit ${record.apiOrder}: ${field} ${JSON.stringify(record[field].slice(0, 40))} is not a decimal string`);
    }
  }
}

/** Fields whose values differ between two records; money fields compare as decimals. */
function differingFields(stored: Readonly<Record<string, unknown>>, observed: Readonly<Record<string, unknown>>): string[] {
  const keys = new Set([...Object.keys(stored), ...Object.keys(observed)]);
  const differing: string[] = [];
  for (const key of [...keys].sort()) {
    const a = stored[key];
    const b = observed[key];
    if (MONEY_FIELDS.has(key) && typeof a === 'string' && typeof b === 'string' && AMOUNT_SYNTAX.test(a) && AMOUNT_SYNTAX.test(b)) {
      if (!new Money(a).equals(new Money(b))) differing.push(key);
    } else if (canonicalJson(a) !== canonicalJson(b)) {
      differing.push(key);
    }
  }
  return differing;
}

function upsert(db: WritableDB, profile: string, record: DepositRecord, source: DepositSource, now: number): DepositUpsertResult {
  checkRecord(record);
  const s = statements(db);
  const inserted = s.insert.run({
    profile,
    apiOrder: record.apiOrder,
    userOrder: record.userOrder,
    businessType: record.businessType,
    txid: record.txid,
    address: record.address,
    addressType: record.addressType,
    fromAddress: record.fromAddress,
    currency: record.currency,
    amount: record.amount,
    fee: record.fee,
    raw: JSON.stringify(record),
    source,
    now,
  });
  if (inserted.changes === 1) return { id: Number(inserted.lastInsertRowid), isNew: true, conflict: false, conflictFields: [] };

  const existing = s.byApiOrder.get(profile, record.apiOrder) as DepositRow | undefined;
  if (existing === undefined) throw new Error(`deposit ${record.apiOrder} neither inserted nor found`);
  s.touch.run({ now, source, id: existing.id });
  const conflictFields = differingFields(parseObjectColumn(existing.raw_json), record as unknown as Record<string, unknown>);
  return { id: existing.id, isNew: false, conflict: conflictFields.length > 0, conflictFields };
}

/**
 * Stores a verified deposit the first time its apiOrder is seen; afterwards only moves last_seen_at forward (and notes
 * the first sighting by `source`) and never changes amounts or any other field. A re-observed record that differs is
 * reported as a conflict.
 */
export function insertOrTouchDeposit(
  db: WritableDB,
  profile: string,
  record: DepositRecord,
  source: DepositSource,
  now: number = Date.now(),
): DepositUpsertResult {
  return upsert(db, profile, record, source, now);
}

export interface DepositObservation {
  readonly record: DepositRecord;
  readonly source: DepositSource;
  readonly observedAt: number;
}

export interface DepositBatchSummary {
  readonly inserted: number;
  readonly touched: number;
  readonly conflicts: readonly { readonly apiOrder: string; readonly fields: readonly string[] }[];
}

/**
 * Batch form of insertOrTouchDeposit, for a getDeposits page or a full re-sync: the same per-record semantics in one
 * IMMEDIATE transaction (or a savepoint of the caller's); a failure rolls the whole batch back. Like the single form it
 * leaves the new rows to the search index's backlog (indexDepositSearchBacklog).
 */
export function insertOrTouchDeposits(db: WritableDB, profile: string, observations: Iterable<DepositObservation>): DepositBatchSummary {
  return writeTransaction(db, () => {
    let inserted = 0;
    let touched = 0;
    const conflicts: { apiOrder: string; fields: readonly string[] }[] = [];
    for (const observation of observations) {
      const result = upsert(db, profile, observation.record, observation.source, observation.observedAt);
      if (result.isNew) inserted += 1;
      else touched += 1;
      if (result.conflict) conflicts.push({ apiOrder: observation.record.apiOrder, fields: result.conflictFields });
    }
    return { inserted, touched, conflicts };
  });
}

const intakeStatements = perDatabase((db) => ({
  stage: db.prepare(`INSERT INTO ${DEPOSIT_INTAKE_TABLE} (profile, source, observed_at, records, records_json) VALUES (?, ?, ?, ?, ?)`),
  staged: db.prepare(`SELECT coalesce(sum(records), 0) FROM ${DEPOSIT_INTAKE_TABLE}`).pluck(),
  pages: db.prepare(`SELECT id, profile, source, observed_at, records_json FROM ${DEPOSIT_INTAKE_TABLE} ORDER BY id`),
  drop: db.prepare(`DELETE FROM ${DEPOSIT_INTAKE_TABLE} WHERE id <= ?`),
}));

/**
 * Keeps verified records for moveStagedDeposits as one row (checked now, so that moving them cannot fail on them):
 * far cheaper to commit than the same records spread over the deposits table and its indexes. Runs in the caller's
 * transaction when there is one, so a page can commit together with what else it changes (a walk's position).
 */
export function stageDeposits(db: WritableDB, profile: string, records: readonly DepositRecord[], source: DepositSource, observedAt: number): void {
  for (const record of records) checkRecord(record);
  if (records.length === 0) return;
  intakeStatements(db).stage.run(profile, source, observedAt, records.length, JSON.stringify(records));
}

/** How many verified records wait in the staging table. */
export function countStagedDeposits(db: ReadableDB): number {
  return intakeStatements(db).staged.get() as number;
}

/** What moving the staged records of one profile and source did (see moveStagedDeposits). */
export interface StagedDepositsMoved extends DepositBatchSummary {
  readonly profile: string;
  readonly source: DepositSource;
}

/**
 * Moves every staged record into deposits, in the order staged, with insertOrTouchDeposit's semantics (first seen at
 * the time it was staged), in one transaction (or a savepoint of the caller's). One summary per profile and source.
 */
export function moveStagedDeposits(db: WritableDB): StagedDepositsMoved[] {
  return writeTransaction(db, () => {
    const s = intakeStatements(db);
    const moved = new Map<string, { profile: string; source: DepositSource; inserted: number; touched: number; conflicts: { apiOrder: string; fields: readonly string[] }[] }>();
    let lastId = 0;
    for (const page of s.pages.all() as Array<{ id: number; profile: string; source: DepositSource; observed_at: number; records_json: string }>) {
      lastId = page.id;
      const key = `${page.source}:${page.profile}`;
      const summary = moved.get(key) ?? { profile: page.profile, source: page.source, inserted: 0, touched: 0, conflicts: [] };
      moved.set(key, summary);
      for (const record of JSON.parse(page.records_json) as DepositRecord[]) {
        const result = upsert(db, page.profile, record, page.source, page.observed_at);
        if (result.isNew) summary.inserted += 1;
        else summary.touched += 1;
        if (result.conflict) summary.conflicts.push({ apiOrder: record.apiOrder, fields: result.conflictFields });
      }
    }
    if (lastId > 0) s.drop.run(lastId);
    return [...moved.values()];
  });
}

/**
 * How many deposit ids lie above the search index's mark: an upper bound on the rows stored since the index was last
 * brought up to date, which searches test one by one. 0 when there is no search index.
 */
export function depositSearchBacklog(db: ReadableDB): number {
  if (depositSearchMode(db) === 'scan') return 0;
  return Math.max(0, lastDepositId(db) - (searchStatements(db).indexedThrough.get() as number));
}

/**
 * Indexes the backlog for search, the oldest `limit` rows of it or all, in one transaction (or a savepoint of the
 * caller's). The index is derived from the history: its rows and its mark commit together with `processCrash`
 * durability, so a power loss can only roll both back to an earlier mark, and those rows are indexed again. Returns
 * the number of deposits indexed (0 without a search index).
 */
export function indexDepositSearchBacklog(db: WritableDB, limit?: number): number {
  if (depositSearchMode(db) === 'scan') return 0;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) throw invalidArgument(`index batch size must be a positive whole number, got ${limit}`);
  return writeTransaction(db, () => {
    const s = searchStatements(db);
    const mark = s.indexedThrough.get() as number;
    const through = (limit === undefined ? undefined : (s.nthAbove.get(mark, limit - 1) as number | undefined)) ?? lastDepositId(db);
    if (through <= mark) return 0;
    const indexed = s.index.run(mark, through).changes;
    s.setIndexedThrough.run(through);
    return indexed;
  }, 'processCrash');
}

export function getDeposit(db: ReadableDB, id: number): Deposit | undefined {
  const row = statements(db).byId.get(id) as DepositRow | undefined;
  return row === undefined ? undefined : toDeposit(row);
}

export function getDepositByApiOrder(db: ReadableDB, profile: string, apiOrder: string): Deposit | undefined {
  const row = statements(db).byApiOrder.get(profile, apiOrder) as DepositRow | undefined;
  return row === undefined ? undefined : toDeposit(row);
}

/** Every deposit credited by this transaction (usually one; a batch transfer can credit several). Case-insensitive. */
export function findDepositByTxid(db: ReadableDB, profile: string, txid: string): Deposit[] {
  return (statements(db).byTxid.all(profile, txid.trim()) as DepositRow[]).map(toDeposit);
}

/** A profile's deposits stored after the one with id `afterId`, in the order stored (ids only grow). */
export function listDepositsStoredAfter(db: ReadableDB, profile: string, afterId: number, limit: number): Deposit[] {
  return (statements(db).afterId.all(afterId, profile, checkPageSize(limit)) as DepositRow[]).map(toDeposit);
}

/** The id of the last deposit of a profile first seen before `at` (0 when none). */
export function lastDepositIdSeenBefore(db: ReadableDB, profile: string, at: number): number {
  return (statements(db).lastSeenBefore.get(profile, at) as number | undefined) ?? 0;
}

/** One sender of deposits to a profile: the address type and fromAddress as stored, its first deposit and how many. */
export interface DepositSender {
  readonly addressType: string;
  readonly fromAddress: string;
  readonly firstId: number;
  readonly deposits: number;
}

/** Every distinct sender of the profile's deposits (an empty fromAddress is none), one row per address type and text. */
export function depositSenders(db: ReadableDB, profile: string): DepositSender[] {
  return (statements(db).senders.all(profile) as { address_type: string; from_address: string; first_id: number; deposits: number }[]).map((row) => ({
    addressType: row.address_type,
    fromAddress: row.from_address,
    firstId: row.first_id,
    deposits: row.deposits,
  }));
}

/** The sender of each of the profile's deposits stored after `afterId` (id, address type, fromAddress), in the order stored. */
export function depositSendersStoredAfter(db: ReadableDB, profile: string, afterId: number): { readonly id: number; readonly addressType: string; readonly fromAddress: string }[] {
  return (statements(db).sendersAfter.all(profile, afterId) as { id: number; address_type: string; from_address: string }[]).map((row) => ({
    id: row.id,
    addressType: row.address_type,
    fromAddress: row.from_address,
  }));
}

/** The profile's deposits stored after `afterId` whose userOrder starts with `prefix`, in the order stored (proofs of control). */
export function depositsWithUserOrderPrefixStoredAfter(db: ReadableDB, profile: string, afterId: number, prefix: string): Deposit[] {
  return (statements(db).userOrderPrefixAfter.all(profile, afterId, prefix, prefix) as DepositRow[]).map(toDeposit);
}

/**
 * The profile's deposits from one sender of an address type, oldest first. `caseless`: `from` is a lower-case EVM
 * address without `0x` and matches the stored text in any letter case, with or without `0x`.
 */
export function depositsFromSender(db: ReadableDB, profile: string, addressType: string, from: string, caseless: boolean): Deposit[] {
  const statement = caseless ? statements(db).fromSenderCaseless : statements(db).fromSender;
  return (statement.all({ profile, addressType, from }) as DepositRow[]).map(toDeposit);
}

/** The largest deposit id of the whole desk (ids only grow: every later deposit, of any profile, has a larger one). */
export function lastDepositId(db: ReadableDB): number {
  return statements(db).maxId.get() as number;
}

/** What reconciliation reads of a deposit: its amounts and when each way of learning of it first saw it. */
export interface DepositSighting {
  readonly apiOrder: string;
  readonly txid: string;
  readonly amount: string;
  readonly fee: string;
  readonly firstSeenAt: number;
  readonly callbackSeenAt: number | null;
  readonly querySeenAt: number | null;
}

/**
 * A profile's deposits of one currency first seen in [from, to) (null: unbounded), oldest first, read one at a time as
 * the caller consumes them (a million deposits never sit in memory); the caller runs no other statement meanwhile.
 */
export function* depositSightings(db: ReadableDB, profile: string, currency: string, from: number | null, to: number | null): Generator<DepositSighting> {
  const rows = statements(db).sightings.iterate({ profile, currency, from: from ?? Number.MIN_SAFE_INTEGER, to: to ?? Number.MAX_SAFE_INTEGER });
  for (const row of rows as Iterable<Pick<DepositRow, 'api_order' | 'txid' | 'amount' | 'fee' | 'first_seen_at' | 'callback_seen_at' | 'query_seen_at'>>) {
    yield {
      apiOrder: row.api_order,
      txid: row.txid,
      amount: row.amount,
      fee: row.fee,
      firstSeenAt: row.first_seen_at,
      callbackSeenAt: row.callback_seen_at,
      querySeenAt: row.query_seen_at,
    };
  }
}

/** The currencies a profile holds deposits in. */
export function depositCurrencies(db: ReadableDB, profile: string): string[] {
  return statements(db).currencies.all(profile) as string[];
}

/** When the desk first stored a deposit reported by a verified callback for this profile, or null: never. */
export function firstDepositCallbackAt(db: ReadableDB, profile: string): number | null {
  return (statements(db).firstCallback.get(profile) as number | null | undefined) ?? null;
}

export function countDeposits(db: ReadableDB, profile: string): number {
  return statements(db).count.get(profile) as number;
}

/** Whether the profile holds any deposit in this currency. */
export function hasDepositsIn(db: ReadableDB, profile: string, currency: string): boolean {
  return statements(db).anyInCurrency.get(profile, currency) !== undefined;
}

/**
 * How a record the service lists compares with what the desk holds under its apiOrder: not held, or held with the
 * fields that differ from the record as first seen (empty when equal; amounts compared as decimals). Changes nothing.
 */
export function compareWithHeldDeposit(db: ReadableDB, profile: string, record: DepositRecord): { readonly held: false } | { readonly held: true; readonly differingFields: readonly string[] } {
  const row = statements(db).byApiOrder.get(profile, record.apiOrder) as DepositRow | undefined;
  if (row === undefined) return { held: false };
  return { held: true, differingFields: differingFields(parseObjectColumn(row.raw_json), record as unknown as Record<string, unknown>) };
}

/** A held deposit by its identity, for comparing the whole history with the service's list. */
export interface HeldDepositRef {
  readonly apiOrder: string;
  readonly txid: string;
  readonly currency: string;
  readonly amount: string;
  readonly source: DepositSource;
  readonly firstSeenAt: number;
}

const HELD_REFS_BATCH = 5_000;

/** Every held deposit of the profile first seen before `seenBefore` (ms), in id order, read in keyset batches. */
export function listHeldDepositRefs(db: ReadableDB, profile: string, seenBefore: number): HeldDepositRef[] {
  const statement = dynamic(
    db,
    `SELECT id, api_order, txid, currency, amount, source, first_seen_at FROM deposits
     WHERE profile = ? AND first_seen_at < ? AND id > ? ORDER BY id LIMIT ${HELD_REFS_BATCH}`,
  );
  const refs: HeldDepositRef[] = [];
  let after = 0;
  for (;;) {
    const rows = statement.all(profile, seenBefore, after) as Array<Pick<DepositRow, 'id' | 'api_order' | 'txid' | 'currency' | 'amount' | 'source' | 'first_seen_at'>>;
    for (const row of rows) {
      refs.push({ apiOrder: row.api_order, txid: row.txid, currency: row.currency, amount: row.amount, source: row.source, firstSeenAt: row.first_seen_at });
    }
    const lastRow = rows.at(-1);
    if (lastRow === undefined || rows.length < HELD_REFS_BATCH) return refs;
    after = lastRow.id;
  }
}

/** How text search runs on this database: the trigram index, or a scan when SQLite lacked FTS5 trigram at migration. */
export type DepositSearchMode = 'fts-trigram' | 'scan';

export function depositSearchMode(db: ReadableDB): DepositSearchMode {
  return (statements(db).searchTable.get(DEPOSIT_SEARCH_TABLE) as number) > 0 ? 'fts-trigram' : 'scan';
}

export interface DepositQuery {
  readonly profile: string;
  readonly currency?: string;
  /** Inclusive lower bound on first_seen_at (epoch ms). */
  readonly from?: number;
  /** Exclusive upper bound on first_seen_at (epoch ms). */
  readonly to?: number;
  /** A fragment of a txid, address, fromAddress, userOrder or apiOrder (case-insensitive). Fragments shorter than
   * three characters (below the trigram size) match a whole userOrder, apiOrder or txid exactly. */
  readonly search?: string;
  /** Only deposits with one of these apiOrders (a label filter's matches): the walk starts from them. */
  readonly apiOrders?: readonly string[];
  readonly limit: number;
  readonly after?: string | null;
}

/** Search fragments matching at most this many deposits start from their matches (sorted in memory). */
export const SEARCH_CANDIDATE_CAP = 2_000;
/** Up to this many matches the index walk filters by the FTS match list; beyond it, the fragment is so common that
 * testing each walked row's text finds a page sooner than building the whole match list (on every page). */
export const SEARCH_MATCH_LIST_CAP = 10_000;

/**
 * How a page query runs. `index`: walk the (profile[, currency], first_seen_at, id) index newest first and stop
 * after limit + 1 rows, filtering by the FTS match list (`fts`) or by substring tests on each row (`scan`: very
 * common fragments, or no search index). `candidates`: start from the few rows a search names (trigram matches or
 * exact identifiers), look each up by id, and sort them.
 */
export type DepositQueryPlan =
  | { readonly kind: 'index'; readonly search: 'none' | 'fts' | 'scan' }
  | { readonly kind: 'candidates'; readonly search: 'fts' | 'exact' | 'label' };

export interface BuiltDepositQuery {
  readonly sql: string;
  readonly params: Readonly<Record<string, string | number>>;
  readonly plan: DepositQueryPlan;
}

/**
 * The trigram index query for a fragment of three or more characters: the trigrams that tile it (the last one
 * overlapping), ANDed. It finds a superset of the rows containing the fragment; the row test then keeps exact
 * (case-insensitive) substring matches. Quotes make every character plain text, FTS5 operators included.
 */
export function trigramQuery(fragment: string): string {
  const chars = [...fragment];
  const grams: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i += 3) grams.push(chars.slice(i, i + 3).join(''));
  if (chars.length % 3 !== 0) grams.push(chars.slice(-3).join(''));
  return [...new Set(grams)].map((gram) => `"${gram.replaceAll('"', '""')}"`).join(' AND ');
}

/** ASCII-only lower case, the same folding SQLite's lower() applies on the other side of the row test. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

function matchingIds(db: ReadableDB, match: string, cap: number): number[] {
  const sql = `SELECT rowid FROM ${DEPOSIT_SEARCH_TABLE} WHERE ${DEPOSIT_SEARCH_TABLE} MATCH ? LIMIT ?`;
  return dynamic(db, sql).pluck().all(match, cap) as number[];
}

function countMatches(db: ReadableDB, match: string, cap: number): number {
  const sql = `SELECT count(*) FROM (SELECT rowid FROM ${DEPOSIT_SEARCH_TABLE} WHERE ${DEPOSIT_SEARCH_TABLE} MATCH ? LIMIT ?)`;
  return dynamic(db, sql).pluck().get(match, cap) as number;
}

/** The profile's deposits above the index's mark that contain the fragment (the backlog, tested row by row; few rows). */
function backlogMatches(db: ReadableDB, rowTest: string, params: Readonly<Record<string, string | number>>, cap: number): number[] {
  const sql = `SELECT d.id FROM deposits AS d NOT INDEXED WHERE d.id > @indexedThrough AND d.profile = @profile AND ${rowTest} ORDER BY d.id LIMIT ${cap}`;
  return dynamic(db, sql).pluck().all({ indexedThrough: params.indexedThrough, profile: params.profile, needle: params.needle }) as number[];
}

/** Chooses the plan for a query and writes its SQL (exported so tests can EXPLAIN exactly what runs). */
export function buildDepositQuery(db: ReadableDB, query: DepositQuery): BuiltDepositQuery {
  const limit = checkPageSize(query.limit);
  const params: Record<string, string | number> = { profile: query.profile, fetch: limit + 1 };
  const where = ['d.profile = @profile'];
  if (query.currency !== undefined) {
    where.push('d.currency = @currency');
    params.currency = query.currency;
  }
  if (query.from !== undefined) {
    where.push('d.first_seen_at >= @from');
    params.from = query.from;
  }
  if (query.after !== undefined && query.after !== null) {
    // One upper bound on first_seen_at, the tighter of the cursor and `to`, so the index seek starts just past
    // the previous page rather than at `to` (which would re-read every earlier page); the row value settles ties.
    const position = decodeCursor(query.after);
    // (Spelled with OR: SQLite 3.53 plans `col <= ? AND (col, id) < (?, ?)` as a skip-scan plus a sort.)
    where.push('d.first_seen_at <= @upperAt', '(d.first_seen_at < @afterAt OR (d.first_seen_at = @afterAt AND d.id < @afterId))');
    params.upperAt = query.to === undefined ? position.at : Math.min(position.at, query.to - 1);
    params.afterAt = position.at;
    params.afterId = position.id;
  } else if (query.to !== undefined) {
    where.push('d.first_seen_at < @to');
    params.to = query.to;
  }
  const order = 'ORDER BY d.first_seen_at DESC, d.id DESC LIMIT @fetch';
  // Walks pin their index: without ANALYZE statistics SQLite prefers the shorter index for a two-sided date range
  // even when a currency is given, which would read every currency's rows in the range.
  const walk = `deposits AS d INDEXED BY ${query.currency === undefined ? 'deposits_by_seen' : 'deposits_by_currency_seen'}`;
  const fragment = (query.search ?? '').trim();
  if (query.apiOrders !== undefined) {
    params.apiOrders = JSON.stringify(query.apiOrders);
    if (fragment === '') {
      return {
        sql: `SELECT ${D_COLUMNS} FROM json_each(@apiOrders) AS c CROSS JOIN deposits AS d ON d.profile = @profile AND d.api_order = c.value WHERE ${where.join(' AND ')} ${order}`,
        params,
        plan: { kind: 'candidates', search: 'label' },
      };
    }
    where.push('d.api_order IN (SELECT value FROM json_each(@apiOrders))');
  }

  if (fragment === '') {
    return { sql: `SELECT ${D_COLUMNS} FROM ${walk} WHERE ${where.join(' AND ')} ${order}`, params, plan: { kind: 'index', search: 'none' } };
  }
  params.fragment = fragment;
  if ([...fragment].length < 3) {
    const candidates =
      'SELECT id FROM deposits WHERE profile = @profile AND user_order = @fragment ' +
      'UNION SELECT id FROM deposits WHERE profile = @profile AND api_order = @fragment ' +
      'UNION SELECT id FROM deposits WHERE profile = @profile AND txid = @fragment COLLATE NOCASE';
    return {
      sql: `SELECT ${D_COLUMNS} FROM (${candidates}) AS c CROSS JOIN deposits AS d ON d.id = c.id WHERE ${where.join(' AND ')} ${order}`,
      params,
      plan: { kind: 'candidates', search: 'exact' },
    };
  }
  delete params.fragment;
  params.needle = asciiLower(fragment);
  const rowTest = `(${['txid', 'address', 'from_address', 'user_order', 'api_order'].map((column) => `instr(lower(d.${column}), @needle) > 0`).join(' OR ')})`;
  where.push(rowTest);
  const indexWalk = (search: 'fts' | 'scan'): BuiltDepositQuery => ({
    sql: `SELECT ${D_COLUMNS} FROM ${walk} WHERE ${where.join(' AND ')} ${order}`,
    params,
    plan: { kind: 'index', search },
  });
  if (depositSearchMode(db) === 'scan') return indexWalk('scan');

  // The index holds every deposit up to its mark; the backlog above it is tested row by row.
  params.indexedThrough = searchStatements(db).indexedThrough.get() as number;
  const match = trigramQuery(fragment);
  const backlog = backlogMatches(db, rowTest, params, SEARCH_MATCH_LIST_CAP + 1);
  const candidates = [...matchingIds(db, match, SEARCH_CANDIDATE_CAP + 1), ...backlog];
  if (candidates.length <= SEARCH_CANDIDATE_CAP) {
    delete params.indexedThrough;
    params.ids = JSON.stringify(candidates);
    return {
      sql: `SELECT ${D_COLUMNS} FROM json_each(@ids) AS c CROSS JOIN deposits AS d ON d.id = c.value WHERE ${where.join(' AND ')} ${order}`,
      params,
      plan: { kind: 'candidates', search: 'fts' },
    };
  }
  if (backlog.length + countMatches(db, match, SEARCH_MATCH_LIST_CAP + 1) > SEARCH_MATCH_LIST_CAP) {
    delete params.indexedThrough;
    return indexWalk('scan');
  }
  params.match = match;
  where.push(`(d.id IN (SELECT rowid FROM ${DEPOSIT_SEARCH_TABLE} WHERE ${DEPOSIT_SEARCH_TABLE} MATCH @match) OR d.id > @indexedThrough)`);
  return indexWalk('fts');
}

/** One page of a profile's deposits, newest first by (first_seen_at, id), filtered and optionally searched. */
export function listDeposits(db: ReadableDB, query: DepositQuery): Page<Deposit> {
  const built = buildDepositQuery(db, query);
  const rows = dynamic(db, built.sql).all(built.params) as DepositRow[];
  return toPage(rows.map(toDeposit), query.limit, (deposit) => ({ at: deposit.firstSeenAt, id: deposit.id }));
}
