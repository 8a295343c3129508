// The ledger through the merchant and admin interfaces: deposits from simulated transfers (§9.6, §11.5, §11.6) with
// txids in each chain's format, withdrawals along the spec's state table with §9.5 balance moves, illegal moves
// (HTTP 409), --auto on timers, and the invariant available + frozen = opening + deposits - succeeded withdrawals.
import { base58 } from '@scure/base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CODE_SUCCESS, PATHS } from '../../../electron/protocol/profile';
import { cryptoRandom, newChainAddress } from '../../../electron/sandbox/chain-sim';
import { expectData, postForm, type RawMerchant, type SignedCall } from '../../support/raw-merchant';
import { eventually, openSandbox, type TestSandbox } from './harness';

let t: TestSandbox;

beforeAll(async () => {
  t = await openSandbox();
});

afterEach(() => t.expectInvariant());

afterAll(async () => {
  await t.close();
});

interface Deposit {
  businessType: string;
  txid: string;
  address: string;
  addressType: string;
  fromAddress: string;
  amount: string;
  currency: string;
  fee: string;
  apiOrder: string;
  userOrder: string;
}

interface TransferAnswer {
  credited: boolean;
  txid: string;
  reason?: string;
  deposit?: Deposit;
}

interface Order {
  orderStatus: string;
  txid: string;
  amount: string;
  fee: string;
  message: string;
  currency: string;
}

async function transfer(body: Record<string, unknown>): Promise<TransferAnswer> {
  const answer = await t.admin<TransferAnswer>('POST', '/transfers', body);
  expect(answer.status).toBe(200);
  return answer.json;
}

async function balances(client: RawMerchant): Promise<Record<string, { available: string; frozen: string }>> {
  const info = expectData<{ balances: Array<{ currency: string; available: string; frozen: string }> }>(await client.call(PATHS.merchantInfo, {}));
  return Object.fromEntries(info.balances.map((entry) => [entry.currency, { available: entry.available, frozen: entry.frozen }]));
}

async function advance(client: RawMerchant, userOrder: string, to: string): Promise<{ status: number; order?: Order; reason?: string }> {
  const answer = await t.admin<{ order?: Order; reason?: string }>('POST', `/withdrawals/${client.credentials.merchantId}/${userOrder}/advance`, { to });
  return { status: answer.status, ...answer.json };
}

function failure(call: SignedCall): string {
  expect(call.envelope?.code).toBe(9999);
  return call.envelope?.message ?? '';
}

