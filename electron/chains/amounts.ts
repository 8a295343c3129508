// Amount syntax and precision per currency (PROTOCOL §9.1, §9.2): decimal strings in, decimal.js values out.
// Never a JavaScript number for money (§9.7).
import Decimal from 'decimal.js';
import { CURRENCIES, type CurrencySymbol } from './currencies';

/** A decimal context wide enough for 18-decimal tokens with large balances; rounding is always explicit. */
export const Money = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -100, toExpPos: 100 });
export type Money = Decimal;

/** §9.1: digits, optionally one '.' and more digits; no sign, exponent or spaces (a CSV cell is trimmed before). */
export const AMOUNT_SYNTAX = /^[0-9]+(\.[0-9]+)?$/;

export type AmountProblem = 'syntax' | 'zero' | 'tooManyDecimals';

export type AmountCheck =
  | { readonly ok: true; readonly value: Money; readonly text: string }
  | { readonly ok: false; readonly problem: AmountProblem; readonly reason: string };

/** Number of digits after the decimal point as written (trailing zeros count: the platform counts them too). */
export function writtenDecimals(text: string): number {
  const dot = text.indexOf('.');
  return dot === -1 ? 0 : text.length - dot - 1;
}

/** Checks an amount the operator typed for a currency: syntax, non-zero, at most the currency's decimals. */
export function checkAmount(symbol: CurrencySymbol, text: string): AmountCheck {
  const decimals = CURRENCIES[symbol].decimals;
  if (!AMOUNT_SYNTAX.test(text)) {
    // Spaces are named for where they are: a typed amount is taken as typed, while a CSV cell was trimmed before
    // (spaces around it are fine there), so "no spaces" alone would contradict the file's rule.
    if (/^\s|\s$/u.test(text) && AMOUNT_SYNTAX.test(text.trim())) {
      return { ok: false, problem: 'syntax', reason: 'has spaces at the start or end: write the amount without them, e.g. 125.50' };
    }
    if (/\S\s+\S/u.test(text)) return { ok: false, problem: 'syntax', reason: 'has spaces inside the amount: write it with digits and at most one ".", e.g. 1250.50' };
    return { ok: false, problem: 'syntax', reason: 'write the amount with digits and at most one "." (no sign, commas, exponent or spaces), e.g. 125.50' };
  }
  if (writtenDecimals(text) > decimals) {
    return { ok: false, problem: 'tooManyDecimals', reason: `${CURRENCIES[symbol].displayName} allows at most ${decimals} decimal places` };
  }
  const value = new Money(text);
  if (value.isZero()) return { ok: false, problem: 'zero', reason: 'the amount must be greater than zero' };
  return { ok: true, value, text };
}

/** Parses a decimal string the service or the cache produced (already validated syntax); throws on anything else. */
export function parseMoney(text: string): Money {
  if (!AMOUNT_SYNTAX.test(text)) throw new Error(`not a decimal amount string: ${JSON.stringify(text.slice(0, 40))}`);
  return new Money(text);
}

/** Renders a value as a plain decimal string (no exponent), trimmed of trailing zeros. */
export function formatMoney(value: Money): string {
  return value.toFixed();
}

/** Renders with exactly the currency's decimals, for aligned columns. */
export function formatForCurrency(value: Money, symbol: CurrencySymbol): string {
  return value.toFixed(CURRENCIES[symbol].decimals, Decimal.ROUND_HALF_UP);
}
