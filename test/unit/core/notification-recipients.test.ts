// Who a "waiting for your approval" notice is for (core/notifications/recipients.ts), from signed rows replayed into
// a roster and judged as the desk judges them: active approvers and admins enrolled before the request, never its
// initiator, not once they decided, and only when their party would add to the independent approvals counted so far;
// nobody on a single-admin desk whose approvals cannot count, nobody once rejected or no longer awaiting approval.
import { describe, expect, it } from 'vitest';
import { approvalCandidates } from '../../../electron/core/notifications/recipients';
import { DEFAULT_POLICY_REFERENCE, encodeIntent, intentFingerprint, intentHash, type WithdrawalIntent } from '../../../electron/core/statements/intent';
import type { WithdrawalRequest } from '../../../electron/core/withdrawals/withdrawals-table';
import type { WithdrawalState } from '../../../electron/contract';
import { judgeRequest } from '../../../electron/core/withdrawals/verify';
import { Chain, person, type Person } from '../../support/roster-chain';

const MERCHANT = 'M-1001';

/** A request statement by `by` on the chain, and the request row the desk would have stored with it. */
function requestBy(chain: Chain, by: Person, requiredApprovals = 1, state: WithdrawalState = 'awaitingApproval'): WithdrawalRequest {
  const intent: WithdrawalIntent = {
    v: 1,
    merchantId: MERCHANT,
    currency: 'trx.usdt',
    amount: '1250.000001',
    toAddress: 'TXYZ1111111111111111111111111111111',
    withdrawType: 'normal',
    userOrder: `td-20261123-${chain.rows.length}`,
    memo: null,
    requiredApprovals,
    policy: DEFAULT_POLICY_REFERENCE,
    requestedAt: 5_000,
  };
  const row = chain.add(by, 'request', intentHash(intent), { intent: JSON.parse(encodeIntent(intent)) as never, warnings: [] });
  return {
    id: row.seq,
    profile: 'main',
    currency: intent.currency,
    amount: intent.amount,
    toAddress: intent.toAddress,
    withdrawType: intent.withdrawType,
    memo: null,
    userOrder: intent.userOrder,
    initiator: by.name,
    state,
    requiredApprovals,
    intentJson: encodeIntent(intent),
    intentHash: intentHash(intent),
    fingerprint: intentFingerprint(intent),
    requestSeq: row.seq,
    batchHash: null,
    lastError: null,
    createdAt: 5_000,
    updatedAt: 5_000,
    apiOrder: null,
    orderStatus: null,
    orderStatusAt: null,
    fee: null,
    txid: null,
    raw: null,
  };
}

function decide(chain: Chain, by: Person, request: WithdrawalRequest, decision: 'approve' | 'reject'): void {
  const fingerprint = request.fingerprint ?? '';
  chain.add(by, decision, request.intentHash ?? '', decision === 'approve' ? { fingerprint } : { fingerprint, reason: 'not this week' });
}

function candidates(chain: Chain, request: WithdrawalRequest): string[] {
  const roster = chain.roster();
  const rows = chain.rows.filter((row) => row.statement.subject === request.intentHash);
  const evidence = judgeRequest(roster, request, rows, MERCHANT, Date.now());
  return approvalCandidates(roster, request, evidence, MERCHANT).sort();
}

/** Two founders (independent), then approvers, an initiator and a viewer each enrolled by one and confirmed by the other. */
function teamDesk(): { chain: Chain; people: Record<'alice' | 'frank' | 'bob' | 'erin' | 'carol' | 'dave', Person> } {
  const people = { alice: person('alice'), frank: person('frank'), bob: person('bob'), erin: person('erin'), carol: person('carol'), dave: person('dave') };
  const chain = new Chain();
  chain.found(people.alice, people.frank);
  chain.enrol(people.alice, people.bob, 'approver', people.frank);
  chain.enrol(people.alice, people.erin, 'approver', people.frank);
  chain.enrol(people.alice, people.carol, 'initiator', people.frank);
  chain.enrol(people.alice, people.dave, 'viewer', people.frank);
  return { chain, people };
}

describe('who may approve a request now', () => {
  it('names the admins and approvers, never the initiator, an initiator or a viewer, nor anyone enrolled after the request', () => {
    const { chain, people } = teamDesk();
    const byCarol = requestBy(chain, people.carol);
    chain.enrol(people.alice, person('gil'), 'approver', people.frank);
    expect(candidates(chain, byCarol)).toEqual(['alice', 'bob', 'erin', 'frank']);

    const byAlice = requestBy(chain, people.alice);
    // gil was enrolled before this one: he counts here.
    expect(candidates(chain, byAlice)).toEqual(['bob', 'erin', 'frank', 'gil']);
  });

  it('drops whoever decided, and once the approvals suffice nobody is waited for', () => {
    const { chain, people } = teamDesk();
    const twoNeeded = requestBy(chain, people.carol, 2);
    decide(chain, people.bob, twoNeeded, 'approve');
    expect(candidates(chain, twoNeeded)).toEqual(['alice', 'erin', 'frank']);
    decide(chain, people.erin, twoNeeded, 'approve');
    expect(candidates(chain, twoNeeded)).toEqual([]);
  });

  it('asks nobody on a single-admin desk, where every approval falls in the admin party', () => {
    const [alice, bob, carol] = [person('alice'), person('bob'), person('carol')];
    const chain = new Chain();
    chain.found(alice);
    chain.enrol(alice, bob, 'approver');
    chain.enrol(alice, carol, 'initiator');
    expect(candidates(chain, requestBy(chain, alice))).toEqual([]);
    expect(candidates(chain, requestBy(chain, carol))).toEqual([]);
  });

  it('counts parties: an admin whose party holds the initiator is not asked, an independent approver is', () => {
    const [alice, frank, bob, carol] = [person('alice'), person('frank'), person('bob'), person('carol')];
    const chain = new Chain();
    chain.found(alice, frank);
    chain.enrol(alice, bob, 'approver', frank);
    // frank leaves (alice proposes, frank confirms); alone now, alice enrols carol without confirmation: carol is alice's party.
    chain.confirm(frank, chain.add(alice, 'disable', 'frank', {}).hash);
    chain.enrol(alice, carol, 'initiator');
    expect(chain.roster().at('carol')?.party).toEqual(['carol', 'alice']);
    expect(candidates(chain, requestBy(chain, carol))).toEqual(['bob']);
  });

  it('asks nobody once the request is rejected or no longer awaits approval', () => {
    const { chain, people } = teamDesk();
    const rejected = requestBy(chain, people.carol, 2);
    decide(chain, people.erin, rejected, 'reject');
    expect(candidates(chain, rejected)).toEqual([]);
    expect(candidates(chain, requestBy(chain, people.carol, 1, 'cancelled'))).toEqual([]);
    expect(candidates(chain, requestBy(chain, people.carol, 1, 'approved'))).toEqual([]);
  });

  it('asks nobody about a request whose columns no longer match what its initiator signed', () => {
    const { chain, people } = teamDesk();
    const altered = { ...requestBy(chain, people.carol), amount: '99999' };
    expect(candidates(chain, altered)).toEqual([]);
    const otherFingerprint = { ...requestBy(chain, people.carol), fingerprint: 'AAAA-BBBB-CCCC-DDDD' };
    expect(candidates(chain, otherFingerprint)).toEqual([]);
  });
});
