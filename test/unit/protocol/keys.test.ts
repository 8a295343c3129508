// Proves PROTOCOL §1 key handling against openssl-made keys: every accepted form, every refusal, no key text in errors.
import { createHash, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { base32 } from '@scure/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyFormatError, type KeyFormatFailure } from '../../../electron/protocol/errors';
import {
  generateRsaKeyPair,
  modulusBytes,
  parsePrivateKey,
  parsePublicKey,
  publicKeyFingerprint,
  publicKeyPem,
} from '../../../electron/protocol/keys';
import { generateOpensslRsaKey, makeTempDir, openssl, pemToBareBase64, type OpensslRsaKey, type TempDir } from '../../support/openssl';

let dir: TempDir;
const keys = new Map<number, OpensslRsaKey>();
let small: OpensslRsaKey;
let encryptedPkcs8Pem: string;
let encryptedTraditionalPem: string;
let ecTraditionalPem: string;
let ecPkcs8Pem: string;
let ecPublicPem: string;

beforeAll(() => {
  dir = makeTempDir();
  for (const bits of [2048, 3072, 4096]) keys.set(bits, generateOpensslRsaKey(dir, `rsa${bits}`, bits));
  small = generateOpensslRsaKey(dir, 'rsa1024', 1024);
  const base = key(2048);
  const enc8 = dir.file('enc8.pem');
  openssl(['pkcs8', '-topk8', '-in', base.pkcs8PemPath, '-passout', 'pass:secret', '-out', enc8]);
  encryptedPkcs8Pem = readFileSync(enc8, 'utf8');
  const enc1 = dir.file('enc1.pem');
  openssl(['rsa', '-in', base.pkcs8PemPath, '-traditional', '-aes256', '-passout', 'pass:secret', '-out', enc1]);
  encryptedTraditionalPem = readFileSync(enc1, 'utf8');
  const ec = dir.file('ec.pem');
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-out', ec]);
  ecTraditionalPem = readFileSync(ec, 'utf8');
  const ec8 = dir.file('ec8.pem');
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', ec8]);
  ecPkcs8Pem = readFileSync(ec8, 'utf8');
  ecPublicPem = openssl(['pkey', '-in', ec8, '-pubout']).toString();
}, 60_000);

afterAll(() => dir.remove());

function key(bits: number): OpensslRsaKey {
  const found = keys.get(bits);
  if (!found) throw new Error(`no ${bits}-bit key`);
  return found;
}

/** Long base64 runs of a key's text (any 16 consecutive base64 characters would identify key material). */
function keyFragments(text: string): string[] {
  const compact = pemToBareBase64(text);
  const fragments: string[] = [];
  for (let offset = 0; offset + 16 <= compact.length; offset += 16) fragments.push(compact.slice(offset, offset + 16));
  return fragments;
}

function refusal(parse: () => KeyObject): KeyFormatError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(KeyFormatError);
    return error as KeyFormatError;
  }
  throw new Error('the key was accepted');
}

function expectRefused(parse: (text: string) => KeyObject, text: string, failure: KeyFormatFailure): KeyFormatError {
  const error = refusal(() => parse(text));
  expect(error.failure).toBe(failure);
  expect(error.kind).toBe('keyFormat');
  for (const fragment of keyFragments(text)) expect(error.message).not.toContain(fragment);
  expect(error.message).not.toContain('-----');
  return error;
}

/** Wraps base64 at 64 (or another) columns with surrounding white space, as pasted from a console or e-mail. */
function wrapped(base64: string, width = 64, eol = '\n'): string {
  const lines = base64.match(new RegExp(`.{1,${width}}`, 'g')) ?? [];
  return `\n  \t${lines.join(eol)}${eol}\n  `;
}

const spkiHex = (der: Buffer): string => createHash('sha256').update(der).digest('hex');
/** The desk's fingerprint format of a SHA-256 given in hex: its first 10 bytes in base32, 4 groups of 4. */
const readableOfHex = (sha256Hex: string): string => base32.encode(Buffer.from(sha256Hex, 'hex').subarray(0, 10)).match(/.{4}/g)!.join('-');

