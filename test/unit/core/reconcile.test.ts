// The three-way comparison of one currency (core/reconcile/compare.ts), on its own: callbacks against getDeposits
// (seen by both, only by callback, only by query, before callbacks, within and after the platform's retries), the
// available balance between readings against deposits - withdrawals (amount + fee) + refunds, with exact amounts down
// to the 18th decimal, records stored just after a reading that already holds them, a reading read unchanged across a
// record, the frozen funds against the open orders, and fees against the currency table.
import { describe, expect, it } from 'vitest';
import { Money } from '../../../electron/chains/amounts';
import {
  CALLBACK_RETRY_WINDOW_MS,
  reconcileCurrency,
  SYNC_RUN_GAP_MS,
  type CurrencyFacts,
  type DepositFact,
  type FeeRule,
  type OrderFact,
  type ReadingFact,
} from '../../../electron/core/reconcile/compare';
import { findingStatus, RECONCILIATION_FINDING_KINDS, type ReconciliationFinding } from '../../../electron/contract/reconciliation';
import { findingText } from '../../../electron/contract/reconciliation-sentences';

const HOUR = 3_600_000;
const T0 = 1_800_000_000_000;

let sequence = 0;
function deposit(amount: string, at: number, seen: { callback?: number | null; query?: number | null } = {}, fee = '0'): DepositFact {
  sequence += 1;
  const callbackSeenAt = seen.callback === undefined ? null : seen.callback;
  const querySeenAt = seen.query === undefined ? at : seen.query;
  return { apiOrder: `DP${sequence}`, txid: `tx${sequence}`, amount, fee, firstSeenAt: at, callbackSeenAt, querySeenAt };
}

/** A deposit the desk saw both ways (callback and query) at `at`: no finding of its own. */
function seenBoth(amount: string, at: number): DepositFact {
  return deposit(amount, at, { callback: at, query: at });
}

function reading(available: string, observedAt: number, lastObservedAt = observedAt, frozen = '0'): ReadingFact {
  return { available, frozen, observedAt, lastObservedAt };
}

function order(amount: string, fee: string, createdSeenAt: number | null, final: OrderFact['final'] = null, state: OrderFact['state'] = 'submitted'): OrderFact {
  sequence += 1;
  return { id: String(sequence), userOrder: `td-${sequence}`, apiOrder: createdSeenAt === null ? null : `WD${sequence}`, amount, fee, state, createdSeenAt, final };
}

function facts(overrides: Partial<CurrencyFacts>): CurrencyFacts {
  return {
    currency: 'trx.usdt',
    from: null,
    to: T0 + 1000 * HOUR,
    now: T0 + 1000 * HOUR,
    callbacksSince: null,
    lastDepositsSyncAt: null,
    readings: [],
    deposits: [],
    orders: [],
    feeRule: null,
    ...overrides,
  };
}

const kinds = (findings: readonly ReconciliationFinding[]): string[] => findings.map((finding) => `${finding.kind}:${finding.explained ? 'explained' : 'unexplained'}:${finding.amount}`);

