// Display helpers: money strings grouped for reading in the person's locale without ever becoming JavaScript numbers (and
// amounts typed in that locale read back into canonical decimal strings),
// times in the desk's reporting time zone (zone shown) in the person's locale, ages, and text typed on this screen echoed
// back with its control and text-direction characters escaped.
import type { CurrencySymbol } from '../../electron/chains';
import { CURRENCIES, isCurrencySymbol } from '../../electron/chains';
import { amountInputText, parseAmountInput, type AmountInput } from '../../electron/contract/amount-input';
import { groupAmount as groupAmountIn } from '../../electron/contract/amount-text';
import { escapeUnsafeText } from '../../electron/contract/display-text';
import { dateToMs } from '../../electron/contract/time-zone';
import { currentLocale, t } from './i18n';
import { amountWords } from './i18n/amounts';
import { currencyNameFor } from './i18n/sentences';

/**
 * Text to show as is: control and text-direction characters become a visible mark such as ⟨U+001B⟩. Answers from the engine are
 * already escaped (api.ts); use this where the screen echoes what someone typed before it is sent.
 */
export function displayText(text: string): string {
  return escapeUnsafeText(text);
}

/** The locale numbers and dates are formatted for: the chosen language's (i18n: Settings, else the system's). */
export function displayLocale(): string {
  return currentLocale();
}

/**
 * A decimal amount string grouped the locale's way, every digit kept (contract/amount-text groupAmount), in the
 * person's locale unless one is given.
 */
export function groupAmount(amount: string, locale: string = displayLocale()): string {
  return groupAmountIn(amount, locale);
}

/**
 * An amount as the person typed it, read in their locale (contract/amount-input parseAmountInput): the canonical decimal
 * string to preflight, confirm and sign, or why it was refused and what to type instead, in the window's language.
 */
export function readTypedAmount(text: string, locale: string = displayLocale()): AmountInput {
  return parseAmountInput(text, locale, amountWords());
}

/** A canonical amount as the text an amount field starts with in the person's locale ("1250.5" → "1250,5" in German). */
export function typedAmountText(canonical: string, locale: string = displayLocale()): string {
  return amountInputText(canonical, locale);
}

export const HIDDEN_AMOUNT = '••••••';

/** A currency's name in the window's language: "USDT on TRON", "USDT auf TRON"; an unknown symbol as it is. */
export function currencyLabel(symbol: string): string {
  return isCurrencySymbol(symbol) ? currencyNameFor(symbol) : symbol;
}

/** A currency the engine named: the window's name for it when this version knows it, else the engine's (a new currency). */
export function currencyNameOf(currency: { readonly symbol: string; readonly displayName: string }): string {
  return isCurrencySymbol(currency.symbol) ? currencyNameFor(currency.symbol) : currency.displayName;
}

export function assetOf(symbol: string): string {
  return isCurrencySymbol(symbol) ? CURRENCIES[symbol].asset : symbol.toUpperCase();
}

export function decimalsOf(symbol: CurrencySymbol): number {
  return CURRENCIES[symbol].decimals;
}

/** How much of an instant to show: everything (details), a dense table's cell, or the clock time alone. */
type TimeStyle = 'full' | 'compact' | 'time';

const TIME_STYLES: Readonly<Record<TimeStyle, Intl.DateTimeFormatOptions>> = {
  full: { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' },
  compact: { year: '2-digit', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' },
  time: { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' },
};

const dateTimeFormatters = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormatter(locale: string, timeZone: string, style: TimeStyle): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${style}`;
  let formatter = dateTimeFormatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone, ...TIME_STYLES[style] });
    dateTimeFormatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Date and time in the reporting zone, the zone named: "Nov 23, 2026, 09:05:00 PM GMT+1" (en-US), "23. Nov. 2026,
 * 21:05:00 MEZ" (de-DE); compact for dense tables, "11/23/26, 09:05 PM GMT+1".
 */
export function formatDateTime(ms: number, timeZone: string, locale: string = displayLocale(), style: 'full' | 'compact' = 'full'): string {
  return dateTimeFormatter(locale, timeZone, style).format(ms);
}

/** Clock time in the reporting zone, the zone named: "09:05 PM UTC". */
export function formatTime(ms: number, timeZone: string, locale: string = displayLocale()): string {
  return dateTimeFormatter(locale, timeZone, 'time').format(ms);
}

/** "just now", "2 min ago", "3 h ago", "4 days ago" (German: "gerade eben", "vor 2 Min.", …). */
export function timeAgo(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 45) return t('common.time.justNow');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('common.time.minutesAgo', { minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 36) return t('common.time.hoursAgo', { hours });
  return t('common.time.daysAgo', { days: Math.round(hours / 24) });
}

/** An instant relative to now: "in 5 min", "in 23 h", "in 3 days" ahead; as timeAgo behind ("2 h ago"). */
export function timeFromNow(ms: number, now: number): string {
  if (ms <= now) return timeAgo(ms, now);
  const minutes = Math.round((ms - now) / 60_000);
  if (minutes < 1) return t('common.time.inUnderAMinute');
  if (minutes < 60) return t('common.time.inMinutes', { minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 36) return t('common.time.inHours', { hours });
  return t('common.time.inDays', { days: Math.round(hours / 24) });
}

/** Seconds as "5 min", "1 h 30 min", "off" for 0. */
export function formatDuration(seconds: number): string {
  if (seconds <= 0) return t('common.duration.off');
  if (seconds < 60) return t('common.duration.seconds', { seconds });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return t('common.duration.minutes', { minutes });
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? t('common.duration.hours', { hours }) : t('common.duration.hoursMinutes', { hours, minutes: rest });
}

/** A calendar date "YYYY-MM-DD" (a date input) as midnight in the reporting zone; null when empty or malformed. */
export function dateInputToMs(value: string, timeZone: string, endOfDay = false): number | null {
  return dateToMs(value, timeZone, endOfDay);
}

/** Middle-truncates long identifiers for dense tables; the full text goes in a title. */
export function shorten(text: string, keep = 10): string {
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`;
}
