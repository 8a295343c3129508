// Who may withdraw an open proposal (APPROVALS.md, docs/approvals.md "Withdrawing a proposal"): only the operator who
// proposed it, and never the operator a proposal to disable or to change the role of is about, so nobody can take
// back what another admin proposed, and an admin about to be disabled or demoted cannot make it go away. One rule,
// used by the roster's replay (the authority) and by the engine before it signs (a clear refusal, nothing signed).
import { disjoint, type Proposal, type Roster } from './roster';

/** Why `signer` may not withdraw `proposal`, or null when they may. Names compare ignoring case. */
export function proposalWithdrawalProblem(proposal: Pick<Proposal, 'kind' | 'subject' | 'proposer'>, signer: string): string | null {
  const who = signer.toLowerCase();
  if ((proposal.kind === 'disable' || proposal.kind === 'role') && proposal.subject.toLowerCase() === who) {
    const what = proposal.kind === 'disable' ? 'disable' : 'change the role of';
    return `${signer} may not withdraw a proposal to ${what} ${proposal.subject}: it is about them (the other admins decide it)`;
  }
  if (proposal.proposer.toLowerCase() !== who) return `only ${proposal.proposer}, who proposed it, may withdraw it`;
  return null;
}

/**
 * What the remaining admins do when an open proposal to disable or change the role of an admin can only be confirmed by
 * that admin (a desk of two independent admins): said plainly for the roster view, or null when no proposal is stuck so.
 */
export function stuckOnItsSubjectNotice(roster: Roster): string | null {
  const admins = roster.active().filter((entry) => entry.snapshot.role === 'admin');
  for (const proposal of roster.openProposals()) {
    if (!proposal.needsConfirmation || (proposal.kind !== 'disable' && proposal.kind !== 'role')) continue;
    const proposer = roster.at(proposal.proposer);
    if (!proposer) continue;
    const confirmers = admins.filter((entry) => entry.name.toLowerCase() !== proposal.proposer.toLowerCase() && disjoint(entry.snapshot.party, proposer.party));
    if (confirmers.length !== 1 || confirmers[0]!.name.toLowerCase() !== proposal.subject.toLowerCase()) continue;
    const what = proposal.kind === 'disable' ? `disable ${proposal.subject}` : `change the role of ${proposal.subject}`;
    return (
      `The proposal to ${what} waits for an admin independent of ${proposal.proposer}, and only ${proposal.subject}, whom it is about, is one: ` +
      `${proposal.subject} cannot withdraw it, and ${proposal.proposer} cannot carry it alone. With a third independent admin it would be confirmed without ${proposal.subject}; ` +
      `otherwise the roster can only be started over (remove the profile and found it again; its history stays): see docs/approvals.md, "When the admin in question is the only other one".`
    );
  }
  return null;
}
