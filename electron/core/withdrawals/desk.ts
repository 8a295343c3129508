// The withdrawal desk: request → preflight → approvals → submit → track → final, every decision a signed statement
// over the withdrawal intent (APPROVALS.md), every move one of the lifecycle table's (contract/withdrawal-lifecycle),
// statement + state + audit row in one transaction. Invariants: nothing is sent unless the statements verify
// (verify.ts), whatever the state columns say; the userOrder is committed before the first byte is sent and every
// retry reuses it, so a withdrawal is never created twice (ARCHITECTURE rule 5); an ambiguous failure is resolved by
// checkWithdrawOrder.
import { randomBytes } from 'node:crypto';
import {
  checkAmount,
  CURRENCIES,
  formatMoney,
  isCurrencySymbol,
  lookAlikesAmong,
  sameAddressFormat,
  Money,
  parseMoney,
  sameAddress,
  validateForCurrency,
  type CurrencySymbol,
} from '../../chains';
import {
  isInFlight,
  isUnconfirmed,
  refusalFor,
  statesAllowing,
  unsafeTextProblem,
  WITHDRAWAL_STATE_TRAITS,
  type PreflightIssue,
  type ServiceAddressCheck,
  type WithdrawalPreflight,
  type WithdrawalView,
} from '../../contract';
import {
  computeFee,
  feeScheduleOf,
  isFinalOrderStatus,
  minimumAmount,
  ResponseVerificationError,
  ServiceError,
  signedEvidenceOf,
  TransportError,
  type WithdrawalOrderRecord,
} from '../../protocol';
import type { Kernel } from '../kernel/kernel';
import { type AuditRecorder, requireAnchorStanding } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { DeskError } from '../kernel/errors';
import { getCurrency, latestBalances, noAddressRulesReason, unknownCurrencyReason } from '../merchant';
import { actingAs, type ActingOperator, type OperatorCredentials } from '../operators';
import { ProfileNotFoundError } from '../secrets';
import {
  type ChainRow,
  encodeIntent,
  intentFingerprint,
  intentHash,
  remarkFor,
  type Roster,
  type WithdrawalIntent,
} from '../ledger';
import { stuckFlag, stuckThresholds } from './watchdog';
import { batchLineRef } from './batch-line-ref';
import { requestQuote } from './review';
import { listAddressBook, payeeNameOf, recordAddressUse } from '../address-book';
import { type StoreDatabase } from '../store/database';
import {
  createWithdrawalRequest,
  getWithdrawalRequest,
  listOrderStatusHistory,
  moveWithdrawalRequest,
  setWithdrawalRequestError,
  type WithdrawalRequest,
} from './withdrawals-table';
import { storeOrderStatus } from './facts';
import { destinationPolicyIssues } from './destination-policy';
import { provenControlIssue } from './control-proof';
import { poisoningRefusal } from '../deposits';
import { platformWithdrawalSettings, withdrawTypeRefusal } from './platform-rules';
import { checkDailyLimit, DEFAULT_WITHDRAWAL_POLICY, requiredApprovals, type WithdrawalPolicy } from './policy';
import {
  alteredFields,
  decisionSubject,
  judgeForSending,
  judgeForView,
  policyInForce,
  viewRowsFor,
  type IntentEvidence,
} from './verify';
import { sendHolds } from './send-rules';
import { dayTotalFromStatements, utcDayOf, velocityRefusals } from './signed-spending';
import { unusualAmountAtRequest } from './payment-history';
import type { SignedIntent } from './velocity';

/** The parts of the desk this file's functions use (each its module's interface, built by that module; the engine passes them together: engine.ts deskParts). */
type DeskParts = Kernel & AuditRecorder & ProfileSelection & MerchantConnection;

export interface WithdrawalInput {
  /** Any symbol the service may list; only the 13 this desk has address rules for can be withdrawn. */
  readonly currency: string;
  readonly amount: string;
  readonly toAddress: string;
  readonly withdrawType?: 'normal' | 'financialConfirmation' | undefined;
  readonly memo?: string | undefined;
}


/** A fresh merchant order number (§8: 1–64 of [A-Za-z0-9_-]): `td-` + UTC date + 96 random bits. */
export function newUserOrder(now: number): string {
  const day = new Date(now).toISOString().slice(0, 10).replace(/-/g, '');
  return `td-${day}-${randomBytes(12).toString('hex')}`;
}

export function policyFor(context: DeskParts, profile: string, currency: CurrencySymbol): WithdrawalPolicy {
  return policyInForce(context.trail.roster(profile, { cached: true }), currency, context.now()).policy;
}

function requestIdOf(id: string): number {
  const value = Number(id);
  if (!/^[0-9]{1,15}$/.test(id) || !Number.isSafeInteger(value)) throw new DeskError('invalidInput', `"${id}" is not a withdrawal request id`);
  return value;
}

export function loadRequest(context: DeskParts, id: string): WithdrawalRequest {
  const profile = context.activeProfile();
  const request = getWithdrawalRequest(context.db, requestIdOf(id));
  if (!request || request.profile !== profile.name) throw new DeskError('notFound', `no withdrawal request ${id} in profile ${profile.name}`);
  return request;
}