describe('callbacks against getDeposits', () => {
  it('tallies deposits seen both ways, by callback only and by query only, each with its exact amount', () => {
    const since = T0;
    const both = deposit('100.5', T0 + HOUR, { callback: T0 + HOUR, query: T0 + HOUR + 5_000 });
    const calledBack = deposit('7.000001', T0 + 2 * HOUR, { callback: T0 + 2 * HOUR, query: null });
    const lost = deposit('12', T0 + 3 * HOUR, { query: T0 + 3 * HOUR });
    const report = reconcileCurrency(facts({ callbacksSince: since, lastDepositsSyncAt: T0 + 4 * HOUR, deposits: [both, calledBack, lost], now: T0 + 20 * HOUR }));
    expect(report.deposits).toEqual({
      total: { count: 3, amount: '119.500001' },
      both: { count: 1, amount: '100.5' },
      callbackOnly: { count: 1, amount: '7.000001' },
      queryOnly: { count: 1, amount: '12' },
    });
    expect(kinds(report.findings)).toEqual(['callbackOnly:unexplained:7.000001', 'queryOnly:unexplained:12']);
    expect(report.ok).toBe(false);
    expect(report.findings[0]?.reference).toEqual({ kind: 'deposit', apiOrder: calledBack.apiOrder, txid: calledBack.txid });
    expect(report.findings[0]?.summary).toBe(`Deposit ${calledBack.apiOrder} of 7.000001 trx.usdt was reported by a verified callback but is not in the service's deposit list.`);
    expect(report.findings[1]?.explanation).toMatch(/callback was lost/);
  });

  it('a deposit called back is explained until a deposits sync finishes after it', () => {
    const calledBack = deposit('5', T0 + HOUR, { callback: T0 + HOUR, query: null });
    const before = reconcileCurrency(facts({ callbacksSince: T0, lastDepositsSyncAt: T0 + HOUR - 1, deposits: [calledBack] }));
    expect(kinds(before.findings)).toEqual(['callbackOnly:explained:5']);
    expect(before.ok).toBe(true);
    const never = reconcileCurrency(facts({ callbacksSince: T0, lastDepositsSyncAt: null, deposits: [calledBack] }));
    expect(never.ok).toBe(true);
  });

  it('a deposit listed only by query is explained while the platform may still retry its callback, then flagged', () => {
    const listed = deposit('9', T0 + HOUR, { query: T0 + HOUR });
    const during = reconcileCurrency(facts({ callbacksSince: T0, deposits: [listed], now: T0 + HOUR + CALLBACK_RETRY_WINDOW_MS - 1 }));
    expect(kinds(during.findings)).toEqual(['queryOnly:explained:9']);
    const after = reconcileCurrency(facts({ callbacksSince: T0, deposits: [listed], now: T0 + HOUR + CALLBACK_RETRY_WINDOW_MS }));
    expect(kinds(after.findings)).toEqual(['queryOnly:unexplained:9']);
  });

  it('deposits listed only by query while the desk received no callbacks are one explained finding', () => {
    const early = [deposit('1.1', T0 + HOUR), deposit('2.2', T0 + 2 * HOUR)];
    const later = deposit('4', T0 + 5 * HOUR);
    const report = reconcileCurrency(facts({ callbacksSince: T0 + 3 * HOUR, deposits: [...early, later] }));
    expect(kinds(report.findings)).toEqual(['queryOnly:unexplained:4', 'queryOnlyWithoutCallbacks:explained:3.3']);
    const none = reconcileCurrency(facts({ callbacksSince: null, deposits: [...early, later] }));
    expect(kinds(none.findings)).toEqual(['queryOnlyWithoutCallbacks:explained:7.3']);
    expect(none.findings[0]?.summary).toBe("3 deposits (7.3 trx.usdt) were in the service's deposit list only (no notice arrived).");
  });

  it('counts only deposits first seen in the period', () => {
    const report = reconcileCurrency(facts({ from: T0 + HOUR, to: T0 + 2 * HOUR, deposits: [deposit('1', T0), deposit('2', T0 + HOUR), deposit('4', T0 + 2 * HOUR)] }));
    expect(report.deposits.total).toEqual({ count: 1, amount: '2' });
  });
});

