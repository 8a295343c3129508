// The whole-chain check of `team verify` (issue 18, item 9): walks every row of the shared chain against this
// workstation's verified copy and its remembered head, and names the first row that was deleted, rewritten or lost to a
// restore. Invariant: every shared row at or below this workstation's verified head must be the very row it verified
// (same seq, same hash); rows above it are verified by the replicator's pull (ChainVerifier) before they are used.
import type { Kernel } from '../kernel/kernel';
import { auditHead, exportAudit, type AuditRow } from '../audit';
import { getTeamSettings } from './team-table';
import type { SharedDeskStore } from './shared-store';

const WALK_PAGE = 500;

export type SharedChainFault =
  /** A row of the verified range is absent from the shared chain (deleted below the head). */
  | 'deleted'
  /** A row of the verified range differs from the row this workstation verified. */
  | 'rewritten'
  /** The shared chain is a clean prefix of the verified one that ends before it: truncated, or restored from an older backup. */
  | 'rolledBack';

export interface SharedChainProblem {
  readonly seq: number;
  readonly fault: SharedChainFault;
  readonly reason: string;
}

/** What the operator does after a rollback (docs/team.md, "When IT restores the team database from a backup"). */
export const REANCHOR_HINT = 'if IT restored the team database from a backup, two admins re-anchor it with `treasury-desk team reanchor --as ADMIN` (docs/team.md)';

/**
 * The pinned-genesis check (ROOTS, electron/core/ledger/trust-roots.ts): the shared row at the pinned genesis seq must
 * carry the pinned hash. This is its one call site in the whole-chain walk; until the pinned genesis is stored, the
 * verified local copy (compared row by row below) is the root the walk checks against, so this finds nothing.
 */
export function pinnedGenesisProblem(_context: Kernel, _store: SharedDeskStore): Promise<SharedChainProblem | null> {
  return Promise.resolve(null);
}

/**
 * Walks the whole shared chain: each shared row up to this workstation's verified head against the local copy, then the
 * shared head against the remembered one. The first bad row, or null when the shared chain still holds everything this
 * workstation verified (rows beyond it are the pull's to verify).
 */
export async function walkSharedChainAgainstLocal(context: Kernel, store: SharedDeskStore): Promise<SharedChainProblem | null> {
  const db = context.db;
  const remembered = getTeamSettings(db);
  const localHead = auditHead(db)?.seq ?? 0;
  const verifiedSeq = Math.max(localHead, remembered?.verifiedSeq ?? 0);
  const genesis = await pinnedGenesisProblem(context, store);
  if (genesis) return genesis;
  let expected = 1;
  while (expected <= verifiedSeq) {
    const shared = await store.rowsAfter(expected - 1, WALK_PAGE);
    if (shared.length === 0) break;
    const local = new Map(exportAudit(db, { fromSeq: expected, toSeq: expected + WALK_PAGE - 1 }).map((row) => [row.seq, row]));
    for (const row of shared) {
      if (row.seq > verifiedSeq) break;
      if (row.seq !== expected) {
        return {
          seq: expected,
          fault: 'deleted',
          reason: `team database: audit row ${expected} is missing from the shared chain (it jumps from row ${expected - 1} to row ${row.seq}), below this workstation's verified row ${verifiedSeq}: rows were deleted`,
        };
      }
      const mine = local.get(row.seq);
      // The signed text and signature too: an editor may leave the hash column as it was.
      if (mine !== undefined && (mine.hash !== row.hash || mine.statement !== row.statement || mine.signature !== row.signature || mine.prevHash !== row.prevHash)) {
        return { seq: row.seq, fault: 'rewritten', reason: `team database: audit row ${row.seq} is not the row this workstation verified: the shared chain was rewritten at row ${row.seq}` };
      }
      expected += 1;
    }
    if (shared.length < WALK_PAGE || (shared[shared.length - 1] as AuditRow).seq >= verifiedSeq) break;
  }
  if (expected <= verifiedSeq) {
    const head = await store.head();
    const end = head?.seq ?? 0;
    if (end >= expected) {
      // Rows exist past the gap: the first missing one was deleted.
      return {
        seq: expected,
        fault: 'deleted',
        reason: `team database: audit row ${expected} is missing from the shared chain, below this workstation's verified row ${verifiedSeq}: rows were deleted`,
      };
    }
    return {
      seq: expected,
      fault: 'rolledBack',
      reason: `team database: the shared audit chain ends at row ${expected - 1}, but this workstation verified row ${verifiedSeq}: rows were removed (truncated, or the database was restored from an older backup); ${REANCHOR_HINT}`,
    };
  }
  return null;
}
