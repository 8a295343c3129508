// The project's own clients against the sandbox: MerchantClient for a full flow (selfcheck, createAddress, a transfer
// via admin, getDeposits, createWithdrawOrder, advance, checkWithdrawOrder) and PublicClient for the public endpoints.
// Both must agree byte for byte with the raw test client and the admin interface, errors included.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../electron/protocol/errors';
import { parsePrivateKey, parsePublicKey } from '../../../electron/protocol/keys';
import { MerchantClient } from '../../../electron/protocol/merchant-client';
import { PATHS, TOKEN_SLIDING_SECONDS } from '../../../electron/protocol/profile';
import { PublicClient } from '../../../electron/protocol/public-client';
import { cryptoRandom, newChainAddress } from '../../../electron/sandbox/chain-sim';
import { expectData, postForm, rawRequest, type RawMerchant } from '../../support/raw-merchant';
import { openSandbox, type TestSandbox } from './harness';

let t: TestSandbox;
let raw: RawMerchant;
let client: MerchantClient;
let clockOffsetMs = 0;

beforeAll(async () => {
  t = await openSandbox();
  raw = await t.newMerchant({ balances: { 'bnb.usdt': '1000', eth: '1' } });
  client = new MerchantClient({
    baseUrl: raw.credentials.baseUrl,
    merchantId: raw.credentials.merchantId,
    secret: raw.credentials.secret,
    platformPublicKey: parsePublicKey(raw.credentials.platformPublicKey),
    merchantPrivateKey: parsePrivateKey(raw.credentials.merchantPrivateKey),
    clock: () => Date.now() + clockOffsetMs,
    sleep: async () => undefined,
  });
});

afterEach(() => t.expectInvariant());

afterAll(async () => {
  await client.close();
  await t.close();
});

async function serviceReason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error.reason;
    throw error;
  }
  throw new Error('expected a ServiceError');
}

