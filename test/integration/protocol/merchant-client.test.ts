// Integration tests of MerchantClient against the fake platform over real HTTP: the v2 pipeline, token refresh,
// response verification, HTTP-level mappings, argument guards, transport ambiguity, retries and deposit scans.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  NotWhitelistedError,
  RequestTooLargeError,
  ResponseVerificationError,
  ServiceError,
  TransportError,
} from '../../../electron/protocol/errors';
import { encryptBytes } from '../../../electron/protocol/cipher';
import { HttpTransport, toTransportError } from '../../../electron/protocol/http';
import { encryptedLength, MerchantClient, type MerchantClientOptions } from '../../../electron/protocol/merchant-client';
import { BUSINESS_REQUEST_CONTENT_TYPE, MAX_REQUEST_BODY_BYTES, PATHS } from '../../../electron/protocol/profile';
import { closedPortUrl, FakePlatform, Refusal } from '../../support/fake-platform';

let fake: FakePlatform;
const clients: MerchantClient[] = [];

function client(overrides: Partial<MerchantClientOptions> = {}): MerchantClient {
  const created = new MerchantClient({ ...fake.credentials, sleep: async () => undefined, random: () => 0.5, ...overrides });
  clients.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5_000) throw new Error('condition not reached in 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(async () => {
  fake = await FakePlatform.start();
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.reset(true);
  fake.clock = () => Date.now();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((created) => created.close()));
});

describe('the v2 pipeline', () => {
  it('gets a token once, then sends encrypted, signed business requests with the §5.1 headers', async () => {
    const merchant = client();
    const info = await merchant.merchantInfo();
    expect(info).toMatchObject({ merchantId: fake.merchantId, apiVersion: 2, auditorMessengerBound: true });
    expect(info.balances).toHaveLength(13);
    await merchant.merchantInfo();

    expect(fake.requestsTo(PATHS.getToken)).toHaveLength(1);
    const [tokenRequest] = fake.requestsTo(PATHS.getToken);
    expect(tokenRequest?.body).toBe('');
    expect(tokenRequest?.headers.authorization).toMatch(/^auth [0-9a-f]{32}$/);

    const calls = fake.requestsTo(PATHS.merchantInfo);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.method).toBe('POST');
      expect(call.headers['content-type']).toBe(BUSINESS_REQUEST_CONTENT_TYPE);
      expect(call.headers['svc-app-id']).toBe(fake.merchantId);
      expect(call.headers['svc-token']).toBe(fake.issuedTokens[0]);
      expect(call.headers['svc-timestamp']).toMatch(/^\d+$/);
      expect(call.headers['svc-nonce']).toMatch(/^[0-9a-f]{32}$/);
      expect(call.body).toMatch(/^[A-Za-z0-9+/]+=*$/);
    }
    expect(calls[0]?.headers['svc-nonce']).not.toBe(calls[1]?.headers['svc-nonce']);
  });

  it('createAddress is idempotent by userOrder and refuses the reserved btc before sending', async () => {
    const merchant = client();
    const first = await merchant.createAddress({ userOrder: 'addr-1', addressType: 'trx' });
    const again = await merchant.createAddress({ userOrder: 'addr-1', addressType: 'trx' });
    expect(again.address).toBe(first.address);
    expect(first).toMatchObject({ userOrder: 'addr-1', addressType: 'trx' });
    const conflict = await failure(merchant.createAddress({ userOrder: 'addr-1', addressType: 'ton' }));
    expect(conflict).toMatchObject({ kind: 'service', reason: 'userOrderConflict', known: true });

    fake.reset();
    const reserved = await failure(merchant.createAddress({ userOrder: 'addr-2', addressType: 'btc' as never }));
    expect(reserved).toBeInstanceOf(InvalidArgumentError);
    expect((reserved as Error).message).toMatch(/reserved/);
    expect(fake.requests).toHaveLength(0);
  });

  it('createWithdrawOrder, then checkWithdrawOrder; an unknown order is withdrawOrderNotExist', async () => {
    const merchant = client();
    const order = await merchant.createWithdrawOrder({
      userOrder: 'wd-1',
      currency: 'trx.usdt',
      amount: '25.5',
      toAddress: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
      remark: 'supplier',
    });
    expect(order).toMatchObject({ businessType: 'withdraw', userOrder: 'wd-1', amount: '25.5', orderStatus: 'pendingConfirm' });
    expect(await merchant.checkWithdrawOrder('wd-1')).toMatchObject({ apiOrder: order.apiOrder });
    const missing = await failure(merchant.checkWithdrawOrder('wd-unknown'));
    expect(missing).toBeInstanceOf(ServiceError);
    expect(missing).toMatchObject({ reason: 'withdrawOrderNotExist', envelope: { code: 9999, data: '', message: 'withdrawOrderNotExist' } });
  });

  it('selfcheck echoes the payload and measures the clock drift', async () => {
    fake.clock = () => Date.now() + 42_000;
    const merchant = client();
    const outcome = await merchant.selfcheck({ probe: 'a/b', n: [1, 2] });
    expect(outcome.result).toMatchObject({ pong: true, apiVersion: 2, echo: { probe: 'a/b', n: [1, 2] } });
    expect(outcome.echoMatches).toBe(true);
    expect(outcome.clockDriftSeconds).toBeGreaterThanOrEqual(41);
    expect(outcome.clockDriftSeconds).toBeLessThanOrEqual(43);
  });

  it('keeps unknown fields of the business JSON', async () => {
    fake.switches.dataOverride.set(PATHS.merchantInfo, {
      merchantId: fake.merchantId,
      merchantName: 'Fake',
      apiVersion: 2,
      withdrawTypes: ['normal'],
      auditorMessengerBound: false,
      balances: [{ currency: 'trx', available: '1.5', frozen: '0', pendingCredit: '3' }],
      riskTier: 'B',
    });
    const info = await client().merchantInfo();
    expect(info.riskTier).toBe('B');
    expect(info.balances[0]).toMatchObject({ pendingCredit: '3', available: '1.5' });
  });
});

