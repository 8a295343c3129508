// Text output for people: aligned tables, times in the desk's reporting time zone with its offset, and small phrases. Money is shown exactly as the engine
// gave it (decimal strings are only padded, never converted to numbers). Cells are escaped (ESC shows as ⟨U+001B⟩) before they are
// measured, so a control character in a memo or name can neither act on the terminal nor break the columns. Every cell
// and field is one line (a newline in it shows as ⟨U+000A⟩), so a memo cannot print a line that looks like a field of
// its own; a multi-line text (a rejection reason) is printed with `block`, each of its lines marked.
import { blockLines, escapeSingleLine, isoInZone, type BatchLineRef } from '../contract';

export type Align = 'left' | 'right';

/** An aligned table: a header row, then the rows; columns two spaces apart, no trailing spaces. */
export function table(rawHeaders: readonly string[], rawRows: readonly (readonly string[])[], align: readonly Align[] = []): string {
  const headers = rawHeaders.map(escapeSingleLine);
  const rows = rawRows.map((row) => row.map(escapeSingleLine));
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    widths
      .map((width, column) => {
        const cell = cells[column] ?? '';
        return align[column] === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].map((text) => `${text}\n`).join('');
}

/** An address with the name of its payee beside it when the signed book gives it one (cells are escaped by `table`/`fields`). */
export function addressWithPayee(address: string, payee: string | null | undefined): string {
  return payee === null || payee === undefined ? address : `${address} (payee ${payee})`;
}

/** Label/value pairs, the labels padded to one width. */
export function fields(rawPairs: readonly (readonly [string, string])[]): string {
  const pairs = rawPairs.map(([label, value]) => [escapeSingleLine(label), escapeSingleLine(value)] as const);
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${value}\n`).join('');
}

/**
 * A platform record's fields, one `  name: value` line each in the record's order: strings as they are, anything else
 * as JSON. Names and values are escaped (they are text from the service).
 */
export function recordLines(record: Readonly<Record<string, unknown>>, indent = '  '): string {
  return Object.entries(record)
    .map(([name, value]) => `${indent}${escapeSingleLine(name)}: ${escapeSingleLine(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value))}\n`)
    .join('');
}

/**
 * A text that may have several lines (a rejection reason) after its heading: `heading: text` on one line when it has
 * one line, otherwise `heading:` on a line of its own and then every line of `text` marked `  | `.
 */
export function block(heading: string, text: string): string {
  if (!text.includes('\n')) return `${escapeSingleLine(`${heading}: ${text}`)}\n`;
  return `${escapeSingleLine(`${heading}:`)}\n${blockLines(text)}`;
}

/** In the reporting zone, to the second, with the zone's offset: `2024-05-01 14:00:00+02:00`, `2024-05-01 12:00:00Z` in UTC. */
export function formatTime(ms: number | null, timeZone: string): string {
  if (ms === null) return '-';
  return isoInZone(ms, timeZone, { separator: ' ' });
}

export function orDash(value: string | null | undefined): string {
  return value === null || value === undefined || value === '' ? '-' : value;
}

/**
 * Which batch payout a withdrawal is a line of: `batch 3 line 7 (ABCD-EFGH-JKLM-NPQR)`; `?` for what altered rows no
 * longer tell (a batch or line row gone), and no fingerprint when the stored batch no longer matches what was signed.
 */
export function batchLineText(batch: BatchLineRef): string {
  const fingerprint = batch.fingerprint ?? 'no verified fingerprint: the stored batch was altered';
  return `batch ${batch.id ?? '?'} line ${batch.line ?? '?'} (${fingerprint})`;
}

export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/**
 * Two addresses one above the other with `^` under every differing position, so a look-alike shows its trick:
 *   known  TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL
 *   typed  TNPeXXaFB7K9cmo4uQpcU32zGK8G1NYqeL
 *              ^^
 */
export function differenceMarks(known: string, typed: string, positions: readonly number[], indent = '  '): string {
  const width = Math.max(known.length, typed.length);
  const marks = Array.from({ length: width }, (_, index) => (positions.includes(index) ? '^' : ' ')).join('').trimEnd();
  return `${indent}known  ${known}\n${indent}typed  ${typed}\n${indent}       ${marks}\n`;
}
