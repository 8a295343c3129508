// Demo data (`--seed demo`): a merchant with balances in several currencies, addresses, a few hundred deposits and
// withdrawals in every final state and none left open (a desk could not explain an order it never sent, issue 22); the
// same seed gives the same history; the ledger invariant holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../../electron/protocol/profile';
import { DEMO_SEED } from '../../../electron/sandbox';
import { admin, expectData } from '../../support/raw-merchant';
import { openSandbox, type TestSandbox } from './harness';

interface Deposit {
  apiOrder: string;
  txid: string;
  amount: string;
  currency: string;
}

let first: TestSandbox;
let second: TestSandbox;

beforeAll(async () => {
  [first, second] = await Promise.all([openSandbox({ seed: DEMO_SEED }), openSandbox({ seed: DEMO_SEED })]);
  expectData(await first.merchant.getToken());
  expectData(await second.merchant.getToken());
});

afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
});

async function allDeposits(t: TestSandbox): Promise<Deposit[]> {
  const deposits: Deposit[] = [];
  for (let page = 1; ; page += 1) {
    const batch = expectData<Deposit[]>(await t.merchant.call(PATHS.getDeposits, { page, limit: 100 }));
    deposits.push(...batch);
    if (batch.length < 100) return deposits;
  }
}

describe('demo seed', () => {
  it('starts a merchant with balances in several currencies and a history of a few hundred deposits', async () => {
    const info = expectData<{ merchantName: string; balances: Array<{ currency: string; available: string }> }>(
      await first.merchant.call(PATHS.merchantInfo, {}),
    );
    expect(info.merchantName).toContain('demo');
    expect(info.balances.filter((entry) => entry.available !== '0').length).toBeGreaterThanOrEqual(6);
    const deposits = await allDeposits(first);
    expect(deposits.length).toBeGreaterThanOrEqual(200);
    expect(new Set(deposits.map((deposit) => deposit.apiOrder)).size).toBe(deposits.length);
    expect(new Set(deposits.map((deposit) => deposit.currency)).size).toBeGreaterThanOrEqual(8);
    expect(deposits.some((deposit) => deposit.currency === 'trx.usdc')).toBe(false);
    first.expectInvariant();
  });

  it('has withdrawals of both types in every final state, and none still in flight', async () => {
    const seen = new Map<string, number>();
    const types = new Set<string>();
    for (let index = 1; index <= 90; index += 1) {
      const call = await first.merchant.call(PATHS.checkWithdrawOrder, { userOrder: `PAYOUT-${String(index).padStart(5, '0')}` });
      if (call.envelope?.code !== 10000) continue;
      const order = expectData<{ orderStatus: string; withdrawType: string }>(call);
      seen.set(order.orderStatus, (seen.get(order.orderStatus) ?? 0) + 1);
      types.add(order.withdrawType);
    }
    for (const status of ['success', 'WithdrawRefund', 'fail']) expect(seen.get(status) ?? 0).toBeGreaterThan(0);
    expect([...seen.keys()].filter((status) => status.startsWith('pending'))).toEqual([]);
    expect([...types].sort()).toEqual(['financialConfirmation', 'normal']);
    expect([...seen.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(60);
  });

  it('spreads the seeded orders\' service-side times over the last 30 days, oldest first, never in the future', async () => {
    const startedAt = Date.now();
    const created: number[] = [];
    for (let index = 1; index <= 90; index += 1) {
      const userOrder = `PAYOUT-${String(index).padStart(5, '0')}`;
      const { status, json } = await admin<{ history: Array<{ at: number }> }>(first.sandbox.adminUrl, 'GET', `/withdrawals/${first.sandbox.credentials.merchantId}/${userOrder}`);
      const at = json.history[0]?.at;
      if (status === 200 && at !== undefined) created.push(at);
    }
    const day = 24 * 60 * 60 * 1000;
    expect(created.length).toBeGreaterThanOrEqual(60);
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(Math.min(...created)).toBeGreaterThan(startedAt - 31 * day);
    expect(Math.max(...created)).toBeLessThanOrEqual(startedAt);
    expect(Math.max(...created) - Math.min(...created)).toBeGreaterThan(3 * day);
    expect(new Set(created.map((at) => Math.floor(at / 60_000))).size).toBe(created.length);
  });

  it('is deterministic given the seed (keys aside)', async () => {
    expect(second.sandbox.credentials.merchantId).toBe(first.sandbox.credentials.merchantId);
    expect(second.sandbox.credentials.secret).toBe(first.sandbox.credentials.secret);
    expect(await allDeposits(second)).toEqual(await allDeposits(first));
    const info = async (t: TestSandbox) => expectData<{ balances: unknown }>(await t.merchant.call(PATHS.merchantInfo, {})).balances;
    expect(await info(second)).toEqual(await info(first));
    second.expectInvariant();
  });
});
