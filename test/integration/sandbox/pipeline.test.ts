// The merchant interface's request pipeline against raw HTTP: getToken (§6), the §4.5 check order (IP whitelist,
// body size, headers, token, timestamp window, nonce, signature, decryption), token expiry through /sandbox/clock,
// answers signed per §3.3 with '/' escaped (§5.2), HTTP statuses of §5, version 1 accounts (§13).
import { generateKeyPairSync } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encryptBytes } from '../../../electron/protocol/cipher';
import {
  HEADER,
  MAX_REQUEST_BODY_BYTES,
  NONCE_MEMORY_SECONDS,
  PATHS,
  TIMESTAMP_WINDOW_SECONDS,
  TOKEN_ABSOLUTE_SECONDS,
  TOKEN_PATTERN,
  TOKEN_SLIDING_SECONDS,
} from '../../../electron/protocol/profile';
import { authorizationHeader, newNonce } from '../../../electron/protocol/wire';
import { expectData, rawRequest, RawMerchant, type SignedCall } from '../../support/raw-merchant';
import { openSandbox, type TestSandbox } from './harness';

let t: TestSandbox;
const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 });

beforeAll(async () => {
  t = await openSandbox();
  expectData(await t.merchant.getToken());
});

afterEach(() => t.expectInvariant());

afterAll(async () => {
  await t.close();
});

function message(call: SignedCall): string | undefined {
  return call.envelope?.message;
}

/** A failure envelope is `{code: 9999, data: "", message}`, HTTP 200, signed over data "" (§3.3, §5.2). */
function expectFailure(call: SignedCall, reason: string, status = 200): void {
  expect(call.status).toBe(status);
  expect(call.headers['content-type']).toBe('application/json');
  expect(call.envelope).toEqual({ code: 9999, data: '', message: reason });
  expect(call.verified).toBe(true);
}

async function setClock(offsetSeconds: number): Promise<void> {
  const answer = await t.admin('POST', '/clock', { offsetSeconds });
  expect(answer.status).toBe(200);
  t.merchant.clockOffsetSeconds = offsetSeconds;
}

