// Which batch payout a withdrawal request is a line of, as every face shows it (WithdrawalView.batch). The fingerprint
// is derived from the stored batch intent only when that intent hashes to the batch hash the line's decisions are signed
// under, so an edited batch row shows no fingerprint rather than a wrong one; hash → fingerprint is content-addressed,
// so it is remembered once computed (a page of a batch's lines hashes its intent once).
import type { BatchLineRef } from '../../contract';
import { type ReadableDB } from '../store/database';
import { getPayoutBatch, getPayoutBatchByHash, payoutLineOfRequest } from './payout-batches-table';
import { type WithdrawalRequest } from './withdrawals-table';
import { parseObjectColumn } from '../store/json';
import { batchFingerprint, batchIntentHash, isBatchIntent } from '../ledger';

/** Batch hash → its intent's fingerprint; bounded (a desk has few batches in view at a time). */
const fingerprints = new Map<string, string>();
const REMEMBERED = 256;

/** The fingerprint of the batch signed under `batchHash`, from the stored intent of batch `batchId`; null when it does not hash to it. */
function verifiedFingerprint(db: ReadableDB, batchId: number, batchHash: string): string | null {
  const known = fingerprints.get(batchHash);
  if (known !== undefined) return known;
  const stored = getPayoutBatch(db, batchId);
  if (stored === undefined) return null;
  let intent: unknown;
  try {
    intent = parseObjectColumn(stored.batchJson);
  } catch {
    return null;
  }
  if (!isBatchIntent(intent) || batchIntentHash(intent) !== batchHash) return null;
  const fingerprint = batchFingerprint(intent);
  if (fingerprints.size >= REMEMBERED) fingerprints.clear();
  fingerprints.set(batchHash, fingerprint);
  return fingerprint;
}

/**
 * The batch `request` is a line of, null only for a single withdrawal: a line stays a line when its rows were altered
 * (its line row gone: found by the batch hash it is signed under, without a line number; its batch row edited: no
 * fingerprint).
 */
export function batchLineRef(db: ReadableDB, request: WithdrawalRequest): BatchLineRef | null {
  if (request.batchHash === null) return null;
  const place = payoutLineOfRequest(db, request.id);
  if (place !== undefined && place.batchHash === request.batchHash) {
    return { id: String(place.batchId), fingerprint: verifiedFingerprint(db, place.batchId, request.batchHash), line: place.line };
  }
  const batch = getPayoutBatchByHash(db, request.profile, request.batchHash);
  return { id: batch === undefined ? null : String(batch.id), fingerprint: batch === undefined ? null : verifiedFingerprint(db, batch.id, request.batchHash), line: null };
}
