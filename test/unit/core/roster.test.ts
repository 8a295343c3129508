// The roster rebuilt from signed statements (core/ledger/roster.ts): founding by the founders' signatures, invitations
// accepted with the operator's own key, confirmations by an independent admin, role and disable changes, parties, and
// rows that do not verify; and countIndependentApprovals on the APPROVALS.md example.
import { describe, expect, it } from 'vitest';
import { PROFILE_REMOVED } from '../../../electron/core/ledger/profile-removed';
import { countIndependentApprovals, disjoint, Roster } from '../../../electron/core/ledger/roster';
import { generateSigningKey } from '../../../electron/core/statements/keys';
import { canonicalHash, type StatementBody } from '../../../electron/core/statements/statement';
import { Chain, DESK, person, type Person } from '../../support/roster-chain';

const problemsOf = (roster: Roster): string[] => roster.problems.map((problem) => `${problem.seq}: ${problem.reason}`);

describe('founding', () => {
  it('founds a two-admin desk only once both founders signed the same founding', () => {
    const [alice, bob] = [person('alice'), person('bob')];
    const chain = new Chain();
    const body: StatementBody = { admins: [alice, bob].map((a) => ({ name: a.name, publicKey: a.key.publicKey })), deskKey: { publicKey: DESK.publicKey }, merchantId: 'M' };
    const subject = canonicalHash(body);
    chain.add(alice, 'found', subject, body);
    let roster = chain.roster();
    expect(roster.founded).toBe(false);
    expect(roster.operators()).toEqual([]);
    expect(roster.problems).toEqual([]);
    chain.add(bob, 'found', subject, body);
    roster = chain.roster();
    expect(roster.founded).toBe(true);
    expect(roster.foundingId).toBe(subject);
    expect(roster.at('alice')).toMatchObject({ role: 'admin', status: 'active', party: ['alice'], founding: true, keyId: alice.key.keyId, fromSeq: 2 });
    expect(roster.at('BOB')).toMatchObject({ role: 'admin', status: 'active', party: ['bob'], founding: true, keyId: bob.key.keyId });
    expect(roster.independentAdmins()).toBe(true);
    expect(roster.deskKeys.get(DESK.keyId)).toBe(DESK.publicKey);
    expect(roster.problems).toEqual([]);
  });

  it('founds a one-admin desk with one signature; it has no independent admins', () => {
    const alice = person('alice');
    const chain = new Chain();
    chain.found(alice);
    const roster = chain.roster();
    expect(roster.founded).toBe(true);
    expect(roster.active().map((entry) => entry.name)).toEqual(['alice']);
    expect(roster.independentAdmins()).toBe(false);
  });

  it('refuses a second founding, a founding signed by someone else or another key, a bad subject, and malformed admin lists', () => {
    const [alice, bob, mallory] = [person('alice'), person('bob'), person('mallory')];
    const body = (...admins: Person[]): StatementBody => ({ admins: admins.map((a) => ({ name: a.name, publicKey: a.key.publicKey })), deskKey: null, merchantId: 'M' });
    const chain = new Chain();
    const pair = body(alice, bob);
    chain.add(mallory, 'found', canonicalHash(pair), pair);
    chain.add(alice, 'found', canonicalHash(pair), pair, { signWith: mallory.key.privateKey });
    chain.add(alice, 'found', canonicalHash(pair), pair, { keyId: bob.key.keyId, signWith: bob.key.privateKey });
    chain.add(alice, 'found', 'f'.repeat(64), pair);
    const three = body(alice, bob, mallory);
    chain.add(alice, 'found', canonicalHash(three), three);
    const twins = body(alice, { name: 'ALICE', key: mallory.key });
    chain.add(alice, 'found', canonicalHash(twins), twins);
    let roster = chain.roster();
    expect(roster.founded).toBe(false);
    expect(problemsOf(roster)).toEqual([
      '1: a founding row must be signed by one of its admins',
      '2: a founding row must be signed by one of its admins',
      '3: a founding row must be signed by one of its admins',
      '4: the founding subject is not the hash of its body',
      '5: a founding names one or two admins',
      '6: the founding admins must have different names',
    ]);
    chain.found(alice, bob);
    expect(chain.roster().founded).toBe(true);
    chain.found(mallory);
    roster = chain.roster();
    expect(roster.problems.at(-1)?.reason).toBe('the desk profile is already founded');
    expect(roster.at('mallory')).toBeUndefined();
  });

  it('starts over after a desk-signed profile removal, and ignores a removal the desk did not sign', () => {
    const alice = person('alice');
    const chain = new Chain();
    chain.found(alice);
    const removal = chain.add(null, 'system', 'main', { action: PROFILE_REMOVED, details: {} });
    expect(Roster.replay(chain.rows, () => false).founded).toBe(true);
    expect(Roster.replay(chain.rows, (row) => row === removal).founded).toBe(false);
  });
});

