// CSV writing for exports (RFC 4180 quoting) with a guard against spreadsheet formula injection, and instants written
// in the desk's reporting time zone with its offset (one unambiguous instant, readable in local time).
import { isoInZone } from '../../contract';

/** Cells a spreadsheet would run as a formula get a leading apostrophe (OWASP CSV injection guidance). */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !/^-?[0-9]+(\.[0-9]+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** An instant as ISO 8601 in the reporting zone, to the millisecond: `2026-11-23T21:05:00.000+01:00`, `…Z` in UTC. */
export function csvInstant(ms: number, timeZone: string): string {
  return isoInZone(ms, timeZone, { milliseconds: true });
}
