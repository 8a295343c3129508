// Withdrawal requests: creation rules, workflow moves by lifecycle event (compare-and-set), keyset pages, and recordOrderStatus moving
// the platform status only forward, never out of a final state, with each (request, status) recorded once.
import { beforeAll, describe, expect, it } from 'vitest';
import { type StoreDatabase } from '../../../electron/core/store/database';
import { StoreError } from '../../../electron/core/store/errors';
import { createWithdrawalRequest, getWithdrawalRequest, getWithdrawalRequestByUserOrder, listOrderStatusHistory, listUnsettledWithdrawalRequests, listWithdrawalRequests, orderStatusRank, moveWithdrawalRequest, recordOrderStatus, type NewWithdrawalRequest, type OrderStatusOutcome, type WithdrawalRequest } from '../../../electron/core/withdrawals/withdrawals-table';
import { PROFILE, seededDatabase, useTempDir } from './helpers';

const temp = useTempDir();
let db: StoreDatabase;
let counter = 0;

beforeAll(() => {
  db = seededDatabase(temp);
});

/** Moves a request through the lifecycle events that reach `submitted` (approved, submitting, accepted). */
function toSubmitted(target: StoreDatabase, id: number, now: number): void {
  for (const event of ['approvalsComplete', 'submit', 'accepted'] as const) expect(moveWithdrawalRequest(target, id, event, now), event).toBe(true);
}

function newRequest(overrides: Partial<NewWithdrawalRequest> = {}, now = 10_000): WithdrawalRequest {
  counter += 1;
  return createWithdrawalRequest(
    db,
    {
      profile: PROFILE,
      currency: 'trx.usdt',
      amount: '1250.50',
      toAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
      withdrawType: 'normal',
      memo: 'supplier invoice 77',
      userOrder: `W${String(counter).padStart(6, '0')}`,
      initiator: 'alice',
      ...overrides,
    },
    now,
  );
}

function orderRecord(request: WithdrawalRequest, orderStatus: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    businessType: 'withdraw',
    toAddress: request.toAddress,
    amount: request.amount,
    currency: request.currency,
    fee: '1.5',
    apiOrder: `API-${request.userOrder}`,
    userOrder: request.userOrder,
    withdrawType: request.withdrawType,
    message: '',
    txid: '',
    orderStatus,
    ...extra,
  };
}

