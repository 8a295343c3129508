// The update check (electron/main/updates/release-check.ts) against a release server on loopback: a good release signed
// by scripts/sign-release.mjs is found, downloaded and verified; a bad signature, a downgrade, an equal version, a
// truncated or altered download and a stalled server are each refused with what to do, and change nothing.
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReleaseUpdates, type ReleaseLimits } from '../../electron/main/updates/release-check';
import { compareReleaseVersions, parseReleaseVersion } from '../../electron/main/updates/release-version';

const METADATA = 'latest-linux.yml';
const FILE = 'Treasury-Desk-1.3.0.AppImage';
const PAYLOAD = Buffer.from('pretend AppImage '.repeat(4096));

interface Route {
  readonly body?: Buffer;
  /** Sends the headers and this many bytes, then stops answering. */
  readonly stallAfter?: number;
  /** Declares the full length but ends the body early. */
  readonly cutAt?: number;
}

let folder: string;
let server: Server;
let base: string;
let routes: Map<string, Route>;
let privateKey: KeyObject;
let publicKey: KeyObject;
const requests: string[] = [];

function metadataFor(version: string, payload: Buffer, notes = 'Fixes the <b>batch</b> screen'): Buffer {
  const sha512 = createHash('sha512').update(payload).digest('base64');
  return Buffer.from(
    [
      `version: ${version}`,
      'files:',
      `  - url: ${FILE}`,
      `    sha512: ${sha512}`,
      `    size: ${payload.length}`,
      `path: ${FILE}`,
      `sha512: ${sha512}`,
      `releaseDate: '2026-11-27T10:00:00.000Z'`,
      `releaseNotes: ${JSON.stringify(notes)}`,
      '',
    ].join('\n'),
  );
}

function serve(version: string, payload = PAYLOAD, signWith = privateKey): Buffer {
  const metadata = metadataFor(version, payload);
  routes.set(`/${METADATA}`, { body: metadata });
  routes.set(`/${METADATA}.sig`, { body: Buffer.from(`${sign(null, metadata, signWith).toString('base64')}\n`) });
  routes.set(`/${FILE}`, { body: payload });
  return metadata;
}

function updates(limits: Partial<ReleaseLimits> = {}, currentVersion = '1.2.0'): ReleaseUpdates {
  return new ReleaseUpdates({ feedUrl: base, metadataFile: METADATA, currentVersion, downloadFolder: join(folder, 'pending'), releaseKey: publicKey, limits });
}

function downloaded(): string[] {
  const pending = join(folder, 'pending');
  return existsSync(pending) ? readdirSync(pending) : [];
}

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'release-updates-'));
  ({ privateKey, publicKey } = generateKeyPairSync('ed25519'));
  routes = new Map();
  requests.length = 0;
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const route = routes.get(request.url ?? '');
    if (route?.body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-length': String(route.body.length) });
    if (route.stallAfter !== undefined) {
      response.write(route.body.subarray(0, route.stallAfter));
      return; // never ends: the client's time bound must end it
    }
    if (route.cutAt !== undefined) {
      response.write(route.body.subarray(0, route.cutAt), () => response.destroy());
      return;
    }
    response.end(route.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
  rmSync(folder, { recursive: true, force: true });
});

describe('release versions', () => {
  it('orders by semver precedence and refuses what is not semver', () => {
    expect(compareReleaseVersions('1.3.0', '1.2.9')).toBe(1);
    expect(compareReleaseVersions('1.10.0', '1.9.0')).toBe(1);
    expect(compareReleaseVersions('1.2.0', '1.2.0+build.7')).toBe(0);
    expect(compareReleaseVersions('1.2.0-rc.1', '1.2.0')).toBe(-1);
    expect(compareReleaseVersions('1.2.0-rc.10', '1.2.0-rc.9')).toBe(1);
    expect(compareReleaseVersions('1.2.0-alpha', '1.2.0-1')).toBe(1);
    expect(parseReleaseVersion('01.2.3')).toBeNull();
    expect(parseReleaseVersion('1.2')).toBeNull();
    expect(parseReleaseVersion(`1.2.3-${'a'.repeat(80)}`)).toBeNull();
    expect(() => compareReleaseVersions('v1.2.3', '1.2.3')).toThrow(/not a semver/);
  });
});

