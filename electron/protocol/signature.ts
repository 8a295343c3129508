// Signatures of PROTOCOL §3: RSASSA-PKCS1-v1_5 with SHA-256 over "TIMESTAMP\nNONCE\nBODY", standard base64.
import { createSign, createVerify, type KeyObject } from 'node:crypto';
import { SIGNATURE_ALGORITHM, SIGNING_SEPARATOR } from './profile';

/** The canonical signing input (§3.2 for requests with BODY, §3.3 for responses and callbacks with DATA). */
export function signingInput(timestamp: string, nonce: string, bodyOrData: string): string {
  return timestamp + SIGNING_SEPARATOR + nonce + SIGNING_SEPARATOR + bodyOrData;
}

export function signText(input: string, privateKey: KeyObject): string {
  return createSign(SIGNATURE_ALGORITHM).update(input, 'utf8').sign(privateKey).toString('base64');
}

/** True only for a canonical base64 signature that verifies; malformed input is simply invalid. */
export function verifyText(input: string, signatureBase64: string, publicKey: KeyObject): boolean {
  const signature = Buffer.from(signatureBase64, 'base64');
  if (signatureBase64.length === 0 || signature.toString('base64') !== signatureBase64) return false;
  try {
    return createVerify(SIGNATURE_ALGORITHM).update(input, 'utf8').verify(publicKey, signature);
  } catch {
    return false;
  }
}
