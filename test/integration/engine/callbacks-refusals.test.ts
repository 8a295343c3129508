// The callback listener's list of refused callbacks (issue 22, part 2) on the real engine and a real listener on
// loopback: POSTs that fail for different checks (bad signature, replayed nonce, stale timestamp, oversize, not JSON,
// wrong shape, another merchant ID) each appear with the right code, status and source, newest first, with counts
// per code; a reason carrying a sender's bidi character is kept as received (the faces escape it); and after more
// refusals than CALLBACK_REFUSALS_KEPT the list holds exactly that many while the counts keep every one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_REFUSALS_KEPT, type CallbackRefusalCode } from '../../../electron/contract';
import { MAX_REQUEST_BODY_BYTES } from '../../../electron/protocol/profile';
import { rawRequest } from '../../support/raw-merchant';
import { buildCallback, callbackKeys, postCallback, tamperData, waitFor, type CallbackKeys } from './fixtures/callbacks';
import { SandboxState } from './fixtures/sandbox-state';
import { openDesk, type Desk } from './support';

let desk: Desk;
let keys: CallbackKeys;
let listenerUrl: string;

beforeAll(async () => {
  desk = await openDesk();
  const state = new SandboxState(desk.sandbox.dataDir);
  try {
    keys = callbackKeys(desk.sandbox.credentials.merchantId, desk.sandbox.credentials.merchantPrivateKey, state.platformPrivateKey());
  } finally {
    state.close();
  }
  listenerUrl = (await desk.value('callbacks/start', { host: '127.0.0.1', port: 0 })).url ?? '';
}, 60_000);
afterAll(async () => desk?.close());

/** A record the schema refuses: it verifies and decrypts, then fails validation (so its nonce is remembered). */
const WRONG_SHAPE = { businessType: 'deposit', note: 'not a deposit record' };

describe('refused callbacks', () => {
  it('are listed newest first with the check that refused each, its status, source and reason, and counted per check', async () => {
    expect(await desk.value('callbacks/refusals', {})).toEqual({ refusals: [], counts: [], total: 0, kept: CALLBACK_REFUSALS_KEPT });
    const sent: CallbackRefusalCode[] = [];

    expect(await postCallback(listenerUrl, tamperData(buildCallback(keys, WRONG_SHAPE)))).toEqual({ status: 400, text: 'refused' });
    sent.push('badSignature');

    const once = buildCallback(keys, WRONG_SHAPE);
    expect(await postCallback(listenerUrl, once)).toEqual({ status: 400, text: 'refused' });
    sent.push('schemaMismatch');
    expect(await postCallback(listenerUrl, once)).toEqual({ status: 400, text: 'refused' });
    sent.push('replayedNonce');

    expect(await postCallback(listenerUrl, buildCallback(keys, WRONG_SHAPE, { skewSeconds: -360 }))).toEqual({ status: 400, text: 'refused' });
    sent.push('staleTimestamp');

    // Oversize: the listener stops reading and may close the socket before the client has sent it all.
    const oversize = await rawRequest(listenerUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'x'.repeat(MAX_REQUEST_BODY_BYTES + 1) }).catch(() => null);
    if (oversize !== null) expect(oversize.status).toBe(413);
    await waitFor('the oversize refusal', async () => ((await desk.value('callbacks/state', {})).refused === sent.length + 1 ? true : undefined));
    sent.push('bodyTooLarge');

    const signedHeaders = buildCallback(keys, WRONG_SHAPE).headers;
    expect(await postCallback(listenerUrl, { headers: signedHeaders, body: 'this is not JSON' })).toEqual({ status: 400, text: 'refused' });
    sent.push('malformedEnvelope');

    // A field name the sender chose, with a right-to-left override, is echoed in the verifier's message.
    expect(await postCallback(listenerUrl, { headers: signedHeaders, body: '{"evil\u202Eelif": 1}' })).toEqual({ status: 400, text: 'refused' });
    sent.push('malformedEnvelope');

    expect(await postCallback(listenerUrl, buildCallback(keys, WRONG_SHAPE, { appId: '1234567890' }))).toEqual({ status: 400, text: 'refused' });
    sent.push('wrongAppId');

    const view = await desk.value('callbacks/refusals', {});
    expect(view.total).toBe(sent.length);
    expect(view.refusals.map((refusal) => refusal.code)).toEqual(sent.toReversed());
    const times = view.refusals.map((refusal) => refusal.at);
    expect(times).toEqual(times.toSorted((a, b) => b - a));
    for (const refusal of view.refusals) {
      expect(refusal.source).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
      expect(refusal.status).toBe(refusal.code === 'bodyTooLarge' ? 413 : 400);
      expect(refusal.reason.length).toBeGreaterThan(0);
    }
    expect(view.refusals.find((refusal) => refusal.code === 'badSignature')?.reason).toMatch(/signature does not verify/);
    expect(view.refusals.find((refusal) => refusal.code === 'replayedNonce')?.reason).toMatch(/repeated nonce/);
    expect(view.refusals.find((refusal) => refusal.code === 'staleTimestamp')?.reason).toMatch(/behind this computer's clock/);
    expect(view.refusals[1]?.reason).toContain('evil\u202Eelif');
    expect(view.counts).toEqual([
      { code: 'bodyTooLarge', count: 1 },
      { code: 'malformedEnvelope', count: 2 },
      { code: 'wrongAppId', count: 1 },
      { code: 'staleTimestamp', count: 1 },
      { code: 'badSignature', count: 1 },
      { code: 'replayedNonce', count: 1 },
      { code: 'schemaMismatch', count: 1 },
    ]);
  });

  it(`keep at most ${CALLBACK_REFUSALS_KEPT} under a flood (rate-limited ones included), while the counts keep every refusal`, async () => {
    const before = await desk.value('callbacks/refusals', {});
    const flood = CALLBACK_REFUSALS_KEPT + 50;
    const answers = await Promise.all(
      Array.from({ length: flood }, (_, index) => rawRequest(listenerUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: `junk ${index}` })),
    );
    expect(answers.every((answer) => answer.status === 400 || answer.status === 429)).toBe(true);
    const after = await desk.value('callbacks/refusals', {});
    expect(after.refusals).toHaveLength(CALLBACK_REFUSALS_KEPT);
    expect(after.total).toBe(before.total + flood);
    expect((await desk.value('callbacks/state', {})).refused).toBe(after.total);
    expect(after.counts.reduce((sum, entry) => sum + entry.count, 0)).toBe(after.total);
    const limited = answers.filter((answer) => answer.status === 429).length;
    expect(limited).toBeGreaterThan(0);
    expect(after.counts.find((entry) => entry.code === 'rateLimited')?.count).toBe(limited);
    expect(after.refusals.filter((refusal) => refusal.code === 'rateLimited').every((refusal) => refusal.status === 429)).toBe(true);
    // The refusals of the first test fell off the end of the list.
    expect(after.refusals.some((refusal) => refusal.code === 'wrongAppId')).toBe(false);
  });
});
