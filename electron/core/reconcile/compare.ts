// The three-way comparison of one currency over one period (issue 11, item 2), pure: the facts the desk holds go in,
// the currency's part of the report comes out. (a) deposits reported by callback against (b) deposits listed by
// getDeposits; (c) the available balance's movement between merchantInfo readings against deposits minus withdrawals
// (amount + fee) plus what refunded or failed orders returned; the frozen funds against the open orders; and every fee
// against the currency table. All arithmetic is decimal.js; every amount leaves as an exact decimal string.
//
// When a record counts against the balance: the desk stamps records with the time it observes them (the platform gives
// none, PROTOCOL §8), always after the platform made them. A record belongs to the first reading at or after it, except
// that (1) a record observed while the reading before it was still being read unchanged must already be in that reading
// (had it come after, the balance would have changed), and (2) a sync reads the balances first and the records after,
// so records stored in the same run as a reading may already be in it: they are moved into it when, and only when,
// that makes the change between the readings add up exactly (reported as an explained finding).
//
// A difference left at a reading while an order the desk sent was in flight there (its creation seen in a verified
// order record by the reading's sync run, no final status seen by the reading) is pending, not unexplained: the
// platform may have moved the order on before the desk heard of it. It waits for that order (awaitingOrder) until a
// reading taken after the order's final status shows whether it adds up. An order whose creation no verified record
// shows (still being sent) never makes a difference pending: it is only named in the unexplained finding.
import { formatMoney, Money } from '../../chains/amounts';
import { findingText, type FindingSentence, type UnconfirmedRequest } from '../../contract/reconciliation-sentences';
import {
  findingStatus,
  type BalanceReconciliation,
  type CurrencyReconciliation,
  type FrozenReconciliation,
  type ReconciliationFinding,
  type ReconciliationFindingStatus,
  type ReconciliationTally,
} from '../../contract/reconciliation';
import { isUnconfirmed, type WithdrawalState } from '../../contract/withdrawal-lifecycle';
import { CALLBACK_RETRY_SCHEDULE_SECONDS, CALLBACK_TIMEOUT_MS } from '../../protocol/profile';
import type { DepositSighting } from '../deposits';

/** Observations with no pause longer than this between them are one sync run (what rule 2 above may move). */
export const SYNC_RUN_GAP_MS = 2 * 60_000;

/** The platform retries a callback until this long after its event (§10.3: the last attempt at 6 h, 10 s to answer). */
export const CALLBACK_RETRY_WINDOW_MS = (CALLBACK_RETRY_SCHEDULE_SECONDS.at(-1) ?? 0) * 1000 + CALLBACK_TIMEOUT_MS;

/** A sync run longer than this many records is only ever moved whole (its prefixes are not searched). */
export const MAX_SEARCHED_RUN = 50_000;

export interface ReadingFact {
  readonly available: string;
  readonly frozen: string;
  readonly observedAt: number;
  readonly lastObservedAt: number;
}

/** A deposit as reconciliation reads it from the cache: its amounts and when each way of learning of it first saw it. */
export type DepositFact = DepositSighting;

export type FinalOrderStatus = 'success' | 'WithdrawRefund' | 'fail';

/** A withdrawal request that may have reached the platform. */
export interface OrderFact {
  readonly id: string;
  readonly userOrder: string;
  readonly apiOrder: string | null;
  readonly amount: string;
  /** The platform's fee, null until an order record said it. */
  readonly fee: string | null;
  /** The desk's workflow state (submitting: the create is not confirmed yet). */
  readonly state: WithdrawalState;
  /** When the desk first saw the order exist at the platform (its first verified status), null when it never did. */
  readonly createdSeenAt: number | null;
  /** Its final status and when the desk first saw it in a verified order record, null while the order is open. */
  readonly final: { readonly status: FinalOrderStatus; readonly at: number } | null;
}

