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