describe('accepted public key forms (§1.2)', () => {
  it.each([2048, 3072, 4096])('%i-bit: PEM PUBLIC KEY, PEM RSA PUBLIC KEY and bare base64 DER of both give the same key', (bits) => {
    const k = key(bits);
    const forms = [
      k.spkiPem,
      k.pkcs1PublicPem,
      `\r\n  ${k.spkiPem.replace(/\n/g, '\r\n')}  \r\n`,
      k.spkiDerBase64,
      k.pkcs1PublicDerBase64,
      wrapped(k.spkiDerBase64),
      wrapped(k.pkcs1PublicDerBase64, 76, '\r\n'),
    ];
    for (const text of forms) {
      const parsed = parsePublicKey(text);
      expect(parsed.type).toBe('public');
      expect(parsed.asymmetricKeyDetails?.modulusLength).toBe(bits);
      expect(parsed.export({ format: 'der', type: 'spki' }).equals(k.spkiDer)).toBe(true);
      expect(modulusBytes(parsed)).toBe(bits / 8);
    }
  });

  it('fingerprint is the first 80 bits of the SHA-256 of openssl\'s SPKI DER in base32 groups (openssl pkey -pubin -outform DER | sha256)', () => {
    for (const bits of [2048, 3072, 4096]) {
      const k = key(bits);
      const opensslHex = openssl(['dgst', '-sha256', '-r'], openssl(['pkey', '-pubin', '-in', k.pkcs1PublicPemPath, '-outform', 'DER']))
        .toString()
        .split(' ')[0];
      expect(opensslHex).toBe(spkiHex(k.spkiDer));
      for (const parsed of [parsePublicKey(k.pkcs1PublicPem), parsePrivateKey(k.pkcs1PrivatePem)]) {
        const fingerprint = publicKeyFingerprint(parsed);
        expect(fingerprint).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
        expect(fingerprint).toBe(readableOfHex(opensslHex ?? ''));
      }
    }
  });
});

describe('accepted private key forms (§1.2)', () => {
  it.each([2048, 3072, 4096])('%i-bit: PEM PRIVATE KEY, PEM RSA PRIVATE KEY and bare base64 DER of both give the same key', (bits) => {
    const k = key(bits);
    const forms = [
      k.pkcs8Pem,
      k.pkcs1PrivatePem,
      `  \n${k.pkcs1PrivatePem.replace(/\n/g, '\r\n')}\n\n`,
      k.pkcs8DerBase64,
      k.pkcs1PrivateDerBase64,
      wrapped(k.pkcs8DerBase64),
      wrapped(k.pkcs1PrivateDerBase64, 76, '\r\n'),
    ];
    for (const text of forms) {
      const parsed = parsePrivateKey(text);
      expect(parsed.type).toBe('private');
      expect(parsed.asymmetricKeyDetails?.modulusLength).toBe(bits);
      expect(publicKeyFingerprint(parsed)).toBe(readableOfHex(spkiHex(k.spkiDer)));
    }
  });

  it('generateRsaKeyPair makes a 2048-bit pair openssl reads, in the PEM forms it documents', () => {
    const pair = generateRsaKeyPair();
    expect(pair.publicKeyPem).toContain('-----BEGIN PUBLIC KEY-----');
    expect(pair.privateKeyPem).toContain('-----BEGIN PRIVATE KEY-----');
    const text = openssl(['pkey', '-noout', '-text'], pair.privateKeyPem).toString();
    expect(text).toContain('Private-Key: (2048 bit');
    const privateKey = parsePrivateKey(pair.privateKeyPem);
    expect(publicKeyPem(privateKey)).toBe(pair.publicKeyPem);
    expect(publicKeyFingerprint(parsePublicKey(pair.publicKeyPem))).toBe(publicKeyFingerprint(privateKey));
  });
});

