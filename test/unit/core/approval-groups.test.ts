// Approval groups and expiry (issue 20): the assignment of counted approvers to a tier's group slots (one slot each,
// parties independent of the initiator and of each other), the combination of tiers, the policy checks, the expiry
// rule, and the roster's four-eyes `group` change with membership as of a row.
import { describe, expect, it } from 'vitest';
import { parseMoney } from '../../../electron/chains';
import { ruleText, stillNeededText } from '../../../electron/contract/approver-view';
import {
  approvalExpiry,
  approvalPolicyProblems,
  type GroupCandidate,
  groupRequirementFor,
  groupRequirementText,
  judgeGroups,
  parseApprovalValidHours,
  parseGroupRequirement,
  strictestValidity,
} from '../../../electron/core/withdrawals/approval-groups';
import { Chain, person } from '../../support/roster-chain';

const financeAndLeads = [
  [
    { group: 'finance', count: 1 },
    { group: 'treasury-leads', count: 1 },
  ],
  [{ group: 'cfo', count: 1 }],
];
const INITIATOR = ['carol'];
const approver = (name: string, groups: string[], party: string[] = [name]): GroupCandidate => ({ name, party, groups });

describe('a tier naming approval groups', () => {
  it('is not met by two approvers of one group when it asks for one of each of two (AND)', () => {
    const verdict = judgeGroups(financeAndLeads, INITIATOR, [approver('bob', ['finance']), approver('erin', ['finance'])], 2);
    expect(verdict).toEqual({ met: false, stillNeeded: [{ group: 'treasury-leads', count: 1 }] });
    expect(groupRequirementText(financeAndLeads)).toBe('(1 of finance and 1 of treasury-leads) or 1 of cfo');
  });

  it('is met by one of each group, or by the other alternative alone (OR)', () => {
    expect(judgeGroups(financeAndLeads, INITIATOR, [approver('bob', ['finance']), approver('erin', ['treasury-leads'])], 2).met).toBe(true);
    expect(judgeGroups(financeAndLeads, INITIATOR, [approver('gil', ['cfo'])], 1).met).toBe(true);
    // The count of the tier still holds: the cfo alone does not make two approvals.
    expect(judgeGroups(financeAndLeads, INITIATOR, [approver('gil', ['cfo'])], 2).met).toBe(false);
  });

  it('lets one approver stand for one group slot only, however many groups they are in', () => {
    const both = approver('bob', ['finance', 'treasury-leads']);
    const alone = judgeGroups(financeAndLeads, INITIATOR, [both], 1);
    expect(alone.met).toBe(false);
    expect(alone.stillNeeded).toHaveLength(1);
    expect(alone.stillNeeded[0]?.count).toBe(1);
    // bob takes whichever slot leaves the other for erin (an exhaustive assignment, not first come first served).
    expect(judgeGroups(financeAndLeads, INITIATOR, [both, approver('erin', ['finance'])], 2).met).toBe(true);
    expect(judgeGroups([[{ group: 'finance', count: 2 }]], INITIATOR, [both, both], 1).met).toBe(false);
  });

  it('counts only approvers independent of the initiator and of each other', () => {
    // erin is in bob's party (enrolled by him alone): the two stand for one.
    const sameParty = [approver('bob', ['finance'], ['bob']), approver('erin', ['treasury-leads'], ['erin', 'bob'])];
    expect(judgeGroups(financeAndLeads, INITIATOR, sameParty, 2).met).toBe(false);
    // gil is in the initiator's party: his cfo approval does not count.
    expect(judgeGroups(financeAndLeads, INITIATOR, [approver('gil', ['cfo'], ['gil', 'carol'])], 1).met).toBe(false);
  });

  it('finds the one set of independent approvers that meets the groups when parties overlap', () => {
    // anna and ben share x's party: one of them at most; cid is independent of both.
    const anna = approver('anna', ['finance'], ['anna', 'x']);
    const ben = approver('ben', ['treasury-leads'], ['ben', 'x']);
    const cid = approver('cid', ['treasury-leads']);
    expect(judgeGroups(financeAndLeads, INITIATOR, [ben, anna, cid], 2).met).toBe(true);
    expect(judgeGroups(financeAndLeads, INITIATOR, [ben, anna], 2).met).toBe(false);
    expect(judgeGroups([[{ group: 'treasury-leads', count: 2 }]], INITIATOR, [ben, anna, cid], 2).met).toBe(true);
    expect(judgeGroups([[{ group: 'treasury-leads', count: 2 }]], INITIATOR, [ben, approver('dan', ['treasury-leads'], ['dan', 'x'])], 2).met).toBe(false);
  });

  it('combines the tiers an amount exceeds: a larger amount never needs less', () => {
    const thresholds = [
      { above: '100', groups: [[{ group: 'finance', count: 1 }]] },
      { above: '1000', groups: [[{ group: 'finance', count: 2 }], [{ group: 'cfo', count: 1 }]] },
      { above: '5000' },
    ];
    expect(groupRequirementFor(thresholds, parseMoney('50'))).toBeNull();
    expect(groupRequirementFor(thresholds, parseMoney('500'))).toEqual([[{ group: 'finance', count: 1 }]]);
    expect(groupRequirementFor(thresholds, parseMoney('2000'))).toEqual([
      [{ group: 'finance', count: 2 }],
      [
        { group: 'cfo', count: 1 },
        { group: 'finance', count: 1 },
      ],
    ]);
  });

  it('never meets a requirement a signed policy carries but that cannot be read', () => {
    const unreadable = parseGroupRequirement([[{ group: 'Finance!', count: 1 }]]);
    expect(unreadable).toEqual([]);
    expect(parseGroupRequirement(undefined)).toBeUndefined();
    expect(judgeGroups(unreadable ?? [], INITIATOR, [approver('bob', ['finance'])], 1).met).toBe(false);
  });

  it('refuses a malformed requirement or validity when an admin sets the policy', () => {
    const problems = approvalPolicyProblems({
      thresholds: [{ above: '10', groups: [[{ group: 'finance', count: 1 }, { group: 'finance', count: 2 }], []] }],
      approvalValidHours: 721,
    });
    expect(problems.join('\n')).toMatch(/an alternative names a group once/);
    expect(problems.join('\n')).toMatch(/each alternative names 1 to 4 groups/);
    expect(problems.join('\n')).toMatch(/from 1 to 720/);
    expect(approvalPolicyProblems({ thresholds: [{ above: '10', groups: financeAndLeads }], approvalValidHours: 24 })).toEqual([]);
  });
});

