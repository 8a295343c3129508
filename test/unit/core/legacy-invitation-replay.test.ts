// Replay (ChainVerifier, as `team join`, team pulls and `audit verify` run it) of invitations made before they were
// bound to their code: an acceptance made before the chain's first workstation enrolment still verifies; one after it
// is refused, naming the row, since on a team desk such an acceptance proves nothing about the code.
import { describe, expect, it } from 'vitest';
import { ChainVerifier, WORKSTATION_ENROLMENT } from '../../../electron/core/audit/trail';
import type { ChainRow } from '../../../electron/core/ledger/roster';
import { actionOf, type AuditRow } from '../../../electron/core/audit/audit-table';
import { Chain, DESK, person } from '../../support/roster-chain';

function auditRow(row: ChainRow): AuditRow {
  const s = row.statement;
  return { seq: row.seq, at: s.at, profile: s.profile, kind: s.kind, action: actionOf(s.kind, s.body), operator: s.operator, subject: s.subject, keyId: s.keyId, statement: row.text, signature: row.signature, prevHash: s.prev, hash: row.hash };
}

function verify(chain: Chain): { seq: number; reason: string } | null {
  const verifier = new ChainVerifier({ keyId: DESK.keyId, publicKey: DESK.publicKey }, () => ({ rows: 0, headHash: '' }));
  for (const row of chain.rows) {
    const problem = verifier.check(auditRow(row));
    if (problem) return problem;
  }
  return null;
}

describe('a legacy invitation (code hash, no code key) on replay', () => {
  it('verifies an acceptance made before the desk became a team desk', () => {
    const [alice, bob] = [person('alice'), person('bob')];
    const chain = new Chain();
    chain.found(alice);
    chain.enrol(alice, bob, 'approver');
    chain.add(alice, 'action', 'A', { action: WORKSTATION_ENROLMENT, details: { workstation: 'A', publicKey: DESK.publicKey } });
    expect(verify(chain)).toBeNull();
  });

  it('refuses, naming the row, an acceptance of one after the first workstation enrolment', () => {
    const [alice, bob] = [person('alice'), person('bob')];
    const chain = new Chain();
    chain.found(alice);
    const proposal = chain.invite(alice, bob, 'approver');
    chain.add(alice, 'action', 'A', { action: WORKSTATION_ENROLMENT, details: { workstation: 'A', publicKey: DESK.publicKey } });
    const accept = chain.accept(bob, proposal);
    expect(verify(chain)).toEqual({
      seq: accept.seq,
      reason: `row ${accept.seq} (accept by bob) does not hold: the invitation for bob was made before invitations were bound to their code: on a team desk it cannot be accepted; an admin invites bob again`,
    });
  });
});
