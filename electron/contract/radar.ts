// The poisoning radar's answers (issue 21 item 3): senders of verified deposits that look like an address-book entry,
// the evidence, and where their clearance stands. Plain JSON: amounts are exact decimal strings.
import type { ProposalView } from './dto';

/** Where a flagged address stands: refused, a clearance waiting for a second admin, scheduled (loosening delay), or cleared. */
export type PoisoningStatus = 'blocked' | 'clearing' | 'clearScheduled' | 'cleared';

export interface PoisoningAlertView {
  /** The sender as its first deposit reported it, and the chain whose address rules it follows (eth stands for eth and bnb). */
  readonly sender: string;
  readonly chain: string;
  /** The book entry it looks like (`chain:address`), and how: "the same first 4 and last 4 characters". */
  readonly looksLike: string;
  readonly similarity: string;
  /** The evidence: its first verified deposit, and how many deposits it sent. */
  readonly firstDeposit: { readonly id: number; readonly txid: string; readonly currency: string; readonly amount: string; readonly at: number };
  readonly deposits: number;
  readonly status: PoisoningStatus;
  /** The clearance waiting for a second admin, or null. */
  readonly clearing: ProposalView | null;
  /** Who cleared it, and from when it counts (a clearance loosens: it may wait for the loosening delay). */
  readonly clearedBy: readonly string[];
  readonly clearedFrom: number | null;
}

export interface RadarView {
  readonly alerts: readonly PoisoningAlertView[];
  /** How many flagged addresses are refused now (not cleared): what the dashboard's banner counts. */
  readonly blocked: number;
}

/**
 * What the approver and the simulator are told of a destination the radar flagged (a look-alike of a book entry that sent
 * a verified deposit): the entry, how it looks alike, and who cleared it (null: not cleared, so it is refused).
 */
export interface PoisoningFlag {
  readonly looksLike: string;
  readonly similarity: string;
  readonly clearedBy: readonly string[] | null;
}

/** The flag in words, the same in the approve dialog, the queue's detail, `withdraw show` and `policy test`. */
export function poisoningFlagText(flag: PoisoningFlag): string {
  const standing =
    flag.clearedBy === null
      ? 'not cleared: paying it is refused until two admins clear it (treasury-desk radar clear)'
      : `cleared by ${flag.clearedBy.join(' and ')}`;
  return `flagged by the poisoning radar: looks like ${flag.looksLike} (${flag.similarity}), ${standing}`;
}