describe('token refresh (§6.4)', () => {
  it('10 concurrent calls after expiry cause exactly one getToken', async () => {
    const merchant = client();
    await merchant.merchantInfo();
    fake.reset();
    fake.expireAllTokens();
    fake.switches.latencyMs = 20;
    const results = await Promise.all(Array.from({ length: 10 }, () => merchant.merchantInfo()));
    expect(results).toHaveLength(10);
    expect(fake.requestsTo(PATHS.getToken)).toHaveLength(1);
    expect(fake.requestsTo(PATHS.merchantInfo)).toHaveLength(20);
  });

  it('retries once with a fresh timestamp, nonce and signature; a second tokenExpired surfaces', async () => {
    const merchant = client();
    await merchant.merchantInfo();
    fake.reset();
    fake.switches.tokenExpiredTimes = Number.POSITIVE_INFINITY;
    const error = await failure(merchant.merchantInfo());
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ reason: 'tokenExpired' });
    expect(fake.requestsTo(PATHS.getToken)).toHaveLength(1);
    const attempts = fake.requestsTo(PATHS.merchantInfo);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]?.headers['svc-nonce']).not.toBe(attempts[1]?.headers['svc-nonce']);
    expect(attempts[0]?.headers['svc-sign']).not.toBe(attempts[1]?.headers['svc-sign']);
    expect(attempts[1]?.headers['svc-token']).toBe(fake.issuedTokens.at(-1));
  });

  it('createWithdrawOrder is retried once after tokenExpired (a definite refusal)', async () => {
    const merchant = client();
    await merchant.merchantInfo();
    fake.reset();
    fake.switches.tokenExpiredTimes = 1;
    const order = await merchant.createWithdrawOrder({ userOrder: 'wd-te', currency: 'ton', amount: '1', toAddress: 'EQabc' });
    expect(order.userOrder).toBe('wd-te');
    expect(fake.requestsTo(PATHS.createWithdrawOrder)).toHaveLength(2);
  });

  it('authFailed on getToken surfaces as a ServiceError without the secret', async () => {
    const merchant = client({ secret: 'wrong-secret-value-123' });
    const error = await failure(merchant.merchantInfo());
    expect(error).toMatchObject({ reason: 'authFailed', endpoint: 'getToken' });
    expect((error as Error).message).not.toContain('wrong-secret-value-123');
    expect(fake.requestsTo(PATHS.getToken)).toHaveLength(1);
  });
});

