// The independence rules on their own: parties rebuilt by replaying really signed roster rows, and the four-eyes count.
import { describe, expect, it } from 'vitest';
import { countIndependentApprovals, Roster, type ChainRow } from '../../../electron/core/ledger/roster';
import { generateSigningKey, type SigningKeyPair } from '../../../electron/core/statements/keys';
import { canonicalHash, signStatementText, type StatementBody, type StatementKind } from '../../../electron/core/statements/statement';
import { signedRow } from '../../support/signed-rows';

const PROFILE = 'main';

/** A signed chain built the way the desk builds it (seq and prev inside the signature), without a database. */
class Chain {
  readonly rows: ChainRow[] = [];
  readonly keys = new Map<string, SigningKeyPair>();

  key(name: string): SigningKeyPair {
    let pair = this.keys.get(name);
    if (!pair) this.keys.set(name, (pair = generateSigningKey()));
    return pair;
  }

  append(kind: StatementKind, subject: string, body: StatementBody, operator: string, signWith: SigningKeyPair = this.key(operator)): ChainRow {
    const row = signedRow(
      this.rows.at(-1),
      { kind, profile: PROFILE, subject, body, operator, keyId: signWith.keyId, at: 1_700_000_000_000 + this.rows.length },
      signWith.privateKey,
    );
    this.rows.push(row);
    return row;
  }

  found(...admins: string[]): void {
    const body: StatementBody = { admins: admins.map((name) => ({ name, publicKey: this.key(name).publicKey })), deskKey: null, merchantId: 'M1' };
    for (const admin of admins) this.append('found', canonicalHash(body), body, admin);
  }

  /** `by` invites, the operator accepts with their own key, `confirmer` (if any) confirms; returns the proposal id. */
  enrol(name: string, role: string, by: string, confirmer: string | null = null): string {
    const proposal = this.append('enrol', name, { role, codeHash: '00'.repeat(32) }, by).hash;
    this.append('accept', name, { proposal, publicKey: this.key(name).publicKey }, name);
    if (confirmer !== null) this.append('confirm', name, { proposal, keyId: this.key(name).keyId }, confirmer);
    return proposal;
  }

  roster(): Roster {
    return Roster.replay(this.rows);
  }
}

function party(roster: Roster, name: string): readonly string[] | undefined {
  return roster.at(name)?.party;
}

