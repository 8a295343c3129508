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

/** How a locale writes numbers, as Intl reports it: its digits, its decimal separator and its group separator. */
export interface LocaleNumberSymbols {
  /** The locale's digits 0-9 (e.g. Arabic-Indic), index = value. */
  readonly digits: readonly string[];
  /** "," in de-DE, "." in en-US. */
  readonly decimal: string;
  /** "." in de-DE, "," in en-US, U+202F (narrow no-break space) in fr-FR, an apostrophe in de-CH. */
  readonly group: string;
}

const numberSymbols = new Map<string, LocaleNumberSymbols>();

/** The locale's digits and separators, read from Intl's own formatting of a grouped decimal (never a JS number). */
export function localeNumberSymbols(locale: string): LocaleNumberSymbols {
  let symbols = numberSymbols.get(locale);
  if (symbols === undefined) {
    const integers = new Intl.NumberFormat(locale, { useGrouping: false });
    const parts = new Intl.NumberFormat(locale, { useGrouping: true, minimumFractionDigits: 1 }).formatToParts('1234567.5');
    symbols = {
      digits: Array.from({ length: 10 }, (_, digit) => integers.format(String(digit) as `${number}`)),
      decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
      group: parts.find((part) => part.type === 'group')?.value ?? ',',
    };
    numberSymbols.set(locale, symbols);
  }
  return symbols;
}

const amountFormatters = new Map<string, AmountFormatter>();

function amountFormatter(locale: string, fractionDigits: number): AmountFormatter {
  const key = `${locale}|${fractionDigits}`;
  let formatter = amountFormatters.get(key);
  if (formatter === undefined) {
    const format = new Intl.NumberFormat(locale, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits, useGrouping: true });
    formatter = { format, digits: localeNumberSymbols(locale).digits };
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