describe('response verification', () => {
  it('refuses a replayed response (same nonce twice)', async () => {
    const merchant = client();
    await merchant.merchantInfo();
    fake.switches.fixedResponseNonce = 'f'.repeat(32);
    await merchant.merchantInfo();
    const error = await failure(merchant.merchantInfo());
    expect(error).toBeInstanceOf(ResponseVerificationError);
    expect(error).toMatchObject({ failure: 'replayedNonce' });
  });

  it.each([
    [-300, true],
    [300, true],
    [-301, false],
    [301, false],
  ])('a response signed %i s off the client clock: accepted %s', async (offset, accepted) => {
    const fixed = 1_900_000_000_000;
    fake.clock = () => fixed;
    const merchant = client({ clock: () => fixed });
    await merchant.getToken();
    fake.switches.responseClockOffsetSeconds = offset;
    const outcome = merchant.merchantInfo();
    if (accepted) await expect(outcome).resolves.toMatchObject({ apiVersion: 2 });
    else await expect(outcome).rejects.toMatchObject({ failure: 'staleTimestamp' });
  });

  it.each([
    ['a bad signature', (s: FakePlatform['switches']) => void (s.corruptSignature = true), 'badSignature'],
    ['a missing SVC-SIGN', (s: FakePlatform['switches']) => void (s.omitSignatureHeaders = true), 'missingHeaders'],
    ['an extra envelope field', (s: FakePlatform['switches']) => void (s.extraEnvelopeField = true), 'malformedEnvelope'],
    [
      'data failing the schema',
      (s: FakePlatform['switches']) => void s.dataOverride.set(PATHS.merchantInfo, { merchantId: 'M', balances: 'many' }),
      'schemaMismatch',
    ],
    [
      'a balance as a JavaScript number',
      (s: FakePlatform['switches']) =>
        void s.dataOverride.set(PATHS.merchantInfo, {
          merchantId: 'M',
          merchantName: 'x',
          apiVersion: 2,
          withdrawTypes: [],
          auditorMessengerBound: false,
          balances: [{ currency: 'trx', available: 1.5, frozen: '0' }],
        }),
      'schemaMismatch',
    ],
  ])('refuses %s', async (_label, misbehave, expected) => {
    const merchant = client();
    await merchant.getToken();
    misbehave(fake.switches);
    const error = await failure(merchant.merchantInfo());
    expect(error).toBeInstanceOf(ResponseVerificationError);
    expect(error).toMatchObject({ failure: expected });
  });

  it('refuses a createAddress answer for another userOrder', async () => {
    fake.switches.dataOverride.set(PATHS.createAddress, { address: 'Tother', addressType: 'trx', userOrder: 'someone-else' });
    const error = await failure(client().createAddress({ userOrder: 'mine', addressType: 'trx' }));
    expect(error).toMatchObject({ failure: 'unexpectedResponse' });
  });
});

describe('HTTP-level answers', () => {
  it('maps 403 Oops to NotWhitelistedError', async () => {
    fake.switches.notWhitelisted = true;
    const error = await failure(client().merchantInfo());
    expect(error).toBeInstanceOf(NotWhitelistedError);
    expect((error as Error).message).toMatch(/whitelist/);
  });

  it('maps 413 to ServiceError(requestTooLarge)', async () => {
    const merchant = client();
    await merchant.getToken();
    fake.switches.transport.set(PATHS.merchantInfo, 'http413');
    const error = await failure(merchant.merchantInfo());
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ reason: 'requestTooLarge', httpStatus: 413 });
  });

  it('refuses a non-JSON 200 answer as malformedEnvelope', async () => {
    const merchant = client();
    await merchant.getToken();
    fake.switches.transport.set(PATHS.merchantInfo, 'garbage');
    expect(await failure(merchant.merchantInfo())).toMatchObject({ failure: 'malformedEnvelope' });
  });
});

