// Proves PROTOCOL §3 signatures against openssl dgst: byte-identical PKCS#1 v1.5 SHA-256, verified both ways.
import type { KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptJson } from '../../../electron/protocol/cipher';
import { parsePrivateKey, parsePublicKey } from '../../../electron/protocol/keys';
import { signingInput, signText, verifyText } from '../../../electron/protocol/signature';
import { newNonce } from '../../../electron/protocol/wire';
import { generateOpensslRsaKey, makeTempDir, opensslSign, opensslVerify, type OpensslRsaKey, type TempDir } from '../../support/openssl';

interface Pair {
  readonly files: OpensslRsaKey;
  readonly publicKey: KeyObject;
  readonly privateKey: KeyObject;
}

let dir: TempDir;
let merchant: Pair;
let platform: Pair;

function pair(name: string, bits: number): Pair {
  const files = generateOpensslRsaKey(dir, name, bits);
  return { files, publicKey: parsePublicKey(files.pkcs1PublicPem), privateKey: parsePrivateKey(files.pkcs8DerBase64) };
}

beforeAll(() => {
  dir = makeTempDir();
  merchant = pair('merchant', 2048);
  platform = pair('platform', 2048);
}, 60_000);

afterAll(() => dir.remove());

describe('signing input (§3.2, §3.3)', () => {
  it('is TIMESTAMP + "\\n" + NONCE + "\\n" + BODY, byte for byte', () => {
    expect(signingInput('1700000000', 'abcDEF0123456789', 'QUJD/+==')).toBe('1700000000\nabcDEF0123456789\nQUJD/+==');
    expect(signingInput('1', 'n'.repeat(16), '')).toBe(`1\n${'n'.repeat(16)}\n`);
    expect(signingInput('1', 'n'.repeat(16), 'body\n')).toBe(`1\n${'n'.repeat(16)}\nbody\n`);
  });
});

describe('openssl oracle (§3.1: RSASSA-PKCS1-v1_5, SHA-256, standard base64)', () => {
  it('a request signature is byte-identical to openssl dgst -sha256 -sign (PKCS#1 v1.5 is deterministic)', () => {
    const body = encryptJson({ userOrder: 'A-1', memo: 'é/😀' }, platform.publicKey);
    const input = signingInput('1700000000', newNonce(), body);
    const ours = signText(input, merchant.privateKey);
    expect(ours).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(ours, 'base64')).toHaveLength(256);
    expect(ours).toBe(opensslSign(input, merchant.files.pkcs8PemPath));
    expect(ours).toBe(opensslSign(input, merchant.files.pkcs1PrivatePemPath));
  });

  it('openssl signatures verify in the project; the project\'s verify under openssl dgst -verify', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.nat({ max: 9_999_999_999 }), (body, seconds) => {
        const input = signingInput(String(seconds), newNonce(), body);
        const theirs = opensslSign(Buffer.from(input, 'utf8'), platform.files.pkcs1PrivatePemPath);
        expect(verifyText(input, theirs, platform.publicKey)).toBe(true);
        const ours = signText(input, platform.privateKey);
        expect(ours).toBe(theirs);
        expect(opensslVerify(dir, Buffer.from(input, 'utf8'), ours, platform.files.spkiPemPath)).toBe(true);
      }),
      { numRuns: 8 },
    );
  });

  it('openssl refuses a project signature over different bytes (one extra line feed)', () => {
    const input = signingInput('1700000000', newNonce(), 'body');
    const ours = signText(input, merchant.privateKey);
    expect(opensslVerify(dir, `${input}\n`, ours, merchant.files.spkiPemPath)).toBe(false);
    expect(opensslVerify(dir, input, ours, platform.files.spkiPemPath)).toBe(false);
  });
});

describe('verification refusals', () => {
  const input = (): string => signingInput('1700000000', 'abcdefabcdefabcdefabcdefabcdefab', 'body');

  it('a signature verifies only for its exact input and the matching public key', () => {
    const signature = signText(input(), merchant.privateKey);
    expect(verifyText(input(), signature, merchant.publicKey)).toBe(true);
    expect(verifyText(`${input()}\n`, signature, merchant.publicKey)).toBe(false);
    expect(verifyText(input().replace('1700000000', '1700000001'), signature, merchant.publicKey)).toBe(false);
    expect(verifyText(input(), signature, platform.publicKey)).toBe(false);
  });

  it('malformed signatures are simply invalid, never an exception', () => {
    const signature = signText(input(), merchant.privateKey);
    const malformed = [
      '',
      ' ',
      `${signature}\n`,
      ` ${signature}`,
      signature.replace(/=+$/, ''),
      signature.replace(/\+/g, '-').replace(/\//g, '_'),
      signature.slice(0, -4),
      `${signature}AAAA`,
      'not base64 at all!',
      Buffer.alloc(256).toString('base64'),
      Buffer.alloc(512, 0xff).toString('base64'),
    ];
    for (const text of malformed) {
      if (text === signature) continue;
      expect(verifyText(input(), text, merchant.publicKey)).toBe(false);
    }
  });

  it('any flipped bit invalidates a signature (property)', () => {
    const signature = Buffer.from(signText(input(), merchant.privateKey), 'base64');
    fc.assert(
      fc.property(fc.nat({ max: signature.length * 8 - 1 }), (bit) => {
        const damaged = Buffer.from(signature);
        const index = bit >> 3;
        damaged[index] = damaged[index]! ^ (1 << (bit & 7));
        expect(verifyText(input(), damaged.toString('base64'), merchant.publicKey)).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('arbitrary strings as signatures never throw', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        expect(verifyText(input(), text, merchant.publicKey)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
