// What the faces are shown of a batch payout (issue 13, docs/payouts.md): the batch intent its approvers sign as a
// whole (fingerprint, totals per currency with fees, flags, the policy that applies), what its signed statements
// support, and each line's progress once submitted. Everything shown comes from the verified statements and the
// line rows; the renderer escapes every text as usual.
import type { ApprovalView, WithdrawalState, WithdrawalView } from './dto';
import { statesWhere } from './withdrawal-lifecycle';

/** A batch's progress, summed from its lines' states. */
export const PAYOUT_BATCH_STATES = ['awaitingApproval', 'approved', 'rejected', 'cancelled', 'inProgress', 'done'] as const;
export type PayoutBatchState = (typeof PAYOUT_BATCH_STATES)[number];

/** Line states a submission run sends, or resumes (in flight after a crash or a lost answer): Submit is offered while a line is in one. */
export const PAYOUT_SENDABLE_STATES: readonly WithdrawalState[] = statesWhere('payoutSendable');

/** The columns of a batch's results export, in order. */
export const PAYOUT_EXPORT_COLUMNS = ['line', 'currency', 'amount', 'fee', 'toAddress', 'memo', 'userOrder', 'state', 'apiOrder', 'txid', 'status', 'error'] as const;

export interface PayoutCurrencyTotal {
  readonly currency: string;
  readonly lines: number;
  /** What the recipients receive. */
  readonly amount: string;
  /** The fees estimated at import from the cached fee schedule (the service charges its own). */
  readonly fee: string;
  /** amount + fee: what leaves the balance. */
  readonly total: string;
}

/** The policy a currency's lines fall under: the largest line decides the approvals, the daily limit caps the sum. */
export interface PayoutPolicyView {
  readonly currency: string;
  /** Hash of the signed policy statement in force at import, or "default". */
  readonly reference: string;
  readonly largestLine: string;
  readonly approvalsForLargestLine: number;
  readonly dailyLimit: string | null;
  /** What today's limit left after this batch, at import; null without a limit. */
  readonly dailyLimitRemaining: string | null;
}

export interface PayoutFlagView {
  readonly line: number;
  readonly kind: 'newDestination' | 'lookAlike';
  readonly detail: string;
}

export interface PayoutLineView {
  /** 1 = the first payout after the header. */
  readonly line: number;
  /** The withdrawal request that sends this line. */
  readonly requestId: string;
  readonly currency: string;
  readonly amount: string;
  /** The service's fee once known, else the estimate signed at import. */
  readonly fee: string;
  readonly toAddress: string;
  /** The payee the address belongs to in the signed book now (its name, display text), or null/absent (issue 21). */
  readonly payee?: string | null;
  readonly memo: string | null;
  readonly userOrder: string;
  readonly state: WithdrawalState;
  readonly orderStatus: string | null;
  readonly apiOrder: string | null;
  readonly txid: string | null;
  /** Why the line did not go (its last error, or what its statements do not support), or null. */
  readonly error: string | null;
}

export interface PayoutBatchView {
  readonly id: string;
  /** The batch intent's fingerprint (4 groups of 4): what approvers compare. */
  readonly fingerprint: string;
  /** The imported file's name (no folder). */
  readonly source: string;
  readonly initiator: string;
  readonly requestedAt: number;
  readonly lineCount: number;
  readonly totals: readonly PayoutCurrencyTotal[];
  readonly policies: readonly PayoutPolicyView[];
  readonly flags: readonly PayoutFlagView[];
  readonly requiredApprovals: number;
  readonly countedApprovals: number;
  readonly approvals: readonly ApprovalView[];
  /** Whether the signed statements support sending every line, and if not, why (naming lines). */
  readonly verified: boolean;
  readonly problems: readonly string[];
  readonly state: PayoutBatchState;
  /** How many lines are in each state. */
  readonly stateCounts: Readonly<Partial<Record<WithdrawalState, number>>>;
  readonly lines: readonly PayoutLineView[];
}

export interface PayoutBatchSummary {
  readonly id: string;
  readonly fingerprint: string;
  readonly source: string;
  readonly initiator: string;
  readonly requestedAt: number;
  readonly lineCount: number;
  readonly state: PayoutBatchState;
}

/** What a submission run did: the batch after it, and each line it could not send, by line number. */
export interface PayoutSubmitResult {
  readonly batch: PayoutBatchView;
  readonly sent: number;
  readonly failures: readonly { readonly line: number; readonly error: string }[];
}

/** A batch in the approvals queue: one entry for all its lines, with what its approvers compare and count. */
export type PayoutBatchQueueEntry = Pick<
  PayoutBatchView,
  'id' | 'fingerprint' | 'source' | 'initiator' | 'requestedAt' | 'lineCount' | 'totals' | 'requiredApprovals' | 'countedApprovals' | 'verified' | 'problems' | 'state'
>;

/**
 * What someone still has to act on before it reaches the service: single requests in a decision state (never a batch's
 * lines), and each batch with a line in one, once.
 */
export interface ApprovalsQueueView {
  readonly requests: readonly WithdrawalView[];
  readonly batches: readonly PayoutBatchQueueEntry[];
}