describe('the update check against a loopback release server', () => {
  it('finds a good release signed by scripts/sign-release.mjs, downloads it and keeps it only once verified', async () => {
    const metadata = metadataFor('1.3.0', PAYLOAD);
    const metadataFile = join(folder, METADATA);
    const keyFile = join(folder, 'release-key.pem');
    writeFileSync(metadataFile, metadata);
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const script = resolve('scripts/sign-release.mjs');
    const output = execFileSync(process.execPath, [script, metadataFile, '--key', keyFile], { encoding: 'utf8' });
    expect(output).toContain('Signed');
    expect(output).not.toContain('PRIVATE KEY');
    routes.set(`/${METADATA}`, { body: metadata });
    routes.set(`/${METADATA}.sig`, { body: readFileSync(`${metadataFile}.sig`) });
    routes.set(`/${FILE}`, { body: PAYLOAD });

    const release = updates();
    const seen: string[] = [];
    release.onChange((status) => seen.push(status.state.phase));
    const checked = await release.check();
    expect(checked.lastError).toBeNull();
    expect(checked.state).toMatchObject({ phase: 'available', release: { version: '1.3.0', notes: 'Fixes the <b>batch</b> screen', file: FILE, size: PAYLOAD.length } });
    expect(requests).not.toContain(`/${FILE}`); // nothing downloaded by a check
    expect(release.decideApply(false)).toEqual({ allowed: false, reason: expect.stringContaining('check for updates first') });

    const ready = await release.download();
    expect(ready.lastError).toBeNull();
    expect(ready.state.phase).toBe('ready');
    expect(downloaded()).toEqual([FILE]);
    expect(seen).toEqual(['checking', 'available', 'downloading', 'ready']);
    // Never while a send is in flight; the operator's restart is allowed once it is not.
    expect(release.decideApply(true)).toEqual({ allowed: false, reason: expect.stringContaining('a withdrawal is being sent') });
    expect(release.decideApply(false)).toMatchObject({ allowed: true, release: { version: '1.3.0' } });
  });

  it('refuses metadata signed by another key, before downloading anything', async () => {
    serve('1.3.0', PAYLOAD, generateKeyPairSync('ed25519').privateKey);
    const release = updates();
    const status = await release.check();
    expect(status.state).toEqual({ phase: 'idle' });
    expect(status.lastError).toMatch(/not signed by the Treasury Desk release key: nothing was downloaded/);
    expect(requests).not.toContain(`/${FILE}`);
    expect(downloaded()).toEqual([]);
  });

  it('refuses metadata changed after signing (the signature covers the exact bytes)', async () => {
    const metadata = serve('1.3.0');
    routes.set(`/${METADATA}`, { body: Buffer.concat([metadata, Buffer.from('# one more line\n')]) });
    const status = await updates().check();
    expect(status.state).toEqual({ phase: 'idle' });
    expect(status.lastError).toMatch(/not signed by the Treasury Desk release key/);
  });

  it('refuses a downgrade and offers nothing for the version running', async () => {
    serve('1.1.9');
    const older = await updates().check();
    expect(older.state).toEqual({ phase: 'idle' });
    expect(older.lastError).toMatch(/1\.1\.9, which is older than the version running \(1\.2\.0\): a downgrade is refused/);
    serve('1.2.0');
    const same = await updates().check();
    expect(same.state).toEqual({ phase: 'idle' });
    expect(same).toMatchObject({ lastError: null, upToDate: '1.2.0' });
    expect(requests).not.toContain(`/${FILE}`);
  });

  it('discards a truncated download and a file whose sha512 differs, keeping the verified release available', async () => {
    serve('1.3.0');
    const release = updates();
    await release.check();
    routes.set(`/${FILE}`, { body: PAYLOAD, cutAt: 1000 });
    const cut = await release.download();
    expect(cut.state).toMatchObject({ phase: 'available', release: { version: '1.3.0' } });
    expect(cut.lastError).toMatch(/download of version 1\.3\.0/);
    expect(downloaded()).toEqual([]);

    const altered = Buffer.from(PAYLOAD);
    altered[10] = 0x21;
    routes.set(`/${FILE}`, { body: altered });
    const wrong = await release.download();
    expect(wrong.state.phase).toBe('available');
    expect(wrong.lastError).toMatch(/does not match the signed release \(\d+ of \d+ bytes, sha512 different\): it was discarded/);
    expect(downloaded()).toEqual([]);

    routes.set(`/${FILE}`, { body: Buffer.concat([PAYLOAD, Buffer.from('extra')]) });
    const longer = await release.download();
    expect(longer.state.phase).toBe('available');
    expect(longer.lastError).toMatch(/larger than/);
    expect(downloaded()).toEqual([]);
  });

  it('ends a check the server stalls, says so, and changes nothing', async () => {
    const metadata = serve('1.3.0');
    routes.set(`/${METADATA}`, { body: metadata, stallAfter: 10 });
    const release = updates({ checkTimeoutMs: 300 });
    const status = await release.check();
    expect(status.state).toEqual({ phase: 'idle' });
    expect(status.lastError).toMatch(/the update check did not finish within 300 ms: the update server is not answering/);
  });

  it('ends a download the server stalls, and keeps nothing of it', async () => {
    serve('1.3.0');
    const release = updates({ downloadTimeoutMs: 300 });
    await release.check();
    routes.set(`/${FILE}`, { body: PAYLOAD, stallAfter: 100 });
    const status = await release.download();
    expect(status.state.phase).toBe('available');
    expect(status.lastError).toMatch(/did not finish within/);
    expect(downloaded()).toEqual([]);
  });

  it('bounds the metadata size and refuses a feed that is not https off loopback', async () => {
    routes.set(`/${METADATA}`, { body: Buffer.alloc(200_000, 0x61) });
    routes.set(`/${METADATA}.sig`, { body: Buffer.from('AAAA') });
    const status = await updates({ metadataBytes: 64 * 1024 }).check();
    expect(status.lastError).toMatch(/larger than 65536 bytes/);
    expect(() => new ReleaseUpdates({ feedUrl: 'http://releases.example.com/', metadataFile: METADATA, currentVersion: '1.2.0', downloadFolder: folder, releaseKey: publicKey })).toThrow(
      /must be https/,
    );
  });
});
