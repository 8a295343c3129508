// Reads a batch payout CSV (docs/payouts.md): UTF-8 (a byte-order mark is skipped), CRLF or LF, RFC 4180 quoting
// (files/csv-table.ts), a header naming the columns currency, amount, toAddress, memo and, optionally, userOrder in any order.
// Pure: it says what each line holds or what is wrong with the file; the preflight of each payout is batch.ts's.
// Invariant: a file it cannot read whole is refused whole, with the file line where reading stopped.
import { MEMO_MAX_LENGTH, unsafeTextProblem } from '../../contract';
import { USER_ORDER_PATTERN } from '../../protocol/profile';
import { CSV_CELL_MAX_CHARS, readCsvTable } from '../files/csv-table';

/** Larger files are refused before they are read: 5,000 payouts of long TON addresses and memos fit well within. */
export const PAYOUT_FILE_MAX_BYTES = 2 * 1024 * 1024;
export const PAYOUT_MAX_LINES = 5000;

export const REQUIRED_COLUMNS = ['currency', 'amount', 'toAddress', 'memo'] as const;
export const OPTIONAL_COLUMNS = ['userOrder'] as const;
type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];

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

const HEADER_HELP = `the first line must name the columns ${REQUIRED_COLUMNS.join(', ')} (and optionally ${OPTIONAL_COLUMNS.join(', ')}), e.g. "currency,amount,toAddress,memo,userOrder"`;

/** Reads the file's text into payout rows and per-line problems of form (a bad userOrder, a memo with control characters). */
export function readPayoutCsv(text: string): PayoutFileReading {
  const table = readCsvTable<Column>(text, {
    required: REQUIRED_COLUMNS,
    optional: OPTIONAL_COLUMNS,
    maxLines: PAYOUT_MAX_LINES,
    lineName: 'payout',
    headerHelp: HEADER_HELP,
    emptyHelp: 'the file has a header but no payouts: add one line per payout under the header',
    tooManyHelp: `a batch holds at most ${PAYOUT_MAX_LINES}: split it into several files`,
  });
  if (!table.ok) return table;
  const rows: PayoutRow[] = [];
  const problems: PayoutRowProblem[] = [];
  table.lines.forEach(({ line, cell, tooLong }) => {
    const report = (field: string, message: string): void => {
      problems.push({ line, field, message });
    };
    if (tooLong) report(tooLong, `longer than ${CSV_CELL_MAX_CHARS} characters`);
    const memoText = cell('memo');
    const memo = memoText === '' ? null : memoText.normalize('NFC');
    if (memo !== null) {
      const unsafe = unsafeTextProblem(memo, 'the memo');
      if (unsafe) report('memo', unsafe);
      else if (memo.length > MEMO_MAX_LENGTH) report('memo', `a memo is at most ${MEMO_MAX_LENGTH} characters (the order's remark also carries the fingerprint)`);
    }
    const userOrderText = cell('userOrder').trim();
    if (userOrderText !== '' && !USER_ORDER_PATTERN.test(userOrderText)) report('userOrder', 'a userOrder is 1 to 64 letters, digits, "_" or "-" (PROTOCOL §8)');
    rows.push({
      line,
      currency: cell('currency').trim(),
      amount: cell('amount').trim(),
      toAddress: cell('toAddress').trim(),
      memo,
      userOrder: userOrderText === '' ? null : userOrderText,
    });
  });
  return { ok: true, rows, problems };
}
