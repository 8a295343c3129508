// Reads a batch payout CSV (docs/payouts.md): UTF-8 (a byte-order mark is skipped), CRLF or LF, RFC 4180 quoting
// (csv-parse), a header naming the columns currency, amount, toAddress, memo and, optionally, userOrder in any order.
// Pure: it says what each line holds or what is wrong with the file; the preflight of each payout is batch.ts's.
// Invariant: a file it cannot read whole is refused whole, with the file line where reading stopped.
import { parse } from 'csv-parse/sync';
import { MEMO_MAX_LENGTH, unsafeTextProblem } from '../../contract';
import { USER_ORDER_PATTERN } from '../../protocol/profile';

/** Larger files are refused before they are read: 5,000 payouts of long TON addresses and memos fit well within. */
export const PAYOUT_FILE_MAX_BYTES = 2 * 1024 * 1024;
export const PAYOUT_MAX_LINES = 5000;
const CELL_MAX_CHARS = 1000;

export const REQUIRED_COLUMNS = ['currency', 'amount', 'toAddress', 'memo'] as const;
export const OPTIONAL_COLUMNS = ['userOrder'] as const;
type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];
const KNOWN_COLUMNS: readonly Column[] = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS];

/** One payout as the file gives it: text, trimmed (the memo as written), not yet checked against any currency. */
export interface PayoutRow {
  /** 1 = the first payout after the header (a spreadsheet shows it on row line + 1). */
  readonly line: number;
  readonly currency: string;
  readonly amount: string;
  readonly toAddress: string;
  readonly memo: string | null;
  readonly userOrder: string | null;
}

export interface PayoutRowProblem {
  readonly line: number;
  readonly field: string;
  readonly message: string;
}

export type PayoutFileReading =
  | { readonly ok: true; readonly rows: readonly PayoutRow[]; readonly problems: readonly PayoutRowProblem[] }
  | { readonly ok: false; readonly reason: string };

interface ParsedRecord {
  readonly record: string[];
}

function headerProblem(header: readonly string[]): string | null {
  const names = header.map((name) => name.trim());
  const unknown = names.filter((name) => !KNOWN_COLUMNS.some((known) => known.toLowerCase() === name.toLowerCase()));
  if (unknown.length > 0) return `the header names unknown column${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => JSON.stringify(name)).join(', ')}`;
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name.toLowerCase())) return `the header names the column ${name} twice`;
    seen.add(name.toLowerCase());
  }
  const missing = REQUIRED_COLUMNS.filter((column) => !seen.has(column.toLowerCase()));
  return missing.length > 0 ? `the header lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}` : null;
}

const HEADER_HELP = `the first line must name the columns ${REQUIRED_COLUMNS.join(', ')} (and optionally ${OPTIONAL_COLUMNS.join(', ')}), e.g. "currency,amount,toAddress,memo,userOrder"`;

/** Reads the file's text into payout rows and per-line problems of form (a bad userOrder, a memo with control characters). */
export function readPayoutCsv(text: string): PayoutFileReading {
  let records: ParsedRecord[];
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true, max_record_size: CELL_MAX_CHARS * 8 }) as unknown as ParsedRecord[];
  } catch (error) {
    const line = (error as { lines?: unknown }).lines;
    const where = typeof line === 'number' ? ` at file line ${line}` : '';
    return { ok: false, reason: `the file is not readable CSV${where}: ${error instanceof Error ? error.message.replace(/^Invalid Record Length: /, '') : String(error)}; save it again as CSV (UTF-8) and retry` };
  }
  const [head, ...body] = records;
  if (head === undefined) return { ok: false, reason: `the file is empty: ${HEADER_HELP}` };
  const problem = headerProblem(head.record);
  if (problem) return { ok: false, reason: `${problem}: ${HEADER_HELP}` };
  if (body.length === 0) return { ok: false, reason: 'the file has a header but no payouts: add one line per payout under the header' };
  if (body.length > PAYOUT_MAX_LINES) return { ok: false, reason: `the file has ${body.length} payouts; a batch holds at most ${PAYOUT_MAX_LINES}: split it into several files` };
  const index = new Map<Column, number>();
  head.record.forEach((name, position) => {
    const column = KNOWN_COLUMNS.find((known) => known.toLowerCase() === name.trim().toLowerCase());
    if (column) index.set(column, position);
  });
  const cell = (record: readonly string[], column: Column): string | undefined => {
    const position = index.get(column);
    return position === undefined ? undefined : record[position];
  };

  const rows: PayoutRow[] = [];
  const problems: PayoutRowProblem[] = [];
  body.forEach(({ record }, position) => {
    const line = position + 1;
    const report = (field: string, message: string): void => {
      problems.push({ line, field, message });
    };
    const tooLong = KNOWN_COLUMNS.find((column) => (cell(record, column)?.length ?? 0) > CELL_MAX_CHARS);
    if (tooLong) report(tooLong, `longer than ${CELL_MAX_CHARS} characters`);
    const memoText = cell(record, 'memo') ?? '';
    const memo = memoText === '' ? null : memoText.normalize('NFC');
    if (memo !== null) {
      const unsafe = unsafeTextProblem(memo, 'the memo');
      if (unsafe) report('memo', unsafe);
      else if (memo.length > MEMO_MAX_LENGTH) report('memo', `a memo is at most ${MEMO_MAX_LENGTH} characters (the order's remark also carries the fingerprint)`);
    }
    const userOrderText = (cell(record, 'userOrder') ?? '').trim();
    if (userOrderText !== '' && !USER_ORDER_PATTERN.test(userOrderText)) report('userOrder', 'a userOrder is 1 to 64 letters, digits, "_" or "-" (PROTOCOL §8)');
    rows.push({
      line,
      currency: (cell(record, 'currency') ?? '').trim(),
      amount: (cell(record, 'amount') ?? '').trim(),
      toAddress: (cell(record, 'toAddress') ?? '').trim(),
      memo,
      userOrder: userOrderText === '' ? null : userOrderText,
    });
  });
  return { ok: true, rows, problems };
}