/**
 * The preflight of a currency this desk has no address rules for (one the service added later, or a symbol nobody
 * lists): refused, saying why; nothing else is checked.
 */
function unsupportedCurrencyPreflight(context: DeskParts, profile: string, symbol: string): WithdrawalPreflight {
  const listed = getCurrency(context.db, profile, symbol) !== undefined;
  const message = listed ? noAddressRulesReason(symbol) : unknownCurrencyReason(symbol);
  return {
    ok: false,
    errors: [{ field: 'currency', message }],
    warnings: [],
    fee: null,
    amountReceived: null,
    totalDebited: null,
    minimum: null,
    available: null,
    balanceAfter: null,
    requiredApprovals: requiredApprovals(DEFAULT_WITHDRAWAL_POLICY, new Money(0)),
    dailyLimitRemaining: null,
    newDestination: null,
    lookAlike: [],
    serviceAddressCheck: 'notAsked',
  };
}

/**
 * Checks a withdrawal before it is requested (and again before it is submitted): a currency the desk has address
 * rules for, amount syntax and decimals (§9.1), minimum and fee from the cached currency list (§9.4), balance for
 * amount + fee, the destination by the chain rules and by isAddress, new or look-alike destinations, the daily limit,
 * the withdrawal type the policy wants, and whether the platform allows that type for this merchant (merchantInfo).
 */
/**
 * `earlier` are intents the same signature will carry besides this one (a batch's earlier lines): the windows and
 * caps count them with the signed ones, so a batch's lines are judged together as they will be at send.
 */
