// The roster on the command line without an engine: proposal ids typed in full or as a unique prefix (bad or
// ambiguous text exit 2, no match exit 1), what an open proposal waits for, and the `operator list` text with its notice.
import { describe, expect, it } from 'vitest';
import { rosterText } from '../../../electron/cli/commands/operator';
import { NegativeAnswer, UsageError } from '../../../electron/cli/errors';
import { resolveProposalId, shortProposal, waitingFor } from '../../../electron/cli/proposals';
import type { OperatorView, ProposalView, RosterView } from '../../../electron/contract';

function proposal(id: string, extra: Partial<ProposalView> = {}): ProposalView {
  return {
    id,
    kind: 'enrol',
    subject: 'erin',
    summary: 'invite erin as viewer',
    proposer: 'alice',
    at: 0,
    needsConfirmation: true,
    acceptedKey: null,
    state: 'open',
    ...extra,
  };
}

function operator(name: string, extra: Partial<OperatorView> = {}): OperatorView {
  return {
    name,
    role: 'admin',
    status: 'active',
    keyFingerprint: 'AAAA-BBBB-CCCC-DDDD',
    party: [name],
    founding: true,
    enrolledBy: [],
    lockedUntil: null,
    failedAttempts: 0,
    devices: [],
    ...extra,
  };
}

const A = `abcdef01${'0'.repeat(56)}`;
const B = `abcdef02${'0'.repeat(56)}`;

describe('proposal ids typed on the command line', () => {
  it('resolve in full or by a unique prefix of at least 8 characters, in any case', () => {
    const open = [proposal(A), proposal(B)];
    expect(resolveProposalId(A, open)).toBe(A);
    expect(resolveProposalId('ABCDEF02', open)).toBe(B);
    expect(resolveProposalId(` ${shortProposal(A)} `, open)).toBe(A);
    expect(shortProposal(A)).toBe('abcdef010000');
  });

  it('refuse short, non-hex or ambiguous text as bad input, and no match as a refusal', () => {
    const open = [proposal(A), proposal(B)];
    expect(() => resolveProposalId('abcdef0', open)).toThrow(UsageError);
    expect(() => resolveProposalId('xyz12345', open)).toThrow(UsageError);
    expect(() => resolveProposalId('abcdef0', open)).toThrow(/unique prefix of at least 8/);
    expect(() => resolveProposalId('abcdef00', open)).toThrow(NegativeAnswer);
    expect(() => resolveProposalId('abcdef0', [])).toThrow(UsageError);
    expect(() => resolveProposalId('abcdef0000', [proposal(`abcdef0000${'2'.repeat(54)}`), proposal(`abcdef0000${'1'.repeat(54)}`)])).toThrow('abcdef0000 is the start of 2 open proposals: type more of the id.');
    // A whole id that is not open goes to the engine, which says what became of it.
    expect(resolveProposalId('f'.repeat(64), open)).toBe('f'.repeat(64));
  });
});

describe('what an open proposal waits for', () => {
  it('names the invited operator, then an admin independent of the proposer and the key to compare', () => {
    expect(waitingFor(proposal(A))).toBe('erin to accept, then an admin independent of alice to confirm');
    expect(waitingFor(proposal(A, { needsConfirmation: false }))).toBe('erin to accept');
    expect(waitingFor(proposal(A, { acceptedKey: 'KKKK-EEEE-YYYY-2222' }))).toBe('an admin independent of alice to confirm key KKKK-EEEE-YYYY-2222');
    expect(waitingFor(proposal(A, { kind: 'policy', subject: 'trx.usdt', summary: 'change the trx.usdt withdrawal policy' }))).toBe('an admin independent of alice to confirm');
  });
});

describe('operator list as text', () => {
  it('shows operators, open proposals and the notice, said plainly', () => {
    const roster: RosterView = {
      founded: true,
      operators: [
        operator('sam'),
        operator('olive', { role: 'approver', party: ['olive', 'sam'], founding: false, enrolledBy: ['sam'], lockedUntil: Date.UTC(2999, 0, 1) }),
        operator('erin', { role: 'viewer', status: 'invited', keyFingerprint: null, party: [], founding: false, enrolledBy: ['sam'] }),
      ],
      proposals: [proposal(A, { proposer: 'sam', needsConfirmation: false })],
      pendingDevices: [],
      fourEyes: false,
      notice: 'This desk has a single admin, so it cannot give four-eyes.',
    };
    expect(rosterText(roster, 'UTC', Date.UTC(2026, 0, 1))).toBe(
      [
        'name   role      status                                         key fingerprint      party       enrolled by',
        'sam    admin     active                                         AAAA-BBBB-CCCC-DDDD  sam         founder',
        'olive  approver  active, locked out until 2999-01-01 00:00:00Z  AAAA-BBBB-CCCC-DDDD  olive, sam  sam',
        'erin   viewer    invited                                        -                    -           sam',
        '',
        'open proposals:',
        'id            summary                proposer  waiting for',
        'abcdef010000  invite erin as viewer  sam       erin to accept',
        '',
        'This desk has a single admin, so it cannot give four-eyes.',
        '',
      ].join('\n'),
    );
  });

  it('shows a lockout in the reporting time zone, with its offset', () => {
    const roster: RosterView = {
      founded: true,
      operators: [operator('olive', { role: 'approver', lockedUntil: Date.UTC(2999, 0, 1, 12) })],
      proposals: [],
      pendingDevices: [],
      fourEyes: false,
      notice: null,
    };
    expect(rosterText(roster, 'Asia/Kolkata', Date.UTC(2026, 0, 1))).toContain('active, locked out until 2999-01-01 17:30:00+05:30');
  });

  it("lists each operator's device keys per workstation, and those waiting for a confirmation", () => {
    const roster: RosterView = {
      founded: true,
      operators: [operator('sam', { devices: [{ workstation: 'laptop-sam', keyFingerprint: 'EEEE-FFFF-GGGG-HHHH', confirmedBy: 'sam' }] }), operator('olive', { role: 'approver' })],
      proposals: [],
      pendingDevices: [{ id: B, operator: 'olive', workstation: 'front-office', keyFingerprint: 'JJJJ-KKKK-LLLL-MMMM', at: 0 }],
      fourEyes: false,
      notice: null,
    };
    const text = rosterText(roster, 'UTC', Date.UTC(2026, 0, 1));
    expect(text).toContain(['device keys (one per workstation):', 'name  workstation  key fingerprint      confirmed by', 'sam   laptop-sam   EEEE-FFFF-GGGG-HHHH  sam'].join('\n'));
    expect(text).toContain(['device keys waiting for a confirmation:', 'id            name   workstation   key fingerprint', 'abcdef020000  olive  front-office  JJJJ-KKKK-LLLL-MMMM'].join('\n'));
  });

  it('an unfounded profile shows only the notice', () => {
    expect(rosterText({ founded: false, operators: [], proposals: [], pendingDevices: [], fourEyes: false, notice: 'not founded yet' }, 'UTC')).toBe('not founded yet\n');
  });
});
