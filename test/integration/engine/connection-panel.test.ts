// The connection panel and the dashboard's history against the real sandbox: fingerprints equal openssl's SHA-256 of
// each key's DER SPKI (the merchant's derived from its private key), the token shows only its lifetime, selfcheck and
// verified answers leave clock drift readings, an `Oops` is recorded with its time and survives a restart, each
// resource's sync freshness is there, and no answer carries the secret, a private key or a token. balances/history
// answers a currency's snapshots as exact strings and refuses a backwards period or an unknown currency.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionPanelView } from '../../../electron/contract';
import { makeTempDir, openssl, type TempDir } from '../../support/openssl';
import { openDesk, type Desk } from './support';

let desk: Desk;
let keys: TempDir;
let merchantId: string;

beforeAll(async () => {
  desk = await openDesk();
  keys = makeTempDir();
  merchantId = desk.sandbox.credentials.merchantId;
});
afterAll(async () => {
  keys?.remove();
  await desk?.close();
});

/**
 * The fingerprint as the README ("Key fingerprints") tells a person to compute it with openssl and coreutils: the first 10 bytes of
 * the DER SPKI's SHA-256 in base32, in groups of 4 (the desk's one fingerprint format).
 */
function opensslFingerprint(spkiDer: Buffer): string {
  const digest = openssl(['dgst', '-sha256', '-binary'], spkiDer).subarray(0, 10);
  const code = execFileSync('base32', [], { input: digest }).toString('utf8').trim();
  return code.match(/.{4}/g)!.join('-');
}

/** No secret the desk holds appears anywhere in an answer. */
function expectNoSecrets(answer: unknown): void {
  const text = JSON.stringify(answer);
  const credentials = desk.sandbox.credentials;
  expect(text).not.toContain(credentials.secret);
  for (const pem of [credentials.merchantPrivateKey, credentials.platformPublicKey]) {
    const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    expect(text).not.toContain(body.slice(0, 40));
  }
  // A session token is 43 characters of base64url (§6.2); nothing of that shape belongs in the panel.
  expect(text).not.toMatch(/[A-Za-z0-9_-]{43}/);
}

