// Checks an accounting export against the import columns Xero and QuickBooks Online publish (the lists in
// electron/core/reports/accounting-formats.ts, which cite them): the header exactly, every required cell filled, dates
// in the documented pattern, and each journal balancing to the last decimal (debits = credits, in decimal.js).
import { parse } from 'csv-parse/sync';
import { Money } from '../../electron/chains/amounts';
import type { AccountingFormat } from '../../electron/contract';
import { IMPORT_FORMATS } from '../../electron/core/reports/accounting-formats';

const DATE_PATTERNS: Readonly<Record<AccountingFormat, RegExp>> = {
  xero: /^(0[1-9]|[12][0-9]|3[01])\/(0[1-9]|1[0-2])\/[0-9]{4}$/,
  quickbooks: /^(0[1-9]|1[0-2])\/(0[1-9]|[12][0-9]|3[01])\/[0-9]{4}$/,
};
const AMOUNT = /^-?[0-9]+(\.[0-9]+)?$/;

export interface CheckedLine {
  readonly journal: string;
  readonly date: string;
  readonly account: string;
  readonly description: string;
  /** Positive: debit; negative: credit. */
  readonly amount: Money;
}

export interface CheckedImport {
  readonly header: readonly string[];
  readonly lines: readonly CheckedLine[];
  /** Lines per journal (Xero: narration and date; QuickBooks: journal number), in file order. */
  readonly journals: ReadonlyMap<string, readonly CheckedLine[]>;
}

/** The file's lines, or an Error naming the first place it breaks the published specification. */
export function checkImportFile(format: AccountingFormat, text: string): CheckedImport {
  const spec = IMPORT_FORMATS[format];
  const rows = parse(text, { bom: false, relax_column_count: false }) as string[][];
  const [header, ...body] = rows;
  const expected = spec.columns.map((column) => column.header);
  if (header === undefined || header.join('|') !== expected.join('|')) throw new Error(`header ${JSON.stringify(header)} is not ${JSON.stringify(expected)}`);
  if (spec.maxLines !== null && body.length > spec.maxLines) throw new Error(`${body.length} lines, more than ${spec.maxLines}`);
  const at = (row: readonly string[], name: string): string => row[expected.indexOf(name)] ?? '';
  const lines: CheckedLine[] = body.map((row, index) => {
    const where = `line ${index + 2}`;
    spec.columns.forEach((column, position) => {
      if (column.required && (row[position] ?? '').trim() === '') throw new Error(`${where}: required ${column.header} is empty`);
    });
    const date = format === 'xero' ? at(row, '*Date') : at(row, 'Journal Date');
    if (!DATE_PATTERNS[format].test(date)) throw new Error(`${where}: date ${date} is not ${spec.datePattern}`);
    if (format === 'xero') {
      const amount = at(row, '*Amount');
      if (!AMOUNT.test(amount) || new Money(amount).isZero()) throw new Error(`${where}: amount ${amount} is not a non-zero decimal`);
      return { journal: `${at(row, '*Narration')}|${date}`, date, account: at(row, '*AccountCode'), description: at(row, 'Description'), amount: new Money(amount) };
    }
    const debit = at(row, 'Debits');
    const credit = at(row, 'Credits');
    if ((debit === '') === (credit === '')) throw new Error(`${where}: exactly one of Debits and Credits must be filled`);
    const amount = debit === '' ? credit : debit;
    if (!/^[0-9]+(\.[0-9]+)?$/.test(amount) || new Money(amount).isZero()) throw new Error(`${where}: amount ${amount} is not a positive decimal`);
    return { journal: at(row, 'Journal No.'), date, account: at(row, 'Account Name'), description: at(row, 'Description'), amount: debit === '' ? new Money(credit).negated() : new Money(debit) };
  });
  const journals = new Map<string, CheckedLine[]>();
  for (const line of lines) {
    const group = journals.get(line.journal) ?? [];
    group.push(line);
    journals.set(line.journal, group);
  }
  for (const [journal, group] of journals) {
    if (new Set(group.map((line) => line.date)).size !== 1) throw new Error(`journal ${journal} has lines on several dates`);
    const debits = group.filter((line) => line.amount.isPositive()).reduce((sum, line) => sum.plus(line.amount), new Money(0));
    const credits = group.filter((line) => line.amount.isNegative()).reduce((sum, line) => sum.minus(line.amount), new Money(0));
    if (!debits.equals(credits)) throw new Error(`journal ${journal} does not balance: debits ${debits.toFixed()}, credits ${credits.toFixed()}`);
  }
  return { header, lines, journals };
}