describe('refused keys (§1.1, §1.2)', () => {
  it('a 1024-bit key is tooSmall in every form, public and private', () => {
    for (const text of [small.spkiPem, small.pkcs1PublicPem, small.spkiDerBase64, small.pkcs1PublicDerBase64]) {
      const error = expectRefused(parsePublicKey, text, 'tooSmall');
      expect(error.message).toContain('1024-bit');
      expect(error.message).toContain('2048');
    }
    for (const text of [small.pkcs8Pem, small.pkcs1PrivatePem, small.pkcs8DerBase64, small.pkcs1PrivateDerBase64]) {
      expectRefused(parsePrivateKey, text, 'tooSmall');
    }
  });

  it('encrypted PEM private keys are refused as encrypted: PKCS#8 ENCRYPTED PRIVATE KEY and traditional Proc-Type', () => {
    expect(encryptedPkcs8Pem).toContain('-----BEGIN ENCRYPTED PRIVATE KEY-----');
    expect(encryptedTraditionalPem).toContain('Proc-Type: 4,ENCRYPTED');
    for (const text of [encryptedPkcs8Pem, encryptedTraditionalPem]) {
      const error = expectRefused(parsePrivateKey, text, 'encrypted');
      expect(error.message).toContain('passphrase');
      expect(error.message).not.toContain('DEK-Info');
    }
    // the same encrypted PKCS#8 as bare base64 DER
    expectRefused(parsePrivateKey, pemToBareBase64(encryptedPkcs8Pem), 'encrypted');
  });

  it('EC keys are notRsa: traditional EC PRIVATE KEY (after EC PARAMETERS), PKCS#8, bare DER, and EC public keys', () => {
    expect(ecTraditionalPem).toContain('EC PARAMETERS');
    expect(ecTraditionalPem).toContain('EC PRIVATE KEY');
    for (const text of [ecTraditionalPem, ecPkcs8Pem, pemToBareBase64(ecPkcs8Pem)]) {
      const error = expectRefused(parsePrivateKey, text, 'notRsa');
      expect(error.message).toContain('EC');
    }
    expectRefused(parsePublicKey, ecPublicPem, 'notRsa');
    expectRefused(parsePublicKey, pemToBareBase64(ecPublicPem), 'notRsa');
  });

  it.each([
    ['empty text', ''],
    ['white space only', ' \n\t '],
    ['prose', 'this is not a key'],
    ['base64 of prose', Buffer.from('hello, this is not DER at all').toString('base64')],
    ['base64url characters', 'MIIB-_abc'],
    ['a PEM block of the wrong type', '-----BEGIN CERTIFICATE-----\nMIIBAA==\n-----END CERTIFICATE-----\n'],
    ['a PUBLIC KEY PEM with a damaged body', '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----\n'],
    ['a PEM without END line', '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n'],
  ])('garbage is unreadable as a public key: %s', (_name, text) => {
    expectRefused(parsePublicKey, text, 'unreadable');
  });

  it.each([
    ['empty text', ''],
    ['prose', 'not a key'],
    ['base64 of prose', Buffer.from('garbage garbage garbage').toString('base64')],
    ['a damaged PRIVATE KEY PEM', '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n'],
    ['an OPENSSH block', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----\n'],
  ])('garbage is unreadable as a private key: %s', (_name, text) => {
    expectRefused(parsePrivateKey, text, 'unreadable');
  });

  it('a truncated key never leaks its text into the error', () => {
    const k = key(2048);
    const truncated = k.pkcs8Pem.slice(0, Math.floor(k.pkcs8Pem.length / 2)) + '\n-----END PRIVATE KEY-----\n';
    expectRefused(parsePrivateKey, truncated, 'unreadable');
    expectRefused(parsePrivateKey, k.pkcs8DerBase64.slice(0, 600), 'unreadable');
  });

  it('a private key given as a public key is wrongKind in every form (never silently turned into its public half)', () => {
    const k = key(2048);
    const forms = [k.pkcs8Pem, k.pkcs1PrivatePem, k.pkcs8DerBase64, k.pkcs1PrivateDerBase64, wrapped(k.pkcs1PrivateDerBase64), encryptedPkcs8Pem];
    for (const text of forms) {
      const error = expectRefused(parsePublicKey, text, 'wrongKind');
      expect(error.message).toContain('private key where a public key is expected');
    }
    expectRefused(parsePublicKey, pemToBareBase64(encryptedPkcs8Pem), 'wrongKind');
    expectRefused(parsePublicKey, ecTraditionalPem, 'wrongKind');
  });

  it('a public key given as a private key is wrongKind in every form', () => {
    const k = key(2048);
    for (const text of [k.spkiPem, k.pkcs1PublicPem, k.spkiDerBase64, k.pkcs1PublicDerBase64, wrapped(k.spkiDerBase64)]) {
      const error = expectRefused(parsePrivateKey, text, 'wrongKind');
      expect(error.message).toContain('public key where a private key is expected');
    }
  });

  it('the label names the key in the message', () => {
    const error = expectRefused((text) => parsePublicKey(text, 'platform public key'), small.spkiPem, 'tooSmall');
    expect(error.message.startsWith('platform public key: ')).toBe(true);
    expect(error.keyLabel).toBe('platform public key');
  });
});
