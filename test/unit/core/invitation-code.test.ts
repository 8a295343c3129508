// Invitations bound to their code (ledger/invitation-code.ts, Roster #accept): an `accept` counts only with the
// code key's signature over its proposal and public key, whoever signs the row; the right code still works after a
// refused attempt; legacy invitations (a code hash, no code key) keep replaying as before.
import { describe, expect, it } from 'vitest';
import { invitationCodeKey, signInvitationProof } from '../../../electron/core/ledger/invitation-code';
import { generateSigningKey } from '../../../electron/core/statements/keys';
import { Chain, person } from '../../support/roster-chain';

const CODE = 'ABCD-EFGH-IJKL-M';

describe('an invitation bound to its code', () => {
  it('derives the same code key from the code however it is typed, and a different one per operator', () => {
    expect(invitationCodeKey('abcdefghijklm', 'Erin').publicKey).toBe(invitationCodeKey(CODE, 'erin').publicKey);
    expect(invitationCodeKey(CODE, 'erin').publicKey).not.toBe(invitationCodeKey(CODE, 'frank').publicKey);
    expect(invitationCodeKey(CODE, 'erin').publicKey).not.toBe(invitationCodeKey('ABCD-EFGH-IJKL-N', 'erin').publicKey);
  });

  it('refuses an accept without the proof, with a wrong code, or with a proof made for another key; the invitee then accepts with the code', () => {
    const [alice, erin, mallory] = [person('alice'), person('erin'), person('mallory')];
    const chain = new Chain();
    chain.found(alice);
    const proposal = chain.add(alice, 'enrol', 'erin', { role: 'approver', codeKey: invitationCodeKey(CODE, 'erin').publicKey }).hash;
    const impostor = { name: 'erin', key: mallory.key };
    // 1. an accept signed by the impostor's own key, no proof at all
    chain.add(impostor, 'accept', 'erin', { proposal, publicKey: mallory.key.publicKey });
    // 2. a proof made with a guessed code
    const guessed = signInvitationProof(invitationCodeKey('AAAA-AAAA-AAAA-A', 'erin'), proposal, mallory.key.publicKey);
    chain.add(impostor, 'accept', 'erin', { proposal, publicKey: mallory.key.publicKey, codeProof: guessed });
    // 3. the real invitee's proof (seen in transit) carried over to the impostor's key
    const honest = signInvitationProof(invitationCodeKey(CODE, 'erin'), proposal, erin.key.publicKey);
    chain.add(impostor, 'accept', 'erin', { proposal, publicKey: mallory.key.publicKey, codeProof: honest });
    let roster = chain.roster();
    expect(roster.problems.map((problem) => problem.reason)).toEqual([
      'the acceptance carries no proof of the invitation code',
      'the acceptance does not prove the invitation code (signed without the code)',
      'the acceptance does not prove the invitation code (signed without the code)',
    ]);
    expect(roster.at('erin')).toBeUndefined();
    expect(roster.proposal(proposal)).toMatchObject({ state: 'open', accepted: null });
    chain.add(erin, 'accept', 'erin', { proposal, publicKey: erin.key.publicKey, codeProof: honest });
    roster = chain.roster();
    expect(roster.problems).toHaveLength(3);
    expect(roster.at('erin')).toMatchObject({ keyId: erin.key.keyId, role: 'approver', status: 'active' });
  });

  it('binds a re-key to its code too, and refuses an invitation whose code key is not a key', () => {
    const [alice, carol] = [person('alice'), person('carol')];
    const chain = new Chain();
    chain.found(alice);
    chain.enrol(alice, carol, 'approver');
    const rekey = chain.add(alice, 'rekey', 'carol', { codeKey: invitationCodeKey(CODE, 'carol').publicKey }).hash;
    const fresh = generateSigningKey();
    const stolen = generateSigningKey();
    chain.add({ name: 'carol', key: stolen }, 'accept', 'carol', { proposal: rekey, publicKey: stolen.publicKey });
    chain.add({ name: 'carol', key: fresh }, 'accept', 'carol', { proposal: rekey, publicKey: fresh.publicKey, codeProof: signInvitationProof(invitationCodeKey(CODE, 'carol'), rekey, fresh.publicKey) });
    const broken = chain.add(alice, 'enrol', 'dora', { role: 'viewer', codeKey: 'not a key' }).hash;
    const dora = person('dora');
    chain.add(dora, 'accept', 'dora', { proposal: broken, publicKey: dora.key.publicKey, codeProof: 'x' });
    const roster = chain.roster();
    expect(roster.problems.map((problem) => problem.reason)).toEqual(['the acceptance carries no proof of the invitation code', 'the invitation commits to no usable code key']);
    expect(roster.at('carol')?.keyId).toBe(fresh.keyId);
    expect(roster.at('dora')).toBeUndefined();
  });

  it('replays a legacy invitation (a code hash, no code key) as before', () => {
    const [alice, bob] = [person('alice'), person('bob')];
    const chain = new Chain();
    chain.found(alice);
    chain.enrol(alice, bob, 'approver');
    const roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.at('bob')?.keyId).toBe(bob.key.keyId);
  });
});
