// What the approver sees before signing (issue 20, part 5): one review of a request computed from its signed intent and
// verified statements, never from the row's columns alone. Where the row differs from the intent, the intent's values
// are shown and the difference is flagged (alteredFields, as the judge in verify.ts does). The fee is the one the
// initiator signed in the request statement (preflight's quote), checked against the currency list now.
import {
  CHAIN_INFO,
  CURRENCIES,
  formatMoney,
  isCurrencySymbol,
  lookAlikesAmong,
  sameAddressFormat,
  type Money,
  parseMoney,
  sameAddress,
  type Chain,
  type CurrencySymbol,
} from '../../chains';
import type { ApproverView, ReviewDestination, ReviewRule, WithdrawalPreflight } from '../../contract';
import { computeFee, feeScheduleOf } from '../../protocol';
import { listAddressBook, payeeNameOf } from '../address-book';
import type { AuditRecorder } from '../audit';
import { poisoningFlag } from '../deposits';
import type { MerchantConnection } from '../connection';
import type { Kernel } from '../kernel/kernel';
import { DEFAULT_POLICY_REFERENCE, intentFingerprint, remarkFor, requestQuoteSchema, type Roster, type WithdrawalIntent } from '../ledger';
import { getCurrency } from '../merchant';
import type { ProfileSelection } from '../profiles';
import { DEFAULT_WITHDRAWAL_POLICY, type WithdrawalPolicy } from './policy';
import { holdsIfSentNow } from './simulate';
import { paymentHistory, unusualAmountJudgement } from './payment-history';
import { alteredFields, judgeForView, policyFromStatement, type IntentEvidence } from './verify';
import { termText } from './approval-groups';
import { controlStanding } from './control-proof';
import type { WithdrawalRequest } from './withdrawals-table';

/** The parts of the desk this file's functions use (engine.ts deskParts). */
type DeskParts = Kernel & AuditRecorder & ProfileSelection & MerchantConnection;

/** The part of a request statement's body that carries preflight's fee and total debited (signed with the intent). */
export function requestQuote(check: WithdrawalPreflight): { quote?: { fee: string; totalDebited: string } } {
  return check.fee === null || check.totalDebited === null ? {} : { quote: { fee: check.fee, totalDebited: check.totalDebited } };
}

/** The fee preflight would compute now from the cached currency list, or null when the list has no schedule. */
function feeNowFor(context: DeskParts, profile: string, symbol: CurrencySymbol, amount: Money): Money | null {
  const currency = getCurrency(context.db, profile, symbol);
  const schedule = currency ? feeScheduleOf(currency.record) : undefined;
  return schedule ? computeFee(schedule, 'withdraw', amount, CURRENCIES[symbol].decimals) : null;
}

function parseAmount(text: string): Money | null {
  try {
    return parseMoney(text);
  } catch {
    return null;
  }
}

/** The fee shown: the one signed at request; else (a request from before signed fees) the currency list's now. */
function feeOf(context: DeskParts, request: WithdrawalRequest, evidence: IntentEvidence, symbol: CurrencySymbol | null, amount: Money | null): Pick<ApproverView, 'fee' | 'feeSource' | 'feeNow' | 'totalDebited'> {
  const now = symbol !== null && amount !== null ? feeNowFor(context, request.profile, symbol, amount) : null;
  const quoted = requestQuoteSchema.safeParse(evidence.requestRow?.statement.body['quote']);
  const signedFee = quoted.success && evidence.intent !== null ? parseAmount(quoted.data.fee) : null;
  const total = (fee: Money | null): string | null => (fee !== null && amount !== null ? formatMoney(amount.plus(fee)) : null);
  if (signedFee !== null) {
    return { fee: formatMoney(signedFee), feeSource: 'signedAtRequest', feeNow: now !== null && !now.equals(signedFee) ? formatMoney(now) : null, totalDebited: total(signedFee) };
  }
  if (now !== null) return { fee: formatMoney(now), feeSource: 'currencyListNow', feeNow: null, totalDebited: total(now) };
  return { fee: null, feeSource: 'unknown', feeNow: null, totalDebited: null };
}

/** The policy the intent was requested under (in force at its request row), and the tier its amount fell in. */
function ruleOf(roster: Roster, evidence: IntentEvidence, currency: string, amount: Money | null, history: ReviewDestination['history']): ReviewRule {
  const signed = evidence.requestRow === null ? undefined : roster.policyAt(currency, evidence.requestRow.seq, evidence.requestRow.statement.at);
  const policy: WithdrawalPolicy = signed ? policyFromStatement(signed.policy) : DEFAULT_WITHDRAWAL_POLICY;
  let tierAbove: string | null = null;
  let tierApprovals = 1;
  for (const threshold of policy.thresholds) {
    const above = parseAmount(threshold.above);
    if (amount === null || above === null || !amount.greaterThan(above)) continue;
    if (threshold.approvals > tierApprovals || (threshold.approvals === tierApprovals && tierAbove !== null)) {
      tierAbove = threshold.above;
      tierApprovals = threshold.approvals;
    }
  }
  return {
    policy: evidence.intent?.policy ?? signed?.id ?? DEFAULT_POLICY_REFERENCE,
    tierAbove,
    tierApprovals,
    intentApprovals: evidence.intent?.requiredApprovals ?? tierApprovals,
    dailyLimit: policy.dailyLimit,
    onlyFromBook: policy.onlyFromBook === true,
    newDestinationWaitHours: policy.newDestinationWaitHours ?? 0,
    groups: evidence.groupRequirement,
    approvalValidHours: evidence.approvalValidHours,
    unusualAmount: amount === null ? null : (unusualAmountJudgement(policy, history, currency, amount)?.text ?? null),
    provenControlAbove: policy.provenControlAbove ?? null,
  };
}

