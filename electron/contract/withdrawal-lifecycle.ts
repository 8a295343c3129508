// The ONE transition table of a withdrawal request's desk workflow (the platform's orderStatus has its own, in
// sandbox/order-states.ts). The desk, sync and callbacks, the renderer and the CLI all ask this module which moves
// are legal and which decisions a state still allows; nobody else spells out the moves. Pure, importable anywhere.
//
//   awaitingApproval ──approvalsComplete──▶ approved ──submit──▶ submitting ──accepted──▶ submitted ──final──▶ completed
//        │  ▲ approvalRecorded                │  ▲                 │  │ notSent ▲        accepted ▲ ▲ accepted (order found)
//        │  └─────────────┘                   │  └──────notSent─────┘  │                          │ │
//        │                                    │                        └failureAnswered▶ submitUnknown ──refused▶ submitFailed
//        ├─reject──▶ rejected                 │                                                     │ submit (same userOrder)
//        └─cancel──▶ cancelled ◀──cancel──────┴───────────────────────cancel──────────────────────────┘
//
// A failure answer to createWithdrawOrder is not trusted: its message is not signed (PROTOCOL §3.3 signs ""), so an
// attacker on the path could replay one over an order that was in fact created. It only moves the request to
// submitUnknown, where nothing may be decided; checkWithdrawOrder then finds the order (accepted) or confirms that
// none exists (refused), and only then may the request be cancelled or sent again, with the same userOrder.

export const WITHDRAWAL_STATES = [
  'awaitingApproval',
  'approved',
  'rejected',
  'cancelled',
  'submitting',
  'submitUnknown',
  'submitted',
  'submitFailed',
  'completed',
] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

export const WITHDRAWAL_EVENTS = [
  'approvalRecorded',
  'approvalsComplete',
  'reject',
  'cancel',
  'submit',
  'notSent',
  'failureAnswered',
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
  /** Only before anything may have reached the service, or once checkWithdrawOrder confirmed no order exists. */
  cancel: { from: ['awaitingApproval', 'approved', 'submitFailed'], to: 'cancelled' },
  /** Committed before the first byte is sent (ARCHITECTURE rule 5); a refused order may be sent again, same userOrder. */
  submit: { from: ['approved', 'submitFailed'], to: 'submitting' },
  /** Nothing reached the service: back to approved. */
  notSent: { from: ['submitting'], to: 'approved' },
  /** The create was answered with a failure envelope: its message is unsigned (§3.3), so the outcome is unknown. */
  failureAnswered: { from: ['submitting'], to: 'submitUnknown' },
  /** After a failure answer, checkWithdrawOrder confirmed that no order exists. */
  refused: { from: ['submitUnknown'], to: 'submitFailed' },
  /** An order exists at the service (create answer, check, or callback). */
  accepted: { from: ['submitting', 'submitUnknown', 'submitFailed', 'submitted'], to: 'submitted' },
  /** Its orderStatus reached success, WithdrawRefund or fail. */
  final: { from: ['submitted'], to: 'completed' },
};

/**
 * What each state means to the parts that group states: every named subset is a column here, so a new state is one
 * row of this table (the compiler asks for it) and no list elsewhere goes stale. The lifecycle test checks the columns
 * against the moves above.
 */
export interface WithdrawalStateTraits {
  /** Nothing more happens to it. */
  readonly final: boolean;
  /** Handed (or maybe handed) to the service and not final: the tracker polls it with checkWithdrawOrder. */
  readonly inFlight: boolean;
  /** May have reached the service with no order seen yet: only the submission's claim holder resolves it, and the
   * watchdog and reconciliation flag it until checkWithdrawOrder answers. */
  readonly unconfirmed: boolean;
  /** Something may have been sent to the service (what reconciliation compares with the service's records). */
  readonly mayHaveReachedService: boolean;
  /** A batch payout may send this line, or resume it after a crash. */
  readonly payoutSendable: boolean;
  /** A batch payout's line in this state is finished (the batch is done when every line is). */
  readonly payoutLineFinished: boolean;
  /** The request may still be sent by the desk: its verification keeps naming the approvals it waits for. */
  readonly awaitsSending: boolean;
}

const NOT: WithdrawalStateTraits = {
  final: false,
  inFlight: false,
  unconfirmed: false,
  mayHaveReachedService: false,
  payoutSendable: false,
  payoutLineFinished: false,
  awaitsSending: false,
};

export const WITHDRAWAL_STATE_TRAITS: Readonly<Record<WithdrawalState, WithdrawalStateTraits>> = {
  awaitingApproval: { ...NOT, awaitsSending: true },
  approved: { ...NOT, payoutSendable: true, awaitsSending: true },
  rejected: { ...NOT, final: true, payoutLineFinished: true },
  cancelled: { ...NOT, final: true, payoutLineFinished: true },
  submitting: { ...NOT, inFlight: true, unconfirmed: true, mayHaveReachedService: true, payoutSendable: true },
  submitUnknown: { ...NOT, inFlight: true, unconfirmed: true, mayHaveReachedService: true, payoutSendable: true },
  submitted: { ...NOT, inFlight: true, mayHaveReachedService: true },
  submitFailed: { ...NOT, mayHaveReachedService: true, payoutLineFinished: true, awaitsSending: true },
  completed: { ...NOT, final: true, mayHaveReachedService: true, payoutLineFinished: true },
};

/** The states that have `trait`, in WITHDRAWAL_STATES order. */
export function statesWhere(trait: keyof WithdrawalStateTraits): readonly WithdrawalState[] {
  return WITHDRAWAL_STATES.filter((state) => WITHDRAWAL_STATE_TRAITS[state][trait]);
}

export const FINAL_WITHDRAWAL_STATES: readonly WithdrawalState[] = statesWhere('final');

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

/** Handed to the platform (or maybe handed) and not yet final: what the tracker polls with checkWithdrawOrder. */
export const IN_FLIGHT_STATES: readonly WithdrawalState[] = statesWhere('inFlight');

export function isInFlight(state: WithdrawalState): boolean {
  return WITHDRAWAL_STATE_TRAITS[state].inFlight;
}

/** May have reached the service with no order seen yet (submitting, or a failure answer not yet checked). */
export function isUnconfirmed(state: WithdrawalState): boolean {
  return WITHDRAWAL_STATE_TRAITS[state].unconfirmed;
}

/** Why `event` is refused in `state`, in words for the person who tried. */
export function refusalFor(state: WithdrawalState, event: WithdrawalEvent): string {
  const allowed = WITHDRAWAL_TRANSITIONS[event].from;
  return `the request is ${state}; that is possible only when it is ${allowed.join(' or ')}`;
}
