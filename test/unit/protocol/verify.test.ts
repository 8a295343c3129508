// Unit tests of openSignedEnvelope (§3.3, §4): strict envelope, headers, ±300 s window, nonce format and replay,
// signature before nonce memory, decryption and schema validation; nothing unverified is returned.
import { generateKeyPairSync } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encryptBytes, encryptJson } from '../../../electron/protocol/cipher';
import { inlineDecryptor } from '../../../electron/protocol/decryptor';
import { failureEnvelope, successEnvelope, toEscapedJson, type Envelope } from '../../../electron/protocol/envelope';
import { NotWhitelistedError, ResponseVerificationError, ServiceError, type VerificationFailure } from '../../../electron/protocol/errors';
import { merchantInfoSchema } from '../../../electron/protocol/schemas';
import { signText, signingInput } from '../../../electron/protocol/signature';
import {
  openSignedEnvelope,
  readBusinessResponse,
  signatureHeadersFrom,
  type SignatureHeaders,
  type VerifyContext,
} from '../../../electron/protocol/verify';
import { NonceMemory } from '../../../electron/protocol/wire';
import { intakeTracing, type IntakeTrace } from '../../../electron/protocol/intake-tracing';

const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const NOW = 1_800_000_000;
const pointSchema = z.looseObject({ x: z.int(), label: z.string() });

let context: VerifyContext;
let nonceMemory: NonceMemory;
let nonceCounter = 0;

beforeEach(() => {
  nonceMemory = new NonceMemory();
  context = {
    platformPublicKey: platform.publicKey,
    decryptor: inlineDecryptor(merchant.privateKey),
    nonceMemory,
    clock: () => NOW * 1000 + 400,
  };
});

function freshNonce(): string {
  nonceCounter += 1;
  return `n${String(nonceCounter).padStart(31, '0')}`;
}

function signed(envelope: Envelope, options: { offset?: number; nonce?: string; timestamp?: string } = {}) {
  const timestamp = options.timestamp ?? String(NOW + (options.offset ?? 0));
  const nonce = options.nonce ?? freshNonce();
  const sign = signText(signingInput(timestamp, nonce, envelope.data), platform.privateKey);
  const headers: SignatureHeaders = { timestamp, nonce, sign };
  return { body: toEscapedJson(envelope), headers };
}

function success(value: unknown): Envelope {
  return successEnvelope(encryptJson(value, merchant.publicKey));
}

async function refusal(promise: Promise<unknown>): Promise<VerificationFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ResponseVerificationError);
  return (error as ResponseVerificationError).failure;
}