describe('getToken (§6)', () => {
  it('issues a 43-character base64url token in a signed, encrypted envelope', async () => {
    const call = await t.merchant.getToken();
    const data = expectData<{ token: string }>(call);
    expect(data.token).toMatch(TOKEN_PATTERN);
    expect(call.headers[HEADER.nonce.toLowerCase()]).toMatch(/^[A-Za-z0-9]{16,64}$/);
    // §5.2: every '/' inside JSON strings is written as '\/'.
    expect(call.text).not.toMatch(/[^\\]\//);
  });

  it('refuses a wrong secret, a missing header, another case of the MD5, an unknown merchant: authFailed', async () => {
    const { merchantId, secret } = t.merchant.credentials;
    const client = new RawMerchant(t.merchant.credentials);
    expectFailure(await client.getToken(authorizationHeader(merchantId, `${secret}x`)), 'authFailed');
    expectFailure(await client.getToken(null), 'authFailed');
    expectFailure(await client.getToken(authorizationHeader(merchantId, secret).toUpperCase()), 'authFailed');
    expectFailure(await client.getToken(`auth  ${authorizationHeader(merchantId, secret).slice(5)}`), 'authFailed');
    expectFailure(await client.getToken(authorizationHeader('999', secret), '999'), 'authFailed');
    expectFailure(await client.getToken(undefined, null), 'authFailed');
  });

  it('lets several tokens of one merchant be valid at once (§6.3)', async () => {
    const first = new RawMerchant(t.merchant.credentials);
    const second = new RawMerchant(t.merchant.credentials);
    expectData(await first.getToken());
    expectData(await second.getToken());
    expect(first.token).not.toBe(second.token);
    expectData(await first.call(PATHS.selfcheck, {}));
    expectData(await second.call(PATHS.selfcheck, {}));
  });
});

describe('HTTP statuses (§5)', () => {
  it('answers 404 for unknown paths and 405 for wrong methods', async () => {
    const base = t.sandbox.baseUrl;
    expect((await rawRequest(`${base}/api/merchant/nothing`, { method: 'POST' })).status).toBe(404);
    expect((await rawRequest(`${base}/api/merchant/selfcheck`, { method: 'POST' })).status).toBe(404);
    expect((await rawRequest(`${base}/elsewhere`)).status).toBe(404);
    const wrongMethod = await rawRequest(base + PATHS.getToken, { method: 'GET' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('POST');
    expect((await rawRequest(base + PATHS.selfcheck, { method: 'PUT' })).status).toBe(405);
  });
});

describe('IP whitelist (§5.3)', () => {
  it('answers 403 text/plain "Oops" on every /api/merchant/ path, before the size and header checks', async () => {
    const outsider = await t.newMerchant();
    const patched = await t.admin('PATCH', `/merchants/${outsider.credentials.merchantId}`, { ipWhitelist: ['10.0.0.0/8'] });
    expect(patched.status).toBe(200);
    for (const call of [
      await outsider.getToken(),
      await outsider.call(PATHS.merchantInfo, {}),
      await outsider.call('/api/merchant/unknownPath', {}),
      await outsider.call(PATHS.selfcheck, {}, { rawBody: 'x'.repeat(MAX_REQUEST_BODY_BYTES + 1) }),
      await outsider.call(PATHS.selfcheck, {}, { token: null, sign: null, nonce: null }),
    ]) {
      expect(call.status).toBe(403);
      expect(call.headers['content-type']).toBe('text/plain');
      expect(call.text).toBe('Oops');
    }
    await t.admin('PATCH', `/merchants/${outsider.credentials.merchantId}`, { ipWhitelist: ['10.0.0.0/8', '127.0.0.1/32'] });
    expectData(await outsider.call(PATHS.merchantInfo, {}));
    await t.admin('PATCH', `/merchants/${outsider.credentials.merchantId}`, { ipWhitelist: ['::1/128'] });
    expect((await outsider.call(PATHS.merchantInfo, {})).text).toBe('Oops');
  });
});

describe('body size (§5.4)', () => {
  it('answers 413 requestTooLarge (signed envelope) over 131072 bytes, before the header checks', async () => {
    const call = await t.merchant.call(PATHS.selfcheck, {}, { rawBody: 'A'.repeat(MAX_REQUEST_BODY_BYTES + 1), token: null, nonce: null });
    expectFailure(call, 'requestTooLarge', 413);
    const getToken = await rawRequest(t.sandbox.baseUrl + PATHS.getToken, { method: 'POST', body: Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1) });
    expect(getToken.status).toBe(413);
  });

  it('reads a body of exactly 131072 bytes (then fails on its content, not its size)', async () => {
    const call = await t.merchant.call(PATHS.selfcheck, {}, { rawBody: 'A'.repeat(MAX_REQUEST_BODY_BYTES) });
    expectFailure(call, 'decryptFailed');
  });

  it('stops reading at the limit: answers while the client is still sending', async () => {
    const sent = t.merchant.build({});
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(t.sandbox.baseUrl + PATHS.selfcheck, {
        method: 'POST',
        agent: false,
        headers: { ...sent.headers, 'Content-Length': String(50 * 1024 * 1024) },
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() });
          request.destroy();
        });
      });
      request.on('error', reject);
      // Only a part of the declared 50 MB is ever sent: the answer must not wait for the rest.
      request.write(Buffer.alloc(200 * 1024, 0x41));
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toEqual({ code: 9999, data: '', message: 'requestTooLarge' });
  });

  it('stops reading a chunked body (no Content-Length) once it passes the limit', async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(t.sandbox.baseUrl + PATHS.selfcheck, { method: 'POST', agent: false, headers: t.merchant.build({}).headers });
      request.on('response', (response) => {
        resolve(response.statusCode ?? 0);
        response.resume();
        request.destroy();
      });
      request.on('error', reject);
      for (let i = 0; i < 12; i += 1) request.write(Buffer.alloc(16 * 1024, 0x41));
    });
    expect(answer).toBe(413);
  });
});