/** The fee the currency table (getCurrencies) gives for an amount (PROTOCOL §9.4), for one currency. */
export interface FeeRule {
  /** For a deposit, `amount` is the gross transfer (the record's amount + fee); for a withdrawal, the order's amount. */
  expected(kind: 'deposit' | 'withdraw', amount: Money): Money;
  /** When the desk fetched the table. */
  readonly fetchedAt: number;
}

export interface CurrencyFacts {
  readonly currency: string;
  /** The period: from (inclusive, null: the beginning), to (exclusive). */
  readonly from: number | null;
  readonly to: number;
  readonly now: number;
  /** The desk's first verified callback (null: never): before it, deposits seen only by query are expected. */
  readonly callbacksSince: number | null;
  /** When the last deposits sync finished (null: never). */
  readonly lastDepositsSyncAt: number | null;
  /** Oldest first: the reading in force at `from` (when there is one), then every reading observed before `to`. */
  readonly readings: readonly ReadingFact[];
  /**
   * The currency's deposits, oldest first seen first: at least those first seen in the period and, for the balance, those
   * observed after the first reading up to a sync run past the period.
   */
  readonly deposits: Iterable<DepositFact>;
  readonly orders: readonly OrderFact[];
  /** Null when the desk has no usable currency table for it: fees are then not checked. */
  readonly feeRule: FeeRule | null;
}

// ---- small helpers ------------------------------------------------------------------------------------------------

const ZERO = new Money(0);

function money(text: string): Money {
  return new Money(text);
}

/** An exact decimal string (a zero is "0", never "-0"). */
export function exact(value: Money): string {
  return value.isZero() ? '0' : formatMoney(value);
}

/** A finding with its sentence's values, and its summary and explanation said from them in English (the one builder). */
function said(finding: Omit<ReconciliationFinding, 'summary' | 'explanation' | 'sentence'>, sentence: FindingSentence): ReconciliationFinding {
  return { ...finding, ...findingText(finding.currency, sentence), sentence };
}

class Tally {
  count = 0;
  amount: Money = ZERO;
  /** The fees inside those amounts (a deposit's fee was already taken off its amount), for period statements. */
  fees: Money = ZERO;
  add(value: Money, fee: Money = ZERO): void {
    this.count += 1;
    this.amount = this.amount.plus(value);
    this.fees = this.fees.plus(fee);
  }
  view(): ReconciliationTally {
    return { count: this.count, amount: exact(this.amount) };
  }
}

// ---- the balance timeline -----------------------------------------------------------------------------------------

type MovementKind = 'deposit' | 'withdrawal' | 'returned' | 'paidOut';

/** A change of the balance the desk has a record for: `amount` on available, signed (paidOut releases frozen only). */
interface Movement {
  readonly kind: MovementKind;
  readonly at: number;
  readonly amount: Money;
  /** The record's fee (positive): inside `amount` for orders, already taken off it for deposits. */
  readonly fee: Money;
}

/** Deposits, withdrawals (amount + fee, as a positive amount) and returned orders counted in one reading. */
class SlotTallies {
  readonly deposits = new Tally();
  readonly withdrawals = new Tally();
  readonly returned = new Tally();

  tallyOf(kind: MovementKind): Tally | null {
    return kind === 'deposit' ? this.deposits : kind === 'withdrawal' ? this.withdrawals : kind === 'returned' ? this.returned : null;
  }

  add(movement: Movement, sign: 1 | -1 = 1): void {
    const tally = this.tallyOf(movement.kind);
    if (tally === null) return;
    tally.count += sign;
    tally.amount = tally.amount.plus(movement.amount.abs().times(sign));
    tally.fees = tally.fees.plus(movement.fee.times(sign));
  }

  /** deposits - withdrawals + returned. */
  net(): Money {
    return this.deposits.amount.minus(this.withdrawals.amount).plus(this.returned.amount);
  }
}