export async function preflight(context: DeskParts, input: WithdrawalInput, decidingRoster?: Roster, initiator?: string, earlier: readonly SignedIntent[] = []): Promise<WithdrawalPreflight> {
  const profile = context.activeProfile();
  if (!isCurrencySymbol(input.currency)) return unsupportedCurrencyPreflight(context, profile.name, input.currency);
  const symbol = input.currency;
  const errors: PreflightIssue[] = [];
  const warnings: PreflightIssue[] = [];
  const info = CURRENCIES[symbol];
  // A request decides on the roster replayed afresh (its operator's); a view may use the cached replay.
  const roster = decidingRoster ?? context.trail.roster(profile.name, { cached: true });
  const policy = policyInForce(roster, symbol, context.now()).policy;

  const wantedType = policy.useFinancialConfirmation ? 'financialConfirmation' : 'normal';
  if (input.withdrawType !== undefined && input.withdrawType !== wantedType) {
    errors.push({
      field: 'withdrawType',
      message: policy.useFinancialConfirmation
        ? `the ${info.displayName} policy requires financialConfirmation (the platform's finance side confirms before paying out)`
        : `the ${info.displayName} policy uses normal withdrawals; an admin can enable financialConfirmation in the policy`,
    });
  }
  const platform = platformWithdrawalSettings(context.db, profile.name);
  const refusal = withdrawTypeRefusal(platform, wantedType);
  if (refusal) {
    errors.push({
      field: 'withdrawType',
      message: `${refusal.reason}: ${refusal.remedy} (the ${info.displayName} withdrawal policy sets the type; an admin changes it)`,
    });
  } else if (platform === null) {
    warnings.push({ field: 'withdrawType', message: "the platform's withdrawal settings for this merchant are not known yet (merchantInfo never answered): run a sync to check them" });
  }

  const amountCheck = checkAmount(symbol, input.amount);
  if (!amountCheck.ok) errors.push({ field: 'amount', message: amountCheck.reason });

  const currency = getCurrency(context.db, profile.name, symbol);
  const schedule = currency ? feeScheduleOf(currency.record) : undefined;
  if (!schedule) {
    errors.push({ field: 'currency', message: `${info.displayName} is not in the cached currency list: run a sync so fees and minimums are known` });
  }

  let fee: Money | null = null;
  let minimum: Money | null = null;
  if (schedule) {
    minimum = minimumAmount(schedule, 'withdraw');
    if (amountCheck.ok) {
      fee = computeFee(schedule, 'withdraw', amountCheck.value, info.decimals);
      if (amountCheck.value.lessThan(minimum)) {
        errors.push({ field: 'amount', message: `the minimum withdrawal of ${info.displayName} is ${formatMoney(minimum)}` });
      }
    }
  }

  const total = amountCheck.ok && fee ? amountCheck.value.plus(fee) : null;
  const balance = latestBalances(context.db, profile.name).find((snapshot) => snapshot.currency === symbol);
  const available = balance ? parseMoney(balance.available) : null;
  if (!balance) warnings.push({ field: 'balance', message: `no ${info.displayName} balance is cached yet: run a sync to check it` });
  else if (total && available && available.lessThan(total)) {
    errors.push({
      field: 'balance',
      message: `the available ${info.displayName} balance ${formatMoney(available)} does not cover amount plus fee ${formatMoney(total)}`,
    });
  }

  const addressCheck = validateForCurrency(symbol, input.toAddress);
  let serviceAddressCheck: ServiceAddressCheck = 'notAsked';
  let newDestination: boolean | null = null;
  const lookAlike: WithdrawalPreflight['lookAlike'][number][] = [];
  if (!addressCheck.valid) {
    errors.push({ field: 'toAddress', message: addressCheck.reason });
  } else {
    try {
      const answer = await context.publicClient().isAddress(input.toAddress, symbol);
      serviceAddressCheck = answer.valid ? 'accepted' : 'refused';
      if (!answer.valid) errors.push({ field: 'toAddress', message: `the service does not accept this address for ${info.displayName}` });
    } catch {
      serviceAddressCheck = 'unreachable';
      warnings.push({ field: 'service', message: 'the service could not be asked to check the address (offline); the chain rules passed' });
    }
    // Look-alikes across every chain of the address's format (an eth entry for a bnb payout); "paid before" on its own chain.
    const book = listAddressBook(context.db, profile.name).filter((entry) => sameAddressFormat(entry.chain, info.chain));
    const known = book.find((entry) => entry.chain === info.chain && sameAddress(entry.address, input.toAddress, info.chain));
    newDestination = !known?.useCount;
    if (newDestination) {
      warnings.push({ field: 'toAddress', message: 'this destination has never been paid from this desk: check it with the recipient' });
    }
    lookAlike.push(...lookAlikesAmong(book, input.toAddress, info.chain));
    if (lookAlike.length > 0) {
      warnings.push({
        field: 'toAddress',
        message:
          'this address looks like a known one (the same ends, or the same letters in another case, with a different address): a classic address-poisoning trick',
      });
    }
    const policyName = `the ${info.displayName} policy`;
    errors.push(...destinationPolicyIssues(policy, roster, { chain: info.chain, address: input.toAddress, policyName, now: context.now() }));
    // The poisoning radar: a look-alike of a book address that sent a verified deposit, until two admins clear it.
    const poisoning = poisoningRefusal(context, profile.name, roster, info.chain, input.toAddress, context.now());
    if (poisoning !== null) errors.push({ field: 'toAddress', message: poisoning });
    const unproven = amountCheck.ok ? provenControlIssue(context, roster, { profile: profile.name, chain: info.chain, address: input.toAddress, amount: input.amount, currency: symbol, policyName, above: policy.provenControlAbove }) : null;
    if (unproven !== null) errors.push({ field: 'toAddress', message: unproven });
  }

  let dailyLimitRemaining: string | null = null;
  if (amountCheck.ok && policy.dailyLimit !== null) {
    // Today's total from the signed request statements (signed-spending.ts), never from the request rows.
    const used = dayTotalFromStatements(context, roster, { profile: profile.name, currency: symbol, ...utcDayOf(context.now()) });
    if (typeof used === 'string') errors.push({ field: 'dailyLimit', message: used });
    else {
      const daily = checkDailyLimit(policy, used.total, amountCheck.value);
      if (!daily.ok) errors.push({ field: 'dailyLimit', message: daily.reason });
      else dailyLimitRemaining = daily.remainingAfter === null ? null : formatMoney(daily.remainingAfter);
    }
  }
  if (amountCheck.ok) {
    // The rolling windows and destination caps, from the signed intents too (velocity.ts); per initiator once one signs.
    const candidate = { key: null, currency: symbol, chain: info.chain, amount: amountCheck.value, initiator: initiator ?? null, destination: input.toAddress, at: context.now() };
    const counting = earlier.length === 0 ? '' : `counting the batch's ${earlier.length} earlier line${earlier.length === 1 ? '' : 's'} as signed: `;
    for (const message of velocityRefusals(context, roster, policy, profile.name, candidate, earlier)) errors.push({ field: 'amount', message: `${counting}${message}` });
  }

  // The unusual-amount rule adds one approval from the destination's verified payments (payment-history.ts).
  const unusual = amountCheck.ok ? unusualAmountAtRequest(context, roster, policy, profile.name, { currency: symbol, amount: amountCheck.value, destination: { chain: info.chain, address: input.toAddress }, key: null }) : null;
  if (typeof unusual === 'string') errors.push({ field: 'amount', message: unusual });
  else if (unusual?.adds === true) warnings.push({ field: 'amount', message: unusual.text });

  return {
    ok: errors.length === 0,
    errors,
    warnings,
    fee: fee ? formatMoney(fee) : null,
    amountReceived: amountCheck.ok ? formatMoney(amountCheck.value) : null,
    totalDebited: total ? formatMoney(total) : null,
    minimum: minimum ? formatMoney(minimum) : null,
    available: available ? formatMoney(available) : null,
    balanceAfter: available && total ? formatMoney(available.minus(total)) : null,
    requiredApprovals: (amountCheck.ok ? requiredApprovals(policy, amountCheck.value) : requiredApprovals(policy, new Money(0))) + (typeof unusual === 'object' && unusual?.adds === true ? 1 : 0),
    dailyLimitRemaining,
    newDestination,
    lookAlike,
    serviceAddressCheck,
  };
}

function fieldsOf(issues: readonly PreflightIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[issue.field] ??= issue.message;
  return fields;
}

