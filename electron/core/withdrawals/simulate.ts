// The policy simulator and the policy editor's preview (issue 20, part 6): a withdrawal policy's rules judged for a
// request that is never made (policies/test), and what a policy change would do to the requests now waiting for
// approval or sending (policies/preview), both before anything is signed. They use the same rules as the request's
// preflight and the send's holds (policy.ts, destination-policy.ts, signed-spending.ts), over the signed statements:
// what the simulator says is what the desk would do.
import { type Chain, checkAmount, CURRENCIES, type CurrencySymbol, formatMoney, isCurrencySymbol, Money, parseMoney } from '../../chains';
import { type PolicyPreviewLine, type PolicyPreviewView, type PolicyRuleFinding, type PolicyStanding, type PolicyTestView, poisoningFlagText, controlStandingText, utcMinuteText } from '../../contract';
import { tierGroupsText } from '../../contract/tier-groups';
import type { AuditRecorder } from '../audit';
import { poisoningFlag, poisoningRefusal } from '../deposits';
import type { Kernel } from '../kernel/kernel';
import { DeskError } from '../kernel/errors';
import { intentFingerprint, roleMay, roleWithArticle, type Roster } from '../ledger';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { unknownGroupProblems } from './approval-groups';
import { destinationPolicyIssues } from './destination-policy';
import { platformWithdrawalSettings, withdrawTypeRefusal } from './platform-rules';
import { checkDailyLimit, policyProblems, requiredApprovals, type WithdrawalPolicy } from './policy';
import { requestedFromStatements, unreadableLog, utcDayOf, velocityHolds } from './signed-spending';
import { unusualAmountFor } from './payment-history';
import { controlStanding, provenControlIssue } from './control-proof';
import { type IntentEvidence, judgeForView, policyInForce } from './verify';
import { listWithdrawalRequests, type WithdrawalRequest } from './withdrawals-table';

type DeskParts = Kernel & AuditRecorder & ProfileSelection & MerchantConnection;

/** A policy as an admin writes it (policies/set, the editor's draft). */
export interface PolicyDraft {
  readonly thresholds: WithdrawalPolicy['thresholds'];
  readonly dailyLimit: string | null;
  readonly useFinancialConfirmation: boolean;
  readonly onlyFromBook?: boolean | undefined;
  readonly newDestinationWaitHours?: number | undefined;
  readonly approvalValidHours?: number | undefined;
  readonly windows?: WithdrawalPolicy['windows'];
  readonly destinationCaps?: WithdrawalPolicy['destinationCaps'];
  readonly unusualAmount?: WithdrawalPolicy['unusualAmount'];
  readonly provenControlAbove?: string | undefined;
}

/** The policy a draft signs: options enter only when on, so a policy without them signs as before. */
export function policyOfDraft(draft: PolicyDraft): WithdrawalPolicy {
  return {
    thresholds: draft.thresholds,
    dailyLimit: draft.dailyLimit,
    useFinancialConfirmation: draft.useFinancialConfirmation,
    ...(draft.onlyFromBook === true ? { onlyFromBook: true } : {}),
    ...(draft.newDestinationWaitHours ? { newDestinationWaitHours: draft.newDestinationWaitHours } : {}),
    ...(draft.approvalValidHours === undefined ? {} : { approvalValidHours: draft.approvalValidHours }),
    ...(draft.windows && draft.windows.length > 0 ? { windows: draft.windows } : {}),
    ...(draft.destinationCaps && draft.destinationCaps.length > 0 ? { destinationCaps: draft.destinationCaps } : {}),
    ...(draft.unusualAmount === undefined ? {} : { unusualAmount: draft.unusualAmount }),
    ...(draft.provenControlAbove === undefined ? {} : { provenControlAbove: draft.provenControlAbove }),
  };
}

/** Why a policy an admin wrote cannot be proposed ([] when it can): its own problems, and groups no roster defines. */
export function draftProblems(roster: Roster, policy: WithdrawalPolicy): string[] {
  return [...policyProblems(policy), ...unknownGroupProblems(roster, policy.thresholds)];
}

