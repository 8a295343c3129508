// Balance snapshots per currency (merchantInfo). A re-observed balance equal to the latest one (compared as
// decimals) only extends that snapshot's last_observed_at, so the table records changes, not every poll.
import { AMOUNT_SYNTAX, Money } from '../../chains/amounts';
import { perDatabase, statementCache, writeTransaction, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument } from '../store/errors';
import { checkPageSize, decodeCursor, toPage, type Page } from '../store/pagination';

export interface BalanceObservation {
  readonly currency: string;
  readonly available: string;
  readonly frozen: string;
}

export interface BalanceSnapshot extends BalanceObservation {
  readonly id: number;
  readonly profile: string;
  /** When these values were first observed. */
  readonly observedAt: number;
  /** When they were last confirmed unchanged. */
  readonly lastObservedAt: number;
}

interface SnapshotRow {
  id: number;
  profile: string;
  currency: string;
  available: string;
  frozen: string;
  observed_at: number;
  last_observed_at: number;
}

const COLUMNS = 'id, profile, currency, available, frozen, observed_at, last_observed_at';

function toSnapshot(row: SnapshotRow): BalanceSnapshot {
  return {
    id: row.id,
    profile: row.profile,
    currency: row.currency,
    available: row.available,
    frozen: row.frozen,
    observedAt: row.observed_at,
    lastObservedAt: row.last_observed_at,
  };
}

const statements = perDatabase((db) => ({
  latestOne: db.prepare(
    `SELECT ${COLUMNS} FROM balance_snapshots WHERE profile = ? AND currency = ? ORDER BY observed_at DESC, id DESC LIMIT 1`,
  ),
  insert: db.prepare(
    `INSERT INTO balance_snapshots (profile, currency, available, frozen, observed_at, last_observed_at) VALUES (?, ?, ?, ?, ?, ?)`,
  ),
  extend: db.prepare('UPDATE balance_snapshots SET last_observed_at = MAX(last_observed_at, ?) WHERE id = ?'),
  latestAll: db.prepare(
    `SELECT ${COLUMNS} FROM balance_snapshots AS b
     WHERE b.profile = @profile AND b.id = (
       SELECT s.id FROM balance_snapshots AS s WHERE s.profile = @profile AND s.currency = b.currency
       ORDER BY s.observed_at DESC, s.id DESC LIMIT 1)
     ORDER BY b.currency`,
  ),
  inForceAt: db.prepare(
    `SELECT observed_at, id FROM balance_snapshots WHERE profile = ? AND currency = ? AND observed_at <= ? ORDER BY observed_at DESC, id DESC LIMIT 1`,
  ),
  readings: db.prepare(
    `SELECT ${COLUMNS} FROM balance_snapshots
     WHERE profile = @profile AND currency = @currency AND (observed_at, id) >= (@startAt, @startId) AND observed_at < @to
     ORDER BY observed_at, id`,
  ),
  // A decimal string is zero exactly when it has no digit 1 to 9.
  heldCurrencies: db.prepare(
    `SELECT DISTINCT currency FROM balance_snapshots WHERE profile = ? AND (available GLOB '*[1-9]*' OR frozen GLOB '*[1-9]*') ORDER BY currency`,
  ).pluck(),
}));
const dynamic = statementCache();

/** Records one merchantInfo answer; returns the currencies whose balance changed (a new snapshot row). */
export function recordBalances(db: WritableDB, profile: string, balances: readonly BalanceObservation[], now: number = Date.now()): string[] {
  for (const balance of balances) {
    for (const field of ['available', 'frozen'] as const) {
      if (typeof balance[field] !== 'string' || !AMOUNT_SYNTAX.test(balance[field])) {
        throw invalidArgument(`balance ${balance.currency}: ${field} is not a decimal string`);
      }
    }
  }
  return writeTransaction(db, () => {
    const s = statements(db);
    const changed: string[] = [];
    for (const balance of balances) {
      const latest = s.latestOne.get(profile, balance.currency) as SnapshotRow | undefined;
      const same =
        latest !== undefined &&
        new Money(latest.available).equals(new Money(balance.available)) &&
        new Money(latest.frozen).equals(new Money(balance.frozen));
      if (same) {
        s.extend.run(now, latest.id);
      } else {
        s.insert.run(profile, balance.currency, balance.available, balance.frozen, now, now);
        changed.push(balance.currency);
      }
    }
    return changed;
  });
}

/** The latest snapshot of every currency the profile has seen. */
export function latestBalances(db: ReadableDB, profile: string): BalanceSnapshot[] {
  return (statements(db).latestAll.all({ profile }) as SnapshotRow[]).map(toSnapshot);
}

/**
 * The balance readings of a currency over a period, oldest first: the one in force at `from` (its latest snapshot
 * observed at or before it; none when the desk had not read it yet), then every one observed before `to`.
 */
export function balanceReadings(db: ReadableDB, profile: string, currency: string, from: number | null, to: number): BalanceSnapshot[] {
  const s = statements(db);
  const start = from === null ? undefined : (s.inForceAt.get(profile, currency, from) as { observed_at: number; id: number } | undefined);
  const startAt = from === null ? Number.MIN_SAFE_INTEGER : (start?.observed_at ?? from);
  const startId = start?.id ?? 0;
  return (s.readings.all({ profile, currency, startAt, startId, to }) as SnapshotRow[]).map(toSnapshot);
}

/** The currencies whose balance the desk has ever read as something other than zero. */
export function heldCurrencies(db: ReadableDB, profile: string): string[] {
  return statements(db).heldCurrencies.all(profile) as string[];
}

/** Snapshots of one currency, newest first, keyset-paged. */
export function listBalanceHistory(
  db: ReadableDB,
  query: { readonly profile: string; readonly currency: string; readonly limit: number; readonly after?: string | null },
): Page<BalanceSnapshot> {
  const limit = checkPageSize(query.limit);
  const params: Record<string, string | number> = { profile: query.profile, currency: query.currency, fetch: limit + 1 };
  let keyset = '';
  if (query.after !== undefined && query.after !== null) {
    const position = decodeCursor(query.after);
    keyset = 'AND (observed_at, id) < (@afterAt, @afterId)';
    params.afterAt = position.at;
    params.afterId = position.id;
  }
  const sql = `SELECT ${COLUMNS} FROM balance_snapshots WHERE profile = @profile AND currency = @currency ${keyset}
    ORDER BY observed_at DESC, id DESC LIMIT @fetch`;
  const rows = (dynamic(db, sql).all(params) as SnapshotRow[]).map(toSnapshot);
  return toPage(rows, limit, (snapshot) => ({ at: snapshot.observedAt, id: snapshot.id }));
}
