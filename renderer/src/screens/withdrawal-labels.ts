// Words for withdrawal states, service order statuses and outcomes, shared by the withdrawal screens: functions that
// read the message catalogue when called, so each render speaks the language in force.
import type { PayoutBatchState, WithdrawalState, WithdrawalView } from '../../../electron/contract';
import { t, type MessageId } from '../i18n';

const STATE_LABELS: Readonly<Record<WithdrawalState, MessageId>> = {
  awaitingApproval: 'withdrawals.state.awaitingApproval',
  approved: 'withdrawals.state.approved',
  rejected: 'withdrawals.state.rejected',
  cancelled: 'withdrawals.state.cancelled',
  submitting: 'withdrawals.state.submitting',
  submitUnknown: 'withdrawals.state.submitUnknown',
  submitted: 'withdrawals.state.submitted',
  submitFailed: 'withdrawals.state.submitFailed',
  completed: 'withdrawals.state.completed',
};

/** A request's state in plain words ("Waiting for approval"). */
export function stateLabel(state: WithdrawalState): string {
  return t(STATE_LABELS[state]);
}

const LINE_STATE_NAMES: Readonly<Record<WithdrawalState, MessageId>> = {
  awaitingApproval: 'withdrawals.lineState.awaitingApproval',
  approved: 'withdrawals.lineState.approved',
  rejected: 'withdrawals.lineState.rejected',
  cancelled: 'withdrawals.lineState.cancelled',
  submitting: 'withdrawals.lineState.submitting',
  submitUnknown: 'withdrawals.lineState.submitUnknown',
  submitted: 'withdrawals.lineState.submitted',
  submitFailed: 'withdrawals.lineState.submitFailed',
  completed: 'withdrawals.lineState.completed',
};

/** A batch line's state as the lines table shows it: the state's own name in English, words in German. */
export function lineStateName(state: WithdrawalState): string {
  return t(LINE_STATE_NAMES[state]);
}

const BATCH_STATE_NAMES: Readonly<Record<PayoutBatchState, MessageId>> = {
  awaitingApproval: 'withdrawals.batchState.awaitingApproval',
  approved: 'withdrawals.batchState.approved',
  rejected: 'withdrawals.batchState.rejected',
  cancelled: 'withdrawals.batchState.cancelled',
  inProgress: 'withdrawals.batchState.inProgress',
  done: 'withdrawals.batchState.done',
};

/** A batch payout's state as Batch payouts shows it: the state's own name in English, words in German. */
export function batchStateName(state: PayoutBatchState): string {
  return t(BATCH_STATE_NAMES[state]);
}

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

/** The spec's order statuses; `pending*` names may change, so any other is shown by the service's own name. */
type SpecStatus = 'pendingConfirm' | 'pendingTransfer' | 'pendingFinancialConfirmation' | 'pendingCallback' | 'success' | 'WithdrawRefund' | 'fail';

const ORDER_STATUS_TITLES: Readonly<Record<SpecStatus, MessageId>> = {
  pendingConfirm: 'withdrawals.orderStatus.title.pendingConfirm',
  pendingTransfer: 'withdrawals.orderStatus.title.pendingTransfer',
  pendingFinancialConfirmation: 'withdrawals.orderStatus.title.pendingFinancialConfirmation',
  pendingCallback: 'withdrawals.orderStatus.title.pendingCallback',
  success: 'withdrawals.orderStatus.title.success',
  WithdrawRefund: 'withdrawals.orderStatus.title.withdrawRefund',
  fail: 'withdrawals.orderStatus.title.fail',
};

const ORDER_STATUS_TEXTS: Readonly<Record<SpecStatus, MessageId>> = {
  pendingConfirm: 'withdrawals.orderStatus.text.pendingConfirm',
  pendingTransfer: 'withdrawals.orderStatus.text.pendingTransfer',
  pendingFinancialConfirmation: 'withdrawals.orderStatus.text.pendingFinancialConfirmation',
  pendingCallback: 'withdrawals.orderStatus.text.pendingCallback',
  success: 'withdrawals.orderStatus.text.success',
  WithdrawRefund: 'withdrawals.orderStatus.text.withdrawRefund',
  fail: 'withdrawals.orderStatus.text.fail',
};

function isSpecStatus(status: string): status is SpecStatus {
  return Object.hasOwn(ORDER_STATUS_TITLES, status);
}

/** A status as a heading: plain words for the spec's statuses, the service's own name (quoted) for any other. */
export function orderStatusTitle(status: string): string {
  return isSpecStatus(status) ? t(ORDER_STATUS_TITLES[status]) : t('withdrawals.orderStatus.title.other', { status });
}

/** What a status means, in a sentence; a status outside the spec says only that the service reported it. */
export function orderStatusText(status: string): string {
  return t(isSpecStatus(status) ? ORDER_STATUS_TEXTS[status] : 'withdrawals.orderStatus.text.other');
}

const STATUS_SOURCES: Readonly<Record<'create' | 'query' | 'callback', MessageId>> = {
  create: 'withdrawals.statusSource.create',
  query: 'withdrawals.statusSource.query',
  callback: 'withdrawals.statusSource.callback',
};

/** How the desk learnt of a status, in plain words. */
export function statusSourceText(source: 'create' | 'query' | 'callback'): string {
  return t(STATUS_SOURCES[source]);
}

const OUTCOME_LABELS: Readonly<Record<NonNullable<WithdrawalView['outcome']>, MessageId>> = {
  success: 'withdrawals.outcome.success',
  WithdrawRefund: 'withdrawals.outcome.withdrawRefund',
  fail: 'withdrawals.outcome.fail',
};

/** A final outcome in plain words ("Paid out"). */
export function outcomeLabel(outcome: NonNullable<WithdrawalView['outcome']>): string {
  return t(OUTCOME_LABELS[outcome]);
}

export function outcomeTone(outcome: WithdrawalView['outcome']): 'good' | 'bad' | 'neutral' {
  if (outcome === 'success') return 'good';
  if (outcome === null) return 'neutral';
  return 'bad';
}

/** What a financial-confirmation withdrawal needs from the merchant's finance side. */
export function financialConfirmationText(): string {
  return t('withdrawals.financialConfirmation.explained');
}
