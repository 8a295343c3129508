// Currencies the platform adds after launch (spec "Supported chains" rule 4: "More chains and currencies may be added
// later. Fees and minimums per currency are returned live by getCurrencies"). Platform staff add one through the admin
// interface with its chain, decimals and fee schedule; from then on getCurrencies lists it (its record also states its
// decimals, PROTOCOL profile CURRENCY_RECORD_DECIMALS_FIELD), merchantInfo has a balance entry for it, and a transfer of
// it to an issued address of its chain is credited like any deposit (§9.6). createWithdrawOrder keeps refusing it with
// currencyNotSupported (§7: the 13-value enum): this sandbox has no withdrawal rules for a currency added later.
import { CHAINS, CURRENCY_SYMBOL_MAX_LENGTH, CURRENCY_SYMBOL_PATTERN, isCurrencySymbol, type Chain } from '../chains';
import type { FeeSchedule } from '../protocol/fees';
import { CURRENCY_DECIMALS_MAX, CURRENCY_RECORD_DECIMALS_FIELD } from '../protocol/profile';
import { sql, type Db } from './store';

/** The getCurrencies record of an added currency: the spec's fields plus its decimals. */
export interface AddedCurrencyRecord extends FeeSchedule {
  readonly name: string;
  readonly symbol: string;
  readonly [CURRENCY_RECORD_DECIMALS_FIELD]: number;
}

export interface AddedCurrency {
  readonly symbol: string;
  /** The chain its deposits arrive on: credited to the addresses of that chain's address type. */
  readonly chain: Chain;
  readonly decimals: number;
  readonly record: AddedCurrencyRecord;
  readonly addedAt: number;
}

export interface NewCurrency extends FeeSchedule {
  readonly symbol: string;
  readonly name: string;
  readonly chain: Chain;
  readonly decimals: number;
}

interface AddedCurrencyRow {
  readonly symbol: string;
  readonly chain: string;
  readonly decimals: number;
  readonly record: string;
  readonly added_at: number;
}

/** Symbols that can never be added: the 13 of the spec, and USDC on TRON, which the platform never credits (§11.6). */
const NEVER_ADDED: ReadonlySet<string> = new Set(['trx.usdc']);

function toAdded(row: AddedCurrencyRow): AddedCurrency {
  const chain = CHAINS.find((candidate) => candidate === row.chain);
  if (chain === undefined) throw new Error(`added currency ${row.symbol} has an unknown chain ${row.chain}`);
  return { symbol: row.symbol, chain, decimals: row.decimals, record: JSON.parse(row.record) as AddedCurrencyRecord, addedAt: row.added_at };
}

export type AddCurrencyResult = { readonly ok: true; readonly currency: AddedCurrency } | { readonly ok: false; readonly status: 400 | 409; readonly reason: string };

/** Adds a currency to the table, with a zero balance for every merchant. Runs inside the caller's transaction. */
export function addCurrency(db: Db, input: NewCurrency, now: number): AddCurrencyResult {
  if (input.symbol.length > CURRENCY_SYMBOL_MAX_LENGTH || !CURRENCY_SYMBOL_PATTERN.test(input.symbol)) {
    return { ok: false, status: 400, reason: 'symbol: must look like "ton.usdc" (lower-case letters, digits, "_", at most one ".")' };
  }
  if (isCurrencySymbol(input.symbol) || NEVER_ADDED.has(input.symbol)) {
    return { ok: false, status: 409, reason: `${input.symbol} is one of the spec's symbols (or never credited, §11.6): it cannot be added` };
  }
  if (!Number.isInteger(input.decimals) || input.decimals < 0 || input.decimals > CURRENCY_DECIMALS_MAX) {
    return { ok: false, status: 400, reason: `decimals: a whole number from 0 to ${CURRENCY_DECIMALS_MAX}` };
  }
  if (addedCurrency(db, input.symbol)) return { ok: false, status: 409, reason: `${input.symbol} was already added` };
  const { symbol, name, chain, decimals, ...schedule } = input;
  const record: AddedCurrencyRecord = { name, symbol, ...schedule, [CURRENCY_RECORD_DECIMALS_FIELD]: decimals };
  sql(db, 'INSERT INTO added_currencies (symbol, chain, decimals, record, added_at) VALUES (?, ?, ?, ?, ?)').run(symbol, chain, decimals, JSON.stringify(record), now);
  sql(db, "INSERT OR IGNORE INTO balances (merchant_id, currency, available, frozen, opening) SELECT merchant_id, ?, '0', '0', '0' FROM merchants").run(symbol);
  return { ok: true, currency: { symbol, chain, decimals, record, addedAt: now } };
}

/** Every added currency, in the order they were added. */
export function addedCurrencies(db: Db): AddedCurrency[] {
  return (sql(db, 'SELECT symbol, chain, decimals, record, added_at FROM added_currencies ORDER BY added_at, symbol').all() as AddedCurrencyRow[]).map(toAdded);
}

export function addedCurrency(db: Db, symbol: string): AddedCurrency | undefined {
  const row = sql(db, 'SELECT symbol, chain, decimals, record, added_at FROM added_currencies WHERE symbol = ?').get(symbol) as AddedCurrencyRow | undefined;
  return row === undefined ? undefined : toAdded(row);
}
