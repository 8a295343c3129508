// The business endpoints of the merchant interface through raw signed HTTP: selfcheck, createAddress, merchantInfo,
// getDeposits, checkWithdrawOrder and createWithdrawOrder with every error of the spec and §7 in the §7/§9 order,
// idempotency by userOrder (§8), and the ledger invariant after every scenario.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateAddress, WITHDRAWAL_CURRENCIES, type Chain } from '../../../electron/chains';
import { PATHS, REMARK_MAX_LENGTH } from '../../../electron/protocol/profile';
import { cryptoRandom, newChainAddress } from '../../../electron/sandbox/chain-sim';
import { expectData, type RawMerchant, type SignedCall } from '../../support/raw-merchant';
import { openSandbox, type TestSandbox } from './harness';

let t: TestSandbox;
let m: RawMerchant;

beforeAll(async () => {
  t = await openSandbox();
  m = await t.newMerchant({ balances: { trx: '1000', 'trx.usdt': '500', eth: '2', 'bnb.usdt': '100' } });
});

afterEach(() => t.expectInvariant());

afterAll(async () => {
  await t.close();
});

const address = (chain: Chain): string => newChainAddress(chain, cryptoRandom);

function reason(call: SignedCall): string {
  expect(call.status).toBe(200);
  expect(call.verified).toBe(true);
  expect(call.envelope?.code).toBe(9999);
  expect(call.envelope?.data).toBe('');
  return call.envelope?.message ?? '';
}

interface Info {
  merchantId: string;
  balances: Array<{ currency: string; available: string; frozen: string }>;
  withdrawTypes: string[];
  auditorMessengerBound: boolean;
}

async function balance(client: RawMerchant, currency: string): Promise<{ available: string; frozen: string }> {
  const info = expectData<Info>(await client.call(PATHS.merchantInfo, {}));
  const entry = info.balances.find((item) => item.currency === currency);
  if (!entry) throw new Error(`no balance for ${currency}`);
  return { available: entry.available, frozen: entry.frozen };
}

describe('selfcheck', () => {
  it('echoes any JSON payload unchanged, reports version 2 and integer server time, and changes nothing', async () => {
    const before = expectData(await m.call(PATHS.merchantInfo, {}));
    for (const payload of [{}, { nested: { list: [1, 'two', null, true] }, path: 'a/b\\c', text: 'ünïcødé ✓' }, [1, 2, 3], 'text', 42, null]) {
      const data = expectData<{ pong: boolean; apiVersion: number; serverTime: number; echo: unknown }>(await m.call(PATHS.selfcheck, payload));
      expect(data.pong).toBe(true);
      expect(data.apiVersion).toBe(2);
      expect(Number.isInteger(data.serverTime)).toBe(true);
      expect(Math.abs(data.serverTime - Math.floor(Date.now() / 1000))).toBeLessThanOrEqual(2);
      expect(data.echo).toEqual(payload);
    }
    expect(expectData(await m.call(PATHS.merchantInfo, {}))).toEqual(before);
  });
});

describe('createAddress (§8)', () => {
  it('creates a valid address per type, idempotent by userOrder; another type conflicts', async () => {
    const chainOf = { trx: 'trx', eth_bnb: 'eth', solana: 'solana', ton: 'ton' } as const;
    for (const addressType of ['trx', 'eth_bnb', 'solana', 'ton'] as const) {
      const userOrder = `addr-${addressType}`;
      const created = expectData<{ address: string; addressType: string; userOrder: string }>(
        await m.call(PATHS.createAddress, { userOrder, addressType }),
      );
      expect(created.addressType).toBe(addressType);
      expect(created.userOrder).toBe(userOrder);
      expect(validateAddress(chainOf[addressType], created.address).valid).toBe(true);
      if (addressType === 'eth_bnb') expect(validateAddress('bnb', created.address).valid).toBe(true);
      const again = expectData(await m.call(PATHS.createAddress, { userOrder, addressType }));
      expect(again).toEqual(created);
      const other = addressType === 'trx' ? 'ton' : 'trx';
      expect(reason(await m.call(PATHS.createAddress, { userOrder, addressType: other }))).toBe('userOrderConflict');
    }
  });

  it('refuses btc (reserved), unknown types and bad userOrders with paramError', async () => {
    const bad: unknown[] = [
      { userOrder: 'btc-1', addressType: 'btc' },
      { userOrder: 'x-1', addressType: 'ETH_BNB' },
      { userOrder: 'x-2', addressType: 'eth' },
      { userOrder: 'x-3' },
      { addressType: 'trx' },
      { userOrder: '', addressType: 'trx' },
      { userOrder: 'a'.repeat(65), addressType: 'trx' },
      { userOrder: 'has space', addressType: 'trx' },
      { userOrder: 12, addressType: 'trx' },
      [],
      'text',
    ];
    for (const payload of bad) expect(reason(await m.call(PATHS.createAddress, payload))).toBe('paramError');
    expectData(await m.call(PATHS.createAddress, { userOrder: `${'a'.repeat(62)}_-`, addressType: 'trx' }));
  });
});

