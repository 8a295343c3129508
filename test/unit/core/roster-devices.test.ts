// Device keys in the roster (Roster #proposeDevice / #confirmDevice, snapshotKey): proposed by the operator with the
// new key itself, in force once their key in force or an admin confirms it (an admin's confirmation joins the admin's
// party), refused when proposed or confirmed by someone else, dropped by a re-key.
import { describe, expect, it } from 'vitest';
import { snapshotKey } from '../../../electron/core/ledger/operator-keys';
import { generateSigningKey, type SigningKeyPair } from '../../../electron/core/statements/keys';
import { Chain, person, type Person } from '../../support/roster-chain';

function proposeDevice(chain: Chain, who: Person, workstation: string, key: SigningKeyPair = generateSigningKey(), by: string = who.name): { id: string; key: SigningKeyPair } {
  const row = chain.add(who, 'device', who.name, { workstation, publicKey: key.publicKey }, { signWith: key.privateKey, keyId: key.keyId, operator: by });
  return { id: row.hash, key };
}

describe('device keys', () => {
  it('signs for the operator once their key in force confirms it; their party stays their own', () => {
    const [alice, frank, bob] = [person('alice'), person('frank'), person('bob')];
    const chain = new Chain();
    chain.found(alice, frank);
    chain.enrol(alice, bob, 'initiator', frank);
    const device = proposeDevice(chain, bob, 'laptop-bob');
    let roster = chain.roster();
    expect(roster.pendingDevices().map((entry) => entry.id)).toEqual([device.id]);
    expect(snapshotKey(roster.at('bob')!, device.key.keyId)).toBeNull();
    chain.confirm(bob, device.id, device.key.keyId);
    // The device key now signs for bob (an address-book proposal needs an active signer's key).
    chain.add({ name: 'bob', key: device.key }, 'book', `trx:T${'1'.repeat(33)}`, { label: 'x' });
    roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.at('bob')).toMatchObject({ keyId: bob.key.keyId, party: ['bob'], devices: [{ workstation: 'laptop-bob', keyId: device.key.keyId, confirmedBy: 'bob' }] });
    expect(snapshotKey(roster.at('bob')!, device.key.keyId)).toBe(device.key.publicKey);
    expect(roster.pendingDevices()).toEqual([]);
  });

  it("an admin's confirmation puts the operator in the admin's party", () => {
    const [alice, frank, bob] = [person('alice'), person('frank'), person('bob')];
    const chain = new Chain();
    chain.found(alice, frank);
    chain.enrol(alice, bob, 'approver', frank);
    const device = proposeDevice(chain, bob, 'laptop-bob');
    chain.confirm(frank, device.id, device.key.keyId);
    const roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.at('bob')).toMatchObject({ party: ['bob', 'frank'], devices: [{ workstation: 'laptop-bob', confirmedBy: 'frank' }] });
  });

  it('refuses a device key proposed by someone else, confirmed by another non-admin, by the proposed key itself, or naming another key', () => {
    const [alice, bob, carol] = [person('alice'), person('bob'), person('carol')];
    const chain = new Chain();
    chain.found(alice);
    chain.enrol(alice, bob, 'approver');
    chain.enrol(alice, carol, 'initiator');
    // carol proposes a key for bob: the row is hers, not bob's
    proposeDevice(chain, bob, 'laptop-bob', generateSigningKey(), 'carol');
    // a proposal signed by carol's key instead of the key it proposes
    const stranger = generateSigningKey();
    chain.add(bob, 'device', 'bob', { workstation: 'laptop-bob', publicKey: stranger.publicKey }, { signWith: carol.key.privateKey, keyId: stranger.keyId });
    const device = proposeDevice(chain, bob, 'laptop-bob');
    chain.confirm(carol, device.id, device.key.keyId);
    chain.add({ name: 'bob', key: device.key }, 'confirm', 'bob', { proposal: device.id, keyId: device.key.keyId });
    chain.confirm(bob, device.id, 'AAAA-AAAA-AAAA-AAAA');
    const roster = chain.roster();
    expect(roster.problems.map((problem) => problem.reason)).toEqual([
      'a device key is proposed by the operator it is for',
      'a device key proposal is signed by the key it proposes',
      'confirmation refused: carol is neither bob nor an admin',
      `confirmation refused: bob's key is ${bob.key.keyId}, not ${device.key.keyId}`,
      'the confirmation names another key than the device key proposed',
    ]);
    expect(roster.at('bob')?.devices).toEqual([]);
  });

  it('a re-key drops the device keys, and a device key proposed before it no longer applies', () => {
    const [alice, bob] = [person('alice'), person('bob')];
    const chain = new Chain();
    chain.found(alice);
    chain.enrol(alice, bob, 'approver');
    const first = proposeDevice(chain, bob, 'laptop-bob');
    chain.confirm(bob, first.id, first.key.keyId);
    const stale = proposeDevice(chain, bob, 'desk-2');
    const rekey = chain.add(alice, 'rekey', 'bob', { codeHash: 'd'.repeat(64) }).hash;
    const fresh = generateSigningKey();
    chain.accept(bob, rekey, fresh);
    chain.confirm({ name: 'bob', key: fresh }, stale.id, stale.key.keyId);
    const roster = chain.roster();
    expect(roster.at('bob')).toMatchObject({ keyId: fresh.keyId, devices: [] });
    expect(roster.problems.map((problem) => problem.reason)).toEqual(['the device key no longer applies: bob was re-keyed since it was proposed']);
  });
});
