// RSA key handling (PROTOCOL §1): accepts every permitted text form, refuses the rest clearly, parses once into
// KeyObjects and computes SHA-256 fingerprints. Error messages never contain key material.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { KeyFormatError } from './errors';
import { RSA_DEFAULT_MODULUS_BITS, RSA_MAX_MODULUS_BITS, RSA_MIN_MODULUS_BITS } from './profile';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/;
const BASE64_TEXT = /^[A-Za-z0-9+/=\s]+$/;

type PublicDerType = 'spki' | 'pkcs1';
type PrivateDerType = 'pkcs8' | 'pkcs1';

function describeLength(bits: number): string {
  return `${bits}-bit`;
}

function checkRsa(key: KeyObject, label: string): KeyObject {
  if (key.asymmetricKeyType !== 'rsa') {
    throw new KeyFormatError('notRsa', label, `is a ${key.asymmetricKeyType ?? 'non-RSA'} key; the service uses RSA keys.`);
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < RSA_MIN_MODULUS_BITS) {
    throw new KeyFormatError(
      'tooSmall',
      label,
      `is a ${describeLength(bits)} RSA key; at least ${RSA_MIN_MODULUS_BITS} bits are required. Generate a new ${RSA_DEFAULT_MODULUS_BITS}-bit key pair.`,
    );
  }
  if (bits > RSA_MAX_MODULUS_BITS) {
    throw new KeyFormatError('tooLarge', label, `is a ${describeLength(bits)} RSA key; at most ${RSA_MAX_MODULUS_BITS} bits are accepted.`);
  }
  return key;
}

function bareDer(text: string, label: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (compact.length === 0 || !BASE64_TEXT.test(text)) {
    throw new KeyFormatError('unreadable', label, 'is neither PEM nor base64 DER text.');
  }
  return Buffer.from(compact, 'base64');
}

function firstThatParses<T>(attempts: ReadonlyArray<() => T>, label: string, what: string): T {
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {
      // try the next accepted form
    }
  }
  throw new KeyFormatError('unreadable', label, `could not be read as ${what}.`);
}

/** Parses platform or merchant public key text (§1.2): PEM PUBLIC KEY / RSA PUBLIC KEY, or base64 DER (SPKI, PKCS#1). */
export function parsePublicKey(text: string, label = 'public key'): KeyObject {
  const trimmed = text.trim();
  const pem = PEM_BLOCK.exec(trimmed);
  if (pem) {
    const type = pem[1];
    if (type === 'PRIVATE KEY' || type === 'RSA PRIVATE KEY' || type === 'ENCRYPTED PRIVATE KEY') {
      throw new KeyFormatError('wrongKind', label, 'holds a private key where a public key is expected.');
    }
    if (type !== 'PUBLIC KEY' && type !== 'RSA PUBLIC KEY') {
      throw new KeyFormatError('unreadable', label, `is a PEM "${type}" block; expected PUBLIC KEY or RSA PUBLIC KEY.`);
    }
    const key = firstThatParses([() => createPublicKey(pem[0])], label, 'a PEM public key');
    return checkRsa(key, label);
  }
  const der = bareDer(trimmed, label);
  const types: PublicDerType[] = ['spki', 'pkcs1'];
  const key = firstThatParses(
    types.map((type) => () => createPublicKey({ key: der, format: 'der', type })),
    label,
    'an SPKI or PKCS#1 public key',
  );
  return checkRsa(key, label);
}

/** Parses merchant or platform private key text (§1.2): PEM PRIVATE KEY / RSA PRIVATE KEY, or base64 DER (PKCS#8, PKCS#1). */
export function parsePrivateKey(text: string, label = 'private key'): KeyObject {
  const trimmed = text.trim();
  const pem = PEM_BLOCK.exec(trimmed);
  if (pem) {
    const type = pem[1];
    const body = pem[2] ?? '';
    if (type === 'ENCRYPTED PRIVATE KEY' || /Proc-Type:\s*4,ENCRYPTED/.test(body)) {
      throw new KeyFormatError('encrypted', label, 'is passphrase-encrypted; export it without a passphrase (the keychain protects it).');
    }
    if (type === 'PUBLIC KEY' || type === 'RSA PUBLIC KEY') {
      throw new KeyFormatError('wrongKind', label, 'holds a public key where a private key is expected.');
    }
    if (type !== 'PRIVATE KEY' && type !== 'RSA PRIVATE KEY') {
      throw new KeyFormatError('unreadable', label, `is a PEM "${type}" block; expected PRIVATE KEY or RSA PRIVATE KEY.`);
    }
    const key = firstThatParses([() => createPrivateKey({ key: pem[0], format: 'pem' })], label, 'a PEM private key');
    return checkRsa(key, label);
  }
  const der = bareDer(trimmed, label);
  const types: PrivateDerType[] = ['pkcs8', 'pkcs1'];
  const key = firstThatParses(
    types.map((type) => () => createPrivateKey({ key: der, format: 'der', type })),
    label,
    'a PKCS#8 or PKCS#1 private key',
  );
  return checkRsa(key, label);
}

/** Modulus length in bytes (`k` of §2.2). */
export function modulusBytes(key: KeyObject): number {
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (!bits) throw new KeyFormatError('notRsa', 'key', 'has no RSA modulus.');
  return Math.ceil(bits / 8);
}

/** SHA-256 fingerprint of a public key's SPKI DER, as lowercase hex pairs joined by ':' (shown instead of keys). */
export function publicKeyFingerprint(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const digest = createHash('sha256').update(publicKey.export({ format: 'der', type: 'spki' })).digest('hex');
  return digest.match(/../g)!.join(':');
}

export interface GeneratedKeyPair {
  /** PEM `PUBLIC KEY` (SPKI), to register with the other side. */
  readonly publicKeyPem: string;
  /** PEM `PRIVATE KEY` (PKCS#8), unencrypted: store only in the keychain. */
  readonly privateKeyPem: string;
}

/** Generates an RSA key pair in the profile's default size (§1.1). */
export function generateRsaKeyPair(bits = RSA_DEFAULT_MODULUS_BITS): GeneratedKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

/** Exports a KeyObject's public half as SPKI PEM. */
export function publicKeyPem(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return publicKey.export({ format: 'pem', type: 'spki' }).toString();
}
