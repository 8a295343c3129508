// The demo's operators (whose passphrases are published) exist only in the demo profile and can never act on a real one.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OPERATORS } from '../../../electron/contract';
import type { Engine } from '../../../electron/core/engine';
import { demoSandboxStarter } from '../../../electron/sandbox';
import { ADMIN, openDesk, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { callOn, valueOn } from './support';

let desk: Desk;
let engine: Engine;

beforeAll(async () => {
  desk = await openDesk({ profile: false });
  engine = await desk.reopen({ startDemoSandbox: demoSandboxStarter(join(desk.dir, 'demo-sandbox')) });
  expect(await valueOn(engine, 'demo/start', {})).toMatchObject({ name: 'demo', isDemo: true, active: true });
}, 120_000);
afterAll(async () => desk?.close());

const [demoAdmin, demoSecondAdmin, demoApprover] = DEMO_OPERATORS;

describe('demo operators on a real profile', () => {
  it('the demo profile has its operators', async () => {
    const roster = await valueOn(engine, 'operators/list', {});
    expect(roster.founded).toBe(true);
    expect(roster.operators.map((operator) => operator.name)).toEqual(DEMO_OPERATORS.map((operator) => operator.name).sort());
  });

  it('a real profile imported and selected next to the demo lists none of them and is not founded', async () => {
    await valueOn(engine, 'profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
    expect(await valueOn(engine, 'profiles/select', { name: 'main' })).toMatchObject({ name: 'main', isDemo: false, active: true });
    const roster = await valueOn(engine, 'operators/list', {});
    expect(roster).toMatchObject({ founded: false, operators: [], proposals: [], fourEyes: false });
    expect(roster.notice).toMatch(/not founded yet/);
  });

  it('no demo operator can act there with the published passphrase', async () => {
    await valueOn(engine, 'sync/run', {});
    const attempts = [
      callOn(engine, 'withdrawals/request', { currency: 'trx.usdt', amount: '14', toAddress: tronAddress(), as: { operator: demoAdmin.name, passphrase: demoAdmin.passphrase } }),
      callOn(engine, 'operators/invite', { name: 'mallory', role: 'approver', as: { operator: demoSecondAdmin.name, passphrase: demoSecondAdmin.passphrase } }),
      callOn(engine, 'addresses/create', { addressType: 'trx', as: { operator: demoApprover.name, passphrase: demoApprover.passphrase } }),
      callOn(engine, 'settings/setLockTimeout', { seconds: 0, as: { operator: demoAdmin.name, passphrase: demoAdmin.passphrase } }),
      callOn(engine, 'settings/setReportingTimeZone', { timeZone: 'Pacific/Kiritimati', as: { operator: demoAdmin.name, passphrase: demoAdmin.passphrase } }),
    ];
    for (const result of await Promise.all(attempts)) expect(result).toMatchObject({ ok: false, error: { code: 'wrongPassphrase' } });
    expect(await valueOn(engine, 'withdrawals/list', {})).toMatchObject({ rows: [] });
    expect(await valueOn(engine, 'addresses/list', {})).toEqual([]);
    expect((await valueOn(engine, 'operators/list', {})).operators).toEqual([]);
  });

  it('once the real profile is founded by its own admins, the demo admins are still nobody there', async () => {
    await valueOn(engine, 'operators/found', { admins: [ADMIN, SECOND_ADMIN] });
    expect((await valueOn(engine, 'operators/list', {})).operators.map((operator) => operator.name)).toEqual(['alice', 'frank']);
    const attempts = [
      callOn(engine, 'withdrawals/request', { currency: 'trx.usdt', amount: '14', toAddress: tronAddress(), as: { operator: demoAdmin.name, passphrase: demoAdmin.passphrase } }),
      callOn(engine, 'operators/invite', { name: 'mallory', role: 'admin', as: { operator: demoSecondAdmin.name, passphrase: demoSecondAdmin.passphrase } }),
      callOn(engine, 'profiles/remove', { name: 'main', as: { operator: demoAdmin.name, passphrase: demoAdmin.passphrase } }),
    ];
    for (const result of await Promise.all(attempts)) expect(result).toMatchObject({ ok: false, error: { code: 'wrongPassphrase' } });
    expect((await valueOn(engine, 'profiles/list', {})).map((profile) => profile.name).sort()).toEqual(['demo', 'main']);
    expect((await valueOn(engine, 'operators/list', {})).operators.map((operator) => operator.name)).toEqual(['alice', 'frank']);
  });

  it('after a restart on the real profile they still cannot, while the demo keeps them', async () => {
    const restarted = await desk.reopen({ startDemoSandbox: demoSandboxStarter(join(desk.dir, 'demo-sandbox-2')) });
    expect(await valueOn(restarted, 'session/state', {})).toMatchObject({ profile: 'main', isDemo: false });
    expect(await callOn(restarted, 'withdrawals/request', { currency: 'trx.usdt', amount: '14', toAddress: tronAddress(), as: { operator: demoAdmin.name, passphrase: demoAdmin.passphrase } })).toMatchObject({
      ok: false,
      error: { code: 'wrongPassphrase' },
    });
    await valueOn(restarted, 'profiles/select', { name: 'demo' });
    expect((await valueOn(restarted, 'operators/list', {})).operators.map((operator) => operator.name)).toContain(demoAdmin.name);
    expect(await valueOn(restarted, 'audit/verify', {})).toMatchObject({ ok: true });
    // From the demo profile, its admin cannot change a setting the real profiles share (the idle lock).
    const before = (await valueOn(restarted, 'session/state', {})).lockTimeoutSeconds;
    const result = await callOn(restarted, 'settings/setLockTimeout', { seconds: 0, as: { operator: demoAdmin.name, passphrase: demoAdmin.passphrase } });
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    if (!result.ok) expect(result.error.message).toContain('demo operators cannot change settings');
    expect((await valueOn(restarted, 'session/state', {})).lockTimeoutSeconds).toBe(before);
    // Nor the reporting time zone, which every profile's screens, CLI output and CSV exports share.
    const zone = await callOn(restarted, 'settings/setReportingTimeZone', { timeZone: 'Pacific/Kiritimati', as: { operator: demoAdmin.name, passphrase: demoAdmin.passphrase } });
    expect(zone).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await valueOn(restarted, 'session/state', {})).reportingTimeZone).toBe('UTC');
  });
});
