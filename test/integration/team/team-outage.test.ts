// Outages of the team database (the throwaway PostgreSQL stopped and started again): while it is down a workstation
// says so (the reason and since when), refuses decisions saying why, and keeps serving reviews from its local copy;
// PostgreSQL stopped in the middle of an approval and in the middle of a submission loses nothing and doubles
// nothing: after the restart every workstation holds each decision exactly once and the sandbox one order.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, APPROVER, INITIATOR, tronAddress, type Desk } from '../engine/support';
import { databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, postgres, sandboxOrders, within, type Workstation } from './desk-support';

let desk: Desk;
let a: Workstation;
let b: Workstation;
let restartB: () => Promise<Workstation>;

beforeAll(async () => {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  desk = first.desk;
  a = first.a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  const second = await openWorkstation('B');
  b = second;
  restartB = () => second.restart();
  await joinTeam(b, 'B', a, [APPROVER]);
}, 120_000);

afterEach(() => {
  postgres('start');
});

afterAll(async () => {
  for (const workstation of [b, a]) await workstation?.close();
});

async function reconnected(workstation: Workstation): Promise<void> {
  await within(`${workstation.name} reconnected`, 15_000, async () => (await workstation.value('team/status', {})).connected);
}

/** How many signed rows of this action a workstation holds. */
async function rowsOf(workstation: Workstation, action: string): Promise<number> {
  const audit = await workstation.value('audit/list', { limit: 500 });
  return audit.rows.filter((row) => row.action === action).length;
}

describe('the team database goes down', () => {
  it('says since when and why, refuses decisions, and keeps reviews working', async () => {
    const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '13', toAddress: tronAddress(), as: INITIATOR });
    await within('the request at B', 2000, async () => (await b.find(withdrawal.userOrder)) !== undefined);
    postgres('stop');
    await within('B notices the outage', 10_000, async () => !(await b.value('team/status', {})).connected);
    const status = await b.value('team/status', {});
    expect(status.reason).toBeTruthy();
    expect(status.since).toBeGreaterThan(0);
    const atB = await b.find(withdrawal.userOrder);
    expect(atB?.state).toBe('awaitingApproval'); // reviewing works offline
    expect(await b.value('withdrawals/get', { id: atB?.id })).toMatchObject({ amount: '13', initiator: INITIATOR.operator });
    const refused = await b.call('withdrawals/approve', { id: atB?.id, as: APPROVER });
    expect(refused).toMatchObject({ ok: false, error: { code: 'offline', message: expect.stringMatching(/team database is unreachable since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/) } });
    expect((await b.find(withdrawal.userOrder))?.state).toBe('awaitingApproval');

    postgres('start');
    await reconnected(b);
    await reconnected(a);
    expect((await b.value('withdrawals/approve', { id: atB?.id, as: APPROVER })).state).toBe('approved');
    await within('the approval at A', 2000, async () => (await a.find(withdrawal.userOrder))?.state === 'approved');
  }, 60_000);

  it('stopped mid-approval: the approval ends up recorded once everywhere', async () => {
    const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '14', toAddress: tronAddress(), as: INITIATOR });
    await within('the request at B', 2000, async () => (await b.find(withdrawal.userOrder)) !== undefined);
    const atB = await b.find(withdrawal.userOrder);
    const approving = b.call('withdrawals/approve', { id: atB?.id, as: APPROVER });
    postgres('stop');
    const first = await approving;
    postgres('start');
    await reconnected(b);
    await reconnected(a);
    console.log(`team outage mid-approval: the first attempt ${first.ok ? 'completed' : `was refused (${first.error.code})`}`);
    if (!first.ok) {
      expect(first.error.code).toBe('offline');
      expect((await b.value('withdrawals/approve', { id: atB?.id, as: APPROVER })).state).toBe('approved');
    }
    // A second attempt is refused as a repeat: the approval exists exactly once.
    expect(await b.call('withdrawals/approve', { id: atB?.id, as: APPROVER })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    await within('the approval at A', 3000, async () => (await a.find(withdrawal.userOrder))?.state === 'approved');
    for (const workstation of [a, b]) expect((await workstation.find(withdrawal.userOrder))?.approvals.map((entry) => entry.operator)).toEqual([APPROVER.operator]);
  }, 60_000);

  it('stopped mid-submission: one order at the sandbox, and every workstation learns it', async () => {
    const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '15', toAddress: tronAddress(), as: INITIATOR });
    await a.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    const submitsBefore = await rowsOf(a, 'withdrawals/submit');
    const submitting = a.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    postgres('stop');
    const first = await submitting;
    postgres('start');
    await reconnected(a);
    await reconnected(b);
    console.log(`team outage mid-submission: the first attempt ${first.ok ? `answered ${first.value.state}` : `was refused (${first.error.code}: ${first.error.message})`}`);
    if (!first.ok || first.value.state !== 'submitted') {
      // Submitting again resumes under the same userOrder (checkWithdrawOrder first), never a new one.
      await within('the submission after the restart', 10_000, async () => {
        const again = await a.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
        return again.ok && again.value.state === 'submitted';
      });
    }
    await within('the submission at B', 5000, async () => (await b.find(withdrawal.userOrder))?.state === 'submitted');
    expect(sandboxOrders(desk).filter((order) => order.userOrder === withdrawal.userOrder)).toEqual([{ userOrder: withdrawal.userOrder, count: 1 }]);
    for (const workstation of [a, b]) expect(await rowsOf(workstation, 'withdrawals/submit'), workstation.name).toBe(submitsBefore + 1);
  }, 60_000);

  it('a workstation started while the team database is down stays a team desk: offline, reviewing, refusing decisions', async () => {
    const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '16', toAddress: tronAddress(), as: INITIATOR });
    await within('the request at B', 2000, async () => (await b.find(withdrawal.userOrder)) !== undefined);
    postgres('stop');
    b = await restartB();
    const status = await b.value('team/status', {});
    expect(status).toMatchObject({ enabled: true, connected: false });
    const atB = await b.find(withdrawal.userOrder);
    expect(atB?.state).toBe('awaitingApproval');
    expect(await b.call('withdrawals/approve', { id: atB?.id, as: APPROVER })).toMatchObject({ ok: false, error: { code: 'offline' } });
    postgres('start');
    await reconnected(b);
    expect((await b.value('withdrawals/approve', { id: atB?.id, as: APPROVER })).state).toBe('approved');
    await within('the approval at A', 3000, async () => (await a.find(withdrawal.userOrder))?.state === 'approved');
  }, 60_000);
});
