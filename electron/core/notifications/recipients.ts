// Who may act on a withdrawal request now, by the same rules that count approvals (APPROVALS.md, withdrawals/verify):
// an active approver or admin, enrolled before the request was made, not its initiator, who has not decided on it yet,
// and whose party would add to the independent approvals counted so far; nobody while the desk would refuse any
// approval (the request was altered after it was signed, or does not verify). What decides "waiting for your approval"
// notices and the tray's and badge's count. Pure over the roster and the request's evidence, except the count.
import { roleMay, type OperatorRole } from '../auth/roles';
import type { DeskContext } from '../context';
import { countIndependentApprovals, type Roster } from '../operators/roster';
import { listWithdrawalRequests, type WithdrawalRequest } from '../store';
import { intentFingerprint } from '../statements/intent';
import { alteredFields, judgeForView, type IntentEvidence } from '../withdrawals/verify';

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
  const decided = new Set(evidence.approvals.map((approval) => lower(approval.operator)));
  const counted = evidence.approvals
    .filter((approval) => approval.decision === 'approve' && approval.counts)
    .map((approval) => roster.at(approval.operator)?.party ?? [lower(approval.operator)]);
  const now = countIndependentApprovals(initiatorParty, counted);
  if (now >= evidence.verification.requiredApprovals) return [];
  return roster
    .active()
    .filter(({ name, snapshot }) => {
      if (!roleMay(snapshot.role, 'approveWithdrawal')) return false;
      if (lower(name) === initiator || lower(name) === lower(request.initiator) || decided.has(lower(name))) return false;
      const enrolledAt = roster.enrolledAt(name);
      if (enrolledAt === undefined || enrolledAt >= requestSeq) return false;
      return countIndependentApprovals(initiatorParty, [...counted, snapshot.party]) > now;
    })
    .map(({ name }) => name);
}

/** Every request of `profile` awaiting approval, oldest pages last (the queue is short: it pages anyway). */
export function requestsAwaitingApproval(context: Pick<DeskContext, 'db'>, profile: string): WithdrawalRequest[] {
  const all: WithdrawalRequest[] = [];
  let after: string | null = null;
  do {
    const page = listWithdrawalRequests(context.db, { profile, state: 'awaitingApproval', limit: 200, after });
    all.push(...page.rows);
    after = page.nextCursor;
  } while (after !== null);
  return all;
}

/** How many requests of the active profile `operator` may approve now (the tray and badge count). */
export function approvalsWaitingFor(context: DeskContext, operator: string): number {
  const profile = context.activeProfileName();
  if (profile === undefined) return 0;
  const roster = context.trail.roster(profile, { cached: true });
  const merchantId = context.activeProfile().merchantId;
  const name = lower(operator);
  return requestsAwaitingApproval(context, profile).filter((request) =>
    approvalCandidates(roster, request, judgeForView(context, roster, request), merchantId).some((candidate) => lower(candidate) === name),
  ).length;
}
