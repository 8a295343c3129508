// Issue 20's approval groups and approval expiry on a real engine, SQLite file and sandbox: a group is changed only
// with a second admin's confirmation; a tier asking for one of finance AND one of treasury-leads is not met by two of
// finance, and its OR alternative is; a group row edited in the database grants nothing; an approval older than the
// policy's validity no longer counts, the send is refused naming it, and the same approver approving again releases it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, APPROVER, enrol, INITIATOR, openDesk, payoutFile, SECOND_ADMIN, type Desk } from '../engine/support';
import { expectNoOrder, expectSubmitRefused, fund, requestWithdrawal, tamper, type Requested } from './support';

const ERIN = { operator: 'erin', passphrase: 'erin passphrase 55' };
const GIL = { operator: 'gil', passphrase: 'gil passphrase 777' };
const HOUR = 3_600_000;
const AND_OR = [
  [
    { group: 'finance', count: 1 },
    { group: 'treasury-leads', count: 1 },
  ],
  [{ group: 'cfo', count: 1 }],
];

let desk: Desk;
/** Moves the engine's clock (the sandbox checks signed times: only the expiry case moves it, and puts it back). */
let offset = 0;

beforeAll(async () => {
  desk = await openDesk({ profile: false, engine: { clock: () => Date.now() + offset } });
  await desk.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
  await desk.value('operators/found', { admins: [ADMIN, SECOND_ADMIN] });
  await enrol(desk, APPROVER, 'approver');
  await enrol(desk, ERIN, 'approver');
  await enrol(desk, GIL, 'approver');
  await enrol(desk, INITIATOR, 'initiator');
  await fund(desk, '5000');
}, 180_000);
afterAll(async () => desk?.close());

/** alice proposes the group's members, frank confirms. */
async function setGroup(group: string, members: string[]): Promise<void> {
  const change = await desk.value('operators/setGroup', { group, members, as: ADMIN });
  expect(change.applied).toBe(false);
  await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
}

/** alice proposes the trx.usdt policy, frank confirms it. */
async function setPolicy(options: { thresholds?: unknown[]; approvalValidHours?: number }): Promise<void> {
  const change = await desk.value('policies/set', { currency: 'trx.usdt', thresholds: options.thresholds ?? [], dailyLimit: null, useFinancialConfirmation: false, ...options, as: ADMIN });
  await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
}

async function approve(request: Requested, as: { operator: string; passphrase: string }): Promise<string> {
  return (await desk.value('withdrawals/approve', { id: request.id, as })).state;
}

async function expectSent(request: Requested): Promise<void> {
  expect((await desk.value('withdrawals/submit', { id: request.id, as: INITIATOR })).state).not.toBe('approved');
}

