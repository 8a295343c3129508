// The withdrawal requests as CSV (withdrawals/exportCsv), next to the deposits export: newest first, every request or
// those in one state, with the platform's order fields once known; times in the reporting zone with their offset.
import { csvInstant, csvLine } from '../export/csv';
import type { WithdrawalRequest } from '../withdrawals';

export const WITHDRAWALS_CSV_COLUMNS = [
  'created',
  'request',
  'currency',
  'amount',
  'fee',
  'state',
  'order_status',
  'order_status_at',
  'to_address',
  'payee',
  'memo',
  'withdraw_type',
  'user_order',
  'api_order',
  'txid',
  'initiator',
  'fingerprint',
  'updated',
] as const;

/** One request as a CSV line (columns as WITHDRAWALS_CSV_COLUMNS); `payee`: the name of the payee its address belongs to, if any. */
export function withdrawalCsvLine(request: WithdrawalRequest, timeZone: string, payee: string | null): string {
  return csvLine([
    csvInstant(request.createdAt, timeZone),
    request.id,
    request.currency,
    request.amount,
    request.fee,
    request.state,
    request.orderStatus,
    request.orderStatusAt === null ? null : csvInstant(request.orderStatusAt, timeZone),
    request.toAddress,
    payee,
    request.memo,
    request.withdrawType,
    request.userOrder,
    request.apiOrder,
    request.txid,
    request.initiator,
    request.fingerprint,
    csvInstant(request.updatedAt, timeZone),
  ]);
}
