// The accounting exports (issue 22 item 5) as every face calls them: the import formats, the request's limits and the
// answer of `accounting/export` (period journals for Xero or QuickBooks Online, from the desk's verified records).
import { z } from 'zod';

export const ACCOUNTING_FORMATS = ['xero', 'quickbooks'] as const;
export type AccountingFormat = (typeof ACCOUNTING_FORMATS)[number];
export const accountingFormat = z.enum(ACCOUNTING_FORMATS, { error: 'the format is xero or quickbooks' });

/** A mapping is a few dozen lines of kind,key,account; anything larger is not one. */
export const ACCOUNT_MAPPING_MAX_CHARS = 256 * 1024;
export const accountMappingText = z.string().max(ACCOUNT_MAPPING_MAX_CHARS, `the account mapping is larger than ${ACCOUNT_MAPPING_MAX_CHARS / 1024} KiB; a mapping is a few lines`);

export interface AccountingExport {
  readonly path: string;
  readonly format: AccountingFormat;
  /** Verified records of the period in the file (deposits credited, orders final with success). */
  readonly records: number;
  /** Journals (one per currency and day in the period's zone) and their lines. */
  readonly journals: number;
  readonly lines: number;
  readonly timeZone: string;
  /** The audit head the file names, so an auditor can tie it to the records; null for an empty log. */
  readonly auditHead: { readonly seq: number; readonly fingerprint: string } | null;
}
