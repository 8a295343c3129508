// Display helpers: money strings grouped for reading without ever becoming JavaScript numbers, times and ages, and
// text typed on this screen echoed back with its control and text-direction characters escaped.
import type { CurrencySymbol } from '../../electron/chains';
import { CURRENCIES, isCurrencySymbol } from '../../electron/chains';
import { escapeUnsafeText } from '../../electron/contract/display-text';

/**
 * Text to show as is: control and text-direction characters become a visible mark such as ⟨U+001B⟩. Answers from the engine are
 * already escaped (api.ts); use this where the screen echoes what someone typed before it is sent.
 */
export function displayText(text: string): string {
  return escapeUnsafeText(text);
}

const DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/;

/** "1234567.000001" → "1,234,567.000001": digits are only regrouped, never rounded or converted. */
export function groupAmount(amount: string): string {
  const match = DECIMAL.exec(amount);
  if (match === null) return amount;
  const integer = (match[1] ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return match[2] === undefined ? integer : `${integer}.${match[2]}`;
}

export const HIDDEN_AMOUNT = '••••••';

export function currencyLabel(symbol: string): string {
  return isCurrencySymbol(symbol) ? CURRENCIES[symbol].displayName : symbol;
}

export function assetOf(symbol: string): string {
  return isCurrencySymbol(symbol) ? CURRENCIES[symbol].asset : symbol.toUpperCase();
}

export function decimalsOf(symbol: CurrencySymbol): number {
  return CURRENCIES[symbol].decimals;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** Local date and time, "2026-11-23 10:42:05". */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function formatTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "just now", "2 min ago", "3 h ago", "4 days ago". */
export function timeAgo(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** Seconds as "5 min", "1 h 30 min", "off" for 0. */
export function formatDuration(seconds: number): string {
  if (seconds <= 0) return 'off';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A local calendar date "YYYY-MM-DD" as epoch ms at local midnight; null when empty or malformed. */
export function dateInputToMs(value: string, endOfDay = false): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + (endOfDay ? 1 : 0));
  const ms = date.getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** Middle-truncates long identifiers for dense tables; the full text goes in a title. */
export function shorten(text: string, keep = 10): string {
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`;
}