/** The records of one sync run right after a reading, still counted after it: they may already be in the reading. */
class RunAfterReading {
  /** The run's last observation so far; it ends at a pause longer than SYNC_RUN_GAP_MS. */
  lastAt: number;
  closed = false;
  /** Its movements counted in the slot after the reading, in time order (up to MAX_SEARCHED_RUN of them). */
  readonly candidates: Movement[] = [];
  readonly whole = new SlotTallies();
  count = 0;
  total: Money = ZERO;

  constructor(readingAt: number) {
    this.lastAt = readingAt;
  }

  /**
   * The shortest series of the run's first movements adding up to `target`, as tallies to move; a run too long to search
   * is only ever taken whole. Null when none adds up.
   */
  prefixAddingUpTo(target: Money): { readonly tallies: SlotTallies; readonly count: number } | null {
    if (target.isZero() || this.count === 0) return null;
    if (this.count > this.candidates.length) return this.total.equals(target) ? { tallies: this.whole, count: this.count } : null;
    const tallies = new SlotTallies();
    let sum = ZERO;
    for (const [index, movement] of this.candidates.entries()) {
      sum = sum.plus(movement.amount);
      tallies.add(movement);
      if (sum.equals(target)) return { tallies, count: index + 1 };
    }
    return null;
  }
}

class Timeline {
  /** What each reading includes (index n: after the last reading). */
  readonly slots: SlotTallies[];
  /** The sync run right after each reading. */
  readonly runs: RunAfterReading[];

  constructor(readonly readings: readonly ReadingFact[]) {
    this.slots = Array.from({ length: readings.length + 1 }, () => new SlotTallies());
    this.runs = readings.map((reading) => new RunAfterReading(reading.observedAt));
  }

  /** Index of the first reading observed at or after `at` (readings.length when none). */
  #firstReadingFrom(at: number): number {
    let low = 0;
    let high = this.readings.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.readings[middle] as ReadingFact).observedAt >= at) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** The reading a record observed at `at` is in (see the file's comment), or readings.length: after the last one. */
  slotOf(at: number): number {
    const next = this.#firstReadingFrom(at);
    const previous = this.readings[next - 1];
    return previous !== undefined && at <= previous.lastObservedAt ? next - 1 : next;
  }

  /** Counts a movement in its reading, and in the run after the reading before it; call in time order. */
  add(movement: Movement): void {
    const slot = this.slotOf(movement.at);
    this.slots[slot]?.add(movement);
    const after = this.#firstReadingFrom(movement.at) - 1;
    const run = this.runs[after];
    if (run === undefined || run.closed) return;
    if (movement.at - run.lastAt > SYNC_RUN_GAP_MS) {
      run.closed = true;
      return;
    }
    run.lastAt = movement.at;
    if (slot !== after + 1 || movement.kind === 'paidOut') return;
    run.count += 1;
    run.total = run.total.plus(movement.amount);
    run.whole.add(movement);
    if (run.candidates.length < MAX_SEARCHED_RUN) run.candidates.push(movement);
  }

  /** Moves tallies from the slot after `reading` into the reading. */
  moveIntoReading(reading: number, tallies: SlotTallies): void {
    const from = this.slots[reading + 1];
    const to = this.slots[reading];
    if (from === undefined || to === undefined) return;
    for (const kind of ['deposits', 'withdrawals', 'returned'] as const) {
      from[kind].count -= tallies[kind].count;
      from[kind].amount = from[kind].amount.minus(tallies[kind].amount);
      to[kind].count += tallies[kind].count;
      to[kind].amount = to[kind].amount.plus(tallies[kind].amount);
      from[kind].fees = from[kind].fees.minus(tallies[kind].fees);
      to[kind].fees = to[kind].fees.plus(tallies[kind].fees);
    }
  }

  /** The available balance's change from reading index-1 to reading index, minus what the records there explain. */
  residual(index: number): Money {
    const reading = this.readings[index];
    const previous = this.readings[index - 1];
    if (reading === undefined || previous === undefined) return ZERO;
    return money(reading.available).minus(money(previous.available)).minus(this.slots[index]?.net() ?? ZERO);
  }
}

