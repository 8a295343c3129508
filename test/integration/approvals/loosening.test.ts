// Issue 20 part 4 on a real engine, sandbox and SQLite, with the engine's clock injected (and the sandbox's moved with
// it, so a real send can follow): with a loosening delay set, a raised approval threshold waits for the delay and then
// applies (a real send goes through under it), a tightening applies at once, a veto during the delay stops a change for
// good and a veto after it took effect is refused; under a time-locked freeze lift one admin's unfreeze lifts only after
// the lock; and rows planted in the address_book table change nothing while the signed addition waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskNotification } from '../../../electron/contract';
import { ADMIN, APPROVER, enrol, INITIATOR, openDesk, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { expectNoOrder, fund, tamper, type RawAuditRow } from './support';

const HOUR = 3_600_000;
let offset = 0;
const clock = (): number => Date.now() + offset;
let desk: Desk;
/** An address in the signed book once its addition took effect (the second case adds it). */
let booked = '';
const notices: DeskNotification[] = [];

/** The notice about a scheduled change, once raised (the review runs after the change's event). */
async function noticeOf(id: string): Promise<DeskNotification> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const notice = notices.find((each) => each.id.endsWith(`loosening:${id}`));
    if (notice) return notice;
    if (Date.now() > deadline) throw new Error(`no notice for ${id}: ${JSON.stringify(notices.map((each) => each.id))}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Moves the desk's clock and the sandbox's by `hours`. */
async function advance(hours: number): Promise<void> {
  offset += hours * HOUR;
  expect((await desk.admin('POST', '/clock', { offsetSeconds: Math.round(offset / 1000) })).status).toBe(200);
}

beforeAll(async () => {
  desk = await openDesk({ profile: false, engine: { clock, notifications: { reviewIntervalMs: 3_600_000, offlineNoticeDelayMs: 0, watchdogIntervalMs: 3_600_000 } } });
  desk.engine.onEvent((event) => {
    if (event.type === 'notification/raised') notices.push(event.notification);
  });
  await desk.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
  await desk.value('operators/found', { admins: [ADMIN, SECOND_ADMIN] });
  await enrol(desk, APPROVER, 'approver');
  await enrol(desk, INITIATOR, 'initiator');
  await fund(desk);
}, 180_000);
afterAll(async () => desk?.close());

async function setThreshold(above: string): Promise<string> {
  const change = await desk.value('policies/set', { currency: 'trx.usdt', thresholds: [{ above, approvals: 2 }], dailyLimit: null, useFinancialConfirmation: false, onlyFromBook: false, as: ADMIN });
  await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
  return change.proposal.id;
}

async function approvalsFor(amount: string): Promise<number> {
  return (await desk.value('policies/test', { currency: 'trx.usdt', amount, toAddress: tronAddress() })).requiredApprovals;
}

async function setGovernance(looseningDelayHours: number, freezeLift: 'four-eyes' | 'time-lock', freezeLockHours: number): Promise<void> {
  const state = await desk.value('governance/set', { looseningDelayHours, freezeLift, freezeLockHours, as: ADMIN });
  expect(state.proposal).toMatchObject({ kind: 'governance', state: 'open' });
  await desk.value('operators/confirm', { proposal: state.proposal?.id ?? '', as: SECOND_ADMIN });
}

describe('time-locked loosening with a veto', () => {
  it('a raised threshold waits for the delay, a tightening applies at once, and a send follows the rule in force', async () => {
    expect(await desk.value('governance/state', {})).toMatchObject({ looseningDelayHours: 0, freezeLift: 'four-eyes', reference: null, pending: [] });
    // From no delay to 24 h tightens: at once.
    await setGovernance(24, 'four-eyes', 0);
    expect(await desk.value('governance/state', {})).toMatchObject({ looseningDelayHours: 24, pending: [] });
    // A tightening (from the default) applies at once.
    await setThreshold('100');
    expect(await approvalsFor('500')).toBe(2);
    // Raising the threshold loosens: it is scheduled, named, and the old rule holds meanwhile.
    const confirmedAt = clock();
    const raised = await setThreshold('1000');
    const pending = (await desk.value('governance/state', {})).pending;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ id: raised, kind: 'policy', subject: 'trx.usdt', proposer: 'alice', confirmedBy: 'frank', loosens: ['fewer approvals above 100'] });
    expect(pending[0]!.effectiveAt - confirmedAt).toBeGreaterThanOrEqual(24 * HOUR);
    expect(pending[0]!.effectiveAt - confirmedAt).toBeLessThan(24 * HOUR + 60_000);
    expect(await approvalsFor('500')).toBe(2);
    // Every admin is told: what, who, when, and how to veto; a locked desk shows no names.
    const notice = await noticeOf(raised);
    expect(notice).toMatchObject({ kind: 'looseningScheduled', target: { kind: 'governance' } });
    expect([...notice.recipients].sort()).toEqual(['alice', 'frank']);
    expect(notice.body).toMatch(new RegExp(`trx\\.usdt.*fewer approvals above 100.*by alice and frank; it takes effect .* UTC\\. Any admin may veto it before then: .*governance veto ${raised.slice(0, 12)}`));
    expect(notice.discreetBody).not.toMatch(/alice|frank/);
    await advance(23);
    expect(await approvalsFor('500')).toBe(2);
    await advance(2);
    expect(await approvalsFor('500')).toBe(1);
    expect((await desk.value('governance/state', {})).pending).toEqual([]);
    // A real request under the loosened rule: one approval, sent.
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '500', toAddress: tronAddress(), as: INITIATOR });
    expect((await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER })).state).toBe('approved');
    const sent = await desk.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(sent.ok, sent.ok ? '' : sent.error.message).toBe(true);
  });

  it('a veto during the delay stops the change for good; a veto after it took effect is refused, named', async () => {
    const raised = await setThreshold('5000');
    expect((await desk.value('governance/state', {})).pending.map((change) => change.id)).toEqual([raised]);
    const refused = await desk.call('governance/veto', { change: raised, as: APPROVER });
    expect(refused.ok ? null : refused.error.message).toMatch(/bob is an approver, not an admin/);
    const vetoed = await desk.value('governance/veto', { change: raised.slice(0, 12), reason: 'too high', as: SECOND_ADMIN });
    expect(vetoed.pending).toEqual([]);
    await advance(30);
    expect(await approvalsFor('2000')).toBe(2);
    const again = await desk.call('governance/veto', { change: raised, as: ADMIN });
    expect(again.ok ? null : again.error.message).toMatch(/already vetoed by frank/);

    // A book addition loosens too; planting the address in the address_book table opens nothing meanwhile.
    const address = tronAddress();
    const added = await desk.value('addressbook/add', { chain: 'trx', address, as: INITIATOR });
    const proposal = added.pending.find((entry) => entry.address === address)?.proposal ?? '';
    await desk.value('addressbook/approve', { proposal, as: APPROVER });
    tamper(desk, (db) => db.prepare("INSERT OR IGNORE INTO address_book (profile, chain, address, label, created_at) VALUES ('main', 'trx', ?, 'planted', 0)").run(address));
    const onlyFromBook = await desk.value('policies/set', { currency: 'trx.usdt', thresholds: [{ above: '1000', approvals: 2 }], dailyLimit: null, useFinancialConfirmation: false, onlyFromBook: true, as: ADMIN });
    await desk.value('operators/confirm', { proposal: onlyFromBook.proposal.id, as: SECOND_ADMIN });
    const before = await desk.value('policies/test', { currency: 'trx.usdt', amount: '10', toAddress: address });
    expect(before.allowed).toBe(false);
    expect(before.findings.find((finding) => finding.rule === 'onlyFromBook')).toMatchObject({ refuses: true });
    await advance(25);
    expect((await desk.value('policies/test', { currency: 'trx.usdt', amount: '10', toAddress: address })).allowed).toBe(true);
    booked = address;
    const late = await desk.call('governance/veto', { change: proposal, as: ADMIN });
    expect(late.ok ? null : late.error.message).toMatch(/took effect at .*: a veto comes during the delay/);
  });

  it('under a time-locked lift, one admin lifts a freeze, and sending resumes only after the lock', async () => {
    // Choosing a one-admin lift loosens governance: it waits for the 24 h delay itself.
    await setGovernance(24, 'time-lock', 48);
    expect(await desk.value('governance/state', {})).toMatchObject({ freezeLift: 'four-eyes' });
    await advance(25);
    expect(await desk.value('governance/state', {})).toMatchObject({ freezeLift: 'time-lock', freezeLockHours: 48 });

    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '14', toAddress: booked, as: INITIATOR });
    expect((await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER })).state).toBe('approved');
    await desk.value('sending/freeze', { reason: 'drill', as: ADMIN });
    const lifting = await desk.value('sending/unfreeze', { as: ADMIN });
    expect(lifting.lift).toBeNull();
    expect(lifting.frozen?.liftAt).toBeGreaterThanOrEqual(clock() + 47 * HOUR);
    const held = await desk.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(held.ok ? null : held.error).toMatchObject({ code: 'held', message: expect.stringMatching(/its lift takes effect at .* unless an admin vetoes it/) });
    await expectNoOrder(desk, withdrawal.userOrder);
    await advance(47);
    expect((await desk.value('sending/state', {})).frozen).not.toBeNull();
    await advance(2);
    expect((await desk.value('sending/state', {})).frozen).toBeNull();
    const sent = await desk.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(sent.ok, sent.ok ? '' : sent.error.message).toBe(true);

    // A second freeze and lift, vetoed during the lock: the freeze stays.
    await desk.value('sending/freeze', { reason: 'second drill', as: ADMIN });
    const second = await desk.value('sending/unfreeze', { as: ADMIN });
    const lift = (await desk.value('governance/state', {})).pending.find((change) => change.kind === 'unfreeze');
    expect(lift?.effectiveAt).toBe(second.frozen?.liftAt);
    await desk.value('governance/veto', { change: lift?.id ?? '', as: SECOND_ADMIN });
    await advance(100);
    expect((await desk.value('sending/state', {})).frozen).toMatchObject({ reason: 'second drill', liftAt: null });
  });

  it("moving a scheduled change's time back in the database changes nothing: columns are not read, a re-dated statement does not verify", async () => {
    const raised = await setThreshold('3000');
    expect((await desk.value('governance/state', {})).pending.map((change) => change.id)).toEqual([raised]);
    const confirmRow = (): RawAuditRow => tamper(desk, (db) => db.prepare("SELECT * FROM audit_log WHERE kind = 'confirm' ORDER BY seq DESC LIMIT 1").get() as RawAuditRow);
    const row = confirmRow();
    // The audit column of the applying row, two days back: the roster reads the signed statement only.
    tamper(desk, (db) => db.prepare('UPDATE audit_log SET at = ? WHERE seq = ?').run(row.at - 48 * HOUR, row.seq));
    expect(await approvalsFor('2000')).toBe(2);
    // The signed statement's own time, two days back: the signature no longer verifies, so the change has no effect.
    const redated = row.statement.replace(/"at":(\d+)/, (_all, at: string) => `"at":${Number(at) - 48 * HOUR}`);
    expect(redated).not.toBe(row.statement);
    tamper(desk, (db) => db.prepare('UPDATE audit_log SET statement = ? WHERE seq = ?').run(redated, row.seq));
    const after = await desk.call('policies/test', { currency: 'trx.usdt', amount: '2000', toAddress: tronAddress() });
    expect(after).toMatchObject({ ok: true, value: { requiredApprovals: 2 } });
    // Not even after its delay: the change whose statement was altered never takes effect.
    await advance(25);
    expect(await approvalsFor('2000')).toBe(2);
  });
});