describe('merchantInfo (§8)', () => {
  it('answers the merchant record with one balance per withdrawal currency and the admin-set policy', async () => {
    const info = expectData<Info & { merchantName: string; apiVersion: number }>(await m.call(PATHS.merchantInfo, {}));
    expect(info.merchantId).toBe(m.credentials.merchantId);
    expect(info.apiVersion).toBe(2);
    expect(info.balances.map((entry) => entry.currency)).toEqual([...WITHDRAWAL_CURRENCIES]);
    expect(info.balances.find((entry) => entry.currency === 'trx')).toEqual({ currency: 'trx', available: '1000', frozen: '0' });
    await t.admin('PATCH', `/merchants/${m.credentials.merchantId}`, { withdrawTypes: ['normal'], auditorMessengerBound: false });
    const patched = expectData<Info>(await m.call(PATHS.merchantInfo, {}));
    expect(patched.withdrawTypes).toEqual(['normal']);
    expect(patched.auditorMessengerBound).toBe(false);
    await t.admin('PATCH', `/merchants/${m.credentials.merchantId}`, { withdrawTypes: ['normal', 'financialConfirmation'], auditorMessengerBound: true });
    expect(reason(await m.call(PATHS.merchantInfo, []))).toBe('paramError');
  });
});

describe('getDeposits (spec getDeposits, §8)', () => {
  it('pages newest first with an optional currency filter; limit outside 1..100 is limitError, never clamped', async () => {
    const client = await t.newMerchant();
    const created = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'dep-page', addressType: 'eth_bnb' }));
    const apiOrders: string[] = [];
    for (let i = 0; i < 13; i += 1) {
      const currency = i % 3 === 0 ? 'eth.usdt' : 'bnb.usdt';
      const transfer = await t.admin<{ credited: boolean; deposit: { apiOrder: string } }>('POST', '/transfers', {
        toAddress: created.address,
        currency,
        amount: String(20 + i),
      });
      expect(transfer.json.credited).toBe(true);
      apiOrders.push(transfer.json.deposit.apiOrder);
    }
    const newestFirst = [...apiOrders].reverse();
    const first = expectData<Array<{ apiOrder: string }>>(await client.call(PATHS.getDeposits, {}));
    expect(first.map((deposit) => deposit.apiOrder)).toEqual(newestFirst.slice(0, 10)); // default limit 10, page 1
    const second = expectData<Array<{ apiOrder: string }>>(await client.call(PATHS.getDeposits, { page: 2 }));
    expect(second.map((deposit) => deposit.apiOrder)).toEqual(newestFirst.slice(10));
    const small = expectData<Array<{ apiOrder: string }>>(await client.call(PATHS.getDeposits, { page: 3, limit: 4 }));
    expect(small.map((deposit) => deposit.apiOrder)).toEqual(newestFirst.slice(8, 12));
    expect(expectData<unknown[]>(await client.call(PATHS.getDeposits, { page: 9 }))).toEqual([]);
    expect(expectData<unknown[]>(await client.call(PATHS.getDeposits, { limit: 100 }))).toHaveLength(13);
    expect(expectData<unknown[]>(await client.call(PATHS.getDeposits, { limit: 1 }))).toHaveLength(1);
    const eth = expectData<Array<{ currency: string }>>(await client.call(PATHS.getDeposits, { currency: 'eth.usdt', limit: 100 }));
    expect(eth).toHaveLength(5);
    expect(eth.every((deposit) => deposit.currency === 'eth.usdt')).toBe(true);
    expect(expectData<unknown[]>(await client.call(PATHS.getDeposits, { currency: 'ton' }))).toEqual([]);

    expect(reason(await client.call(PATHS.getDeposits, { limit: 0 }))).toBe('limitError');
    expect(reason(await client.call(PATHS.getDeposits, { limit: 101 }))).toBe('limitError');
    expect(reason(await client.call(PATHS.getDeposits, { limit: -5 }))).toBe('limitError');
    expect(reason(await client.call(PATHS.getDeposits, { limit: '10' }))).toBe('paramError');
    expect(reason(await client.call(PATHS.getDeposits, { limit: 2.5 }))).toBe('paramError');
    expect(reason(await client.call(PATHS.getDeposits, { page: 0 }))).toBe('paramError');
    expect(reason(await client.call(PATHS.getDeposits, { page: '1' }))).toBe('paramError');
    expect(reason(await client.call(PATHS.getDeposits, { currency: 7 }))).toBe('paramError');
    expect(reason(await client.call(PATHS.getDeposits, { currency: 'btc' }))).toBe('currencyNotSupported');
    expect(reason(await client.call(PATHS.getDeposits, { currency: 'trx.usdc' }))).toBe('currencyNotSupported');
    // Another merchant sees none of these.
    expect(expectData<unknown[]>(await m.call(PATHS.getDeposits, { currency: 'bnb.usdt' }))).toEqual([]);
  });
});

