// The statements feature: period statements (statements/build, statements/exportCsv, statements/html) and the
// withdrawals CSV export (withdrawals/exportCsv). Reads the cache only; the exports are written whole or not at all.
import type { TreasuryHandlers } from '../../contract';
import type { DeskContext } from '../context';
import { buildPeriodStatement } from '../reports/period-statement';
import { periodStatementCsv } from '../reports/statement-csv';
import { periodStatementHtml } from '../reports/statement-html';
import { WITHDRAWALS_CSV_COLUMNS, withdrawalCsvLine } from '../reports/withdrawals-csv';
import type { SessionLock } from '../session';
import { csvLine } from '../export/csv';
import { listWithdrawalRequests } from '../store';
import { EXPORT_PAGE, writeFileAtomically, type Handle } from './handle';

export interface StatementsFeatureDeps {
  readonly context: DeskContext;
  /** For the reporting time zone, when a request names none. */
  readonly session: SessionLock;
}

type StatementMethods = 'statements/build' | 'statements/exportCsv' | 'statements/html' | 'withdrawals/exportCsv';

export function statementsHandlers({ context, session }: StatementsFeatureDeps, handle: Handle): Pick<TreasuryHandlers, StatementMethods> {
  const profileName = (): string => context.activeProfile().name;
  const statementOf = (request: { readonly from: number; readonly to: number; readonly timeZone?: string | undefined }) =>
    buildPeriodStatement(context, { from: request.from, to: request.to, timeZone: request.timeZone ?? session.reportingTimeZone() });

  return {
    'statements/build': handle('statements/build', (request) => statementOf(request)),
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
    'withdrawals/exportCsv': handle('withdrawals/exportCsv', (request) => {
      const timeZone = session.reportingTimeZone();
      let rows = 0;
      writeFileAtomically(request.path, (append) => {
        append(csvLine(WITHDRAWALS_CSV_COLUMNS));
        let after: string | null = null;
        do {
          const page = listWithdrawalRequests(context.db, { profile: profileName(), limit: EXPORT_PAGE, after, ...(request.state ? { state: request.state } : {}) });
          for (const withdrawal of page.rows) append(withdrawalCsvLine(withdrawal, timeZone));
          rows += page.rows.length;
          after = page.nextCursor;
        } while (after !== null);
      });
      context.audit({ profile: profileName(), action: 'withdrawals/export', subject: request.path, details: { rows, timeZone, state: request.state ?? null } });
      return { rows, path: request.path };
    }),
  };
}
