// Who may withdraw an open proposal (APPROVALS.md, docs/approvals.md "Withdrawing a proposal"): only the operator who
// proposed it, and never the operator a proposal to disable or to change the role of is about, so nobody can take
// back what another admin proposed, and an admin about to be disabled or demoted cannot make it go away. One rule,
// used by the roster's replay (the authority) and by the engine before it signs (a clear refusal, nothing signed). It
// imports nothing: the roster imports it.
/** The part of a roster proposal (roster.ts) the rule reads. */
export interface WithdrawnProposal {
  readonly kind: string;
  readonly subject: string;
  readonly proposer: string;
}

/** Why `signer` may not withdraw `proposal`, or null when they may. Names compare ignoring case. */
export function proposalWithdrawalProblem(proposal: WithdrawnProposal, signer: string): string | null {
  const who = signer.toLowerCase();
  if ((proposal.kind === 'disable' || proposal.kind === 'role') && proposal.subject.toLowerCase() === who) {
    const what = proposal.kind === 'disable' ? 'disable' : 'change the role of';
    return `${signer} may not withdraw a proposal to ${what} ${proposal.subject}: it is about them (the other admins decide it)`;
  }
  if (proposal.proposer.toLowerCase() !== who) return `only ${proposal.proposer}, who proposed it, may withdraw it`;
  return null;
}
