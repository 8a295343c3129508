// Issue 20's approval groups and expiry in the CLI (in process, real sandbox, keychain and SQLite): `operator group`
// proposes a group's members and `operator confirm` puts it in force; `operator groups` lists them; `policy set
// --tier-groups --approval-valid-hours` signs them into the policy and `policy list` shows them; `withdraw show` says
// which group is still needed after two approvals of one group.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalGroupChangeView, WithdrawalView } from '../../../electron/contract';
import { ADMIN, APPROVER, as, enrol, expectFailure, expectOk, INITIATOR, json, openCliDesk, SECOND_ADMIN, setUpDesk, tronAddress, type CliDesk } from './support';

const ERIN = { name: 'erin', role: 'approver', passphrase: 'erin passphrase 55' } as const;
let desk: CliDesk;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  await enrol(desk, ERIN);
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  expectOk(await desk.cli(['sync']));
}, 180_000);
afterAll(async () => desk?.close());

async function group(name: string, members: readonly string[]): Promise<void> {
  const change = json<ApprovalGroupChangeView>(expectOk(await desk.cli(['operator', 'group', name, ...members.flatMap((member) => ['--member', member]), '--as', ADMIN.name, '--json'], as(ADMIN))));
  expect(change).toMatchObject({ applied: false, proposal: { kind: 'group', state: 'open' } });
  expectOk(await desk.cli(['operator', 'confirm', change.proposal.id.slice(0, 12), '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
}

describe('treasury-desk operator group and policy set --tier-groups', () => {
  it('proposes, confirms and lists groups; signs a tier naming them; withdraw show names the group still needed', async () => {
    const proposed = expectOk(await desk.cli(['operator', 'group', 'finance', '--member', APPROVER.name, '--member', ERIN.name, '--as', ADMIN.name], as(ADMIN)));
    expect(proposed.stdout).toMatch(/^proposed: make approval group finance: bob, erin \(proposal [0-9a-f]{12}\)\nit waits for .*"treasury-desk operator confirm [0-9a-f]{12} --as ADMIN"\n$/);
    expect(expectOk(await desk.cli(['operator', 'groups'])).stdout).toMatch(/no approval groups\ngroup changes waiting for a second admin:\n.*make approval group finance: bob, erin/s);
    const id = /proposal ([0-9a-f]{12})/.exec(proposed.stdout)?.[1] ?? '';
    expectOk(await desk.cli(['operator', 'confirm', id, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    await group('treasury-leads', [SECOND_ADMIN.name]);
    const listed = expectOk(await desk.cli(['operator', 'groups'])).stdout;
    expect(listed).toMatch(/finance +bob, erin/);
    expect(listed).toMatch(/treasury-leads +frank/);
    expect(expectFailure(await desk.cli(['operator', 'group', 'finance', '--as', ADMIN.name]), 2)).toMatch(/name the members with --member NAME/);

    // A tier's groups name one of the thresholds; a missing one is a usage error before anything is signed.
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', '--tier-groups', '99=finance', '--as', ADMIN.name]), 2)).toMatch(/add --threshold 99:APPROVALS first/);
    const set = ['policy', 'set', '--currency', 'trx.usdt', '--threshold', '10:2', '--tier-groups', '10=finance+treasury-leads', '--approval-valid-hours', '24', '--as', ADMIN.name, '--json'];
    const change = json<{ proposal: { id: string } }>(expectOk(await desk.cli(set, as(ADMIN))));
    expectOk(await desk.cli(['operator', 'confirm', change.proposal.id.slice(0, 12), '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    const policies = expectOk(await desk.cli(['policy', 'list'])).stdout;
    expect(policies).toMatch(/^trx\.usdt +>10: 2 from 1 of finance \+ 1 of treasury-leads +none +after 24 h +normal/m);

    const requested = json<{ withdrawal: WithdrawalView }>(
      expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '15', '--to', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR))),
    ).withdrawal;
    expectOk(await desk.cli(['withdraw', 'approve', requested.id, '--as', APPROVER.name], as(APPROVER)));
    expectOk(await desk.cli(['withdraw', 'approve', requested.id, '--as', ERIN.name], as(ERIN)));
    const shown = expectOk(await desk.cli(['withdraw', 'show', requested.id])).stdout;
    expect(shown).toMatch(/Approvals still needed +the groups: 1 of treasury-leads \(2 of 2 independent approvals given, each approver standing for one group\)/);
    expect(shown).toMatch(/Rule that applies +.*approval groups: 1 of finance and 1 of treasury-leads; an approval counts for 24 h, then must be given again/);
  });
});