describe('invitations on a one-admin desk', () => {
  it('enrols an operator once they accept with their own key; they count as the admin’s party', () => {
    const [alice, carol] = [person('alice'), person('carol')];
    const chain = new Chain();
    chain.found(alice);
    const invitation = chain.invite(alice, carol, 'approver');
    let roster = chain.roster();
    expect(roster.proposal(invitation)).toMatchObject({ kind: 'enrol', subject: 'carol', proposer: 'alice', needsConfirmation: false, state: 'open', accepted: null });
    expect(roster.at('carol')).toBeUndefined();
    const accepted = chain.accept(carol, invitation);
    roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.at('carol')).toMatchObject({ role: 'approver', status: 'active', keyId: carol.key.keyId, party: ['carol', 'alice'], founding: false, enrolledBy: ['alice'] });
    expect(roster.enrolledAt('carol')).toBe(accepted.seq);
    expect(roster.proposal(invitation)?.state).toBe('applied');
    expect(roster.independentAdmins()).toBe(false);
  });

  it('applies role changes and disabling at once, and a disabled operator’s statements no longer count', () => {
    const [alice, carol, dave] = [person('alice'), person('carol'), person('dave')];
    const chain = new Chain();
    chain.found(alice);
    chain.accept(carol, chain.invite(alice, carol, 'approver'));
    const promoted = chain.add(alice, 'role', 'carol', { role: 'admin' });
    let roster = chain.roster();
    expect(roster.at('carol')).toMatchObject({ role: 'admin', party: ['carol', 'alice'] });
    expect(roster.at('carol', promoted.seq)?.role).toBe('approver');
    // As an admin carol may now invite; but she is alice's party, so still no independent admins.
    chain.invite(carol, dave, 'viewer');
    expect(chain.roster().problems).toEqual([]);
    expect(chain.roster().independentAdmins()).toBe(false);
    const disabled = chain.add(alice, 'disable', 'carol', {});
    chain.add(carol, 'role', 'alice', { role: 'viewer' });
    roster = chain.roster();
    expect(roster.at('carol')?.status).toBe('disabled');
    expect(roster.at('carol', disabled.seq)?.status).toBe('active');
    expect(roster.active().map((entry) => entry.name)).toEqual(['alice']);
    expect(roster.problems.at(-1)?.reason).toBe('proposal refused: carol is disabled');
    expect(roster.at('alice')?.role).toBe('admin');
  });

  it('re-keys an operator: after they accept, only the new key signs for them', () => {
    const [alice, carol] = [person('alice'), person('carol')];
    const chain = new Chain();
    chain.found(alice);
    chain.accept(carol, chain.invite(alice, carol, 'admin'));
    const rekey = chain.add(alice, 'rekey', 'carol', { codeHash: 'd'.repeat(64) }).hash;
    const fresh = generateSigningKey();
    chain.accept(carol, rekey, fresh);
    chain.add(carol, 'enrol', 'erin', { role: 'viewer', codeHash: 'e'.repeat(64) });
    chain.add({ name: 'carol', key: fresh }, 'enrol', 'frank', { role: 'viewer', codeHash: 'f'.repeat(64) });
    const roster = chain.roster();
    expect(roster.at('carol')).toMatchObject({ keyId: fresh.keyId, role: 'admin', party: ['carol', 'alice'] });
    expect(problemsOf(roster)).toEqual([`${chain.rows.length - 1}: proposal refused: carol's key is ${fresh.keyId}, not ${carol.key.keyId}`]);
    expect(roster.openProposals().map((proposal) => proposal.subject)).toEqual(['frank']);
  });

  it('sets a currency policy at once, in force from its row on', () => {
    const alice = person('alice');
    const chain = new Chain();
    chain.found(alice);
    const row = chain.add(alice, 'policy', 'trx.usdt', { policy: { thresholds: [{ above: '100', approvals: 2 }], dailyLimit: null } });
    const roster = chain.roster();
    expect(roster.policyAt('trx.usdt')).toMatchObject({ id: row.hash, fromSeq: row.seq, policy: { thresholds: [{ above: '100', approvals: 2 }] } });
    expect(roster.policyAt('trx.usdt', row.seq)).toBeNull();
    expect(roster.policyAt('trx')).toBeNull();
  });
});

