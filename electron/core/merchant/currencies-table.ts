// The currency records (fees, minimums) last fetched from getCurrencies for a profile, kept whole as verified JSON.
import { perDatabase, writeTransaction, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument } from '../store/errors';
import { canonicalJson, parseObjectColumn } from '../store/json';

/** A verified currency record (spec "Currency record"); every field is kept, known or not. */
export interface CurrencyRecord {
  readonly symbol: string;
  readonly [field: string]: unknown;
}

export interface StoredCurrency {
  readonly profile: string;
  readonly symbol: string;
  readonly record: Readonly<Record<string, unknown>>;
  readonly fetchedAt: number;
}

interface CurrencyRow {
  profile: string;
  symbol: string;
  record_json: string;
  fetched_at: number;
}

function toStored(row: CurrencyRow): StoredCurrency {
  return { profile: row.profile, symbol: row.symbol, record: parseObjectColumn(row.record_json), fetchedAt: row.fetched_at };
}

const statements = perDatabase((db) => ({
  clear: db.prepare('DELETE FROM currencies WHERE profile = ?'),
  insert: db.prepare('INSERT INTO currencies (profile, symbol, record_json, fetched_at) VALUES (?, ?, ?, ?)'),
  all: db.prepare('SELECT profile, symbol, record_json, fetched_at FROM currencies WHERE profile = ? ORDER BY symbol'),
  one: db.prepare('SELECT profile, symbol, record_json, fetched_at FROM currencies WHERE profile = ? AND symbol = ?'),
}));

/** Replaces the profile's currency list with a freshly fetched one (a symbol no longer listed disappears). */
export function replaceCurrencies(db: WritableDB, profile: string, records: readonly CurrencyRecord[], now: number = Date.now()): void {
  const symbols = new Set<string>();
  for (const record of records) {
    if (typeof record.symbol !== 'string' || record.symbol === '') throw invalidArgument('currency record without a symbol');
    if (symbols.has(record.symbol)) throw invalidArgument(`currency ${record.symbol} listed twice`);
    symbols.add(record.symbol);
  }
  writeTransaction(db, () => {
    const s = statements(db);
    s.clear.run(profile);
    for (const record of records) s.insert.run(profile, record.symbol, canonicalJson(record), now);
  });
}

export function listCurrencies(db: ReadableDB, profile: string): StoredCurrency[] {
  return (statements(db).all.all(profile) as CurrencyRow[]).map(toStored);
}

export function getCurrency(db: ReadableDB, profile: string, symbol: string): StoredCurrency | undefined {
  const row = statements(db).one.get(profile, symbol) as CurrencyRow | undefined;
  return row === undefined ? undefined : toStored(row);
}
