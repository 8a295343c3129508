// Integration tests of callback verification (§10) with callbacks built by the fake platform: valid deposit and
// withdrawal callbacks are typed records; tampered, replayed, stale, foreign or malformed callbacks are refused.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inlineDecryptor } from '../../../electron/protocol/decryptor';
import { failureEnvelope, toEscapedJson } from '../../../electron/protocol/envelope';
import { ResponseVerificationError, type VerificationFailure } from '../../../electron/protocol/errors';
import { verifyCallback, type CallbackContext } from '../../../electron/protocol/verify';
import { NonceMemory } from '../../../electron/protocol/wire';
import { FakePlatform, type SignedMessage } from '../../support/fake-platform';

const NOW_MS = 1_900_000_000_000;
let fake: FakePlatform;
let context: CallbackContext;

const withdrawal = {
  businessType: 'withdraw',
  toAddress: 'EQD4FPq-PRDieyQKkizFTRtSDyucUIqrj0v_zXJmqaDp6_0t',
  amount: '12.5',
  currency: 'ton.usdt',
  fee: '0.2',
  apiOrder: 'W77',
  userOrder: 'wd-77',
  withdrawType: 'financialConfirmation',
  message: 'approved by finance',
  txid: 'b3f1/c2==',
  orderStatus: 'success',
};

beforeAll(async () => {
  fake = await FakePlatform.start({ clock: () => NOW_MS });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  context = {
    merchantId: fake.merchantId,
    platformPublicKey: fake.keys.platformPublicKey,
    decryptor: inlineDecryptor(fake.keys.merchantPrivateKey),
    nonceMemory: new NonceMemory(),
    clock: () => NOW_MS,
  };
});

async function refusal(message: SignedMessage): Promise<VerificationFailure> {
  const error = await verifyCallback(message.body, message.headers, context).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ResponseVerificationError);
  return (error as ResponseVerificationError).failure;
}

describe('valid callbacks', () => {
  it('a deposit callback yields the typed deposit record, unknown fields kept', async () => {
    const record = fake.depositRecord('D500', { confirmations: 20 });
    const message = fake.callback(record);
    expect(message.headers['content-type']).toBe('application/json');
    const verified = await verifyCallback(message.body, message.headers, context);
    expect(verified.type).toBe('deposit');
    expect(verified.record).toEqual(record);
  });

  it('a withdrawal callback yields the typed withdrawal record (escaped slashes restored)', async () => {
    const message = fake.callback(withdrawal);
    const verified = await verifyCallback(message.body, message.headers, context);
    expect(verified).toEqual({ type: 'withdraw', record: withdrawal });
    if (verified.type === 'withdraw') expect(verified.record.orderStatus).toBe('success');
  });

  it('accepts timestamps exactly 300 s off either way', async () => {
    for (const offset of [-300, 300]) {
      const message = fake.callback(withdrawal, { timestampOffsetSeconds: offset });
      await expect(verifyCallback(message.body, message.headers, context)).resolves.toMatchObject({ type: 'withdraw' });
    }
  });

  it('a redelivery (fresh nonce, same record) is accepted: deduplication is the receiver\'s job (§10.5)', async () => {
    const record = fake.depositRecord('D501');
    const first = fake.callback(record);
    const second = fake.callback(record);
    await expect(verifyCallback(first.body, first.headers, context)).resolves.toMatchObject({ type: 'deposit' });
    await expect(verifyCallback(second.body, second.headers, context)).resolves.toMatchObject({ type: 'deposit' });
  });
});