describe('approval expiry', () => {
  const HOUR = 3_600_000;
  it('counts an approval for the policy hours, then no longer, and never when the policy sets none', () => {
    expect(approvalExpiry(0, 24 * HOUR, 24)).toBeNull();
    expect(approvalExpiry(0, 24 * HOUR + 1, 24)).toMatch(/^expired: signed 24 h ago, and the policy counts an approval for 24 h; approve it again$/);
    expect(approvalExpiry(0, 1000 * HOUR, null)).toBeNull();
  });

  it('takes the stricter validity, and reads an unreadable signed one as the shortest', () => {
    expect(strictestValidity(48, 24)).toBe(24);
    expect(strictestValidity(undefined, 12)).toBe(12);
    expect(strictestValidity(undefined, undefined)).toBeNull();
    expect(parseApprovalValidHours('forever')).toBe(1);
    expect(parseApprovalValidHours(undefined)).toBeUndefined();
  });
});

describe('a group in the signed roster', () => {
  it('is changed by one admin and in force once a second, independent admin confirms; membership is as of a row', () => {
    const [alice, frank, bob, erin] = [person('alice'), person('frank'), person('bob'), person('erin')];
    const chain = new Chain();
    chain.found(alice, frank);
    chain.enrol(alice, bob, 'approver', frank);
    chain.enrol(alice, erin, 'approver', frank);
    const proposal = chain.add(alice, 'group', 'finance', { members: ['bob', 'Erin'] });
    expect(chain.roster().groups()).toEqual([]);
    // The proposer cannot confirm their own change.
    chain.confirm(alice, proposal.hash);
    expect(chain.roster().groups()).toEqual([]);
    const confirmed = chain.confirm(frank, proposal.hash);
    const roster = chain.roster();
    expect(roster.groups()).toEqual([{ name: 'finance', members: ['bob', 'erin'] }]);
    expect(roster.groupsOf('ERIN')).toEqual(['finance']);
    expect(roster.groupsOf('erin', confirmed.seq)).toEqual([]);
    expect(roster.groupsOf('erin', confirmed.seq + 1)).toEqual(['finance']);
  });

  it('refuses a member who is not an active operator, a bad name, and a change that changes nothing', () => {
    const [alice, bob] = [person('alice'), person('bob')];
    const chain = new Chain();
    chain.found(alice);
    chain.enrol(alice, bob, 'approver');
    const ghost = chain.add(alice, 'group', 'finance', { members: ['bob', 'mallory'] });
    const badName = chain.add(alice, 'group', 'Finance Team', { members: ['bob'] });
    chain.add(alice, 'group', 'finance', { members: ['bob'] });
    const same = chain.add(alice, 'group', 'finance', { members: ['BOB'] });
    const byApprover = chain.add(bob, 'group', 'leads', { members: ['bob'] });
    const roster = chain.roster();
    const reason = (seq: number): string | undefined => roster.problems.find((problem) => problem.seq === seq)?.reason;
    expect(reason(ghost.seq)).toMatch(/mallory is not an active operator/);
    expect(reason(badName.seq)).toMatch(/is not a group name/);
    expect(reason(same.seq)).toMatch(/already has exactly these members/);
    expect(reason(byApprover.seq)).toMatch(/proposal refused: bob is an? approver/);
    // One admin alone: in force at once (as every roster change on a one-admin desk).
    expect(roster.groups()).toEqual([{ name: 'finance', members: ['bob'] }]);
  });
});

