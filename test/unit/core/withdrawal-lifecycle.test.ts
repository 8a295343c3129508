// The one transition table of a withdrawal request's desk workflow (contract/withdrawal-lifecycle.ts), checked against
// the moves written out here: every legal move, a refusal for every other (state, event), no way out of final states;
// and the trait columns (the named subsets of states) agreeing with those moves.
import { describe, expect, it } from 'vitest';
import {
  canWithdrawal,
  decisionsOpen,
  FINAL_WITHDRAWAL_STATES,
  isInFlight,
  isUnconfirmed,
  isWithdrawalState,
  nextWithdrawalState,
  refusalFor,
  statesAllowing,
  statesWhere,
  WITHDRAWAL_EVENTS,
  WITHDRAWAL_STATE_TRAITS,
  WITHDRAWAL_STATES,
  type WithdrawalEvent,
  type WithdrawalState,
} from '../../../electron/contract/withdrawal-lifecycle';

/** Every legal move, spelled out independently of the module: [from, event, to]. */
const LEGAL: readonly (readonly [WithdrawalState, WithdrawalEvent, WithdrawalState])[] = [
  ['awaitingApproval', 'approvalRecorded', 'awaitingApproval'],
  ['awaitingApproval', 'approvalsComplete', 'approved'],
  ['awaitingApproval', 'reject', 'rejected'],
  ['awaitingApproval', 'cancel', 'cancelled'],
  ['approved', 'cancel', 'cancelled'],
  ['approved', 'submit', 'submitting'],
  ['submitting', 'notSent', 'approved'],
  ['submitting', 'failureAnswered', 'submitUnknown'],
  ['submitting', 'accepted', 'submitted'],
  ['submitUnknown', 'refused', 'submitFailed'],
  ['submitUnknown', 'accepted', 'submitted'],
  ['submitFailed', 'submit', 'submitting'],
  ['submitFailed', 'cancel', 'cancelled'],
  ['submitFailed', 'accepted', 'submitted'],
  ['submitted', 'accepted', 'submitted'],
  ['submitted', 'final', 'completed'],
];

const legal = (state: WithdrawalState, event: WithdrawalEvent): WithdrawalState | null =>
  LEGAL.find(([from, on]) => from === state && on === event)?.[2] ?? null;

