// The ONE transition table of a withdrawal request's desk workflow (the platform's orderStatus has its own, in
// sandbox/order-states.ts). The desk, sync and callbacks, the renderer and the CLI all ask this module which moves
// are legal and which decisions a state still allows; nobody else spells out the moves. Pure, importable anywhere.
//
//   awaitingApproval ──approvalsComplete──▶ approved ──submit──▶ submitting ──accepted──▶ submitted ──final──▶ completed
//        │  ▲ approvalRecorded                │  ▲                 │  │ notSent ▲             ▲
//        │  └─────────────┘                   │  └──────notSent─────┘  └refused▶ submitFailed ─┘ accepted (order found)
//        ├─reject──▶ rejected                 │                                   │ submit (same userOrder)
//        └─cancel──▶ cancelled ◀──cancel──────┴───────────cancel──────────────────┘

export const WITHDRAWAL_STATES = ['awaitingApproval', 'approved', 'rejected', 'cancelled', 'submitting', 'submitted', 'submitFailed', 'completed'] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

export const WITHDRAWAL_EVENTS = [
  'approvalRecorded',
  'approvalsComplete',
  'reject',
  'cancel',
  'submit',
  'notSent',
  'refused',
  'accepted',
  'final',
] as const;
export type WithdrawalEvent = (typeof WITHDRAWAL_EVENTS)[number];

interface Move {
  readonly from: readonly WithdrawalState[];
  readonly to: WithdrawalState;
}

/** Every legal move: an event not listed for a state is refused. */
export const WITHDRAWAL_TRANSITIONS: Readonly<Record<WithdrawalEvent, Move>> = {
  /** An approval that does not yet reach the policy's number. */
  approvalRecorded: { from: ['awaitingApproval'], to: 'awaitingApproval' },
  /** The approval that reaches it. */
  approvalsComplete: { from: ['awaitingApproval'], to: 'approved' },
  reject: { from: ['awaitingApproval'], to: 'rejected' },
  /** Only before anything may have reached the service. */
  cancel: { from: ['awaitingApproval', 'approved', 'submitFailed'], to: 'cancelled' },
  /** Committed before the first byte is sent (ARCHITECTURE rule 5); a refused order may be sent again, same userOrder. */
  submit: { from: ['approved', 'submitFailed'], to: 'submitting' },
  /** Nothing reached the service: back to approved. */
  notSent: { from: ['submitting'], to: 'approved' },
  /** The service refused the order and checkWithdrawOrder confirmed none exists. */
  refused: { from: ['submitting'], to: 'submitFailed' },
  /** An order exists at the service (create answer, check, or callback). */
  accepted: { from: ['submitting', 'submitFailed', 'submitted'], to: 'submitted' },
  /** Its orderStatus reached success, WithdrawRefund or fail. */
  final: { from: ['submitted'], to: 'completed' },
};

export const FINAL_WITHDRAWAL_STATES: readonly WithdrawalState[] = ['rejected', 'cancelled', 'completed'];

export function isWithdrawalState(value: string): value is WithdrawalState {
  return (WITHDRAWAL_STATES as readonly string[]).includes(value);
}

/** The state after `event`, or null when the event is not legal in `state`. */
export function nextWithdrawalState(state: WithdrawalState, event: WithdrawalEvent): WithdrawalState | null {
  const move = WITHDRAWAL_TRANSITIONS[event];
  return move.from.includes(state) ? move.to : null;
}

/** The states from which `event` may happen (for compare-and-set writes). */
export function statesAllowing(event: WithdrawalEvent): readonly WithdrawalState[] {
  return WITHDRAWAL_TRANSITIONS[event].from;
}

export function canWithdrawal(state: WithdrawalState, event: WithdrawalEvent): boolean {
  return nextWithdrawalState(state, event) !== null;
}

/** The decisions a person can still take on a request in `state` (what a face offers as buttons or commands). */
export function decisionsOpen(state: WithdrawalState): { approve: boolean; reject: boolean; cancel: boolean; submit: boolean } {
  return {
    approve: canWithdrawal(state, 'approvalsComplete'),
    reject: canWithdrawal(state, 'reject'),
    cancel: canWithdrawal(state, 'cancel'),
    submit: canWithdrawal(state, 'submit'),
  };
}

/** States in which a person still has a decision to take before anything reaches the service (the approvals queue). */
export const DECISION_STATES: readonly WithdrawalState[] = WITHDRAWAL_STATES.filter((state) => Object.values(decisionsOpen(state)).some(Boolean));

/** Handed to the platform and not yet final: what the tracker polls. */
export function isInFlight(state: WithdrawalState): boolean {
  return state === 'submitting' || state === 'submitted';
}

/** Why `event` is refused in `state`, in words for the person who tried. */
export function refusalFor(state: WithdrawalState, event: WithdrawalEvent): string {
  const allowed = WITHDRAWAL_TRANSITIONS[event].from;
  return `the request is ${state}; that is possible only when it is ${allowed.join(' or ')}`;
}