describe("the approver's words for groups and expiry (the same on every face)", () => {
  const given = (expired: boolean) => [{ operator: 'bob', at: 0, counts: !expired, note: expired ? 'expired: signed 30 h ago' : null, expired }];
  it('names the groups still needed, and who must approve again', () => {
    expect(stillNeededText({ required: 2, counted: 2, stillNeeded: 0, given: given(false), groupsStillNeeded: ['1 of treasury-leads'] })).toBe(
      'the groups: 1 of treasury-leads (2 of 2 independent approvals given, each approver standing for one group)',
    );
    expect(stillNeededText({ required: 1, counted: 0, stillNeeded: 1, given: given(true), groupsStillNeeded: [] })).toBe(
      '1 more, from operators independent of the initiator and of each other (0 of 1 given); expired, to be given again: bob',
    );
    expect(stillNeededText({ required: 1, counted: 1, stillNeeded: 0, given: given(false) })).toBe('none: 1 of 1 independent approval given');
  });

  it("states the tier's groups and the approvals' validity in the rule", () => {
    const rule = { policy: 'abcdef0123456789', tierAbove: '10', tierApprovals: 2, intentApprovals: 2, dailyLimit: null, onlyFromBook: false, newDestinationWaitHours: 0 };
    expect(ruleText({ amount: '1250.5', currencyName: 'USDT on TRON', rule: { ...rule, groups: '(1 of finance and 1 of treasury-leads) or 1 of cfo', approvalValidHours: 24 } }, 'en-US')).toBe(
      'the USDT on TRON policy abcdef012345: 1,250.5 is above 10: that tier needs 2 approvals; approval groups: (1 of finance and 1 of treasury-leads) or 1 of cfo; an approval counts for 24 h, then must be given again',
    );
  });
});
