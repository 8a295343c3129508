// A fresh demo desk is lived in (issue 22): its operators created labelled deposit addresses and sent withdrawals
// through the contract (each approval a signature that verifies), once per demo desk; and while the demo runs, its
// sandbox credits deposits to those addresses, so the desk's syncs take new balance readings (short gaps here).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCIES, type CurrencySymbol } from '../../../electron/chains';
import { DEMO_OPERATORS, WITHDRAWAL_STATE_TRAITS } from '../../../electron/contract';
import { DEMO_DESK_ADDRESSES, DEMO_DESK_WITHDRAWALS } from '../../../electron/core/desk/demo-desk';
import type { Engine } from '../../../electron/core/engine';
import { demoSandboxStarter } from '../../../electron/sandbox';
import { valueOn } from '../approvals/support';
import { eventually } from '../sandbox/harness';
import { openDesk, type Desk } from './support';

let desk: Desk;
let engine: Engine;
const sandboxFolder = (): string => join(desk.dir, 'demo-sandbox');
/** Live deposits every 150-300 ms: the demo's own rhythm (45-90 s) shortened, so the test waits on conditions only. */
const LIVE = { minGapMs: 150, maxGapMs: 300, maxCount: 200 };

beforeAll(async () => {
  desk = await openDesk({ profile: false });
  engine = await desk.reopen({ startDemoSandbox: demoSandboxStarter(sandboxFolder(), LIVE) });
  await valueOn(engine, 'demo/start', {});
}, 120_000);
afterAll(async () => desk?.close());

async function furnishedRows(on: Engine): Promise<number> {
  return (await valueOn(on, 'audit/list', { action: 'demo/furnished' })).rows.length;
}

/** Every balance reading the desk holds, over all currencies. */
async function readingCount(on: Engine): Promise<number> {
  let count = 0;
  for (const currency of Object.keys(CURRENCIES) as CurrencySymbol[]) count += (await valueOn(on, 'balances/history', { currency })).points.length;
  return count;
}

describe('a fresh demo desk', () => {
  it('lists the deposit addresses its operators created, each with its label', async () => {
    const addresses = await valueOn(engine, 'addresses/list', {});
    expect(addresses.map((address) => address.userOrder).sort()).toEqual(DEMO_DESK_ADDRESSES.map((planned) => planned.userOrder).sort());
    expect(new Set(addresses.map((address) => address.addressType)).size).toBe(DEMO_DESK_ADDRESSES.length);
    const labels = await valueOn(engine, 'labels/search', { text: '', type: 'addr' });
    for (const planned of DEMO_DESK_ADDRESSES) {
      const address = addresses.find((entry) => entry.userOrder === planned.userOrder);
      expect(labels.find((label) => label.ref === address?.address)).toMatchObject({ label: planned.label });
    }
  });

  it('lists the withdrawals it requested, each approved by the independent approver with a signature that verifies, and sent', async () => {
    const { rows } = await valueOn(engine, 'withdrawals/list', {});
    expect(rows).toHaveLength(DEMO_DESK_WITHDRAWALS.length);
    expect(rows.map((row) => row.memo).sort()).toEqual(DEMO_DESK_WITHDRAWALS.map((planned) => planned.memo).sort());
    const [admin, , approver] = DEMO_OPERATORS;
    for (const row of rows) {
      expect(row.initiator).toBe(admin.name);
      expect(row.approvals).toEqual([expect.objectContaining({ operator: approver.name, decision: 'approve', counts: true })]);
      expect(row.verification).toMatchObject({ ok: true, countedApprovals: 1, requiredApprovals: 1, problems: [] });
      expect(row.sentBy).toMatchObject({ operator: approver.name });
    }
    // Every decision is a signed row of the audit chain, and the chain verifies.
    expect(await valueOn(engine, 'audit/verify', {})).toMatchObject({ ok: true });
    const approvals = (await valueOn(engine, 'audit/list', { action: 'withdrawals/approve' })).rows;
    expect(approvals).toHaveLength(DEMO_DESK_WITHDRAWALS.length);
    expect(approvals.map((row) => row.verification)).toEqual(approvals.map(() => ({ status: 'verified' })));
    expect(await furnishedRows(engine)).toBe(1);
  });

  it('sees its withdrawals reach a final state at the service', async () => {
    const rows = await eventually(
      async () => {
        await valueOn(engine, 'sync/run', {});
        const listed = (await valueOn(engine, 'withdrawals/list', {})).rows;
        return listed.every((row) => WITHDRAWAL_STATE_TRAITS[row.state].final) ? listed : undefined;
      },
      60_000,
      'the demo withdrawals to be final',
    );
    expect(rows.map((row) => row.state)).toEqual(DEMO_DESK_WITHDRAWALS.map(() => 'completed'));
  }, 90_000);

  it('gains a balance reading from a live deposit to one of its addresses while the demo runs', async () => {
    // The withdrawals are final (above), so from here only a deposit moves a balance.
    await valueOn(engine, 'sync/run', {});
    const readings = await readingCount(engine);
    const desksAddresses = new Set((await valueOn(engine, 'addresses/list', {})).map((address) => address.address));
    await eventually(
      async () => {
        await valueOn(engine, 'sync/run', {});
        return (await readingCount(engine)) > readings ? true : undefined;
      },
      30_000,
      'a new balance reading',
    );
    const deposits = (await valueOn(engine, 'deposits/list', { limit: 5 })).rows;
    expect(deposits.some((deposit) => desksAddresses.has(deposit.address))).toBe(true);
  }, 60_000);

  it('is furnished once: a restart of the demo keeps the same addresses and withdrawals', async () => {
    const before = { addresses: await valueOn(engine, 'addresses/list', {}), withdrawals: (await valueOn(engine, 'withdrawals/list', {})).rows };
    await engine.close();
    engine = await desk.reopen({ startDemoSandbox: demoSandboxStarter(sandboxFolder(), LIVE) });
    expect(await valueOn(engine, 'session/state', {})).toMatchObject({ profile: 'demo', isDemo: true });
    expect(await valueOn(engine, 'addresses/list', {})).toEqual(before.addresses);
    expect((await valueOn(engine, 'withdrawals/list', {})).rows.map((row) => row.id)).toEqual(before.withdrawals.map((row) => row.id));
    expect(await furnishedRows(engine)).toBe(1);
    expect(await valueOn(engine, 'audit/verify', {})).toMatchObject({ ok: true });
  }, 120_000);
});