describe('invitations on a desk with two independent admins', () => {
  function twoAdmins() {
    const [alice, bob, dave] = [person('alice'), person('bob'), person('dave')];
    const chain = new Chain();
    chain.found(alice, bob);
    return { alice, bob, dave, chain };
  }

  it('keeps an enrolment pending after the operator accepts, until an independent admin confirms the accepted key', () => {
    const { alice, bob, dave, chain } = twoAdmins();
    const invitation = chain.invite(alice, dave, 'approver');
    expect(chain.roster().proposal(invitation)?.needsConfirmation).toBe(true);
    chain.accept(dave, invitation);
    let roster = chain.roster();
    expect(roster.at('dave')).toBeUndefined();
    expect(roster.proposal(invitation)).toMatchObject({ state: 'open', accepted: { keyId: dave.key.keyId, publicKey: dave.key.publicKey } });
    const confirmed = chain.confirm(bob, invitation, dave.key.keyId);
    roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.at('dave')).toMatchObject({ role: 'approver', status: 'active', party: ['dave'], enrolledBy: ['alice', 'bob'], fromSeq: confirmed.seq });
    expect(roster.proposal(invitation)).toMatchObject({ state: 'applied', confirmedBy: 'bob' });
  });

  it('refuses a confirmation by the proposer (not independent), by a non-admin, before acceptance, or naming another key', () => {
    const { alice, bob, dave, chain } = twoAdmins();
    const erin = person('erin');
    chain.accept(dave, chain.invite(alice, dave, 'approver'));
    const early = chain.invite(bob, erin, 'viewer');
    const invitation = chain.roster().openProposals().find((proposal) => proposal.subject === 'dave')?.id ?? '';
    chain.confirm(alice, invitation, dave.key.keyId);
    chain.confirm(bob, invitation, erin.key.keyId);
    chain.confirm(alice, early);
    chain.confirm(bob, invitation, dave.key.keyId);
    chain.confirm(bob, invitation, dave.key.keyId);
    chain.confirm(dave, early);
    const roster = chain.roster();
    expect(roster.problems.map((problem) => problem.reason)).toEqual([
      'alice is not independent of alice',
      'the confirmation names another key than the one accepted',
      'an invitation is confirmed after the operator accepted it',
      'no open proposal to confirm',
      'confirmation refused: dave is not an admin',
    ]);
    expect(roster.at('dave')?.enrolledBy).toEqual(['alice', 'bob']);
    expect(roster.at('erin')).toBeUndefined();
  });

  it('takes role changes and disabling into effect only once confirmed', () => {
    const { alice, bob, dave, chain } = twoAdmins();
    chain.accept(dave, chain.invite(alice, dave, 'approver'));
    chain.confirm(bob, chain.roster().openProposals()[0]?.id ?? '', dave.key.keyId);
    const role = chain.add(alice, 'role', 'dave', { role: 'admin' }).hash;
    expect(chain.roster().at('dave')?.role).toBe('approver');
    chain.confirm(bob, role);
    expect(chain.roster().at('dave')).toMatchObject({ role: 'admin', party: ['dave'] });
    const disable = chain.add(dave, 'disable', 'alice', {}).hash;
    expect(chain.roster().at('alice')?.status).toBe('active');
    chain.confirm(bob, disable);
    const roster = chain.roster();
    expect(roster.at('alice')?.status).toBe('disabled');
    expect(roster.problems).toEqual([]);
    expect(roster.independentAdmins()).toBe(true);
  });

  it('lets an admin withdraw a proposal: it can no longer be accepted or confirmed', () => {
    const { alice, bob, dave, chain } = twoAdmins();
    const invitation = chain.invite(alice, dave, 'approver');
    chain.add(alice, 'withdraw-proposal', 'dave', { proposal: invitation });
    chain.accept(dave, invitation);
    chain.confirm(bob, invitation, dave.key.keyId);
    const roster = chain.roster();
    expect(roster.proposal(invitation)?.state).toBe('withdrawn');
    expect(roster.problems.map((problem) => problem.reason)).toEqual(['no open invitation to accept', 'no open proposal to confirm']);
    expect(roster.at('dave')).toBeUndefined();
  });

  it('lets only the proposer withdraw a proposal (issue 23, item 4): another admin’s withdrawal changes nothing', () => {
    const { alice, bob, dave, chain } = twoAdmins();
    const invitation = chain.invite(alice, dave, 'approver');
    chain.add(bob, 'withdraw-proposal', 'dave', { proposal: invitation });
    expect(chain.roster().proposal(invitation)?.state).toBe('open');
    expect(chain.roster().problems.map((problem) => problem.reason)).toEqual(['withdrawal refused: only alice, who proposed it, may withdraw it']);
  });

  it('never lets the admin a disabling or a role change is about withdraw it, even one they proposed themselves', () => {
    const { alice, bob, chain } = twoAdmins();
    const disable = chain.add(alice, 'disable', 'bob', {}).hash;
    chain.add(bob, 'withdraw-proposal', 'bob', { proposal: disable });
    const demote = chain.add(bob, 'role', 'bob', { role: 'approver' }).hash;
    chain.add(bob, 'withdraw-proposal', 'bob', { proposal: demote });
    const roster = chain.roster();
    expect([roster.proposal(disable)?.state, roster.proposal(demote)?.state]).toEqual(['open', 'open']);
    expect(roster.problems.map((problem) => problem.reason)).toEqual([
      'withdrawal refused: bob may not withdraw a proposal to disable bob: it is about them (the other admins decide it)',
      'withdrawal refused: bob may not withdraw a proposal to change the role of bob: it is about them (the other admins decide it)',
    ]);
    // Its proposer still may.
    chain.add(alice, 'withdraw-proposal', 'bob', { proposal: disable });
    expect(chain.roster().proposal(disable)?.state).toBe('withdrawn');
  });

  it('needs a confirmation for a policy, in force from the confirming row', () => {
    const { alice, bob, chain } = twoAdmins();
    const proposal = chain.add(alice, 'policy', 'trx', { policy: { thresholds: [] } }).hash;
    expect(chain.roster().policyAt('trx')).toBeNull();
    const confirm = chain.confirm(bob, proposal);
    expect(chain.roster().policyAt('trx')).toMatchObject({ id: proposal, fromSeq: confirm.seq });
  });
});

