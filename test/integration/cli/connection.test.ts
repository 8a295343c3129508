// `treasury-desk connection` against the real sandbox and keychain: after its check the panel's facts (reachable, the
// merchant as the service names it, the token's lifetime and never the token, both fingerprints, a drift reading, sync
// freshness) in text and in --json, the same facts both ways; a service that cannot be reached and a whitelist refusal
// are told with why and since when; --no-check asks nothing and says so.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionAnswer } from '../../../electron/cli/commands/connection';
import { expectOk, json, openCliDesk, type CliDesk } from './support';

let desk: CliDesk;
let merchantId: string;

beforeAll(async () => {
  desk = await openCliDesk();
  expectOk(await desk.cli(['profile', 'import', desk.sandbox.credentialsPath, '--name', 'main']));
  merchantId = desk.sandbox.credentials.merchantId;
}, 120_000);

afterAll(async () => {
  await desk?.close();
});

/** No secret, private key or token in the output. */
function expectNoSecrets(text: string): void {
  const credentials = desk.sandbox.credentials;
  expect(text).not.toContain(credentials.secret);
  const body = credentials.merchantPrivateKey.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  expect(text).not.toContain(body.slice(0, 40));
  // A session token is 43 characters of base64url (PROTOCOL §6.2); nothing of that shape belongs here.
  expect(text).not.toMatch(/[A-Za-z0-9_-]{43}/);
}

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('treasury-desk connection', () => {
  it('--json: after the check, reachable, the merchant, the token lifetime, fingerprints, a drift reading and sync freshness', async () => {
    const before = Date.now();
    const run = expectOk(await desk.cli(['connection', '--json']));
    const answer = json<ConnectionAnswer>(run);
    expect(answer).toMatchObject({
      checked: true,
      profile: 'main',
      baseUrl: desk.sandbox.credentials.baseUrl,
      merchantId,
      apiVersion: 2,
      connection: { online: true, reason: null },
      lastWhitelistRefusal: null,
    });
    expect(answer.merchantName).toEqual(expect.any(String));
    expect(answer.connection.lastContactAt).toBeGreaterThanOrEqual(before);
    expect(answer.token).not.toBeNull();
    expect(answer.token!.issuedAt).toBeGreaterThanOrEqual(before);
    expect(answer.token!.expiresAt).toBeGreaterThan(answer.token!.issuedAt);
    expect(answer.platformKeyFingerprint).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    expect(answer.merchantKeyFingerprint).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    expect(answer.platformKeyFingerprint).not.toBe(answer.merchantKeyFingerprint);
    expect(answer.clockDrift.at(-1)).toMatchObject({ source: 'selfcheck' });
    expect(answer.clockDrift.at(-1)!.measuredAt).toBeGreaterThanOrEqual(before);
    expect(answer.sync.map((state) => state.resource).sort()).toEqual(['balances', 'currencies', 'deposits', 'withdrawals']);
    expectNoSecrets(run.stdout);
  });

  it('text: the same facts for people, in the reporting zone, and the drift and sync tables', async () => {
    expectOk(await desk.cli(['sync']));
    const run = expectOk(await desk.cli(['connection']));
    const answer = json<ConnectionAnswer>(expectOk(await desk.cli(['connection', '--json', '--no-check'])));
    const text = run.stdout;
    expect(text).toMatch(/^profile {17}main$/m);
    expect(text).toContain(`service                 ${desk.sandbox.credentials.baseUrl}\n`);
    expect(text).toContain(`merchant                ${answer.merchantName ?? ''} (${merchantId})\n`);
    expect(text).toMatch(/^API version {13}2$/m);
    expect(text).toMatch(/^connection {14}reachable; last verified answer \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/m);
    expect(text).toMatch(/^session token {11}issued \d{4}-[^;]+ ago\); expires in about \d+ h \d+ min, \d{4}-\d{2}-\d{2} [^ ]+ \(estimated: 8 h after its last use, at most 24 h after issue\)$/m);
    expect(text).toContain(`platform key            ${answer.platformKeyFingerprint ?? 'missing'}\n`);
    expect(text).toContain(`merchant key            ${answer.merchantKeyFingerprint ?? 'missing'}\n`);
    expect(text).toMatch(/^last whitelist refusal {2}never$/m);
    expect(text).toMatch(/^clock drift {13}the service's clock is \d+ s (?:ahead of|behind) this computer \(fine\)$/m);
    const readings = answer.clockDrift.length;
    expect(readings).toBeGreaterThanOrEqual(2);
    expect(text).toContain(`\nclock drift readings, the ${Math.min(10, readings)} newest of ${readings} (positive: this computer's clock is behind; --json lists all):\n`);
    expect(text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z +selfcheck +-?\d+$/m);
    // The sync just run shows as each resource's last success.
    for (const resource of ['balances', 'currencies', 'deposits', 'withdrawals']) expect(text).toMatch(new RegExp(`^${resource} +\\d{4}-\\d{2}-\\d{2} [^ ]+Z +\\d{4}-`, 'm'));
    expectNoSecrets(text);
  });

  it('--no-check asks nothing: no token in this run, and reachability is not claimed', async () => {
    const answer = json<ConnectionAnswer>(expectOk(await desk.cli(['connection', '--json', '--no-check'])));
    expect(answer).toMatchObject({ checked: false, token: null, connection: { lastContactAt: null } });
    const text = expectOk(await desk.cli(['connection', '--no-check'])).stdout;
    expect(text).toMatch(/^connection {14}not checked in this run \(run without --no-check to ask the service\)$/m);
    expect(text).toMatch(/^session token {11}none held in this run: the next request to the service asks for one$/m);
  });

  it('a service that cannot be reached: not reachable, why and since when, with no token', async () => {
    const credentials = JSON.parse(readFileSync(desk.sandbox.credentialsPath, 'utf8')) as Record<string, unknown>;
    const path = join(desk.dir, 'unreachable.json');
    writeFileSync(path, JSON.stringify({ ...credentials, baseUrl: `http://127.0.0.1:${await closedPort()}` }), { mode: 0o600 });
    expectOk(await desk.cli(['profile', 'import', path, '--name', 'unreachable']));
    const before = Date.now();
    const answer = json<ConnectionAnswer>(expectOk(await desk.cli(['--profile', 'unreachable', 'connection', '--json'])));
    expect(answer).toMatchObject({ checked: true, profile: 'unreachable', token: null, connection: { online: false, reason: 'network' } });
    expect(answer.connection.since).toBeGreaterThanOrEqual(before);
    expect(answer.connection.message).toMatch(/cannot be reached/);
    const text = expectOk(await desk.cli(['--profile', 'unreachable', 'connection'])).stdout;
    expect(text).toMatch(/^connection {14}not reachable since \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z \(network\): the service cannot be reached: .+Check the network connection\.$/m);
  });

  it('a whitelist refusal: not reachable (notWhitelisted), and the refusal with its time and endpoint, kept for later runs', async () => {
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { ipWhitelist: ['10.0.0.0/8'] })).status).toBe(200);
    const before = Date.now();
    try {
      const answer = json<ConnectionAnswer>(expectOk(await desk.cli(['connection', '--json'])));
      expect(answer.connection).toMatchObject({ online: false, reason: 'notWhitelisted' });
      expect(answer.lastWhitelistRefusal).toMatchObject({ endpoint: 'getToken' });
      expect(answer.lastWhitelistRefusal!.refusedAt).toBeGreaterThanOrEqual(before);
    } finally {
      expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { ipWhitelist: ['127.0.0.0/8', '::1/128'] })).status).toBe(200);
    }
    const text = expectOk(await desk.cli(['connection'])).stdout;
    expect(text).toMatch(/^connection {14}reachable; /m);
    expect(text).toMatch(
      /^last whitelist refusal {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z on getToken: the service answered "Oops", so this workstation's public IP address was not on the merchant's whitelist then$/m,
    );
  });
});