describe('the balance between readings', () => {
  it('adds up when deposits - withdrawals (amount + fee) + refunds explain the change, to the 18th decimal', () => {
    const refunded = order('10', '0.000000000000000001', T0 + 2 * HOUR, { status: 'WithdrawRefund', at: T0 + 3 * HOUR });
    const paid = order('20', '1', T0 + 2 * HOUR, { status: 'success', at: T0 + 4 * HOUR });
    const report = reconcileCurrency(
      facts({
        callbacksSince: null,
        readings: [reading('100', T0), reading('200.000000000000000001', T0 + HOUR + 1), reading('179.000000000000000001', T0 + 5 * HOUR)],
        deposits: [seenBoth('100.000000000000000001', T0 + HOUR)],
        orders: [refunded, paid],
      }),
    );
    expect(report.balance).toMatchObject({
      change: '79.000000000000000001',
      deposits: { count: 1, amount: '100.000000000000000001' },
      withdrawals: { count: 2, amount: '31.000000000000000001' },
      returned: { count: 1, amount: '10.000000000000000001' },
      fees: { deposits: '0', withdrawals: '1.000000000000000001', returned: '0.000000000000000001' },
      expectedChange: '79.000000000000000001',
      unexplained: '0',
      startsLate: true,
    });
    expect(report.frozen).toEqual({ at: T0 + 5 * HOUR, reported: '0', openOrders: { count: 0, amount: '0' }, difference: '0' });
    const refund = report.findings.find((finding) => finding.kind === 'refund');
    expect(refund).toMatchObject({ explained: true, amount: '10.000000000000000001', at: T0 + 3 * HOUR });
    expect(refund?.summary).toBe(`Withdrawal ${refunded.userOrder} was refunded: 10.000000000000000001 trx.usdt (amount 10 trx.usdt + fee 0.000000000000000001 trx.usdt) returned to the available balance.`);
    expect(report.ok).toBe(true);
  });

  it('flags a change no record explains, between the two readings where it happened, with its exact amount', () => {
    const report = reconcileCurrency(
      facts({ readings: [reading('100', T0), reading('150', T0 + HOUR), reading('175.25', T0 + 2 * HOUR)], deposits: [seenBoth('50', T0 + HOUR - 1000)] }),
    );
    expect(kinds(report.findings)).toEqual(['unexplainedBalanceChange:unexplained:25.25']);
    const [finding] = report.findings;
    expect(finding?.reference).toEqual({ kind: 'balance', fromAt: T0 + HOUR, toAt: T0 + 2 * HOUR });
    expect(finding?.summary).toBe(
      'The available balance went from 150 trx.usdt to 175.25 trx.usdt (+25.25) between two readings; the records account for 0, leaving +25.25 trx.usdt unexplained.',
    );
    expect(report.balance).toMatchObject({ change: '75.25', expectedChange: '50', unexplained: '25.25' });
    expect(report.ok).toBe(false);
  });

  it('counts a record observed while the reading before it was read unchanged in that reading', () => {
    // Read at T0, read unchanged until T0 + 1 h: a deposit the desk stored at T0 + 30 min was already in it.
    const report = reconcileCurrency(facts({ readings: [reading('0', T0 - HOUR), reading('40', T0, T0 + HOUR), reading('40', T0 + 2 * HOUR)], deposits: [seenBoth('40', T0 + HOUR / 2)] }));
    expect(report.findings).toEqual([]);
    expect(report.balance).toMatchObject({ change: '40', deposits: { count: 1, amount: '40' }, unexplained: '0' });
  });

  it('moves records of the sync run right after a reading into it when that makes the change add up, and says so', () => {
    // The sync reads 130 at T0 + 1 h, then stores the 30 deposit a second later: the reading already held it.
    const report = reconcileCurrency(
      facts({ readings: [reading('100', T0), reading('130', T0 + HOUR), reading('150', T0 + 2 * HOUR)], deposits: [seenBoth('30', T0 + HOUR + 1000), seenBoth('20', T0 + 2 * HOUR - 5000)] }),
    );
    expect(kinds(report.findings)).toEqual(['recordedAfterReading:explained:30']);
    expect(report.balance).toMatchObject({ unexplained: '0', deposits: { count: 2, amount: '50' } });
    // Not when the record came later than one sync run after the reading.
    const late = reconcileCurrency(
      facts({ readings: [reading('100', T0), reading('130', T0 + HOUR), reading('150', T0 + 2 * HOUR)], deposits: [seenBoth('30', T0 + HOUR + SYNC_RUN_GAP_MS + 1), seenBoth('20', T0 + 2 * HOUR - 5000)] }),
    );
    expect(kinds(late.findings)).toEqual(['unexplainedBalanceChange:unexplained:30', 'unexplainedBalanceChange:unexplained:-30']);
  });

  it('a desk’s first history walk, stored after its first reading, belongs to that reading', () => {
    const history = Array.from({ length: 40 }, (_, index) => seenBoth('2.5', T0 + 1000 + index * 500));
    const report = reconcileCurrency(facts({ readings: [reading('100', T0), reading('107', T0 + HOUR)], deposits: [...history, seenBoth('7', T0 + HOUR - 1)] }));
    expect(kinds(report.findings)).toEqual(['recordedAfterReading:explained:100']);
    expect(report.balance).toMatchObject({ change: '7', expectedChange: '7', unexplained: '0', deposits: { count: 1, amount: '7' } });
  });

  it('names a request whose creation is not confirmed when it would account for the difference', () => {
    const sending = order('10', '1', null, null, 'submitting');
    const report = reconcileCurrency(facts({ readings: [reading('100', T0), reading('89', T0 + HOUR, T0 + HOUR, '11')], orders: [sending] }));
    expect(kinds(report.findings)).toEqual(['unexplainedBalanceChange:unexplained:-11', 'frozenMismatch:unexplained:11']);
    for (const finding of report.findings) expect(finding.explanation).toContain(`Request ${sending.id} (${sending.userOrder}) was being sent`);
  });

  it('starts at the reading in force when the period starts; without any reading there is no balance check', () => {
    const report = reconcileCurrency(facts({ from: T0, readings: [reading('5', T0 - HOUR), reading('5', T0 + HOUR)] }));
    expect(report.balance).toMatchObject({ startsLate: false, opening: { available: '5', observedAt: T0 - HOUR }, unexplained: '0' });
    expect(reconcileCurrency(facts({ from: T0, readings: [reading('5', T0 + HOUR)] })).balance?.startsLate).toBe(true);
    const none = reconcileCurrency(facts({ deposits: [deposit('1', T0)] }));
    expect([none.balance, none.frozen]).toEqual([null, null]);
  });
});