/** A decision refused because of what the statements say: audited by the desk key, then thrown. */
function refuse(context: DeskParts, request: WithdrawalRequest, action: string, problems: readonly string[], operator: string | null): never {
  context.audit({ profile: request.profile, action, subject: request.userOrder, details: { id: request.id, operator, problems } });
  throw new DeskError('unverified', `withdrawal ${request.id} cannot be ${action.endsWith('submitRefused') ? 'submitted' : 'decided'}: ${problems.join('; ')}`);
}

/** A send the rules in force now hold: audited by the desk key, then refused naming each rule and what releases it. */
function hold(context: DeskParts, request: WithdrawalRequest, holds: readonly string[], operator: string): never {
  context.audit({ profile: request.profile, action: 'withdrawals/sendHeld', subject: request.userOrder, details: { id: request.id, operator, holds } });
  throw new DeskError('held', `withdrawal ${request.id} is held, not sent: ${holds.join('; ')}`);
}

export async function requestWithdrawal(
  context: DeskParts,
  input: WithdrawalInput & { readonly as: OperatorCredentials },
): Promise<{ withdrawal: WithdrawalView; preflight: WithdrawalPreflight }> {
  const acting = await actingAs(context, input.as, 'requestWithdrawal');
  const profile = context.activeProfile();
  const check = await preflight(context, input, acting.roster, acting.name);
  if (!check.ok) {
    throw new DeskError('invalidInput', `the withdrawal cannot be requested: ${check.errors.map((issue) => issue.message).join('; ')}`, fieldsOf(check.errors));
  }
  // The preflight refuses every currency without address rules; this only tells the compiler.
  if (!isCurrencySymbol(input.currency)) throw new DeskError('invalidInput', noAddressRulesReason(input.currency), { currency: noAddressRulesReason(input.currency) });
  const { policy, reference } = policyInForce(acting.roster, input.currency, context.now());
  const memo = input.memo === undefined || input.memo === '' ? null : input.memo.normalize('NFC');
  const intent: WithdrawalIntent = {
    v: 1,
    merchantId: profile.merchantId,
    currency: input.currency,
    amount: check.amountReceived ?? input.amount,
    toAddress: input.toAddress,
    withdrawType: policy.useFinancialConfirmation ? 'financialConfirmation' : 'normal',
    userOrder: newUserOrder(context.now()),
    memo,
    requiredApprovals: check.requiredApprovals,
    policy: reference,
    requestedAt: context.now(),
  };
  const hash = intentHash(intent);
  let request: WithdrawalRequest | undefined;
  // One transaction: the signed request statement (also the audit row) and the request row.
  await acting.sign({ kind: 'request', subject: hash, body: { intent: JSON.parse(encodeIntent(intent)) as never, warnings: check.warnings.map((issue) => issue.message), ...requestQuote(check) } }, (row) => {
    request = storeIntentRequest(context.db, { profile: profile.name, intent, initiator: acting.name, requestSeq: row.seq }, context.now());
  });
  if (!request) throw new DeskError('internal', 'the request was not stored');
  context.emit({ type: 'withdrawals/changed', id: String(request.id) });
  return { withdrawal: withdrawalView(context, request), preflight: check };
}

/** A line of a batch payout is decided on with its batch, as a whole (core/payouts): never on its own. */
function refuseBatchLine(request: WithdrawalRequest, verb: string): void {
  if (request.batchHash !== null) {
    throw new DeskError('conflict', `request ${request.id} is a line of a batch payout, which is approved as a whole: ${verb} the batch instead (payouts)`);
  }
}

/** The request and what its statements say now, for a decision by `acting`. */
function decisionContext(context: DeskParts, id: string, acting: ActingOperator): { request: WithdrawalRequest; evidence: IntentEvidence } {
  const request = loadRequest(context, id);
  if (request.intentHash === null) throw new DeskError('conflict', `request ${id} was made before signed approvals: cancel it and request the withdrawal again`);
  refuseBatchLine(request, 'decide on');
  return { request, evidence: judgeForView(context, acting.roster, request) };
}

export async function approveWithdrawal(context: DeskParts, id: string, credentials: OperatorCredentials): Promise<WithdrawalView> {
  const acting = await actingAs(context, credentials, 'approveWithdrawal');
  const { request, evidence } = decisionContext(context, id, acting);
  if (evidence.initiator?.toLowerCase() === acting.name.toLowerCase() || request.initiator.toLowerCase() === acting.name.toLowerCase()) {
    throw new DeskError('forbidden', 'the initiator of a request can never approve it: another approver must');
  }
  // An approved request whose approvals expired (issue 20) is approved again, by the same approver or another.
  const renewing = request.state === 'approved' && evidence.approvals.some((approval) => approval.expired === true);
  if (!renewing && !statesAllowing('approvalsComplete').includes(request.state)) throw new DeskError('conflict', `request ${id} is ${request.state}, not awaiting approval`);
  const earlier = evidence.approvals.find((approval) => approval.operator.toLowerCase() === acting.name.toLowerCase() && approval.expired !== true);
  if (earlier) throw new DeskError('conflict', `${acting.name} already ${earlier.decision === 'approve' ? 'approved' : 'rejected'} request ${id}`);
  if (evidence.intent === null) refuse(context, request, 'withdrawals/approveRefused', evidence.verification.problems, acting.name);
  // The approver signs the intent's hash but reads the request row: refuse when the row shows anything else.
  const shown = alteredFields(request, context.activeProfile().merchantId, evidence.intent);
  if (request.fingerprint !== intentFingerprint(evidence.intent)) shown.push('fingerprint');
  if (shown.length > 0) {
    const problem = `what this request shows differs from what ${evidence.initiator ?? request.initiator} signed (${shown.join(', ')}): the request was altered after it was made`;
    refuse(context, request, 'withdrawals/approveRefused', [problem], acting.name);
  }
  await acting.sign({ kind: 'approve', subject: request.intentHash as string, body: { fingerprint: request.fingerprint } }, () => settleApprovals(context, request));
  context.emit({ type: 'withdrawals/changed', id });
  return withdrawalView(context, loadRequest(context, id));
}