describe('checkWithdrawOrder', () => {
  it('answers withdrawOrderNotExist for an unknown order and paramError for a bad userOrder', async () => {
    expect(reason(await m.call(PATHS.checkWithdrawOrder, { userOrder: 'never-created' }))).toBe('withdrawOrderNotExist');
    expect(reason(await m.call(PATHS.checkWithdrawOrder, {}))).toBe('paramError');
    expect(reason(await m.call(PATHS.checkWithdrawOrder, { userOrder: 'bad order' }))).toBe('paramError');
  });

  it('only sees the calling merchant\'s orders', async () => {
    const other = await t.newMerchant({ balances: { trx: '100' } });
    expectData(await other.call(PATHS.createWithdrawOrder, { userOrder: 'shared-name', currency: 'trx', amount: '20', toAddress: address('trx') }));
    expect(reason(await m.call(PATHS.checkWithdrawOrder, { userOrder: 'shared-name' }))).toBe('withdrawOrderNotExist');
  });
});

describe('createWithdrawOrder (§8, §7, §9)', () => {
  it('creates a pendingConfirm order and moves amount + fee from available to frozen (§9.4, §9.5)', async () => {
    const to = address('trx');
    const order = expectData<Record<string, string>>(
      await m.call(PATHS.createWithdrawOrder, { userOrder: 'wd-1', currency: 'trx.usdt', amount: '100.5', toAddress: to, remark: 'rent' }),
    );
    // trx.usdt: fixed 1 + 0.1 % = 1.1005 -> half-up to 6 decimals, within [1, 30].
    expect(order).toEqual({
      businessType: 'withdraw',
      toAddress: to,
      amount: '100.5',
      currency: 'trx.usdt',
      fee: '1.1005',
      apiOrder: expect.stringMatching(/^WD/) as unknown as string,
      userOrder: 'wd-1',
      withdrawType: 'normal',
      message: 'rent',
      txid: '',
      orderStatus: 'pendingConfirm',
    });
    expect(await balance(m, 'trx.usdt')).toEqual({ available: '398.3995', frozen: '101.6005' });
    expect(expectData(await m.call(PATHS.checkWithdrawOrder, { userOrder: 'wd-1' }))).toEqual(order);

    // Idempotent by userOrder: identical parameters (amount compared by value) return the same record, no deduction.
    const again = expectData(await m.call(PATHS.createWithdrawOrder, { userOrder: 'wd-1', currency: 'trx.usdt', amount: '100.50', toAddress: to, remark: 'rent', withdrawType: 'normal' }));
    expect(again).toEqual(order);
    expect(await balance(m, 'trx.usdt')).toEqual({ available: '398.3995', frozen: '101.6005' });
    // Different parameters: userOrderConflict, whatever else is wrong with them.
    for (const changed of [
      { amount: '100.6' },
      { toAddress: address('trx') },
      { currency: 'trx' },
      { remark: 'other' },
      { withdrawType: 'financialConfirmation' },
      { currency: 'btc', amount: 'x' },
    ]) {
      expect(reason(await m.call(PATHS.createWithdrawOrder, { userOrder: 'wd-1', currency: 'trx.usdt', amount: '100.5', toAddress: to, remark: 'rent', ...changed }))).toBe(
        'userOrderConflict',
      );
    }
  });

  it('computes fees per §9.4 with clamps and half-up rounding', async () => {
    const client = await t.newMerchant({ balances: { eth: '10', 'eth.usdt': '100000', trx: '100' } });
    // eth: fixed 0.0005, no percent.
    const eth = expectData<{ fee: string }>(await client.call(PATHS.createWithdrawOrder, { userOrder: 'f-eth', currency: 'eth', amount: '0.123456789012345678', toAddress: address('eth') }));
    expect(eth.fee).toBe('0.0005');
    // eth.usdt: 3 + 0.1 % of 50000 = 53 -> capped at max 30.
    const capped = expectData<{ fee: string }>(await client.call(PATHS.createWithdrawOrder, { userOrder: 'f-cap', currency: 'eth.usdt', amount: '50000', toAddress: address('eth') }));
    expect(capped.fee).toBe('30');
    // eth.usdt: 3 + 0.1 % of 20.000001 = 3.020000001 -> 6 decimals half-up = 3.02.
    const rounded = expectData<{ fee: string }>(await client.call(PATHS.createWithdrawOrder, { userOrder: 'f-round', currency: 'eth.usdt', amount: '20.000001', toAddress: address('eth') }));
    expect(rounded.fee).toBe('3.02');
    // eth.usdt: 3 + 0.1 % of 20.0005 = 3.0200005 -> half-up = 3.020001.
    const halfUp = expectData<{ fee: string }>(await client.call(PATHS.createWithdrawOrder, { userOrder: 'f-half', currency: 'eth.usdt', amount: '20.0005', toAddress: address('eth') }));
    expect(halfUp.fee).toBe('3.020001');
  });

  it('refuses each invalid request with the right message, in the §7/§9 order', async () => {
    const client = await t.newMerchant({ balances: { trx: '50', 'bnb.usdt': '1000' } });
    const base = { userOrder: 'v-1', currency: 'trx', amount: '20', toAddress: address('trx') };
    const cases: Array<[string, Record<string, unknown>]> = [
      // paramError: missing, wrong JSON type, unknown enum value, over a length limit
      ['paramError', { ...base, userOrder: undefined }],
      ['paramError', { ...base, userOrder: 'bad order!' }],
      ['paramError', { ...base, currency: undefined }],
      ['paramError', { ...base, amount: 20 }],
      ['paramError', { ...base, toAddress: undefined }],
      ['paramError', { ...base, toAddress: 'T'.repeat(200) }],
      ['paramError', { ...base, withdrawType: 'express' }],
      ['paramError', { ...base, remark: 'r'.repeat(REMARK_MAX_LENGTH + 1) }],
      ['paramError', { ...base, remark: 5 }],
      ['paramError', { ...base, amount: 'x', currency: 7 }],
      // currencyNotSupported, before the amount
      ['currencyNotSupported', { ...base, currency: 'btc', amount: 'abc' }],
      ['currencyNotSupported', { ...base, currency: 'trx.usdc' }],
      ['currencyNotSupported', { ...base, currency: 'TRX' }],
      // invalidAmount (§9.1), before the minimum and the address
      ['invalidAmount', { ...base, amount: '0', toAddress: 'nope' }],
      ['invalidAmount', { ...base, amount: '0.000' }],
      ['invalidAmount', { ...base, amount: '-20' }],
      ['invalidAmount', { ...base, amount: '2e1' }],
      ['invalidAmount', { ...base, amount: ' 20' }],
      ['invalidAmount', { ...base, amount: '20.' }],
      ['invalidAmount', { ...base, amount: '20.0000001' }], // trx has 6 decimals
      ['invalidAmount', { ...base, amount: '' }],
      // withdrawMinAmount (trx minimum 10), before the address
      ['withdrawMinAmount', { ...base, amount: '9.999999', toAddress: 'nope' }],
      // invalidAddress (§11), before the policy
      ['invalidAddress', { ...base, toAddress: address('eth'), withdrawType: 'financialConfirmation' }],
      ['invalidAddress', { ...base, toAddress: `${base.toAddress} ` }],
      ['invalidAddress', { ...base, currency: 'bnb.usdt', toAddress: address('trx') }],
    ];
    for (const [expected, payload] of cases) {
      expect([expected, reason(await client.call(PATHS.createWithdrawOrder, payload))]).toEqual([expected, expected]);
    }
    const id = client.credentials.merchantId;
    // withdrawTypeNotAllowed before auditorMessengerNotBound before insufficientBalance.
    await t.admin('PATCH', `/merchants/${id}`, { withdrawTypes: ['normal'], auditorMessengerBound: false });
    expect(reason(await client.call(PATHS.createWithdrawOrder, { ...base, amount: '5000', withdrawType: 'financialConfirmation' }))).toBe('withdrawTypeNotAllowed');
    await t.admin('PATCH', `/merchants/${id}`, { withdrawTypes: ['financialConfirmation'] });
    expect(reason(await client.call(PATHS.createWithdrawOrder, { ...base, amount: '5000' }))).toBe('withdrawTypeNotAllowed');
    expect(reason(await client.call(PATHS.createWithdrawOrder, { ...base, amount: '5000', withdrawType: 'financialConfirmation' }))).toBe('auditorMessengerNotBound');
    await t.admin('PATCH', `/merchants/${id}`, { auditorMessengerBound: true, withdrawTypes: ['normal', 'financialConfirmation'] });
    // trx fee is 1: 50 available covers 49 + 1 exactly, not 49.000001 + 1.
    expect(reason(await client.call(PATHS.createWithdrawOrder, { ...base, amount: '49.000001' }))).toBe('insufficientBalance');
    expect(await balance(client, 'trx')).toEqual({ available: '50', frozen: '0' });
    // None of the refusals created anything; the userOrder is still free.
    expect(reason(await client.call(PATHS.checkWithdrawOrder, { userOrder: 'v-1' }))).toBe('withdrawOrderNotExist');
    const exact = expectData<{ orderStatus: string }>(await client.call(PATHS.createWithdrawOrder, { ...base, amount: '49', withdrawType: 'financialConfirmation' }));
    expect(exact.orderStatus).toBe('pendingConfirm');
    expect(await balance(client, 'trx')).toEqual({ available: '0', frozen: '50' });
  });

  it('accepts a remark of exactly 255 characters and EIP-55 or one-case EVM addresses; a broken checksum is invalidAddress', async () => {
    const client = await t.newMerchant({ balances: { 'bnb.usdt': '100' } });
    const checksummed = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'; // the EIP-55 test vector
    const order = (userOrder: string, toAddress: string, extra: Record<string, unknown> = {}) =>
      client.call(PATHS.createWithdrawOrder, { userOrder, currency: 'bnb.usdt', amount: '5', toAddress, ...extra });
    expectData(await order('r-1', checksummed, { remark: 'r'.repeat(REMARK_MAX_LENGTH) }));
    expectData(await order('r-2', checksummed.toLowerCase()));
    expectData(await order('r-3', `0x${checksummed.slice(2).toUpperCase()}`));
    expect(reason(await order('r-4', '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed'))).toBe('invalidAddress');
  });
});
