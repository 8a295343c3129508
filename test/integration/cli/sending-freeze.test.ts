// Issue 20's emergency freeze in the CLI (in process, real sandbox, keychain and SQLite): `sending freeze` by one admin
// holds an approved withdrawal's `withdraw submit` (exit 1, the freeze named, nothing sent); `sending unfreeze` is a
// proposal the other admin confirms with `operator confirm`, after which the same submit goes through. On the same
// desk, the policy simulator (`policy test`) names each rule for a withdrawal that is never made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GovernanceView, type PolicyTestView, type SendingStateView, utcMinuteText, type WithdrawalView } from '../../../electron/contract';
import { ADMIN, APPROVER, as, expectDecisionFailure, expectFailure, expectOk, INITIATOR, json, openCliDesk, SECOND_ADMIN, setUpDesk, tronAddress, type CliDesk } from './support';

let desk: CliDesk;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  expectOk(await desk.cli(['sync']));
}, 180_000);
afterAll(async () => desk?.close());

describe('treasury-desk sending', () => {
  it('freezes at once with one admin, holds a submit, and lifts only with a second admin', async () => {
    expect(expectOk(await desk.cli(['sending', 'status'])).stdout).toBe('sending is not frozen\n');
    const requested = json<{ withdrawal: WithdrawalView }>(
      expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '15', '--to', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR))),
    ).withdrawal;
    expectOk(await desk.cli(['withdraw', 'approve', requested.id, '--as', APPROVER.name], as(APPROVER)));

    const frozen = json<SendingStateView>(expectOk(await desk.cli(['sending', 'freeze', '--reason', 'suspected leak', '--as', ADMIN.name, '--json'], as(ADMIN))));
    expect(frozen.frozen).toMatchObject({ by: ADMIN.name, reason: 'suspected leak' });
    expect(expectOk(await desk.cli(['sending', 'status'])).stdout).toMatch(/^sending is FROZEN by alice since \d{4}-\d\d-\d\d \d\d:\d\d UTC: suspected leak\n/);
    const submit = ['withdraw', 'submit', requested.id, '--as', INITIATOR.name];
    expect(expectDecisionFailure(await desk.cli(submit, as(INITIATOR)), 1)).toMatch(/held: .*is held, not sent: sending is frozen by alice/);

    const lifting = json<SendingStateView>(expectOk(await desk.cli(['sending', 'unfreeze', '--as', ADMIN.name, '--json'], as(ADMIN))));
    expect(lifting.lift).toMatchObject({ kind: 'unfreeze', state: 'open' });
    expect(expectOk(await desk.cli(['sending', 'status'])).stdout).toContain(`confirm it with "treasury-desk operator confirm ${lifting.lift?.id.slice(0, 12)} --as ADMIN"`);
    expect(expectDecisionFailure(await desk.cli(submit, as(INITIATOR)), 1)).toMatch(/sending is frozen/);
    expectOk(await desk.cli(['operator', 'confirm', lifting.lift?.id.slice(0, 12) ?? '', '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    expect(expectOk(await desk.cli(['sending', 'status'])).stdout).toBe('sending is not frozen\n');
    expectOk(await desk.cli(submit, as(INITIATOR)));
  });
});

