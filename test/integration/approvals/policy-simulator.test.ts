// Issue 20, part 6 on a real engine and sandbox: the policy simulator (policies/test, `policy test`) says which rules
// apply to a withdrawal that is never made and what they require, and agrees with what the desk then does; the
// editor's preview (policies/preview) says, before a change is proposed, what it would change for the requests now
// waiting, with the requests' amounts and destinations from their signed intents; nothing is signed by either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyRuleName, PolicyTestView } from '../../../electron/contract';
import { ADMIN, APPROVER, INITIATOR, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { auditEntries, fundedDesk, requestWithdrawal, tamper } from './support';

let desk: Desk;
beforeAll(async () => {
  desk = await fundedDesk();
}, 120_000);
afterAll(async () => {
  await desk.close();
});

const DRAFT = { currency: 'trx.usdt' as const, thresholds: [{ above: '100', approvals: 2 }], dailyLimit: '50' as string | null, useFinancialConfirmation: false };

async function setPolicy(draft: Omit<typeof DRAFT, 'currency'> & { onlyFromBook?: boolean; newDestinationWaitHours?: number }): Promise<void> {
  const change = await desk.value('policies/set', { currency: 'trx.usdt', ...draft, as: ADMIN });
  await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
}

function finding(view: PolicyTestView, rule: PolicyRuleName): { active: boolean; refuses: boolean; text: string } {
  const found = view.findings.find((entry) => entry.rule === rule);
  if (found === undefined) throw new Error(`no ${rule} finding in ${JSON.stringify(view.findings)}`);
  return found;
}

describe('the policy simulator', () => {
  it('names every rule, and what it says is what the desk then does', async () => {
    await setPolicy({ thresholds: [{ above: '100', approvals: 2 }], dailyLimit: '50', useFinancialConfirmation: false, onlyFromBook: true });
    const book = tronAddress();
    const added = await desk.value('addressbook/add', { chain: 'trx', address: book, label: 'payroll', as: INITIATOR });
    await desk.value('addressbook/approve', { proposal: added.pending.find((entry) => entry.address === book)?.proposal, as: APPROVER });
    const rowsBefore = (await auditEntries(desk)).length;

    const fits = await desk.value('policies/test', { currency: 'trx.usdt', amount: '40', toAddress: book, initiator: 'carol' });
    expect(fits).toMatchObject({ allowed: true, requiredApprovals: 1, initiator: 'carol', policy: { source: 'in force' } });
    expect(fits.findings.map((entry) => entry.rule)).toEqual(['initiator', 'freeze', 'approvals', 'dailyLimit', 'onlyFromBook', 'newDestinationWait', 'poisoning', 'provenControl', 'windows', 'unusualAmount', 'approvalExpiry', 'withdrawType']);
    // The poisoning radar is always judged (poisoning-radar.test.ts flags an address): a book address is not flagged.
    expect(finding(fits, 'poisoning')).toMatchObject({ active: false, refuses: false });
    expect(finding(fits, 'windows')).toMatchObject({ active: false, text: 'no rolling windows and no destination caps' });
    expect(finding(fits, 'unusualAmount')).toMatchObject({ active: false, refuses: false, text: 'no unusual-amount rule: the payment history adds no approval' });
    expect(finding(fits, 'approvalExpiry')).toMatchObject({ active: false, text: 'approvals do not expire' });
    expect(finding(fits, 'initiator').text).toBe('carol is an initiator and may request withdrawals');
    expect(finding(fits, 'dailyLimit').text).toMatch(/the daily limit is 50; .*10 remains after it/);
    expect(finding(fits, 'onlyFromBook')).toMatchObject({ active: true, refuses: false });
    expect(finding(fits, 'newDestinationWait')).toMatchObject({ active: false, refuses: false });
    // The desk agrees: the request is accepted.
    await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '40', toAddress: book, as: INITIATOR });

    // Now 40 of 50 are used: 20 more does not fit; an address outside the book is refused; 150 needs two approvals.
    const over = await desk.value('policies/test', { currency: 'trx.usdt', amount: '20', toAddress: tronAddress(), initiator: 'bob' });
    expect(over.allowed).toBe(false);
    expect(finding(over, 'initiator')).toMatchObject({ refuses: true, text: 'bob is an approver and may not request withdrawals' });
    expect(finding(over, 'dailyLimit')).toMatchObject({ refuses: true, text: expect.stringMatching(/40 was already requested today, so at most 10 remains/) });
    expect(finding(over, 'onlyFromBook')).toMatchObject({ refuses: true, text: expect.stringMatching(/only addresses from the address book/) });
    const refused = await desk.call('withdrawals/request', { currency: 'trx.usdt', amount: '20', toAddress: tronAddress(), as: INITIATOR });
    expect(refused.ok).toBe(false);
    const big = await desk.value('policies/test', { currency: 'trx.usdt', amount: '150', toAddress: book });
    expect(big.requiredApprovals).toBe(2);
    expect(finding(big, 'approvals').text).toBe('amounts above 100 need 2 approvals: 150 needs 2 independent approvals, each from an operator independent of the initiator and of each other');
    expect(finding(big, 'initiator')).toMatchObject({ active: false, refuses: false });

    // A draft is judged instead of the policy in force when given.
    const draft = await desk.value('policies/test', { currency: 'trx.usdt', amount: '20', toAddress: book, draft: { thresholds: [], dailyLimit: '100', useFinancialConfirmation: false, onlyFromBook: true } });
    expect(draft).toMatchObject({ allowed: true, policy: { source: 'draft', reference: null } });

    // A draft with a window per initiator and an approval validity: carol's request of 40 already fills her window.
    const windowed = await desk.value('policies/test', {
      currency: 'trx.usdt',
      amount: '5',
      toAddress: book,
      initiator: 'carol',
      draft: { thresholds: [], dailyLimit: null, useFinancialConfirmation: false, windows: [{ hours: 24, scope: 'initiator', maxCount: 1 }], approvalValidHours: 12 },
    });
    expect(finding(windowed, 'windows')).toMatchObject({ active: true, refuses: true, text: expect.stringMatching(/24 h window per initiator allows 1 request/) });
    expect(finding(windowed, 'approvalExpiry')).toMatchObject({ active: true, text: 'an approval counts for 12 h, then must be given again' });
    const anyone = await desk.value('policies/test', {
      currency: 'trx.usdt',
      amount: '5',
      toAddress: book,
      draft: { thresholds: [], dailyLimit: null, useFinancialConfirmation: false, windows: [{ hours: 24, scope: 'initiator', maxCount: 1 }] },
    });
    expect(finding(anyone, 'windows')).toMatchObject({ refuses: false, text: expect.stringMatching(/judged once an initiator is named/) });

    // A freeze is named: it holds at send.
    await desk.value('sending/freeze', { reason: 'drill', as: ADMIN });
    const frozen = await desk.value('policies/test', { currency: 'trx.usdt', amount: '1', toAddress: book });
    expect(finding(frozen, 'freeze')).toMatchObject({ refuses: true, text: expect.stringMatching(/sending is frozen by alice \(drill\)/) });
    const lift = await desk.value('sending/unfreeze', { as: ADMIN });
    await desk.value('operators/confirm', { proposal: lift.lift?.id, as: SECOND_ADMIN });

    // Bad input is refused, clearly; the simulator signed nothing (the rows are the request, the freeze and its lift).
    expect(await desk.call('policies/test', { currency: 'trx.usdt', amount: '1.1234567', toAddress: book })).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect(await desk.call('policies/test', { currency: 'trx.usdt', amount: '1', toAddress: book, draft: { thresholds: [{ above: 'ten', approvals: 2 }], dailyLimit: null, useFinancialConfirmation: false } })).toMatchObject({
      ok: false,
      error: { code: 'invalidInput', message: expect.stringMatching(/threshold "ten" is not a decimal amount/) },
    });
    const rows = await auditEntries(desk);
    expect(rows.slice(rowsBefore).map((row) => row.kind)).toEqual(['request', 'freeze', 'unfreeze', 'confirm']);
    await setPolicy({ thresholds: [], dailyLimit: null, useFinancialConfirmation: false });
  });
});

