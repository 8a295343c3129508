// The statements feature: period statements (statements/build, statements/exportCsv, statements/html, and
// statements/savePdf for the page a face printed), the withdrawals CSV export (withdrawals/exportCsv) and the accounting
// journals for Xero and QuickBooks Online (accounting/export). Reads the
// cache only; the exports are written whole or not at all, each recorded in the audit log.
import type { TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import { buildPeriodStatement } from './period-statement';
import { periodStatementCsv } from './statement-csv';
import { buildAuditorPack } from './auditor-pack';
import { periodStatementHtml } from './statement-html';
import { WITHDRAWALS_CSV_COLUMNS, withdrawalCsvLine } from './withdrawals-csv';
import type { SessionLock } from '../session';
import { csvLine } from '../export/csv';
import { labelledRefs } from '../labels';
import { payeeNameOf } from '../address-book';
import { CURRENCIES, isCurrencySymbol } from '../../chains';
import { listWithdrawalRequests } from '../withdrawals';
import { EXPORT_PAGE, type Handle } from '../kernel/handle';
import { writeFileAtomically } from '../files/named-files';
import { buildJournals, journalRecords, journalsCsv } from './accounting-journal';
import { parseAccountMapping } from './accounting-mapping';

export interface StatementsFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection;
  /** For the reporting time zone, when a request names none. */
  readonly session: SessionLock;
}

type StatementMethods = 'audit/pack' | 'statements/build' | 'statements/exportCsv' | 'statements/html' | 'statements/savePdf' | 'withdrawals/exportCsv' | 'accounting/export';

/** Every PDF file starts with this (ISO 32000-1, 7.5.2). */
const PDF_HEADER = '%PDF-';

export function statementsHandlers({ context, session }: StatementsFeatureDeps, handle: Handle): Pick<TreasuryHandlers, StatementMethods> {
  const profileName = (): string => context.activeProfile().name;
  const statementOf = (request: { readonly from: number; readonly to: number; readonly timeZone?: string | undefined }) =>
    buildPeriodStatement(context, { from: request.from, to: request.to, timeZone: request.timeZone ?? session.reportingTimeZone() });

  return {
    'statements/build': handle('statements/build', (request) => statementOf(request)),
    'audit/pack': handle('audit/pack', (request) => {
      const pack = buildAuditorPack(context, statementOf(request));
      writeFileAtomically(request.path, (append) => append(`${JSON.stringify(pack, null, 2)}\n`));
      context.audit({
        profile: profileName(),
        action: 'audit/pack',
        subject: request.path,
        details: { from: pack.statement.from, to: pack.statement.to, rows: pack.chain.length, fingerprint: pack.auditHead.fingerprint },
      });
      return { path: request.path, rows: pack.chain.length, auditHead: pack.auditHead };
    }),
    'statements/exportCsv': handle('statements/exportCsv', (request) => {
      const statement = statementOf(request);
      writeFileAtomically(request.path, (append) => append(periodStatementCsv(statement)));
      context.audit({
        profile: profileName(),
        action: 'statements/export',
        subject: request.path,
        details: { from: statement.from, to: statement.to, timeZone: statement.timeZone, format: 'csv' },
      });
      return { currencies: statement.currencies.length, path: request.path, statement };
    }),
    'statements/html': handle('statements/html', (request) => {
      const statement = statementOf(request);
      return { html: periodStatementHtml(statement), statement };
    }),
    'statements/savePdf': handle('statements/savePdf', (request) => {
      const pdf = Buffer.from(request.pdf, 'base64');
      if (pdf.subarray(0, PDF_HEADER.length).toString('latin1') !== PDF_HEADER) {
        throw new DeskError('invalidInput', 'the statement to save is not a PDF: print it again from the statement', { pdf: 'is not a PDF' });
      }
      writeFileAtomically(request.path, (append) => append(pdf));
      context.audit({
        profile: profileName(),
        action: 'statements/export',
        subject: request.path,
        details: { from: request.from, to: request.to, timeZone: request.timeZone ?? session.reportingTimeZone(), format: 'pdf', bytes: pdf.length },
      });
      return { bytes: pdf.length, path: request.path };
    }),
    'accounting/export': handle('accounting/export', (request) => {
      // The mapping is checked before anything is read or written: a bad one exports nothing.
      const mapping = parseAccountMapping(request.mapping);
      if (request.from >= request.to) {
        throw new DeskError('invalidInput', 'the period must start before it ends: choose an end after the start', { to: 'must be after the start of the period' });
      }
      const timeZone = request.timeZone ?? session.reportingTimeZone();
      const records = journalRecords(context.db, profileName(), request.from, request.to);
      const journals = buildJournals(records, mapping, timeZone);
      const head = context.trail.head();
      const auditHead = head === null ? null : { seq: head.seq, fingerprint: head.fingerprint };
      const csv = journalsCsv(request.format, journals, mapping, auditHead);
      writeFileAtomically(request.path, (append) => append(csv));
      const lines = journals.reduce((count, journal) => count + journal.lines.length, 0);
      context.audit({
        profile: profileName(),
        action: 'accounting/export',
        subject: request.path,
        details: { format: request.format, from: request.from, to: request.to, timeZone, records: records.length, journals: journals.length, lines },
      });
      return { path: request.path, format: request.format, records: records.length, journals: journals.length, lines, timeZone, auditHead };
    }),
    'withdrawals/exportCsv': handle('withdrawals/exportCsv', (request) => {
      const timeZone = session.reportingTimeZone();
      // The same label match as withdrawals/list, so the file holds what the filtered list shows.
      const userOrders = labelledRefs(context.db, profileName(), 'withdrawal', request.label);
      let rows = 0;
      // The payee column from the signed roster as it stands now (an address unbooked since shows none).
      const roster = context.trail.roster(profileName(), { cached: true });
      const payeeOf = (currency: string, address: string): string | null => (isCurrencySymbol(currency) ? payeeNameOf(roster, CURRENCIES[currency].chain, address) : null);
      writeFileAtomically(request.path, (append) => {
        append(csvLine(WITHDRAWALS_CSV_COLUMNS));
        let after: string | null = null;
        do {
          const page = listWithdrawalRequests(context.db, {
            profile: profileName(),
            limit: EXPORT_PAGE,
            after,
            ...(request.state ? { state: request.state } : {}),
            ...(userOrders !== undefined ? { userOrders } : {}),
          });
          for (const withdrawal of page.rows) append(withdrawalCsvLine(withdrawal, timeZone, payeeOf(withdrawal.currency, withdrawal.toAddress)));
          rows += page.rows.length;
          after = page.nextCursor;
        } while (after !== null);
      });
      context.audit({ profile: profileName(), action: 'withdrawals/export', subject: request.path, details: { rows, timeZone, state: request.state ?? null, label: request.label ?? null } });
      return { rows, path: request.path };
    }),
  };
}
