// A lone admin playing a second operator (a sock puppet) gets approvals recorded but never counted, and no order sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesk, tronAddress, type Desk } from '../engine/support';
import { expectNoOrder, fund, submitRefusals, tamper } from './support';

const LONE_ADMIN = { operator: 'alice', passphrase: 'alice passphrase 1' };
/** The approver alice invites and then "becomes": she reads the code herself and picks the passphrase. */
const PUPPET = { operator: 'paul', passphrase: 'paul passphrase chosen by alice' };
/** An initiator alice enrols alone too: also in her party. */
const CLERK = { operator: 'carol', passphrase: 'carol passphrase 3' };

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk({ profile: false });
  await desk.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
  const founded = await desk.value('operators/found', { admins: [LONE_ADMIN] });
  expect(founded).toMatchObject({ founded: true, fourEyes: false });
  await fund(desk);
});
afterAll(async () => desk?.close());

async function enrolAlone(operator: { operator: string; passphrase: string }, role: 'approver' | 'initiator'): Promise<void> {
  const invitation = await desk.value('operators/invite', { name: operator.operator, role, as: LONE_ADMIN });
  expect(invitation.needsConfirmation).toBe(false);
  expect(invitation.message).toContain(`${operator.operator} will count as alice's party`);
  await desk.value('operators/accept', { name: operator.operator, code: invitation.code, passphrase: operator.passphrase });
}

describe('a desk founded by one admin', () => {
  it("records the puppet's approval but never counts it, and says plainly that it cannot give four-eyes", async () => {
    await enrolAlone(PUPPET, 'approver');

    const roster = await desk.value('operators/list', {});
    expect(roster.fourEyes).toBe(false);
    expect(roster.notice).toMatch(/single admin, so it cannot give four-eyes/);
    expect(roster.operators.find((operator) => operator.name === PUPPET.operator)).toMatchObject({
      status: 'active',
      role: 'approver',
      party: ['paul', 'alice'],
      enrolledBy: ['alice'],
      founding: false,
    });

    const toAddress = tronAddress();
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '14', toAddress, as: LONE_ADMIN });
    const approved = await desk.value('withdrawals/approve', { id: withdrawal.id, as: PUPPET });
    expect(approved.state).toBe('awaitingApproval');
    expect(approved.verification).toMatchObject({ ok: false, countedApprovals: 0, requiredApprovals: 1 });
    expect(approved.approvals).toEqual([
      expect.objectContaining({ operator: 'paul', decision: 'approve', counts: false, note: "paul counts as alice's party (enrolled by one admin alone)" }),
    ]);
    expect(approved.verification.problems).toContain('0 of 1 required approvals come from parties independent of alice and of each other');

    // The approval is on the record (signed by paul's key), not thrown away.
    const audit = (await desk.value('audit/list', { limit: 50 })).rows;
    expect(audit.filter((row) => row.action === 'withdrawals/approve' && row.operator === 'paul')).toHaveLength(1);

    const refused = await desk.call('withdrawals/submit', { id: withdrawal.id, as: LONE_ADMIN });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict' } });
    if (!refused.ok) expect(refused.error.message).toContain('awaitingApproval');
    await expectNoOrder(desk, withdrawal.userOrder);

    // Flipping the state column does not help: the statements decide.
    tamper(desk, (db) => db.prepare("UPDATE withdrawal_requests SET state = 'approved' WHERE id = ?").run(Number(withdrawal.id)));
    const unverified = await desk.call('withdrawals/submit', { id: withdrawal.id, as: PUPPET });
    expect(unverified).toMatchObject({ ok: false, error: { code: 'unverified' } });
    if (!unverified.ok) expect(unverified.error.message).toContain('0 of 1 required approvals come from parties independent of alice');
    expect(await submitRefusals(desk, withdrawal.userOrder)).toHaveLength(1);
    await expectNoOrder(desk, withdrawal.userOrder);
  });

  it("every operator is alice's party: the puppet cannot approve another operator alice enrolled either", async () => {
    await enrolAlone(CLERK, 'initiator');
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '15', toAddress: tronAddress(), as: CLERK });
    const approved = await desk.value('withdrawals/approve', { id: withdrawal.id, as: PUPPET });
    expect(approved.state).toBe('awaitingApproval');
    expect(approved.verification.countedApprovals).toBe(0);
    expect(approved.approvals).toEqual([expect.objectContaining({ operator: 'paul', counts: false, note: "paul counts as carol's party (enrolled by one admin alone)" })]);
    // Nor does alice herself: she enrolled carol alone.
    const byAlice = await desk.value('withdrawals/approve', { id: withdrawal.id, as: LONE_ADMIN });
    expect(byAlice.state).toBe('awaitingApproval');
    expect(byAlice.verification.countedApprovals).toBe(0);
    expect(byAlice.approvals.map((approval) => `${approval.operator}:${approval.counts}`)).toEqual(['paul:false', 'alice:false']);
    expect(await desk.call('withdrawals/submit', { id: withdrawal.id, as: CLERK })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    await expectNoOrder(desk, withdrawal.userOrder);
    expect(await desk.value('audit/verify', {})).toMatchObject({ ok: true });
  });
});
