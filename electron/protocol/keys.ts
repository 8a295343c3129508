// RSA key handling (PROTOCOL §1): accepts every permitted text form, refuses the rest clearly, parses once into
// KeyObjects and computes SHA-256 fingerprints. Error messages never contain key material.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { base32 } from '@scure/base';
import { KeyFormatError } from './errors';
import { RSA_DEFAULT_MODULUS_BITS, RSA_MAX_MODULUS_BITS, RSA_MIN_MODULUS_BITS } from './profile';

const PEM_BLOCKS = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
const BASE64_TEXT = /^[A-Za-z0-9+/=\s]+$/;

type PublicDerType = 'spki' | 'pkcs1';
type PrivateDerType = 'pkcs8' | 'pkcs1';

/** PEM labels of private keys, so a private key offered as a public key is named as such (never accepted). */
const PRIVATE_PEM_TYPES = new Set([
  'PRIVATE KEY',
  'RSA PRIVATE KEY',
  'ENCRYPTED PRIVATE KEY',
  'EC PRIVATE KEY',
  'DSA PRIVATE KEY',
  'OPENSSH PRIVATE KEY',
]);
const PUBLIC_PEM_TYPES = new Set(['PUBLIC KEY', 'RSA PUBLIC KEY']);
/** Traditional (SEC1 / OpenSSL) PEM labels of keys that are not RSA. */
const NON_RSA_PRIVATE_PEM_TYPES = new Set(['EC PRIVATE KEY', 'DSA PRIVATE KEY']);

interface PemBlock {
  readonly type: string;
  readonly text: string;
  readonly body: string;
}

/**
 * The first PEM block of the text, skipping parameter blocks (`openssl ecparam -genkey` writes `EC PARAMETERS`
 * before `EC PRIVATE KEY`), or undefined when the text holds no PEM block at all.
 */
function firstPemBlock(text: string): PemBlock | undefined {
  let first: PemBlock | undefined;
  for (const match of text.matchAll(PEM_BLOCKS)) {
    const block = { type: match[1] ?? '', text: match[0], body: match[2] ?? '' };
    first ??= block;
    if (!block.type.endsWith('PARAMETERS')) return block;
  }
  return first;
}

function describeKeyType(type: string | undefined): string {
  if (type === 'ec') return 'an EC';
  if (type === 'ed25519' || type === 'ed448' || type === 'x25519' || type === 'x448') return `an ${type}`;
  if (type === 'rsa-pss') return 'an RSA-PSS (signature-only)';
  return type ? `a ${type.toUpperCase()}` : 'a non-RSA';
}

function describeLength(bits: number): string {
  return `${bits}-bit`;
}

