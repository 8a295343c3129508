// The admin interface under /sandbox/: health, merchants (create, read, patch balances and policy, expire their
// tokens), transfers, withdrawal moves, clock, callback log and injected faults; every bad input answers HTTP 400
// with a JSON reason (zod), unknown routes 404, wrong methods 405. Balance changes keep the ledger invariant (booked
// as opening adjustments).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../../electron/protocol/profile';
import { isLoopbackAddress } from '../../../electron/sandbox/http';
import { expectData, rawRequest, RawMerchant, type RawCredentials } from '../../support/raw-merchant';
import { openSandbox, type TestSandbox } from './harness';

let t: TestSandbox;

beforeAll(async () => {
  t = await openSandbox();
});

afterEach(() => t.expectInvariant());

afterAll(async () => {
  await t.close();
});

describe('admin interface', () => {
  it('reports health, the clock and the primary merchant', async () => {
    const health = await t.admin<{ ok: boolean; serverTime: number; primaryMerchantId: string; baseUrl: string }>('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.json).toMatchObject({ ok: true, primaryMerchantId: t.sandbox.credentials.merchantId, baseUrl: t.sandbox.baseUrl });
    expect(Math.abs(health.json.serverTime - Math.floor(Date.now() / 1000))).toBeLessThanOrEqual(2);
    const clock = await t.admin<{ offsetSeconds: number; serverTime: number }>('POST', '/clock', { offsetSeconds: -120 });
    expect(clock.json.offsetSeconds).toBe(-120);
    expect((await t.admin<{ offsetSeconds: number }>('GET', '/clock')).json.offsetSeconds).toBe(-120);
    await t.admin('POST', '/clock', { offsetSeconds: 0 });
  });

  it('creates merchants answering credentials, with opening balances and settings', async () => {
    const created = await t.admin<RawCredentials>('POST', '/merchants', {
      merchantName: 'Second Shop',
      apiVersion: 2,
      balances: { 'solana.usdt': '250.5', eth: '0.000000000000000001' },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json).sort()).toEqual(['baseUrl', 'merchantId', 'merchantPrivateKey', 'platformPublicKey', 'secret']);
    expect(created.json.baseUrl).toBe(t.sandbox.baseUrl);
    expect(created.json.merchantId).not.toBe(t.sandbox.credentials.merchantId);
    const client = new RawMerchant(created.json);
    expectData(await client.getToken());
    const info = expectData<{ merchantName: string; balances: Array<{ currency: string; available: string }> }>(await client.call(PATHS.merchantInfo, {}));
    expect(info.merchantName).toBe('Second Shop');
    expect(info.balances.find((entry) => entry.currency === 'solana.usdt')?.available).toBe('250.5');
    expect(info.balances.find((entry) => entry.currency === 'eth')?.available).toBe('0.000000000000000001');
    const empty = await rawRequest(`${t.sandbox.adminUrl}/merchants`, { method: 'POST' });
    expect(empty.status).toBe(201);
  });

  it('patches balances (as opening adjustments), policy, callback URL and whitelist', async () => {
    const client = await t.newMerchant({ balances: { trx: '100' } });
    const id = client.credentials.merchantId;
    const patched = await t.admin<{ balances: Array<{ currency: string; available: string }>; callbackUrl: string; ipWhitelist: string[] }>(
      'PATCH',
      `/merchants/${id}`,
      { balances: { trx: '40', 'ton.usdt': '5' }, callbackUrl: 'https://merchant.example/hook', ipWhitelist: ['127.0.0.1', '::1/128', '10.1.0.0/16'] },
    );
    expect(patched.status).toBe(200);
    expect(patched.json.balances.find((entry) => entry.currency === 'trx')?.available).toBe('40');
    expect(patched.json.callbackUrl).toBe('https://merchant.example/hook');
    expect(patched.json.ipWhitelist).toEqual(['127.0.0.1', '::1/128', '10.1.0.0/16']);
    expectData(await client.call(PATHS.merchantInfo, {}));
    const report = await t.admin<{ ok: boolean }>('GET', `/invariant?merchantId=${id}`);
    expect(report.json.ok).toBe(true);
    const read = await t.admin<{ merchantId: string }>('GET', `/merchants/${id}`);
    expect(read.json.merchantId).toBe(id);
  });

  it('answers HTTP 400 with a JSON reason for every bad input', async () => {
    const id = t.sandbox.credentials.merchantId;
    const bad: Array<[string, string, unknown]> = [
      ['POST', '/merchants', { apiVersion: 3 }],
      ['POST', '/merchants', { balances: { btc: '1' } }],
      ['POST', '/merchants', { balances: { trx: '1.0000001' } }],
      ['POST', '/merchants', { balances: { trx: 5 } }],
      ['POST', '/merchants', { unknownField: true }],
      ['POST', '/merchants', '{not json'],
      ['PATCH', `/merchants/${id}`, { ipWhitelist: ['10.0.0.0/33'] }],
      ['PATCH', `/merchants/${id}`, { ipWhitelist: ['example.com'] }],
      ['PATCH', `/merchants/${id}`, { callbackUrl: 'ftp://x' }],
      ['PATCH', `/merchants/${id}`, { withdrawTypes: ['express'] }],
      ['PATCH', `/merchants/${id}`, { auditorMessengerBound: 'yes' }],
      ['PATCH', `/merchants/${id}`, []],
      ['POST', '/transfers', { toAddress: 'x', currency: 'btc', amount: '1' }],
      ['POST', '/transfers', { toAddress: 'TXYZ', currency: 'trx', amount: '1' }],
      ['POST', '/transfers', { currency: 'trx', amount: '1' }],
      ['POST', '/transfers', { toAddress: 'x', currency: 'trx.usdc', amount: '1.1234567' }],
      ['POST', '/transfers', { toAddress: 'x', currency: 'trx', amount: '-1' }],
      ['POST', `/withdrawals/${id}/any/advance`, { to: 'done' }],
      ['POST', `/withdrawals/${id}/any/advance`, {}],
      ['POST', '/clock', { offsetSeconds: 'soon' }],
      ['POST', '/clock', ''],
    ];
    for (const [method, path, body] of bad) {
      const answer = await t.admin<{ error: string; reason: string }>(method, path, body === '' ? undefined : body);
      expect([method, path, answer.status]).toEqual([method, path, 400]);
      expect(answer.json.error).toBe('badRequest');
      expect(answer.json.reason.length).toBeGreaterThan(0);
    }
  });

  it('answers 404 for unknown merchants, orders and routes, and 405 for wrong methods', async () => {
    expect((await t.admin('PATCH', '/merchants/0000000000', { apiVersion: 2 })).status).toBe(404);
    expect((await t.admin('GET', '/withdrawals/0000000000/none')).status).toBe(404);
    expect((await t.admin('POST', '/withdrawals/0000000000/none/advance', { to: 'fail' })).status).toBe(404);
    expect((await t.admin('GET', '/nothing')).status).toBe(404);
    const wrong = await rawRequest(`${t.sandbox.adminUrl}/health`, { method: 'POST' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET');
    expect((await t.admin('DELETE', `/merchants/${t.sandbox.credentials.merchantId}`)).status).toBe(405);
  });

  it('expires every token of a merchant at once: its next request answers tokenExpired, a new token works', async () => {
    const client = await t.newMerchant();
    const other = await t.newMerchant();
    expectData(await client.call(PATHS.merchantInfo, {}));
    const second = await client.getToken();
    expectData(second);
    const expired = await t.admin<{ expired: number }>('POST', `/merchants/${client.credentials.merchantId}/expireTokens`);
    expect(expired).toEqual({ status: 200, json: { expired: 2 } });
    expect((await client.call(PATHS.merchantInfo, {})).envelope).toMatchObject({ code: 9999, message: 'tokenExpired' });
    // Another merchant's tokens are untouched.
    expectData(await other.call(PATHS.merchantInfo, {}));
    expectData(await client.getToken());
    expectData(await client.call(PATHS.merchantInfo, {}));
    expect((await t.admin('POST', '/merchants/0000000000/expireTokens')).status).toBe(404);
    expect((await t.admin('GET', `/merchants/${client.credentials.merchantId}/expireTokens`)).status).toBe(405);
  });

  it('injects faults: getDeposits failing from a page on, as a gateway HTTP error or a signed failure, for one merchant, a number of times', async () => {
    const client = await t.newMerchant();
    const other = await t.newMerchant();
    const merchantId = client.credentials.merchantId;
    const gateway = await t.admin<{ fault: { id: number; hits: number } }>('POST', '/faults', {
      endpoint: 'getDeposits',
      merchantId,
      fromPage: 3,
      answer: { httpStatus: 503 },
    });
    expect(gateway.status).toBe(201);
    expectData(await client.call(PATHS.getDeposits, { page: 2, limit: 10 }));
    const refused = await client.call(PATHS.getDeposits, { page: 3, limit: 10 });
    expect(refused.status).toBe(503);
    expect(refused.envelope).toBeUndefined();
    expect(refused.headers['svc-sign']).toBeUndefined();
    expect((await client.call(PATHS.getDeposits, { page: 40 })).status).toBe(503);
    // Other merchants and other pages are not affected.
    expectData(await other.call(PATHS.getDeposits, { page: 3 }));
    expectData(await client.call(PATHS.getDeposits, {}));
    const listed = await t.admin<{ faults: Array<{ id: number; hits: number; remaining: number | null }> }>('GET', '/faults');
    expect(listed.json.faults).toEqual([expect.objectContaining({ id: gateway.json.fault.id, hits: 2, remaining: null })]);
    expect((await t.admin('DELETE', `/faults/${gateway.json.fault.id}`)).status).toBe(200);
    expectData(await client.call(PATHS.getDeposits, { page: 3 }));

    // A signed failure envelope with a chosen message, twice, for any merchant.
    expect((await t.admin('POST', '/faults', { endpoint: 'merchantInfo', answer: { message: 'systemBusy' }, times: 2 })).status).toBe(201);
    for (const merchant of [client, other]) {
      const busy = await merchant.call(PATHS.merchantInfo, {});
      expect(busy.status).toBe(200);
      expect(busy.envelope).toEqual({ code: 9999, data: '', message: 'systemBusy' });
      expect(busy.verified).toBe(true);
    }
    expectData(await client.call(PATHS.merchantInfo, {}));
    expect((await t.admin<{ faults: Array<{ remaining: number | null }> }>('GET', '/faults')).json.faults).toEqual([expect.objectContaining({ hits: 2, remaining: 0 })]);
    expect((await t.admin('DELETE', '/faults')).json).toEqual({ faults: [] });

    for (const body of [
      { endpoint: 'getToken', answer: { httpStatus: 503 } },
      { endpoint: 'getDeposits', answer: { httpStatus: 404 } },
      { endpoint: 'merchantInfo', fromPage: 2, answer: { httpStatus: 503 } },
      { endpoint: 'getDeposits', answer: { message: 'two words' } },
      { endpoint: 'getDeposits', answer: {} },
      { endpoint: 'getDeposits', answer: { httpStatus: 503 }, times: 0 },
    ]) {
      expect((await t.admin('POST', '/faults', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.admin('POST', '/faults', { endpoint: 'getDeposits', merchantId: '0000000000', answer: { httpStatus: 503 } })).status).toBe(404);
    expect((await t.admin('DELETE', '/faults/999')).status).toBe(404);
    expect((await t.admin('GET', '/faults')).json).toEqual({ faults: [] });
  });

  it('lists the callback log, filtered by merchant', async () => {
    const client = await t.newMerchant();
    const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'log', addressType: 'trx' }));
    await t.admin('POST', '/transfers', { toAddress: address, currency: 'trx', amount: '3' });
    const mine = await t.admin<{ callbacks: Array<{ merchantId: string; kind: string }> }>('GET', `/callbacks?merchantId=${client.credentials.merchantId}`);
    expect(mine.json.callbacks).toHaveLength(1);
    expect(mine.json.callbacks[0]).toMatchObject({ merchantId: client.credentials.merchantId, kind: 'deposit' });
    const all = await t.admin<{ callbacks: unknown[] }>('GET', '/callbacks');
    expect(all.json.callbacks.length).toBeGreaterThanOrEqual(1);
  });

  it('answers loopback clients only', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', '0.0.0.0', undefined]) expect(isLoopbackAddress(address)).toBe(false);
  });
});