describe('over HTTP', () => {
  it('a receiver verifies the POST exactly as node:http presents it and acknowledges with "success"', async () => {
    const received: unknown[] = [];
    const receiver = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        verifyCallback(Buffer.concat(chunks).toString('utf8'), incoming.headers, context).then(
          (verified) => {
            received.push(verified);
            outgoing.writeHead(200, { 'content-type': 'text/plain' }).end('success');
          },
          (error: unknown) => outgoing.writeHead(400).end(String((error as ResponseVerificationError).failure)),
        );
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
    try {
      const message = fake.callback(fake.depositRecord('D800'));
      const upper = Object.fromEntries(Object.entries(message.headers).map(([name, value]) => [name.toUpperCase(), value]));
      const first = await request(url, { method: 'POST', headers: upper, body: message.body });
      expect(first.statusCode).toBe(200);
      expect(await first.body.text()).toBe('success');
      const replay = await request(url, { method: 'POST', headers: upper, body: message.body });
      expect(replay.statusCode).toBe(400);
      expect(await replay.body.text()).toBe('replayedNonce');
      expect(received).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe('refused callbacks', () => {
  it('tampered data', async () => {
    const message = fake.callback(withdrawal);
    const envelope = JSON.parse(message.body) as { code: number; data: string; message: string };
    const flipped = envelope.data.startsWith('A') ? `B${envelope.data.slice(1)}` : `A${envelope.data.slice(1)}`;
    expect(await refusal({ ...message, body: JSON.stringify({ ...envelope, data: flipped }) })).toBe('badSignature');
  });

  it('data re-encrypted by someone else under a reused signature', async () => {
    const genuine = fake.callback(withdrawal);
    const forged = fake.callback({ ...withdrawal, amount: '9999' });
    expect(await refusal({ body: forged.body, headers: { ...forged.headers, 'svc-sign': genuine.headers['svc-sign'] ?? '' } })).toBe('badSignature');
  });

  it('a replay of the same delivery (same nonce)', async () => {
    const message = fake.callback(fake.depositRecord('D600'));
    await verifyCallback(message.body, message.headers, context);
    expect(await refusal(message)).toBe('replayedNonce');
  });

  it.each([-301, 301])('a timestamp %i s off', async (offset) => {
    expect(await refusal(fake.callback(withdrawal, { timestampOffsetSeconds: offset }))).toBe('staleTimestamp');
  });

  it('another merchant ID, or none', async () => {
    expect(await refusal(fake.callback(withdrawal, { appId: 'M999999' }))).toBe('wrongAppId');
    const message = fake.callback(withdrawal);
    const { 'svc-app-id': _dropped, ...headers } = message.headers;
    expect(await refusal({ body: message.body, headers })).toBe('missingHeaders');
  });

  it('missing signature headers', async () => {
    const message = fake.callback(withdrawal);
    const { 'svc-nonce': _dropped, ...headers } = message.headers;
    expect(await refusal({ body: message.body, headers })).toBe('missingHeaders');
  });

  it('an extra envelope field', async () => {
    expect(await refusal(fake.callback(withdrawal, { extraField: true }))).toBe('malformedEnvelope');
  });

  it('a failure envelope (code 9999) is not a callback', async () => {
    const signed = fake.signEnvelope(failureEnvelope('whatever'));
    expect(await refusal({ body: signed.body, headers: { ...signed.headers, 'svc-app-id': fake.merchantId } })).toBe('unexpectedResponse');
  });

  it('an unknown businessType, or a record missing fields', async () => {
    expect(await refusal(fake.callback({ ...withdrawal, businessType: 'refund' }))).toBe('schemaMismatch');
    const { apiOrder: _apiOrder, ...incomplete } = fake.depositRecord('D700');
    expect(await refusal(fake.callback(incomplete))).toBe('schemaMismatch');
    expect(await refusal(fake.callback({ ...withdrawal, amount: 12.5 }))).toBe('schemaMismatch');
  });

  it('a body that is not an envelope', async () => {
    const message = fake.callback(withdrawal);
    expect(await refusal({ body: 'success', headers: message.headers })).toBe('malformedEnvelope');
    expect(await refusal({ body: toEscapedJson([1, 2]), headers: message.headers })).toBe('malformedEnvelope');
  });
});