describe('withdrawal requests', () => {
  it('creates a request awaiting approval with the platform fields still unknown', () => {
    const request = newRequest();
    expect(request).toMatchObject({
      profile: PROFILE,
      amount: '1250.50',
      state: 'awaitingApproval',
      createdAt: 10_000,
      updatedAt: 10_000,
      apiOrder: null,
      orderStatus: null,
      fee: null,
      txid: null,
      raw: null,
    });
    expect(request).toMatchObject({ initiator: 'alice', requiredApprovals: 1, intentJson: null, intentHash: null, fingerprint: null, requestSeq: null, lastError: null });
    expect(getWithdrawalRequestByUserOrder(db, request.userOrder)).toEqual(request);
    expect(getWithdrawalRequest(db, request.id)).toEqual(request);
  });

  it('refuses a reused userOrder, a malformed one, a non-decimal amount, a long or unsafe memo, no initiator and an unknown profile', () => {
    const request = newRequest();
    expect(() => newRequest({ userOrder: request.userOrder })).toThrow(/already exists/);
    expect(() => newRequest({ userOrder: 'has space' })).toThrow(/PROTOCOL §8/);
    expect(() => newRequest({ amount: '1e3' })).toThrow(StoreError);
    expect(() => newRequest({ memo: 'x'.repeat(256) })).toThrow(/255/);
    expect(() => newRequest({ memo: 'pay \u202eevil' })).toThrow(StoreError);
    // The initiator is a name (who really asked is the signed request statement), never empty.
    expect(() => newRequest({ initiator: '' })).toThrow(/CHECK/);
    expect(() => newRequest({ profile: 'nobody' })).toThrow(/unknown profile/);
  });

  it('keeps the signed intent, its hash and fingerprint, and refuses a second request for the same intent hash', () => {
    const hash = 'ab'.repeat(32);
    const request = newRequest({ intentJson: '{"v":1}', intentHash: hash, fingerprint: 'AAAA-BBBB-CCCC-DDDD', requestSeq: 7, requiredApprovals: 2 });
    expect(getWithdrawalRequest(db, request.id)).toMatchObject({ intentJson: '{"v":1}', intentHash: hash, fingerprint: 'AAAA-BBBB-CCCC-DDDD', requestSeq: 7, requiredApprovals: 2 });
    expect(() => newRequest({ intentHash: hash })).toThrow(StoreError);
    expect(listWithdrawalRequests(db, { profile: PROFILE, limit: 1000 }).rows.filter((row) => row.intentHash === hash)).toHaveLength(1);
    expect(() => newRequest({ intentHash: 'not a hash' })).toThrow(/CHECK/);
    expect(() => newRequest({ intentJson: '{not json' })).toThrow(/CHECK/);
  });

  it('moves the workflow state only by a lifecycle event legal in the current state (compare-and-set)', () => {
    const request = newRequest();
    expect(moveWithdrawalRequest(db, request.id, 'submit', 11_000)).toBe(false);
    expect(moveWithdrawalRequest(db, request.id, 'approvalRecorded', 11_000)).toBe(true);
    expect(getWithdrawalRequest(db, request.id)).toMatchObject({ state: 'awaitingApproval', updatedAt: 11_000 });
    expect(moveWithdrawalRequest(db, request.id, 'approvalsComplete', 12_000)).toBe(true);
    expect(moveWithdrawalRequest(db, request.id, 'approvalsComplete', 12_500)).toBe(false);
    expect(moveWithdrawalRequest(db, request.id, 'reject', 12_500)).toBe(false);
    expect(moveWithdrawalRequest(db, request.id, 'submit', 13_000)).toBe(true);
    expect(getWithdrawalRequest(db, request.id)).toMatchObject({ state: 'submitting', updatedAt: 13_000 });
    // Once something may have reached the service, the request can no longer be cancelled.
    expect(moveWithdrawalRequest(db, request.id, 'cancel', 14_000)).toBe(false);
    expect(moveWithdrawalRequest(db, request.id, 'notSent', 14_000)).toBe(true);
    expect(moveWithdrawalRequest(db, request.id, 'cancel', 15_000)).toBe(true);
    expect(getWithdrawalRequest(db, request.id)).toMatchObject({ state: 'cancelled', updatedAt: 15_000 });
    for (const event of ['approvalsComplete', 'submit', 'accepted', 'final', 'cancel'] as const) {
      expect(moveWithdrawalRequest(db, request.id, event, 16_000), event).toBe(false);
    }
    expect(getWithdrawalRequest(db, request.id)).toMatchObject({ state: 'cancelled', updatedAt: 15_000 });
    expect(moveWithdrawalRequest(db, 123_456, 'cancel', 13_000)).toBe(false);
  });

  it('lets only one of two connections make a move (the second finds the state already changed)', () => {
    const first = seededDatabase(temp, 'race.sqlite');
    const request = createWithdrawalRequest(
      first,
      { profile: PROFILE, currency: 'trx', amount: '1', toAddress: 'T', withdrawType: 'normal', userOrder: 'RACE-1', initiator: 'alice' },
      1,
    );
    const second = temp.open('race.sqlite');
    expect(moveWithdrawalRequest(first, request.id, 'approvalsComplete', 2)).toBe(true);
    expect(moveWithdrawalRequest(second, request.id, 'reject', 3)).toBe(false);
    expect(moveWithdrawalRequest(second, request.id, 'submit', 3)).toBe(true);
    expect(moveWithdrawalRequest(first, request.id, 'submit', 4)).toBe(false);
    expect(getWithdrawalRequest(first, request.id)?.state).toBe('submitting');
  });

  it('pages newest first with a keyset cursor, optionally by state, using an index', () => {
    const fresh = seededDatabase(temp);
    for (let i = 0; i < 25; i++) {
      createWithdrawalRequest(
        fresh,
        { profile: PROFILE, currency: 'trx', amount: '1', toAddress: 'T', withdrawType: 'normal', userOrder: `P${i}`, initiator: 'alice' },
        1_000 + Math.floor(i / 3),
      );
    }
    moveWithdrawalRequest(fresh, 5, 'approvalsComplete', 2_000);
    moveWithdrawalRequest(fresh, 9, 'approvalsComplete', 2_000);
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page = listWithdrawalRequests(fresh, { profile: PROFILE, limit: 4, after });
      seen.push(...page.rows.map((request) => request.userOrder));
      after = page.nextCursor;
    } while (after !== null);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `P${24 - i}`));
    expect(listWithdrawalRequests(fresh, { profile: PROFILE, state: 'approved', limit: 10 }).rows.map((r) => r.id)).toEqual([9, 5]);

    const plan = (fresh.prepare(
      'EXPLAIN QUERY PLAN SELECT * FROM withdrawal_requests WHERE profile = ? AND state = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT 5',
    ).all(PROFILE, 'approved', 5_000, 9) as { detail: string }[]).map((row) => row.detail);
    expect(plan.join(' | ')).toMatch(/SEARCH withdrawal_requests USING INDEX withdrawal_requests_by_state/);
    expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE|SCAN withdrawal_requests/);
  });
});

