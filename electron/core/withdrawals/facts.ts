// The withdrawal lifecycle's one owner takes facts from other modules (issue 19, item 4): sync, callbacks and the
// desk's own sends report the order records the service answered (storeOrderStatus), team replay reports a decision
// another workstation signed, batch payouts report what happened to a batch as a whole. They never move a request
// themselves; these functions decide the move from the lifecycle table (contract/withdrawal-lifecycle.ts), alongside
// the withdrawals desk, which moves requests its own operators decide on. Each runs inside the caller's transaction.
import type { WithdrawalEvent } from '../../contract';
import { isFinalOrderStatus, signedEvidenceOf, type WithdrawalOrderRecord } from '../../protocol';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import { type StoreDatabase } from '../store/database';
import {
  getWithdrawalRequestByUserOrder,
  moveWithdrawalRequest,
  recordOrderStatus,
  type OrderStatusResult,
  type OrderStatusSource,
} from './withdrawals-table';

/**
 * The service reported the order (a create answer, checkWithdrawOrder, a callback, or a workstation's signed report of
 * one): it exists, so the request is submitted; with a final status it is completed. `status` is the order's current
 * status after the report was recorded. Answers whether the request became completed now.
 */
export function orderReported(db: StoreDatabase, requestId: number, status: string | null, now: number): { readonly completed: boolean } {
  moveWithdrawalRequest(db, requestId, 'accepted', now);
  const completed = status !== null && isFinalOrderStatus(status) && moveWithdrawalRequest(db, requestId, 'final', now);
  return { completed };
}

/** The decisions a signed statement carries, by its kind (approvals move requests through settleApprovals instead). */
const DECISION_EVENTS = { reject: 'reject', cancel: 'cancel', submit: 'submit' } as const satisfies Readonly<Record<string, WithdrawalEvent>>;
export type ReplayedDecision = keyof typeof DECISION_EVENTS;

export function isReplayedDecision(kind: string): kind is ReplayedDecision {
  return Object.hasOwn(DECISION_EVENTS, kind);
}

/**
 * A decision another workstation signed, replayed from the shared chain: the same move its own desk made (a reject,
 * a cancel, or a submit committed before its first byte). Answers whether the request moved.
 */
export function decisionReplayed(db: StoreDatabase, requestId: number, kind: ReplayedDecision, now: number): boolean {
  return moveWithdrawalRequest(db, requestId, DECISION_EVENTS[kind], now);
}

/** A batch payout's approvals reached its policy for this line (its statements verified): the line is approved. */
export function batchLineApproved(db: StoreDatabase, requestId: number, now: number): boolean {
  return moveWithdrawalRequest(db, requestId, 'approvalsComplete', now);
}

/** A batch payout was rejected or cancelled as a whole: so is each of its lines that still may be. */
export function batchLineClosed(db: StoreDatabase, requestId: number, decision: 'reject' | 'cancel', now: number): boolean {
  return moveWithdrawalRequest(db, requestId, decision, now);
}

export type OrderIntake =
  | { readonly known: false }
  | { readonly known: true; readonly requestId: number; readonly result: OrderStatusResult; readonly completed: boolean };

/**
 * Records an observed withdrawal order status for the request with that userOrder. A submitted request whose
 * order reaches a final status becomes `completed`; a `submitting` one becomes `submitted` (the order exists).
 */
export function storeOrderStatus(context: Kernel & AuditRecorder, record: WithdrawalOrderRecord, source: OrderStatusSource): OrderIntake {
  // One transaction: the status, the workflow move and their audit rows commit together or not at all.
  return context.trail.transaction(() => storeOrderStatusNow(context, record, source));
}

function storeOrderStatusNow(context: Kernel & AuditRecorder, record: WithdrawalOrderRecord, source: OrderStatusSource): OrderIntake {
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
  const { completed } = orderReported(context.db, request.id, result.current, now);
  if (result.historyAdded || completed) {
    if (result.outcome === 'advanced') {
      context.audit({
        profile: request.profile,
        action: 'withdrawals/status',
        subject: request.userOrder,
        // The service's signed answer goes with it: other workstations take the status from the signature, not from us.
        details: { status: record.orderStatus, source, txid: record.txid || null, evidence: signedEvidenceOf(record) ?? null },
      });
    }
    context.emit({ type: 'withdrawals/changed', id: String(request.id) });
  }
  return { known: true, requestId: request.id, result, completed };
}
