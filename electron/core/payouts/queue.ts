// The approvals queue (withdrawals/queue): what someone still has to act on before it reaches the service. Single
// requests in a decision state, never a batch payout's lines (a batch is decided on as a whole, in Batch payouts), and
// each batch with a line in a decision state once, with its fingerprint, line count and totals from its verified
// statements.
import {
  DECISION_STATES,
  type ApprovalsQueueView,
  type PayoutBatchQueueEntry,
  type PayoutBatchView,
} from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { DeskError } from '../kernel/errors';
import type { Roster } from '../ledger';
import { listPayoutBatchesWithLinesIn, listWithdrawalRequests, type PayoutBatch, withdrawalView } from '../withdrawals';
import { payoutBatchView } from './batch';

/** Single requests shown per decision state (the newest; the queue is meant to be short). */
export const QUEUE_REQUESTS_PER_STATE = 100;

/** What a queue entry shows of a batch: its summary and approvals, never its lines. */
function queueEntryOf(view: PayoutBatchView): PayoutBatchQueueEntry {
  const { id, fingerprint, source, initiator, requestedAt, lineCount, totals, requiredApprovals, countedApprovals, verified, problems, state } = view;
  return { id, fingerprint, source, initiator, requestedAt, lineCount, totals, requiredApprovals, countedApprovals, verified, problems, state };
}

/** A batch's entry; one whose rows were altered so that it cannot be judged stays in the queue, saying why. */
function batchEntry(context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection, batch: PayoutBatch, roster: Roster): PayoutBatchQueueEntry {
  try {
    return queueEntryOf(payoutBatchView(context, batch, roster));
  } catch (error) {
    if (!(error instanceof DeskError)) throw error;
    return {
      id: String(batch.id),
      fingerprint: batch.fingerprint,
      source: batch.sourceName,
      initiator: batch.initiator,
      requestedAt: batch.createdAt,
      lineCount: batch.lineCount,
      totals: [],
      requiredApprovals: 0,
      countedApprovals: 0,
      verified: false,
      problems: [error.message],
      state: 'awaitingApproval',
    };
  }
}

export function approvalsQueue(context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection): ApprovalsQueueView {
  const profile = context.activeProfile().name;
  const roster = context.trail.roster(profile, { cached: true });
  const requests = DECISION_STATES.flatMap((state) => listWithdrawalRequests(context.db, { profile, state, singleOnly: true, limit: QUEUE_REQUESTS_PER_STATE }).rows);
  return {
    requests: requests.map((request) => withdrawalView(context, request, roster)),
    batches: listPayoutBatchesWithLinesIn(context.db, profile, DECISION_STATES).map((batch) => batchEntry(context, batch, roster)),
  };
}
