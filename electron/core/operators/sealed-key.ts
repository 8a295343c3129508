// An operator's Ed25519 private key sealed by their passphrase: scrypt (N = 2^17, r = 8, p = 1) derives a 256-bit
// key that encrypts the PKCS#8 key with AES-256-GCM, bound (as associated data) to the profile, the operator and the
// key id, so a sealed key copied onto another operator's row does not open. Checking a passphrase IS unsealing: the
// GCM tag says whether it was right. The parameters are stored with the seal and bounded when read, so a doctored
// row can neither make unsealing trivially cheap nor make it hang. Invariant: no plain key is ever written anywhere.
import { createCipheriv, createDecipheriv, randomBytes, scrypt, type KeyObject, type ScryptOptions } from 'node:crypto';
import { registerSecret } from '../log/redact';
import { exportPrivateKey, importPrivateKey, publicKeyOfPrivate } from '../ledger';
import { processSealN, SEAL_KDF, SEAL_KDF_BOUNDS } from './seal-cost';

export { SEAL_KDF, SEAL_KDF_BOUNDS } from './seal-cost';

export const SEAL_VERSION = 1;

export interface SealedKey {
  readonly v: number;
  readonly kdf: { readonly name: 'scrypt'; readonly N: number; readonly r: number; readonly p: number; readonly salt: string };
  readonly nonce: string;
  readonly ciphertext: string;
  readonly tag: string;
}

export interface SealBinding {
  readonly profile: string;
  readonly operator: string;
  readonly keyId: string;
}

export class SealError extends Error {
  override readonly name = 'SealError';
  constructor(
    readonly reason: 'wrongPassphrase' | 'malformed',
    message: string,
  ) {
    super(message);
  }
}

function associatedData(binding: SealBinding): Buffer {
  return Buffer.from(JSON.stringify(['treasury-desk/operator-key/v1', binding.profile, binding.operator.toLowerCase(), binding.keyId]), 'utf8');
}

function deriveKey(passphrase: string, salt: Buffer, kdf: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.N * kdf.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(passphrase.normalize('NFKC'), salt, 32, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function sealPrivateKey(privateKey: KeyObject, passphrase: string, binding: SealBinding): Promise<SealedKey> {
  registerSecret(passphrase, 'passphrase');
  registerSecret(privateKey, 'operatorKey');
  const salt = randomBytes(16);
  const kdf = { N: processSealN(), r: SEAL_KDF.r, p: SEAL_KDF.p };
  const key = await deriveKey(passphrase, salt, kdf);
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(associatedData(binding));
  const plain = exportPrivateKey(privateKey);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  plain.fill(0);
  key.fill(0);
  return {
    v: SEAL_VERSION,
    kdf: { name: 'scrypt', ...kdf, salt: salt.toString('base64') },
    nonce: nonce.toString('base64'),
    ciphertext: ciphertext.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  };
}

/** Reads a stored seal, refusing anything outside the bounds. */
export function parseSealedKey(text: string): SealedKey {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SealError('malformed', 'the sealed key is not readable');
  }
  const seal = value as Partial<SealedKey> | null;
  const kdf = seal?.kdf;
  const ok =
    seal !== null &&
    typeof seal === 'object' &&
    seal.v === SEAL_VERSION &&
    kdf !== undefined &&
    kdf.name === 'scrypt' &&
    Number.isSafeInteger(kdf.N) &&
    kdf.N >= processSealN() &&
    kdf.N <= SEAL_KDF_BOUNDS.maxN &&
    (kdf.N & (kdf.N - 1)) === 0 &&
    kdf.r === SEAL_KDF_BOUNDS.r &&
    Number.isSafeInteger(kdf.p) &&
    kdf.p >= 1 &&
    kdf.p <= SEAL_KDF_BOUNDS.maxP &&
    typeof kdf.salt === 'string' &&
    Buffer.from(kdf.salt, 'base64').length >= 16 &&
    typeof seal.nonce === 'string' &&
    Buffer.from(seal.nonce, 'base64').length === 12 &&
    typeof seal.ciphertext === 'string' &&
    typeof seal.tag === 'string' &&
    Buffer.from(seal.tag, 'base64').length === 16;
  if (!ok) throw new SealError('malformed', 'the sealed key has unknown or out-of-bounds parameters');
  return seal as SealedKey;
}

/**
 * Opens a seal with a passphrase; SealError('wrongPassphrase') when the passphrase (or the binding) is not the one it
 * was sealed with. The returned key's public half must still be compared with the roster by the caller.
 */
export async function unsealPrivateKey(seal: SealedKey, passphrase: string, binding: SealBinding): Promise<KeyObject> {
  registerSecret(passphrase, 'passphrase');
  const key = await deriveKey(passphrase, Buffer.from(seal.kdf.salt, 'base64'), seal.kdf);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(seal.nonce, 'base64'));
  decipher.setAAD(associatedData(binding));
  decipher.setAuthTag(Buffer.from(seal.tag, 'base64'));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(Buffer.from(seal.ciphertext, 'base64')), decipher.final()]);
  } catch {
    throw new SealError('wrongPassphrase', 'the passphrase does not open this key');
  } finally {
    key.fill(0);
  }
  try {
    const privateKey = importPrivateKey(plain);
    registerSecret(privateKey, 'operatorKey');
    return privateKey;
  } catch {
    throw new SealError('malformed', 'the sealed key is not an Ed25519 key');
  } finally {
    plain.fill(0);
  }
}

export { publicKeyOfPrivate };