/** The request being judged: what its intent would sign, and on which UTC day it counts. */
interface Judged {
  readonly currency: CurrencySymbol;
  readonly amount: Money;
  readonly toAddress: string;
  /** The day's total already counts it (a request now waiting) or not (one that would be made now). */
  readonly counted: boolean;
  readonly requestedAt: number;
  /** Who signed (or would sign) it; null: nobody named, the windows per initiator are not judged. */
  readonly initiator: string | null;
  /** A waiting request's own intent (counted once by the windows: velocity.ts), null for one that would be made now. */
  readonly key: string | null;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The approvals rule: which tier the amount falls in and what it asks. */
function approvalsFinding(policy: WithdrawalPolicy, amount: Money): PolicyRuleFinding {
  const required = requiredApprovals(policy, amount);
  const tier = policy.thresholds
    .filter((threshold) => amount.greaterThan(parseMoney(threshold.above)))
    .reduce<{ above: string; approvals: number } | null>((best, threshold) => (best === null || threshold.approvals > best.approvals ? threshold : best), null);
  const text =
    tier === null || tier.approvals < required
      ? `${formatMoney(amount)} is above no threshold: it needs ${plural(required, 'independent approval')} (every withdrawal needs at least one)`
      : `amounts above ${formatMoney(parseMoney(tier.above))} need ${plural(tier.approvals, 'approval')}: ${formatMoney(amount)} needs ${plural(required, 'independent approval')}, each from an operator independent of the initiator and of each other`;
  // Every tier the amount exceeds that names groups must be met (approval-groups.ts), one approver per group slot.
  const groups = policy.thresholds
    .filter((threshold) => threshold.groups !== undefined && threshold.groups.length > 0 && amount.greaterThan(parseMoney(threshold.above)))
    .map((threshold) => `above ${formatMoney(parseMoney(threshold.above))}: ${tierGroupsText(threshold.groups)}`);
  const withGroups = groups.length === 0 ? text : `${text}; and from the approval groups (${groups.join('; ')}), one approver per group slot`;
  return { rule: 'approvals', active: policy.thresholds.length > 0, refuses: false, text: withGroups };
}

/** The policy's rules (not who asks, not the freeze) judged for one request: preflight's and the send's rules. */
/** Why the audit log cannot be read (its linkage does not hold), or null: walked once per answer, not once per rule and request. */
type LogProblem = { readonly seq: number; readonly reason: string } | null;

function logProblemOf(parts: DeskParts): LogProblem {
  return parts.trail.linkage().problem ?? null;
}

/** What the unusual-amount rule says of the request (payment-history.ts): it adds an approval, it never refuses (a log that does not hold does). */
function unusualAmountFinding(parts: DeskParts, roster: Roster, policy: WithdrawalPolicy, judged: Judged, log: LogProblem): PolicyRuleFinding {
  if (policy.unusualAmount === undefined) return { rule: 'unusualAmount', active: false, refuses: false, text: 'no unusual-amount rule: the payment history adds no approval' };
  if (log !== null) return { rule: 'unusualAmount', active: true, refuses: true, text: unreadableLog(log, 'the payment history the unusual-amount rule reads') };
  const judgement = unusualJudgement(parts, roster, policy, judged);
  return { rule: 'unusualAmount', active: true, refuses: false, text: judgement?.text ?? 'no unusual-amount rule' };
}

function unusualJudgement(parts: DeskParts, roster: Roster, policy: WithdrawalPolicy, judged: Judged): { readonly adds: boolean; readonly text: string } | null {
  const destination = { chain: CURRENCIES[judged.currency].chain, address: judged.toAddress };
  return unusualAmountFor(parts, roster, policy, parts.activeProfile().name, { currency: judged.currency, amount: judged.amount, destination, key: judged.key });
}

/** The approvals a request needs under `policy`: its amount's tier, and one more when the unusual-amount rule adds it. */
function approvalsNeeded(parts: DeskParts, roster: Roster, policy: WithdrawalPolicy, judged: Judged, log: LogProblem): number {
  const tier = requiredApprovals(policy, judged.amount);
  return log === null && unusualJudgement(parts, roster, policy, judged)?.adds === true ? tier + 1 : tier;
}

/** The policy's rules judged for one request; `log` is the audit log's standing, walked once by the caller. */
function policyFindings(parts: DeskParts, roster: Roster, policy: WithdrawalPolicy, judged: Judged, log: LogProblem): PolicyRuleFinding[] {
  const info = CURRENCIES[judged.currency];
  const policyName = `the ${info.displayName} policy`;
  const findings: PolicyRuleFinding[] = [approvalsFinding(policy, judged.amount)];

  if (policy.dailyLimit === null) findings.push({ rule: 'dailyLimit', active: false, refuses: false, text: 'no daily limit' });
  else {
    const day = utcDayOf(judged.requestedAt);
    if (log !== null) {
      findings.push({ rule: 'dailyLimit', active: true, refuses: true, text: unreadableLog(log, "the day's total") });
    } else {
      const used = requestedFromStatements(parts, roster, { profile: parts.activeProfile().name, currency: judged.currency, ...day });
      const before = judged.counted ? used.total.minus(judged.amount) : used.total;
      const check = checkDailyLimit(policy, Money.max(before, 0), judged.amount);
      findings.push({
        rule: 'dailyLimit',
        active: true,
        refuses: !check.ok,
        text: check.ok
          ? `the daily limit is ${formatMoney(parseMoney(policy.dailyLimit))}; the signed requests of that UTC day leave room: ${check.remainingAfter === null ? 'no limit' : formatMoney(check.remainingAfter)} remains after it`
          : check.reason,
      });
    }
  }

  const destination = destinationPolicyIssues(policy, roster, { chain: info.chain, address: judged.toAddress, policyName, now: parts.now() });
  const onlyFromBook = destination.find((issue) => issue.message.includes('"only from book"'));
  findings.push(
    policy.onlyFromBook !== true
      ? { rule: 'onlyFromBook', active: false, refuses: false, text: 'any destination may be paid (not only the address book)' }
      : { rule: 'onlyFromBook', active: true, refuses: onlyFromBook !== undefined, text: onlyFromBook?.message ?? 'only addresses from the address book: this one is in it' },
  );
  const wait = destination.find((issue) => issue.message.includes('"new destination waits"'));
  findings.push(
    (policy.newDestinationWaitHours ?? 0) === 0
      ? { rule: 'newDestinationWait', active: false, refuses: false, text: 'a new destination does not wait' }
      : { rule: 'newDestinationWait', active: true, refuses: wait !== undefined, text: wait?.message ?? `a new destination waits ${policy.newDestinationWaitHours ?? 0} h: this one's wait is over` },
  );

  findings.push(poisoningFinding(parts, roster, info.chain, judged.toAddress));
  const unproven = provenControlIssue(parts, roster, { profile: parts.activeProfile().name, chain: info.chain, address: judged.toAddress, amount: formatMoney(judged.amount), currency: judged.currency, policyName, above: policy.provenControlAbove });
  findings.push(
    policy.provenControlAbove === undefined
      ? { rule: 'provenControl', active: false, refuses: false, text: 'any destination may be paid whether or not its control is proven' }
      : {
          rule: 'provenControl',
          active: true,
          refuses: unproven !== null,
          text: unproven ?? `above ${policy.provenControlAbove} ${judged.currency} only addresses whose control is proven: ${controlStandingText(controlStanding(parts, roster, parts.activeProfile().name, info.chain, judged.toAddress), utcMinuteText)}`,
        },
  );

  const windows = policy.windows ?? [];
  const caps = policy.destinationCaps ?? [];
  if (windows.length === 0 && caps.length === 0) findings.push({ rule: 'windows', active: false, refuses: false, text: 'no rolling windows and no destination caps' });
  else {
    const candidate = { key: judged.key, currency: judged.currency, chain: info.chain, amount: judged.amount, initiator: judged.initiator, destination: judged.toAddress, at: judged.requestedAt };
    const breaches =
      log !== null
        ? [unreadableLog(log, 'the velocity windows')]
        : velocityHolds(parts, roster, policy, parts.activeProfile().name, candidate).map((breach) => breach.message);
    const rules = `${plural(windows.length, 'rolling window')} and ${plural(caps.length, 'destination cap')}`;
    const skipped = judged.initiator === null && windows.some((window) => window.scope === 'initiator') ? ' (the windows per initiator are judged once an initiator is named)' : '';
    findings.push({ rule: 'windows', active: true, refuses: breaches.length > 0, text: breaches.length > 0 ? breaches.join('; ') : `the ${rules} leave room for it${skipped}` });
  }
  findings.push(unusualAmountFinding(parts, roster, policy, judged, log));
  const valid = policy.approvalValidHours;
  findings.push(
    valid === undefined
      ? { rule: 'approvalExpiry', active: false, refuses: false, text: 'approvals do not expire' }
      : { rule: 'approvalExpiry', active: true, refuses: false, text: `an approval counts for ${valid} h, then must be given again` },
  );

  const wanted = policy.useFinancialConfirmation ? 'financialConfirmation' : 'normal';
  const refusal = withdrawTypeRefusal(platformWithdrawalSettings(parts.db, parts.activeProfile().name), wanted);
  findings.push({
    rule: 'withdrawType',
    active: policy.useFinancialConfirmation,
    refuses: refusal !== null,
    text: refusal ? `${refusal.reason}: ${refusal.remedy}` : `orders go to the service as ${wanted} withdrawals`,
  });
  return findings;
}

/**
 * The poisoning radar (issue 21 item 3), not a policy option: a flagged destination not cleared is refused at request and
 * held at send, in the preflight's words; a cleared one is said so; any other is not flagged.
 */
function poisoningFinding(parts: DeskParts, roster: Roster, chain: Chain, address: string): PolicyRuleFinding {
  const profile = parts.activeProfile().name;
  const flag = poisoningFlag(parts, profile, roster, chain, address, parts.now());
  if (flag === null) return { rule: 'poisoning', active: false, refuses: false, text: 'not flagged by the poisoning radar (no deposit from it looks like a book entry)' };
  if (flag.clearedBy !== null) return { rule: 'poisoning', active: true, refuses: false, text: poisoningFlagText(flag) };
  return { rule: 'poisoning', active: true, refuses: true, text: poisoningRefusal(parts, profile, roster, chain, address, parts.now()) ?? poisoningFlagText(flag) };
}

/** policies/test: which rules apply to this request and what they require, under the policy in force or a draft. */
export function testPolicy(
  parts: DeskParts,
  input: { readonly currency: CurrencySymbol; readonly amount: string; readonly toAddress: string; readonly initiator?: string | undefined; readonly draft?: PolicyDraft | undefined },
): PolicyTestView {
  const amount = checkAmount(input.currency, input.amount);
  if (!amount.ok) throw new DeskError('invalidInput', amount.reason, { amount: amount.reason });
  const roster = parts.trail.roster(parts.activeProfile().name);
  const inForce = policyInForce(roster, input.currency, parts.now());
  const policy = input.draft === undefined ? inForce.policy : policyOfDraft(input.draft);
  if (input.draft !== undefined) {
    const problems = draftProblems(roster, policy);
    if (problems.length > 0) throw new DeskError('invalidInput', `the draft policy is not usable: ${problems.join('; ')}`);
  }
  const findings: PolicyRuleFinding[] = [];
  if (input.initiator === undefined) {
    findings.push({ rule: 'initiator', active: false, refuses: false, text: 'no initiator named: who may request is not judged' });
  } else {
    const snapshot = roster.at(input.initiator);
    const name = roster.operator(input.initiator)?.name ?? input.initiator;
    findings.push(
      snapshot === undefined
        ? { rule: 'initiator', active: true, refuses: true, text: `${name} is not an operator of this desk` }
        : snapshot.status !== 'active'
          ? { rule: 'initiator', active: true, refuses: true, text: `${name} is disabled` }
          : roleMay(snapshot.role, 'requestWithdrawal')
            ? { rule: 'initiator', active: true, refuses: false, text: `${name} is ${roleWithArticle(snapshot.role)} and may request withdrawals` }
            : { rule: 'initiator', active: true, refuses: true, text: `${name} is ${roleWithArticle(snapshot.role)} and may not request withdrawals` },
    );
  }
  const frozen = roster.frozenAt(parts.now());
  findings.push(
    frozen === null
      ? { rule: 'freeze', active: false, refuses: false, text: 'sending is not frozen' }
      : { rule: 'freeze', active: true, refuses: true, text: `sending is frozen by ${frozen.by} (${frozen.reason}): it may be requested and approved, and is held at send until two admins lift the freeze` },
  );
  const initiator = input.initiator === undefined ? null : (roster.operator(input.initiator)?.name ?? input.initiator);
  const judged: Judged = { currency: input.currency, amount: amount.value, toAddress: input.toAddress, counted: false, requestedAt: parts.now(), initiator, key: null };
  const log = logProblemOf(parts);
  findings.push(...policyFindings(parts, roster, policy, judged, log));
  return {
    currency: input.currency,
    amount: formatMoney(amount.value),
    toAddress: input.toAddress,
    initiator,
    policy:
      input.draft !== undefined
        ? { source: 'draft', reference: null }
        : roster.policyAt(input.currency, Number.POSITIVE_INFINITY, parts.now()) === null
          ? { source: 'default', reference: null }
          : { source: 'in force', reference: inForce.reference },
    requiredApprovals: approvalsNeeded(parts, roster, policy, judged, log),
    allowed: findings.every((finding) => !finding.refuses),
    findings,
  };
}

/** The requests of a currency now waiting for approval or sending, oldest first. */
function waitingRequests(parts: DeskParts, currency: CurrencySymbol): WithdrawalRequest[] {
  const profile = parts.activeProfile().name;
  const waiting: WithdrawalRequest[] = [];
  for (const state of ['awaitingApproval', 'approved'] as const) {
    let after: string | null = null;
    do {
      const page = listWithdrawalRequests(parts.db, { profile, state, limit: 500, after });
      waiting.push(...page.rows.filter((row) => row.currency === currency));
      after = page.nextCursor;
    } while (after !== null);
  }
  return waiting.sort((a, b) => a.id - b.id);
}

/** A waiting request's standing under one policy: the approvals it needs, and the rules that would hold it. */
function standingUnder(parts: DeskParts, roster: Roster, policy: WithdrawalPolicy, judged: Judged, counted: number, approved: boolean, log: LogProblem): PolicyStanding {
  const findings = policyFindings(parts, roster, policy, judged, log);
  const required = approvalsNeeded(parts, roster, policy, judged, log);
  const holds = findings.filter((finding) => finding.refuses).map((finding) => finding.text);
  if (approved && counted < required) holds.unshift(`it has ${plural(counted, 'counted approval')} and would need ${required}`);
  return { requiredApprovals: required, holds };
}

/** policies/preview: what a draft policy would change for each request now waiting, against the policy in force. */
export function previewPolicy(parts: DeskParts, currency: CurrencySymbol, draft: PolicyDraft): PolicyPreviewView {
  const proposed = policyOfDraft(draft);
  const roster = parts.trail.roster(parts.activeProfile().name);
  const problems = draftProblems(roster, proposed);
  if (problems.length > 0) return { currency, problems, waiting: [] };
  const current = policyInForce(roster, currency, parts.now()).policy;
  const waiting: PolicyPreviewLine[] = [];
  const log = logProblemOf(parts);
  for (const request of waitingRequests(parts, currency)) {
    const evidence = judgeForView(parts, roster, request);
    const intent = evidence.intent;
    if (intent === null) continue;
    let amount: Money;
    try {
      amount = parseMoney(intent.amount);
    } catch {
      continue;
    }
    const key = evidence.requestRow === null ? null : `${evidence.requestRow.statement.subject}/${intent.userOrder}`;
    const judged: Judged = { currency, amount, toAddress: intent.toAddress, counted: true, requestedAt: intent.requestedAt, initiator: evidence.initiator, key };
    const counted = evidence.verification.countedApprovals;
    const approved = request.state === 'approved';
    const now = standingUnder(parts, roster, current, judged, counted, approved, log);
    const after = standingUnder(parts, roster, proposed, judged, counted, approved, log);
    waiting.push({
      id: String(request.id),
      fingerprint: intentFingerprint(intent),
      amount: formatMoney(amount),
      toAddress: intent.toAddress,
      initiator: evidence.initiator,
      state: request.state,
      countedApprovals: counted,
      now,
      draft: after,
      changed: now.requiredApprovals !== after.requiredApprovals || now.holds.join('\n') !== after.holds.join('\n'),
    });
  }
  return { currency, problems: [], waiting };
}

/**
 * At each approval: what would hold this request if it were sent now, under the rules in force now, apart from the
 * approvals it still needs (the approver's view says those on their own line): the freeze, the book, the destination's
 * wait, the poisoning radar, the daily limit, the windows and caps. The same rules the send runs (send-rules.ts), from the signed intent.
 */
export function holdsIfSentNow(parts: DeskParts, roster: Roster, evidence: IntentEvidence): string[] {
  const intent = evidence.intent;
  if (intent === null || !isCurrencySymbol(intent.currency)) return [];
  let amount: Money;
  try {
    amount = parseMoney(intent.amount);
  } catch {
    return [];
  }
  const currency = intent.currency;
  const holds: string[] = [];
  const frozen = roster.frozenAt(parts.now());
  if (frozen !== null) holds.push(`sending is frozen by ${frozen.by} (${frozen.reason})`);
  const policy = policyInForce(roster, currency, parts.now()).policy;
  const key = evidence.requestRow === null ? null : `${evidence.requestRow.statement.subject}/${intent.userOrder}`;
  const judged: Judged = { currency, amount, toAddress: intent.toAddress, counted: true, requestedAt: intent.requestedAt, initiator: evidence.initiator, key };
  holds.push(...policyFindings(parts, roster, policy, judged, logProblemOf(parts)).filter((finding) => finding.refuses).map((finding) => finding.text));
  return holds;
}
