// Ed25519 keys of operators and of the desk (node:crypto): generation, the public key as base64 of its 32 raw
// bytes, and the readable fingerprint format shared by keys, intents and audit heads: the first 80 bits of a SHA-256
// in RFC 4648 base32, as 4 groups of 4 characters (`K7QD-3MZA-XW2P-9FHL` style), easy to read aloud and compare.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/** SPKI DER prefix of an Ed25519 public key (RFC 8410): the 32 raw key bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

// The one fingerprint format lives with the protocol's keys (the merchant's RSA keys are shown in it too).
import { isReadableFingerprint, readableFingerprint } from '../../protocol/keys';
export { isReadableFingerprint, readableFingerprint };

export interface SigningKeyPair {
  readonly privateKey: KeyObject;
  readonly publicKey: string;
  readonly keyId: string;
}

/** The 32 raw public key bytes, base64. */
export function publicKeyText(publicKey: KeyObject): string {
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return der.subarray(ED25519_SPKI_PREFIX.length).toString('base64');
}

/** A key's id: the readable fingerprint of its 32 raw public key bytes. */
export function keyIdOf(publicKeyBase64: string): string {
  return readableFingerprint(Buffer.from(publicKeyBase64, 'base64'));
}

export function generateSigningKey(): SigningKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const text = publicKeyText(publicKey);
  return { privateKey, publicKey: text, keyId: keyIdOf(text) };
}

/** A public KeyObject from base64 raw bytes; null when the text is not a 32-byte key. */
export function importPublicKey(publicKeyBase64: string): KeyObject | null {
  const raw = Buffer.from(publicKeyBase64, 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== publicKeyBase64) return null;
  try {
    return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

export function exportPrivateKey(privateKey: KeyObject): Buffer {
  return privateKey.export({ format: 'der', type: 'pkcs8' });
}

export function importPrivateKey(pkcs8: Buffer): KeyObject {
  const key = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 private key');
  return key;
}

/** The public half of a private key, as base64 raw bytes. */
export function publicKeyOfPrivate(privateKey: KeyObject): string {
  return publicKeyText(createPublicKey(privateKey));
}

export function signBytes(privateKey: KeyObject, message: string): string {
  return sign(null, Buffer.from(message, 'utf8'), privateKey).toString('base64');
}

export function verifyBytes(publicKey: KeyObject, message: string, signatureBase64: string): boolean {
  const signature = Buffer.from(signatureBase64, 'base64');
  if (signature.length !== 64) return false;
  try {
    return verify(null, Buffer.from(message, 'utf8'), publicKey, signature);
  } catch {
    return false;
  }
}