describe('rows that do not verify', () => {
  it('are reported as problems and change nothing', () => {
    const [alice, carol, eve, mallory] = [person('alice'), person('carol'), person('eve'), person('mallory')];
    const chain = new Chain();
    chain.found(alice);
    chain.add(alice, 'enrol', 'x1', { role: 'viewer' }, { signWith: mallory.key.privateKey });
    chain.add(alice, 'enrol', 'x2', { role: 'viewer' }, { keyId: mallory.key.keyId, signWith: mallory.key.privateKey });
    chain.add(mallory, 'enrol', 'x3', { role: 'viewer' });
    chain.add(null, 'enrol', 'x4', { role: 'viewer' });
    chain.add(alice, 'enrol', 'x5', { role: 'root' });
    const invitation = chain.invite(alice, carol, 'approver');
    // An acceptance naming carol's key but signed by another, or naming a key id that is not its key's.
    chain.add(carol, 'accept', 'carol', { proposal: invitation, publicKey: carol.key.publicKey }, { signWith: mallory.key.privateKey });
    chain.add(carol, 'accept', 'carol', { proposal: invitation, publicKey: carol.key.publicKey }, { keyId: mallory.key.keyId, signWith: carol.key.privateKey });
    // Someone else accepting carol's invitation, and an acceptance of no invitation.
    chain.accept(eve, invitation);
    chain.add(carol, 'accept', 'carol', { proposal: 'f'.repeat(64), publicKey: carol.key.publicKey });
    chain.add(alice, 'enrol', 'alice', { role: 'viewer' });
    let roster = chain.roster();
    expect(roster.problems.map((problem) => problem.reason)).toEqual([
      "proposal refused: the signature does not verify with alice's key",
      `proposal refused: alice's key is ${alice.key.keyId}, not ${mallory.key.keyId}`,
      'proposal refused: mallory is not enrolled',
      'proposal refused: it is not signed by an operator',
      'unknown role',
      'the acceptance is not signed by the key it enrols',
      'the acceptance is not signed by the key it enrols',
      'the invitation is for another operator',
      'no open invitation to accept',
      'alice is already enrolled',
    ]);
    expect(roster.openProposals().map((proposal) => proposal.subject)).toEqual(['carol']);
    expect(roster.proposal(invitation)?.accepted).toBeNull();
    expect(roster.operators().map((operator) => operator.name)).toEqual(['alice']);
    // The invitation is still open for carol herself.
    chain.accept(carol, invitation);
    roster = chain.roster();
    expect(roster.at('carol')).toMatchObject({ status: 'active', keyId: carol.key.keyId });
  });
});

