// Roster and policy proposals on the command line: the short id the CLI shows, resolving a typed id or unique prefix
// against the open proposals (bad or ambiguous text is exit 2, no match exit 1), and what a proposal waits for.
import type { ProposalView } from '../contract';
import { NegativeAnswer, UsageError } from './errors';

/** How many hex characters of a proposal id the CLI shows; any unique prefix of at least 8 is accepted back. */
export const PROPOSAL_PREFIX_SHOWN = 12;
export const PROPOSAL_PREFIX_MIN = 8;

export function shortProposal(id: string): string {
  return id.slice(0, PROPOSAL_PREFIX_SHOWN);
}

/**
 * A proposal id typed on the command line: the whole 64 hex characters, or a prefix of at least 8 that names exactly
 * one open proposal. Bad text or an ambiguous prefix is bad input (exit 2); no match is a refusal (exit 1).
 */
export function resolveProposalId(typed: string, open: readonly { readonly id: string }[]): string {
  const text = typed.trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(text) || text.length < PROPOSAL_PREFIX_MIN || text.length > 64) {
    throw new UsageError(`PROPOSAL_ID must be a proposal id (64 hexadecimal characters) or a unique prefix of at least ${PROPOSAL_PREFIX_MIN}, as "treasury-desk operator list" shows it.`);
  }
  const matches = open.filter((proposal) => proposal.id.startsWith(text));
  if (matches.length > 1) throw new UsageError(`${text} is the start of ${matches.length} open proposals: type more of the id.`);
  const [match] = matches;
  if (match) return match.id;
  if (text.length === 64) return text; // the engine says what became of it (applied, withdrawn, unknown)
  throw new NegativeAnswer(`no open proposal starts with ${text}: see "treasury-desk operator list".`);
}

/** What an open proposal waits for, in words. */
export function waitingFor(proposal: ProposalView): string {
  const independent = `an admin independent of ${proposal.proposer} to confirm`;
  if (proposal.kind === 'enrol' || proposal.kind === 'rekey') {
    if (proposal.acceptedKey === null) return proposal.needsConfirmation ? `${proposal.subject} to accept, then ${independent}` : `${proposal.subject} to accept`;
    return `${independent} key ${proposal.acceptedKey}`;
  }
  return independent;
}
