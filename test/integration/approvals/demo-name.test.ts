// The demo's profile name cannot collide with a real one (issue 23, item 5): `demo` once replaced a real profile named
// demo with the sandbox's credentials. A real profile may not be named demo (any case), and a real profile already
// named so (from before) is left untouched: demo mode refuses to start rather than replace it.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSandboxStarter } from '../../../electron/sandbox';
import { openDesk, type Desk } from '../engine/support';
import { callOn } from './support';

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk({ profile: false });
}, 60_000);
afterAll(async () => desk?.close());

describe('the demo profile name', () => {
  it('is refused for a real profile, in any case, and nothing is stored', async () => {
    for (const name of ['demo', 'Demo', 'DEMO']) {
      const refused = await callOn(desk.engine, 'profiles/importFile', { name, path: desk.sandbox.credentialsPath });
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalidInput', message: expect.stringContaining('is kept for demo mode') } });
      expect(await callOn(desk.engine, 'profiles/generateKey', { name })).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    }
    expect(await desk.vault.listProfiles()).toEqual([]);
    expect(await desk.value('profiles/list', {})).toEqual([]);
  });

  it('a real profile already named demo is never replaced: demo mode refuses to start and leaves it as it is', async () => {
    const db = new Database(desk.dbPath);
    db.prepare("INSERT INTO profiles (name, base_url, merchant_id, demo, created_at, updated_at) VALUES ('demo', 'https://merchant.example', 'real-merchant-7', 0, 1, 1)").run();
    db.close();
    const engine = await desk.reopen({ startDemoSandbox: demoSandboxStarter(join(desk.dir, 'demo-sandbox')) });
    const refused = await callOn(engine, 'demo/start', {});
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('a real profile is named "demo"') } });
    const check = new Database(desk.dbPath, { readonly: true });
    expect(check.prepare("SELECT base_url, merchant_id, demo FROM profiles WHERE name = 'demo'").get()).toEqual({ base_url: 'https://merchant.example', merchant_id: 'real-merchant-7', demo: 0 });
    check.close();
    expect(await desk.vault.listProfiles()).toEqual([]);
  });
});
