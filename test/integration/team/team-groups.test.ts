// Issue 20's approval groups on a team desk (real PostgreSQL, sandbox, two workstations): a group changed at B by two
// admins (proposed by alice, confirmed by frank, both with device keys there) is what A's send is judged by: frank's
// approval outside the group leaves A's request waiting for "1 of finance", bob's from the group completes it, and an
// approval counts for the groups its approver was in when signing it, whatever B changes later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, APPROVER, INITIATOR, SECOND_ADMIN, tronAddress } from '../engine/support';
import { joinTeam, openWorkstation, sandboxOrders, startTeamAtA, within, type Workstation } from './desk-support';

const SEEN_WITHIN_MS = 3000;
let a: Workstation;
let b: Workstation;
let orders: () => { userOrder: string }[];

beforeAll(async () => {
  const first = await startTeamAtA();
  a = first.a;
  orders = () => sandboxOrders(first.desk);
  b = await openWorkstation('B');
  await joinTeam(b, 'B', a, [APPROVER, SECOND_ADMIN]);
}, 120_000);

afterAll(async () => {
  for (const workstation of [b, a]) await workstation?.close();
});

/** At B: alice proposes the group's members, frank confirms; then A sees them. */
async function groupAtB(members: string[]): Promise<void> {
  const change = await b.value('operators/setGroup', { group: 'finance', members, as: ADMIN });
  expect(change.applied).toBe(false);
  await b.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
  await within('the group at A', SEEN_WITHIN_MS, async () => JSON.stringify((await a.value('operators/groups', {})).groups) === JSON.stringify([{ name: 'finance', members }]));
}

async function requestAtA(amount: string): Promise<{ id: string; userOrder: string; idAtB: () => Promise<string> }> {
  const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress: tronAddress(), as: INITIATOR });
  const idAtB = async (): Promise<string> => {
    let id = '';
    await within('the request at B', SEEN_WITHIN_MS, async () => {
      id = (await b.value('withdrawals/list', { limit: 50 })).rows.find((row) => row.userOrder === withdrawal.userOrder)?.id ?? '';
      return id !== '';
    });
    return id;
  };
  return { id: withdrawal.id, userOrder: withdrawal.userOrder, idAtB };
}

describe('approval groups on a team desk', () => {
  it('a group changed at B decides what A may send', async () => {
    await groupAtB(['bob']);
    const policy = await a.value('policies/set', {
      currency: 'trx.usdt',
      thresholds: [{ above: '10', approvals: 1, groups: [[{ group: 'finance', count: 1 }]] }],
      dailyLimit: null,
      useFinancialConfirmation: false,
      as: ADMIN,
    });
    await a.value('operators/confirm', { proposal: policy.proposal.id, as: SECOND_ADMIN });

    // frank is not in finance: his approval counts toward the number, not toward the group.
    const first = await requestAtA('12');
    expect((await a.value('withdrawals/approve', { id: first.id, as: SECOND_ADMIN })).state).toBe('awaitingApproval');
    expect((await a.value('withdrawals/get', { id: first.id })).verification.problems.join('\n')).toMatch(/still needed: 1 of finance/);
    expect(await a.call('withdrawals/submit', { id: first.id, as: INITIATOR })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    // bob, in finance by B's change, approves at B: A sends.
    await b.value('withdrawals/approve', { id: await first.idAtB(), as: APPROVER });
    await within('the approval at A', SEEN_WITHIN_MS, async () => (await a.value('withdrawals/get', { id: first.id })).state === 'approved');
    expect((await a.value('withdrawals/submit', { id: first.id, as: INITIATOR })).state).not.toBe('approved');
    expect(orders().filter((order) => order.userOrder === first.userOrder)).toHaveLength(1);

    // bob approves a second request at B, then B moves finance to frank alone: bob's approval was signed while he was
    // in the group and still counts; a new approval by bob would not.
    const second = await requestAtA('13');
    await b.value('withdrawals/approve', { id: await second.idAtB(), as: APPROVER });
    await within('the second approval at A', SEEN_WITHIN_MS, async () => (await a.value('withdrawals/get', { id: second.id })).state === 'approved');
    await groupAtB(['frank']);
    expect((await a.value('withdrawals/submit', { id: second.id, as: INITIATOR })).state).not.toBe('approved');
    const third = await requestAtA('14');
    await b.value('withdrawals/approve', { id: await third.idAtB(), as: APPROVER });
    await within('the third approval at A', SEEN_WITHIN_MS, async () => (await a.value('withdrawals/get', { id: third.id })).approvals.length === 1);
    const waiting = await a.value('withdrawals/get', { id: third.id });
    expect(waiting.state).toBe('awaitingApproval');
    expect(waiting.verification.problems.join('\n')).toMatch(/still needed: 1 of finance/);
    expect(orders().some((order) => order.userOrder === third.userOrder)).toBe(false);
  }, 120_000);
});
