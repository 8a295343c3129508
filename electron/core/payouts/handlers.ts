// The batch payouts feature (issue 13, docs/payouts.md): import a CSV as one signed batch, approve, reject or cancel
// it as a whole, submit it line by line (resumable), show its status and export its results (payouts/*).
import type { TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import {
  approvePayoutBatch,
  cancelPayoutBatch,
  exportPayoutBatchCsv,
  getPayoutBatchView,
  importPayoutBatch,
  listPayoutBatchSummaries,
  rejectPayoutBatch,
  submitPayoutBatch,
} from './batch';
import { DEFAULT_PAGE, type Handle } from '../kernel/handle';

export interface PayoutsFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection;
}

type PayoutMethods =
  | 'payouts/import'
  | 'payouts/list'
  | 'payouts/get'
  | 'payouts/approve'
  | 'payouts/reject'
  | 'payouts/cancel'
  | 'payouts/submit'
  | 'payouts/exportCsv';

export function payoutsHandlers({ context }: PayoutsFeatureDeps, handle: Handle): Pick<TreasuryHandlers, PayoutMethods> {
  return {
    'payouts/import': handle('payouts/import', (request) => importPayoutBatch(context, request.path, request.as)),
    'payouts/list': handle('payouts/list', (request) => listPayoutBatchSummaries(context, request.limit ?? DEFAULT_PAGE, request.cursor ?? null)),
    'payouts/get': handle('payouts/get', (request) => getPayoutBatchView(context, request.id)),
    'payouts/approve': handle('payouts/approve', (request) => approvePayoutBatch(context, request.id, request.as)),
    'payouts/reject': handle('payouts/reject', (request) => rejectPayoutBatch(context, request.id, request.reason, request.as)),
    'payouts/cancel': handle('payouts/cancel', (request) => cancelPayoutBatch(context, request.id, request.reason, request.as)),
    'payouts/submit': handle('payouts/submit', (request) => submitPayoutBatch(context, request.id, request.as)),
    'payouts/exportCsv': handle('payouts/exportCsv', (request) => exportPayoutBatchCsv(context, request.id, request.path)),
  };
}
