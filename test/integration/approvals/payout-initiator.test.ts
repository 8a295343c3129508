// Batch payouts and the initiator's party, in the engine: an admin who imported a batch can approve it neither as a
// whole nor line by line, and nothing is signed or sent; the other, independent admin can. On a desk founded by one
// admin, an approver that admin enrolled alone is the admin's party: their approval of the admin's batch is recorded
// but never counted, so no line becomes sendable and nothing reaches the service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, openDesk, payoutFile, SECOND_ADMIN, type Desk } from '../engine/support';
import { auditEntries, expectNoOrder, fund, fundedDesk } from './support';

/** The operators who signed a decision (approve or reject) on the desk so far, oldest first. */
async function deciders(desk: Desk): Promise<string[]> {
  return (await auditEntries(desk)).filter((row) => row.kind === 'approve' || row.kind === 'reject').map((row) => row.operator ?? 'desk key');
}

describe('an admin who initiated a batch', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await fundedDesk([]);
  }, 120_000);
  afterAll(async () => desk?.close());

  it('cannot approve it, as a whole or one line at a time; nothing is signed or sent; the independent admin can', async () => {
    const batch = await desk.value('payouts/import', { path: payoutFile(desk, 'by-alice.csv', 2), as: ADMIN });
    expect(batch).toMatchObject({ initiator: 'alice', state: 'awaitingApproval', requiredApprovals: 1, countedApprovals: 0 });

    const whole = await desk.call('payouts/approve', { id: batch.id, as: ADMIN });
    expect(whole).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    if (!whole.ok) expect(whole.error.message).toContain('the initiator of a batch can never approve');
    const reject = await desk.call('payouts/reject', { id: batch.id, reason: 'mine', as: ADMIN });
    expect(reject).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    for (const line of batch.lines) {
      const single = await desk.call('withdrawals/approve', { id: line.requestId, as: ADMIN });
      expect(single.ok, `line ${line.line} approved alone by its initiator`).toBe(false);
    }
    expect(await deciders(desk)).toEqual([]);

    const after = await desk.value('payouts/get', { id: batch.id });
    expect(after).toMatchObject({ state: 'awaitingApproval', countedApprovals: 0, approvals: [] });
    expect(after.stateCounts).toEqual({ awaitingApproval: 2 });
    const submit = await desk.call('payouts/submit', { id: batch.id, as: ADMIN });
    expect(submit).toMatchObject({ ok: false, error: { code: 'conflict' } });
    for (const line of batch.lines) await expectNoOrder(desk, line.userOrder);

    // frank, the other founding admin, is independent of alice: his one signature approves the batch.
    const approved = await desk.value('payouts/approve', { id: batch.id, as: SECOND_ADMIN });
    expect(approved).toMatchObject({ state: 'approved', countedApprovals: 1, verified: true });
    expect(approved.approvals).toEqual([expect.objectContaining({ operator: 'frank', decision: 'approve', counts: true })]);
  });
});

describe("on a desk founded by one admin, the admin's own party", () => {
  const LONE_ADMIN = ADMIN;
  /** An approver alice enrols alone: alice's party. */
  const PUPPET = { operator: 'paul', passphrase: 'paul passphrase chosen by alice' };
  let desk: Desk;
  beforeAll(async () => {
    desk = await openDesk({ profile: false });
    await desk.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
    await desk.value('operators/found', { admins: [LONE_ADMIN] });
    const invitation = await desk.value('operators/invite', { name: PUPPET.operator, role: 'approver', as: LONE_ADMIN });
    expect(invitation.needsConfirmation).toBe(false);
    await desk.value('operators/accept', { name: PUPPET.operator, code: invitation.code, passphrase: PUPPET.passphrase });
    await fund(desk);
  }, 120_000);
  afterAll(async () => desk?.close());

  it("records an approval from the initiator's party but never counts it, and sends nothing", async () => {
    const batch = await desk.value('payouts/import', { path: payoutFile(desk, 'lone.csv', 2), as: LONE_ADMIN });
    expect((await desk.call('payouts/approve', { id: batch.id, as: LONE_ADMIN })).ok).toBe(false);

    const approved = await desk.value('payouts/approve', { id: batch.id, as: PUPPET });
    expect(approved).toMatchObject({ state: 'awaitingApproval', countedApprovals: 0, requiredApprovals: 1, verified: false });
    expect(approved.approvals).toEqual([expect.objectContaining({ operator: 'paul', decision: 'approve', counts: false })]);
    expect(approved.approvals[0]?.note).toContain("alice's party");
    expect(approved.problems.join('\n')).toContain('0 of 1 required approvals come from parties independent of alice');

    const submit = await desk.call('payouts/submit', { id: batch.id, as: LONE_ADMIN });
    expect(submit).toMatchObject({ ok: false, error: { code: 'conflict' } });
    if (!submit.ok) expect(submit.error.message).toContain('0 of 1 approvals');
    for (const line of batch.lines) await expectNoOrder(desk, line.userOrder);
  });
});