describe('frozen funds', () => {
  it('match the amount + fee of the orders open in the closing reading', () => {
    const open = order('10', '0.5', T0 + 10);
    const report = reconcileCurrency(facts({ readings: [reading('100', T0), reading('89.5', T0 + HOUR, T0 + HOUR, '10.5')], orders: [open] }));
    expect(report.findings).toEqual([]);
    expect(report.frozen).toEqual({ at: T0 + HOUR, reported: '10.5', openOrders: { count: 1, amount: '10.5' }, difference: '0' });
  });

  it('an order the closing reading’s own sync saw finish after reading the balance is not open in it', () => {
    const paid = order('10', '0.5', T0 + 10, { status: 'success', at: T0 + HOUR + 2000 });
    const report = reconcileCurrency(facts({ readings: [reading('100', T0), reading('89.5', T0 + HOUR)], orders: [paid], deposits: [seenBoth('1', T0 + HOUR + 1000), seenBoth('1', T0 + 2 * HOUR)] }));
    expect(report.frozen?.difference).toBe('0');
  });

  it('flags frozen funds no open order explains', () => {
    const report = reconcileCurrency(facts({ readings: [reading('100', T0, T0, '0'), reading('100', T0 + HOUR, T0 + HOUR, '3')] }));
    expect(kinds(report.findings)).toEqual(['frozenMismatch:unexplained:3']);
    expect(report.findings[0]?.summary).toBe('The frozen balance is 3 trx.usdt, but the 0 open orders this desk knows hold 0 trx.usdt (amount + fee): +3 trx.usdt unexplained.');
  });
});

