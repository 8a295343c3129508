// Issue 20 part 4 in the CLI (in process, real sandbox, keychain and SQLite): `governance set` is a proposal the other
// admin confirms; a raised threshold is then listed by `governance show` as a pending change with when it takes effect;
// `governance veto` by a unique prefix cancels it; a non-admin's veto and bad input are refused, changing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GovernanceView } from '../../../electron/contract';
import { ADMIN, APPROVER, as, expectFailure, expectOk, json, openCliDesk, SECOND_ADMIN, setUpDesk, type CliDesk } from './support';

let desk: CliDesk;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
}, 180_000);
afterAll(async () => desk?.close());

describe('treasury-desk governance', () => {
  it('sets a delay four-eyes, lists a loosening change with its effective time, and vetoes it by prefix', async () => {
    expect(expectOk(await desk.cli(['governance', 'show'])).stdout).toBe(
      'loosening delay: none (a loosening change takes effect at once)\nfreeze lift: two admins (sending unfreeze, then operator confirm)\nno loosening change is waiting\n',
    );
    expect(expectFailure(await desk.cli(['governance', 'set', '--delay', '721', '--as', ADMIN.name], as(ADMIN)), 2)).toMatch(/whole number from 0 to 720/);
    const proposed = json<GovernanceView>(expectOk(await desk.cli(['governance', 'set', '--delay', '24', '--as', ADMIN.name, '--json'], as(ADMIN))));
    expect(proposed).toMatchObject({ looseningDelayHours: 0, proposal: { kind: 'governance', state: 'open', summary: "set the desk's governance: loosening waits 24 h; a freeze is lifted by two admins" } });
    expectOk(await desk.cli(['operator', 'confirm', proposed.proposal?.id.slice(0, 12) ?? '', '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    expect(expectOk(await desk.cli(['governance', 'show'])).stdout).toMatch(/^loosening delay: 24 h\n/);

    const tighten = json<{ proposal: { id: string } }>(expectOk(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', '--threshold', '100:2', '--as', ADMIN.name, '--json'], as(ADMIN))));
    expectOk(await desk.cli(['operator', 'confirm', tighten.proposal.id, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    const loosen = json<{ proposal: { id: string } }>(expectOk(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', '--threshold', '900:2', '--as', ADMIN.name, '--json'], as(ADMIN))));
    expectOk(await desk.cli(['operator', 'confirm', loosen.proposal.id, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    const shown = expectOk(await desk.cli(['governance', 'show'])).stdout;
    expect(shown).toContain('pending changes (any admin may veto one before it takes effect: "treasury-desk governance veto ID --as ADMIN"):');
    expect(shown).toMatch(new RegExp(`  ${loosen.proposal.id.slice(0, 12)}  policy trx\\.usdt by alice and frank: fewer approvals above 100; takes effect \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\n`));

    expect(expectFailure(await desk.cli(['governance', 'veto', loosen.proposal.id.slice(0, 12), '--as', APPROVER.name], as(APPROVER)), 1)).toMatch(/bob is an approver, not an admin/);
    const vetoed = json<GovernanceView>(expectOk(await desk.cli(['governance', 'veto', loosen.proposal.id.slice(0, 12), '--reason', 'not agreed', '--as', SECOND_ADMIN.name, '--json'], as(SECOND_ADMIN))));
    expect(vetoed.pending).toEqual([]);
    expect(expectOk(await desk.cli(['governance', 'show'])).stdout).toContain('no loosening change is waiting');
  });
});
