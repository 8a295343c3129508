// The signed envelope a verified answer or callback came in (PROTOCOL §3.3: the platform signs TIMESTAMP\nNONCE\nDATA,
// DATA being the ciphertext), kept beside the value it was opened into, so a workstation can hand the service's own
// signature to others as the evidence of an order's outcome. Invariant: only openSignedEnvelope attaches evidence,
// and only after the signature verified; nothing here is secret (the data stays encrypted to the merchant's key).
import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { signingInput, verifyText } from './signature';

export const signedEvidenceSchema = z.object({ timestamp: z.string(), nonce: z.string(), data: z.string(), signature: z.string() });
export type SignedEvidence = z.infer<typeof signedEvidenceSchema>;

const attached = new WeakMap<object, SignedEvidence>();

/** Remembers the verified envelope a value was opened from (verify.ts, after the signature held). */
export function attachSignedEvidence(value: unknown, evidence: SignedEvidence): void {
  if (value !== null && typeof value === 'object') attached.set(value, evidence);
}

/** The verified envelope a record came in, when it came from the service through openSignedEnvelope. */
export function signedEvidenceOf(value: object): SignedEvidence | undefined {
  return attached.get(value);
}

/** Whether the platform's signature over the envelope holds (its time window and nonce are the receiver's matter, not checked here). */
export function signedEvidenceHolds(evidence: SignedEvidence, platformPublicKey: KeyObject): boolean {
  return verifyText(signingInput(evidence.timestamp, evidence.nonce, evidence.data), evidence.signature, platformPublicKey);
}
