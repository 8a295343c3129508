// Integration tests of PublicClient against the fake platform: plain JSON and form parameters without any v2
// machinery, the checkTransfer guards (20 per rolling minute, 5 s per txid) on an injected clock, and the QR guards.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, RateLimitedError, ResponseVerificationError, ServiceError } from '../../../electron/protocol/errors';
import { PATHS, PNG_SIGNATURE } from '../../../electron/protocol/profile';
import { PublicClient } from '../../../electron/protocol/public-client';
import { FakePlatform } from '../../support/fake-platform';

let fake: FakePlatform;
let now = 1_900_000_000_000;
const clients: PublicClient[] = [];

function client(): PublicClient {
  const created = new PublicClient({ baseUrl: fake.baseUrl, clock: () => now, sleep: async () => undefined });
  clients.push(created);
  return created;
}

beforeAll(async () => {
  fake = await FakePlatform.start();
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.reset(true);
  now = 1_900_000_000_000;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((created) => created.close()));
});

describe('no v2 flow on public endpoints', () => {
  it('getCurrencies: plain JSON, zod-validated records, unknown fields kept, no SVC headers sent', async () => {
    const currencies = await client().getCurrencies();
    expect(currencies).toHaveLength(13);
    expect(currencies.find((record) => record.symbol === 'trx.usdt')).toMatchObject({ deposit_percent_fee: '0.5', withdraw_min: '10' });
    const [request] = fake.requestsTo(PATHS.getCurrencies);
    expect(request?.method).toBe('POST');
    expect(Object.keys(request?.headers ?? {}).filter((name) => name.startsWith('svc-'))).toEqual([]);
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('isAddress: form-encoded parameters, 10000 valid, 9999 invalid with the reason', async () => {
    const publicClient = client();
    expect(await publicClient.isAddress('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', 'trx.usdt')).toEqual({ valid: true, message: 'success' });
    expect(await publicClient.isAddress('0xnot-tron', 'trx')).toEqual({ valid: false, message: 'invalidAddress' });
    const [request] = fake.requestsTo(PATHS.isAddress);
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(request?.body)).toEqual(new URLSearchParams({ address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', coin_type: 'trx.usdt' }));
  });

  it('isAddress refuses an unknown coin type before sending (a typo would read as "invalid address")', async () => {
    await expect(client().isAddress('T1', 'trx.usdc' as never)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('checkTransfer guards (§12.2)', () => {
  it('a repeat for one txid within 5 s returns the previous answer without a request', async () => {
    fake.knownTxids.add('0xaaa');
    const publicClient = client();
    expect(await publicClient.checkTransfer('0xaaa', 'eth')).toEqual({ valid: true, message: 'success', cached: false });
    now += 4_999;
    expect(await publicClient.checkTransfer('0xaaa', 'eth')).toEqual({ valid: true, message: 'success', cached: true });
    expect(fake.requestsTo(PATHS.checkTransfer)).toHaveLength(1);
    now += 1;
    expect(await publicClient.checkTransfer('0xaaa', 'eth')).toMatchObject({ cached: false });
    expect(fake.requestsTo(PATHS.checkTransfer)).toHaveLength(2);
  });

  it('concurrent checks of one txid share one request', async () => {
    const publicClient = client();
    const answers = await Promise.all([publicClient.checkTransfer('0xbbb', 'bnb'), publicClient.checkTransfer('0xbbb', 'bnb')]);
    expect(answers.map((answer) => answer.valid)).toEqual([false, false]);
    expect(fake.requestsTo(PATHS.checkTransfer)).toHaveLength(1);
  });

  it('at most 20 requests per rolling minute; the 21st is refused locally with retryAfterMs', async () => {
    const publicClient = client();
    for (let index = 0; index < 20; index += 1) {
      await publicClient.checkTransfer(`0x${index}`, 'trx');
      now += 1_000;
    }
    const error = await publicClient.checkTransfer('0xover', 'trx').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(40_000);
    expect(fake.requestsTo(PATHS.checkTransfer)).toHaveLength(20);

    // A repeat inside 5 s still answers from the previous result while limited.
    expect(await publicClient.checkTransfer('0x19', 'trx')).toMatchObject({ cached: true });

    now += 40_000;
    expect(await publicClient.checkTransfer('0xover', 'trx')).toMatchObject({ cached: false });
    expect(fake.requestsTo(PATHS.checkTransfer)).toHaveLength(21);
  });

  it('a rateLimited answer from the platform is a ServiceError and is not cached', async () => {
    fake.switches.publicAnswer.set(PATHS.checkTransfer, { status: 200, json: { code: 9999, data: '', message: 'rateLimited' } });
    const publicClient = client();
    const error = await publicClient.checkTransfer('0xccc', 'ton').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ reason: 'rateLimited', known: true });
    fake.switches.publicAnswer.clear();
    expect(await publicClient.checkTransfer('0xccc', 'ton')).toMatchObject({ valid: false, message: 'transactionNotFound', cached: false });
    expect(fake.requestsTo(PATHS.checkTransfer)).toHaveLength(2);
  });

  it('checkTransfer is never resent automatically after a transport failure', async () => {
    fake.switches.transport.set(PATHS.checkTransfer, 'destroyAfterRequest');
    await expect(client().checkTransfer('0xddd', 'ton')).rejects.toMatchObject({ kind: 'transport', ambiguous: true });
    expect(fake.requestsTo(PATHS.checkTransfer)).toHaveLength(1);
  });
});

describe('public answers that are refused', () => {
  it('getCurrencies with a fee as a JavaScript number is a schemaMismatch', async () => {
    fake.switches.publicAnswer.set(PATHS.getCurrencies, {
      status: 200,
      json: { code: 10000, message: 'ok', data: [{ name: 'TRX', symbol: 'trx', deposit_fixed_fee: 0 }] },
    });
    await expect(client().getCurrencies()).rejects.toMatchObject({ kind: 'responseVerification', failure: 'schemaMismatch' });
  });

  it('getCurrencies failure code is a ServiceError with the message verbatim', async () => {
    fake.switches.publicAnswer.set(PATHS.getCurrencies, { status: 200, json: { code: 9999, data: '', message: 'maintenance window' } });
    await expect(client().getCurrencies()).rejects.toMatchObject({ kind: 'service', reason: 'maintenance window', known: false });
  });

  it('a non-envelope answer is malformedEnvelope; a read is retried on 5xx', async () => {
    fake.switches.transport.set(PATHS.isAddress, 'garbage');
    await expect(client().isAddress('abc', 'eth')).rejects.toMatchObject({ failure: 'malformedEnvelope' });
    fake.reset();
    fake.switches.transport.set(PATHS.getCurrencies, 'http500');
    await expect(client().getCurrencies()).rejects.toMatchObject({ kind: 'transport', ambiguous: true, httpStatus: 500 });
    expect(fake.requestsTo(PATHS.getCurrencies)).toHaveLength(3);
  });
});

describe('generateAddresssQrCode (§12.3)', () => {
  it('GETs the three-s path and returns PNG bytes', async () => {
    const png = await client().generateAddressQrCode('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', 'trx');
    expect(Array.from(png.subarray(0, 8))).toEqual(Array.from(PNG_SIGNATURE));
    const [request] = fake.requests;
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/api/common/generateAddresssQrCode');
    expect(request?.query.get('address')).toBe('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8');
    expect(request?.query.get('address_type')).toBe('trx');
  });

  it.each(['has space', 'a/b', 'a?b=c', '', 'ünï', 'a\nb', 'x%20y'])('refuses address %j before sending', async (address) => {
    await expect(client().generateAddressQrCode(address, 'trx')).rejects.toMatchObject({ kind: 'invalidArgument', argument: 'address' });
    expect(fake.requests).toHaveLength(0);
  });

  it('accepts the whole allowed charset: letters, digits, - _ . +', async () => {
    await expect(client().generateAddressQrCode('EQ-_.+09azAZ', 'ton')).resolves.toBeInstanceOf(Uint8Array);
  });

  it.each(['btc', 'TRX', 'ethereum'])('refuses address type %j before sending', async (type) => {
    await expect(client().generateAddressQrCode('abc', type as never)).rejects.toMatchObject({ argument: 'addressType' });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses an answer that is not image/png', async () => {
    fake.switches.qrContentType = 'text/html';
    const error = await client().generateAddressQrCode('abc', 'eth').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseVerificationError);
    expect(error).toMatchObject({ failure: 'unexpectedResponse' });
  });

  it('maps the JSON paramError of HTTP 400 to a ServiceError', async () => {
    fake.switches.publicAnswer.set(PATHS.generateAddressQrCode, { status: 400, json: { code: 9999, data: '', message: 'paramError' } });
    const error = await client().generateAddressQrCode('abc', 'eth').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ reason: 'paramError', httpStatus: 400 });
  });

  it('a 404 answer (what a wrong path spelling gives) is refused as unexpectedResponse', async () => {
    fake.switches.publicAnswer.set(PATHS.generateAddressQrCode, { status: 404, json: {} });
    await expect(client().generateAddressQrCode('abc', 'eth')).rejects.toMatchObject({ failure: 'unexpectedResponse' });
  });
});