/** After an approve row: moves the request to approved once its verifying approvals reach the required count. */
export function settleApprovals(context: DeskParts, request: WithdrawalRequest): void {
  const after = judgeForView(context, context.trail.roster(request.profile), request);
  if (after.verification.countedApprovals >= after.verification.requiredApprovals && after.verification.ok) {
    moveWithdrawalRequest(context.db, request.id, 'approvalsComplete', context.now());
  }
}

/** Text a person types into a decision (a reason) is refused with control or text-direction characters (item 10). */
function checkReason(reason: string | undefined): void {
  const problem = reason === undefined ? null : unsafeTextProblem(reason, 'the reason');
  if (problem) throw new DeskError('invalidInput', problem, { reason: problem });
}

export async function rejectWithdrawal(context: DeskParts, id: string, reason: string, credentials: OperatorCredentials): Promise<WithdrawalView> {
  checkReason(reason);
  const acting = await actingAs(context, credentials, 'rejectWithdrawal');
  const { request, evidence } = decisionContext(context, id, acting);
  if (request.initiator.toLowerCase() === acting.name.toLowerCase()) {
    throw new DeskError('forbidden', 'the initiator reviews nothing of their own request: cancel it instead');
  }
  if (!statesAllowing('reject').includes(request.state)) throw new DeskError('conflict', `request ${id} is ${request.state}, not awaiting approval`);
  const earlier = evidence.approvals.find((approval) => approval.operator.toLowerCase() === acting.name.toLowerCase());
  if (earlier) throw new DeskError('conflict', `${acting.name} already ${earlier.decision === 'approve' ? 'approved' : 'rejected'} request ${id}`);
  await acting.sign({ kind: 'reject', subject: request.intentHash as string, body: { fingerprint: request.fingerprint, reason } }, () => {
    if (!moveWithdrawalRequest(context.db, request.id, 'reject', context.now())) throw new DeskError('conflict', `request ${id} changed meanwhile; look at it again`);
  });
  context.emit({ type: 'withdrawals/changed', id });
  return withdrawalView(context, loadRequest(context, id));
}

export async function cancelWithdrawal(context: DeskParts, id: string, reason: string | undefined, credentials: OperatorCredentials): Promise<WithdrawalView> {
  checkReason(reason);
  const acting = await actingAs(context, credentials, 'cancelWithdrawal');
  const request = loadRequest(context, id);
  refuseBatchLine(request, 'cancel');
  // Who made the request is what its signed statement says (the column is only a cache); legacy requests have only the column.
  const initiator = request.intentHash === null ? request.initiator : (judgeForView(context, acting.roster, request).initiator ?? '');
  if (initiator.toLowerCase() !== acting.name.toLowerCase() && acting.role !== 'admin') {
    throw new DeskError('forbidden', 'only the initiator of a request or an admin may cancel it');
  }
  if (!statesAllowing('cancel').includes(request.state)) {
    throw new DeskError('conflict', `request ${id} is ${request.state}: only a request not yet sent to the service can be cancelled`);
  }
  const subject = request.intentHash ?? `legacy:${request.userOrder}`;
  await acting.sign({ kind: 'cancel', subject, body: { fingerprint: request.fingerprint, reason: reason ?? null } }, () => {
    if (!moveWithdrawalRequest(context.db, request.id, 'cancel', context.now())) throw new DeskError('conflict', `request ${id} changed meanwhile; look at it again`);
  });
  context.emit({ type: 'withdrawals/changed', id });
  return withdrawalView(context, loadRequest(context, id));
}

/** Requests whose submission this process is driving: a second caller waits for the same attempt. */
const inFlight = new WeakMap<DeskParts, Map<number, Promise<WithdrawalView>>>();

/** Whether this process is sending a withdrawal now (an update waits for it: main/updates). */
export function sendingNow(context: DeskParts): boolean {
  return (inFlight.get(context)?.size ?? 0) > 0;
}

/**
 * Sends an approved request to the service (or resumes one left `submitting` by a crash or a lost answer), as the
 * decision of a named operator with the submit permission. The statements are verified first, whatever the state
 * columns say; the submit statement and the move to `submitting` commit together before the first byte is sent;
 * every attempt reuses the request's userOrder.
 */
