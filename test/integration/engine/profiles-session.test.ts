// Profiles, demo mode and the idle lock against the real keychain and sandbox: a generated key waits in the
// keychain for the platform's values; removing a profile removes its keychain entries; the demo desk is marked
// demo; a lockable desk refuses everything but session/* until an operator unlocks it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_OPERATORS, parseRequest } from '../../../electron/contract';
import { demoSandboxStarter } from '../../../electron/sandbox';
import { ADMIN, INITIATOR, openDesk, VIEWER, type Desk } from './support';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

describe('profiles', { timeout: 120_000 }, () => {
  it('keeps a generated key until the platform issues the other three values, then uses it', async () => {
    desk = await openDesk({ profile: false });
    const generated = await desk.value('profiles/generateKey', { name: 'fresh' });
    expect(generated.publicKeyPem).toContain('BEGIN PUBLIC KEY');
    expect(JSON.stringify(generated)).not.toContain('PRIVATE');
    // The platform registers the public key; here, the sandbox's admin creates a merchant and we take its values
    // except the private key (the sandbox made its own pair, so this profile's signatures will not verify there).
    const credentials = JSON.parse(readFileSync(desk.sandbox.credentialsPath, 'utf8')) as Record<string, string>;
    const added = await desk.value('profiles/add', {
      name: 'fresh',
      credentials: { baseUrl: credentials['baseUrl'], merchantId: credentials['merchantId'], secret: credentials['secret'], platformPublicKey: credentials['platformPublicKey'] },
    });
    expect(added.merchantKeyFingerprint).toBe(generated.fingerprint);
    expect(await desk.vault.loadPendingPrivateKey('fresh')).toBeNull();
    // Without a generated key, a profile without a private key is refused and nothing is stored.
    const refused = await desk.call('profiles/add', {
      name: 'other',
      credentials: { baseUrl: credentials['baseUrl'], merchantId: 'x', secret: 'y', platformPublicKey: credentials['platformPublicKey'] },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect(await desk.vault.listProfiles()).toEqual(['fresh']);
  });

  it('removes the keychain entries with the profile, by an admin', async () => {
    desk = await openDesk();
    const denied = await desk.call('profiles/remove', { name: 'main' });
    expect(denied).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await desk.value('profiles/remove', { name: 'main', as: ADMIN });
    expect(await desk.vault.listProfiles()).toEqual([]);
    expect(await desk.value('profiles/list', {})).toEqual([]);
  });

  it('refuses an invalid credentials file and stores nothing', async () => {
    desk = await openDesk({ profile: false });
    const result = await desk.call('profiles/importFile', { name: 'bad', path: join(desk.dir, 'missing.json') });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect(await desk.vault.listProfiles()).toEqual([]);
  });
});

describe('demo mode', () => {
  it('starts the embedded sandbox with demo history, demo operators, and marks the profile as demo', async () => {
    desk = await openDesk({ profile: false });
    const engine = await desk.reopen({ startDemoSandbox: demoSandboxStarter(join(desk.dir, 'demo-sandbox')) });
    const summary = await engine.handlers['demo/start']({});
    expect(summary.ok).toBe(true);
    if (!summary.ok) return;
    expect(summary.value).toMatchObject({ name: 'demo', isDemo: true, active: true, credentialSource: 'keychain' });
    const deposits = await engine.handlers['deposits/list']({ limit: 10 });
    expect(deposits.ok && deposits.value.rows.length).toBe(10);
    const roster = await engine.handlers['operators/list']({});
    if (!roster.ok) expect.fail(roster.error.message);
    expect(roster.value.operators.map((operator) => operator.name).sort()).toEqual(DEMO_OPERATORS.map((operator) => operator.name).sort());
    // Two founding admins and an approver enrolled by one and confirmed by the other: the demo desk gives four-eyes.
    expect(roster.value).toMatchObject({ founded: true, fourEyes: true, notice: null });
    expect(roster.value.operators.every((operator) => operator.status === 'active' && operator.party.length === 1)).toBe(true);
    const session = await engine.handlers['session/state']({});
    expect(session).toMatchObject({ ok: true, value: { isDemo: true, profile: 'demo' } });
  });
});

describe('the idle lock', { timeout: 120_000 }, () => {
  it('refuses everything but session/* until an operator unlocks, and locks again on request', async () => {
    desk = await openDesk();
    const engine = await desk.reopen({ lockable: true });
    expect(await engine.handlers['session/state']({})).toMatchObject({ ok: true, value: { locked: true } });
    expect(await engine.handlers['balances/list']({})).toMatchObject({ ok: false, error: { code: 'locked' } });
    expect(await engine.handlers['session/unlock']({ operator: ADMIN.operator, passphrase: 'wrong passphrase!' })).toMatchObject({
      ok: false,
      error: { code: 'wrongPassphrase' },
    });
    expect(await engine.handlers['session/unlock'](ADMIN)).toMatchObject({ ok: true, value: { locked: false, operator: ADMIN.operator } });
    expect((await engine.handlers['balances/list']({})).ok).toBe(true);
    await engine.handlers['session/lock']({});
    expect(await engine.handlers['balances/list']({})).toMatchObject({ ok: false, error: { code: 'locked' } });
  });

  it("counts only a person's input: background reads never postpone it, session/activity does", async () => {
    desk = await openDesk();
    let now = Date.now();
    const engine = await desk.reopen({ lockable: true, clock: () => now });
    expect(await engine.handlers['session/unlock'](ADMIN)).toMatchObject({ ok: true, value: { locked: false } });
    const timeout = (await engine.handlers['session/state']({})) as { ok: true; value: { lockTimeoutSeconds: number } };
    const idleMs = timeout.value.lockTimeoutSeconds * 1000;
    /** The engine checks idleness every 5 s: wait for one check after moving the clock. */
    const afterACheck = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5_500));
    /** Polls the session until it is locked, for at most one check's time (the check locks it, not the poll). */
    const lockedWithinACheck = async (): Promise<boolean> => {
      const deadline = Date.now() + 5_500;
      for (;;) {
        const state = await engine.handlers['session/state']({});
        if (state.ok && state.value.locked) return true;
        if (Date.now() > deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    // Background reads (what the app's refreshes and events trigger) near the end of the idle time do not count.
    now += idleMs - 10_000;
    for (const method of ['balances/list', 'sync/status', 'withdrawals/list', 'operators/list'] as const) {
      expect((await engine.handlers[method]({})).ok).toBe(true);
    }
    now += 20_000;
    expect(await lockedWithinACheck()).toBe(true);
    expect(await engine.handlers['session/state']({})).toMatchObject({ ok: true, value: { locked: true } });

    // A person's input (the renderer reports it as session/activity) does.
    expect(await engine.handlers['session/unlock'](ADMIN)).toMatchObject({ ok: true, value: { locked: false } });
    now += idleMs - 10_000;
    expect(await engine.handlers['session/activity']({})).toMatchObject({ ok: true, value: { locked: false } });
    now += 20_000;
    await afterACheck();
    expect(await engine.handlers['session/state']({})).toMatchObject({ ok: true, value: { locked: false } });
  }, 120_000);

  it("signs labels as the unlocking operator without asking again, until a lock or 8 hours; decisions still ask", async () => {
    desk = await openDesk();
    let now = Date.now();
    const engine = await desk.reopen({ lockable: true, clock: () => now });
    const label = (text: string) => engine.handlers['labels/set']({ type: 'withdrawal', ref: 'ORDER-7', label: text });
    expect(await label('while locked')).toMatchObject({ ok: false, error: { code: 'locked' } });
    expect(await engine.handlers['session/unlock'](ADMIN)).toMatchObject({ ok: true });
    // Never lock by idleness here: the session's own 8 hours are what is tested.
    expect(await engine.handlers['settings/setLockTimeout']({ seconds: 0, as: ADMIN })).toMatchObject({ ok: true });
    await engine.handlers['session/lock']({});

    const unlocked = await engine.handlers['session/unlock'](INITIATOR);
    expect(unlocked).toMatchObject({ ok: true, value: { operator: INITIATOR.operator, signsLabelsUntil: now + 8 * 3_600_000 } });
    expect(await label('Rent May')).toMatchObject({ ok: true, value: { label: { label: 'Rent May' } } });
    const rows = await engine.handlers['audit/list']({ limit: 1 });
    if (!rows.ok) expect.fail(rows.error.message);
    expect(rows.value.rows[0]).toMatchObject({ kind: 'action', action: 'labels/set', operator: INITIATOR.operator });
    // A decision that moves money still names who is acting, with their passphrase.
    expect(parseRequest('withdrawals/approve', { id: '1' })).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect(parseRequest('labels/set', { type: 'withdrawal', ref: 'ORDER-7', label: 'Rent May' }).ok).toBe(true);

    // Eight hours after the unlock the session signs nothing more, even with no idle lock.
    now += 8 * 3_600_000;
    expect(await label('too late')).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/stopped signing labels at .* UTC \(8 hours after unlocking\)/) } });
    // A lock ends it at once; an operator whose role may not edit labels never signs them.
    expect(await engine.handlers['session/unlock'](INITIATOR)).toMatchObject({ ok: true });
    await engine.handlers['session/lock']({});
    expect((await engine.handlers['session/unlock'](VIEWER)).ok).toBe(true);
    expect(await label('as a viewer')).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'dave is a viewer and may not edit labels' } });
    const state = await engine.handlers['session/state']({});
    expect(state.ok && state.value.signsLabelsUntil).toBe(now + 8 * 3_600_000);
  });
});
