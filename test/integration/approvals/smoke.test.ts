// The signed-approvals desk end to end on the real engine, sandbox, SQLite file and Secret Service: founding pair,
// invitations, a request approved by an independent approver and submitted by a named operator, a clean audit chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, APPROVER, INITIATOR, openDesk, tronAddress, type Desk } from '../engine/support';

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk();
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  await desk.value('sync/run', {});
});
afterAll(async () => desk?.close());

describe('signed approvals', () => {
  it('request, approve, submit, verify', async () => {
    const roster = await desk.value('operators/list', {});
    expect(roster.founded).toBe(true);
    expect(roster.fourEyes).toBe(true);
    expect(roster.operators.map((operator) => `${operator.name}:${operator.status}:${operator.party.join('+')}`)).toEqual([
      'alice:active:alice',
      'bob:active:bob',
      'carol:active:carol',
      'dave:active:dave',
      'frank:active:frank',
    ]);
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '14', toAddress: tronAddress(), memo: 'invoice 7', as: INITIATOR });
    expect(withdrawal.fingerprint).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    const approved = await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    expect(approved.state).toBe('approved');
    expect(approved.verification).toMatchObject({ ok: true, countedApprovals: 1, requiredApprovals: 1 });
    const submitted = await desk.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(submitted.state).toBe('submitted');
    const order = await desk.admin<{ remark?: string }>('GET', `/withdrawals/${desk.sandbox.credentials.merchantId}/${withdrawal.userOrder}`);
    expect(JSON.stringify(order.json)).toContain(withdrawal.fingerprint);
    const verification = await desk.value('audit/verify', {});
    expect(verification).toMatchObject({ ok: true, anchored: true });
  });

  it('refuses a reason with control or bidi characters in the engine itself, not only in the contract schema', async () => {
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '15', toAddress: tronAddress(), as: INITIATOR });
    // Straight to the handler, as a face that skipped the schema would: the engine still refuses, and records nothing.
    const rejected = await desk.engine.handlers['withdrawals/reject']({ id: withdrawal.id, reason: 'ok \u202Eevil', as: APPROVER });
    expect(rejected).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    const cancelled = await desk.engine.handlers['withdrawals/cancel']({ id: withdrawal.id, reason: '\u001b[31mred', as: ADMIN });
    expect(cancelled).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    const after = await desk.value('withdrawals/get', { id: withdrawal.id });
    expect(after).toMatchObject({ state: 'awaitingApproval', approvals: [] });
  });
});
