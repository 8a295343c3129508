// Words for withdrawal states, service order statuses and outcomes, shared by the withdrawal screens.
import type { WithdrawalState, WithdrawalView } from '../../../electron/contract';

export const STATE_LABELS: Readonly<Record<WithdrawalState, string>> = {
  awaitingApproval: 'Waiting for approval',
  approved: 'Approved, not yet sent',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  submitting: 'Sending to the service',
  submitUnknown: 'Submission unknown: checking with the service',
  submitted: 'At the service',
  submitFailed: 'Refused by the service',
  completed: 'Completed',
};

export const STATE_TONES: Readonly<Record<WithdrawalState, 'neutral' | 'info' | 'warn' | 'good' | 'bad'>> = {
  awaitingApproval: 'warn',
  approved: 'info',
  rejected: 'bad',
  cancelled: 'neutral',
  submitting: 'info',
  submitUnknown: 'warn',
  submitted: 'info',
  submitFailed: 'bad',
  completed: 'good',
};

/** The spec's order statuses as timeline headings, in plain words (an unknown status: orderStatusTitle). */
const ORDER_STATUS_TITLES: Readonly<Record<string, string>> = {
  pendingConfirm: 'Accepted by the service',
  pendingTransfer: 'Transfer under way',
  pendingFinancialConfirmation: 'Waiting for finance confirmation',
  pendingCallback: 'Transfer done, final notice pending',
  success: 'Paid out',
  WithdrawRefund: 'Refunded',
  fail: 'Failed',
};

/** A status as a heading: plain words for the spec's statuses, the service's own name (quoted) for any other. */
export function orderStatusTitle(status: string): string {
  return ORDER_STATUS_TITLES[status] ?? `Service status “${status}”`;
}

/** How the desk learnt of a status, in plain words. */
export const STATUS_SOURCE_TEXT: Readonly<Record<'create' | 'query' | 'callback', string>> = {
  create: "the service's answer when the order was created",
  query: 'asking the service for the order',
  callback: "the service's verified notice",
};

/** The spec's order statuses; `pending*` names may change, so unknown ones are shown verbatim. */
export const ORDER_STATUS_TEXT: Readonly<Record<string, string>> = {
  pendingConfirm: 'Accepted by the service, funds deducted, awaiting platform confirmation',
  pendingTransfer: 'Waiting for or executing the on-chain transfer',
  pendingFinancialConfirmation: "Awaiting your finance side's confirmation on the platform",
  pendingCallback: 'On-chain processing done, final notice pending',
  success: 'Succeeded: the recipient was paid',
  WithdrawRefund: 'Rejected and refunded: amount and fee returned to the balance',
  fail: 'Failed: amount and fee returned to the balance',
};

export const OUTCOME_LABELS: Readonly<Record<NonNullable<WithdrawalView['outcome']>, string>> = {
  success: 'Paid out',
  WithdrawRefund: 'Refunded',
  fail: 'Failed',
};

export function outcomeTone(outcome: WithdrawalView['outcome']): 'good' | 'bad' | 'neutral' {
  if (outcome === 'success') return 'good';
  if (outcome === null) return 'neutral';
  return 'bad';
}

export const FINANCIAL_CONFIRMATION_TEXT =
  "Financial confirmation: the platform executes the order only after your finance side confirms it in the platform's " +
  'finance-audit messenger. The merchant account needs a bound finance-audit messenger account; without one the service ' +
  'refuses the order (auditorMessengerNotBound).';
