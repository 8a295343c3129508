// The period journals of the accounting exports (accounting/export): the desk's verified records of a period — deposits
// credited, withdrawal and payout orders final with success, with their fees — as double-entry lines per currency and
// day (the reporting zone's calendar), then written in Xero's or QuickBooks Online's import columns
// (accounting-formats.ts). Amounts stay in each currency's own units, exact, in decimal.js.
// Invariant: every journal balances to the last decimal (debits = credits), fees are on lines of their own, and a
// journal never mixes currencies.
import { Money } from '../../chains/amounts';
import { isoInZone, type AccountingFormat } from '../../contract';
import type { ReadableDB } from '../store/database';
import { csvLine } from '../export/csv';
import { DeskError } from '../kernel/errors';
import { EXPORT_PAGE } from '../kernel/handle';
import { listDeposits } from '../deposits';
import { getLabel } from '../labels';
import { listWithdrawalRequests } from '../withdrawals';
import { formatImportDate, IMPORT_FORMATS } from './accounting-formats';
import type { AccountMapping } from './accounting-mapping';

/** One verified movement of the period, as the journals need it. */
export interface JournalRecord {
  readonly kind: 'deposit' | 'withdrawal';
  /** When it happened for the books: a deposit when the desk first saw it credited, an order when it became final. */
  readonly at: number;
  readonly currency: string;
  /** A deposit's credited amount (net of its fee); an order's amount sent (its fee apart). */
  readonly amount: string;
  readonly fee: string;
  /** The deposit's apiOrder, the order's userOrder: what ties a line to the desk's records. */
  readonly ref: string;
  readonly label: string | null;
}

export interface JournalLine {
  readonly account: string;
  /** Positive: debit; negative: credit. */
  readonly amount: Money;
  readonly description: string;
}

export interface Journal {
  /** The calendar date in the reporting zone. */
  readonly date: { readonly year: number; readonly month: number; readonly day: number };
  readonly currency: string;
  readonly lines: readonly JournalLine[];
}

export interface AuditHeadMark {
  readonly seq: number;
  readonly fingerprint: string;
}

/** The period's verified records of the active profile: deposits first seen in [from, to), orders final with success in it. */
export function journalRecords(db: ReadableDB, profile: string, from: number, to: number): JournalRecord[] {
  const records: JournalRecord[] = [];
  const labelOf = (type: 'deposit' | 'withdrawal', ref: string): string | null => getLabel(db, profile, type, ref)?.label ?? null;
  let after: string | null = null;
  do {
    const page = listDeposits(db, { profile, from, to, limit: EXPORT_PAGE, after });
    for (const deposit of page.rows) {
      records.push({ kind: 'deposit', at: deposit.firstSeenAt, currency: deposit.currency, amount: deposit.amount, fee: deposit.fee, ref: deposit.apiOrder, label: labelOf('deposit', deposit.apiOrder) });
    }
    after = page.nextCursor;
  } while (after !== null);
  do {
    const page = listWithdrawalRequests(db, { profile, state: 'completed', limit: EXPORT_PAGE, after });
    for (const order of page.rows) {
      const at = order.orderStatusAt;
      if (order.orderStatus !== 'success' || at === null || at < from || at >= to) continue;
      records.push({ kind: 'withdrawal', at, currency: order.currency, amount: order.amount, fee: order.fee ?? '0', ref: order.userOrder, label: labelOf('withdrawal', order.userOrder) });
    }
    after = page.nextCursor;
  } while (after !== null);
  return records.sort((a, b) => a.at - b.at || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}

function calendarDate(ms: number, timeZone: string): Journal['date'] {
  const iso = isoInZone(ms, timeZone);
  return { year: Number(iso.slice(0, 4)), month: Number(iso.slice(5, 7)), day: Number(iso.slice(8, 10)) };
}

/** A record's lines: the asset account against the label's account (or clearing), and the fee on lines of its own. */
function recordLines(record: JournalRecord, mapping: AccountMapping): JournalLine[] {
  const asset = mapping.currencies.get(record.currency.toLowerCase());
  if (asset === undefined) throw new Error(`no account for ${record.currency}`); // checked before, in buildJournals
  const other = (record.label === null ? undefined : mapping.labels.get(record.label.trim().toLowerCase())) ?? mapping.clearing;
  const amount = new Money(record.amount);
  const fee = new Money(record.fee);
  const labelled = record.label === null ? '' : ` (${record.label})`;
  const lines: JournalLine[] = [];
  if (record.kind === 'deposit') {
    const gross = amount.plus(fee);
    lines.push({ account: asset, amount, description: `Deposit ${record.amount} ${record.currency} credited, apiOrder ${record.ref}${labelled}` });
    if (!fee.isZero()) lines.push({ account: mapping.fees, amount: fee, description: `Deposit fee ${record.fee} ${record.currency}, apiOrder ${record.ref}` });
    lines.push({ account: other, amount: gross.negated(), description: `Deposit ${gross.toFixed()} ${record.currency} received, apiOrder ${record.ref}${labelled}` });
  } else {
    lines.push({ account: other, amount, description: `Withdrawal ${record.amount} ${record.currency} paid, userOrder ${record.ref}${labelled}` });
    lines.push({ account: asset, amount: amount.negated(), description: `Withdrawal ${record.amount} ${record.currency} sent, userOrder ${record.ref}` });
    if (!fee.isZero()) {
      lines.push({ account: mapping.fees, amount: fee, description: `Withdrawal fee ${record.fee} ${record.currency}, userOrder ${record.ref}` });
      lines.push({ account: asset, amount: fee.negated(), description: `Withdrawal fee ${record.fee} ${record.currency} paid, userOrder ${record.ref}` });
    }
  }
  return lines;
}

/**
 * The journals of the records: one per currency and calendar day in `timeZone`, in date then currency order. Refused
 * (nothing exported) when a currency of the records has no asset account in the mapping.
 */
export function buildJournals(records: readonly JournalRecord[], mapping: AccountMapping, timeZone: string): Journal[] {
  const unmapped = [...new Set(records.map((record) => record.currency.toLowerCase()).filter((currency) => !mapping.currencies.has(currency)))].sort();
  if (unmapped.length > 0) {
    throw new DeskError(
      'invalidInput',
      `the account mapping has no account for ${unmapped.join(', ')}, which ${unmapped.length === 1 ? 'has' : 'have'} records in the period; nothing was exported: add ${unmapped.map((currency) => `"currency,${currency},<account>"`).join(' and ')} to the mapping`,
      { mapping: `no account for ${unmapped.join(', ')}` },
    );
  }
  const journals = new Map<string, { date: Journal['date']; currency: string; lines: JournalLine[] }>();
  for (const record of records) {
    const date = calendarDate(record.at, timeZone);
    const key = `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')} ${record.currency}`;
    let journal = journals.get(key);
    if (journal === undefined) {
      journal = { date, currency: record.currency, lines: [] };
      journals.set(key, journal);
    }
    journal.lines.push(...recordLines(record, mapping));
  }
  const built = [...journals.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, journal]) => journal);
  for (const journal of built) {
    const sum = journal.lines.reduce((total, line) => total.plus(line.amount), new Money(0));
    if (!sum.isZero()) throw new Error(`journal ${journal.currency} does not balance by ${sum.toFixed()}`); // a bug, never bad input
  }
  return built;
}

