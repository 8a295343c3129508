// With two founding admins, operators enrolled by both are independent: their approvals count and orders go out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase as openSandboxDatabase } from '../../../electron/sandbox/store';
import { ADMIN, APPROVER, INITIATOR, openDesk, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { fund } from './support';

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk();
  await fund(desk);
});
afterAll(async () => desk?.close());

function sandboxRemark(userOrder: string): string | undefined {
  const db = openSandboxDatabase(desk.sandbox.dataDir, { readonly: true });
  try {
    return (db.prepare('SELECT remark FROM withdrawals WHERE user_order = ?').get(userOrder) as { remark: string } | undefined)?.remark;
  } finally {
    db.close();
  }
}

describe('the founding pair', () => {
  it("an approver both founders enrolled counts for an initiator both enrolled: the order goes out with the intent's fingerprint", async () => {
    const roster = await desk.value('operators/list', {});
    expect(roster).toMatchObject({ founded: true, fourEyes: true, notice: null });
    for (const name of ['bob', 'carol']) {
      expect(roster.operators.find((operator) => operator.name === name)).toMatchObject({ party: [name], enrolledBy: ['alice', 'frank'], founding: false });
    }
    expect(roster.operators.filter((operator) => operator.founding).map((operator) => operator.name)).toEqual(['alice', 'frank']);

    const toAddress = tronAddress();
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '14', toAddress, memo: 'invoice 7', as: INITIATOR });
    expect(withdrawal.verification).toMatchObject({ ok: false, countedApprovals: 0, requiredApprovals: 1 });
    const approved = await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    expect(approved.state).toBe('approved');
    expect(approved.verification).toMatchObject({ ok: true, countedApprovals: 1, requiredApprovals: 1, problems: [] });
    expect(approved.approvals).toEqual([expect.objectContaining({ operator: 'bob', decision: 'approve', counts: true, note: null })]);

    const submitted = await desk.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(submitted.state).toBe('submitted');
    const order = await desk.admin<{ order: { userOrder: string; amount: string; toAddress: string; message: string } }>(
      'GET',
      `/withdrawals/${desk.sandbox.credentials.merchantId}/${withdrawal.userOrder}`,
    );
    expect(order.status).toBe(200);
    expect(order.json.order).toMatchObject({ userOrder: withdrawal.userOrder, amount: '14', toAddress });
    expect(sandboxRemark(withdrawal.userOrder)).toBe(`TD ${withdrawal.fingerprint} invoice 7`);

    const submit = (await desk.value('audit/list', { limit: 20 })).rows.find((row) => row.action === 'withdrawals/submit');
    expect(submit).toMatchObject({ operator: 'carol', kind: 'submit' });
    expect(await desk.value('audit/verify', {})).toMatchObject({ ok: true, anchored: true });
  });
});

describe("APPROVALS.md's example on a real desk: founders A and B, A alone enrols C, A and B together enrol D", () => {
  const C = { operator: 'cyril', passphrase: 'cyril passphrase 7' };
  const D = { operator: 'dora', passphrase: 'dora passphrase 8' };

  beforeAll(async () => {
    // A enrols alone only while the desk has no second independent admin: frank steps down to approver (his own
    // confirmation), alice invites cyril alone, then makes frank admin again (one admin's word on such a desk).
    await desk.value('operators/setRole', { name: 'frank', role: 'approver', as: ADMIN });
    const demotion = (await desk.value('operators/list', {})).proposals.find((proposal) => proposal.kind === 'role' && proposal.subject === 'frank');
    expect(demotion?.needsConfirmation).toBe(true);
    await desk.value('operators/confirm', { proposal: demotion!.id, as: SECOND_ADMIN });
    expect(await desk.value('operators/list', {})).toMatchObject({ fourEyes: false });

    const alone = await desk.value('operators/invite', { name: C.operator, role: 'admin', as: ADMIN });
    expect(alone.needsConfirmation).toBe(false);
    await desk.value('operators/accept', { name: C.operator, code: alone.code, passphrase: C.passphrase });

    const restored = await desk.value('operators/setRole', { name: 'frank', role: 'admin', as: ADMIN });
    expect(restored.fourEyes).toBe(true);

    const together = await desk.value('operators/invite', { name: D.operator, role: 'approver', as: ADMIN });
    expect(together.needsConfirmation).toBe(true);
    await desk.value('operators/accept', { name: D.operator, code: together.code, passphrase: D.passphrase });
    await desk.value('operators/confirm', { proposal: together.proposal, as: SECOND_ADMIN });
  });

  async function request(as: { operator: string; passphrase: string }): Promise<string> {
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: tronAddress(), as });
    return withdrawal.id;
  }

  it("C's party is {C, A} and D's party is {D}", async () => {
    const operators = (await desk.value('operators/list', {})).operators;
    const party = (name: string): readonly string[] | undefined => operators.find((operator) => operator.name === name)?.party;
    expect(party('cyril')).toEqual(['cyril', 'alice']);
    expect(party('dora')).toEqual(['dora']);
    expect(party('frank')).toEqual(['frank']);
    expect(party('alice')).toEqual(['alice']);
  });

  it("D may approve C's request", async () => {
    const approved = await desk.value('withdrawals/approve', { id: await request(C), as: D });
    expect(approved).toMatchObject({ state: 'approved', verification: { ok: true, countedApprovals: 1 } });
  });

  it("B may approve A's request", async () => {
    const approved = await desk.value('withdrawals/approve', { id: await request(ADMIN), as: SECOND_ADMIN });
    expect(approved).toMatchObject({ state: 'approved', verification: { ok: true, countedApprovals: 1 } });
  });

  it("C may not approve A's request: recorded, not counted", async () => {
    const id = await request(ADMIN);
    const approved = await desk.value('withdrawals/approve', { id, as: C });
    expect(approved).toMatchObject({ state: 'awaitingApproval', verification: { ok: false, countedApprovals: 0 } });
    expect(approved.approvals).toEqual([expect.objectContaining({ operator: 'cyril', counts: false, note: "cyril counts as alice's party (enrolled by one admin alone)" })]);
    expect(await desk.call('withdrawals/submit', { id, as: ADMIN })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    // D, independent of alice, completes it.
    expect((await desk.value('withdrawals/approve', { id, as: D })).state).toBe('approved');
    expect(await desk.value('audit/verify', {})).toMatchObject({ ok: true });
  });
});
