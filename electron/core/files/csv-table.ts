// Reads a CSV file's text as a table of named columns (the one reader of batch payouts and payee imports): UTF-8 with
// a byte-order mark skipped, CRLF or LF, RFC 4180 quoting (csv-parse), a header naming the columns in any order and
// any letter case, a bound on lines and cell length. Invariant: a file it cannot read whole is refused whole, with
// the file line where reading stopped; each line after the header keeps its number (1 = the first line after it).
import { parse } from 'csv-parse/sync';

export const CSV_CELL_MAX_CHARS = 1000;

export interface CsvTableSpec<C extends string> {
  readonly required: readonly C[];
  readonly optional: readonly C[];
  /** The most lines after the header, and what one line is called ("payout", "address"). */
  readonly maxLines: number;
  readonly lineName: string;
  /** What the header should look like, said when it is wrong. */
  readonly headerHelp: string;
  /** What to do when the file has a header only. */
  readonly emptyHelp: string;
  /** What to do when the file has too many lines. */
  readonly tooManyHelp: string;
}

/** One line of the table: its number (1 = the first after the header) and its cell of each column ('' when absent). */
export interface CsvLine<C extends string> {
  readonly line: number;
  readonly cell: (column: C) => string;
  /** The first column whose cell is longer than CSV_CELL_MAX_CHARS, if any. */
  readonly tooLong: C | null;
}

export type CsvTableReading<C extends string> = { readonly ok: true; readonly lines: readonly CsvLine<C>[] } | { readonly ok: false; readonly reason: string };

function headerProblem(names: readonly string[], known: readonly string[], required: readonly string[]): string | null {
  const unknown = names.filter((name) => !known.some((column) => column.toLowerCase() === name.toLowerCase()));
  if (unknown.length > 0) return `the header names unknown column${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => JSON.stringify(name)).join(', ')}`;
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name.toLowerCase())) return `the header names the column ${name} twice`;
    seen.add(name.toLowerCase());
  }
  const missing = required.filter((column) => !seen.has(column.toLowerCase()));
  return missing.length > 0 ? `the header lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}` : null;
}

/** Reads the text into lines of named cells, or the one reason the whole file is refused. */
export function readCsvTable<C extends string>(text: string, spec: CsvTableSpec<C>): CsvTableReading<C> {
  let records: { readonly record: string[] }[];
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true, max_record_size: CSV_CELL_MAX_CHARS * 8 }) as unknown as { readonly record: string[] }[];
  } catch (error) {
    const line = (error as { lines?: unknown }).lines;
    const where = typeof line === 'number' ? ` at file line ${line}` : '';
    return { ok: false, reason: `the file is not readable CSV${where}: ${error instanceof Error ? error.message.replace(/^Invalid Record Length: /, '') : String(error)}; save it again as CSV (UTF-8) and retry` };
  }
  const known: readonly C[] = [...spec.required, ...spec.optional];
  const [head, ...body] = records;
  if (head === undefined) return { ok: false, reason: `the file is empty: ${spec.headerHelp}` };
  const names = head.record.map((name) => name.trim());
  const problem = headerProblem(names, known, spec.required);
  if (problem) return { ok: false, reason: `${problem}: ${spec.headerHelp}` };
  if (body.length === 0) return { ok: false, reason: spec.emptyHelp };
  if (body.length > spec.maxLines) return { ok: false, reason: `the file has ${body.length} ${spec.lineName}s; ${spec.tooManyHelp}` };
  const index = new Map<C, number>();
  names.forEach((name, position) => {
    const column = known.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    if (column !== undefined) index.set(column, position);
  });
  const lines = body.map(({ record }, position): CsvLine<C> => {
    const cell = (column: C): string => {
      const at = index.get(column);
      return at === undefined ? '' : (record[at] ?? '');
    };
    return { line: position + 1, cell, tooLong: known.find((column) => cell(column).length > CSV_CELL_MAX_CHARS) ?? null };
  });
  return { ok: true, lines };
}