describe('countIndependentApprovals', () => {
  // APPROVALS.md: founders A and B; A alone enrols C; A and B together enrol D. C's party is {C, A}, D's is {D}.
  const A = ['a'];
  const B = ['b'];
  const C = ['c', 'a'];
  const D = ['d'];

  it('follows the APPROVALS.md example', () => {
    expect(countIndependentApprovals(C, [D])).toBe(1); // D may approve C's request
    expect(countIndependentApprovals(A, [B])).toBe(1); // B may approve A's request
    expect(countIndependentApprovals(A, [C])).toBe(0); // C may not approve A's request
    expect(countIndependentApprovals(C, [A])).toBe(0); // nor A C's
    expect(countIndependentApprovals(D, [C, B])).toBe(2);
    expect(countIndependentApprovals(B, [C, A])).toBe(1); // C and A are one party: they count once
  });

  it('counts each party once and finds the largest set of disjoint parties, not a greedy one', () => {
    expect(countIndependentApprovals(['i'], [])).toBe(0);
    expect(countIndependentApprovals(['i'], [['x'], ['x']])).toBe(1);
    expect(countIndependentApprovals(['i'], [['x', 'y'], ['x'], ['y']])).toBe(2);
    expect(countIndependentApprovals(['i'], [['x', 'i'], ['y'], ['z']])).toBe(2);
    expect(countIndependentApprovals(['i', 'a'], [['a'], ['b', 'c'], ['c'], ['b'], ['d']])).toBe(3);
  });

  it('matches the parties the roster computes', () => {
    const [a, b, c, d] = [person('a'), person('b'), person('c'), person('d')];
    // A one-admin desk: a alone enrols c, so c is a's party.
    const single = new Chain();
    single.found(a);
    single.accept(c, single.invite(a, c, 'approver'));
    expect(single.roster().at('c')?.party).toEqual(C);
    // Two founders: d is enrolled by a and confirmed by b, so d is nobody's party but d's.
    const pair = new Chain();
    pair.found(a, b);
    const invitation = pair.invite(a, d, 'approver');
    pair.accept(d, invitation);
    pair.confirm(b, invitation, d.key.keyId);
    const roster = pair.roster();
    expect([roster.at('a')?.party, roster.at('b')?.party, roster.at('d')?.party]).toEqual([A, B, D]);
    expect(disjoint(roster.at('d')?.party ?? [], C)).toBe(true);
    expect(disjoint(C, A)).toBe(false);
  });
});
