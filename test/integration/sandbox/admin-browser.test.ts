// The sandbox's admin interface against a browser on the same machine (issue 23, item 6): a request for a foreign
// Host (DNS rebinding) or from a foreign Origin (a web page) is refused and changes nothing, a body that is not
// application/json is refused (a text/plain form post), and the database holding the merchant secret and private
// keys is 0600 (-wal and -shm too) in a 0700 folder.
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../electron/sandbox/store';
import { rawRequest } from '../../support/raw-merchant';
import { openSandbox, type TestSandbox } from './harness';

let t: TestSandbox;

beforeAll(async () => {
  t = await openSandbox();
});
afterAll(async () => t?.close());

async function balance(): Promise<string | undefined> {
  const merchant = await t.admin<{ balances: Array<{ currency: string; available: string }> }>('GET', `/merchants/${t.sandbox.credentials.merchantId}`);
  return merchant.json.balances.find((entry) => entry.currency === 'trx')?.available;
}

function patch(headers: Record<string, string>, body = JSON.stringify({ balances: { trx: '777' } })) {
  return rawRequest(`${t.sandbox.adminUrl}/merchants/${t.sandbox.credentials.merchantId}`, { method: 'PATCH', headers: { 'Content-Type': 'application/json', ...headers }, body });
}

describe('the sandbox admin interface and browsers', () => {
  it('refuses a Host that is not a loopback name, and an Origin of another site, changing nothing', async () => {
    const before = await balance();
    const foreign: Record<string, string>[] = [{ Host: 'attacker.example' }, { Host: 'attacker.example:80' }, { Origin: 'http://attacker.example' }, { Origin: 'null' }];
    for (const headers of foreign) {
      const refused = await patch(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(refused.text)).toMatchObject({ error: 'forbidden' });
    }
    expect((await rawRequest(`${t.sandbox.adminUrl}/health`, { headers: { Host: 'rebound.example' } })).status).toBe(403);
    expect(await balance()).toBe(before);
  });

  it('answers loopback names and a loopback origin', async () => {
    const port = new URL(t.sandbox.baseUrl).port;
    const loopback: Record<string, string>[] = [{ Host: `localhost:${port}` }, { Host: `127.0.0.1:${port}` }, { Host: `[::1]:${port}` }, { Origin: `http://localhost:${port}` }];
    for (const headers of loopback) {
      expect((await patch(headers)).status, JSON.stringify(headers)).toBe(200);
    }
    expect(await balance()).toBe('777');
  });

  it('refuses a body that is not sent as application/json (a text/plain post parses as JSON no more)', async () => {
    const before = await balance();
    const plain = await patch({ 'Content-Type': 'text/plain' }, JSON.stringify({ balances: { trx: '1' } }));
    expect(plain.status).toBe(415);
    expect(JSON.parse(plain.text)).toMatchObject({ error: 'unsupportedMediaType' });
    const none = await rawRequest(`${t.sandbox.adminUrl}/clock`, { method: 'POST', body: JSON.stringify({ offsetSeconds: 60 }) });
    expect(none.status).toBe(415);
    expect(await balance()).toBe(before);
    expect((await t.admin<{ offsetSeconds: number }>('GET', '/clock')).json.offsetSeconds).toBe(0);
  });

  it('keeps its database owner-only: the folder 0700, the file, -wal and -shm 0600', () => {
    expect(statSync(t.dir).mode & 0o777).toBe(0o700);
    for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`]) expect(statSync(join(t.dir, name)).mode & 0o777, name).toBe(0o600);
  });

  it('creates a new folder 0700 and narrows a folder and database an older sandbox left readable by others', async () => {
    const fresh = join(t.dir, 'fresh', 'data');
    const wide = join(t.dir, 'wide');
    mkdirSync(wide, { mode: 0o755 });
    chmodSync(wide, 0o755);
    writeFileSync(join(wide, DATABASE_FILE), '', { mode: 0o644 });
    chmodSync(join(wide, DATABASE_FILE), 0o644);
    for (const dir of [fresh, wide]) {
      const other = await openSandbox({ dir });
      try {
        expect(statSync(dir).mode & 0o777, dir).toBe(0o700);
        for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`]) expect(statSync(join(dir, name)).mode & 0o777, `${dir} ${name}`).toBe(0o600);
      } finally {
        await other.close();
      }
    }
  });
});
