// Money strings grouped for reading ("1250.5" → "1,250.5" in en-US) without ever becoming JavaScript numbers: every
// digit is kept, or the plain string is returned. Pure and shared by the renderer (in the person's locale) and the CLI.

const DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;
/** ECMA-402 accepts up to 100 fraction digits; every currency here has at most 18. */
const MAX_FRACTION_DIGITS = 100;

interface AmountFormatter {
  readonly format: Intl.NumberFormat;
  /** The locale's digits 0-9 (e.g. Arabic-Indic), to check a formatted amount digit by digit. */
  readonly digits: readonly string[];
}

const amountFormatters = new Map<string, AmountFormatter>();

function amountFormatter(locale: string, fractionDigits: number): AmountFormatter {
  const key = `${locale}|${fractionDigits}`;
  let formatter = amountFormatters.get(key);
  if (formatter === undefined) {
    const format = new Intl.NumberFormat(locale, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits, useGrouping: true });
    const integers = new Intl.NumberFormat(locale, { useGrouping: false });
    formatter = { format, digits: Array.from({ length: 10 }, (_, digit) => integers.format(String(digit) as `${number}`)) };
    amountFormatters.set(key, formatter);
  }
  return formatter;
}

/**
 * A decimal amount string grouped the locale's way, every digit kept: "1234567.000001" → "1,234,567.000001" (en-US),
 * "1.234.567,000001" (de-DE), "12,34,567.000001" (en-IN). Intl formats the decimal STRING exactly (ECMA-402
 * NumberFormat v3); the digits are checked against the input, and a runtime that would round gets the plain string.
 */
export function groupAmount(amount: string, locale: string): string {
  const match = DECIMAL.exec(amount);
  if (match === null) return amount;
  const [, , integer = '', fraction = ''] = match;
  if (fraction.length > MAX_FRACTION_DIGITS) return amount;
  const formatter = amountFormatter(locale, fraction.length);
  const parts = formatter.format.formatToParts(amount as `${number}`);
  const shownDigits = parts
    .filter((part) => part.type === 'integer' || part.type === 'fraction')
    .map((part) => [...part.value].map((digit) => String(formatter.digits.indexOf(digit))).join(''))
    .join('');
  const expected = `${integer.replace(/^0+(?=\d)/, '')}${fraction}`;
  if (shownDigits !== expected) return amount;
  return parts.map((part) => part.value).join('');
}

