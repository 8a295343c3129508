// Fee arithmetic of PROTOCOL §9.3–§9.4, shared by the client's preflight and the sandbox's ledger:
// fee = clamp(fixed + amount × percent / 100, min_fee, max_fee), rounded half-up to the currency's decimals.
import { AMOUNT_SYNTAX, Money, parseMoney } from '../chains';

/** The fee fields of a currency record (getCurrencies), decimal strings (§9.3). */
export interface FeeSchedule {
  readonly deposit_fixed_fee: string;
  readonly deposit_percent_fee: string;
  readonly deposit_min_fee: string;
  readonly deposit_max_fee: string;
  readonly withdraw_fixed_fee: string;
  readonly withdraw_percent_fee: string;
  readonly withdraw_min_fee: string;
  readonly withdraw_max_fee: string;
  readonly deposit_min: string;
  readonly withdraw_min: string;
}

export type FeeKind = 'deposit' | 'withdraw';

const FEE_SCHEDULE_FIELDS = [
  'deposit_fixed_fee',
  'deposit_percent_fee',
  'deposit_min_fee',
  'deposit_max_fee',
  'withdraw_fixed_fee',
  'withdraw_percent_fee',
  'withdraw_min_fee',
  'withdraw_max_fee',
  'deposit_min',
  'withdraw_min',
] as const satisfies readonly (keyof FeeSchedule)[];

/** The fee schedule of a currency record (getCurrencies), or undefined when a fee field is not a decimal string (§9.3). */
export function feeScheduleOf(record: Readonly<Record<string, unknown>>): FeeSchedule | undefined {
  return FEE_SCHEDULE_FIELDS.every((field) => typeof record[field] === 'string' && AMOUNT_SYNTAX.test(record[field])) ? (record as unknown as FeeSchedule) : undefined;
}

/** §9.4, rounded to `decimals` (the currency's, §9.2); a max fee of "0" means no upper bound (§9.3). */
export function computeFee(schedule: FeeSchedule, kind: FeeKind, amount: Money, decimals: number): Money {
  const fixed = parseMoney(kind === 'deposit' ? schedule.deposit_fixed_fee : schedule.withdraw_fixed_fee);
  const percent = parseMoney(kind === 'deposit' ? schedule.deposit_percent_fee : schedule.withdraw_percent_fee);
  const minFee = parseMoney(kind === 'deposit' ? schedule.deposit_min_fee : schedule.withdraw_min_fee);
  const maxFee = parseMoney(kind === 'deposit' ? schedule.deposit_max_fee : schedule.withdraw_max_fee);
  let fee = fixed.plus(amount.times(percent).dividedBy(100));
  if (fee.lessThan(minFee)) fee = minFee;
  if (!maxFee.isZero() && fee.greaterThan(maxFee)) fee = maxFee;
  return fee.toDecimalPlaces(decimals, Money.ROUND_HALF_UP);
}

/** Minimum amount for the kind (deposit_min / withdraw_min). */
export function minimumAmount(schedule: FeeSchedule, kind: FeeKind): Money {
  return parseMoney(kind === 'deposit' ? schedule.deposit_min : schedule.withdraw_min);
}