describe('orders in flight at a reading (issue 22)', () => {
  const sentAt = T0 + HOUR + 500;
  const iso = (at: number): string => new Date(at).toISOString();

  it('a reading taken while the desk’s order was still open, its success seen a second later, is waiting for the order, not unexplained', () => {
    // The sync read the balance (the order pending: 11 frozen), the create answer and the success arrived right after.
    const paid = order('10', '1', sentAt, { status: 'success', at: T0 + HOUR + 1000 });
    const report = reconcileCurrency(facts({ readings: [reading('100', T0), reading('89', T0 + HOUR, T0 + HOUR, '11')], orders: [paid] }));
    expect(kinds(report.findings)).toEqual(['awaitingOrder:explained:11', 'recordedAfterReading:explained:-11']);
    expect(report.ok).toBe(true);
    const waiting = report.findings[0];
    expect(waiting?.summary).toBe(
      `Waiting for order ${paid.userOrder} (sent at ${iso(sentAt)}): the frozen balance is 11 trx.usdt, but the 0 open orders this desk knows hold 0 trx.usdt (amount + fee): +11 trx.usdt not accounted for yet.`,
    );
    expect(waiting?.reference).toEqual({ kind: 'withdrawal', id: paid.id, userOrder: paid.userOrder, apiOrder: paid.apiOrder });
    expect(waiting?.at).toBe(sentAt);
    expect(findingStatus(waiting as ReconciliationFinding)).toBe('pending');
  });

  it('the same reading with no order of the desk behind it is unexplained', () => {
    const report = reconcileCurrency(facts({ readings: [reading('100', T0), reading('89', T0 + HOUR, T0 + HOUR, '11')] }));
    expect(kinds(report.findings)).toEqual(['unexplainedBalanceChange:unexplained:-11', 'frozenMismatch:unexplained:11']);
    expect(report.ok).toBe(false);
    expect(report.findings.map(findingStatus)).toEqual(['unexplained', 'unexplained']);
  });

  it('a refund the platform made before the closing reading, the desk’s order still open, waits for the order', () => {
    const open = order('10', '1', T0 + 10);
    const readings = [reading('100', T0), reading('89', T0 + HOUR, T0 + HOUR, '11'), reading('100', T0 + 2 * HOUR, T0 + 2 * HOUR, '0')];
    const report = reconcileCurrency(facts({ readings, orders: [open] }));
    expect(kinds(report.findings)).toEqual(['awaitingOrder:explained:11', 'awaitingOrder:explained:-11']);
    expect(report.findings[0]?.summary).toMatch(new RegExp(`^Waiting for order ${open.userOrder} \\(sent at ${iso(T0 + 10).replace(/\./g, '\\.')}\\): the available balance went from 89 trx.usdt to 100 trx.usdt`));
    expect(report.balance?.unexplained).toBe('11');
    // Once the desk has seen the refund before a later reading, the same change adds up.
    const refunded = { ...open, final: { status: 'WithdrawRefund' as const, at: T0 + HOUR + 60_000 } };
    expect(kinds(reconcileCurrency(facts({ readings, orders: [refunded] })).findings)).toEqual(['refund:explained:11']);
  });

  it('an order whose creation is not confirmed by a verified record does not make a difference pending', () => {
    const sending = order('10', '1', null, null, 'submitting');
    const report = reconcileCurrency(facts({ readings: [reading('100', T0), reading('89', T0 + HOUR, T0 + HOUR, '11')], orders: [sending] }));
    expect(report.findings.map(findingStatus)).toEqual(['unexplained', 'unexplained']);
  });

  it('an order that was final before the reading does not make a later difference pending', () => {
    const paid = order('10', '1', T0 + 10, { status: 'success', at: T0 + 20 });
    const report = reconcileCurrency(facts({ readings: [reading('100', T0 + 30), reading('97', T0 + HOUR)], orders: [paid] }));
    expect(kinds(report.findings)).toEqual(['unexplainedBalanceChange:unexplained:-3']);
  });
});