function checkRsa(key: KeyObject, label: string): KeyObject {
  if (key.asymmetricKeyType !== 'rsa') {
    throw new KeyFormatError('notRsa', label, `is ${describeKeyType(key.asymmetricKeyType)} key; the service uses RSA keys.`);
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

function firstThatParses<T>(attempts: ReadonlyArray<() => T>): T | undefined {
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {
      // try the next accepted form
    }
  }
  return undefined;
}

function privateDer(der: Buffer): KeyObject | undefined {
  const types: PrivateDerType[] = ['pkcs8', 'pkcs1'];
  return firstThatParses(types.map((type) => () => createPrivateKey({ key: der, format: 'der', type })));
}

function publicDer(der: Buffer): KeyObject | undefined {
  const types: PublicDerType[] = ['spki', 'pkcs1'];
  return firstThatParses(types.map((type) => () => createPublicKey({ key: der, format: 'der', type })));
}

/** True for DER of a PKCS#8 EncryptedPrivateKeyInfo (Node asks for a passphrase instead of failing to parse). */
function isEncryptedPkcs8Der(der: Buffer): boolean {
  try {
    createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ERR_MISSING_PASSPHRASE';
  }
}

const WRONG_KIND_PRIVATE = 'holds a private key where a public key is expected.';
const WRONG_KIND_PUBLIC = 'holds a public key where a private key is expected.';
const ENCRYPTED = 'is passphrase-encrypted; export it without a passphrase (the keychain protects it).';

/** Parses platform or merchant public key text (§1.2): PEM PUBLIC KEY / RSA PUBLIC KEY, or base64 DER (SPKI, PKCS#1). */
export function parsePublicKey(text: string, label = 'public key'): KeyObject {
  const trimmed = text.trim();
  const pem = firstPemBlock(trimmed);
  if (pem) {
    if (PRIVATE_PEM_TYPES.has(pem.type)) throw new KeyFormatError('wrongKind', label, WRONG_KIND_PRIVATE);
    if (!PUBLIC_PEM_TYPES.has(pem.type)) {
      throw new KeyFormatError('unreadable', label, `is a PEM "${pem.type}" block; expected PUBLIC KEY or RSA PUBLIC KEY.`);
    }
    const key = firstThatParses([() => createPublicKey({ key: pem.text, format: 'pem' })]);
    if (!key) throw new KeyFormatError('unreadable', label, 'could not be read as a PEM public key.');
    return checkRsa(key, label);
  }
  const der = bareDer(trimmed, label);
  // Node's createPublicKey derives a public key from private-key DER: check for a private key first, so a
  // private key pasted where a public key belongs is refused instead of silently accepted.
  if (privateDer(der) || isEncryptedPkcs8Der(der)) throw new KeyFormatError('wrongKind', label, WRONG_KIND_PRIVATE);
  const key = publicDer(der);
  if (!key) throw new KeyFormatError('unreadable', label, 'could not be read as an SPKI or PKCS#1 public key.');
  return checkRsa(key, label);
}

/** Parses merchant or platform private key text (§1.2): PEM PRIVATE KEY / RSA PRIVATE KEY, or base64 DER (PKCS#8, PKCS#1). */
export function parsePrivateKey(text: string, label = 'private key'): KeyObject {
  const trimmed = text.trim();
  const pem = firstPemBlock(trimmed);
  if (pem) {
    if (pem.type === 'ENCRYPTED PRIVATE KEY' || /Proc-Type:\s*4,ENCRYPTED/.test(pem.body)) {
      throw new KeyFormatError('encrypted', label, ENCRYPTED);
    }
    if (PUBLIC_PEM_TYPES.has(pem.type)) throw new KeyFormatError('wrongKind', label, WRONG_KIND_PUBLIC);
    if (NON_RSA_PRIVATE_PEM_TYPES.has(pem.type)) {
      throw new KeyFormatError('notRsa', label, `is ${describeKeyType(pem.type.split(' ')[0]?.toLowerCase())} key; the service uses RSA keys.`);
    }
    if (pem.type !== 'PRIVATE KEY' && pem.type !== 'RSA PRIVATE KEY') {
      throw new KeyFormatError('unreadable', label, `is a PEM "${pem.type}" block; expected PRIVATE KEY or RSA PRIVATE KEY.`);
    }
    const key = firstThatParses([() => createPrivateKey({ key: pem.text, format: 'pem' })]);
    if (!key) throw new KeyFormatError('unreadable', label, 'could not be read as a PEM private key.');
    return checkRsa(key, label);
  }
  const der = bareDer(trimmed, label);
  const key = privateDer(der);
  if (!key) {
    if (isEncryptedPkcs8Der(der)) throw new KeyFormatError('encrypted', label, ENCRYPTED);
    if (publicDer(der)) throw new KeyFormatError('wrongKind', label, WRONG_KIND_PUBLIC);
    throw new KeyFormatError('unreadable', label, 'could not be read as a PKCS#8 or PKCS#1 private key.');
  }
  return checkRsa(key, label);
}

/** Modulus length in bytes (`k` of §2.2). */
export function modulusBytes(key: KeyObject): number {
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (!bits) throw new KeyFormatError('notRsa', 'key', 'has no RSA modulus.');
  return Math.ceil(bits / 8);
}

/**
 * The desk's one fingerprint format, for every key, intent and audit head: `ABCD-EFGH-IJKL-MNOP`, the first 10 bytes
 * (80 bits) of SHA-256 over `bytes` in RFC 4648 base32, easy to read aloud and compare.
 */
export function readableFingerprint(bytes: Uint8Array | string): string {
  const digest = createHash('sha256').update(bytes).digest();
  const code = base32.encode(digest.subarray(0, 10));
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}-${code.slice(12, 16)}`;
}

/** True for text in the fingerprint format. */
export function isReadableFingerprint(text: string): boolean {
  return /^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/.test(text);
}

/**
 * A public key's fingerprint (shown instead of keys), in the one format over its SPKI DER. Anyone can compute it
 * from the PEM: `openssl pkey -pubin -in key.pem -outform DER | openssl dgst -sha256 -binary | head -c 10 | base32`
 * (in groups of 4; README, "Key fingerprints").
 */
export function publicKeyFingerprint(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return readableFingerprint(publicKey.export({ format: 'der', type: 'spki' }));
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