// ---- the comparison -----------------------------------------------------------------------------------------------

/** Findings are listed unexplained first, then pending, then explained. */
const STATUS_RANK: Readonly<Record<ReconciliationFindingStatus, number>> = { unexplained: 0, pending: 1, explained: 2 };

/**
 * The desk's orders in flight at a reading: their creation seen in a verified order record by the reading's sync run
 * (at most SYNC_RUN_GAP_MS after the reading was last read), and no final status seen by the reading.
 */
export function ordersInFlightAt(orders: readonly OrderFact[], reading: ReadingFact): OrderFact[] {
  return orders.filter(
    (order) =>
      order.createdSeenAt !== null &&
      order.createdSeenAt <= reading.lastObservedAt + SYNC_RUN_GAP_MS &&
      (order.final === null || order.final.at > reading.lastObservedAt),
  );
}

/**
 * A difference at a reading, as a finding: pending (awaitingOrder) while orders the desk sent were in flight there,
 * unexplained otherwise. `sentence` says the difference; the request being sent that would account for it is named only
 * when nothing is in flight.
 */
function differenceFinding(
  difference: Omit<ReconciliationFinding, 'explained' | 'summary' | 'explanation' | 'sentence'> & { readonly kind: 'unexplainedBalanceChange' | 'frozenMismatch' },
  waiting: readonly OrderFact[],
  sentence: Extract<FindingSentence, { says: 'balanceChange' | 'frozenMismatch' }>,
): ReconciliationFinding {
  const first = waiting[0];
  if (first === undefined) return said({ ...difference, explained: false }, sentence);
  return said(
    {
      ...difference,
      kind: 'awaitingOrder',
      explained: true,
      at: first.createdSeenAt,
      reference: { kind: 'withdrawal', id: first.id, userOrder: first.userOrder, apiOrder: first.apiOrder },
    },
    { ...sentence, waitingFor: waiting.map((order) => ({ userOrder: order.userOrder, sentAt: order.createdSeenAt ?? 0 })), unconfirmed: null },
  );
}

function inPeriod(facts: CurrencyFacts, at: number): boolean {
  return (facts.from === null || at >= facts.from) && at < facts.to;
}

function orderMovements(orders: readonly OrderFact[]): Movement[] {
  const movements: Movement[] = [];
  for (const order of orders) {
    if (order.createdSeenAt === null) continue;
    const fee = money(order.fee ?? '0');
    const held = money(order.amount).plus(fee);
    movements.push({ kind: 'withdrawal', at: order.createdSeenAt, amount: held.negated(), fee });
    if (order.final !== null) {
      const returned = order.final.status !== 'success';
      movements.push({ kind: returned ? 'returned' : 'paidOut', at: order.final.at, amount: returned ? held : ZERO, fee: returned ? fee : ZERO });
    }
  }
  return movements.sort((a, b) => a.at - b.at);
}

/** Yields deposits' and orders' movements merged in time order, calling `visit` for each deposit on the way. */
function* movementsInOrder(deposits: Iterable<DepositFact>, orders: readonly Movement[], visit: (deposit: DepositFact) => void): Generator<Movement> {
  let next = 0;
  for (const deposit of deposits) {
    visit(deposit);
    while (next < orders.length && (orders[next] as Movement).at <= deposit.firstSeenAt) yield orders[next++] as Movement;
    yield { kind: 'deposit', at: deposit.firstSeenAt, amount: money(deposit.amount), fee: money(deposit.fee) };
  }
  while (next < orders.length) yield orders[next++] as Movement;
}

