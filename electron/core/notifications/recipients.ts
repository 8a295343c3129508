// Who may act on a withdrawal request now, by the same rules that count approvals (APPROVALS.md, withdrawals/verify):
// an active approver or admin, enrolled before the request was made, not its initiator, who has not decided on it yet,
// and whose party would add to the independent approvals counted so far; nobody while the desk would refuse any
// approval (the request was altered after it was signed, or does not verify). A batch payout is one decision over all
// its lines: who may approve every line. What decides "waiting for your approval" notices and the tray's and badge's
// count (a batch counts once). Pure over the roster and the evidence, except the listings and the count.
import { countIndependentApprovals, intentFingerprint, type OperatorRole, roleMay, type Roster } from '../ledger';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { DeskError } from '../kernel/errors';
import { judgeBatchLines, type JudgedLine } from '../payouts';
import {
  alteredFields,
  type IntentEvidence,
  judgeForView,
  listPayoutBatchesWithLinesIn,
  listWithdrawalRequests,
  type PayoutBatch,
  type WithdrawalRequest,
} from '../withdrawals';

const lower = (name: string): string => name.toLowerCase();

/** The roster's active operators with their current role. */
export function activeOperators(roster: Roster): { readonly name: string; readonly role: OperatorRole }[] {
  return roster.active().map((entry) => ({ name: entry.name, role: entry.snapshot.role }));
}

/** The operators whose approval of `request` would count now; empty when the request is not awaiting approval or does not verify. */
export function approvalCandidates(roster: Roster, request: WithdrawalRequest, evidence: IntentEvidence, merchantId: string): string[] {
  if (request.state !== 'awaitingApproval' || evidence.intent === null || evidence.initiator === null) return [];
  // The checks approveWithdrawal makes before anyone may sign: what the request shows is what its initiator signed.
  if (alteredFields(request, merchantId, evidence.intent).length > 0 || request.fingerprint !== intentFingerprint(evidence.intent)) return [];
  if (evidence.approvals.some((approval) => approval.decision === 'reject')) return [];
  const initiator = lower(evidence.initiator);
  const requestSeq = request.requestSeq ?? Number.POSITIVE_INFINITY;
  const initiatorParty = roster.at(evidence.initiator, requestSeq)?.party ?? [initiator];
  // An approver whose approval expired is asked again (issue 20).
  const decided = new Set(evidence.approvals.filter((approval) => approval.expired !== true).map((approval) => lower(approval.operator)));
  const counted = evidence.approvals
    .filter((approval) => approval.decision === 'approve' && approval.counts)
    .map((approval) => roster.at(approval.operator)?.party ?? [lower(approval.operator)]);
  const now = countIndependentApprovals(initiatorParty, counted);
  if (now >= evidence.verification.requiredApprovals && evidence.groupsStillNeeded.length === 0) return [];
  return roster
    .active()
    .filter(({ name, snapshot }) => {
      if (!roleMay(snapshot.role, 'approveWithdrawal')) return false;
      if (lower(name) === initiator || lower(name) === lower(request.initiator) || decided.has(lower(name))) return false;
      const enrolledAt = roster.enrolledAt(name);
      if (enrolledAt === undefined || enrolledAt >= requestSeq) return false;
      // Approval groups still lacking (issue 20): their members are asked, whether or not the count is met.
      if (evidence.groupsStillNeeded.length > 0 && evidence.groupsStillNeeded.some((needed) => roster.groupsOf(name).includes(needed.group))) return true;
      return countIndependentApprovals(initiatorParty, [...counted, snapshot.party]) > now;
    })
    .map(({ name }) => name);
}

/**
 * The operators whose approval of a whole batch would count now: those who may approve each of its lines (nobody when
 * a line is not awaiting approval, was altered, or does not verify: the desk would refuse the batch's approval).
 */
export function batchApprovalCandidates(roster: Roster, judged: readonly JudgedLine[], merchantId: string): string[] {
  const [first, ...rest] = judged;
  if (first === undefined) return [];
  let candidates = approvalCandidates(roster, first.request, first.evidence, merchantId);
  for (const line of rest) {
    if (candidates.length === 0) break;
    const also = new Set(approvalCandidates(roster, line.request, line.evidence, merchantId).map(lower));
    candidates = candidates.filter((name) => also.has(lower(name)));
  }
  return candidates;
}

/** Every single request of `profile` awaiting approval (not a batch's lines), oldest pages last (the queue is short: it pages anyway). */
export function requestsAwaitingApproval(context: Pick<(Kernel & AuditRecorder & ProfileSelection & MerchantConnection), 'db'>, profile: string): WithdrawalRequest[] {
  const all: WithdrawalRequest[] = [];
  let after: string | null = null;
  do {
    const page = listWithdrawalRequests(context.db, { profile, state: 'awaitingApproval', singleOnly: true, limit: 200, after });
    all.push(...page.rows);
    after = page.nextCursor;
  } while (after !== null);
  return all;
}

/** The batch payouts of `profile` with a line awaiting approval, newest first. */
export function batchesAwaitingApproval(context: Pick<(Kernel & AuditRecorder & ProfileSelection & MerchantConnection), 'db'>, profile: string): PayoutBatch[] {
  return listPayoutBatchesWithLinesIn(context.db, profile, ['awaitingApproval']);
}

/** A batch's lines judged from its statements, or null when its rows were altered so that it cannot be (it then asks nobody). */
export function judgedBatchLines(context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection, batch: PayoutBatch, roster: Roster): JudgedLine[] | null {
  try {
    return judgeBatchLines(context, batch, roster);
  } catch (error) {
    if (error instanceof DeskError) return null;
    throw error;
  }
}

/** How many single requests and batches of the active profile `operator` may approve now, a batch once (the tray and badge count). */
export function approvalsWaitingFor(context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection, operator: string): number {
  const profile = context.activeProfileName();
  if (profile === undefined) return 0;
  const roster = context.trail.roster(profile, { cached: true });
  const merchantId = context.activeProfile().merchantId;
  const name = lower(operator);
  const includes = (candidates: readonly string[]): boolean => candidates.some((candidate) => lower(candidate) === name);
  const requests = requestsAwaitingApproval(context, profile).filter((request) => includes(approvalCandidates(roster, request, judgeForView(context, roster, request), merchantId)));
  const batches = batchesAwaitingApproval(context, profile).filter((batch) => includes(batchApprovalCandidates(roster, judgedBatchLines(context, batch, roster) ?? [], merchantId)));
  return requests.length + batches.length;
}
