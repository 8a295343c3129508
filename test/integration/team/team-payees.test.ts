// Payees on a team desk (issue 21 item 1; real PostgreSQL, sandbox, two workstations): a payee with addresses on two
// chains proposed at A replicates to B as a signed `payees` row, is confirmed at B by an independent approver, and is
// in force at both, its addresses in the book under "only from book" at A.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, APPROVER, INITIATOR, SECOND_ADMIN, tronAddress } from '../engine/support';
import { databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, within, type Workstation } from './desk-support';

const SEEN_WITHIN_MS = 3000;

let a: Workstation;
let b: Workstation;

beforeAll(async () => {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  a = first.a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B');
  await joinTeam(b, 'B', a, [APPROVER]);
}, 120_000);

afterAll(async () => {
  for (const workstation of [b, a]) await workstation?.close();
});

describe('payees on a team desk', () => {
  it('proposed at A, confirmed at B, in force at both', async () => {
    const change = await a.value('policies/set', { currency: 'trx.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: false, onlyFromBook: true, as: ADMIN });
    await a.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
    const trx = tronAddress();
    const eth = `0x${'ab'.repeat(20)}`;
    const proposed = await a.value('payees/add', { name: 'Team Vendor', note: 'from A', addresses: [{ chain: 'trx', address: trx }, { chain: 'eth', address: eth }], as: INITIATOR });
    const proposal = proposed.pending[0]?.proposal;
    expect(proposal).toBeDefined();
    await within('the payees batch at B', SEEN_WITHIN_MS, async () => (await b.value('payees/list', {})).pending.some((entry) => entry.proposal === proposal));
    expect((await b.value('payees/list', {})).pending[0]?.payees).toEqual([{ id: expect.any(String), name: 'Team Vendor', note: 'from A', addresses: [{ chain: 'trx', address: trx }, { chain: 'eth', address: eth }] }]);
    await b.value('addressbook/approve', { proposal, as: APPROVER });
    await within('the payee at A', SEEN_WITHIN_MS, async () => (await a.value('payees/list', {})).payees.some((payee) => payee.name === 'Team Vendor'));
    for (const workstation of [a, b]) {
      const shown = await workstation.value('payees/show', { payee: 'team vendor' });
      expect(shown).toMatchObject({ name: 'Team Vendor', addedBy: INITIATOR.operator, approvedBy: APPROVER.operator });
      expect(shown.addresses.map((entry) => [entry.chain, entry.approved])).toEqual([
        ['trx', true],
        ['eth', true],
      ]);
    }
    const check = await a.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '10', toAddress: trx });
    expect(check.errors.filter((issue) => /only from book/.test(issue.message))).toEqual([]);
  });
});