/** Compares one currency's records over the period: the currency's part of the reconciliation report. */
export function reconcileCurrency(facts: CurrencyFacts): CurrencyReconciliation {
  const { currency } = facts;
  const findings: ReconciliationFinding[] = [];
  const timeline = new Timeline(facts.readings);
  const depositTallies = { total: new Tally(), both: new Tally(), callbackOnly: new Tally(), queryOnly: new Tally() };
  const beforeCallbacks = new Tally();

  // (a) against (b), and the deposit fees, while the movements go through the timeline.
  const visitDeposit = (deposit: DepositFact): void => {
    if (!inPeriod(facts, deposit.firstSeenAt)) return;
    const amount = money(deposit.amount);
    depositTallies.total.add(amount);
    const reference = { kind: 'deposit', apiOrder: deposit.apiOrder, txid: deposit.txid } as const;
    if (deposit.callbackSeenAt !== null && deposit.querySeenAt !== null) {
      depositTallies.both.add(amount);
    } else if (deposit.callbackSeenAt !== null) {
      depositTallies.callbackOnly.add(amount);
      const listedSince = facts.lastDepositsSyncAt !== null && facts.lastDepositsSyncAt > deposit.callbackSeenAt;
      findings.push(
        said(
          { kind: 'callbackOnly', explained: !listedSince, currency, amount: deposit.amount, at: deposit.callbackSeenAt, reference },
          { says: 'callbackOnly', apiOrder: deposit.apiOrder, amount: deposit.amount, listedSince },
        ),
      );
    } else if (deposit.querySeenAt !== null) {
      depositTallies.queryOnly.add(amount);
      if (facts.callbacksSince === null || deposit.querySeenAt < facts.callbacksSince) {
        beforeCallbacks.add(amount);
      } else {
        const retriesUntil = deposit.querySeenAt + CALLBACK_RETRY_WINDOW_MS;
        const retrying = facts.now < retriesUntil;
        findings.push(
          said(
            { kind: 'queryOnly', explained: retrying, currency, amount: deposit.amount, at: deposit.querySeenAt, reference },
            { says: 'queryOnly', apiOrder: deposit.apiOrder, amount: deposit.amount, retrying },
          ),
        );
      }
    }
    if (facts.feeRule !== null) {
      const fee = money(deposit.fee);
      const expected = facts.feeRule.expected('deposit', amount.plus(fee));
      if (!expected.equals(fee)) {
        const difference = exact(fee.minus(expected));
        findings.push(
          said(
            { kind: 'feeDiffers', explained: false, currency, amount: difference, at: deposit.firstSeenAt, reference },
            { says: 'depositFeeDiffers', apiOrder: deposit.apiOrder, fee: exact(fee), received: exact(amount.plus(fee)), expected: exact(expected), difference },
          ),
        );
      }
    }
  };

  for (const movement of movementsInOrder(facts.deposits, orderMovements(facts.orders), visitDeposit)) timeline.add(movement);

  if (beforeCallbacks.count > 0) {
    const amount = exact(beforeCallbacks.amount);
    findings.push(
      said(
        { kind: 'queryOnlyWithoutCallbacks', explained: true, currency, amount, at: null, reference: null },
        { says: 'queryOnlyWithoutCallbacks', count: beforeCallbacks.count, amount, anyCallback: facts.callbacksSince !== null },
      ),
    );
  }

  // Orders: fees against the table, and what refunded or failed orders returned, in the period.
  for (const order of facts.orders) {
    const reference = { kind: 'withdrawal', id: order.id, userOrder: order.userOrder, apiOrder: order.apiOrder } as const;
    if (facts.feeRule !== null && order.fee !== null && order.createdSeenAt !== null && inPeriod(facts, order.createdSeenAt)) {
      const fee = money(order.fee);
      const expected = facts.feeRule.expected('withdraw', money(order.amount));
      if (!expected.equals(fee)) {
        const difference = exact(fee.minus(expected));
        findings.push(
          said(
            { kind: 'feeDiffers', explained: false, currency, amount: difference, at: order.createdSeenAt, reference },
            { says: 'withdrawalFeeDiffers', userOrder: order.userOrder, fee: exact(fee), amount: order.amount, expected: exact(expected), difference },
          ),
        );
      }
    }
    if (order.final !== null && order.final.status !== 'success' && inPeriod(facts, order.final.at)) {
      const held = money(order.amount).plus(money(order.fee ?? '0'));
      const refunded = order.final.status === 'WithdrawRefund';
      findings.push(
        said(
          { kind: refunded ? 'refund' : 'failedOrder', explained: true, currency, amount: exact(held), at: order.final.at, reference },
          { says: 'orderReturned', userOrder: order.userOrder, refunded, returned: exact(held), amount: order.amount, fee: order.fee ?? '0' },
        ),
      );
    }
  }

  const { balance, frozen } = compareBalance(facts, timeline, findings);
  const ordered = [...findings].sort((a, b) => STATUS_RANK[findingStatus(a)] - STATUS_RANK[findingStatus(b)] || (a.at ?? 0) - (b.at ?? 0));
  return {
    currency,
    ok: ordered.every((finding) => finding.explained),
    deposits: {
      total: depositTallies.total.view(),
      both: depositTallies.both.view(),
      callbackOnly: depositTallies.callbackOnly.view(),
      queryOnly: depositTallies.queryOnly.view(),
    },
    balance,
    frozen,
    findings: ordered,
  };
}

