// Platform anomalies under /sandbox/anomalies (what a merchant's reconciliation must catch): a deposit credited whose
// callback is lost (logged failed, never attempted), a deposit left out of getDeposits while its balance stays, an
// order charged a fee other than the currency table's (the fee in its record and in frozen funds); spent after their
// hits, listed and cleared; bad input is HTTP 400. The ledger invariant holds after each.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, Money } from '../../../electron/chains/amounts';
import { PATHS } from '../../../electron/protocol/profile';
import { newChainAddress, cryptoRandom } from '../../../electron/sandbox/chain-sim';
import { expectData } from '../../support/raw-merchant';
import { openSandbox, type TestSandbox } from './harness';

let t: TestSandbox;
let merchantId: string;
let address: string;

interface LoggedCallback {
  readonly ref: string;
  readonly state: string;
  readonly attempts: number;
}

beforeAll(async () => {
  t = await openSandbox();
  merchantId = t.sandbox.credentials.merchantId;
  await t.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '1000' } });
  expectData(await t.merchant.getToken());
  address = expectData<{ address: string }>(await t.merchant.call(PATHS.createAddress, { userOrder: 'anomaly-addr', addressType: 'trx' })).address;
});
afterEach(async () => {
  t.expectInvariant();
  await t.admin('DELETE', '/anomalies');
});
afterAll(async () => t.close());

async function transfer(amount: string): Promise<{ apiOrder: string; amount: string }> {
  const answer = await t.admin<{ credited: boolean; deposit: { apiOrder: string; amount: string } }>('POST', '/transfers', { toAddress: address, currency: 'trx.usdt', amount });
  expect(answer.json.credited).toBe(true);
  return answer.json.deposit;
}

async function listed(): Promise<string[]> {
  return expectData<{ apiOrder: string }[]>(await t.merchant.call(PATHS.getDeposits, { limit: 100 })).map((deposit) => deposit.apiOrder);
}

describe('platform anomalies', () => {
  it('loses the next deposit callback: logged as failed, never attempted; the one after is sent', async () => {
    const added = await t.admin<{ anomaly: { id: number; kind: string; remaining: number } }>('POST', '/anomalies', { kind: 'dropDepositCallback', merchantId, times: 1 });
    expect(added.status).toBe(201);
    expect(added.json.anomaly).toMatchObject({ kind: 'dropDepositCallback', remaining: 1 });
    const lost = await transfer('20');
    const sent = await transfer('21');
    const log = (await t.admin<{ callbacks: LoggedCallback[] }>('GET', `/callbacks?merchantId=${merchantId}`)).json.callbacks;
    expect(log.find((entry) => entry.ref === lost.apiOrder)).toMatchObject({ state: 'failed', attempts: 0 });
    expect(log.find((entry) => entry.ref === sent.apiOrder)?.state).not.toBe('failed');
    expect((await t.admin<{ anomalies: { hits: number; remaining: number }[] }>('GET', '/anomalies')).json.anomalies).toEqual([expect.objectContaining({ hits: 1, remaining: 0 })]);
    expect(await listed()).toEqual(expect.arrayContaining([lost.apiOrder, sent.apiOrder]));
  });

  it('leaves a deposit out of getDeposits while it stays credited, until cleared', async () => {
    const hidden = await transfer('33.5');
    const before = (await t.admin<{ balances: { currency: string; available: string }[] }>('GET', `/merchants/${merchantId}`)).json.balances;
    const added = await t.admin<{ anomaly: { id: number } }>('POST', '/anomalies', { kind: 'unlistDeposit', apiOrder: hidden.apiOrder });
    expect(await listed()).not.toContain(hidden.apiOrder);
    expect((await t.admin('GET', `/merchants/${merchantId}`)).json['balances']).toEqual(before);
    expect((await t.admin('DELETE', `/anomalies/${added.json.anomaly.id}`)).status).toBe(200);
    expect(await listed()).toContain(hidden.apiOrder);
  });

  it('charges the next order a fee other than the table’s: in its record and in frozen funds', async () => {
    expect((await t.admin('POST', '/anomalies', { kind: 'withdrawFee', merchantId, currency: 'trx.usdt', fee: '2.75', times: 1 })).status).toBe(201);
    const toAddress = newChainAddress('trx', cryptoRandom);
    const surcharged = expectData<{ fee: string }>(await t.merchant.call(PATHS.createWithdrawOrder, { userOrder: 'fee-1', currency: 'trx.usdt', amount: '10', toAddress }));
    const regular = expectData<{ fee: string }>(await t.merchant.call(PATHS.createWithdrawOrder, { userOrder: 'fee-2', currency: 'trx.usdt', amount: '10', toAddress }));
    expect(surcharged.fee).toBe('2.75');
    expect(regular.fee).not.toBe('2.75');
    const info = expectData<{ balances: { currency: string; frozen: string }[] }>(await t.merchant.call(PATHS.merchantInfo, {}));
    const frozen = info.balances.find((balance) => balance.currency === 'trx.usdt')?.frozen;
    // amount + fee of both orders, in decimal (10 + 2.75 + 10 + the table's fee).
    expect(frozen).toBe(formatMoney(new Money('22.75').plus(new Money(regular.fee))));
  });

  it('refuses bad input with HTTP 400 and unknown ones with 404', async () => {
    for (const body of [
      { kind: 'nonsense' },
      { kind: 'withdrawFee', currency: 'trx.usdt', fee: '-1' },
      { kind: 'withdrawFee', currency: 'trx.usdt', fee: '0.0000001' },
      { kind: 'withdrawFee', currency: 'trx.usdc', fee: '1' },
      { kind: 'unlistDeposit' },
      { kind: 'dropDepositCallback', times: 0 },
    ]) {
      expect((await t.admin('POST', '/anomalies', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.admin('POST', '/anomalies', { kind: 'dropDepositCallback', merchantId: 'M-nobody' })).status).toBe(404);
    expect((await t.admin('DELETE', '/anomalies/999')).status).toBe(404);
    expect((await t.admin('PUT', '/anomalies')).status).toBe(405);
  });
});
