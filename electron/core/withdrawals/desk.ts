// The withdrawal desk: request → preflight → approvals → submit → track → final. Invariants: no money moves
// without the approvals the policy required when the request was made; the initiator never approves their own
// request; the userOrder is committed before the first byte is sent and every retry reuses it, so a withdrawal is
// never created twice (ARCHITECTURE rule 5); an ambiguous failure is resolved by checkWithdrawOrder.
import { randomBytes } from 'node:crypto';
import {
  checkAmount,
  CURRENCIES,
  differingPositions,
  formatMoney,
  looksAlike,
  Money,
  parseMoney,
  validateForCurrency,
  type CurrencySymbol,
} from '../../chains';
import type { PreflightIssue, WithdrawalPreflight, WithdrawalState, WithdrawalView } from '../../contract';
import {
  computeFee,
  isFinalOrderStatus,
  minimumAmount,
  ResponseVerificationError,
  ServiceError,
  TransportError,
  type FeeSchedule,
  type WithdrawalOrderRecord,
} from '../../protocol';
import type { DeskContext } from '../context';
import { DeskError } from '../errors';
import { actingAs, type ActingOperator } from '../operators';
import {
  approvalTally,
  createWithdrawalRequest,
  getAddressBookEntry,
  getCurrency,
  getOperator,
  getPolicy,
  getWithdrawalRequest,
  latestBalances,
  listAddressBook,
  listApprovals,
  listOrderStatusHistory,
  listWithdrawalRequests,
  recordAddressUse,
  recordApproval,
  setWithdrawalRequestError,
  setWithdrawalRequestState,
  type WithdrawalRequest,
} from '../store';
import { storeOrderStatus } from '../sync/records';
import { checkDailyLimit, DEFAULT_WITHDRAWAL_POLICY, requiredApprovals, type WithdrawalPolicy } from './policy';

export interface WithdrawalInput {
  readonly currency: CurrencySymbol;
  readonly amount: string;
  readonly toAddress: string;
  readonly withdrawType?: 'normal' | 'financialConfirmation' | undefined;
  readonly memo?: string | undefined;
}

const DAY_MS = 86_400_000;
/** States whose amounts count against the daily limit (everything not refused or withdrawn). */
const COUNTED_STATES: ReadonlySet<WithdrawalState> = new Set(['awaitingApproval', 'approved', 'submitting', 'submitted', 'completed']);

/** A fresh merchant order number (§8: 1–64 of [A-Za-z0-9_-]): `td-` + UTC date + 96 random bits. */
export function newUserOrder(now: number): string {
  const day = new Date(now).toISOString().slice(0, 10).replace(/-/g, '');
  return `td-${day}-${randomBytes(12).toString('hex')}`;
}

export function policyFor(context: DeskContext, profile: string, currency: CurrencySymbol): WithdrawalPolicy {
  return getPolicy(context.db, profile, currency) ?? DEFAULT_WITHDRAWAL_POLICY;
}

function requestIdOf(id: string): number {
  const value = Number(id);
  if (!/^[0-9]{1,15}$/.test(id) || !Number.isSafeInteger(value)) throw new DeskError('invalidInput', `"${id}" is not a withdrawal request id`);
  return value;
}

function loadRequest(context: DeskContext, id: string): WithdrawalRequest {
  const profile = context.activeProfile();
  const request = getWithdrawalRequest(context.db, requestIdOf(id));
  if (!request || request.profile !== profile.name) throw new DeskError('notFound', `no withdrawal request ${id} in profile ${profile.name}`);
  return request;
}

/** Sum requested today (UTC) for a currency, in states that count. */
function usedToday(context: DeskContext, profile: string, currency: string): Money {
  const dayStart = Math.floor(context.now() / DAY_MS) * DAY_MS;
  let total = new Money(0);
  let after: string | null = null;
  for (;;) {
    const page = listWithdrawalRequests(context.db, { profile, limit: 200, after });
    for (const request of page.rows) {
      if (request.createdAt < dayStart) return total;
      if (request.currency === currency && COUNTED_STATES.has(request.state)) total = total.plus(parseMoney(request.amount));
    }
    if (page.nextCursor === null) return total;
    after = page.nextCursor;
  }
}

