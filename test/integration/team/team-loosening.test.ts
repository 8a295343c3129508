// Issue 20 part 4 on a team desk (real PostgreSQL, sandbox, two workstations): a loosening policy change made at A is
// seen at B as pending with the same effective time (B replays the same signed rows); alice's veto signed at B stops
// it at A too: A lists nothing pending, refuses a second veto naming B's, and the policy in force at A stays the
// tighter one; a tightening made at A is in force at B at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, APPROVER, SECOND_ADMIN, tronAddress } from '../engine/support';
import { joinTeam, openWorkstation, startTeamAtA, within, type Workstation } from './desk-support';

const SEEN_WITHIN_MS = 3000;

let a: Workstation;
let b: Workstation;

beforeAll(async () => {
  a = (await startTeamAtA()).a;
  b = await openWorkstation('B');
  await joinTeam(b, 'B', a, [APPROVER]);
}, 120_000);

afterAll(async () => {
  for (const workstation of [b, a]) await workstation?.close();
});

async function approvalsAt(workstation: Workstation, amount: string): Promise<number> {
  return (await workstation.value('policies/test', { currency: 'trx.usdt', amount, toAddress: tronAddress() })).requiredApprovals;
}

async function setThresholdAtA(above: string): Promise<string> {
  const change = await a.value('policies/set', { currency: 'trx.usdt', thresholds: [{ above, approvals: 2 }], dailyLimit: null, useFinancialConfirmation: false, onlyFromBook: false, as: ADMIN });
  await a.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
  return change.proposal.id;
}

describe('time-locked loosening on a team desk', () => {
  it('a veto signed at B stops the change at A', async () => {
    const governance = await a.value('governance/set', { looseningDelayHours: 24, freezeLift: 'four-eyes', freezeLockHours: 0, as: ADMIN });
    await a.value('operators/confirm', { proposal: governance.proposal?.id ?? '', as: SECOND_ADMIN });
    await within('the delay at B', SEEN_WITHIN_MS, async () => (await b.value('governance/state', {})).looseningDelayHours === 24);

    await setThresholdAtA('100');
    await within('the tightening at B, at once', SEEN_WITHIN_MS, async () => (await approvalsAt(b, '500')) === 2);

    const raised = await setThresholdAtA('1000');
    const atA = (await a.value('governance/state', {})).pending;
    expect(atA.map((change) => change.id)).toEqual([raised]);
    await within('the pending change at B', SEEN_WITHIN_MS, async () => (await b.value('governance/state', {})).pending.some((change) => change.id === raised));
    expect((await b.value('governance/state', {})).pending).toEqual(atA);

    const vetoed = await b.value('governance/veto', { change: raised, reason: 'not agreed', as: ADMIN });
    expect(vetoed.pending).toEqual([]);
    await within('the veto at A', SEEN_WITHIN_MS, async () => (await a.value('governance/state', {})).pending.length === 0);
    const again = await a.call('governance/veto', { change: raised, as: SECOND_ADMIN });
    expect(again.ok ? null : again.error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/already vetoed by alice/) });
    expect(await approvalsAt(a, '500')).toBe(2);
    expect(await approvalsAt(b, '500')).toBe(2);
  }, 90_000);
});
