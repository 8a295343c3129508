// Proposals (issue 23, item 4), against the real engine: a proposal is withdrawn only by its proposer, a proposal to
// disable frank can be neither withdrawn by frank nor by another admin, nothing is signed for a refusal, and on a desk
// of two independent admins the roster says how the remaining admin proceeds when only frank could confirm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, SECOND_ADMIN, type Desk } from '../engine/support';
import { auditEntries, callOn, fundedDesk } from './support';

let desk: Desk;

beforeAll(async () => {
  desk = await fundedDesk();
}, 120_000);
afterAll(async () => desk?.close());

describe('withdrawing proposals', () => {
  it('a proposal to disable frank: frank can neither withdraw it nor make it go away; the desk says what alice can do', async () => {
    const roster = await desk.value('operators/disable', { name: SECOND_ADMIN.operator, as: ADMIN });
    const proposal = roster.proposals.find((entry) => entry.kind === 'disable' && entry.subject === SECOND_ADMIN.operator);
    expect(proposal).toBeDefined();
    expect(roster.notice).toMatch(/^The proposal to disable frank waits for an admin independent of alice, and only frank, whom it is about, is one: frank cannot withdraw it/);
    expect(roster.notice).toContain('When the admin in question is the only other one');
    const before = (await auditEntries(desk)).length;
    const byFrank = await callOn(desk.engine, 'operators/withdrawProposal', { proposal: proposal!.id, as: SECOND_ADMIN });
    expect(byFrank).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'frank may not withdraw a proposal to disable frank: it is about them (the other admins decide it)' } });
    expect((await auditEntries(desk)).length).toBe(before);
    expect((await desk.value('operators/list', {})).proposals.map((entry) => entry.id)).toContain(proposal!.id);
    // Its proposer may.
    const withdrawn = await desk.value('operators/withdrawProposal', { proposal: proposal!.id, as: ADMIN });
    expect(withdrawn.proposals.map((entry) => entry.id)).not.toContain(proposal!.id);
    expect(withdrawn.notice).toBeNull();
  });

  it('another admin cannot withdraw a proposal they did not make', async () => {
    const roster = await desk.value('operators/setRole', { name: 'bob', role: 'viewer', as: ADMIN });
    const proposal = roster.proposals.find((entry) => entry.kind === 'role' && entry.subject === 'bob');
    const refused = await callOn(desk.engine, 'operators/withdrawProposal', { proposal: proposal!.id, as: SECOND_ADMIN });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'only alice, who proposed it, may withdraw it' } });
    expect((await desk.value('operators/list', {})).proposals.map((entry) => entry.id)).toContain(proposal!.id);
  });
});
