// Four-eyes approval rules, enforced by the engine itself (not the UI): self-approval, a wrong passphrase, a viewer or
// an initiator approving, the same approver twice, approving a cancelled or rejected request are all refused and
// change nothing; a two-approval policy needs two distinct approvers, and a request keeps the approvals its policy
// required when it was made. Nothing reaches the service until a request is approved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, APPROVER, enrol, INITIATOR, openDesk, SECOND_ADMIN, tronAddress, VIEWER, type Desk } from './support';

const SECOND_APPROVER = { operator: 'erin', passphrase: 'erin passphrase 55' };

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk();
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  await enrol(desk, SECOND_APPROVER, 'approver');
  await desk.value('sync/run', {});
});
afterAll(async () => desk?.close());

async function request(amount: string, as = INITIATOR): Promise<{ id: string; userOrder: string }> {
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress: tronAddress(), as });
  expect(withdrawal.state).toBe('awaitingApproval');
  return { id: withdrawal.id, userOrder: withdrawal.userOrder };
}

async function expectRefused(method: 'withdrawals/approve' | 'withdrawals/reject', body: Record<string, unknown>, code: string): Promise<void> {
  const result = await desk.call(method, body);
  expect(result, `${method} ${JSON.stringify(body['as'])}`).toMatchObject({ ok: false, error: { code } });
}

/** Sets a currency policy: alice proposes it, frank (the other founder) confirms it. */
async function setPolicy(thresholds: { above: string; approvals: number }[]): Promise<void> {
  const change = await desk.value('policies/set', { currency: 'trx.usdt', thresholds, dailyLimit: null, useFinancialConfirmation: false, as: ADMIN });
  expect(change.applied).toBe(false);
  await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
  expect((await desk.value('policies/list', {})).find((policy) => policy.currency === 'trx.usdt')?.thresholds).toEqual(thresholds);
}

async function approvals(id: string): Promise<string[]> {
  return (await desk.value('withdrawals/get', { id })).approvals.map((approval) => `${approval.operator}:${approval.decision}`);
}

