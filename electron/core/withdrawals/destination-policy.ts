// The address-book options of a withdrawal policy (issue 13), judged at preflight so every way of requesting (one
// withdrawal, a batch) meets them: "only addresses from the book" reads the book from signed statements (the roster),
// never from the address_book table; "a new destination waits N hours" counts from the signed addition to the book
// only: a destination not in the signed book has not started its wait (a row's "first seen" date is anyone's to edit).
import type { Chain } from '../../chains';
import { type PreflightIssue, utcMinuteText } from '../../contract';
import type { Roster } from '../ledger';
import type { WithdrawalPolicy } from './policy';

const HOUR_MS = 3_600_000;


export interface DestinationFacts {
  readonly chain: Chain;
  readonly address: string;
  /** What the policy is called in messages: "the USDT (TRC-20) policy". */
  readonly policyName: string;
  readonly now: number;
}

/** When a destination may first be paid under the wait (Infinity: not in the signed book), or null when no wait applies. */
export function destinationAllowedAt(policy: WithdrawalPolicy, roster: Roster, facts: DestinationFacts): number | null {
  const hours = policy.newDestinationWaitHours ?? 0;
  if (hours <= 0) return null;
  const since = roster.bookEntry(facts.chain, facts.address, facts.now)?.since;
  return since === undefined ? Number.POSITIVE_INFINITY : since + hours * HOUR_MS;
}

/** The refusals the policy's address-book options give this destination ([] when it may be paid now). */
export function destinationPolicyIssues(policy: WithdrawalPolicy, roster: Roster, facts: DestinationFacts): PreflightIssue[] {
  const issues: PreflightIssue[] = [];
  const subject = `${facts.chain}:${facts.address}`;
  if (policy.onlyFromBook === true && roster.bookEntry(facts.chain, facts.address, facts.now) === undefined) {
    const pending = roster.openProposals().some((proposal) => proposal.kind === 'book' && proposal.subject.toLowerCase() === subject.toLowerCase());
    issues.push({
      field: 'toAddress',
      message: pending
        ? `${facts.policyName} allows only addresses from the address book ("only from book"): this address's addition waits for another operator's approval (addressbook approve)`
        : `${facts.policyName} allows only addresses from the address book ("only from book"): add it (addressbook add) and have another, independent operator approve the addition`,
    });
  }
  const allowedAt = destinationAllowedAt(policy, roster, facts);
  if (allowedAt !== null && facts.now < allowedAt) {
    const hours = policy.newDestinationWaitHours ?? 0;
    issues.push({
      field: 'toAddress',
      message: Number.isFinite(allowedAt)
        ? `${facts.policyName} makes a new destination wait ${hours} h ("new destination waits"): this one may be paid from ${utcMinuteText(allowedAt)}`
        : `${facts.policyName} makes a new destination wait ${hours} h ("new destination waits"): this address is not in the address book, so its wait has not started; add it (addressbook add) and have another operator approve the addition: the wait counts from then`,
    });
  }
  return issues;
}
