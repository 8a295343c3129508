// Keyset pagination shared by the history queries: an opaque cursor "<time>:<id>" naming the last row shown.
// Pages never use OFFSET: each page seeks in an index to just past the previous page's last row.
import { invalidArgument } from './errors';

export interface Page<T> {
  readonly rows: readonly T[];
  /** Pass as `after` to get the next (older) page; null when this page is the last. */
  readonly nextCursor: string | null;
}

export interface KeysetPosition {
  readonly at: number;
  readonly id: number;
}

export const MAX_PAGE_SIZE = 1000;

export function encodeCursor(position: KeysetPosition): string {
  return `${position.at}:${position.id}`;
}

export function decodeCursor(cursor: string): KeysetPosition {
  const match = /^(-?\d{1,16}):(\d{1,16})$/.exec(cursor);
  if (match === null || match[1] === undefined || match[2] === undefined) throw invalidArgument(`not a page cursor: ${JSON.stringify(cursor.slice(0, 40))}`);
  return { at: Number(match[1]), id: Number(match[2]) };
}

export function checkPageSize(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalidArgument(`page size must be a whole number from 1 to ${MAX_PAGE_SIZE}, not ${limit}`);
  }
  return limit;
}

/** Given up to limit + 1 rows fetched, returns the page and the cursor of its last row when more rows exist. */
export function toPage<T>(fetched: readonly T[], limit: number, position: (row: T) => KeysetPosition): Page<T> {
  if (fetched.length <= limit) return { rows: fetched, nextCursor: null };
  const rows = fetched.slice(0, limit);
  const last = rows[rows.length - 1];
  return { rows, nextCursor: last === undefined ? null : encodeCursor(position(last)) };
}
