// What the app's governance screen and address book read (issue 20 part 4), on a real engine and SQLite with the
// engine's clock injected: governance/state names who set the governance in force and lists each loosening change as
// waiting, vetoed (by whom, why) or in force; addressbook/list shows a confirmed book addition as waiting for its delay
// (with the change a veto names) and in the book once the delay ran out; sending/state names who scheduled a lift.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, APPROVER, enrol, INITIATOR, openDesk, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';

const HOUR = 3_600_000;
let offset = 0;
const clock = (): number => Date.now() + offset;
let desk: Desk;

beforeAll(async () => {
  desk = await openDesk({ profile: false, engine: { clock } });
  await desk.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
  await desk.value('operators/found', { admins: [ADMIN, SECOND_ADMIN] });
  await enrol(desk, APPROVER, 'approver');
  await enrol(desk, INITIATOR, 'initiator');
}, 180_000);
afterAll(async () => desk?.close());

describe('the governance view and the book under a loosening delay', () => {
  it('names who set the governance, lists changes waiting, vetoed and in force, and shows a book addition waiting for its delay', async () => {
    expect(await desk.value('governance/state', {})).toMatchObject({ reference: null, setBy: null, pending: [], recent: [] });
    const proposed = await desk.value('governance/set', { looseningDelayHours: 24, freezeLift: 'four-eyes', freezeLockHours: 0, as: ADMIN });
    const setAt = clock();
    await desk.value('operators/confirm', { proposal: proposed.proposal?.id ?? '', as: SECOND_ADMIN });
    const governance = await desk.value('governance/state', {});
    expect(governance).toMatchObject({ looseningDelayHours: 24, reference: proposed.proposal?.id, setBy: { proposer: ADMIN.operator, confirmedBy: SECOND_ADMIN.operator } });
    expect(governance.setBy?.since).toBeGreaterThanOrEqual(setAt);

    // A raised threshold (loosening) and a book addition, both confirmed: waiting for the 24 h delay.
    const tighten = await desk.value('policies/set', { currency: 'trx.usdt', thresholds: [{ above: '100', approvals: 2 }], dailyLimit: null, useFinancialConfirmation: false, onlyFromBook: false, as: ADMIN });
    await desk.value('operators/confirm', { proposal: tighten.proposal.id, as: SECOND_ADMIN });
    const loosen = await desk.value('policies/set', { currency: 'trx.usdt', thresholds: [{ above: '900', approvals: 2 }], dailyLimit: null, useFinancialConfirmation: false, onlyFromBook: false, as: ADMIN });
    await desk.value('operators/confirm', { proposal: loosen.proposal.id, as: SECOND_ADMIN });
    const address = tronAddress();
    const added = await desk.value('addressbook/add', { chain: 'trx', address, label: 'supplier', as: INITIATOR });
    const addition = added.pending.find((entry) => entry.address === address)?.proposal ?? '';
    const confirmedAt = clock();
    const book = await desk.value('addressbook/approve', { proposal: addition, as: APPROVER });
    expect(book.pending).toEqual([]);
    const waitingEntry = book.entries.find((entry) => entry.address === address);
    expect(waitingEntry).toMatchObject({ approved: false, approvedAt: null, scheduled: { change: addition, addedBy: INITIATOR.operator, approvedBy: APPROVER.operator } });
    expect((waitingEntry?.scheduled?.takesEffectAt ?? 0) - confirmedAt).toBeGreaterThanOrEqual(24 * HOUR);
    expect((waitingEntry?.scheduled?.takesEffectAt ?? 0) - confirmedAt).toBeLessThan(24 * HOUR + 60_000);

    const waiting = await desk.value('governance/state', {});
    expect(waiting.pending.map((change) => [change.id, change.state, change.vetoedBy])).toEqual([
      [loosen.proposal.id, 'waiting', null],
      [addition, 'waiting', null],
    ]);
    expect(waiting.recent).toEqual([]);

    // A veto with a reason: listed as vetoed, by whom and why; the addition still waits.
    const vetoed = await desk.value('governance/veto', { change: loosen.proposal.id.slice(0, 12), reason: 'not agreed', as: SECOND_ADMIN });
    expect(vetoed.pending.map((change) => change.id)).toEqual([addition]);
    expect(vetoed.recent).toHaveLength(1);
    expect(vetoed.recent[0]).toMatchObject({ id: loosen.proposal.id, state: 'vetoed', vetoedBy: SECOND_ADMIN.operator, vetoReason: 'not agreed', loosens: ['fewer approvals above 100'] });

    // Once the delay ran out, by the engine's clock: the addition is in the book, and listed as in force (the latest first).
    offset += 25 * HOUR;
    const after = await desk.value('addressbook/list', {});
    expect(after.entries.find((entry) => entry.address === address)).toMatchObject({ approved: true, scheduled: null, addedBy: INITIATOR.operator, approvedBy: APPROVER.operator, approvedAt: waitingEntry?.scheduled?.takesEffectAt });
    const settled = await desk.value('governance/state', {});
    expect(settled.pending).toEqual([]);
    expect(settled.recent.map((change) => [change.id, change.state])).toEqual([
      [addition, 'inForce'],
      [loosen.proposal.id, 'vetoed'],
    ]);
  });

  it('names who scheduled the lift of a freeze that waits for the delay', async () => {
    await desk.value('sending/freeze', { reason: 'drill', as: ADMIN });
    const proposed = await desk.value('sending/unfreeze', { as: ADMIN });
    expect(proposed.frozen).toMatchObject({ liftAt: null, liftBy: null });
    await desk.value('operators/confirm', { proposal: proposed.lift?.id ?? '', as: SECOND_ADMIN });
    const state = await desk.value('sending/state', {});
    expect(state.lift).toBeNull();
    expect(state.frozen).toMatchObject({ by: ADMIN.operator, liftBy: { proposer: ADMIN.operator, confirmedBy: SECOND_ADMIN.operator } });
    expect((state.frozen?.liftAt ?? 0) - clock()).toBeGreaterThan(23 * HOUR);
  });
});
