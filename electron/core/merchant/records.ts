// Everything the service says about the merchant, as the faces show it: the merchant account (merchantInfo), the
// currency table (getCurrencies) and the balances, each with the fields the spec does not name kept and shown as
// "more fields" (PROTOCOL §8). Currencies the service added after this desk was built are shown with a note: the desk
// has no address rules for them, so it refuses withdrawals in them. Reads the cache only: works offline.
import { CURRENCIES, isCurrencySymbol, WITHDRAWAL_CURRENCIES } from '../../chains';
import type { BalanceView, CurrencyView, MerchantInfoView, MoreFields } from '../../contract';
import { balanceSchema, CURRENCY_DECIMALS_MAX, CURRENCY_RECORD_DECIMALS_FIELD, currencyRecordSchema, merchantInfoSchema, unknownFieldsOf } from '../../protocol';
import { latestBalances } from './balances-table';
import { listCurrencies } from './currencies-table';
import { type ReadableDB } from '../store/database';
import { getMerchantInfo } from './merchant-info-table';

/** Why the desk refuses withdrawals in a currency it has no address rules for (and what still works). */
export function noAddressRulesReason(symbol: string): string {
  return (
    `the desk has no address rules for ${symbol} yet (the service added it after this desk was built): its deposits and ` +
    'balance are shown, but withdrawals in it are refused until a desk update adds its chain and address rules'
  );
}

/** Why a symbol that is neither one of the 13 nor in the service's list is refused. */
export function unknownCurrencyReason(symbol: string): string {
  return `${symbol} is not a currency this desk knows or the service lists (run a sync if the service added it recently)`;
}

function text(record: Readonly<Record<string, unknown>>, field: string): string {
  const value = record[field];
  return typeof value === 'string' ? value : '';
}

/** The decimals a new currency's record states (PROTOCOL profile: CURRENCY_RECORD_DECIMALS_FIELD), or null. */
export function statedDecimals(record: Readonly<Record<string, unknown>>): number | null {
  const value = record[CURRENCY_RECORD_DECIMALS_FIELD];
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= CURRENCY_DECIMALS_MAX ? value : null;
}

/** The spec's order for the 13 known symbols, then the others alphabetically. */
function bySymbolOrder(a: string, b: string): number {
  const rank = (symbol: string): number => {
    const index = (WITHDRAWAL_CURRENCIES as readonly string[]).indexOf(symbol);
    return index === -1 ? WITHDRAWAL_CURRENCIES.length : index;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The merchant account as merchantInfo last answered for the profile; null before it ever answered. */
export function merchantInfoView(db: ReadableDB, profile: string): MerchantInfoView | null {
  const stored = getMerchantInfo(db, profile);
  if (stored === undefined) return null;
  const { record } = stored;
  const apiVersion = record['apiVersion'];
  const withdrawTypes = record['withdrawTypes'];
  const bound = record['auditorMessengerBound'];
  return {
    merchantId: text(record, 'merchantId'),
    merchantName: text(record, 'merchantName'),
    apiVersion: typeof apiVersion === 'number' ? apiVersion : null,
    withdrawTypes: Array.isArray(withdrawTypes) ? withdrawTypes.filter((type): type is string => typeof type === 'string') : [],
    auditorMessengerBound: typeof bound === 'boolean' ? bound : null,
    moreFields: unknownFieldsOf(merchantInfoSchema, record),
    fetchedAt: stored.fetchedAt,
  };
}

/** The cached currency table: the 13 known symbols in the spec's order, then any the service added since. */
export function currencyViews(db: ReadableDB, profile: string): CurrencyView[] {
  return listCurrencies(db, profile)
    .sort((a, b) => bySymbolOrder(a.symbol, b.symbol))
    .map((stored): CurrencyView => {
      const { record, symbol } = stored;
      const known = isCurrencySymbol(symbol);
      const serviceName = text(record, 'name');
      return {
        symbol,
        displayName: known ? CURRENCIES[symbol].displayName : serviceName === '' ? symbol : serviceName,
        serviceName,
        decimals: known ? CURRENCIES[symbol].decimals : statedDecimals(record),
        addressRules: known,
        note: known ? null : noAddressRulesReason(symbol),
        depositMin: text(record, 'deposit_min'),
        depositFixedFee: text(record, 'deposit_fixed_fee'),
        depositPercentFee: text(record, 'deposit_percent_fee'),
        depositMinFee: text(record, 'deposit_min_fee'),
        depositMaxFee: text(record, 'deposit_max_fee'),
        withdrawMin: text(record, 'withdraw_min'),
        withdrawFixedFee: text(record, 'withdraw_fixed_fee'),
        withdrawPercentFee: text(record, 'withdraw_percent_fee'),
        withdrawMinFee: text(record, 'withdraw_min_fee'),
        withdrawMaxFee: text(record, 'withdraw_max_fee'),
        moreFields: unknownFieldsOf(currencyRecordSchema, record),
        fetchedAt: stored.fetchedAt,
      };
    });
}

/** Unknown fields of each currency's entry in the last merchantInfo answer. */
function balanceExtras(db: ReadableDB, profile: string): Map<string, MoreFields> {
  const extras = new Map<string, MoreFields>();
  const balances = getMerchantInfo(db, profile)?.record['balances'];
  if (!Array.isArray(balances)) return extras;
  for (const entry of balances as unknown[]) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const balance = entry as Record<string, unknown>;
    if (typeof balance['currency'] === 'string') extras.set(balance['currency'], unknownFieldsOf(balanceSchema, balance));
  }
  return extras;
}

/** The latest balance of every currency merchantInfo reported, new currencies included, in the currency table's order. */
export function balanceViews(db: ReadableDB, profile: string): BalanceView[] {
  const names = new Map(listCurrencies(db, profile).map((stored) => [stored.symbol, text(stored.record, 'name')]));
  const extras = balanceExtras(db, profile);
  return latestBalances(db, profile)
    .sort((a, b) => bySymbolOrder(a.currency, b.currency))
    .map((snapshot): BalanceView => {
      const known = isCurrencySymbol(snapshot.currency);
      const serviceName = names.get(snapshot.currency) ?? '';
      return {
        currency: snapshot.currency,
        displayName: known ? CURRENCIES[snapshot.currency].displayName : serviceName === '' ? snapshot.currency : serviceName,
        available: snapshot.available,
        frozen: snapshot.frozen,
        observedAt: snapshot.lastObservedAt,
        addressRules: known,
        note: known ? null : noAddressRulesReason(snapshot.currency),
        moreFields: extras.get(snapshot.currency) ?? {},
      };
    });
}
