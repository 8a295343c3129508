// Migration 0090 (deposit sightings): a version 80 desk upgrades with each deposit's first sighting backfilled from the
// way it was first seen; from then on a deposit seen by callback and by query keeps the first time of each, whichever
// came first, through single and batched intake; the desk's first callback is found through the partial index; the
// reconciliation reads (sightings by currency and period, readings in force, held currencies, requests with their first
// status) answer what they say.
import { describe, expect, it } from 'vitest';
import { balanceReadings, heldCurrencies, recordBalances } from '../../../../electron/core/merchant/balances-table';
import { userVersion } from '../../../../electron/core/store/database';
import { depositCurrencies, depositSightings, firstDepositCallbackAt, getDepositByApiOrder, insertOrTouchDeposit, insertOrTouchDeposits } from '../../../../electron/core/deposits/deposits-table';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { createProfile } from '../../../../electron/core/profiles/profiles-table';
import { createWithdrawalRequest, firstOrderCallbackAt, moveWithdrawalRequest, recordOrderStatus, requestsForReconciliation } from '../../../../electron/core/withdrawals/withdrawals-table';
import { migration0090 } from '../../../../electron/core/store/migrations/0090-deposit-sightings';
import { depositRecord, PROFILE, seededDatabase, useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();

describe('migration 0090-deposit-sightings', () => {
  it('upgrades a version 80 database, backfilling each deposit’s first sighting from its source', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(80) });
    createProfile(old, { name: PROFILE, baseUrl: 'https://pay.example', merchantId: 'M-1' }, 1_000);
    // Rows as the version 80 code wrote them (it knew no sighting columns).
    const insert = old.prepare(
      `INSERT INTO deposits (profile, api_order, user_order, business_type, txid, address, address_type, from_address, currency, amount, fee,
         raw_json, source, first_seen_at, last_seen_at) VALUES ('main', ?, 'u', 'deposit', ?, 'T', 'trx', 'T', 'trx.usdt', '1', '0', '{}', ?, ?, ?)`,
    );
    insert.run(depositRecord(1).apiOrder, 'tx1', 'callback', 2_000, 2_500);
    insert.run(depositRecord(2).apiOrder, 'tx2', 'query', 3_000, 3_000);
    old.close();
    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(90) });
    expect(userVersion(db)).toBe(90);
    expect(MIGRATIONS.find((migration) => migration.version === 90)).toBe(migration0090);
    expect(getDepositByApiOrder(db, PROFILE, depositRecord(1).apiOrder)).toMatchObject({ source: 'callback', callbackSeenAt: 2_000, querySeenAt: null });
    expect(getDepositByApiOrder(db, PROFILE, depositRecord(2).apiOrder)).toMatchObject({ source: 'query', callbackSeenAt: null, querySeenAt: 3_000 });
    expect(firstDepositCallbackAt(db, PROFILE)).toBe(2_000);
  });

  it('keeps the first sighting of each way, whichever came first, singly and in batches', () => {
    const db = seededDatabase(temp);
    const calledBackFirst = depositRecord(10);
    const listedFirst = depositRecord(11);
    insertOrTouchDeposit(db, PROFILE, calledBackFirst, 'callback', 1_000);
    insertOrTouchDeposits(db, PROFILE, [
      { record: calledBackFirst, source: 'query', observedAt: 2_000 },
      { record: listedFirst, source: 'query', observedAt: 2_000 },
    ]);
    insertOrTouchDeposits(db, PROFILE, [{ record: calledBackFirst, source: 'query', observedAt: 3_000 }]);
    insertOrTouchDeposit(db, PROFILE, listedFirst, 'callback', 4_000);
    insertOrTouchDeposit(db, PROFILE, listedFirst, 'callback', 5_000);
    expect(getDepositByApiOrder(db, PROFILE, calledBackFirst.apiOrder)).toMatchObject({ source: 'callback', firstSeenAt: 1_000, lastSeenAt: 3_000, callbackSeenAt: 1_000, querySeenAt: 2_000 });
    expect(getDepositByApiOrder(db, PROFILE, listedFirst.apiOrder)).toMatchObject({ source: 'query', firstSeenAt: 2_000, lastSeenAt: 5_000, callbackSeenAt: 4_000, querySeenAt: 2_000 });
  });

  it('finds the desk’s first callback through the partial index', () => {
    const db = seededDatabase(temp);
    expect(firstDepositCallbackAt(db, PROFILE)).toBeNull();
    insertOrTouchDeposit(db, PROFILE, depositRecord(20), 'query', 1_000);
    expect(firstDepositCallbackAt(db, PROFILE)).toBeNull();
    insertOrTouchDeposit(db, PROFILE, depositRecord(20), 'callback', 7_000);
    insertOrTouchDeposit(db, PROFILE, depositRecord(21), 'callback', 6_000);
    expect(firstDepositCallbackAt(db, PROFILE)).toBe(6_000);
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT MIN(callback_seen_at) FROM deposits WHERE profile = 'main' AND callback_seen_at IS NOT NULL").all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join(' ')).toContain('deposits_called_back');
  });

  it('reads a currency’s deposits of a period oldest first, and the currencies held', () => {
    const db = seededDatabase(temp);
    for (const [n, currency, at] of [[30, 'trx.usdt', 3_000], [31, 'trx.usdt', 1_000], [32, 'eth', 2_000], [33, 'trx.usdt', 5_000]] as const) {
      insertOrTouchDeposit(db, PROFILE, depositRecord(n, { currency }), 'query', at);
    }
    const seen = (from: number | null, to: number | null) => [...depositSightings(db, PROFILE, 'trx.usdt', from, to)].map((sighting) => sighting.firstSeenAt);
    expect(seen(null, null)).toEqual([1_000, 3_000, 5_000]);
    expect(seen(1_000, 5_000)).toEqual([1_000, 3_000]);
    expect([...depositSightings(db, PROFILE, 'trx.usdt', 3_000, 3_001)]).toEqual([
      { apiOrder: depositRecord(30).apiOrder, txid: depositRecord(30).txid, amount: depositRecord(30).amount, fee: depositRecord(30).fee, firstSeenAt: 3_000, callbackSeenAt: null, querySeenAt: 3_000 },
    ]);
    expect(depositCurrencies(db, PROFILE)).toEqual(['eth', 'trx.usdt']);
  });

  it('reads the balance readings in force over a period, and the currencies ever held', () => {
    const db = seededDatabase(temp);
    recordBalances(db, PROFILE, [{ currency: 'trx.usdt', available: '1', frozen: '0' }, { currency: 'eth', available: '0', frozen: '0.000' }], 1_000);
    recordBalances(db, PROFILE, [{ currency: 'trx.usdt', available: '2', frozen: '0' }], 2_000);
    recordBalances(db, PROFILE, [{ currency: 'trx.usdt', available: '2', frozen: '0' }], 2_500);
    recordBalances(db, PROFILE, [{ currency: 'trx.usdt', available: '3', frozen: '0' }], 3_000);
    const at = (from: number | null, to: number) => balanceReadings(db, PROFILE, 'trx.usdt', from, to).map((reading) => [reading.available, reading.observedAt, reading.lastObservedAt]);
    expect(at(null, 10_000)).toEqual([['1', 1_000, 1_000], ['2', 2_000, 2_500], ['3', 3_000, 3_000]]);
    expect(at(2_700, 3_000)).toEqual([['2', 2_000, 2_500]]);
    expect(at(500, 2_000)).toEqual([['1', 1_000, 1_000]]);
    expect(heldCurrencies(db, PROFILE)).toEqual(['trx.usdt']);
  });

  it('lists the requests that reached the platform with their first status, and the first order callback', () => {
    const db = seededDatabase(temp);
    const made = ['td-a', 'td-b', 'td-c'].map((userOrder) =>
      createWithdrawalRequest(db, { profile: PROFILE, currency: 'trx.usdt', amount: '5', toAddress: 'T', withdrawType: 'normal', userOrder, initiator: 'carol', state: 'approved' }, 1_000),
    );
    const [sent, sending, kept] = made.map((request) => request.id) as [number, number, number];
    moveWithdrawalRequest(db, sent, 'submit', 2_000);
    moveWithdrawalRequest(db, sending, 'submit', 2_000);
    recordOrderStatus(db, sent, 'pendingConfirm', 'create', { userOrder: 'td-a', orderStatus: 'pendingConfirm', fee: '1' }, 3_000);
    recordOrderStatus(db, sent, 'WithdrawRefund', 'callback', { userOrder: 'td-a', orderStatus: 'WithdrawRefund' }, 4_000);
    expect(requestsForReconciliation(db, PROFILE, 'trx.usdt').map(({ request, firstStatusAt }) => [request.id, firstStatusAt, request.orderStatus, request.fee])).toEqual([
      [sent, 3_000, 'WithdrawRefund', '1'],
      [sending, null, null, null],
    ]);
    expect(kept).toBeGreaterThan(0);
    expect(firstOrderCallbackAt(db, PROFILE)).toBe(4_000);
  });
});
