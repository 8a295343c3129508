// The withdrawal intent: everything a withdrawal's approvers sign, exactly what createWithdrawOrder will send plus
// the approval bar it carries (APPROVALS.md "Withdrawal intent"). Its hash is the subject of every decision about it;
// its fingerprint (first 80 bits of SHA-256 over the canonical intent, 4 groups of 4 base32 characters) is shown
// wherever a decision is asked and travels in the order's remark (PROTOCOL §8) so a finance confirmer sees it too.
import { MEMO_MAX_LENGTH as CONTRACT_MEMO_MAX_LENGTH } from '../../contract/limits';
import { REMARK_MAX_LENGTH } from '../../protocol/profile';
import { encodeCanonical } from './canonical';
import { readableFingerprint } from './keys';
import { canonicalHash } from './statement';

export const INTENT_VERSION = 1;

/** The policy a request falls under when the currency never had a signed policy: one approval for any amount. */
export const DEFAULT_POLICY_REFERENCE = 'default';

export interface WithdrawalIntent {
  readonly v: number;
  readonly merchantId: string;
  readonly currency: string;
  /** The decimal string sent as `amount`. */
  readonly amount: string;
  readonly toAddress: string;
  readonly withdrawType: 'normal' | 'financialConfirmation';
  readonly userOrder: string;
  /** The operator's memo (NFC), or null. */
  readonly memo: string | null;
  readonly requiredApprovals: number;
  /** Hash of the policy statement in force at request time, or DEFAULT_POLICY_REFERENCE. */
  readonly policy: string;
  /** Epoch milliseconds. */
  readonly requestedAt: number;
}

/** The longest memo that still fits in the remark next to the fingerprint (the contract enforces it at input). */
export const MEMO_MAX_LENGTH: number = CONTRACT_MEMO_MAX_LENGTH;
if (MEMO_MAX_LENGTH + 'TD '.length + 19 + 1 > REMARK_MAX_LENGTH) throw new Error('the memo limit does not fit PROTOCOL §8');

export function encodeIntent(intent: WithdrawalIntent): string {
  return encodeCanonical(intent);
}

/** The intent's id: SHA-256 (hex) of its canonical encoding. */
export function intentHash(intent: WithdrawalIntent): string {
  return canonicalHash(intent);
}

/** `ABCD-EFGH-IJKL-MNOP`: what approvers read aloud and compare. */
export function intentFingerprint(intent: WithdrawalIntent): string {
  return readableFingerprint(encodeIntent(intent));
}

/** The order's remark: the fingerprint, then the memo (PROTOCOL §8: at most 255 characters). */
export function remarkFor(intent: WithdrawalIntent): string {
  const head = `TD ${intentFingerprint(intent)}`;
  return intent.memo === null || intent.memo === '' ? head : `${head} ${intent.memo}`;
}