function feeSchedule(record: Readonly<Record<string, unknown>>): FeeSchedule | undefined {
  const fields = [
    'deposit_fixed_fee', 'deposit_percent_fee', 'deposit_min_fee', 'deposit_max_fee',
    'withdraw_fixed_fee', 'withdraw_percent_fee', 'withdraw_min_fee', 'withdraw_max_fee',
    'deposit_min', 'withdraw_min',
  ] as const;
  return fields.every((field) => typeof record[field] === 'string') ? (record as unknown as FeeSchedule) : undefined;
}

/**
 * Checks a withdrawal before it is requested (and again before it is submitted): currency, amount syntax and
 * decimals (§9.1), minimum and fee from the cached currency list (§9.4), balance for amount + fee, the
 * destination by the chain rules and by isAddress, new or look-alike destinations, the daily limit, and the
 * withdrawal type the policy wants.
 */
export async function preflight(context: DeskContext, input: WithdrawalInput): Promise<WithdrawalPreflight> {
  const profile = context.activeProfile();
  const errors: PreflightIssue[] = [];
  const warnings: PreflightIssue[] = [];
  const info = CURRENCIES[input.currency];
  const policy = policyFor(context, profile.name, input.currency);

  const wantedType = policy.useFinancialConfirmation ? 'financialConfirmation' : 'normal';
  if (input.withdrawType !== undefined && input.withdrawType !== wantedType) {
    errors.push({
      field: 'withdrawType',
      message: policy.useFinancialConfirmation
        ? `the ${info.displayName} policy requires financialConfirmation (the platform's finance side confirms before paying out)`
        : `the ${info.displayName} policy uses normal withdrawals; an admin can enable financialConfirmation in the policy`,
    });
  }

  const amountCheck = checkAmount(input.currency, input.amount);
  if (!amountCheck.ok) errors.push({ field: 'amount', message: amountCheck.reason });

  const currency = getCurrency(context.db, profile.name, input.currency);
  const schedule = currency ? feeSchedule(currency.record) : undefined;
  if (!schedule) {
    errors.push({ field: 'currency', message: `${info.displayName} is not in the cached currency list: run a sync so fees and minimums are known` });
  }

  let fee: Money | null = null;
  let minimum: Money | null = null;
  if (schedule) {
    minimum = minimumAmount(schedule, 'withdraw');
    if (amountCheck.ok) {
      fee = computeFee(schedule, 'withdraw', amountCheck.value, input.currency);
      if (amountCheck.value.lessThan(minimum)) {
        errors.push({ field: 'amount', message: `the minimum withdrawal of ${info.displayName} is ${formatMoney(minimum)}` });
      }
    }
  }

  const total = amountCheck.ok && fee ? amountCheck.value.plus(fee) : null;
  const balance = latestBalances(context.db, profile.name).find((snapshot) => snapshot.currency === input.currency);
  const available = balance ? parseMoney(balance.available) : null;
  if (!balance) warnings.push({ field: 'balance', message: `no ${info.displayName} balance is cached yet: run a sync to check it` });
  else if (total && available && available.lessThan(total)) {
    errors.push({
      field: 'balance',
      message: `the available ${info.displayName} balance ${formatMoney(available)} does not cover amount plus fee ${formatMoney(total)}`,
    });
  }

  const addressCheck = validateForCurrency(input.currency, input.toAddress);
  let serviceAddressCheck: boolean | null = null;
  let newDestination = false;
  const lookAlike: WithdrawalPreflight['lookAlike'][number][] = [];
  if (!addressCheck.valid) {
    errors.push({ field: 'toAddress', message: addressCheck.reason });
  } else {
    try {
      const answer = await context.publicClient().isAddress(input.toAddress, input.currency);
      serviceAddressCheck = answer.valid;
      if (!answer.valid) errors.push({ field: 'toAddress', message: `the service does not accept this address for ${info.displayName}` });
    } catch {
      warnings.push({ field: 'service', message: 'the service could not be asked to check the address (offline); the chain rules passed' });
    }
    const known = getAddressBookEntry(context.db, profile.name, info.chain, input.toAddress);
    if (!known) {
      newDestination = true;
      warnings.push({ field: 'toAddress', message: 'this destination has never been paid from this desk: check it with the recipient' });
    }
    for (const entry of listAddressBook(context.db, profile.name, info.chain)) {
      if (looksAlike(entry.address, input.toAddress)) {
        lookAlike.push({ knownAddress: entry.address, label: entry.label, differingPositions: differingPositions(entry.address, input.toAddress) });
      }
    }
    if (lookAlike.length > 0) {
      warnings.push({
        field: 'toAddress',
        message: 'this address looks like a known one (same first and last 4 characters, different middle): a classic address-poisoning trick',
      });
    }
  }

  let dailyLimitRemaining: string | null = null;
  if (amountCheck.ok) {
    const daily = checkDailyLimit(policy, usedToday(context, profile.name, input.currency), amountCheck.value);
    if (!daily.ok) errors.push({ field: 'dailyLimit', message: daily.reason });
    else dailyLimitRemaining = daily.remainingAfter === null ? null : formatMoney(daily.remainingAfter);
  }

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
    requiredApprovals: amountCheck.ok ? requiredApprovals(policy, amountCheck.value) : requiredApprovals(policy, new Money(0)),
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

export async function requestWithdrawal(
  context: DeskContext,
  input: WithdrawalInput & { readonly as: ActingOperator },
): Promise<{ withdrawal: WithdrawalView; preflight: WithdrawalPreflight }> {
  const operator = await actingAs(context, input.as, 'requestWithdrawal');
  const profile = context.activeProfile();
  const check = await preflight(context, input);
  if (!check.ok) {
    throw new DeskError('invalidInput', `the withdrawal cannot be requested: ${check.errors.map((issue) => issue.message).join('; ')}`, fieldsOf(check.errors));
  }
  const policy = policyFor(context, profile.name, input.currency);
  const request = createWithdrawalRequest(
    context.db,
    {
      profile: profile.name,
      currency: input.currency,
      amount: check.amountReceived ?? input.amount,
      toAddress: input.toAddress,
      withdrawType: policy.useFinancialConfirmation ? 'financialConfirmation' : 'normal',
      memo: input.memo ?? null,
      userOrder: newUserOrder(context.now()),
      initiatorId: operator.id,
      requiredApprovals: check.requiredApprovals,
    },
    context.now(),
  );
  context.audit({
    profile: profile.name,
    operator: operator.name,
    action: 'withdrawals/request',
    subject: request.userOrder,
    details: {
      id: request.id,
      currency: request.currency,
      amount: request.amount,
      toAddress: request.toAddress,
      withdrawType: request.withdrawType,
      fee: check.fee,
      requiredApprovals: request.requiredApprovals,
      warnings: check.warnings.map((issue) => issue.message),
    },
  });
  context.emit({ type: 'withdrawals/changed', id: String(request.id) });
  return { withdrawal: withdrawalView(context, request), preflight: check };
}

export async function approveWithdrawal(context: DeskContext, id: string, acting: ActingOperator): Promise<WithdrawalView> {
  const operator = await actingAs(context, acting, 'approveWithdrawal');
  const request = loadRequest(context, id);
  if (request.initiatorId === operator.id) {
    throw new DeskError('forbidden', 'the initiator of a request can never approve it: another approver must');
  }
  if (request.state !== 'awaitingApproval') throw new DeskError('conflict', `request ${id} is ${request.state}, not awaiting approval`);
  const recorded = recordApproval(context.db, { requestId: request.id, operatorId: operator.id, decision: 'approve' }, context.now());
  if (!recorded.recorded) {
    throw new DeskError('conflict', `${operator.name} already ${recorded.existing.decision === 'approve' ? 'approved' : 'rejected'} request ${id}`);
  }
  const tally = approvalTally(context.db, request.id);
  const complete = tally.approvals >= request.requiredApprovals;
  if (complete) setWithdrawalRequestState(context.db, request.id, 'approved', context.now(), 'awaitingApproval');
  context.audit({
    profile: request.profile,
    operator: operator.name,
    action: 'withdrawals/approve',
    subject: request.userOrder,
    details: { id: request.id, approvals: tally.approvals, required: request.requiredApprovals },
  });
  context.emit({ type: 'withdrawals/changed', id });
  return withdrawalView(context, loadRequest(context, id));
}

export async function rejectWithdrawal(context: DeskContext, id: string, reason: string, acting: ActingOperator): Promise<WithdrawalView> {
  const operator = await actingAs(context, acting, 'rejectWithdrawal');
  const request = loadRequest(context, id);
  if (request.initiatorId === operator.id) {
    throw new DeskError('forbidden', 'the initiator reviews nothing of their own request: cancel it instead');
  }
  if (request.state !== 'awaitingApproval') throw new DeskError('conflict', `request ${id} is ${request.state}, not awaiting approval`);
  const recorded = recordApproval(context.db, { requestId: request.id, operatorId: operator.id, decision: 'reject', reason }, context.now());
  if (!recorded.recorded) {
    throw new DeskError('conflict', `${operator.name} already ${recorded.existing.decision === 'approve' ? 'approved' : 'rejected'} request ${id}`);
  }
  setWithdrawalRequestState(context.db, request.id, 'rejected', context.now(), 'awaitingApproval');
  context.audit({ profile: request.profile, operator: operator.name, action: 'withdrawals/reject', subject: request.userOrder, details: { id: request.id, reason } });
  context.emit({ type: 'withdrawals/changed', id });
  return withdrawalView(context, loadRequest(context, id));
}

export async function cancelWithdrawal(context: DeskContext, id: string, reason: string | undefined, acting: ActingOperator): Promise<WithdrawalView> {
  const operator = await actingAs(context, acting, 'cancelWithdrawal');
  const request = loadRequest(context, id);
  if (request.initiatorId !== operator.id && operator.role !== 'admin') {
    throw new DeskError('forbidden', 'only the initiator of a request or an admin may cancel it');
  }
  const cancellable: WithdrawalState[] = ['awaitingApproval', 'approved', 'submitFailed'];
  if (!setWithdrawalRequestState(context.db, request.id, 'cancelled', context.now(), cancellable)) {
    throw new DeskError('conflict', `request ${id} is ${request.state}: only a request not yet sent to the service can be cancelled`);
  }
  context.audit({ profile: request.profile, operator: operator.name, action: 'withdrawals/cancel', subject: request.userOrder, details: { id: request.id, reason: reason ?? null } });
  context.emit({ type: 'withdrawals/changed', id });
  return withdrawalView(context, loadRequest(context, id));
}

/** Requests whose submission this process is driving: a second caller waits for the same attempt. */
const inFlight = new WeakMap<DeskContext, Map<number, Promise<WithdrawalView>>>();

/**
 * Sends an approved request to the service (or resumes one left `submitting` by a crash or a lost answer). The
 * state moves to `submitting` in SQLite before the first byte is sent; every attempt reuses the request's userOrder.
 */
export function submitWithdrawal(context: DeskContext, id: string): Promise<WithdrawalView> {
  const request = loadRequest(context, id);
  let running = inFlight.get(context);
  if (!running) inFlight.set(context, (running = new Map()));
  const existing = running.get(request.id);
  if (existing) return existing;
  const attempt = drive(context, request).finally(() => running.delete(request.id));
  running.set(request.id, attempt);
  return attempt;
}

async function drive(context: DeskContext, request: WithdrawalRequest): Promise<WithdrawalView> {
  const id = String(request.id);
  if (request.state === 'approved' || request.state === 'submitFailed') {
    // §8 / rule 5: committed before the first byte; a crash from here on is resumed by reconcile().
    if (!setWithdrawalRequestState(context.db, request.id, 'submitting', context.now(), ['approved', 'submitFailed'])) {
      throw new DeskError('conflict', `request ${id} changed while being submitted; look at it again`);
    }
    context.audit({ profile: request.profile, action: 'withdrawals/submit', subject: request.userOrder, details: { id: request.id } });
    context.emit({ type: 'withdrawals/changed', id });
    await create(context, request);
  } else if (request.state === 'submitting' || request.state === 'submitted') {
    await reconcile(context, request);
  } else {
    throw new DeskError('conflict', `request ${id} is ${request.state}: only an approved request can be submitted`);
  }
  return withdrawalView(context, loadRequest(context, id));
}

/** How many times one submission may send createWithdrawOrder (same userOrder) after checkWithdrawOrder found nothing. */
const CREATE_ATTEMPTS = 2;

/** createWithdrawOrder with the request's own userOrder; resolves ambiguity with checkWithdrawOrder. */
async function create(context: DeskContext, request: WithdrawalRequest, attemptsLeft = CREATE_ATTEMPTS): Promise<void> {
  const client = await context.merchantClient();
  let record: WithdrawalOrderRecord;
  try {
    record = await client.createWithdrawOrder({
      userOrder: request.userOrder,
      currency: request.currency as CurrencySymbol,
      amount: request.amount,
      toAddress: request.toAddress,
      withdrawType: request.withdrawType as 'normal' | 'financialConfirmation',
      ...(request.memo ? { remark: request.memo } : {}),
    });
  } catch (error) {
    if (error instanceof ServiceError) {
      // A definite refusal: no order exists. The request may be submitted again (same userOrder) or cancelled.
      setWithdrawalRequestState(context.db, request.id, 'submitFailed', context.now(), 'submitting');
      setWithdrawalRequestError(context.db, request.id, error.reason, context.now());
      context.audit({ profile: request.profile, action: 'withdrawals/submitFailed', subject: request.userOrder, details: { id: request.id, reason: error.reason } });
      context.emit({ type: 'withdrawals/changed', id: String(request.id) });
      throw error;
    }
    if (error instanceof TransportError && !error.ambiguous) {
      // Nothing reached the service: back to approved, to be submitted again.
      setWithdrawalRequestState(context.db, request.id, 'approved', context.now(), 'submitting');
      setWithdrawalRequestError(context.db, request.id, error.message, context.now());
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

function loadRequestById(context: DeskContext, requestId: number): WithdrawalRequest {
  const request = getWithdrawalRequest(context.db, requestId);
  if (!request) throw new DeskError('notFound', `withdrawal request ${requestId} disappeared`);
  return request;
}

function accepted(context: DeskContext, request: WithdrawalRequest, record: WithdrawalOrderRecord): void {
  storeOrderStatus(context, record, 'create');
  setWithdrawalRequestError(context.db, request.id, null, context.now());
  recordAddressUse(context.db, request.profile, CURRENCIES[request.currency as CurrencySymbol].chain, request.toAddress, context.now());
  context.audit({ profile: request.profile, action: 'withdrawals/accepted', subject: request.userOrder, details: { id: request.id, apiOrder: record.apiOrder, orderStatus: record.orderStatus } });
}

/**
 * Brings a `submitting` or `submitted` request in line with the service: checkWithdrawOrder; when the service has
 * no such order and we were `submitting`, the create never landed and is sent again with the same userOrder.
 * Returns whether the request's status advanced. Throws when the service cannot be asked.
 */
export async function reconcile(context: DeskContext, request: WithdrawalRequest, createAttemptsLeft = CREATE_ATTEMPTS): Promise<boolean> {
  const client = await context.merchantClient();
  let record: WithdrawalOrderRecord;
  try {
    record = await client.checkWithdrawOrder(request.userOrder);
  } catch (error) {
    if (error instanceof ServiceError && error.reason === 'withdrawOrderNotExist') {
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
  if (request.state === 'submitting') {
    accepted(context, request, record);
    return true;
  }
  const intake = storeOrderStatus(context, record, 'query');
  return intake.known && intake.result.outcome === 'advanced';
}

export function withdrawalView(context: DeskContext, request: WithdrawalRequest): WithdrawalView {
  const names = new Map<number, string>();
  const nameOf = (operatorId: number): string => {
    let name = names.get(operatorId);
    if (name === undefined) {
      name = getOperator(context.db, operatorId)?.name ?? `operator ${operatorId}`;
      names.set(operatorId, name);
    }
    return name;
  };
  const outcome = request.orderStatus !== null && isFinalOrderStatus(request.orderStatus) ? request.orderStatus : null;
  return {
    id: String(request.id),
    currency: request.currency as CurrencySymbol,
    amount: request.amount,
    toAddress: request.toAddress,
    withdrawType: request.withdrawType as 'normal' | 'financialConfirmation',
    memo: request.memo,
    userOrder: request.userOrder,
    state: request.state,
    initiator: nameOf(request.initiatorId),
    requiredApprovals: request.requiredApprovals,
    approvals: listApprovals(context.db, request.id).map((approval) => ({
      operator: nameOf(approval.operatorId),
      decision: approval.decision,
      reason: approval.reason,
      at: approval.at,
    })),
    orderStatus: request.orderStatus,
    outcome,
    apiOrder: request.apiOrder,
    fee: request.fee,
    txid: request.txid,
    history: listOrderStatusHistory(context.db, request.id).map((event) => ({ status: event.status, source: event.source, observedAt: event.observedAt })),
    lastError: request.lastError,
    createdAt: request.createdAt,
    updatedAt: request.updatedAt,
  };
}

export function getWithdrawalView(context: DeskContext, id: string): WithdrawalView {
  return withdrawalView(context, loadRequest(context, id));
}
