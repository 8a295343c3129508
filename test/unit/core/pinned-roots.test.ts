// Pinned trust roots without a database (ledger/trust-roots.ts, ledger/pinned-rules.ts, the profile kinds of
// ledger/roster.ts): the genesis fingerprint, a found row after the pin refused without a four-eyes profile addition
// and accepted with one (once), a founding's desk key trusted before the pin only, and a profile removal that ends a
// roster only once confirmed (at once on a single-admin desk).
import { describe, expect, it } from 'vitest';
import type { KeyObject } from 'node:crypto';
import { ChainVerifier } from '../../../electron/core/audit/trail';
import { genesisFingerprint, genesisOf } from '../../../electron/core/ledger/trust-roots';
import { Roster, type ChainRow } from '../../../electron/core/ledger/roster';
import { generateSigningKey, isReadableFingerprint } from '../../../electron/core/statements/keys';
import { canonicalHash, type StatementBody, type StatementKind } from '../../../electron/core/statements/statement';
import { actionOf, type AuditRow } from '../../../electron/core/audit/audit-table';
import { signedRow } from '../../support/signed-rows';
import { person, type Person } from '../../support/roster-chain';

const WORKSTATION = generateSigningKey();
const ATTACKER_DESK = generateSigningKey();

/** Rows of several profiles in one chain, signed by people or by a desk key. */
class Ledger {
  readonly rows: ChainRow[] = [];

  add(profile: string, by: Person | null, kind: StatementKind, subject: string, body: StatementBody, desk: { keyId: string; privateKey: KeyObject } = WORKSTATION): ChainRow {
    const row = signedRow(
      this.rows.at(-1),
      { kind, profile, subject, body, operator: by?.name ?? null, keyId: by?.key.keyId ?? desk.keyId, at: 1_000 + this.rows.length },
      by?.key.privateKey ?? desk.privateKey,
    );
    this.rows.push(row);
    return row;
  }

  found(profile: string, admins: readonly Person[], deskKey = WORKSTATION.publicKey): void {
    const body: StatementBody = { admins: admins.map((admin) => ({ name: admin.name, publicKey: admin.key.publicKey })), deskKey: { publicKey: deskKey }, merchantId: `M-${profile}` };
    for (const admin of admins) this.add(profile, admin, 'found', canonicalHash(body), body);
  }

  addition(sponsor: string, by: Person, profile: string, founders: readonly Person[]): ChainRow {
    return this.add(sponsor, by, 'profile-add', profile, { merchantId: `M-${profile}`, admins: founders.map((founder) => ({ name: founder.name, publicKey: founder.key.publicKey })) });
  }
}

function auditRow(row: ChainRow): AuditRow {
  const s = row.statement;
  return { seq: row.seq, at: s.at, profile: s.profile, kind: s.kind, action: actionOf(s.kind, s.body), operator: s.operator, subject: s.subject, keyId: s.keyId, statement: row.text, signature: row.signature, prevHash: s.prev, hash: row.hash };
}

const legacy = (): { rows: number; headHash: string } => ({ rows: 0, headHash: '' });

/** Feeds rows to a verifier pinned at the genesis of the first `pinnedAt` rows; answers the first problem or null. */
function verify(rows: readonly ChainRow[], pinnedAt: number): { seq: number; reason: string } | null {
  const unpinned = new ChainVerifier(WORKSTATION, legacy);
  for (const row of rows.slice(0, pinnedAt)) expect(unpinned.check(auditRow(row))).toBeNull();
  const last = rows[pinnedAt - 1] as ChainRow;
  const genesis = genesisOf('d'.repeat(32), unpinned, last.seq, last.hash);
  const pinned = new ChainVerifier(WORKSTATION, legacy, genesis);
  for (const row of rows) {
    const problem = pinned.check(auditRow(row));
    if (problem) return problem;
  }
  return null;
}

describe('the genesis', () => {
  it('has a readable fingerprint that changes with what it pins', () => {
    const [alice, frank] = [person('alice'), person('frank')];
    const ledger = new Ledger();
    ledger.found('main', [alice, frank]);
    const verifier = new ChainVerifier(WORKSTATION, legacy);
    for (const row of ledger.rows) expect(verifier.check(auditRow(row))).toBeNull();
    const head = ledger.rows.at(-1) as ChainRow;
    const genesis = genesisOf('d'.repeat(32), verifier, head.seq, head.hash);
    expect(genesis.profiles).toEqual([{ name: 'main', merchantId: 'M-main', foundingId: head.statement.subject, admins: [{ name: 'alice', keyId: alice.key.keyId }, { name: 'frank', keyId: frank.key.keyId }] }]);
    expect(isReadableFingerprint(genesisFingerprint(genesis))).toBe(true);
    expect(genesisFingerprint({ ...genesis })).toBe(genesisFingerprint(genesis));
    expect(genesisFingerprint({ ...genesis, deskId: 'e'.repeat(32) })).not.toBe(genesisFingerprint(genesis));
  });
});