describe('MerchantClient against the sandbox', () => {
  it('runs a full flow and agrees with the raw client on every record', async () => {
    const check = await client.selfcheck({ hello: 'sandbox/1', list: [1, 2] });
    expect(check.echoMatches).toBe(true);
    expect(check.result.apiVersion).toBe(2);
    expect(Math.abs(check.clockDriftSeconds)).toBeLessThanOrEqual(2);

    const address = await client.createAddress({ userOrder: 'mc-addr', addressType: 'eth_bnb' });
    expect(await client.createAddress({ userOrder: 'mc-addr', addressType: 'eth_bnb' })).toEqual(address);
    expect(expectData(await raw.call(PATHS.createAddress, { userOrder: 'mc-addr', addressType: 'eth_bnb' }))).toEqual(address);

    const credited = await t.admin<{ deposit: Record<string, unknown> }>('POST', '/transfers', { toAddress: address.address, currency: 'bnb.usdt', amount: '250' });
    const other = await t.admin<{ deposit: Record<string, unknown> }>('POST', '/transfers', { toAddress: address.address, currency: 'eth', amount: '0.5' });
    const deposits = await client.getDeposits({ limit: 100 });
    expect(deposits).toEqual([other.json.deposit, credited.json.deposit]);
    expect(expectData(await raw.call(PATHS.getDeposits, { limit: 100 }))).toEqual(deposits);
    const scanned = [];
    for await (const deposit of client.allDeposits({ limit: 1 })) scanned.push(deposit);
    expect(scanned).toEqual(deposits);
    expect(await client.getDeposits({ currency: 'eth' })).toEqual([other.json.deposit]);

    const to = newChainAddress('bnb', cryptoRandom);
    const order = await client.createWithdrawOrder({ userOrder: 'mc-w1', currency: 'bnb.usdt', amount: '100', toAddress: to, remark: 'via MerchantClient' });
    expect(order).toMatchObject({ orderStatus: 'pendingConfirm', fee: '0.4', txid: '', withdrawType: 'normal', message: 'via MerchantClient' });
    expect(await client.createWithdrawOrder({ userOrder: 'mc-w1', currency: 'bnb.usdt', amount: '100.0', toAddress: to, remark: 'via MerchantClient' })).toEqual(order);
    expect(expectData(await raw.call(PATHS.checkWithdrawOrder, { userOrder: 'mc-w1' }))).toEqual(order);

    for (const next of ['pendingTransfer', 'pendingCallback', 'success']) {
      const moved = await t.admin<{ order: Record<string, unknown> }>('POST', `/withdrawals/${client.merchantId}/mc-w1/advance`, { to: next });
      expect(moved.status).toBe(200);
      expect(await client.checkWithdrawOrder('mc-w1')).toEqual(moved.json.order);
    }
    const done = await client.checkWithdrawOrder('mc-w1');
    expect(done.orderStatus).toBe('success');
    expect(done.txid).toMatch(/^0x[0-9a-f]{64}$/);

    const info = await client.merchantInfo();
    expect(info).toEqual(expectData(await raw.call(PATHS.merchantInfo, {})));
    // 1000 + 250 - 1.25 (deposit fee) - 100.4 (amount + fee)
    expect(info.balances.find((entry) => entry.currency === 'bnb.usdt')).toEqual({ currency: 'bnb.usdt', available: '1148.35', frozen: '0' });
  });

  it('maps the sandbox\'s refusals to ServiceError reasons', async () => {
    const to = newChainAddress('eth', cryptoRandom);
    expect(await serviceReason(client.createWithdrawOrder({ userOrder: 'mc-w1', currency: 'bnb.usdt', amount: '5', toAddress: to }))).toBe('userOrderConflict');
    expect(await serviceReason(client.createWithdrawOrder({ userOrder: 'mc-w2', currency: 'eth', amount: '0.001', toAddress: to }))).toBe('withdrawMinAmount');
    expect(await serviceReason(client.createWithdrawOrder({ userOrder: 'mc-w3', currency: 'eth', amount: '5', toAddress: to }))).toBe('insufficientBalance');
    expect(await serviceReason(client.createWithdrawOrder({ userOrder: 'mc-w4', currency: 'eth', amount: '0.1', toAddress: newChainAddress('trx', cryptoRandom) }))).toBe(
      'invalidAddress',
    );
    expect(await serviceReason(client.checkWithdrawOrder('mc-none'))).toBe('withdrawOrderNotExist');
    await t.admin('PATCH', `/merchants/${client.merchantId}`, { auditorMessengerBound: false });
    expect(
      await serviceReason(client.createWithdrawOrder({ userOrder: 'mc-w5', currency: 'eth', amount: '0.1', toAddress: to, withdrawType: 'financialConfirmation' })),
    ).toBe('auditorMessengerNotBound');
    await t.admin('PATCH', `/merchants/${client.merchantId}`, { auditorMessengerBound: true, apiVersion: 1 });
    expect(await serviceReason(client.merchantInfo())).toBe('apiVersionNotEnabled');
    expect((await client.selfcheck()).result.pong).toBe(true);
    await t.admin('PATCH', `/merchants/${client.merchantId}`, { apiVersion: 2 });
  });

  it('gets a new token by itself when the sandbox clock expires the old one (§6.4)', async () => {
    await client.merchantInfo();
    const offset = TOKEN_SLIDING_SECONDS + 60;
    try {
      await t.admin('POST', '/clock', { offsetSeconds: offset });
      clockOffsetMs = offset * 1000;
      const info = await client.merchantInfo();
      expect(info.merchantId).toBe(client.merchantId);
    } finally {
      await t.admin('POST', '/clock', { offsetSeconds: 0 });
      clockOffsetMs = 0;
    }
  });
});

describe('PublicClient against the sandbox', () => {
  it('reads currencies, checks addresses and transfers, and fetches the QR image the raw client gets', async () => {
    const publicClient = new PublicClient({ baseUrl: t.sandbox.baseUrl, sleep: async () => undefined });
    try {
      const currencies = await publicClient.getCurrencies();
      const rawCurrencies = (await postForm(t.sandbox.baseUrl, PATHS.getCurrencies, {})).json as { data: unknown };
      expect(currencies).toEqual(rawCurrencies.data);
      const tron = newChainAddress('trx', cryptoRandom);
      expect(await publicClient.isAddress(tron, 'trx.usdt')).toEqual({ valid: true, message: 'success' });
      expect(await publicClient.isAddress(tron, 'eth')).toEqual({ valid: false, message: 'invalidAddress' });
      const { address } = expectData<{ address: string }>(await raw.call(PATHS.createAddress, { userOrder: 'pc-addr', addressType: 'trx' }));
      const sent = await t.admin<{ txid: string }>('POST', '/transfers', { toAddress: address, currency: 'trx', amount: '30' });
      expect(await publicClient.checkTransfer(sent.json.txid, 'trx')).toEqual({ valid: true, message: 'success', cached: false });
      const png = await publicClient.generateAddressQrCode(address, 'trx');
      const query = new URLSearchParams({ address, address_type: 'trx' }).toString();
      expect(Buffer.from(png)).toEqual((await rawRequest(`${t.sandbox.baseUrl}${PATHS.generateAddressQrCode}?${query}`)).body);
    } finally {
      await publicClient.close();
    }
  });
});