describe('guards before sending', () => {
  it('raises RequestTooLargeError before sending a body over 131072 bytes (the server sees nothing)', async () => {
    const merchant = client();
    const error = await failure(merchant.selfcheck({ blob: 'x'.repeat(100_000) }));
    expect(error).toBeInstanceOf(RequestTooLargeError);
    expect((error as RequestTooLargeError).bodyBytes).toBeGreaterThan(MAX_REQUEST_BODY_BYTES);
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a selfcheck payload JSON cannot carry', async () => {
    expect(await failure(client().selfcheck({ n: 1n }))).toMatchObject({ kind: 'invalidArgument', argument: 'payload' });
    expect(await failure(client().selfcheck(() => 1))).toMatchObject({ kind: 'invalidArgument', argument: 'payload' });
    expect(fake.requests).toHaveLength(0);
  });

  it('computes the ciphertext length exactly like the cipher (§2.2)', () => {
    expect(encryptedLength(0, 256)).toBe(344);
    expect(encryptedLength(214, 256)).toBe(344);
    expect(encryptedLength(215, 256)).toBe(684);
    for (const size of [0, 1, 213, 214, 215, 428, 429, 5000]) {
      expect(encryptedLength(size, 256)).toBe(encryptBytes(Buffer.alloc(size, 0x61), fake.keys.platformPublicKey).length);
    }
  });

  it.each([0, 101, 1.5, -3])('refuses getDeposits limit %s before sending', async (limit) => {
    const error = await failure(client().getDeposits({ limit }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ argument: 'limit' });
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ['userOrder with a space', { userOrder: 'a b' }, 'userOrder'],
    ['userOrder of 65 characters', { userOrder: 'x'.repeat(65) }, 'userOrder'],
    ['currency trx.usdc', { currency: 'trx.usdc' }, 'currency'],
    ['amount with an exponent', { amount: '1e3' }, 'amount'],
    ['amount of zero', { amount: '0.00' }, 'amount'],
    ['amount with 7 decimals on trx.usdt', { amount: '1.0000001' }, 'amount'],
    ['amount as a number', { amount: 5 }, 'amount'],
    ['toAddress with a space', { toAddress: 'T abc' }, 'toAddress'],
    ['unknown withdrawType', { withdrawType: 'express' }, 'withdrawType'],
    ['remark over 255', { remark: 'r'.repeat(256) }, 'remark'],
  ])('createWithdrawOrder refuses %s before sending', async (_label, change, argument) => {
    const params = { userOrder: 'wd-ok', currency: 'trx.usdt', amount: '10', toAddress: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', ...change };
    const error = await failure(client().createWithdrawOrder(params as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ argument });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a malformed base URL and keys of the wrong kind when constructed', () => {
    expect(() => new MerchantClient({ ...fake.credentials, baseUrl: 'pay.example.com' })).toThrow(InvalidArgumentError);
    expect(() => new MerchantClient({ ...fake.credentials, baseUrl: 'ftp://pay.example.com' })).toThrow(/https/);
    expect(() => new MerchantClient({ ...fake.credentials, merchantPrivateKey: fake.keys.merchantPublicKey })).toThrow(/private key/);
    expect(() => new MerchantClient({ ...fake.credentials, platformPublicKey: fake.keys.platformPrivateKey })).toThrow(/public key/);
  });

  it('refuses an unknown currency filter and page 0 for getDeposits', async () => {
    expect(await failure(client().getDeposits({ currency: 'doge' as never }))).toMatchObject({ argument: 'currency' });
    expect(await failure(client().getDeposits({ page: 0 }))).toMatchObject({ argument: 'page' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('transport failures and ambiguity', () => {
  it('nothing listening: not ambiguous (the request was never sent); getToken tries 3 times, the call does not multiply it', async () => {
    const merchant = client({ baseUrl: await closedPortUrl() });
    const tokenError = await failure(merchant.getToken());
    expect(tokenError).toBeInstanceOf(TransportError);
    expect(tokenError).toMatchObject({ ambiguous: false, endpoint: 'getToken' });
    expect((tokenError as Error).message).toMatch(/refused/);

    let attempts = 0;
    const counted = client({ baseUrl: await closedPortUrl(), sleep: async () => void (attempts += 1) });
    const error = await failure(counted.createWithdrawOrder({ userOrder: 'wd-off', currency: 'ton', amount: '1', toAddress: 'EQx' }));
    expect(error).toMatchObject({ kind: 'transport', ambiguous: false, endpoint: 'createWithdrawOrder' });
    expect((error as Error).message).toMatch(/nothing was sent/);
    expect(attempts).toBe(2);
  });

  it('a getToken that fails ambiguously leaves the business call unambiguous (it was never sent)', async () => {
    fake.switches.transport.set(PATHS.getToken, 'destroyAfterRequest');
    const error = await failure(client().createWithdrawOrder({ userOrder: 'wd-nt', currency: 'ton', amount: '1', toAddress: 'EQx' }));
    expect(error).toMatchObject({ kind: 'transport', ambiguous: false, endpoint: 'createWithdrawOrder' });
    expect((error as TransportError).cause).toMatchObject({ ambiguous: true, endpoint: 'getToken' });
    expect(fake.requestsTo(PATHS.getToken)).toHaveLength(3);
    expect(fake.requestsTo(PATHS.createWithdrawOrder)).toHaveLength(0);
  });

  it('server closes the socket after reading the request: ambiguous; a read is retried', async () => {
    const merchant = client();
    await merchant.getToken();
    fake.switches.transport.set(PATHS.merchantInfo, 'destroyAfterRequest');
    const error = await failure(merchant.merchantInfo());
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ ambiguous: true });
    expect(fake.requestsTo(PATHS.merchantInfo)).toHaveLength(3);
  });

  it('createWithdrawOrder is not resent on an ambiguous failure: the server sees exactly one request', async () => {
    const merchant = client();
    await merchant.getToken();
    fake.switches.transport.set(PATHS.createWithdrawOrder, 'destroyAfterRequest');
    const error = await failure(merchant.createWithdrawOrder({ userOrder: 'wd-amb', currency: 'eth', amount: '0.5', toAddress: '0xabc' }));
    expect(error).toMatchObject({ kind: 'transport', ambiguous: true, endpoint: 'createWithdrawOrder' });
    expect(fake.requestsTo(PATHS.createWithdrawOrder)).toHaveLength(1);
  });

  it('server stalls past the headers timeout: ambiguous', async () => {
    const merchant = client({ timeouts: { headersMs: 250 } });
    await merchant.getToken();
    fake.switches.transport.set(PATHS.createWithdrawOrder, 'stall');
    const started = Date.now();
    const error = await failure(merchant.createWithdrawOrder({ userOrder: 'wd-stall', currency: 'ton', amount: '1', toAddress: 'EQx' }));
    expect(error).toMatchObject({ kind: 'transport', ambiguous: true });
    expect((error as Error).message).toMatch(/did not answer in time/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fake.requestsTo(PATHS.createWithdrawOrder)).toHaveLength(1);
  });

  it('HTTP 500 and a truncated answer are ambiguous', async () => {
    const merchant = client();
    await merchant.getToken();
    fake.switches.transport.set(PATHS.createWithdrawOrder, 'http500');
    expect(await failure(merchant.createWithdrawOrder({ userOrder: 'wd-500', currency: 'ton', amount: '1', toAddress: 'EQx' }))).toMatchObject({
      ambiguous: true,
      httpStatus: 500,
    });
    fake.switches.transport.set(PATHS.createWithdrawOrder, 'truncate');
    expect(await failure(merchant.createWithdrawOrder({ userOrder: 'wd-cut', currency: 'ton', amount: '1', toAddress: 'EQx' }))).toMatchObject({
      kind: 'transport',
      ambiguous: true,
    });
  });

  it('an answer over the response cap is refused as ambiguous', async () => {
    const merchant = client({ maxResponseBytes: 64 * 1024 });
    await merchant.getToken();
    fake.switches.transport.set(PATHS.checkWithdrawOrder, 'oversized');
    const error = await failure(merchant.checkWithdrawOrder('wd-x'));
    expect(error).toMatchObject({ kind: 'transport', ambiguous: true });
    expect((error as Error).message).toMatch(/larger than 65536 bytes/);
  });

  it('classifies error codes: connect-stage failures are unambiguous unless the request had started', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    expect(toTransportError(coded('ECONNREFUSED'), 'x', false).ambiguous).toBe(false);
    expect(toTransportError(coded('ENOTFOUND'), 'x', false).ambiguous).toBe(false);
    expect(toTransportError(coded('UND_ERR_CONNECT_TIMEOUT'), 'x', false).ambiguous).toBe(false);
    expect(toTransportError(coded('UND_ERR_ABORTED'), 'x', false).ambiguous).toBe(false);
    expect(toTransportError(new AggregateError([coded('ECONNREFUSED')], 'all failed'), 'x', false).ambiguous).toBe(false);
    expect(toTransportError(coded('UND_ERR_HEADERS_TIMEOUT'), 'x', false).ambiguous).toBe(true);
    expect(toTransportError(coded('UND_ERR_BODY_TIMEOUT'), 'x', true).ambiguous).toBe(true);
    expect(toTransportError(coded('UND_ERR_SOCKET'), 'x', false).ambiguous).toBe(true);
    expect(toTransportError(coded('ECONNRESET'), 'x', false).ambiguous).toBe(true);
    expect(toTransportError(coded('UND_ERR_ABORTED'), 'x', true).ambiguous).toBe(true);
    expect(toTransportError(new Error('mystery'), 'x', false).ambiguous).toBe(true);
  });

  it('a request cancelled before sending is unambiguous; a closed transport sends nothing', async () => {
    const http = new HttpTransport(fake.baseUrl);
    const controller = new AbortController();
    controller.abort();
    await expect(http.request({ method: 'POST', path: PATHS.merchantInfo, endpoint: 'merchantInfo', signal: controller.signal })).rejects.toMatchObject({
      ambiguous: false,
    });
    await http.close();
    await expect(http.request({ method: 'POST', path: PATHS.merchantInfo, endpoint: 'merchantInfo' })).rejects.toMatchObject({ ambiguous: false });
    expect(fake.requests).toHaveLength(0);
  });

  it('a request cancelled after it was sent is ambiguous (the start of sending is tracked)', async () => {
    fake.switches.transport.set(PATHS.merchantInfo, 'stall');
    const http = new HttpTransport(fake.baseUrl);
    const controller = new AbortController();
    const pending = http.request({ method: 'POST', path: PATHS.merchantInfo, endpoint: 'merchantInfo', body: 'x', signal: controller.signal });
    await waitFor(() => fake.requests.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'transport', ambiguous: true });
    await http.close();
  });

  it('keeps a base URL path prefix', async () => {
    const http = new HttpTransport(`${fake.baseUrl}/gateway/`);
    const response = await http.request({ method: 'GET', path: '/x', endpoint: 'probe' });
    expect(response.status).toBe(404);
    expect(fake.requests[0]?.path).toBe('/gateway/x');
    await http.close();
  });
});

describe('deposit scans', () => {
  const deposit = (apiOrder: string) => fake.depositRecord(apiOrder);

  it('allDeposits deduplicates overlapping pages by apiOrder and stops at a short page', async () => {
    const pages: Record<number, string[]> = { 1: ['D9', 'D8', 'D7'], 2: ['D7', 'D6', 'D5'], 3: ['D5', 'D4', 'D3'], 4: ['D3', 'D2'] };
    fake.switches.depositsPager = (page) => (pages[page] ?? []).map(deposit);
    const seen: string[] = [];
    for await (const record of client().allDeposits({ limit: 3 })) seen.push(record.apiOrder);
    expect(seen).toEqual(['D9', 'D8', 'D7', 'D6', 'D5', 'D4', 'D3', 'D2']);
    expect(fake.requestsTo(PATHS.getDeposits)).toHaveLength(4);
  });

  it('stops at an empty page, which it yields as the last one, and depositPages reports page numbers', async () => {
    fake.deposits = ['D4', 'D3', 'D2', 'D1'].map(deposit);
    const pages: Array<[number, number, boolean]> = [];
    for await (const page of client().depositPages({ limit: 2 })) pages.push([page.page, page.records.length, page.last]);
    expect(pages).toEqual([
      [1, 2, false],
      [2, 2, false],
      [3, 0, true],
    ]);
    expect(fake.requestsTo(PATHS.getDeposits)).toHaveLength(3);
  });

  it('starts from firstPage (a resumed walk) and marks the short page as the last', async () => {
    fake.deposits = ['D7', 'D6', 'D5', 'D4', 'D3', 'D2', 'D1'].map(deposit);
    const pages: Array<[number, string[], boolean]> = [];
    for await (const page of client().depositPages({ limit: 3, firstPage: 2 })) pages.push([page.page, page.records.map((record) => record.apiOrder), page.last]);
    expect(pages).toEqual([
      [2, ['D4', 'D3', 'D2'], false],
      [3, ['D1'], true],
    ]);
    expect(fake.requestsTo(PATHS.getDeposits)).toHaveLength(2);
    await expect(async () => {
      for await (const page of client().depositPages({ firstPage: 0 })) void page;
    }).rejects.toThrow(/firstPage: must be a whole number of at least 1/);
  });

  it('leaves out the records of the 20 pages before the one it reads, and remembers no further back', async () => {
    // Pages of one record: D1 to D20, then D1 again (in the window), D2 again (in the window), D1 once more (page 23:
    // page 1 has left the window), and the end.
    const pages: Record<number, string> = { 21: 'D1', 22: 'D2', 23: 'D1' };
    fake.switches.depositsPager = (page) => (page <= 20 ? [`D${page}`] : page in pages ? [pages[page] ?? ''] : []).map(deposit);
    const seen: string[] = [];
    for await (const page of client().depositPages({ limit: 1 })) seen.push(...page.records.map((record) => `${page.page}:${record.apiOrder}`));
    expect(seen).toEqual([...Array.from({ length: 20 }, (_, index) => `${index + 1}:D${index + 1}`), '23:D1']);
  });

  it('stops when a server repeats the same full page (page ignored)', async () => {
    fake.switches.depositsPager = () => ['D2', 'D1'].map(deposit);
    const seen: string[] = [];
    for await (const record of client().allDeposits({ limit: 2 })) seen.push(record.apiOrder);
    expect(seen).toEqual(['D2', 'D1']);
    expect(fake.requestsTo(PATHS.getDeposits)).toHaveLength(4);
  });

  it('with prefetch asks for page N+1 while page N is still with the consumer, and yields the same pages', async () => {
    fake.deposits = ['D7', 'D6', 'D5', 'D4', 'D3', 'D2', 'D1'].map(deposit);
    const pages: Array<[number, string[]]> = [];
    for await (const page of client().depositPages({ limit: 3, prefetch: true })) {
      // Page N is in hand and not yet consumed: the request for page N+1 is already at the service.
      await waitFor(() => fake.requestsTo(PATHS.getDeposits).length === page.page + 1);
      pages.push([page.page, page.records.map((record) => record.apiOrder)]);
    }
    expect(pages).toEqual([
      [1, ['D7', 'D6', 'D5']],
      [2, ['D4', 'D3', 'D2']],
      [3, ['D1']],
    ]);
    // The short page 3 ends the walk; page 4 had been asked for ahead and is dropped.
    expect(fake.requestsTo(PATHS.getDeposits)).toHaveLength(4);
  });

  it('with prefetch, a consumer that stops early is not hurt by the failure of the page asked for ahead', async () => {
    fake.switches.depositsPager = (page) => {
      if (page > 1) throw new Refusal('paramError');
      return ['D3', 'D2'].map(deposit);
    };
    const seen: string[] = [];
    for await (const page of client().depositPages({ limit: 2, prefetch: true })) {
      seen.push(...page.records.map((record) => record.apiOrder));
      await waitFor(() => fake.requestsTo(PATHS.getDeposits).length === 2);
      break;
    }
    expect(seen).toEqual(['D3', 'D2']);
    // Give the prefetched page's failure time to land: an unhandled rejection would fail this test file.
    await new Promise((resolve) => setTimeout(resolve, 200));
  });

  it('passes the currency filter and keeps unknown deposit fields', async () => {
    fake.deposits = [fake.depositRecord('D1', { currency: 'ton.usdt', memo: 'm-1' }), fake.depositRecord('D2')];
    const records = await client().getDeposits({ currency: 'ton.usdt', page: 1, limit: 10 });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ apiOrder: 'D1', memo: 'm-1' });
  });
});

describe('secrets and tokens stay out of errors', () => {
  it('no error message or serialisation contains the secret or an issued token', async () => {
    const merchant = client();
    await merchant.getToken();
    const errors: unknown[] = [];
    fake.switches.tokenExpiredTimes = Number.POSITIVE_INFINITY;
    errors.push(await failure(merchant.merchantInfo()));
    fake.reset();
    fake.switches.corruptSignature = true;
    errors.push(await failure(merchant.merchantInfo()));
    fake.reset();
    fake.switches.transport.set(PATHS.merchantInfo, 'destroyAfterRequest');
    errors.push(await failure(merchant.merchantInfo()));
    fake.reset();
    fake.switches.notWhitelisted = true;
    errors.push(await failure(client().merchantInfo()));
    errors.push(await failure(client({ secret: `${fake.secret}x` }).getToken()));

    const secrets = [fake.secret, ...fake.issuedTokens];
    expect(fake.issuedTokens.length).toBeGreaterThan(0);
    for (const error of errors) {
      const text = `${String(error)} ${(error as Error).stack ?? ''} ${JSON.stringify(error)}`;
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    expect(JSON.stringify(merchant)).not.toContain(fake.secret);
  });
});