describe('rows after the pin', () => {
  const [alice, frank, erin] = [person('alice'), person('frank'), person('erin')];

  it('refuses a found row for a profile no addition put in force, and its desk key adds no trust', () => {
    const ledger = new Ledger();
    ledger.found('main', [alice, frank]);
    ledger.found('eu', [person('mallory')], ATTACKER_DESK.publicKey);
    expect(verify(ledger.rows, 2)).toMatchObject({ seq: 3, reason: expect.stringMatching(/profile eu is founded after the desk's pinned genesis .* without a profile addition in force/) });
    // Before the pin the same rows stand (the rules apply after it), and the founding's desk key is trusted there.
    ledger.add('eu', null, 'system', 'x', { action: 'withdrawals/status', details: {} }, ATTACKER_DESK);
    expect(verify(ledger.rows, ledger.rows.length)).toBeNull();
  });

  it('refuses a desk-signed row by a key only a founding after the pin named', () => {
    const ledger = new Ledger();
    ledger.found('main', [alice, frank]);
    ledger.add('main', null, 'system', 'x', { action: 'withdrawals/status', details: {} }, ATTACKER_DESK);
    expect(verify(ledger.rows, 2)).toMatchObject({ seq: 3, reason: expect.stringContaining("neither in the desk's pinned genesis nor enrolled") });
  });

  it('accepts a founding with the keys a confirmed addition named, once; not with other keys, not before confirmation', () => {
    const ledger = new Ledger();
    ledger.found('main', [alice, frank]);
    const proposal = ledger.addition('main', alice, 'eu', [erin]);
    const early = new Ledger();
    early.rows.push(...ledger.rows);
    early.found('eu', [erin]);
    expect(verify(early.rows, 2)).toMatchObject({ seq: 4, reason: expect.stringContaining('without a profile addition in force') });
    ledger.add('main', frank, 'confirm', 'eu', { proposal: proposal.hash });
    const impostor = new Ledger();
    impostor.rows.push(...ledger.rows);
    impostor.found('eu', [person('erin')]);
    expect(verify(impostor.rows, 2)).toMatchObject({ seq: 5 });
    ledger.found('eu', [erin]);
    expect(verify(ledger.rows, 2)).toBeNull();
    // The addition is used: the profile removed (four-eyes) and founded again needs a new one.
    const removal = ledger.add('eu', erin, 'profile-remove', 'eu', {});
    expect(verify(ledger.rows, 2)).toBeNull();
    expect(Roster.replay(ledger.rows.filter((row) => row.statement.profile === 'eu')).founded).toBe(false);
    expect(removal.seq).toBe(6);
    ledger.found('eu', [erin]);
    expect(verify(ledger.rows, 2)).toMatchObject({ seq: 7, reason: expect.stringContaining('without a profile addition in force') });
  });
});

describe('profile proposals in a roster', () => {
  const [alice, frank] = [person('alice'), person('frank')];

  it('waits for a second independent admin on a two-admin desk, and is in force at once on a single-admin desk', () => {
    const two = new Ledger();
    two.found('main', [alice, frank]);
    const proposal = two.add('main', alice, 'profile-remove', 'main', {});
    let roster = Roster.replay(two.rows);
    expect(roster.founded).toBe(true);
    expect(roster.proposal(proposal.hash)).toMatchObject({ kind: 'profile-remove', needsConfirmation: true, state: 'open' });
    two.add('main', alice, 'confirm', 'main', { proposal: proposal.hash });
    roster = Roster.replay(two.rows);
    expect(roster.founded).toBe(true);
    expect(roster.problems.at(-1)?.reason).toContain('not independent');
    two.add('main', frank, 'confirm', 'main', { proposal: proposal.hash });
    expect(Roster.replay(two.rows).founded).toBe(false);

    const one = new Ledger();
    one.found('main', [alice]);
    one.addition('main', alice, 'eu', [person('erin')]);
    const alone = Roster.replay(one.rows);
    expect(alone.profileAdditions()).toHaveLength(1);
    expect(alone.independentAdmins()).toBe(false);
  });

  it('refuses a malformed addition and a removal of another profile', () => {
    const ledger = new Ledger();
    ledger.found('main', [alice, frank]);
    ledger.add('main', alice, 'profile-add', 'eu', { merchantId: 'M-eu', admins: [] });
    ledger.add('main', alice, 'profile-remove', 'eu', {});
    expect(Roster.replay(ledger.rows).problems.map((problem) => problem.reason)).toEqual([
      expect.stringContaining('a profile addition names the profile'),
      "a profile removal is proposed by the profile's own admins",
    ]);
  });
});