describe('deposits', () => {
  it('credits an eth_bnb address on both chains, each under its own currency, with §9.6 fees', async () => {
    const client = await t.newMerchant();
    const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'inv-1', addressType: 'eth_bnb' }));
    // [currency, gross, fee, credited amount]: eth 0.3 %; eth.usdt 0.5 % clamped to [1, 50]; bnb.usdc 0.5 %, min 0.1.
    const cases: Array<[string, string, string, string]> = [
      ['eth', '1', '0.003', '0.997'],
      ['eth.usdt', '100', '1', '99'],
      ['eth.usdt', '20000', '50', '19950'],
      ['bnb', '0.5', '0.0015', '0.4985'],
      ['bnb.usdt', '100', '0.5', '99.5'],
      ['bnb.usdc', '10.000000000000000001', '0.1', '9.900000000000000001'],
      ['eth.usdc', '333.333333', '1.666667', '331.666666'],
    ];
    for (const [currency, gross, fee, amount] of cases) {
      const answer = await transfer({ toAddress: address.toLowerCase(), currency, amount: gross });
      expect(answer.credited).toBe(true);
      expect(answer.deposit).toMatchObject({ businessType: 'deposit', address, addressType: 'eth_bnb', currency, fee, amount, userOrder: 'inv-1' });
      expect(answer.deposit?.txid).toMatch(/^0x[0-9a-f]{64}$/);
    }
    const listed = expectData<Deposit[]>(await client.call(PATHS.getDeposits, { limit: 100 }));
    expect(listed.map((deposit) => deposit.currency)).toEqual(cases.map(([currency]) => currency).reverse());
    expect(new Set(listed.map((deposit) => deposit.apiOrder)).size).toBe(cases.length);
    const after = await balances(client);
    expect(after.eth).toEqual({ available: '0.997', frozen: '0' });
    expect(after['eth.usdt']).toEqual({ available: '20049', frozen: '0' });
    expect(after['bnb.usdc']).toEqual({ available: '9.900000000000000001', frozen: '0' });
  });

  it('never credits, lists or calls back USDC sent to a TRON address (§11.6)', async () => {
    const client = await t.newMerchant();
    const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'tron-1', addressType: 'trx' }));
    const before = (await t.admin<{ callbacks: unknown[] }>('GET', `/callbacks?merchantId=${client.credentials.merchantId}`)).json.callbacks.length;
    const usdc = await transfer({ toAddress: address, currency: 'trx.usdc', amount: '500' });
    expect(usdc).toMatchObject({ credited: false, reason: 'trxUsdcNotSupported' });
    expect(usdc.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(expectData<unknown[]>(await client.call(PATHS.getDeposits, {}))).toEqual([]);
    expect((await t.admin<{ callbacks: unknown[] }>('GET', `/callbacks?merchantId=${client.credentials.merchantId}`)).json.callbacks).toHaveLength(before);
    expect(Object.values(await balances(client)).every((entry) => entry.available === '0')).toBe(true);
    // USDT on the same address is credited.
    const usdt = await transfer({ toAddress: address, currency: 'trx.usdt', amount: '50' });
    expect(usdt.deposit).toMatchObject({ currency: 'trx.usdt', fee: '0.5', amount: '49.5' });
  });

  it('does not credit a transfer below deposit_min, nor one to an address nobody issued', async () => {
    const client = await t.newMerchant();
    const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'ton-1', addressType: 'ton' }));
    expect(await transfer({ toAddress: address, currency: 'ton.usdt', amount: '0.999999' })).toMatchObject({ credited: false, reason: 'belowDepositMin' });
    expect(await transfer({ toAddress: address, currency: 'ton.usdt', amount: '1' })).toMatchObject({ credited: true, deposit: { amount: '0.9', fee: '0.1' } });
    expect(await transfer({ toAddress: newChainAddress('ton', cryptoRandom), currency: 'ton', amount: '10' })).toMatchObject({
      credited: false,
      reason: 'addressNotIssued',
    });
    expect(expectData<unknown[]>(await client.call(PATHS.getDeposits, {}))).toHaveLength(1);
  });

  it('gives each deposit a unique apiOrder and a txid in its chain\'s real format; checkTransfer knows them', async () => {
    const client = await t.newMerchant();
    const formats: Array<[string, string, (txid: string) => boolean]> = [
      ['trx', 'trx', (txid) => /^[0-9a-f]{64}$/.test(txid)],
      ['eth_bnb', 'eth.usdt', (txid) => /^0x[0-9a-f]{64}$/.test(txid)],
      ['eth_bnb', 'bnb', (txid) => /^0x[0-9a-f]{64}$/.test(txid)],
      ['solana', 'solana.usdc', (txid) => base58.decode(txid).length === 64],
      ['ton', 'ton', (txid) => /^[0-9a-f]{64}$/.test(txid)],
    ];
    const apiOrders = new Set<string>();
    for (const [index, [addressType, currency, matches]] of formats.entries()) {
      const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: `fmt-${index}`, addressType }));
      const answer = await transfer({ toAddress: address, currency, amount: '25' });
      expect(answer.credited).toBe(true);
      expect(matches(answer.txid)).toBe(true);
      apiOrders.add(answer.deposit?.apiOrder ?? '');
      const check = await postForm(t.sandbox.baseUrl, PATHS.checkTransfer, { txid: answer.txid, coin_type: currency });
      expect(check.json).toEqual({ code: CODE_SUCCESS, data: '', message: 'success' });
    }
    expect(apiOrders.size).toBe(formats.length);
  });

  it('uses a txid given by the admin, refusing a duplicate (409) or one in the wrong format (400)', async () => {
    const client = await t.newMerchant();
    const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'given', addressType: 'solana' }));
    const txid = base58.encode(new Uint8Array(64).fill(7));
    expect((await transfer({ toAddress: address, currency: 'solana', amount: '1', txid })).deposit?.txid).toBe(txid);
    expect((await t.admin('POST', '/transfers', { toAddress: address, currency: 'solana', amount: '1', txid })).status).toBe(409);
    expect((await t.admin('POST', '/transfers', { toAddress: address, currency: 'solana', amount: '1', txid: 'ab'.repeat(32) })).status).toBe(400);
  });
});

