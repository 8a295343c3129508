// Withdrawal policy per currency: how many approvals an amount needs, the daily limit, and whether
// financialConfirmation is used. Pure decimal arithmetic; the store keeps the policy rows.
import { formatMoney, Money, parseMoney } from '../../chains';
import { approvalPolicyProblems, type GroupRequirement } from './approval-groups';
import { type DestinationCap, velocityProblems, type VelocityWindow } from './velocity';

export interface ApprovalThreshold {
  /** Amounts strictly above this need `approvals` approvals. */
  readonly above: string;
  readonly approvals: number;
  /** Approval groups the tier also requires, OR of ANDs (withdrawals/approval-groups.ts); absent: none. */
  readonly groups?: GroupRequirement | undefined;
}

export interface WithdrawalPolicy {
  readonly thresholds: readonly ApprovalThreshold[];
  /** Sum of amounts requested per UTC day, or null for no limit. */
  readonly dailyLimit: string | null;
  readonly useFinancialConfirmation: boolean;
  /** "Only addresses from the book": a destination not in the signed address book is refused (issue 13). */
  readonly onlyFromBook?: boolean | undefined;
  /** "A new destination waits N hours": one added to the book (or first seen) less than N hours ago is refused. */
  readonly newDestinationWaitHours?: number | undefined;
  /** An approval signed longer ago than this many hours no longer counts (issue 20); absent: approvals never expire. */
  readonly approvalValidHours?: number | undefined;
  /** Rolling velocity windows on amount and count, per currency, initiator or destination (velocity.ts). */
  readonly windows?: readonly VelocityWindow[] | undefined;
  /** Per-destination caps for named addresses, judged next to the windows (velocity.ts). */
  readonly destinationCaps?: readonly DestinationCap[] | undefined;
  /** One approval more for an amount above `factor` × the destination's median paid, or (firstPayment) a first payment (payment-history.ts). */
  readonly unusualAmount?: UnusualAmountRule | undefined;
  /** "Above this amount, pay only addresses whose control is proven" (control-proof.ts), in the policy's currency; absent: off. */
  readonly provenControlAbove?: string | undefined;
}

export interface UnusualAmountRule {
  /** A decimal above 0. */
  readonly factor: string;
  readonly firstPayment: boolean;
}

/** Why an unusual-amount rule an admin wrote cannot be used ([] when it can). */
export function unusualAmountProblems(rule: UnusualAmountRule | undefined): string[] {
  if (rule === undefined) return [];
  try {
    if (parseMoney(rule.factor).lessThanOrEqualTo(0)) return [`the unusual-amount factor ${rule.factor} must be above 0`];
  } catch {
    return [`the unusual-amount factor "${rule.factor}" is not a decimal number (e.g. 3)`];
  }
  return [];
}

/** The longest wait a policy may set for a new destination: 30 days. */
export const MAX_NEW_DESTINATION_WAIT_HOURS = 720;

/** Default when no policy is set: one approval for any amount, no daily limit, normal withdrawals. */
export const DEFAULT_WITHDRAWAL_POLICY: WithdrawalPolicy = Object.freeze({
  thresholds: Object.freeze([{ above: '0', approvals: 1 }]),
  dailyLimit: null,
  useFinancialConfirmation: false,
});

export const MAX_APPROVALS = 5;

/** Problems with a policy an admin entered, or [] when it is usable. */
export function policyProblems(policy: WithdrawalPolicy): string[] {
  const problems: string[] = [];
  for (const threshold of policy.thresholds) {
    try {
      parseMoney(threshold.above);
    } catch {
      problems.push(`threshold "${threshold.above}" is not a decimal amount`);
    }
    if (!Number.isInteger(threshold.approvals) || threshold.approvals < 1 || threshold.approvals > MAX_APPROVALS) {
      problems.push(`approvals must be a whole number from 1 to ${MAX_APPROVALS}`);
    }
  }
  const wait = policy.newDestinationWaitHours;
  if (wait !== undefined && (!Number.isInteger(wait) || wait < 0 || wait > MAX_NEW_DESTINATION_WAIT_HOURS)) {
    problems.push(`the new-destination wait must be a whole number of hours from 0 to ${MAX_NEW_DESTINATION_WAIT_HOURS}`);
  }
  problems.push(...approvalPolicyProblems(policy));
  problems.push(...velocityProblems(policy.windows, policy.destinationCaps));
  problems.push(...unusualAmountProblems(policy.unusualAmount));
  if (policy.provenControlAbove !== undefined && !isAmountLimit(policy.provenControlAbove)) {
    problems.push(`the proven-control amount "${policy.provenControlAbove}" is not a decimal amount of 0 or more (e.g. 1000)`);
  }
  if (policy.dailyLimit !== null) {
    try {
      parseMoney(policy.dailyLimit);
    } catch {
      problems.push(`daily limit "${policy.dailyLimit}" is not a decimal amount`);
    }
  }
  return problems;
}

/** Whether `text` is a decimal amount of 0 or more. */
function isAmountLimit(text: string): boolean {
  try {
    return !parseMoney(text).isNegative();
  } catch {
    return false;
  }
}

/** Approvals needed for this amount: the highest threshold it exceeds; at least one, always (no money moves unapproved). */
export function requiredApprovals(policy: WithdrawalPolicy, amount: Money): number {
  let required = 1;
  for (const threshold of policy.thresholds) {
    if (amount.greaterThan(parseMoney(threshold.above))) required = Math.max(required, threshold.approvals);
  }
  return required;
}

export type DailyLimitCheck =
  | { readonly ok: true; readonly remainingAfter: Money | null }
  | { readonly ok: false; readonly remaining: Money; readonly reason: string };

/** Whether `amount` fits in today's limit given what was already requested today (not cancelled or rejected). */
export function checkDailyLimit(policy: WithdrawalPolicy, usedToday: Money, amount: Money): DailyLimitCheck {
  if (policy.dailyLimit === null) return { ok: true, remainingAfter: null };
  const limit = parseMoney(policy.dailyLimit);
  const remaining = Money.max(limit.minus(usedToday), 0);
  if (amount.greaterThan(remaining)) {
    return {
      ok: false,
      remaining,
      reason: `the daily limit is ${formatMoney(limit)}; ${formatMoney(usedToday)} was already requested today, so at most ${formatMoney(remaining)} remains`,
    };
  }
  return { ok: true, remainingAfter: remaining.minus(amount) };
}
