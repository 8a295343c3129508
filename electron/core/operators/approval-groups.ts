// Approval groups of the signed roster (issue 20): list them, and propose a group's whole member list (four-eyes, as
// every roster change: a second, independent admin confirms with operators/confirm; at once on a one-admin desk).
// Invariant: members are enrolled, active operators (the roster refuses the row otherwise, inside the same transaction).
import type { ApprovalGroupChangeView, ApprovalGroupsView, ApprovalGroupView } from '../../contract';
import type { AuditRecorder } from '../audit';
import { DeskError } from '../kernel/errors';
import type { Kernel } from '../kernel/kernel';
import type { Roster } from '../ledger';
import type { ProfileSelection } from '../profiles';
import { actingAs, type OperatorCredentials } from './acting';
import { proposalView } from './enrolment';
import { signRosterStatement } from './roster-statement';

type DeskParts = Kernel & AuditRecorder & ProfileSelection;

/** The roster's groups with their members under their enrolled names. */
function groupsIn(roster: Roster): ApprovalGroupView[] {
  return roster.groups().map((group) => ({ name: group.name, members: group.members.map((member) => roster.operator(member)?.name ?? member) }));
}

/** The active profile's approval groups in force, and the group changes waiting for a second admin. */
export function approvalGroups(parts: DeskParts): ApprovalGroupsView {
  const roster = parts.trail.roster(parts.activeProfile().name, { cached: true });
  return { groups: groupsIn(roster), pending: roster.openProposals().filter((proposal) => proposal.kind === 'group').map(proposalView) };
}

/** An admin proposes `group`'s whole member list (empty: dissolve it); in force once an independent admin confirms. */
export async function proposeGroup(parts: DeskParts, group: string, members: readonly string[], as: OperatorCredentials): Promise<ApprovalGroupChangeView> {
  const acting = await actingAs(parts, as, 'managePolicies');
  if (acting.role !== 'admin') throw new DeskError('forbidden', `${acting.name} is not an admin: only admins change approval groups`);
  const unknown = members.filter((member) => acting.roster.at(member)?.status !== 'active');
  if (unknown.length > 0) {
    const message = `not active operators of this desk: ${unknown.join(', ')}; a group's members are enrolled operators (operator list)`;
    throw new DeskError('invalidInput', message, { members: message });
  }
  if (acting.roster.openProposals().some((proposal) => proposal.kind === 'group' && proposal.subject === group)) {
    throw new DeskError('conflict', `a change of group ${group} already waits for a second admin: confirm or withdraw it first (operator confirm / withdraw-proposal)`);
  }
  const named = members.map((member) => acting.roster.operator(member)?.name ?? member);
  const row = await signRosterStatement(parts, acting, { kind: 'group', subject: group, body: { members: named } });
  parts.emit({ type: 'operators/changed' });
  parts.emit({ type: 'withdrawals/changed', id: null });
  const roster = parts.trail.roster(acting.profile);
  const proposal = roster.proposal(row.hash);
  if (!proposal) throw new DeskError('internal', 'the group change was not recorded');
  return { applied: proposal.state === 'applied', proposal: proposalView(proposal), groups: groupsIn(roster) };
}