export async function submitWithdrawal(context: DeskParts, id: string, credentials: OperatorCredentials): Promise<WithdrawalView> {
  const acting = await actingAs(context, credentials, 'submitWithdrawal');
  return submitAs(context, loadRequest(context, id), acting);
}

/**
 * submitWithdrawal for an operator whose passphrase was already checked (a batch payout submits its lines one by one
 * under one check): the same verification, statement and exactly-once path.
 */
export function submitAs(context: DeskParts, request: WithdrawalRequest, acting: ActingOperator): Promise<WithdrawalView> {
  let running = inFlight.get(context);
  if (!running) inFlight.set(context, (running = new Map()));
  const existing = running.get(request.id);
  if (existing) return existing;
  const attempt = drive(context, request, acting).finally(() => running.delete(request.id));
  running.set(request.id, attempt);
  return attempt;
}

async function drive(context: DeskParts, claimed: WithdrawalRequest, acting: ActingOperator): Promise<WithdrawalView> {
  const id = String(claimed.id);
  await requireAnchorStanding(context.db, context.trail); // no anchor, or a desk key the chain never enrolled: nothing is signed or sent
  // A team desk: one workstation at a time holds the claim to send this userOrder (it catches up first, so a submit
  // another workstation signed shows here as in flight and is resolved with checkWithdrawOrder, never sent anew).
  if (context.trail.team !== null) {
    await requireMerchantCredentials(context);
    await context.trail.team.holdSubmission(claimed.userOrder);
  }
  const request = loadRequestById(context, claimed.id);
  if (statesAllowing('submit').includes(request.state)) {
    const evidence = await judgeForSending(context, request);
    const problems = [...(evidence.chainProblem ? [`the audit log does not hold: ${evidence.chainProblem}`] : []), ...evidence.verification.problems];
    if (problems.length > 0) refuse(context, request, 'withdrawals/submitRefused', problems, acting.name);
    // The rules in force now, from the signed statements, once more right before the send (send-rules.ts).
    const holds = sendHolds(context, request, evidence, evidence.roster);
    if (holds.length > 0) hold(context, request, holds, acting.name);
    // §8 / rule 5: the submit statement and `submitting` are committed before the first byte; a crash from here on is resumed by reconcile().
    const body = { fingerprint: request.fingerprint, ...(request.batchHash === null ? {} : { userOrder: request.userOrder }) };
    await acting.sign({ kind: 'submit', subject: decisionSubject(request) as string, body }, () => {
      if (!moveWithdrawalRequest(context.db, request.id, 'submit', context.now())) throw new DeskError('conflict', `request ${id} changed while being submitted; look at it again`);
    });
    context.emit({ type: 'withdrawals/changed', id });
    await create(context, loadRequestById(context, request.id));
  } else if (isInFlight(request.state)) {
    await reconcile(context, request);
  } else {
    throw new DeskError('conflict', `request ${id} cannot be submitted: ${refusalFor(request.state, 'submit')}`);
  }
  return withdrawalView(context, loadRequest(context, id));
}

/**
 * A team workstation without the merchant credentials reviews and signs; only one that holds them may claim a
 * submission (so it never keeps another workstation waiting on a claim it cannot use).
 */
async function requireMerchantCredentials(context: DeskParts): Promise<void> {
  try {
    await context.keys();
  } catch (error) {
    if (!(error instanceof ProfileNotFoundError)) throw error;
    throw new DeskError(
      'credentials',
      `this workstation holds no merchant credentials for profile ${context.activeProfile().name}: submit from a workstation that holds them (reviewing and approving work here)`,
    );
  }
}

/** How many times one submission may send createWithdrawOrder (same userOrder) after checkWithdrawOrder found nothing. */
const CREATE_ATTEMPTS = 2;
/** Follows a failure answer's reason in `lastError` until checkWithdrawOrder has decided (see failureAnswered). */
const UNCONFIRMED_FAILURE = ' (not yet confirmed: a failure answer is not signed, PROTOCOL §3.3, so checkWithdrawOrder must show that no order exists first)';

/**
 * createWithdrawOrder with the request's own userOrder and the verified intent's fields; resolves ambiguity with
 * checkWithdrawOrder. Every call re-verifies the statements, a submit statement included, so a state column flipped
 * to `submitting` can never make the sync send anything.
 */