describe('who may approve', () => {
  it('refuses self-approval, a wrong passphrase, a viewer and an initiator, and records nothing', async () => {
    const byCarol = await request('10');
    await expectRefused('withdrawals/approve', { id: byCarol.id, as: INITIATOR }, 'forbidden');
    await expectRefused('withdrawals/approve', { id: byCarol.id, as: { ...APPROVER, passphrase: 'not bob passphrase' } }, 'wrongPassphrase');
    await expectRefused('withdrawals/approve', { id: byCarol.id, as: { operator: 'mallory', passphrase: 'mallory passphrase' } }, 'wrongPassphrase');
    await expectRefused('withdrawals/approve', { id: byCarol.id, as: VIEWER }, 'forbidden');
    await expectRefused('withdrawals/reject', { id: byCarol.id, reason: 'no', as: INITIATOR }, 'forbidden');
    await expectRefused('withdrawals/reject', { id: byCarol.id, reason: 'no', as: VIEWER }, 'forbidden');
    // An admin may approve, but never a request they made themselves.
    const byAlice = await request('10', ADMIN);
    await expectRefused('withdrawals/approve', { id: byAlice.id, as: ADMIN }, 'forbidden');
    // An initiator may not approve another's request either: approving is not their role.
    await expectRefused('withdrawals/approve', { id: byAlice.id, as: INITIATOR }, 'forbidden');

    for (const id of [byCarol.id, byAlice.id]) {
      expect(await desk.value('withdrawals/get', { id })).toMatchObject({ state: 'awaitingApproval', approvals: [] });
      expect(await desk.call('withdrawals/submit', { id, as: INITIATOR })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    }
    // A wrong passphrase signs nothing: the desk key records the failed attempt, naming the operator as its subject.
    const audit = await desk.value('audit/list', { limit: 100 });
    expect(audit.rows.some((row) => row.action === 'operators/wrongPassphrase' && row.operator === null && row.subject === APPROVER.operator)).toBe(true);
    expect(audit.rows.filter((row) => row.action === 'withdrawals/approve')).toEqual([]);

    // The rightful approver still can.
    expect((await desk.value('withdrawals/approve', { id: byCarol.id, as: APPROVER })).state).toBe('approved');
    expect((await desk.value('withdrawals/approve', { id: byAlice.id, as: APPROVER })).state).toBe('approved');
  });
});

describe('decisions that come too late or twice', () => {
  it('refuses approving a cancelled request, approving after a rejection, and a second decision by the same approver', async () => {
    const cancelled = await request('10');
    await desk.value('withdrawals/cancel', { id: cancelled.id, reason: 'wrong amount', as: INITIATOR });
    await expectRefused('withdrawals/approve', { id: cancelled.id, as: APPROVER }, 'conflict');
    expect(await desk.value('withdrawals/get', { id: cancelled.id })).toMatchObject({ state: 'cancelled', approvals: [] });

    const rejected = await request('10');
    expect((await desk.value('withdrawals/reject', { id: rejected.id, reason: 'unknown payee', as: APPROVER })).state).toBe('rejected');
    await expectRefused('withdrawals/approve', { id: rejected.id, as: SECOND_APPROVER }, 'conflict');
    await expectRefused('withdrawals/approve', { id: rejected.id, as: APPROVER }, 'conflict');
    expect(await desk.value('withdrawals/get', { id: rejected.id })).toMatchObject({ state: 'rejected' });
    expect(await approvals(rejected.id)).toEqual(['bob:reject']);
    expect(await desk.call('withdrawals/submit', { id: rejected.id, as: INITIATOR })).toMatchObject({ ok: false, error: { code: 'conflict' } });

    // An approved request cannot be approved again, nor rejected after the fact.
    const approved = await request('10');
    await desk.value('withdrawals/approve', { id: approved.id, as: APPROVER });
    await expectRefused('withdrawals/approve', { id: approved.id, as: SECOND_APPROVER }, 'conflict');
    await expectRefused('withdrawals/reject', { id: approved.id, reason: 'changed my mind', as: SECOND_APPROVER }, 'conflict');
    expect(await approvals(approved.id)).toEqual(['bob:approve']);
  });
});

describe('a two-approval policy', () => {
  it('needs two distinct approvers; the same one twice does not count', async () => {
    await setPolicy([{ above: '100', approvals: 2 }]);
    const small = await request('100');
    const large = await request('150');
    expect((await desk.value('withdrawals/get', { id: small.id })).requiredApprovals).toBe(1);
    expect((await desk.value('withdrawals/get', { id: large.id })).requiredApprovals).toBe(2);

    const first = await desk.value('withdrawals/approve', { id: large.id, as: APPROVER });
    expect(first.state).toBe('awaitingApproval');
    await expectRefused('withdrawals/approve', { id: large.id, as: APPROVER }, 'conflict');
    expect(await desk.call('withdrawals/submit', { id: large.id, as: INITIATOR })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect((await desk.value('withdrawals/get', { id: large.id })).state).toBe('awaitingApproval');

    // Relaxing the policy later does not lower what this request needs.
    await setPolicy([]);
    expect((await desk.value('withdrawals/get', { id: large.id })).state).toBe('awaitingApproval');

    const second = await desk.value('withdrawals/approve', { id: large.id, as: SECOND_APPROVER });
    expect(second.state).toBe('approved');
    expect(second.approvals.map((approval) => approval.operator)).toEqual([APPROVER.operator, SECOND_APPROVER.operator]);
    expect(second.verification).toMatchObject({ ok: true, countedApprovals: 2, requiredApprovals: 2 });
    expect((await desk.value('withdrawals/submit', { id: large.id, as: INITIATOR })).state).toBe('submitted');
    expect((await desk.value('withdrawals/approve', { id: small.id, as: SECOND_APPROVER })).state).toBe('approved');
    expect((await desk.value('audit/verify', {})).ok).toBe(true);
  });
});