describe('fees against the currency table', () => {
  // 1 fixed + 0.1 % on withdrawals; 0.5 % on deposits (of the gross transfer).
  const rule: FeeRule = {
    fetchedAt: T0,
    expected: (kind, amount) => (kind === 'withdraw' ? amount.times('0.001').plus(1) : amount.times('0.005')).toDecimalPlaces(6, Money.ROUND_HALF_UP),
  };

  it('flags a withdrawal or deposit fee other than the table’s, with the difference', () => {
    const fair = order('100', '1.1', T0 + HOUR);
    const dear = order('100', '2.1', T0 + HOUR);
    const goodDeposit = deposit('99.5', T0 + HOUR, {}, '0.5');
    const badDeposit = deposit('99', T0 + HOUR, {}, '1');
    const report = reconcileCurrency(facts({ feeRule: rule, orders: [fair, dear], deposits: [goodDeposit, badDeposit] }));
    const fees = report.findings.filter((finding) => finding.kind === 'feeDiffers');
    expect(fees.map((finding) => [finding.amount, finding.explained, finding.reference?.kind])).toEqual([
      ['0.5', false, 'deposit'],
      ['1', false, 'withdrawal'],
    ]);
    expect(fees[1]?.summary).toBe(`Withdrawal ${dear.userOrder}: the platform charged a fee of 2.1 trx.usdt on 100 trx.usdt; the currency table gives 1.1 trx.usdt (+1).`);
    expect(fees[0]?.summary).toBe(`Deposit ${badDeposit.apiOrder}: the platform charged a fee of 1 trx.usdt on 100 trx.usdt received; the currency table gives 0.5 trx.usdt (+0.5).`);
    expect(reconcileCurrency(facts({ feeRule: null, orders: [dear] })).findings).toEqual([]);
  });
});

describe('every finding carries the values it is said from (issue 22)', () => {
  it('for every kind, its summary and explanation are the contract builder’s English of its sentence', () => {
    const halfUnit: FeeRule = { expected: () => new Money('0.5'), fetchedAt: T0 };
    const history = Array.from({ length: 4 }, (_, index) => seenBoth('2.5', T0 + 1000 + index * 500));
    const reports = [
      facts({ callbacksSince: T0, deposits: [deposit('7', T0 + HOUR, { callback: T0 + HOUR, query: null }), deposit('12', T0 + 2 * HOUR, { query: T0 + 2 * HOUR })] }),
      facts({ deposits: [deposit('3', T0)] }),
      facts({ feeRule: halfUnit, deposits: [deposit('100', T0, { callback: T0, query: T0 }, '1')], orders: [order('100', '2.1', T0 + 10)] }),
      facts({ orders: [order('10', '1', T0 + 10, { status: 'WithdrawRefund', at: T0 + HOUR }), order('5', '0', T0 + 10, { status: 'fail', at: T0 + HOUR })] }),
      facts({ readings: [reading('100', T0), reading('110', T0 + HOUR)], deposits: [...history, seenBoth('0', T0 + HOUR - 1)] }),
      facts({ readings: [reading('100', T0), reading('89', T0 + HOUR, T0 + HOUR, '11')], orders: [order('10', '1', null, null, 'submitting')] }),
      facts({ readings: [reading('100', T0), reading('89', T0 + HOUR, T0 + HOUR, '11')], orders: [order('10', '1', T0 + HOUR + 500, { status: 'success', at: T0 + HOUR + 1000 })] }),
    ].map(reconcileCurrency);
    const findings = reports.flatMap((report) => report.findings);
    expect(new Set(findings.map((finding) => finding.kind))).toEqual(new Set(RECONCILIATION_FINDING_KINDS));
    for (const finding of findings) {
      if (finding.sentence === undefined) throw new Error(`${finding.kind} carries no sentence`);
      expect({ summary: finding.summary, explanation: finding.explanation }, finding.kind).toEqual(findingText(finding.currency, finding.sentence));
    }
  });
});