/** The destination's standing: the signed book entry, the desk's label, look-alikes of the book, times paid before, the radar's flag. */
function destinationOf(context: DeskParts, roster: Roster, request: WithdrawalRequest, chain: Chain | null, address: string, history: ReviewDestination['history']): ReviewDestination {
  if (chain === null) return { address, inBook: false, bookSince: null, label: null, isNew: true, lookAlikes: [], timesPaid: 0, history };
  // Every address the desk knows on the chains of this address's format (an eth entry for a bnb payout).
  const table = listAddressBook(context.db, request.profile).filter((entry) => sameAddressFormat(entry.chain, chain));
  const labelOf = (known: string, on: string): string | null => table.find((entry) => entry.chain === on && sameAddress(entry.address, known, chain))?.label ?? null;
  const entry = roster.bookEntry(chain, address, context.now());
  // Look-alikes of every address the desk knows: the signed book, and the addresses it has paid or labelled.
  const booked = roster.bookEntries(context.now()).filter((candidate) => sameAddressFormat(candidate.chain, chain));
  const known = [...booked.map((candidate) => ({ address: candidate.address, label: labelOf(candidate.address, candidate.chain), chain: candidate.chain })), ...table];
  const unique = known.filter((candidate, index) => known.findIndex((other) => sameAddress(other.address, candidate.address, chain)) === index);
  // Times paid: the verified payments of the history (signed request, signed submit, the service's success), summed
  // over currencies, so the standing line and the history never count differently.
  const paid = history.reduce((sum, line) => sum + line.timesPaid, 0);
  return {
    address,
    inBook: entry !== undefined,
    bookSince: entry?.since ?? null,
    payee: payeeNameOf(roster, chain, address, context.now()),
    label: labelOf(address, chain),
    isNew: paid === 0,
    lookAlikes: lookAlikesAmong(unique, address, chain).map((alike) => ({ address: alike.knownAddress, label: alike.label, differingPositions: alike.differingPositions })),
    timesPaid: paid,
    poisoning: poisoningFlag(context, request.profile, roster, chain, address, context.now()),
    control: controlStanding(context, roster, request.profile, chain, address),
    history,
  };
}

/** The review of a request for its approver, from its signed intent (the row's values only where none verifies, and said so). */
export function reviewOf(context: DeskParts, request: WithdrawalRequest, roster: Roster = context.trail.roster(request.profile, { cached: true })): ApproverView {
  const evidence = judgeForView(context, roster, request);
  const intent: WithdrawalIntent | null = evidence.intent;
  const shown = intent ?? request;
  const symbol = isCurrencySymbol(shown.currency) ? shown.currency : null;
  const amount = parseAmount(shown.amount);
  const altered = intent === null ? [] : alteredFields(request, context.activeProfile().merchantId, intent);
  const chain = symbol === null ? null : CURRENCIES[symbol].chain;
  const requestedAt = intent?.requestedAt ?? null;
  const approvals = evidence.approvals.filter((approval) => approval.decision === 'approve');
  const { countedApprovals: counted, requiredApprovals: required } = evidence.verification;
  // The destination's verified payments, this request's own left out (payment-history.ts); the audit log's linkage was walked by judgeForView.
  const ownKey = intent === null || evidence.requestRow === null ? null : `${evidence.requestRow.statement.subject}/${intent.userOrder}`;
  const history = chain === null ? [] : paymentHistory(context, roster, request.profile, [{ chain, address: shown.toAddress }], ownKey);
  return {
    id: String(request.id),
    fingerprint: intent === null ? null : intentFingerprint(intent),
    signed: intent !== null,
    altered,
    // Still waiting for approvals is what `approvals` says; every other problem is the approver's to read.
    problems: evidence.verification.problems.filter((problem) => !problem.startsWith('waiting') && !problem.startsWith('still needed:')),
    initiator: evidence.initiator,
    currency: shown.currency,
    currencyName: symbol === null ? shown.currency : CURRENCIES[symbol].displayName,
    chainName: chain === null ? 'unknown' : CHAIN_INFO[chain].displayName,
    amount: shown.amount,
    ...feeOf(context, request, evidence, symbol, amount),
    withdrawType: shown.withdrawType === 'financialConfirmation' ? 'financialConfirmation' : 'normal',
    memo: shown.memo,
    remark: intent === null ? null : remarkFor(intent),
    destination: destinationOf(context, roster, request, chain, shown.toAddress, history),
    rule: ruleOf(roster, evidence, shown.currency, amount, history),
    approvals: {
      required,
      counted,
      stillNeeded: Math.max(0, required - counted),
      given: approvals.map((approval) => ({ operator: approval.operator, at: approval.at, counts: approval.counts, note: approval.note, expired: approval.expired === true })),
      groupsStillNeeded: evidence.groupsStillNeeded.map(termText),
    },
    requestedAt,
    ageMs: Math.max(0, context.now() - (requestedAt ?? request.createdAt)),
    // The rules run again at each approval: what would hold it if sent now is shown before the approver signs.
    holdsNow: holdsIfSentNow(context, roster, evidence),
  };
}