describe('openSignedEnvelope', () => {
  it('returns the validated value of a genuine success envelope (escaped slashes restored by the JSON parser)', async () => {
    const { body, headers } = signed(success({ x: 7, label: 'a/b', extra: true }));
    expect(body).toContain('\\/');
    const opened = await openSignedEnvelope('test', body, headers, pointSchema, context);
    expect(opened).toMatchObject({ ok: true, value: { x: 7, label: 'a/b', extra: true } });
  });

  it('returns a verified failure envelope without decrypting', async () => {
    const { body, headers } = signed(failureEnvelope('limitError'));
    const opened = await openSignedEnvelope('test', body, headers, pointSchema, context);
    expect(opened).toEqual({ ok: false, envelope: { code: 9999, data: '', message: 'limitError' } });
  });

  it.each([
    ['not JSON', 'Oops'],
    ['an array', '[]'],
    ['an extra field', JSON.stringify({ code: 10000, data: 'x', message: 'ok', extra: 1 })],
    ['a missing field', JSON.stringify({ code: 10000, data: 'x' })],
    ['a string code', JSON.stringify({ code: '10000', data: 'x', message: 'ok' })],
    ['an unknown code', JSON.stringify({ code: 200, data: 'x', message: 'ok' })],
    ['a failure with data', JSON.stringify({ code: 9999, data: 'x', message: 'limitError' })],
  ])('refuses %s as malformedEnvelope', async (_label, body) => {
    const { headers } = signed(successEnvelope('x'));
    expect(await refusal(openSignedEnvelope('test', body, headers, pointSchema, context))).toBe('malformedEnvelope');
  });

  it('refuses missing headers', async () => {
    const { body, headers } = signed(success({ x: 1, label: '' }));
    for (const key of ['timestamp', 'nonce', 'sign'] as const) {
      const partial = { ...headers, [key]: undefined };
      expect(await refusal(openSignedEnvelope('test', body, partial, pointSchema, context))).toBe('missingHeaders');
    }
  });

  it('treats a repeated header as missing', () => {
    const picked = signatureHeadersFrom({ 'svc-timestamp': ['1', '2'], 'svc-nonce': 'n', 'svc-sign': 's' });
    expect(picked).toEqual({ timestamp: undefined, nonce: 'n', sign: 's' });
  });

  it.each(['', '-1', '1.5', ' 1800000000', '1800000000 ', 'abc', '18000000001234'])('refuses timestamp %j as badTimestamp', async (timestamp) => {
    const { body, headers } = signed(success({ x: 1, label: '' }), { timestamp });
    expect(await refusal(openSignedEnvelope('test', body, headers, pointSchema, context))).toBe('badTimestamp');
  });

  it.each([-300, 300, 0])('accepts a timestamp %i s from the local clock', async (offset) => {
    const { body, headers } = signed(success({ x: 1, label: '' }), { offset });
    expect((await openSignedEnvelope('test', body, headers, pointSchema, context)).ok).toBe(true);
  });

  it.each([-301, 301, -86_400])('refuses a timestamp %i s from the local clock as staleTimestamp', async (offset) => {
    const { body, headers } = signed(success({ x: 1, label: '' }), { offset });
    expect(await refusal(openSignedEnvelope('test', body, headers, pointSchema, context))).toBe('staleTimestamp');
  });

  it.each(['short', 'a'.repeat(65), 'has space in it 1234', 'ünïcödé-nonce-123456'])('refuses nonce %j as badNonce', async (nonce) => {
    const { body, headers } = signed(success({ x: 1, label: '' }), { nonce });
    expect(await refusal(openSignedEnvelope('test', body, headers, pointSchema, context))).toBe('badNonce');
  });

  it('refuses a replayed answer (same nonce twice)', async () => {
    const { body, headers } = signed(success({ x: 1, label: '' }));
    await openSignedEnvelope('test', body, headers, pointSchema, context);
    expect(await refusal(openSignedEnvelope('test', body, headers, pointSchema, context))).toBe('replayedNonce');
  });

  it('refuses a replayed failure envelope too', async () => {
    const { body, headers } = signed(failureEnvelope('tokenExpired'));
    await openSignedEnvelope('test', body, headers, pointSchema, context);
    expect(await refusal(openSignedEnvelope('test', body, headers, pointSchema, context))).toBe('replayedNonce');
  });

  it('refuses altered data, an altered timestamp and a foreign signer as badSignature', async () => {
    const original = success({ x: 1, label: '' });
    const { headers } = signed(original);
    const other = success({ x: 2, label: '' });
    expect(await refusal(openSignedEnvelope('test', toEscapedJson(other), headers, pointSchema, context))).toBe('badSignature');

    const moved = signed(original);
    const shifted = { ...moved.headers, timestamp: String(NOW + 1) };
    expect(await refusal(openSignedEnvelope('test', moved.body, shifted, pointSchema, context))).toBe('badSignature');

    const nonce = freshNonce();
    const foreign = signText(signingInput(String(NOW), nonce, original.data), stranger.privateKey);
    const forged = { timestamp: String(NOW), nonce, sign: foreign };
    expect(await refusal(openSignedEnvelope('test', toEscapedJson(original), forged, pointSchema, context))).toBe('badSignature');
  });

  it('a forged answer does not poison the nonce memory: the genuine one with that nonce still passes', async () => {
    const nonce = freshNonce();
    const genuine = signed(success({ x: 1, label: '' }), { nonce });
    const forgedHeaders = { ...genuine.headers, sign: signText('garbage', stranger.privateKey) };
    expect(await refusal(openSignedEnvelope('test', genuine.body, forgedHeaders, pointSchema, context))).toBe('badSignature');
    expect(nonceMemory.size).toBe(0);
    expect((await openSignedEnvelope('test', genuine.body, genuine.headers, pointSchema, context)).ok).toBe(true);
  });

  it('refuses data encrypted to another key, or not JSON, as decryptFailed', async () => {
    const wrongKey = signed(successEnvelope(encryptJson({ x: 1 }, stranger.publicKey)));
    expect(await refusal(openSignedEnvelope('test', wrongKey.body, wrongKey.headers, pointSchema, context))).toBe('decryptFailed');
    const notJson = signed(successEnvelope(encryptBytes(Buffer.from('not json'), merchant.publicKey)));
    expect(await refusal(openSignedEnvelope('test', notJson.body, notJson.headers, pointSchema, context))).toBe('decryptFailed');
    const empty = signed(successEnvelope(''));
    expect(await refusal(openSignedEnvelope('test', empty.body, empty.headers, pointSchema, context))).toBe('decryptFailed');
  });

  it('refuses data of the wrong shape as schemaMismatch and never returns it', async () => {
    const { body, headers } = signed(success({ x: 'seven', label: 'SENSITIVE' }));
    const error = await openSignedEnvelope('test', body, headers, pointSchema, context).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ failure: 'schemaMismatch' });
    expect(String((error as Error).message)).not.toContain('SENSITIVE');
  });
});