/** (c): the available balance between readings, and the closing reading's frozen funds. */
function compareBalance(
  facts: CurrencyFacts,
  timeline: Timeline,
  findings: ReconciliationFinding[],
): { balance: BalanceReconciliation | null; frozen: FrozenReconciliation | null } {
  const { readings, currency } = facts;
  const last = readings.length - 1;
  const opening = readings[0];
  const closing = readings[last];
  if (opening === undefined || closing === undefined) return { balance: null, frozen: null };

  // Records of the sync run right after a reading that make the change up to it add up: they were in it already.
  const settle = (reading: number, target: Money): void => {
    const moved = timeline.runs[reading]?.prefixAddingUpTo(target);
    if (moved === null || moved === undefined) return;
    timeline.moveIntoReading(reading, moved.tallies);
    const amount = exact(moved.tallies.net());
    findings.push(
      said(
        { kind: 'recordedAfterReading', explained: true, currency, amount, at: readings[reading]?.observedAt ?? null, reference: null },
        { says: 'recordedAfterReading', count: moved.count, amount },
      ),
    );
  };
  // The opening reading: its run's records may be in it (for the first reading of a desk, its whole first history walk).
  if (last >= 1) {
    const residual = timeline.residual(1);
    if (!residual.isZero()) settle(0, residual.negated());
  }
  for (let index = 1; index <= last; index += 1) {
    const residual = timeline.residual(index);
    if (!residual.isZero()) settle(index, residual);
  }

  const unconfirmed = facts.orders.filter((order) => order.createdSeenAt === null && order.final === null && isUnconfirmed(order.state));
  const unconfirmedRequest = (difference: Money): UnconfirmedRequest | null => {
    const match = unconfirmed.find((order) => money(order.amount).plus(money(order.fee ?? '0')).negated().equals(difference));
    return match === undefined ? null : { id: match.id, userOrder: match.userOrder, amount: exact(difference) };
  };

  const totals = { deposits: new Tally(), withdrawals: new Tally(), returned: new Tally() };
  let unexplained = ZERO;
  for (let index = 1; index <= last; index += 1) {
    const slot = timeline.slots[index];
    if (slot !== undefined) {
      for (const key of ['deposits', 'withdrawals', 'returned'] as const) {
        totals[key].count += slot[key].count;
        totals[key].amount = totals[key].amount.plus(slot[key].amount);
        totals[key].fees = totals[key].fees.plus(slot[key].fees);
      }
    }
    const residual = timeline.residual(index);
    if (residual.isZero()) continue;
    unexplained = unexplained.plus(residual);
    const before = readings[index - 1] as ReadingFact;
    const after = readings[index] as ReadingFact;
    const change = money(after.available).minus(money(before.available));
    findings.push(
      differenceFinding(
        { kind: 'unexplainedBalanceChange', currency, amount: exact(residual), at: after.observedAt, reference: { kind: 'balance', fromAt: before.observedAt, toAt: after.observedAt } },
        ordersInFlightAt(facts.orders, after),
        {
          says: 'balanceChange',
          from: before.available,
          to: after.available,
          change: exact(change),
          accounted: exact(timeline.slots[index]?.net() ?? ZERO),
          left: exact(residual),
          waitingFor: [],
          unconfirmed: unconfirmedRequest(residual),
        },
      ),
    );
  }
  const change = money(closing.available).minus(money(opening.available));
  const expectedChange = totals.deposits.amount.minus(totals.withdrawals.amount).plus(totals.returned.amount);
  const balance: BalanceReconciliation = {
    opening: readingView(opening),
    closing: readingView(closing),
    startsLate: facts.from === null || opening.observedAt > facts.from,
    change: exact(change),
    deposits: totals.deposits.view(),
    withdrawals: totals.withdrawals.view(),
    returned: totals.returned.view(),
    fees: { deposits: exact(totals.deposits.fees), withdrawals: exact(totals.withdrawals.fees), returned: exact(totals.returned.fees) },
    expectedChange: exact(expectedChange),
    unexplained: exact(unexplained),
  };
  return { balance, frozen: compareFrozen(facts, timeline, findings, unconfirmedRequest) };
}

