// The `radar-clear` roster kind (issue 21 item 3) from rows signed in memory: one admin's proposal does not clear on a
// desk of two independent admins, a confirmation by the other does, for every chain of the address's format and in
// any letter case; a non-admin, the proposer's own confirmation, a second clearance and a malformed subject are
// refused, named; under a loosening delay the clearance waits and a veto stops it.
import { describe, expect, it } from 'vitest';
import { refuseRow } from '../../../electron/core/ledger/registry';
import { Chain, person } from '../../support/roster-chain';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);
const FLAGGED = '0xa32fa9dc539dcb3469adc96e963ea1f0932a4bb0';
const BOOKED = 'eth:0xa32f134ddbda4f81815dc703c62f3084ac2d4bb0';

function twoAdmins(): { chain: Chain; alice: ReturnType<typeof person>; frank: ReturnType<typeof person>; carol: ReturnType<typeof person> } {
  const [alice, frank, carol] = [person('alice'), person('frank'), person('carol')];
  const chain = new Chain();
  chain.found(alice, frank);
  chain.enrol(alice, carol, 'approver', frank);
  return { chain, alice, frank, carol };
}

describe('radar-clear', () => {
  it('needs a second, independent admin; then holds on eth and bnb, in any letter case', () => {
    const { chain, alice, frank } = twoAdmins();
    const proposed = chain.add(alice, 'radar-clear', `bnb:${FLAGGED}`, { looksLike: BOOKED });
    let roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.radarClearance('bnb', FLAGGED)).toBeUndefined();
    expect(roster.openProposals().map((proposal) => proposal.kind)).toEqual(['radar-clear']);
    chain.confirm(alice, proposed.hash);
    expect(chain.roster().problems.at(-1)?.reason).toMatch(/alice is not independent of alice/);
    chain.confirm(frank, proposed.hash);
    roster = chain.roster();
    expect(roster.problems).toHaveLength(1);
    expect(roster.radarClearance('eth', FLAGGED.toUpperCase().replace('0X', '0x'))).toMatchObject({ proposer: 'alice', confirmedBy: 'frank', looksLike: BOOKED });
    expect(roster.radarClearance('bnb', FLAGGED)).toBeDefined();
    expect(roster.radarClearance('trx', FLAGGED)).toBeUndefined();
  });

  it('refuses a non-admin, a second clearance and a subject that is not chain:address, each through the registry', () => {
    const { chain, alice, frank, carol } = twoAdmins();
    const byApprover = chain.add(carol, 'radar-clear', `eth:${FLAGGED}`, { looksLike: BOOKED });
    expect(chain.roster().problems.find((problem) => problem.seq === byApprover.seq)?.reason).toMatch(/proposal refused: carol is an approver/);
    const first = chain.add(alice, 'radar-clear', `eth:${FLAGGED}`, { looksLike: BOOKED });
    chain.confirm(frank, first.hash);
    const again = chain.add(frank, 'radar-clear', `bnb:${FLAGGED}`, { looksLike: BOOKED });
    expect(chain.roster().problems.find((problem) => problem.seq === again.seq)?.reason).toMatch(/is already cleared/);
    const malformed = chain.add(alice, 'radar-clear', FLAGGED, { looksLike: BOOKED });
    expect(chain.roster().problems.find((problem) => problem.seq === malformed.seq)?.reason).toBe('a radar clearance names chain:address');
    // The registry judges the body before the roster: a clearance without the look-alike it clears is named.
    const bodiless = chain.add(alice, 'radar-clear', `ton:${FLAGGED}`, {});
    const standing = { roster: () => chain.roster(), deskKey: () => undefined, initiator: () => undefined, legacy: () => ({ rows: 0, headHash: '' }), foundingRefusal: () => null, teamDesk: () => false, afterPin: false };
    expect(refuseRow(bodiless, standing)).toMatch(/its body is not what radar-clear statements hold \(looksLike/);
  });

  it('waits for the loosening delay, and a veto during it keeps the address refused', () => {
    const [alice, bob] = [person('alice'), person('bob')];
    const chain = new Chain();
    chain.found(alice);
    chain.enrol(alice, bob, 'admin');
    chain.add(alice, 'governance', 'governance', { governance: { looseningDelayHours: 24, freezeLift: 'four-eyes', freezeLockHours: 0 } }, { at: T0 });
    const cleared = chain.add(alice, 'radar-clear', `eth:${FLAGGED}`, { looksLike: BOOKED }, { at: T0 + HOUR });
    let roster = chain.roster();
    expect(roster.radarClearance('eth', FLAGGED, T0 + 2 * HOUR)).toBeUndefined();
    expect(roster.radarClearance('eth', FLAGGED, T0 + 25 * HOUR)).toMatchObject({ proposer: 'alice', confirmedBy: null });
    chain.add(bob, 'veto', cleared.hash, {}, { at: T0 + 2 * HOUR });
    roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.radarClearance('eth', FLAGGED, T0 + 100 * HOUR)).toBeUndefined();
  });
});