describe('orderStatusRank', () => {
  it('orders the spec states and ranks unknown pending names as pending', () => {
    expect(orderStatusRank('pendingConfirm')).toBeLessThan(orderStatusRank('pendingTransfer'));
    expect(orderStatusRank('pendingTransfer')).toBe(orderStatusRank('pendingFinancialConfirmation'));
    expect(orderStatusRank('pendingSomethingNew')).toBe(orderStatusRank('pendingTransfer'));
    expect(orderStatusRank('pendingTransfer')).toBeLessThan(orderStatusRank('pendingCallback'));
    for (const final of ['success', 'WithdrawRefund', 'fail']) expect(orderStatusRank(final)).toBeGreaterThan(orderStatusRank('pendingCallback'));
  });
});

describe('recordOrderStatus', () => {
  function play(steps: readonly [string, 'create' | 'query' | 'callback'][], withdrawType = 'normal') {
    const request = newRequest({ withdrawType });
    toSubmitted(db, request.id, 10_000);
    const outcomes: OrderStatusOutcome[] = [];
    steps.forEach(([status, source], index) => {
      outcomes.push(recordOrderStatus(db, request.id, status, source, orderRecord(request, status, { withdrawType }), 20_000 + index).outcome);
    });
    return { request: getWithdrawalRequest(db, request.id), outcomes, history: listOrderStatusHistory(db, request.id) };
  }

  it('follows the normal flow to success, recording when and how each status was seen', () => {
    const { request, outcomes, history } = play([
      ['pendingConfirm', 'create'],
      ['pendingTransfer', 'query'],
      ['pendingCallback', 'callback'],
      ['success', 'callback'],
    ]);
    expect(outcomes).toEqual(['advanced', 'advanced', 'advanced', 'advanced']);
    expect(request).toMatchObject({ orderStatus: 'success', orderStatusAt: 20_003, apiOrder: `API-${request?.userOrder}`, fee: '1.5' });
    expect(history.map((h) => [h.status, h.source, h.observedAt])).toEqual([
      ['pendingConfirm', 'create', 20_000],
      ['pendingTransfer', 'query', 20_001],
      ['pendingCallback', 'callback', 20_002],
      ['success', 'callback', 20_003],
    ]);
    expect(history[3]?.raw).toMatchObject({ orderStatus: 'success', businessType: 'withdraw' });
  });

  it('follows the financialConfirmation flow to a refund', () => {
    const { request, outcomes } = play(
      [
        ['pendingConfirm', 'create'],
        ['pendingFinancialConfirmation', 'callback'],
        ['WithdrawRefund', 'callback'],
      ],
      'financialConfirmation',
    );
    expect(outcomes).toEqual(['advanced', 'advanced', 'advanced']);
    expect(request?.orderStatus).toBe('WithdrawRefund');
  });

  it('never moves backwards when callbacks arrive out of order, but keeps every status in the history', () => {
    const { request, outcomes, history } = play([
      ['pendingConfirm', 'create'],
      ['pendingCallback', 'callback'],
      ['pendingTransfer', 'callback'],
      ['pendingConfirm', 'query'],
    ]);
    expect(outcomes).toEqual(['advanced', 'advanced', 'ignoredBackward', 'ignoredBackward']);
    expect(request?.orderStatus).toBe('pendingCallback');
    expect(history.map((h) => h.status)).toEqual(['pendingConfirm', 'pendingCallback', 'pendingTransfer']);
  });

  it('never leaves a final state: a late pending status or a contradicting final is ignored (and reported)', () => {
    const { request, outcomes, history } = play([
      ['pendingConfirm', 'create'],
      ['fail', 'callback'],
      ['pendingTransfer', 'callback'],
      ['success', 'query'],
      ['fail', 'query'],
    ]);
    expect(outcomes).toEqual(['advanced', 'advanced', 'ignoredAfterFinal', 'ignoredAfterFinal', 'unchanged']);
    expect(request?.orderStatus).toBe('fail');
    expect(history.map((h) => h.status)).toEqual(['pendingConfirm', 'fail', 'pendingTransfer', 'success']);
  });

  it('treats an unknown pending name as pending, and keeps the first of two pending names of equal rank', () => {
    const { request, outcomes } = play([
      ['pendingConfirm', 'create'],
      ['pendingRiskReview', 'query'],
      ['pendingTransfer', 'callback'],
      ['pendingCallback', 'callback'],
    ]);
    expect(outcomes).toEqual(['advanced', 'advanced', 'unchanged', 'advanced']);
    expect(request?.orderStatus).toBe('pendingCallback');
  });

  it('adds a duplicate delivery (same userOrder and status) to the history once (PROTOCOL §10.5)', () => {
    const request = newRequest();
    const first = recordOrderStatus(db, request.id, 'pendingConfirm', 'create', orderRecord(request, 'pendingConfirm'), 1);
    const again = recordOrderStatus(db, request.id, 'pendingConfirm', 'callback', orderRecord(request, 'pendingConfirm'), 2);
    expect(first).toMatchObject({ outcome: 'advanced', historyAdded: true, previous: null, current: 'pendingConfirm' });
    expect(again).toMatchObject({ outcome: 'unchanged', historyAdded: false, previous: 'pendingConfirm', current: 'pendingConfirm' });
    expect(listOrderStatusHistory(db, request.id)).toHaveLength(1);
    expect(listOrderStatusHistory(db, request.id)[0]).toMatchObject({ source: 'create', observedAt: 1 });
  });

  it('fills in a txid that arrives later with the same status, and keeps a known txid', () => {
    const request = newRequest();
    recordOrderStatus(db, request.id, 'pendingCallback', 'query', orderRecord(request, 'pendingCallback'), 1);
    recordOrderStatus(db, request.id, 'pendingCallback', 'callback', orderRecord(request, 'pendingCallback', { txid: 'abc123' }), 2);
    expect(getWithdrawalRequest(db, request.id)?.txid).toBe('abc123');
    recordOrderStatus(db, request.id, 'success', 'callback', orderRecord(request, 'success', { txid: '' }), 3);
    expect(getWithdrawalRequest(db, request.id)).toMatchObject({ txid: 'abc123', orderStatus: 'success' });
  });

  it('reports fields of the platform record that disagree with the request, amounts compared as decimals', () => {
    const request = newRequest({ amount: '100.10' });
    const same = recordOrderStatus(db, request.id, 'pendingConfirm', 'create', orderRecord(request, 'pendingConfirm', { amount: '100.1' }), 1);
    expect(same.mismatches).toEqual([]);
    const different = recordOrderStatus(
      db,
      request.id,
      'pendingTransfer',
      'query',
      orderRecord(request, 'pendingTransfer', { amount: '1001', toAddress: 'TOther' }),
      2,
    );
    expect(different.mismatches).toEqual(['amount', 'toAddress']);
  });

  it('refuses a record of another request, a status that contradicts the record, and unknown requests', () => {
    const request = newRequest();
    const other = newRequest();
    expect(() => recordOrderStatus(db, request.id, 'pendingConfirm', 'callback', orderRecord(other, 'pendingConfirm'), 1)).toThrow(/userOrder/);
    expect(() => recordOrderStatus(db, request.id, 'success', 'callback', orderRecord(request, 'fail'), 1)).toThrow(/orderStatus/);
    expect(() => recordOrderStatus(db, 987_654, 'success', 'callback', {}, 1)).toThrow(/no withdrawal request/);
    expect(listOrderStatusHistory(db, request.id)).toEqual([]);
  });

  it('lists submitted requests whose outcome is still open, oldest first', () => {
    const fresh = seededDatabase(temp);
    const make = (userOrder: string, now: number) =>
      createWithdrawalRequest(fresh, { profile: PROFILE, currency: 'trx', amount: '1', toAddress: 'T', withdrawType: 'normal', userOrder, initiator: 'alice' }, now);
    const open = make('open', 1);
    const done = make('done', 2);
    const waiting = make('waiting', 3);
    const inFlight = make('inflight', 4);
    toSubmitted(fresh, open.id, 5);
    toSubmitted(fresh, done.id, 5);
    moveWithdrawalRequest(fresh, inFlight.id, 'approvalsComplete', 5);
    moveWithdrawalRequest(fresh, inFlight.id, 'submit', 5);
    recordOrderStatus(fresh, open.id, 'pendingTransfer', 'query', {}, 6);
    recordOrderStatus(fresh, done.id, 'success', 'query', {}, 6);
    expect(listUnsettledWithdrawalRequests(fresh, PROFILE).map((r) => r.userOrder)).toEqual(['open', 'inflight']);
    expect(waiting.state).toBe('awaitingApproval');
  });
});