describe('the policy editor preview', () => {
  it('says what a change would do to each waiting request, from the signed intents', async () => {
    await setPolicy({ thresholds: [], dailyLimit: null, useFinancialConfirmation: false });
    const small = await requestWithdrawal(desk, '30');
    const large = await requestWithdrawal(desk, '120');
    const approved = await requestWithdrawal(desk, '110');
    await desk.value('withdrawals/approve', { id: approved.id, as: APPROVER });
    // Someone with the database file makes the large request look small: the preview reads the signed intent.
    tamper(desk, (db) => db.prepare('UPDATE withdrawal_requests SET amount = ? WHERE id = ?').run('1', Number(large.id)));

    const preview = await desk.value('policies/preview', DRAFT);
    expect(preview.problems).toEqual([]);
    const line = (id: string) => preview.waiting.find((entry) => entry.id === id);
    // The day's signed requests total 300 (the 40 of the first case too): a daily limit of 50 would hold every one of them.
    const overLimit = 'the daily limit is 50; 270 was already requested today, so at most 0 remains';
    expect(line(small.id)).toMatchObject({ amount: '30', changed: true, now: { requiredApprovals: 1, holds: [] }, draft: { requiredApprovals: 1, holds: [overLimit] } });
    expect(line(large.id)).toMatchObject({ amount: '120', initiator: 'carol', fingerprint: large.fingerprint, changed: true, now: { requiredApprovals: 1, holds: [] }, draft: { requiredApprovals: 2 } });
    expect(line(large.id)?.draft.holds).toEqual(['the daily limit is 50; 180 was already requested today, so at most 0 remains']);
    // The approved one would be held at send: one counted approval, two needed.
    expect(line(approved.id)).toMatchObject({ state: 'approved', countedApprovals: 1, changed: true });
    expect(line(approved.id)?.draft.holds[0]).toBe('it has 1 counted approval and would need 2');
    // Without the limit, a request the draft does not touch is unchanged.
    const thresholdsOnly = await desk.value('policies/preview', { ...DRAFT, dailyLimit: null });
    expect(thresholdsOnly.waiting.find((entry) => entry.id === small.id)).toMatchObject({ changed: false, draft: { requiredApprovals: 1, holds: [] } });

    // A draft that is not usable says why, and previews nothing.
    const bad = await desk.value('policies/preview', { ...DRAFT, thresholds: [{ above: '-', approvals: 2 }] });
    expect(bad).toMatchObject({ problems: [expect.stringMatching(/threshold "-" is not a decimal amount/)], waiting: [] });
    // Nothing was proposed: the policy in force is unchanged.
    expect((await desk.value('policies/list', {})).find((policy) => policy.currency === 'trx.usdt')).toMatchObject({ thresholds: [], dailyLimit: null });
  });
});