describe('parties, replayed from signed rows', () => {
  it('founders are independent; an operator both admins enrol is their own party', () => {
    const chain = new Chain();
    chain.found('A', 'B');
    chain.enrol('D', 'approver', 'A', 'B');
    const roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.independentAdmins()).toBe(true);
    expect(party(roster, 'A')).toEqual(['a']);
    expect(party(roster, 'B')).toEqual(['b']);
    expect(party(roster, 'D')).toEqual(['d']);
    expect(roster.at('D')).toMatchObject({ role: 'approver', status: 'active', enrolledBy: ['A', 'B'] });
  });

  it('on a two-admin desk an invitation waits for the second admin: accepted but unconfirmed is not enrolled', () => {
    const chain = new Chain();
    chain.found('A', 'B');
    chain.enrol('C', 'approver', 'A');
    const roster = chain.roster();
    expect(roster.at('C')).toBeUndefined();
    expect(roster.openProposals()).toEqual([expect.objectContaining({ kind: 'enrol', subject: 'C', needsConfirmation: true, proposer: 'A' })]);
  });

  it('a proposer cannot confirm their own proposal', () => {
    const chain = new Chain();
    chain.found('A', 'B');
    const proposal = chain.enrol('E', 'approver', 'A');
    chain.append('confirm', 'E', { proposal, keyId: chain.key('E').keyId }, 'A');
    const roster = chain.roster();
    expect(roster.at('E')).toBeUndefined();
    expect(roster.problems).toEqual([expect.objectContaining({ seq: chain.rows.at(-1)!.seq, reason: 'A is not independent of A' })]);
  });

  it('a single founder: everyone that admin enrols is in the admin’s party, so no approval counts for the admin', () => {
    const chain = new Chain();
    chain.found('A');
    chain.enrol('P', 'approver', 'A');
    chain.enrol('I', 'initiator', 'A');
    const roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.independentAdmins()).toBe(false);
    expect(party(roster, 'P')).toEqual(['p', 'a']);
    expect(party(roster, 'I')).toEqual(['i', 'a']);
    expect(roster.at('P')?.enrolledBy).toEqual(['A']);
    expect(countIndependentApprovals(party(roster, 'A')!, [party(roster, 'P')!])).toBe(0);
    expect(countIndependentApprovals(party(roster, 'I')!, [party(roster, 'P')!])).toBe(0);
    expect(countIndependentApprovals(party(roster, 'I')!, [party(roster, 'A')!])).toBe(0);
  });

  it("APPROVALS.md's example: C's party is {C, A}, D's is {D}; D may approve C's request, B A's, C not A's", () => {
    const chain = new Chain();
    chain.found('A', 'B');
    // A alone can enrol only while B is no independent admin: B steps down (confirming A's proposal), and comes back.
    const demote = chain.append('role', 'B', { role: 'approver' }, 'A').hash;
    chain.append('confirm', 'B', { proposal: demote }, 'B');
    chain.enrol('C', 'admin', 'A');
    chain.append('role', 'B', { role: 'admin' }, 'A');
    chain.enrol('D', 'approver', 'A', 'B');
    const roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(party(roster, 'C')).toEqual(['c', 'a']);
    expect(party(roster, 'D')).toEqual(['d']);
    expect(roster.at('B')).toMatchObject({ role: 'admin', party: ['b'] });
    const [a, b, c, d] = (['A', 'B', 'C', 'D'] as const).map((name) => party(roster, name)!);
    expect(countIndependentApprovals(c!, [d!])).toBe(1);
    expect(countIndependentApprovals(a!, [b!])).toBe(1);
    expect(countIndependentApprovals(a!, [c!])).toBe(0);
    // Two approvals for A's request: B and D are independent of A and of each other; C adds nothing.
    expect(countIndependentApprovals(a!, [b!, c!, d!])).toBe(2);

    // C, an admin in A's party, cannot confirm A's next invitation: B must.
    chain.enrol('E', 'approver', 'A', 'C');
    const after = chain.roster();
    expect(after.at('E')).toBeUndefined();
    expect(after.problems).toEqual([expect.objectContaining({ seq: chain.rows.at(-1)!.seq, reason: 'C is not independent of A' })]);
  });

  it('a row whose signature does not verify, or signed with a key that is not the operator’s, has no effect', () => {
    const chain = new Chain();
    chain.found('A');
    const stranger = generateSigningKey();
    chain.append('enrol', 'M', { role: 'admin', codeHash: '00'.repeat(32) }, 'A', stranger);
    const forged = chain.append('enrol', 'N', { role: 'admin', codeHash: '00'.repeat(32) }, 'A');
    chain.rows[chain.rows.length - 1] = { ...forged, signature: signStatementText(stranger.privateKey, forged.text) };
    const roster = chain.roster();
    expect(roster.proposals()).toEqual([]);
    expect(roster.problems.map((problem) => problem.reason)).toEqual([
      `proposal refused: A's key is ${chain.key('A').keyId}, not ${stranger.keyId}`,
      "proposal refused: the signature does not verify with A's key",
    ]);
  });

  it('an acceptance must be signed by the key it enrols', () => {
    const chain = new Chain();
    chain.found('A');
    const proposal = chain.append('enrol', 'C', { role: 'approver', codeHash: '00'.repeat(32) }, 'A').hash;
    // A accepts the invitation in C's name with A's own key: refused.
    chain.append('accept', 'C', { proposal, publicKey: chain.key('C').publicKey }, 'C', chain.key('A'));
    const roster = chain.roster();
    expect(roster.at('C')).toBeUndefined();
    expect(roster.problems.at(-1)?.reason).toBe('the acceptance is not signed by the key it enrols');
  });
});

describe('countIndependentApprovals', () => {
  it('counts approvers disjoint from the initiator and from each other, choosing the largest such set', () => {
    expect(countIndependentApprovals(['i'], [])).toBe(0);
    expect(countIndependentApprovals(['i'], [['x']])).toBe(1);
    expect(countIndependentApprovals(['i'], [['x'], ['y']])).toBe(2);
    // An approver in the initiator's party never counts.
    expect(countIndependentApprovals(['i', 'a'], [['x', 'a']])).toBe(0);
    expect(countIndependentApprovals(['i'], [['i']])).toBe(0);
    // Two approvers sharing a member count once.
    expect(countIndependentApprovals(['i'], [['x', 'a'], ['y', 'a']])).toBe(1);
    // The best choice, not the first: {x,y} overlaps both others, which are disjoint from each other.
    expect(countIndependentApprovals(['i'], [['x', 'y'], ['x'], ['y']])).toBe(2);
    expect(countIndependentApprovals(['i'], [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e']])).toBe(2);
    expect(countIndependentApprovals(['i'], [['a'], ['b'], ['c'], ['d'], ['e']])).toBe(5);
  });
});