describe('treasury-desk policy test', () => {
  it('names each rule and what it requires, signs nothing, and refuses bad input clearly', async () => {
    const change = json<{ proposal: { id: string } }>(
      expectOk(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', '--threshold', '100:2', '--daily-limit', '1000', '--as', ADMIN.name, '--json'], as(ADMIN))),
    );
    expect(expectOk(await desk.cli(['policy', 'test', '--currency', 'trx.usdt', '--amount', '1', '--to', tronAddress()])).stdout).toMatch(/under the default policy \(never set\):/);
    expectOk(await desk.cli(['operator', 'confirm', change.proposal.id, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    const to = tronAddress();
    const before = expectOk(await desk.cli(['audit', 'list', '--json'])).stdout;
    const text = expectOk(await desk.cli(['policy', 'test', '--currency', 'trx.usdt', '--amount', '250', '--to', to, '--as', APPROVER.name])).stdout;
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^250 trx\\.usdt to ${to} requested by ${APPROVER.name}, under the policy in force \\([0-9a-f]+\\):$`));
    expect(lines[1]).toBe('not allowed now: 1 rule refuses it');
    expect(lines).toContain(`  REFUSES initiator: ${APPROVER.name} is an approver and may not request withdrawals`);
    expect(lines).toContain('  ok      approvals: amounts above 100 need 2 approvals: 250 needs 2 independent approvals, each from an operator independent of the initiator and of each other');
    expect(lines).toContain('  off     only from book: any destination may be paid (not only the address book)');
    const view = json<PolicyTestView>(expectOk(await desk.cli(['policy', 'test', '--currency', 'trx.usdt', '--amount', '250', '--to', to, '--as', INITIATOR.name, '--json'])));
    expect(view).toMatchObject({ allowed: true, requiredApprovals: 2, initiator: INITIATOR.name });
    // No passphrase was asked and nothing was signed.
    expect(expectOk(await desk.cli(['audit', 'list', '--json'])).stdout).toBe(before);
    expect(expectFailure(await desk.cli(['policy', 'test', '--currency', 'trx.usdt', '--amount', '1.1234567', '--to', to]), 2)).toMatch(/decimal/);
  });
});

describe('treasury-desk sending status under a time-locked lift', () => {
  it('says when the freeze ends and who scheduled the lift, and counts the other loosening changes waiting', async () => {
    // From the defaults (no delay), a one-admin lift after 48 h: a loosening, in force at once since no delay is in force yet.
    const governance = json<GovernanceView>(expectOk(await desk.cli(['governance', 'set', '--delay', '24', '--freeze-lift', 'time-lock', '--lock', '48', '--as', ADMIN.name, '--json'], as(ADMIN))));
    expectOk(await desk.cli(['operator', 'confirm', governance.proposal?.id.slice(0, 12) ?? '', '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    expect(json<GovernanceView>(expectOk(await desk.cli(['governance', 'show', '--json'])))).toMatchObject({ looseningDelayHours: 24, freezeLift: 'time-lock', freezeLockHours: 48 });

    expectOk(await desk.cli(['sending', 'freeze', '--reason', 'drill', '--as', ADMIN.name], as(ADMIN)));
    const frozen = expectOk(await desk.cli(['sending', 'status'])).stdout;
    expect(frozen).toContain('to lift it: "treasury-desk sending unfreeze --as ADMIN"; sending resumes 48 h later unless an admin vetoes it\n');
    expect(frozen).not.toMatch(/another admin confirms|other loosening/);

    const before = Date.now();
    const lifted = json<SendingStateView>(expectOk(await desk.cli(['sending', 'unfreeze', '--as', SECOND_ADMIN.name, '--json'], as(SECOND_ADMIN))));
    expect(lifted.lift).toBeNull();
    expect(lifted.frozen).toMatchObject({ by: ADMIN.name, reason: 'drill', liftBy: { proposer: SECOND_ADMIN.name, confirmedBy: null } });
    const liftAt = lifted.frozen?.liftAt ?? 0;
    expect(liftAt - before).toBeGreaterThanOrEqual(48 * 3_600_000);
    expect(liftAt - before).toBeLessThan(48 * 3_600_000 + 60_000);
    const status = expectOk(await desk.cli(['sending', 'status'])).stdout;
    expect(status).toBe(
      `sending is FROZEN by ${ADMIN.name} since ${utcMinuteText(lifted.frozen?.since ?? 0)}: drill\n` +
        `the freeze ends ${utcMinuteText(liftAt)}: ${SECOND_ADMIN.name} scheduled its lift; any admin may veto the lift before then ("treasury-desk governance show" lists it)\n`,
    );

    // Two loosening changes that affect sending wait for the 24 h delay: a raised threshold and a book addition.
    const loosen = json<{ proposal: { id: string } }>(expectOk(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', '--threshold', '900:2', '--as', ADMIN.name, '--json'], as(ADMIN))));
    expectOk(await desk.cli(['operator', 'confirm', loosen.proposal.id, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    expect(expectOk(await desk.cli(['sending', 'status'])).stdout).toMatch(/\n1 other loosening change that affects sending waits for the delay: "treasury-desk governance show" lists it\n$/);
    const book = json<{ pending: { address: string; proposal: string }[] }>(expectOk(await desk.cli(['addressbook', 'add', '--chain', 'trx', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR))));
    expectOk(await desk.cli(['addressbook', 'approve', book.pending[0]?.proposal.slice(0, 12) ?? '', '--as', APPROVER.name], as(APPROVER)));
    expect(expectOk(await desk.cli(['sending', 'status'])).stdout).toMatch(/\n2 other loosening changes that affect sending wait for the delay: "treasury-desk governance show" lists them\n$/);
  });
});