describe('the withdrawal lifecycle', () => {
  it('knows its states and events', () => {
    expect([...WITHDRAWAL_STATES].sort()).toEqual(['approved', 'awaitingApproval', 'cancelled', 'completed', 'rejected', 'submitFailed', 'submitUnknown', 'submitted', 'submitting']);
    expect([...WITHDRAWAL_EVENTS].sort()).toEqual(['accepted', 'approvalRecorded', 'approvalsComplete', 'cancel', 'failureAnswered', 'final', 'notSent', 'refused', 'reject', 'submit']);
    expect(isWithdrawalState('approved')).toBe(true);
    expect(isWithdrawalState('pending')).toBe(false);
  });

  it('allows exactly the legal moves, to the right state', () => {
    for (const [from, event, to] of LEGAL) {
      expect(nextWithdrawalState(from, event), `${from} --${event}-->`).toBe(to);
      expect(canWithdrawal(from, event)).toBe(true);
      expect(statesAllowing(event)).toContain(from);
    }
  });

  it('refuses every other (state, event), and says why in words', () => {
    let refused = 0;
    for (const state of WITHDRAWAL_STATES) {
      for (const event of WITHDRAWAL_EVENTS) {
        if (legal(state, event) !== null) continue;
        refused += 1;
        expect(nextWithdrawalState(state, event), `${state} --${event}-->`).toBeNull();
        expect(canWithdrawal(state, event)).toBe(false);
        expect(statesAllowing(event)).not.toContain(state);
        expect(refusalFor(state, event)).toBe(`the request is ${state}; that is possible only when it is ${statesAllowing(event).join(' or ')}`);
      }
    }
    expect(refused).toBe(WITHDRAWAL_STATES.length * WITHDRAWAL_EVENTS.length - LEGAL.length);
  });

  it('has no way out of a final state', () => {
    expect([...FINAL_WITHDRAWAL_STATES].sort()).toEqual(['cancelled', 'completed', 'rejected']);
    for (const state of FINAL_WITHDRAWAL_STATES) {
      for (const event of WITHDRAWAL_EVENTS) expect(nextWithdrawalState(state, event), `${state} --${event}-->`).toBeNull();
      expect(decisionsOpen(state)).toEqual({ approve: false, reject: false, cancel: false, submit: false });
    }
  });

  it('never cancels once something may have reached the service, and reaches completed only through submitted', () => {
    for (const state of ['submitting', 'submitUnknown', 'submitted'] as const) expect(canWithdrawal(state, 'cancel')).toBe(false);
    expect(statesAllowing('final')).toEqual(['submitted']);
    expect(LEGAL.filter(([, , to]) => to === 'completed').map(([from]) => from)).toEqual(['submitted']);
    // Every state but awaitingApproval is reached only by a move out of another one.
    const reachable = new Set<WithdrawalState>(['awaitingApproval']);
    for (let changed = true; changed; ) {
      changed = false;
      for (const [from, , to] of LEGAL) {
        if (reachable.has(from) && !reachable.has(to)) {
          reachable.add(to);
          changed = true;
        }
      }
    }
    expect([...reachable].sort()).toEqual([...WITHDRAWAL_STATES].sort());
  });

  it('offers the decisions a state still allows, and knows which states the tracker polls', () => {
    expect(decisionsOpen('awaitingApproval')).toEqual({ approve: true, reject: true, cancel: true, submit: false });
    expect(decisionsOpen('approved')).toEqual({ approve: false, reject: false, cancel: true, submit: true });
    expect(decisionsOpen('submitFailed')).toEqual({ approve: false, reject: false, cancel: true, submit: true });
    // A request left submitting (crash, lost answer) has no decision left: it is in flight, and submit only resumes it.
    expect(decisionsOpen('submitting')).toEqual({ approve: false, reject: false, cancel: false, submit: false });
    expect(isInFlight('submitting')).toBe(true);
    expect(decisionsOpen('submitted')).toEqual({ approve: false, reject: false, cancel: false, submit: false });
    expect(WITHDRAWAL_STATES.filter(isInFlight)).toEqual(['submitting', 'submitUnknown', 'submitted']);
  });

  it('trusts no failure answer (issue 11, item 7): submitFailed, and with it cancel and a new submit, only after submitUnknown', () => {
    // A failure answer leads only to submitUnknown, where nothing can be decided and the tracker keeps asking.
    expect(nextWithdrawalState('submitting', 'failureAnswered')).toBe('submitUnknown');
    expect(decisionsOpen('submitUnknown')).toEqual({ approve: false, reject: false, cancel: false, submit: false });
    expect(isInFlight('submitUnknown')).toBe(true);
    // submitFailed is reached only by `refused` (checkWithdrawOrder confirmed no order), and only from submitUnknown.
    expect(LEGAL.filter(([, , to]) => to === 'submitFailed')).toEqual([['submitUnknown', 'refused', 'submitFailed']]);
    expect(canWithdrawal('submitting', 'refused')).toBe(false);
    // An order found after all (check or callback) is accepted from there.
    expect(nextWithdrawalState('submitUnknown', 'accepted')).toBe('submitted');
  });

  describe('the trait columns', () => {
    const moves = (state: WithdrawalState): WithdrawalEvent[] => WITHDRAWAL_EVENTS.filter((event) => nextWithdrawalState(state, event) !== null);

    it('final: exactly the states with no move out', () => {
      for (const state of WITHDRAWAL_STATES) expect(WITHDRAWAL_STATE_TRAITS[state].final, state).toBe(moves(state).length === 0);
    });

    it('in flight: the states an order may be found from without a new send, that cannot be cancelled', () => {
      expect(statesWhere('inFlight')).toEqual(['submitting', 'submitUnknown', 'submitted']);
      for (const state of statesWhere('inFlight')) {
        expect(canWithdrawal(state, 'accepted'), state).toBe(true);
        expect(canWithdrawal(state, 'cancel'), state).toBe(false);
        expect(canWithdrawal(state, 'submit'), state).toBe(false);
      }
      for (const state of WITHDRAWAL_STATES) expect(isInFlight(state)).toBe(WITHDRAWAL_STATE_TRAITS[state].inFlight);
    });

    it('unconfirmed: in flight with no order seen, i.e. the states a send or a failure answer leaves', () => {
      expect(statesWhere('unconfirmed')).toEqual([...statesAllowing('notSent'), ...statesAllowing('refused')]);
      for (const state of statesWhere('unconfirmed')) expect(WITHDRAWAL_STATE_TRAITS[state].inFlight, state).toBe(true);
      for (const state of WITHDRAWAL_STATES) expect(isUnconfirmed(state)).toBe(WITHDRAWAL_STATE_TRAITS[state].unconfirmed);
    });

    it('may have reached the service: every state reached through a submit, and none before it', () => {
      const afterSubmit = new Set<WithdrawalState>([stateAfter('submit')]);
      for (let changed = true; changed; ) {
        changed = false;
        for (const state of [...afterSubmit]) {
          for (const event of moves(state)) {
            const next = nextWithdrawalState(state, event) as WithdrawalState;
            // notSent (nothing reached the service) and cancel (only from a confirmed refusal) lead back out.
            if (event === 'notSent' || event === 'cancel' || afterSubmit.has(next)) continue;
            afterSubmit.add(next);
            changed = true;
          }
        }
      }
      expect([...statesWhere('mayHaveReachedService')].sort()).toEqual([...afterSubmit].sort());
    });

    it('a batch line: sendable where a submit or a resume applies; finished where nothing more will be sent by the batch', () => {
      for (const state of statesWhere('payoutSendable')) expect(canWithdrawal(state, 'submit') || isUnconfirmed(state), state).toBe(true);
      expect(statesWhere('payoutLineFinished')).toEqual([...FINAL_WITHDRAWAL_STATES, 'submitFailed' as const].sort((a, b) => WITHDRAWAL_STATES.indexOf(a) - WITHDRAWAL_STATES.indexOf(b)));
      for (const state of statesWhere('payoutLineFinished')) expect(WITHDRAWAL_STATE_TRAITS[state].payoutSendable, state).toBe(false);
    });

    it('awaits sending: the states a submit may still leave (so the approvals it waits for are still named)', () => {
      expect(statesWhere('awaitsSending')).toEqual(WITHDRAWAL_STATES.filter((state) => canWithdrawal(state, 'cancel')));
      expect(statesWhere('awaitsSending')).toEqual(expect.arrayContaining([...statesAllowing('submit')]));
    });
  });
});

/** The state `event` leads to (from the first state that allows it). */
function stateAfter(event: WithdrawalEvent): WithdrawalState {
  const from = statesAllowing(event)[0];
  if (from === undefined) throw new Error(`no state allows ${event}`);
  return nextWithdrawalState(from, event) as WithdrawalState;
}
