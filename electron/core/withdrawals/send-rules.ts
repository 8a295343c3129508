// The rules a withdrawal must still meet right before it is sent (issue 20): no freeze, the policy in force now, the
// address book now and the day's total now, all from signed statements under the roster replayed afresh. A request approved
// under an earlier policy, to an address since removed from the book, or on a day whose total a tightened limit no
// longer allows, is held: each hold names the rule and says what would release it. Called after the request's own
// statements verified (judgeForSending walked the chain, so the audit columns hold).
import { CURRENCIES, formatMoney, isCurrencySymbol, parseMoney } from '../../chains';
import { utcMinuteText } from '../../contract';
import { type AuditRecorder } from '../audit';
import type { Roster } from '../ledger';
import type { Kernel } from '../kernel/kernel';
import type { ProfileSelection } from '../profiles';
import { destinationPolicyIssues } from './destination-policy';
import { provenControlIssue } from './control-proof';
import { poisoningRefusal } from '../deposits';
import { requiredApprovals } from './policy';
import { groupsHoldNow } from './approval-groups';
import { unusualAmountFor } from './payment-history';
import { requestedFromStatements, utcDayOf, velocityHolds } from './signed-spending';
import { type IntentEvidence, policyInForce } from './verify';
import type { WithdrawalRequest } from './withdrawals-table';

type DeskParts = Kernel & AuditRecorder & ProfileSelection;

/**
 * The holds on sending `request` now ([] when it may be sent); `evidence` is its judgement for sending, made under
 * `roster`, the roster judgeForSending replayed afresh for this send (nothing was appended since).
 */
export function sendHolds(parts: DeskParts, request: WithdrawalRequest, evidence: IntentEvidence, roster: Roster): string[] {
  const intent = evidence.intent;
  if (intent === null || !isCurrencySymbol(intent.currency)) return [];
  const currency = intent.currency;
  const info = CURRENCIES[currency];
  const { policy } = policyInForce(roster, currency, parts.now());
  const policyName = `the ${info.displayName} policy in force now`;
  const amount = parseMoney(intent.amount);
  const holds: string[] = [];

  const frozen = roster.frozenAt(parts.now());
  if (frozen !== null) {
    holds.push(
      `sending is frozen by ${frozen.by} since ${utcMinuteText(frozen.since)} (${frozen.reason}): ` +
        (frozen.liftAt !== null
          ? `its lift takes effect at ${utcMinuteText(frozen.liftAt)} unless an admin vetoes it`
          : 'two admins lift it, one proposing (sending unfreeze) and another confirming (operator confirm)'),
    );
  }

  const required = requiredApprovals(policy, amount);
  const given = evidence.verification.countedApprovals;
  if (given < required) {
    holds.push(
      `${policyName} requires ${required} independent approval${required === 1 ? '' : 's'} for ${formatMoney(amount)} and this request has ${given} ` +
        '(it was approved under an earlier policy): cancel it and request it again, or an admin restores the earlier thresholds (policy set)',
    );
  }
  // The unusual-amount rule over the destination's verified payments, this request's own left out (payment-history.ts).
  const ownKey = evidence.requestRow === null ? null : `${evidence.requestRow.statement.subject}/${intent.userOrder}`;
  const unusual = unusualAmountFor(parts, roster, policy, request.profile, { currency, amount, destination: { chain: info.chain, address: intent.toAddress }, key: ownKey });
  if (unusual?.adds === true && given < required + 1) {
    holds.push(
      `${policyName}: ${unusual.text}, so it needs ${required + 1} independent approvals and this request has ${given}: ` +
        'cancel it and request it again (the new request asks for the approval the rule adds), or an admin changes the unusual-amount rule (policy set)',
    );
  }
  const groupsHold = groupsHoldNow(policy.thresholds, amount, evidence.counted, required, policyName);
  if (groupsHold !== null) holds.push(groupsHold);

  for (const issue of destinationPolicyIssues(policy, roster, { chain: info.chain, address: intent.toAddress, policyName, now: parts.now() })) {
    holds.push(issue.message);
  }
  const poisoning = poisoningRefusal(parts, request.profile, roster, info.chain, intent.toAddress, parts.now());
  if (poisoning !== null) holds.push(poisoning);
  const unproven = provenControlIssue(parts, roster, { profile: request.profile, chain: info.chain, address: intent.toAddress, amount: intent.amount, currency, policyName, above: policy.provenControlAbove });
  if (unproven !== null) holds.push(unproven);

  if (policy.dailyLimit !== null) {
    const limit = parseMoney(policy.dailyLimit);
    const day = utcDayOf(intent.requestedAt);
    const { total } = requestedFromStatements(parts, roster, { profile: request.profile, currency, ...day });
    if (total.greaterThan(limit)) {
      const date = new Date(day.start).toISOString().slice(0, 10);
      holds.push(
        `${policyName} has a daily limit of ${formatMoney(limit)}, and the requests signed on ${date} (UTC) total ${formatMoney(total)}: ` +
          `cancel requests of that day until they fit, or an admin raises the limit (policy set)`,
      );
    }
  }
  const requestRow = evidence.requestRow;
  if (requestRow !== null && evidence.initiator !== null) {
    // The rolling windows and destination caps over the signed intents, this request's own counted once (velocity.ts).
    const candidate = {
      key: `${requestRow.statement.subject}/${intent.userOrder}`,
      currency,
      chain: info.chain,
      amount,
      initiator: evidence.initiator,
      destination: intent.toAddress,
      at: requestRow.statement.at,
    };
    for (const breach of velocityHolds(parts, roster, policy, request.profile, candidate)) holds.push(`${policyName}: ${breach.message}`);
  }
  return holds;
}