function readingView(reading: ReadingFact): BalanceReconciliation['opening'] {
  return { available: reading.available, frozen: reading.frozen, observedAt: reading.observedAt, lastObservedAt: reading.lastObservedAt };
}

/**
 * The closing reading's frozen funds against the amount + fee of the orders open in it: created in or before it and
 * not final in it. When they differ, the orders as the reading's own sync run left them are tried too (the run reads
 * the balance first and the orders after).
 */
function compareFrozen(
  facts: CurrencyFacts,
  timeline: Timeline,
  findings: ReconciliationFinding[],
  unconfirmedRequest: (difference: Money) => UnconfirmedRequest | null,
): FrozenReconciliation {
  const { readings, currency } = facts;
  const index = readings.length - 1;
  const closing = readings[index] as ReadingFact;
  const runEnd = timeline.runs[index]?.lastAt ?? closing.observedAt;
  const openOrders = (lenient: boolean): Tally => {
    const open = new Tally();
    for (const order of facts.orders) {
      if (order.createdSeenAt === null) continue;
      const inReading = (at: number): boolean => timeline.slotOf(at) <= index || (lenient && at <= runEnd);
      const created = inReading(order.createdSeenAt);
      const ended = order.final !== null && inReading(order.final.at);
      if (created && !ended) open.add(money(order.amount).plus(money(order.fee ?? '0')));
    }
    return open;
  };
  const reported = money(closing.frozen);
  let open = openOrders(false);
  if (!open.amount.equals(reported)) {
    const lenient = openOrders(true);
    if (lenient.amount.equals(reported)) open = lenient;
  }
  const difference = reported.minus(open.amount);
  if (!difference.isZero()) {
    findings.push(
      differenceFinding(
        { kind: 'frozenMismatch', currency, amount: exact(difference), at: closing.observedAt, reference: null },
        ordersInFlightAt(facts.orders, closing),
        {
          says: 'frozenMismatch',
          frozen: closing.frozen,
          openOrders: open.count,
          held: exact(open.amount),
          difference: exact(difference),
          waitingFor: [],
          unconfirmed: unconfirmedRequest(difference.negated()),
        },
      ),
    );
  }
  return { at: closing.observedAt, reported: closing.frozen, openOrders: open.view(), difference: exact(difference) };
}