async function create(context: DeskParts, request: WithdrawalRequest, attemptsLeft = CREATE_ATTEMPTS): Promise<void> {
  // A team desk: the other workstations witness this workstation's history first (a withheld cancel refuses here).
  await context.trail.team?.witness();
  const evidence = await judgeForSending(context, request);
  const problems = [...(evidence.chainProblem ? [`the audit log does not hold: ${evidence.chainProblem}`] : []), ...evidence.verification.problems];
  if (!evidence.submitted) problems.push('no operator signed the submission');
  if (problems.length > 0 || evidence.intent === null) refuse(context, request, 'withdrawals/submitRefused', problems, null);
  const intent = evidence.intent;
  const client = await context.merchantClient();
  let record: WithdrawalOrderRecord;
  try {
    record = await client.createWithdrawOrder({
      userOrder: intent.userOrder,
      currency: intent.currency as CurrencySymbol,
      amount: intent.amount,
      toAddress: intent.toAddress,
      withdrawType: intent.withdrawType,
      remark: remarkFor(intent),
    });
  } catch (error) {
    if (error instanceof ServiceError) {
      // A failure answer is not a refusal we can trust: its message is not signed (PROTOCOL §3.3 signs ""), so a
      // replayed one could hide an order that was created. The request waits in submitUnknown, where nothing can be
      // decided, until checkWithdrawOrder finds the order or confirms that none exists.
      const moved = context.trail.transaction(() => {
        if (!moveWithdrawalRequest(context.db, request.id, 'failureAnswered', context.now())) return false;
        setWithdrawalRequestError(context.db, request.id, `the service answered "${error.reason}"${UNCONFIRMED_FAILURE}`, context.now());
        context.audit({ profile: request.profile, action: 'withdrawals/failureAnswered', subject: request.userOrder, details: { id: request.id, reason: error.reason } });
        return true;
      });
      if (moved) context.emit({ type: 'withdrawals/changed', id: String(request.id) });
      await reconcile(context, loadRequestById(context, request.id), attemptsLeft - 1);
      // Confirmed: no order exists, so the failure stands and is the answer to this submission.
      if (loadRequestById(context, request.id).state === 'submitFailed') throw error;
      return;
    }
    if (error instanceof TransportError && !error.ambiguous) {
      // Nothing reached the service: back to approved, to be submitted again.
      context.trail.transaction(() => {
        moveWithdrawalRequest(context.db, request.id, 'notSent', context.now());
        setWithdrawalRequestError(context.db, request.id, error.message, context.now());
      });
      context.emit({ type: 'withdrawals/changed', id: String(request.id) });
      throw error;
    }
    // Ambiguous: the order may exist. Ask the service, never create under a new userOrder.
    context.audit({ profile: request.profile, action: 'withdrawals/ambiguous', subject: request.userOrder, details: { id: request.id, error: error instanceof Error ? error.message : String(error) } });
    await reconcile(context, loadRequestById(context, request.id), attemptsLeft - 1);
    return;
  }
  accepted(context, request, record);
}

function loadRequestById(context: DeskParts, requestId: number): WithdrawalRequest {
  const request = getWithdrawalRequest(context.db, requestId);
  if (!request) throw new DeskError('notFound', `withdrawal request ${requestId} disappeared`);
  return request;
}

function accepted(context: DeskParts, request: WithdrawalRequest, record: WithdrawalOrderRecord): void {
  context.trail.team?.submissionSettled(request.userOrder, `accepted as ${record.apiOrder}`);
  context.trail.transaction(() => {
    storeOrderStatus(context, record, 'create');
    setWithdrawalRequestError(context.db, request.id, null, context.now());
    const chain = CURRENCIES[request.currency as CurrencySymbol].chain;
    // An EVM destination in another letter case counts for the entry already in the book.
    const entry = listAddressBook(context.db, request.profile, chain).find((known) => sameAddress(known.address, request.toAddress, chain));
    recordAddressUse(context.db, request.profile, chain, entry?.address ?? request.toAddress, context.now());
    context.audit({ profile: request.profile, action: 'withdrawals/accepted', subject: request.userOrder, details: { id: request.id, apiOrder: record.apiOrder, orderStatus: record.orderStatus, evidence: signedEvidenceOf(record) ?? null } });
  });
}

/**
 * Brings a `submitting`, `submitUnknown` or `submitted` request in line with the service: checkWithdrawOrder; when the
 * service has no such order and we were `submitting`, the create never landed and is sent again with the same
 * userOrder (after the statements are verified again); when we were `submitUnknown` (a failure answer), the refusal
 * is confirmed and the request becomes `submitFailed`. Returns whether the request's status advanced. Throws when the
 * service cannot be asked.
 */
