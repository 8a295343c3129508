// The shared store's submission-claim rows as both backends read them, and their mapping to the interface's type: one
// mapping for both, so the backends cannot drift apart (chain rows use the local store's audit mapping, store/audit.ts).
import type { SubmissionClaim } from './shared-store';

export interface ClaimDbRow {
  user_order: string;
  workstation: string;
  /** Epoch ms (each backend's query names its lease column so). */
  lease_until_ms: number;
  state: SubmissionClaim['state'];
  result: string | null;
}

export function toClaim(row: ClaimDbRow): SubmissionClaim {
  return { userOrder: row.user_order, workstation: row.workstation, leaseUntil: row.lease_until_ms, state: row.state, result: row.result };
}
