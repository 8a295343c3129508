// The one path by which verified platform records enter the cache, shared by sync (query) and the callback
// listener (callback): deposits deduplicated by apiOrder, order statuses moved forward only (PROTOCOL §10.5).
import { isFinalOrderStatus, type DepositRecord, type WithdrawalOrderRecord } from '../../protocol';
import type { DeskContext } from '../context';
import {
  getWithdrawalRequestByUserOrder,
  insertOrTouchDeposits,
  recordOrderStatus,
  moveWithdrawalRequest,
  type DepositSource,
  type OrderStatusResult,
  type OrderStatusSource,
} from '../store';

export interface DepositIntake {
  readonly seen: number;
  readonly inserted: number;
}

/** Stores verified deposit records; a re-observed record that differs is kept as first seen and audited. */
export function storeDeposits(context: DeskContext, profile: string, records: readonly DepositRecord[], source: DepositSource): DepositIntake {
  const observedAt = context.now();
  const summary = insertOrTouchDeposits(
    context.db,
    profile,
    records.map((record) => ({ record, source, observedAt })),
  );
  for (const conflict of summary.conflicts) {
    context.audit({ profile, action: 'deposits/conflict', subject: conflict.apiOrder, details: { fields: conflict.fields, source } });
  }
  if (summary.inserted > 0) context.emit({ type: 'deposits/changed', newDeposits: summary.inserted });
  return { seen: records.length, inserted: summary.inserted };
}

export type OrderIntake =
  | { readonly known: false }
  | { readonly known: true; readonly requestId: number; readonly result: OrderStatusResult; readonly completed: boolean };

/**
 * Records an observed withdrawal order status for the request with that userOrder. A submitted request whose
 * order reaches a final status becomes `completed`; a `submitting` one becomes `submitted` (the order exists).
 */
export function storeOrderStatus(context: DeskContext, record: WithdrawalOrderRecord, source: OrderStatusSource): OrderIntake {
  // One transaction: the status, the workflow move and their audit rows commit together or not at all.
  return context.trail.transaction(() => storeOrderStatusNow(context, record, source));
}

function storeOrderStatusNow(context: DeskContext, record: WithdrawalOrderRecord, source: OrderStatusSource): OrderIntake {
  const request = getWithdrawalRequestByUserOrder(context.db, record.userOrder);
  if (!request) return { known: false };
  const now = context.now();
  const result = recordOrderStatus(context.db, request.id, record.orderStatus, source, record, now);
  if (result.mismatches.length > 0) {
    context.audit({
      profile: request.profile,
      action: 'withdrawals/mismatch',
      subject: request.userOrder,
      details: { fields: result.mismatches, source },
    });
  }
  if (result.outcome === 'ignoredAfterFinal') {
    context.audit({
      profile: request.profile,
      action: 'withdrawals/statusAfterFinal',
      subject: request.userOrder,
      details: { current: result.current, observed: record.orderStatus, source },
    });
  }
  moveWithdrawalRequest(context.db, request.id, 'accepted', now);
  const final = result.current !== null && isFinalOrderStatus(result.current);
  let completed = false;
  if (final) completed = moveWithdrawalRequest(context.db, request.id, 'final', now);
  if (result.historyAdded || completed) {
    if (result.outcome === 'advanced') {
      context.audit({
        profile: request.profile,
        action: 'withdrawals/status',
        subject: request.userOrder,
        details: { status: record.orderStatus, source, txid: record.txid || null },
      });
    }
    context.emit({ type: 'withdrawals/changed', id: String(request.id) });
  }
  return { known: true, requestId: request.id, result, completed };
}