describe('headers, token, timestamp, nonce, signature, decryption (§4.5 order)', () => {
  it('needs SVC-APP-ID, SVC-TIMESTAMP, SVC-NONCE and SVC-SIGN (signatureFailed) and a token (tokenExpired)', async () => {
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { appId: null }), 'signatureFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { timestamp: null }), 'signatureFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { nonce: null }), 'signatureFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { sign: null }), 'signatureFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { token: null }), 'tokenExpired');
    // Headers are checked before the token.
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { token: null, timestamp: null }), 'signatureFailed');
  });

  it('refuses unknown tokens and other merchants\' tokens with tokenExpired, before the timestamp check', async () => {
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { token: 'A'.repeat(43) }), 'tokenExpired');
    const other = await t.newMerchant();
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { token: other.token ?? '' }), 'tokenExpired');
    const stale = String(t.merchant.nowSeconds() - 3600);
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { token: 'B'.repeat(43), timestamp: stale }), 'tokenExpired');
  });

  it('accepts timestamps within ±300 s and refuses stale, future and malformed ones (§4.1, §4.2)', async () => {
    const now = t.merchant.nowSeconds();
    const margin = 5;
    expectData(await t.merchant.call(PATHS.selfcheck, {}, { timestamp: String(now - TIMESTAMP_WINDOW_SECONDS + margin) }));
    expectData(await t.merchant.call(PATHS.selfcheck, {}, { timestamp: String(now + TIMESTAMP_WINDOW_SECONDS - margin) }));
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { timestamp: String(now - TIMESTAMP_WINDOW_SECONDS - margin) }), 'signatureFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { timestamp: String(now + TIMESTAMP_WINDOW_SECONDS + margin) }), 'signatureFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { timestamp: `${now}.5` }), 'signatureFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { timestamp: String(now * 1000) }), 'signatureFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { timestamp: '' }), 'signatureFailed');
  });

  it('refuses a replayed nonce and malformed nonces (§4.3, §4.4)', async () => {
    const first = await t.merchant.call(PATHS.selfcheck, { n: 1 });
    expectData(first);
    expectFailure(await t.merchant.send(PATHS.selfcheck, first.sent), 'signatureFailed');
    // The same nonce with a fresh timestamp and signature is still a replay.
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { nonce: first.sent.headers[HEADER.nonce] ?? '' }), 'signatureFailed');
    expectData(await t.merchant.call(PATHS.selfcheck, {}, { nonce: 'a'.repeat(16) }));
    expectData(await t.merchant.call(PATHS.selfcheck, {}, { nonce: 'Z9'.repeat(32) }));
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { nonce: 'b'.repeat(15) }), 'signatureFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { nonce: 'c'.repeat(65) }), 'signatureFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { nonce: `${'d'.repeat(20)}-` }), 'signatureFailed');
  });

  it('keeps nonce memory per merchant: another merchant may use the same nonce', async () => {
    const nonce = newNonce();
    expectData(await t.merchant.call(PATHS.selfcheck, {}, { nonce }));
    const other = await t.newMerchant();
    expectData(await other.call(PATHS.selfcheck, {}, { nonce }));
  });

  it('records a nonce only after the signature verifies', async () => {
    const nonce = newNonce();
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { nonce, signWith: foreign.privateKey }), 'signatureFailed');
    expectData(await t.merchant.call(PATHS.selfcheck, {}, { nonce }));
    // A request whose signature verifies but whose body does not decrypt does burn its nonce.
    const burnt = newNonce();
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { nonce: burnt, rawBody: 'bm90IGNpcGhlcnRleHQ=' }), 'decryptFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { nonce: burnt }), 'signatureFailed');
  });

  it('refuses foreign, tampered and malformed signatures (§3.2)', async () => {
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { signWith: foreign.privateKey }), 'signatureFailed');
    const sent = t.merchant.build({ a: 1 });
    const tampered = { headers: sent.headers, body: t.merchant.build({ a: 2 }).body };
    expectFailure(await t.merchant.send(PATHS.selfcheck, tampered), 'signatureFailed');
    const otherTime = { headers: { ...sent.headers, [HEADER.timestamp]: String(Number(sent.headers[HEADER.timestamp]) - 1) }, body: sent.body };
    expectFailure(await t.merchant.send(PATHS.selfcheck, otherTime), 'signatureFailed');
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { sign: 'not base64!' }), 'signatureFailed');
    // Signature before decryption: a bad signature on a bad body is signatureFailed, not decryptFailed.
    expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { rawBody: '%%%', signWith: foreign.privateKey }), 'signatureFailed');
  });

  it('refuses ciphertext §2.4 rejects with decryptFailed', async () => {
    const platform = t.merchant.platformPublicKey;
    const bodies = [
      '', // decoded length 0
      'not base64 at all',
      Buffer.alloc(100, 1).toString('base64'), // not a multiple of k
      Buffer.alloc(256, 1).toString('base64'), // one block that fails OAEP
      encryptBytes(Buffer.from('not json', 'utf8'), platform),
      encryptBytes(Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), platform), // not UTF-8
      encryptBytes(Buffer.from('{}', 'utf8'), foreign.publicKey), // encrypted to another key
      `${encryptBytes(Buffer.from('{}', 'utf8'), platform)}\n`, // line break: not canonical base64
    ];
    for (const rawBody of bodies) expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { rawBody }), 'decryptFailed');
  });
});

