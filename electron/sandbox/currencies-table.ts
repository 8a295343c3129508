// The sandbox's currency table (served by getCurrencies, PROTOCOL §12.1): realistic fees and minimums for the 13
// withdrawal symbols, as decimal strings with percent fees in percent (§9.3). The ledger charges exactly these.
import { CURRENCIES, WITHDRAWAL_CURRENCIES, type CurrencySymbol } from '../chains';
import type { FeeSchedule } from '../protocol/fees';

/** A currency record as getCurrencies returns it (spec "Currency record"). */
export interface CurrencyRecord extends FeeSchedule {
  readonly name: string;
  readonly symbol: CurrencySymbol;
}

type Schedule = Omit<CurrencyRecord, 'name' | 'symbol'>;

/** Native coins: no deposit fee floor, a flat network fee on withdrawal. */
function native(depositPercent: string, withdrawFixed: string, depositMin: string, withdrawMin: string): Schedule {
  return {
    deposit_fixed_fee: '0',
    deposit_percent_fee: depositPercent,
    deposit_min_fee: '0',
    deposit_max_fee: '0',
    withdraw_fixed_fee: withdrawFixed,
    withdraw_percent_fee: '0',
    withdraw_min_fee: withdrawFixed,
    withdraw_max_fee: '0',
    deposit_min: depositMin,
    withdraw_min: withdrawMin,
  };
}

/** Stablecoins: 0.5 % deposit fee with a floor and a cap; network fee plus 0.1 % on withdrawal, capped. */
function stable(depositMinFee: string, withdrawFixed: string, depositMin: string, withdrawMin: string): Schedule {
  return {
    deposit_fixed_fee: '0',
    deposit_percent_fee: '0.5',
    deposit_min_fee: depositMinFee,
    deposit_max_fee: '50',
    withdraw_fixed_fee: withdrawFixed,
    withdraw_percent_fee: '0.1',
    withdraw_min_fee: withdrawFixed,
    withdraw_max_fee: '30',
    deposit_min: depositMin,
    withdraw_min: withdrawMin,
  };
}

const SCHEDULES: Readonly<Record<CurrencySymbol, Schedule>> = {
  trx: native('0', '1', '1', '10'),
  'trx.usdt': stable('0.5', '1', '1', '10'),
  eth: native('0.3', '0.0005', '0.001', '0.005'),
  'eth.usdt': stable('1', '3', '10', '20'),
  'eth.usdc': stable('1', '3', '10', '20'),
  solana: native('0.3', '0.001', '0.01', '0.05'),
  'solana.usdt': stable('0.1', '0.5', '1', '5'),
  'solana.usdc': stable('0.1', '0.5', '1', '5'),
  bnb: native('0.3', '0.0003', '0.001', '0.005'),
  'bnb.usdt': stable('0.1', '0.3', '1', '5'),
  'bnb.usdc': stable('0.1', '0.3', '1', '5'),
  ton: native('0.3', '0.05', '0.1', '1'),
  'ton.usdt': stable('0.1', '0.5', '1', '5'),
};

/** The 13 records in the spec's symbol order (§12.1). */
export const CURRENCY_TABLE: readonly CurrencyRecord[] = WITHDRAWAL_CURRENCIES.map((symbol) => ({
  name: CURRENCIES[symbol].displayName,
  symbol,
  ...SCHEDULES[symbol],
}));

export function currencyRecord(symbol: CurrencySymbol): CurrencyRecord {
  const record = CURRENCY_TABLE.find((entry) => entry.symbol === symbol);
  if (!record) throw new Error(`no currency record for ${symbol}`);
  return record;
}
