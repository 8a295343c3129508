// The deposits feature: the cached deposit history (filtered, searched, or by label) and its CSV export
// (deposits/list, deposits/exportCsv). Reconciliation is reconcile/handlers.ts.
import { unknownFieldsOf, depositRecordSchema } from '../../protocol';
import type { DepositPoisoningMark, DepositView, TreasuryHandlers } from '../../contract';
import { depositPoisoningMarks } from './radar';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import { csvInstant, csvLine } from '../export/csv';
import { checkCurrencyFilter } from './currency-filter';
import type { SessionLock } from '../session';
import { listDeposits, type Deposit, type DepositQuery } from './deposits-table';
import { labelledRefs } from '../labels';
import { DEFAULT_PAGE, EXPORT_PAGE, type Handle } from '../kernel/handle';
import { writeFileAtomically } from '../files/named-files';

export interface DepositsFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection;
  /** For the reporting time zone of exports. */
  readonly session: SessionLock;
}

export function depositView(deposit: Deposit, poisoning: DepositPoisoningMark | null = null): DepositView {
  return {
    id: deposit.id,
    apiOrder: deposit.apiOrder,
    txid: deposit.txid,
    address: deposit.address,
    addressType: deposit.addressType,
    fromAddress: deposit.fromAddress,
    amount: deposit.amount,
    fee: deposit.fee,
    currency: deposit.currency,
    userOrder: deposit.userOrder,
    source: deposit.source,
    firstSeenAt: deposit.firstSeenAt,
    lastSeenAt: deposit.lastSeenAt,
    moreFields: unknownFieldsOf(depositRecordSchema, deposit.raw),
    poisoning,
  };
}

interface DepositFilter {
  readonly currency?: string | undefined;
  readonly from?: number | undefined;
  readonly to?: number | undefined;
  readonly search?: string | undefined;
  /** Text the deposit's label or note contains. */
  readonly label?: string | undefined;
}

export function depositQuery(context: Kernel & AuditRecorder & ProfileSelection, profile: string, request: DepositFilter, limit: number, after: string | null): DepositQuery {
  const apiOrders = labelledRefs(context.db, profile, 'deposit', request.label);
  return {
    profile,
    limit,
    after,
    ...(apiOrders !== undefined ? { apiOrders } : {}),
    ...(request.currency !== undefined ? { currency: request.currency } : {}),
    ...(request.from !== undefined ? { from: request.from } : {}),
    ...(request.to !== undefined ? { to: request.to } : {}),
    ...(request.search !== undefined && request.search.trim() !== '' ? { search: request.search.trim() } : {}),
  };
}

export function depositsHandlers({ context, session }: DepositsFeatureDeps, handle: Handle): Pick<TreasuryHandlers, 'deposits/list' | 'deposits/exportCsv'> {
  const profileName = (): string => context.activeProfile().name;
  return {
    'deposits/list': handle('deposits/list', (request) => {
      checkCurrencyFilter(context.db, profileName(), request.currency);
      const page = listDeposits(context.db, depositQuery(context, profileName(), request, request.limit ?? DEFAULT_PAGE, request.cursor ?? null));
      // The radar marks the rows whose sender looks like a book entry (compared with the signed book in force now).
      const marks = depositPoisoningMarks(context.trail.roster(profileName(), { cached: true }), context.now(), page.rows);
      return { rows: page.rows.map((deposit, index) => depositView(deposit, marks[index] ?? null)), nextCursor: page.nextCursor };
    }),
    'deposits/exportCsv': handle('deposits/exportCsv', (request) => {
      checkCurrencyFilter(context.db, profileName(), request.currency);
      let rows = 0;
      const timeZone = session.reportingTimeZone();
      writeFileAtomically(request.path, (append) => {
        // Times in the reporting zone with its offset (settings/setReportingTimeZone), so each stays one exact instant.
        append(csvLine(['first_seen', 'currency', 'amount', 'fee', 'txid', 'address', 'address_type', 'from_address', 'api_order', 'user_order', 'source', 'last_seen']));
        let after: string | null = null;
        do {
          const page = listDeposits(context.db, depositQuery(context, profileName(), request, EXPORT_PAGE, after));
          for (const deposit of page.rows) {
            append(
              csvLine([
                csvInstant(deposit.firstSeenAt, timeZone),
                deposit.currency,
                deposit.amount,
                deposit.fee,
                deposit.txid,
                deposit.address,
                deposit.addressType,
                deposit.fromAddress,
                deposit.apiOrder,
                deposit.userOrder,
                deposit.source,
                csvInstant(deposit.lastSeenAt, timeZone),
              ]),
            );
            rows += 1;
          }
          after = page.nextCursor;
        } while (after !== null);
      });
      context.audit({ profile: profileName(), action: 'deposits/export', subject: request.path, details: { rows, timeZone } });
      return { rows, path: request.path };
    }),
  };
}