describe('approval groups', () => {
  it('are changed by one admin and in force only once a second, independent admin confirms', async () => {
    expect(await desk.call('operators/setGroup', { group: 'finance', members: ['bob'], as: APPROVER })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const unknown = await desk.call('operators/setGroup', { group: 'finance', members: ['bob', 'mallory'], as: ADMIN });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalidInput', message: expect.stringMatching(/not active operators of this desk: mallory/) } });
    expect(await desk.call('operators/setGroup', { group: 'Finance Team', members: ['bob'], as: ADMIN })).toMatchObject({ ok: false, error: { code: 'invalidInput' } });

    const change = await desk.value('operators/setGroup', { group: 'finance', members: ['bob', 'ERIN'], as: ADMIN });
    expect(change).toMatchObject({ applied: false, groups: [], proposal: { kind: 'group', summary: 'make approval group finance: bob, erin', needsConfirmation: true } });
    expect(await desk.value('operators/groups', {})).toMatchObject({ groups: [], pending: [{ id: change.proposal.id }] });
    // The proposer cannot confirm their own change.
    expect((await desk.call('operators/confirm', { proposal: change.proposal.id, as: ADMIN })).ok).toBe(false);
    await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
    expect(await desk.value('operators/groups', {})).toEqual({ groups: [{ name: 'finance', members: ['bob', 'erin'] }], pending: [] });

    await setGroup('treasury-leads', ['gil']);
    await setGroup('cfo', ['frank']);
    // A policy naming a group that has no members is refused: its tier could never be met.
    const missing = await desk.call('policies/set', {
      currency: 'trx.usdt',
      thresholds: [{ above: '10', approvals: 1, groups: [[{ group: 'auditors', count: 1 }]] }],
      dailyLimit: null,
      useFinancialConfirmation: false,
      as: ADMIN,
    });
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalidInput', message: expect.stringMatching(/there is no approval group auditors/) } });
  });

  it('a tier asking for one of finance AND one of treasury-leads is not met by two of finance', async () => {
    await setPolicy({ thresholds: [{ above: '10', approvals: 2, groups: AND_OR }] });
    expect((await desk.value('policies/list', {})).find((policy) => policy.currency === 'trx.usdt')?.thresholds).toEqual([{ above: '10', approvals: 2, groups: AND_OR }]);
    const request = await requestWithdrawal(desk, '14');
    expect(await approve(request, APPROVER)).toBe('awaitingApproval');
    expect(await approve(request, ERIN)).toBe('awaitingApproval');
    const view = await desk.value('withdrawals/get', { id: request.id });
    expect(view.verification).toMatchObject({ ok: false, countedApprovals: 2, requiredApprovals: 2 });
    expect(view.verification.problems).toContain('still needed: 1 of treasury-leads (the tier asks for (1 of finance and 1 of treasury-leads) or 1 of cfo, each approver standing for one group)');
    const review = await desk.value('withdrawals/review', { id: request.id });
    expect(review.approvals).toMatchObject({ counted: 2, stillNeeded: 0, groupsStillNeeded: ['1 of treasury-leads'] });
    expect(review.rule.groups).toBe('(1 of finance and 1 of treasury-leads) or 1 of cfo');
    await expectSubmitRefused(desk, request, /is awaitingApproval/, 'conflict');
    // gil of treasury-leads completes the AND.
    expect(await approve(request, GIL)).toBe('approved');
    await expectSent(request);
  });

  it('a tier tightened to name groups after approval holds the send, naming the group; restoring it releases it', async () => {
    await setPolicy({ thresholds: [{ above: '10', approvals: 1 }] });
    const request = await requestWithdrawal(desk, '16');
    expect(await approve(request, APPROVER)).toBe('approved');
    await setPolicy({ thresholds: [{ above: '10', approvals: 1, groups: [[{ group: 'treasury-leads', count: 1 }]] }] });
    const held = await desk.call('withdrawals/submit', { id: request.id, as: INITIATOR });
    if (held.ok) expect.fail(`request ${request.id} was sent although the policy now asks for treasury-leads`);
    expect(held.error).toMatchObject({ code: 'held', message: expect.stringMatching(/the USDT on TRON policy in force now asks for approvals from 1 of treasury-leads; still needed: 1 of treasury-leads \(it was approved under an earlier policy\)/) });
    await expectNoOrder(desk, request.userOrder);
    await setPolicy({ thresholds: [{ above: '10', approvals: 2, groups: AND_OR }] });
    // bob (finance) alone does not meet the AND/OR tier in force now either; the earlier tier restored releases it.
    expect((await desk.call('withdrawals/submit', { id: request.id, as: INITIATOR })).ok).toBe(false);
    await setPolicy({ thresholds: [{ above: '10', approvals: 1 }] });
    await expectSent(request);
    await setPolicy({ thresholds: [{ above: '10', approvals: 2, groups: AND_OR }] });
  });

  it('the OR alternative alone (one of cfo) meets the tier, with the count', async () => {
    const request = await requestWithdrawal(desk, '15');
    expect(await approve(request, SECOND_ADMIN)).toBe('awaitingApproval'); // the tier still needs two approvals
    expect(await approve(request, APPROVER)).toBe('approved');
    await expectSent(request);
  });
});

describe('approval expiry', () => {
  it('an approval older than the policy allows holds the send, naming it; the same approver approving again releases it', async () => {
    await setPolicy({ approvalValidHours: 1 });
    offset = -2 * HOUR;
    let request: Requested;
    try {
      request = await requestWithdrawal(desk, '14');
      expect(await approve(request, APPROVER)).toBe('approved');
    } finally {
      offset = 0;
    }
    const view = await desk.value('withdrawals/get', { id: request.id });
    expect(view.approvals).toEqual([expect.objectContaining({ operator: 'bob', counts: false, expired: true, note: expect.stringMatching(/^expired: signed 2 h ago, and the policy counts an approval for 1 h; approve it again$/) })]);
    const review = await desk.value('withdrawals/review', { id: request.id });
    expect(review.approvals.given).toEqual([expect.objectContaining({ operator: 'bob', expired: true, counts: false })]);
    expect(review.rule.approvalValidHours).toBe(1);
    await expectSubmitRefused(desk, request, /the approval of bob expired \(the policy counts an approval for 1 h\): approve it again/);
    // bob approves again (his expired approval does not count as "already approved"); the fresh one releases the send.
    expect(await approve(request, APPROVER)).toBe('approved');
    const renewed = await desk.value('withdrawals/get', { id: request.id });
    expect(renewed.verification).toMatchObject({ ok: true, countedApprovals: 1 });
    expect(renewed.approvals.map((approval) => approval.expired)).toEqual([true, false]);
    // A second approval by bob while his fresh one stands is refused as before.
    expect(await desk.call('withdrawals/approve', { id: request.id, as: APPROVER })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    await expectSent(request);
    // Once sent, its approvals are judged as of the send: a sent request does not turn expired later.
    expect((await desk.value('withdrawals/get', { id: request.id })).approvals.at(-1)).toMatchObject({ counts: true, expired: false });
  });
});

describe('approval expiry on a batch payout', () => {
  it('an expired approval of the batch refuses its lines; approving the batch again sends them', async () => {
    await setPolicy({ approvalValidHours: 1 });
    offset = -2 * HOUR;
    let imported: { id: string };
    try {
      imported = await desk.value('payouts/import', { path: payoutFile(desk, 'expiring.csv', 2), as: INITIATOR });
      expect((await desk.value('payouts/approve', { id: imported.id, as: APPROVER })).state).toBe('approved');
    } finally {
      offset = 0;
    }
    // Each line is refused, naming the expiry; nothing is sent.
    const refused = await desk.value('payouts/submit', { id: imported.id, as: INITIATOR });
    expect(refused.sent).toBe(0);
    expect(refused.failures.map((failure) => failure.error)).toEqual([1, 2].map(() => expect.stringMatching(/the approval of bob expired \(the policy counts an approval for 1 h\): approve it again/)));
    expect(refused.batch.approvals).toEqual([expect.objectContaining({ operator: 'bob', counts: false, expired: true })]);
    expect((await desk.value('payouts/approve', { id: imported.id, as: APPROVER })).state).toBe('approved');
    expect(await desk.value('payouts/submit', { id: imported.id, as: INITIATOR })).toMatchObject({ sent: 2, failures: [] });
  });
});

describe('a tampered group row', () => {
  it('grants nothing: erin written into treasury-leads in the database does not make finance+finance enough', async () => {
    await setPolicy({ thresholds: [{ above: '10', approvals: 2, groups: AND_OR }] });
    const request = await requestWithdrawal(desk, '14');
    await approve(request, APPROVER);
    await approve(request, ERIN);
    const before = await desk.value('operators/groups', {});
    tamper(desk, (db) => {
      const row = db.prepare("SELECT seq, statement FROM audit_log WHERE kind = 'group' AND subject = 'treasury-leads'").get() as { seq: number; statement: string };
      db.prepare('UPDATE audit_log SET statement = ? WHERE seq = ?').run(row.statement.replace('"members":["gil"]', '"members":["erin","gil"]'), row.seq);
      db.prepare("UPDATE withdrawal_requests SET state = 'approved' WHERE id = ?").run(Number(request.id));
    });
    const after = await desk.value('operators/groups', {});
    expect(after.groups.find((group) => group.name === 'treasury-leads')?.members ?? []).not.toContain('erin');
    expect(after.groups.find((group) => group.name === 'finance')).toEqual(before.groups.find((group) => group.name === 'finance'));
    const view = await desk.value('withdrawals/get', { id: request.id });
    expect(view.verification.ok).toBe(false);
    expect(view.verification.problems.join('\n')).toMatch(/still needed: 1 of treasury-leads/);
    const result = await desk.call('withdrawals/submit', { id: request.id, as: INITIATOR });
    if (result.ok) expect.fail(`request ${request.id} was sent on a tampered group row`);
    expect(result.error.message).toMatch(/the audit log does not hold/);
    await expectNoOrder(desk, request.userOrder);
  });
});