describe('withdrawal orders along the state table', () => {
  let client: RawMerchant;
  const to = newChainAddress('trx', cryptoRandom);
  const create = async (userOrder: string, withdrawType = 'normal', amount = '100'): Promise<Order> =>
    expectData<Order>(await client.call(PATHS.createWithdrawOrder, { userOrder, currency: 'trx.usdt', amount, toAddress: to, withdrawType }));
  const status = async (userOrder: string): Promise<Order> => expectData<Order>(await client.call(PATHS.checkWithdrawOrder, { userOrder }));

  beforeAll(async () => {
    client = await t.newMerchant({ balances: { 'trx.usdt': '10000' } });
  });

  it('normal: pendingConfirm -> pendingTransfer -> pendingCallback -> success; success releases frozen', async () => {
    await create('n-1');
    expect(await balances(client).then((all) => all['trx.usdt'])).toEqual({ available: '9898.9', frozen: '101.1' });
    for (const next of ['pendingTransfer', 'pendingCallback', 'success']) {
      const moved = await advance(client, 'n-1', next);
      expect(moved.status).toBe(200);
      expect(moved.order?.orderStatus).toBe(next);
      expect((await status('n-1')).orderStatus).toBe(next);
    }
    const done = await status('n-1');
    expect(done.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(await balances(client).then((all) => all['trx.usdt'])).toEqual({ available: '9898.9', frozen: '0' });
    const check = await postForm(t.sandbox.baseUrl, PATHS.checkTransfer, { txid: done.txid, coin_type: 'trx.usdt' });
    expect((check.json as { code: number }).code).toBe(CODE_SUCCESS);
  });

  it('financialConfirmation: pendingConfirm -> pendingFinancialConfirmation -> pendingCallback -> success', async () => {
    await create('f-1', 'financialConfirmation');
    for (const next of ['pendingFinancialConfirmation', 'pendingCallback', 'success']) {
      expect((await advance(client, 'f-1', next)).order?.orderStatus).toBe(next);
    }
    expect((await status('f-1')).txid).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refunds or fails from every intermediate state, returning amount + fee (§9.5)', async () => {
    const paths: Record<string, string[]> = {
      normal: ['pendingConfirm', 'pendingTransfer', 'pendingCallback'],
      financialConfirmation: ['pendingConfirm', 'pendingFinancialConfirmation', 'pendingCallback'],
    };
    let index = 0;
    for (const [withdrawType, states] of Object.entries(paths)) {
      for (const [depth, state] of states.entries()) {
        for (const final of ['WithdrawRefund', 'fail']) {
          index += 1;
          const userOrder = `r-${index}`;
          const before = (await balances(client))['trx.usdt'];
          await create(userOrder, withdrawType, '10');
          for (const step of states.slice(1, depth + 1)) expect((await advance(client, userOrder, step)).status).toBe(200);
          expect((await status(userOrder)).orderStatus).toBe(state);
          const moved = await advance(client, userOrder, final);
          expect(moved.order?.orderStatus).toBe(final);
          expect((await balances(client))['trx.usdt']).toEqual(before);
          // Finals are final.
          for (const next of ['pendingConfirm', 'pendingTransfer', 'pendingCallback', 'success', 'WithdrawRefund', 'fail']) {
            expect((await advance(client, userOrder, next)).status).toBe(409);
          }
        }
      }
    }
  });

  it('answers 409 for moves outside the table and 404 for unknown orders', async () => {
    await create('x-n');
    await create('x-f', 'financialConfirmation');
    const illegal: Array<[string, string]> = [
      ['x-n', 'pendingFinancialConfirmation'],
      ['x-n', 'pendingCallback'],
      ['x-n', 'success'],
      ['x-n', 'pendingConfirm'],
      ['x-f', 'pendingTransfer'],
      ['x-f', 'success'],
    ];
    for (const [userOrder, next] of illegal) {
      const moved = await advance(client, userOrder, next);
      expect(moved.status).toBe(409);
      expect(moved.reason).toContain('->');
    }
    expect((await advance(client, 'x-n', 'pendingTransfer')).status).toBe(200);
    expect((await advance(client, 'x-n', 'pendingConfirm')).status).toBe(409); // never backwards
    expect((await advance(client, 'nobody', 'fail')).status).toBe(404);
    expect((await advance(client, 'x-n', 'finished')).status).toBe(400);
    expect(failure(await client.call(PATHS.checkWithdrawOrder, { userOrder: 'nobody' }))).toBe('withdrawOrderNotExist');
  });

  it('keeps an admin message as the record\'s remarks', async () => {
    await create('m-1');
    const answer = await t.admin<{ order: Order }>('POST', `/withdrawals/${client.credentials.merchantId}/m-1/advance`, {
      to: 'WithdrawRefund',
      message: 'rejected: beneficiary unknown',
    });
    expect(answer.json.order).toMatchObject({ orderStatus: 'WithdrawRefund', message: 'rejected: beneficiary unknown', txid: '' });
  });
});

describe('--auto', () => {
  it('advances normal orders to success on timers; financialConfirmation waits for finance at pendingFinancialConfirmation', async () => {
    const auto = await openSandbox({ auto: true, timeScale: 200 });
    try {
      const client = await auto.newMerchant({ balances: { ton: '100' } });
      const toAddress = newChainAddress('ton', cryptoRandom);
      expectData(await client.call(PATHS.createWithdrawOrder, { userOrder: 'auto-n', currency: 'ton', amount: '5', toAddress }));
      expectData(await client.call(PATHS.createWithdrawOrder, { userOrder: 'auto-f', currency: 'ton', amount: '5', toAddress, withdrawType: 'financialConfirmation' }));
      const done = await eventually(async () => {
        const order = expectData<Order>(await client.call(PATHS.checkWithdrawOrder, { userOrder: 'auto-n' }));
        return order.orderStatus === 'success' ? order : undefined;
      }, 8000, 'auto-n to succeed');
      expect(done.txid).toMatch(/^[0-9a-f]{64}$/);
      const history = await auto.admin<{ history: Array<{ to: string; actor: string }> }>('GET', `/withdrawals/${client.credentials.merchantId}/auto-n`);
      expect(history.json.history.map((entry) => entry.to)).toEqual(['pendingConfirm', 'pendingTransfer', 'pendingCallback', 'success']);
      const waiting = expectData<Order>(await client.call(PATHS.checkWithdrawOrder, { userOrder: 'auto-f' }));
      expect(waiting.orderStatus).toBe('pendingFinancialConfirmation');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(expectData<Order>(await client.call(PATHS.checkWithdrawOrder, { userOrder: 'auto-f' })).orderStatus).toBe('pendingFinancialConfirmation');
      const approved = await auto.admin<{ order: Order }>('POST', `/withdrawals/${client.credentials.merchantId}/auto-f/advance`, { to: 'pendingCallback' });
      expect(approved.status).toBe(200);
      await eventually(async () => {
        const order = expectData<Order>(await client.call(PATHS.checkWithdrawOrder, { userOrder: 'auto-f' }));
        return order.orderStatus === 'success' ? order : undefined;
      }, 8000, 'auto-f to succeed after approval');
      const all = await balances(client);
      expect(all.ton).toEqual({ available: '89.9', frozen: '0' });
      auto.expectInvariant();
    } finally {
      await auto.close();
    }
  });
});
