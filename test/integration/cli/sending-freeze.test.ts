// Issue 20's emergency freeze in the CLI (in process, real sandbox, keychain and SQLite): `sending freeze` by one admin
// holds an approved withdrawal's `withdraw submit` (exit 1, the freeze named, nothing sent); `sending unfreeze` is a
// proposal the other admin confirms with `operator confirm`, after which the same submit goes through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendingStateView, WithdrawalView } from '../../../electron/contract';
import { ADMIN, APPROVER, as, expectDecisionFailure, expectOk, INITIATOR, json, openCliDesk, SECOND_ADMIN, setUpDesk, tronAddress, type CliDesk } from './support';

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