const magnitude = (amount: Money): string => amount.abs().toFixed();

function isoDate(date: Journal['date']): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** The journals as the format's import CSV (header first), the audit head named in each Xero narration and each QuickBooks line. */
export function journalsCsv(format: AccountingFormat, journals: readonly Journal[], mapping: AccountMapping, head: AuditHeadMark | null): string {
  const spec = IMPORT_FORMATS[format];
  const lineCount = journals.reduce((count, journal) => count + journal.lines.length, 0);
  if (spec.maxLines !== null && lineCount > spec.maxLines) {
    throw new DeskError(
      'invalidInput',
      `the period makes ${lineCount} journal lines; a ${spec.name} file holds at most ${spec.maxLines}: export a shorter period (--from and --to) and import the files one after the other`,
      { to: `the period makes more than ${spec.maxLines} lines` },
    );
  }
  const audit = head === null ? 'audit log empty' : `audit head ${head.seq} ${head.fingerprint}`;
  const out: string[] = [csvLine(spec.columns.map((column) => column.header))];
  journals.forEach((journal, index) => {
    const date = formatImportDate(format, journal.date);
    switch (format) {
      case 'xero': {
        const narration = `Treasury desk ${journal.currency} ${isoDate(journal.date)}, ${audit}`;
        for (const line of journal.lines) {
          out.push(csvLine([narration, date, line.description, line.account, mapping.xeroTaxRate, line.amount.toFixed(), '', '', '', '']));
        }
        break;
      }
      case 'quickbooks': {
        // Journal No. is at most 21 characters in QuickBooks Online: the day and the journal's place in the file.
        const number = `TD${isoDate(journal.date).replaceAll('-', '')}-${index + 1}`;
        for (const line of journal.lines) {
          const debit = line.amount.greaterThan(0) ? magnitude(line.amount) : '';
          const credit = line.amount.lessThan(0) ? magnitude(line.amount) : '';
          out.push(csvLine([number, date, line.account, `${line.description}; ${audit}`, debit, credit, '']));
        }
        break;
      }
      default: {
        const never: never = format;
        throw new Error(`unknown accounting format ${String(never)}`);
      }
    }
  });
  return out.join('');
}