describe('connection/panel', () => {
  it('shows the profile, both fingerprints as openssl computes them, and nothing measured before any call', async () => {
    const credentials = JSON.parse(readFileSync(desk.sandbox.credentialsPath, 'utf8')) as { platformPublicKey: string; merchantPrivateKey: string };
    const platformPem = keys.write('platform.pem', credentials.platformPublicKey);
    const privatePem = keys.write('merchant.pem', credentials.merchantPrivateKey);
    const platformDer = openssl(['pkey', '-pubin', '-in', platformPem, '-outform', 'DER']);
    const merchantDer = openssl(['pkey', '-in', privatePem, '-pubout', '-outform', 'DER']);

    const panel = await desk.value('connection/panel', {});
    expect(panel).toMatchObject({
      profile: 'main',
      baseUrl: desk.sandbox.credentials.baseUrl,
      merchantId,
      merchantName: null,
      apiVersion: null,
      token: null,
      clockDrift: [],
      lastWhitelistRefusal: null,
    });
    expect(panel.platformKeyFingerprint).toBe(opensslFingerprint(platformDer));
    expect(panel.merchantKeyFingerprint).toBe(opensslFingerprint(merchantDer));
    expect(panel.platformKeyFingerprint).not.toBe(panel.merchantKeyFingerprint);
    expect(panel.sync.map((state) => state.resource).sort()).toEqual(['balances', 'currencies', 'deposits', 'withdrawals']);
    expect(panel.sync.every((state) => state.lastSuccessAt === null)).toBe(true);
    expectNoSecrets(panel);
  });

  it('after selfcheck and a sync: the merchant, the token lifetime, the drift readings and the sync freshness', async () => {
    expect((await desk.admin('POST', '/clock', { offsetSeconds: 100 })).status).toBe(200);
    const before = Date.now();
    const selfcheck = await desk.value('selfcheck/run', {});
    expect(selfcheck.ok).toBe(true);
    await desk.value('sync/run', {});
    const panel: ConnectionPanelView = await desk.value('connection/panel', {});
    const after = Date.now();
    expect(panel.merchantName).not.toBeNull();
    expect(panel.apiVersion).toBe(2);
    expect(panel.merchantInfoAt).toBeGreaterThanOrEqual(before);
    const token = panel.token;
    expect(token).not.toBeNull();
    expect(token!.issuedAt).toBeGreaterThanOrEqual(before);
    expect(token!.lastAcceptedAt).toBeGreaterThanOrEqual(token!.issuedAt);
    expect(token!.lastAcceptedAt).toBeLessThanOrEqual(after);
    // §6.3: eight hours after the last accepted request, well inside the 24 h cap of a fresh token.
    expect(token!.expiresAt).toBe(token!.lastAcceptedAt! + 8 * 3_600_000);
    const selfchecks = panel.clockDrift.filter((reading) => reading.source === 'selfcheck');
    expect(selfchecks).toHaveLength(1);
    expect(Math.abs(selfchecks[0]!.driftSeconds - 100)).toBeLessThanOrEqual(2);
    // Answers are read once a minute at most: the many requests of a sync left one reading, not one each.
    const responses = panel.clockDrift.filter((reading) => reading.source === 'response');
    expect(responses).toHaveLength(1);
    expect(Math.abs(responses[0]!.driftSeconds - 100)).toBeLessThanOrEqual(2);
    for (const state of panel.sync) expect(state.lastSuccessAt, state.resource).toBeGreaterThanOrEqual(before);
    expect(panel.connection.online).toBe(true);
    expectNoSecrets(panel);
    expect((await desk.admin('POST', '/clock', { offsetSeconds: 0 })).status).toBe(200);
  });

  it('records the last Oops with its time and endpoint, kept across a restart', async () => {
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { ipWhitelist: ['10.0.0.0/8'] })).status).toBe(200);
    const before = Date.now();
    expect(await desk.call('sync/run', {})).toMatchObject({ ok: false, error: { code: 'notWhitelisted' } });
    const panel = await desk.value('connection/panel', {});
    expect(panel.connection).toMatchObject({ online: false, reason: 'notWhitelisted' });
    expect(panel.lastWhitelistRefusal?.refusedAt).toBeGreaterThanOrEqual(before);
    expect(panel.lastWhitelistRefusal?.endpoint).toMatch(/^[A-Za-z]+$/);
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { ipWhitelist: ['127.0.0.0/8', '::1/128'] })).status).toBe(200);
    await desk.value('sync/run', {});

    const reopened = await desk.reopen();
    const result = await reopened.handlers['connection/panel']({});
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.lastWhitelistRefusal).toEqual(panel.lastWhitelistRefusal);
      expect(result.value.clockDrift.length).toBeGreaterThanOrEqual(2);
      // A new run holds no token until it makes a call.
      expect(result.value.token).toBeNull();
    }
  });
});

describe('balances/history', () => {
  it('answers each change of a currency as exact strings, oldest first, within the period asked', async () => {
    const start = Date.now();
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'bnb.usdt': '1.000000000000000001' } })).status).toBe(200);
    await desk.value('sync/run', {});
    const middle = Date.now();
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'bnb.usdt': '2.5' } })).status).toBe(200);
    await desk.value('sync/run', {});
    const history = await desk.value('balances/history', { currency: 'bnb.usdt' });
    expect(history.truncated).toBe(false);
    const recent = history.points.filter((point) => point.observedAt >= start).map((point) => point.available);
    expect(recent).toEqual(['1.000000000000000001', '2.5']);
    const totals = await desk.value('balances/totals', {});
    expect(totals.assets.find((asset) => asset.asset === 'USDT')?.currencies.find((share) => share.currency === 'bnb.usdt')?.available).toBe('2.5');
    // From the middle: the balance in force then (the first change), then the second.
    const fromMiddle = await desk.value('balances/history', { currency: 'bnb.usdt', from: middle });
    expect(fromMiddle.points.map((point) => point.available)).toEqual(['1.000000000000000001', '2.5']);
    const beforeStart = await desk.value('balances/history', { currency: 'bnb.usdt', from: 0, to: start });
    expect(beforeStart.points.map((point) => point.available)).not.toContain('2.5');
  });

  it('refuses a backwards period and a currency nobody knows, saying what to do', async () => {
    const backwards = await desk.call('balances/history', { currency: 'trx', from: 10, to: 5 });
    expect(backwards).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    if (!backwards.ok) expect(backwards.error.message).toMatch(/from < to/);
    const unknown = await desk.call('balances/history', { currency: 'nope.coin' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    if (!unknown.ok) expect(unknown.error.message).toMatch(/run a sync/);
  });
});