describe('token expiry through /sandbox/clock (§6.3)', () => {
  it('slides the expiry to now + 8 h on each authenticated request, capped at issue + 24 h', async () => {
    const client = new RawMerchant(t.merchant.credentials);
    try {
      expectData(await client.getToken());
      const hour = 3600;
      // Each use moves the expiry: +7 h, +14 h, +21 h are all within 8 h of the previous use.
      for (const offset of [7 * hour, 14 * hour, 21 * hour]) {
        await setClock(offset);
        client.clockOffsetSeconds = offset;
        expectData(await client.call(PATHS.selfcheck, {}));
      }
      // Capped at issue + 24 h, even though the last use was only 3 h ago.
      await setClock(TOKEN_ABSOLUTE_SECONDS - 60);
      client.clockOffsetSeconds = TOKEN_ABSOLUTE_SECONDS - 60;
      expectData(await client.call(PATHS.selfcheck, {}));
      await setClock(TOKEN_ABSOLUTE_SECONDS + 1);
      client.clockOffsetSeconds = TOKEN_ABSOLUTE_SECONDS + 1;
      expectFailure(await client.call(PATHS.selfcheck, {}), 'tokenExpired');
    } finally {
      await setClock(0);
    }
  });

  it('expires an unused token 8 h after issue, and failed requests do not extend it', async () => {
    const client = new RawMerchant(t.merchant.credentials);
    try {
      expectData(await client.getToken());
      await setClock(TOKEN_SLIDING_SECONDS - 10);
      client.clockOffsetSeconds = TOKEN_SLIDING_SECONDS - 10;
      expectFailure(await client.call(PATHS.selfcheck, {}, { signWith: foreign.privateKey }), 'signatureFailed');
      await setClock(TOKEN_SLIDING_SECONDS);
      client.clockOffsetSeconds = TOKEN_SLIDING_SECONDS;
      expectFailure(await client.call(PATHS.selfcheck, {}), 'tokenExpired');
      expectData(await client.getToken());
      expectData(await client.call(PATHS.selfcheck, {}));
    } finally {
      await setClock(0);
    }
  });

  it('forgets a nonce after 600 s, and answers with timestamps of the shifted clock', async () => {
    const nonce = newNonce();
    try {
      expectData(await t.merchant.call(PATHS.selfcheck, {}, { nonce }));
      // Margins of a few seconds: real time moves on between the calls.
      await setClock(NONCE_MEMORY_SECONDS - 5);
      expectFailure(await t.merchant.call(PATHS.selfcheck, {}, { nonce }), 'signatureFailed');
      await setClock(NONCE_MEMORY_SECONDS + 5);
      const call = await t.merchant.call(PATHS.selfcheck, {}, { nonce });
      const data = expectData<{ serverTime: number }>(call);
      expect(Math.abs(data.serverTime - t.merchant.nowSeconds())).toBeLessThanOrEqual(2);
      expect(Number(call.headers[HEADER.timestamp.toLowerCase()])).toBe(data.serverTime);
    } finally {
      await setClock(0);
    }
  });
});

describe('version 1 accounts (§13)', () => {
  it('allow getToken and selfcheck only; everything else is apiVersionNotEnabled until staff switch the account', async () => {
    const legacy = await t.newMerchant({ apiVersion: 1, balances: { trx: '100' } });
    const selfcheck = expectData<{ apiVersion: number; pong: boolean }>(await legacy.call(PATHS.selfcheck, { probe: true }));
    expect(selfcheck).toMatchObject({ pong: true, apiVersion: 2 });
    const calls: Array<[string, unknown]> = [
      [PATHS.merchantInfo, {}],
      [PATHS.createAddress, { userOrder: 'v1-a', addressType: 'trx' }],
      [PATHS.createWithdrawOrder, { userOrder: 'v1-w', currency: 'trx', amount: '20', toAddress: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' }],
      [PATHS.getDeposits, {}],
      [PATHS.checkWithdrawOrder, { userOrder: 'v1-w' }],
    ];
    for (const [path, payload] of calls) expectFailure(await legacy.call(path, payload), 'apiVersionNotEnabled');
    // The pipeline still runs first: a bad signature on a version 1 account is signatureFailed.
    expectFailure(await legacy.call(PATHS.merchantInfo, {}, { signWith: foreign.privateKey }), 'signatureFailed');
    await t.admin('PATCH', `/merchants/${legacy.credentials.merchantId}`, { apiVersion: 2 });
    const info = expectData<{ apiVersion: number }>(await legacy.call(PATHS.merchantInfo, {}));
    expect(info.apiVersion).toBe(2);
    expect(message(await legacy.call(PATHS.checkWithdrawOrder, { userOrder: 'v1-w' }))).toBe('withdrawOrderNotExist');
  });
});
