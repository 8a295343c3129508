// The withdrawal order state table of the spec ("States and transitions"), exactly: creation -> pendingConfirm;
// normal: pendingConfirm -> pendingTransfer -> pendingCallback -> success; financialConfirmation: pendingConfirm ->
// pendingFinancialConfirmation -> pendingCallback -> success; any intermediate -> WithdrawRefund or fail; finals are final.
import { FINAL_ORDER_STATUSES, KNOWN_PENDING_ORDER_STATUSES, WITHDRAW_TYPES } from '../protocol/profile';

export type FinalStatus = (typeof FINAL_ORDER_STATUSES)[number];
export type PendingStatus = (typeof KNOWN_PENDING_ORDER_STATUSES)[number];
export type OrderStatus = FinalStatus | PendingStatus;
export type WithdrawType = (typeof WITHDRAW_TYPES)[number];

export const ORDER_STATUSES: readonly OrderStatus[] = [...KNOWN_PENDING_ORDER_STATUSES, ...FINAL_ORDER_STATUSES];
export const INITIAL_STATUS: PendingStatus = 'pendingConfirm';

/** The forward path of each flow (spec transitions table). */
const FORWARD: Readonly<Record<WithdrawType, Readonly<Partial<Record<OrderStatus, OrderStatus>>>>> = {
  normal: { pendingConfirm: 'pendingTransfer', pendingTransfer: 'pendingCallback', pendingCallback: 'success' },
  financialConfirmation: {
    pendingConfirm: 'pendingFinancialConfirmation',
    pendingFinancialConfirmation: 'pendingCallback',
    pendingCallback: 'success',
  },
};

/** States an order of this type can be in, in flow order. */
export function flowStates(type: WithdrawType): readonly OrderStatus[] {
  return type === 'normal'
    ? ['pendingConfirm', 'pendingTransfer', 'pendingCallback', 'success']
    : ['pendingConfirm', 'pendingFinancialConfirmation', 'pendingCallback', 'success'];
}

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

export function isWithdrawType(value: string): value is WithdrawType {
  return (WITHDRAW_TYPES as readonly string[]).includes(value);
}

export function isFinal(status: OrderStatus): status is FinalStatus {
  return (FINAL_ORDER_STATUSES as readonly string[]).includes(status);
}

/** The next state of the flow's forward path, or undefined from a final state. */
export function nextForward(type: WithdrawType, from: OrderStatus): OrderStatus | undefined {
  return FORWARD[type][from];
}

/** Whether `from -> to` is a move of the state table for an order of `type`. */
export function isLegalMove(type: WithdrawType, from: OrderStatus, to: OrderStatus): boolean {
  if (isFinal(from)) return false;
  if (!flowStates(type).includes(from)) return false;
  if (to === 'WithdrawRefund' || to === 'fail') return true;
  return FORWARD[type][from] === to;
}

/** States in which the order's funds have left the chain (a txid exists). */
export function hasOnChainTransfer(status: OrderStatus): boolean {
  return status === 'pendingCallback' || status === 'success';
}
