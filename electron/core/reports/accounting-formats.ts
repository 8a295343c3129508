// The import formats of the accounting exports (issue 22 item 5), as the services publish them: the columns in their
// order, which are mandatory, the date format, and how a line's amount is written. The one place these lists live:
// the writer and the tests both read them. Invariant: a journal line is written only in these columns.
//
// Sources (read 2026-11-28):
// - Xero, "Enter multiple manual journals using an import template", https://help.xero.com/nz/ManualJournalsImport
//   (Adviser > Manual Journals > Import > Download template file): fields Narration, Date, Description, AccountCode,
//   TaxRate, Amount, TrackingName1, TrackingOption1, TrackingName2, TrackingOption2; Narration, Date, AccountCode,
//   TaxRate and Amount are mandatory; the date is dd/mm/yyyy (or dd mmm yyyy); "Amount will be treated as debit if the
//   amount is positive, or credit, if negative"; rows with the same narration and date are the lines of one journal;
//   "You can import up to 300 lines in one template file". The downloaded template marks the mandatory columns with an
//   asterisk in its header ("*Narration").
// - QuickBooks Online, "Import journal entries" (Intuit help article L4tQBwbs7),
//   https://quickbooks.intuit.com/learn-support/en-au/help-article/import-export-files/import-journal-entries-quickbooks-online/L4tQBwbs7_AU_en_AU:
//   the file includes Journal No., Journal Date, Account Name, Description, Debits, Credits (and Name, needed only on
//   Accounts Payable or Receivable lines); account names as in the chart of accounts, a sub-account as
//   "Parent:Sub"; the lines with one journal number are one entry and must balance. Dates as the import's date format
//   (the US company default MM/DD/YYYY, which the import's mapping step offers).

import type { AccountingFormat } from '../../contract';

export interface ImportColumn {
  /** The header cell exactly as the service's template writes it. */
  readonly header: string;
  readonly required: boolean;
}

export interface ImportFormat {
  readonly name: string;
  readonly columns: readonly ImportColumn[];
  /** The date pattern the service documents, for messages and docs. */
  readonly datePattern: string;
  /** The most lines one file may hold, or null when the service names no limit. */
  readonly maxLines: number | null;
}

export const XERO_MANUAL_JOURNAL: ImportFormat = {
  name: 'Xero manual journal import',
  columns: [
    { header: '*Narration', required: true },
    { header: '*Date', required: true },
    { header: 'Description', required: false },
    { header: '*AccountCode', required: true },
    { header: '*TaxRate', required: true },
    { header: '*Amount', required: true },
    { header: 'TrackingName1', required: false },
    { header: 'TrackingOption1', required: false },
    { header: 'TrackingName2', required: false },
    { header: 'TrackingOption2', required: false },
  ],
  datePattern: 'dd/mm/yyyy',
  maxLines: 300,
};

export const QUICKBOOKS_JOURNAL_ENTRY: ImportFormat = {
  name: 'QuickBooks Online journal entry import',
  columns: [
    { header: 'Journal No.', required: true },
    { header: 'Journal Date', required: true },
    { header: 'Account Name', required: true },
    { header: 'Description', required: false },
    { header: 'Debits', required: false },
    { header: 'Credits', required: false },
    { header: 'Name', required: false },
  ],
  datePattern: 'MM/DD/YYYY',
  maxLines: null,
};

export const IMPORT_FORMATS: Readonly<Record<AccountingFormat, ImportFormat>> = { xero: XERO_MANUAL_JOURNAL, quickbooks: QUICKBOOKS_JOURNAL_ENTRY };

/** A calendar date (as the reporting zone reads it) in the format's documented pattern. */
export function formatImportDate(format: AccountingFormat, date: { readonly year: number; readonly month: number; readonly day: number }): string {
  const dd = String(date.day).padStart(2, '0');
  const mm = String(date.month).padStart(2, '0');
  const yyyy = String(date.year).padStart(4, '0');
  switch (format) {
    case 'xero':
      return `${dd}/${mm}/${yyyy}`;
    case 'quickbooks':
      return `${mm}/${dd}/${yyyy}`;
    default: {
      const never: never = format;
      throw new Error(`unknown accounting format ${String(never)}`);
    }
  }
}