export async function reconcile(context: DeskParts, request: WithdrawalRequest, createAttemptsLeft = CREATE_ATTEMPTS): Promise<boolean> {
  // A team desk: only the claim's holder may resolve a request that may still be sent (a conflict names the holder).
  if (context.trail.team !== null && isUnconfirmed(request.state)) await context.trail.team.holdSubmission(request.userOrder);
  const client = await context.merchantClient();
  let record: WithdrawalOrderRecord;
  try {
    record = await client.checkWithdrawOrder(request.userOrder);
  } catch (error) {
    if (error instanceof ServiceError && error.reason === 'withdrawOrderNotExist') {
      if (request.state === 'submitUnknown') {
        // The failure answer stands: no order exists. Only now may the request be cancelled or sent again.
        const refused = context.trail.transaction(() => {
          if (!moveWithdrawalRequest(context.db, request.id, 'refused', context.now())) return false;
          const answered = (request.lastError ?? 'the service answered with a failure').replace(UNCONFIRMED_FAILURE, '');
          setWithdrawalRequestError(context.db, request.id, `${answered}, and checkWithdrawOrder confirmed that no order exists`, context.now());
          context.audit({ profile: request.profile, action: 'withdrawals/submitFailed', subject: request.userOrder, details: { id: request.id, confirmedBy: 'checkWithdrawOrder' } });
          return true;
        });
        if (refused) context.emit({ type: 'withdrawals/changed', id: String(request.id) });
        return refused;
      }
      if (request.state === 'submitting') {
        if (createAttemptsLeft <= 0) {
          throw new DeskError('ambiguous', `withdrawal ${request.userOrder} could not be confirmed after ${CREATE_ATTEMPTS} attempts; it is checked again on the next sync.`);
        }
        await create(context, request, createAttemptsLeft);
        return true;
      }
      setWithdrawalRequestError(context.db, request.id, 'the service reports no order for this request (withdrawOrderNotExist)', context.now());
      context.audit({ profile: request.profile, action: 'withdrawals/orderMissing', subject: request.userOrder, details: { id: request.id } });
      return false;
    }
    if (error instanceof TransportError || error instanceof ResponseVerificationError) {
      throw new DeskError(
        'ambiguous',
        `the service may have received withdrawal ${request.userOrder}; it could not be confirmed (${error.message}). It is checked again on the next sync: do not create a new request for it.`,
      );
    }
    throw error;
  }
  if (isUnconfirmed(request.state)) {
    accepted(context, request, record);
    return true;
  }
  const intake = storeOrderStatus(context, record, 'query');
  return intake.known && intake.result.outcome === 'advanced';
}

/**
 * A request as the faces show it, with what its signed statements say (checked on every read). `rowsFor` gives its
 * statements (a list passes `sharedViewRows` so a batch's lines share theirs).
 */
export function withdrawalView(
  context: DeskParts,
  request: WithdrawalRequest,
  roster: Roster = context.trail.roster(request.profile, { cached: true }),
  rowsFor: (request: WithdrawalRequest) => ChainRow[] = (one) => viewRowsFor(context, one),
): WithdrawalView {
  const evidence = judgeForView(context, roster, request, rowsFor(request));
  const outcome = request.orderStatus !== null && isFinalOrderStatus(request.orderStatus) ? request.orderStatus : null;
  return {
    id: String(request.id),
    // From the signed intent when it verifies, never only from the column an editor could change.
    fingerprint: evidence.intent ? intentFingerprint(evidence.intent) : request.fingerprint,
    verification: WITHDRAWAL_STATE_TRAITS[request.state].awaitsSending || request.intentHash === null ? evidence.verification : { ...evidence.verification, problems: evidence.verification.problems.filter((problem) => !problem.startsWith('waiting')) },
    currency: request.currency as CurrencySymbol,
    amount: request.amount,
    toAddress: request.toAddress,
    // From the signed roster in force now, never from a table column: an address unbooked since names no payee.
    payee: isCurrencySymbol(request.currency) ? payeeNameOf(roster, CURRENCIES[request.currency].chain, request.toAddress, context.now()) : null,
    withdrawType: request.withdrawType as 'normal' | 'financialConfirmation',
    memo: request.memo,
    userOrder: request.userOrder,
    state: request.state,
    initiator: evidence.initiator ?? request.initiator,
    requiredApprovals: evidence.verification.requiredApprovals,
    approvals: evidence.approvals,
    sentBy: evidence.sentBy,
    orderStatus: request.orderStatus,
    outcome,
    apiOrder: request.apiOrder,
    fee: request.fee,
    txid: request.txid,
    platformMessage: typeof request.raw?.['message'] === 'string' && request.raw['message'] !== '' ? request.raw['message'] : null,
    platformRecord: request.raw,
    history: listOrderStatusHistory(context.db, request.id).map((event) => ({ status: event.status, source: event.source, observedAt: event.observedAt })),
    lastError: request.lastError,
    createdAt: request.createdAt,
    updatedAt: request.updatedAt,
    stuck: stuckFlag(request, stuckThresholds(context), context.now()),
    batch: batchLineRef(context.db, request),
  };
}

export function getWithdrawalView(context: DeskParts, id: string): WithdrawalView {
  return withdrawalView(context, loadRequest(context, id));
}

/**
 * The request row for a signed withdrawal intent: written in the same transaction as its `request` statement, at the
 * desk that signed it, at a team workstation that pulled it, or as a batch payout's line (`batchHash`).
 */
export function storeIntentRequest(
  db: StoreDatabase,
  signed: { readonly profile: string; readonly intent: WithdrawalIntent; readonly initiator: string; readonly requestSeq: number; readonly batchHash?: string },
  now: number,
): WithdrawalRequest {
  const { intent } = signed;
  return createWithdrawalRequest(
    db,
    {
      profile: signed.profile,
      currency: intent.currency,
      amount: intent.amount,
      toAddress: intent.toAddress,
      withdrawType: intent.withdrawType,
      memo: intent.memo,
      userOrder: intent.userOrder,
      initiator: signed.initiator,
      requiredApprovals: intent.requiredApprovals,
      intentJson: encodeIntent(intent),
      intentHash: intentHash(intent),
      fingerprint: intentFingerprint(intent),
      requestSeq: signed.requestSeq,
      ...(signed.batchHash === undefined ? {} : { batchHash: signed.batchHash }),
    },
    now,
  );
}