describe('the intake tracing channel', () => {
  it('traces the inline decryption and then the parse and schema check of an answer as synchronous steps, refusals included', async () => {
    const events: string[] = [];
    const handlers = {
      start: (trace: IntakeTrace) => events.push(`start ${trace.stage}`),
      end: (trace: IntakeTrace) => events.push(`end ${trace.stage}`),
      asyncStart: () => undefined,
      asyncEnd: () => undefined,
      error: (trace: IntakeTrace) => events.push(`error ${trace.stage}`),
    };
    intakeTracing.subscribe(handlers);
    try {
      const good = signed(success({ x: 1, label: 'ok' }));
      await openSignedEnvelope('test', good.body, good.headers, pointSchema, context);
      expect(events).toEqual(['start decrypt', 'end decrypt', 'start validate', 'end validate']);
      const failure = signed(failureEnvelope('limitError'));
      await openSignedEnvelope('test', failure.body, failure.headers, pointSchema, context);
      expect(events).toHaveLength(4); // nothing decrypted, nothing to validate
      const wrongShape = signed(success({ x: 'one' }));
      expect(await refusal(openSignedEnvelope('test', wrongShape.body, wrongShape.headers, pointSchema, context))).toBe('schemaMismatch');
      expect(events.slice(4)).toEqual(['start decrypt', 'end decrypt', 'start validate', 'error validate', 'end validate']);
    } finally {
      intakeTracing.unsubscribe(handlers);
    }
    const after = signed(success({ x: 2, label: 'unwatched' }));
    await openSignedEnvelope('test', after.body, after.headers, pointSchema, context);
    expect(events).toHaveLength(9);
  });
});

describe('readBusinessResponse', () => {
  const response = (status: number, body: string, headers: Record<string, string> = {}) => ({ status, headers, body: Buffer.from(body) });

  it('maps Oops to NotWhitelistedError', async () => {
    await expect(readBusinessResponse('merchantInfo', response(403, 'Oops'), merchantInfoSchema, context)).rejects.toBeInstanceOf(NotWhitelistedError);
  });

  it('maps 413 to ServiceError(requestTooLarge)', async () => {
    const error = await readBusinessResponse('selfcheck', response(413, toEscapedJson(failureEnvelope('requestTooLarge'))), merchantInfoSchema, context).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ reason: 'requestTooLarge', httpStatus: 413 });
  });

  it('maps a verified 9999 to ServiceError with the raw envelope, unknown messages verbatim', async () => {
    const { body, headers } = signed(failureEnvelope('brandNewReason'));
    const error = await readBusinessResponse(
      'merchantInfo',
      response(200, body, { 'svc-timestamp': headers.timestamp ?? '', 'svc-nonce': headers.nonce ?? '', 'svc-sign': headers.sign ?? '' }),
      merchantInfoSchema,
      context,
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: 'brandNewReason', known: false, envelope: { code: 9999, data: '', message: 'brandNewReason' } });
  });

  it('refuses other statuses as unexpectedResponse', async () => {
    await expect(readBusinessResponse('merchantInfo', response(404, ''), merchantInfoSchema, context)).rejects.toMatchObject({
      failure: 'unexpectedResponse',
    });
  });
});
