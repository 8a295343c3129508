// The batch intent: everything the approvers of a batch payout sign as a whole (docs/payouts.md). It holds every
// line as a full withdrawal intent (userOrder included), the totals per currency with fees, the approvals required
// (the largest line under its currency's policy decides), the policy statement in force per currency and the request
// time. Its hash is the subject of every decision about the batch and of each line's submission; its fingerprint is in
// the same 4x4 base32 format as a withdrawal intent's. Invariant: a line is found in the batch only by its exact
// signed intent, so a line row edited after signing matches nothing.
import { createHash } from 'node:crypto';
import { encodeCanonical } from './canonical';
import { intentHash, type WithdrawalIntent } from './intent';
import { readableFingerprint } from './keys';
import { canonicalHash } from './statement';

export const BATCH_INTENT_KIND = 'payoutBatch';

/** One currency's sums over the batch's lines: what recipients receive, the fees, and what leaves the balance. */
export interface BatchCurrencyTotal {
  readonly lines: number;
  readonly amount: string;
  readonly fee: string;
  readonly total: string;
}

export interface BatchIntent {
  readonly v: number;
  /** Tells a batch request statement from a single withdrawal's. */
  readonly kind: typeof BATCH_INTENT_KIND;
  readonly merchantId: string;
  /** Line n of the batch is `lines[n - 1]`; each carries the batch's requiredApprovals and its currency's policy. */
  readonly lines: readonly WithdrawalIntent[];
  readonly totals: { readonly [currency: string]: BatchCurrencyTotal };
  readonly requiredApprovals: number;
  /** Hash of the policy statement in force per currency at request time (or DEFAULT_POLICY_REFERENCE). */
  readonly policies: { readonly [currency: string]: string };
  readonly requestedAt: number;
}

/** What a batch's request statement says besides the intent: the flags its approvers are shown. */
export interface BatchFlag {
  readonly line: number;
  readonly kind: 'newDestination' | 'lookAlike';
  readonly detail: string;
}

export function encodeBatchIntent(batch: BatchIntent): string {
  return encodeCanonical(batch);
}

/** The batch's id: SHA-256 (hex) of its canonical encoding. */
export function batchIntentHash(batch: BatchIntent): string {
  return canonicalHash(batch);
}

/** `ABCD-EFGH-IJKL-MNOP`, like a withdrawal intent's fingerprint. */
export function batchFingerprint(batch: BatchIntent): string {
  return readableFingerprint(encodeBatchIntent(batch));
}

/** True when a request statement's body carries a batch intent (rather than a single withdrawal's). */
export function isBatchIntent(value: unknown): value is BatchIntent {
  if (value === null || typeof value !== 'object') return false;
  const batch = value as Partial<BatchIntent>;
  return batch.kind === BATCH_INTENT_KIND && Array.isArray(batch.lines);
}

/** The batch's line whose signed intent has this hash, with its line number; null when the batch holds none. */
export function batchLineByHash(batch: BatchIntent, lineIntentHash: string): { line: number; intent: WithdrawalIntent } | null {
  for (let index = 0; index < batch.lines.length; index += 1) {
    const intent = batch.lines[index] as WithdrawalIntent;
    if (intentHash(intent) === lineIntentHash) return { line: index + 1, intent };
  }
  return null;
}

/** The batch's line that sends this userOrder (userOrders are unique within a batch), or null. */
export function batchLineByUserOrder(batch: BatchIntent, userOrder: string): { line: number; intent: WithdrawalIntent } | null {
  const index = batch.lines.findIndex((intent) => intent.userOrder === userOrder);
  return index < 0 ? null : { line: index + 1, intent: batch.lines[index] as WithdrawalIntent };
}

/**
 * The userOrder of a line whose file gave none: `pb-` + UTC date + 48 bits of SHA-256 over the merchant, the date and
 * the lines as imported, + `-` + the line number. The same file imported twice on one day derives the same userOrders
 * (and is refused as already imported); a resumed submission reads them from the signed intent and never mints new ones.
 */
export function derivedUserOrder(contentSeed: string, requestedAt: number, line: number): string {
  const day = new Date(requestedAt).toISOString().slice(0, 10).replace(/-/g, '');
  const digest = createHash('sha256').update(`treasury-desk/payout-user-order/v1\n${contentSeed}`, 'utf8').digest('hex').slice(0, 12);
  return `pb-${day}-${digest}-${line}`;
}
