// Property tests of the PROTOCOL §2 ciphertext: JSON round trips up to 128 KiB, and damaged input only ever yields CipherError.
import type { KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptJson, encryptBytes, encryptJson } from '../../../electron/protocol/cipher';
import { CipherError, type CipherFailure } from '../../../electron/protocol/errors';
import { parsePrivateKey, parsePublicKey } from '../../../electron/protocol/keys';
import { generateOpensslRsaKey, makeTempDir, type TempDir } from '../../support/openssl';

const K = 256; // 2048-bit blocks
const CHUNK = K - 42;
const MAX_SERIALIZED = 128 * 1024;

let dir: TempDir;
let publicKey: KeyObject;
let privateKey: KeyObject;

beforeAll(() => {
  dir = makeTempDir();
  const files = generateOpensslRsaKey(dir, 'prop2048', 2048);
  publicKey = parsePublicKey(files.spkiPem);
  privateKey = parsePrivateKey(files.pkcs8Pem);
}, 60_000);

afterAll(() => dir.remove());

type Outcome = { ok: true; value: unknown } | { ok: false; failure: CipherFailure };

/** Decodes, turning CipherError into a failure code. Any other error escapes and fails the property. */
function outcome(text: string): Outcome {
  try {
    return { ok: true, value: decryptJson(text, privateKey) };
  } catch (error) {
    if (error instanceof CipherError) return { ok: false, failure: error.failure };
    throw error;
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Independent oracle for canonical standard base64 (RFC 4648 §4 with padding, unused bits zero). */
function isCanonicalBase64(text: string): boolean {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return false;
  if (text.endsWith('==')) return ALPHABET.indexOf(text.charAt(text.length - 3)) % 16 === 0;
  if (text.endsWith('=')) return ALPHABET.indexOf(text.charAt(text.length - 2)) % 4 === 0;
  return true;
}

function decodedLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/** What §2.4 says about a text, as far as it can be known without the private key. */
function expectedFailureBeforeRsa(text: string): CipherFailure | undefined {
  if (!isCanonicalBase64(text)) return 'invalidBase64';
  const length = decodedLength(text);
  if (length === 0 || length % K !== 0) return 'badLength';
  return undefined;
}

/** Valid UTF-8 exactly when decoding and re-encoding gives back the same bytes (Buffer replaces bad sequences). */
function isUtf8(bytes: Buffer): boolean {
  return Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

/** The outcome §2.4 prescribes for a plaintext that decrypted fine. */
function expectedForPlaintext(bytes: Buffer): Outcome {
  if (!isUtf8(bytes)) return { ok: false, failure: 'invalidUtf8' };
  if (bytes.length === 0) return { ok: false, failure: 'emptyPlaintext' };
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch {
    return { ok: false, failure: 'invalidJson' };
  }
}

function chunksOf(bytes: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK) chunks.push(bytes.subarray(offset, offset + CHUNK));
  return chunks;
}

/** Serialised form used to compare JSON values (-0 and 0 serialise alike, as on the wire). */
const serialised = (value: unknown): string => JSON.stringify(value);

// Multi-block payloads shared by the damage properties, encrypted once.
const PAYLOADS = {
  // a long ASCII string: swapping two middle blocks gives another valid JSON string
  ascii: `"${'a'.repeat(CHUNK - 1)}${'b'.repeat(CHUNK)}${'c'.repeat(CHUNK)}${'d'.repeat(CHUNK - 1)}"`,
  // non-ASCII: block boundaries cut characters, so reordering can produce invalid UTF-8
  unicode: JSON.stringify({ memo: 'é中😀/'.repeat(90), list: Array.from({ length: 40 }, (_, i) => `${i}ß`) }),
};
const encrypted = new Map<string, { plaintext: Buffer; ciphertext: Buffer }>();
function payload(name: keyof typeof PAYLOADS): { plaintext: Buffer; ciphertext: Buffer } {
  let entry = encrypted.get(name);
  if (!entry) {
    const plaintext = Buffer.from(PAYLOADS[name], 'utf8');
    entry = { plaintext, ciphertext: Buffer.from(encryptBytes(plaintext, publicKey), 'base64') };
    encrypted.set(name, entry);
  }
  return entry;
}
const payloadName = fc.constantFrom<keyof typeof PAYLOADS>('ascii', 'unicode');

describe('round trip (§2.1-§2.3)', () => {
  it('any JSON value with full-Unicode strings (astral characters included) decrypts to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary', maxDepth: 4 }), (value) => {
        const text = encryptJson(value, publicKey);
        expect(serialised(decryptJson(text, privateKey))).toBe(serialised(value));
      }),
      { numRuns: 40 },
    );
  });

  it('long full-Unicode strings spanning many blocks survive chunk boundaries inside characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 200, maxLength: 2500 }), (value) => {
        expect(decryptJson(encryptJson(value, publicKey), privateKey)).toBe(value);
      }),
      { numRuns: 12 },
    );
  });

  it.each([
    ['128 KiB of astral characters', () => '😀𝄞🚀'.repeat(Math.floor((MAX_SERIALIZED - 2) / 12)) + 'x'.repeat((MAX_SERIALIZED - 2) % 12)],
    ['128 KiB of 3-byte and 2-byte characters', () => '中é'.repeat(Math.floor((MAX_SERIALIZED - 2) / 5)) + 'x'.repeat((MAX_SERIALIZED - 2) % 5)],
    [
      'a 100+ KiB array of records with escapes and slashes',
      () => Array.from({ length: 900 }, (_, i) => ({ apiOrder: `D${i}`, txid: `0x${'f'.repeat(64)}`, memo: `a/b\\c"d\n😀 ${i}` })),
    ],
    ['nesting 500 levels deep', () => JSON.parse(`${'['.repeat(500)}"deep"${']'.repeat(500)}`) as unknown],
  ])('large value: %s', (_name, make) => {
    const value = make();
    const size = Buffer.byteLength(serialised(value));
    expect(size).toBeLessThanOrEqual(MAX_SERIALIZED);
    if (typeof value === 'string') expect(size).toBe(MAX_SERIALIZED);
    const text = encryptJson(value, publicKey);
    expect(Buffer.from(text, 'base64').length).toBe(Math.ceil(size / CHUNK) * K);
    expect(serialised(decryptJson(text, privateKey))).toBe(serialised(value));
  });
});

describe('damaged input only ever yields CipherError with the matching failure (§2.4)', () => {
  it('arbitrary strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 400 }),
          fc.string({ unit: fc.constantFrom(...`${ALPHABET}=-_ \n\r\t`.split('')), maxLength: 400 }),
        ),
        (text) => {
          const result = outcome(text);
          expect(result.ok).toBe(false);
          const expected = expectedFailureBeforeRsa(text);
          if (expected) expect(result).toEqual({ ok: false, failure: expected });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('arbitrary valid base64: badLength unless a whole number of blocks, then oaepFailed', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3 * K }), (bytes) => {
        const expected: CipherFailure = bytes.length === 0 || bytes.length % K !== 0 ? 'badLength' : 'oaepFailed';
        expect(outcome(Buffer.from(bytes).toString('base64'))).toEqual({ ok: false, failure: expected });
      }),
      { numRuns: 150 },
    );
    // make sure the whole-block case is exercised, not left to chance
    for (const blocks of [1, 2]) {
      const random = Buffer.from(fc.sample(fc.uint8Array({ minLength: K * blocks, maxLength: K * blocks }), 1)[0]!);
      expect(outcome(random.toString('base64'))).toEqual({ ok: false, failure: 'oaepFailed' });
    }
  });

  it('truncated ciphertext: cut bytes give badLength, or at a block boundary the plaintext prefix is refused', () => {
    fc.assert(
      fc.property(payloadName, fc.integer({ min: 1, max: 4 * K - 1 }), (name, cut) => {
        const { plaintext, ciphertext } = payload(name);
        const truncated = ciphertext.subarray(0, Math.min(cut, ciphertext.length - 1));
        const result = outcome(truncated.toString('base64'));
        if (truncated.length % K !== 0) {
          expect(result).toEqual({ ok: false, failure: 'badLength' });
        } else {
          const prefix = plaintext.subarray(0, (truncated.length / K) * CHUNK);
          expect(result).toEqual(expectedForPlaintext(prefix));
          expect(result.ok).toBe(false);
        }
      }),
      { numRuns: 60 },
    );
    // every block boundary explicitly
    for (const name of ['ascii', 'unicode'] as const) {
      const { plaintext, ciphertext } = payload(name);
      for (let blocks = 1; blocks * K < ciphertext.length; blocks += 1) {
        const result = outcome(ciphertext.subarray(0, blocks * K).toString('base64'));
        expect(result).toEqual(expectedForPlaintext(plaintext.subarray(0, blocks * CHUNK)));
      }
    }
  });

  it('truncated base64 text: invalidBase64 or badLength before any RSA work', () => {
    fc.assert(
      fc.property(payloadName, fc.nat(), (name, seed) => {
        const text = payload(name).ciphertext.toString('base64');
        const cut = seed % text.length;
        const truncated = text.slice(0, cut);
        const expected = expectedFailureBeforeRsa(truncated);
        const result = outcome(truncated);
        if (expected) expect(result).toEqual({ ok: false, failure: expected });
        else expect(result.ok).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('reordered blocks are still valid OAEP: the result is exactly what the reordered plaintext says', () => {
    let differentValues = 0;
    let refusals = 0;
    fc.assert(
      fc.property(payloadName, fc.nat(), fc.nat(), (name, a, b) => {
        const { plaintext, ciphertext } = payload(name);
        const blockCount = ciphertext.length / K;
        const i = a % blockCount;
        const j = b % blockCount;
        fc.pre(i !== j);
        const blocks = Array.from({ length: blockCount }, (_, n) => ciphertext.subarray(n * K, (n + 1) * K));
        const chunks = chunksOf(plaintext);
        [blocks[i], blocks[j]] = [blocks[j]!, blocks[i]!];
        [chunks[i], chunks[j]] = [chunks[j]!, chunks[i]!];
        const result = outcome(Buffer.concat(blocks).toString('base64'));
        const expected = expectedForPlaintext(Buffer.concat(chunks));
        expect(result).toEqual(expected);
        if (result.ok) {
          if (!Buffer.concat(chunks).equals(plaintext)) expect(serialised(result.value)).not.toBe(plaintext.toString('utf8'));
          differentValues += 1;
        } else {
          expect(['invalidUtf8', 'invalidJson']).toContain(result.failure);
          refusals += 1;
        }
      }),
      { numRuns: 40 },
    );
    // the ascii payload's middle blocks give a different but valid value: a reorder is not detected by §2
    const { ciphertext } = payload('ascii');
    const block = (n: number): Buffer => ciphertext.subarray(n * K, (n + 1) * K);
    const swapped = Buffer.concat([block(0), block(2), block(1), block(3)]);
    const value = outcome(swapped.toString('base64'));
    expect(value.ok && typeof value.value === 'string' && /^a+c+b+d+$/.test(value.value)).toBe(true);
    expect(differentValues + refusals).toBeGreaterThan(0);
  });

  it('a flipped bit anywhere in the ciphertext fails OAEP', () => {
    fc.assert(
      fc.property(payloadName, fc.nat(), (name, seed) => {
        const { ciphertext } = payload(name);
        const damaged = Buffer.from(ciphertext);
        const bit = seed % (damaged.length * 8);
        const index = bit >> 3;
        damaged[index] = damaged[index]! ^ (1 << (bit & 7));
        expect(outcome(damaged.toString('base64'))).toEqual({ ok: false, failure: 'oaepFailed' });
      }),
      { numRuns: 60 },
    );
  });

  it('appended garbage: bytes give badLength (or oaepFailed for a whole extra block); characters give invalidBase64 or badLength', () => {
    fc.assert(
      fc.property(payloadName, fc.uint8Array({ minLength: 1, maxLength: 2 * K + 1 }), (name, extra) => {
        const { ciphertext } = payload(name);
        const expected: CipherFailure = extra.length % K === 0 ? 'oaepFailed' : 'badLength';
        expect(outcome(Buffer.concat([ciphertext, extra]).toString('base64'))).toEqual({ ok: false, failure: expected });
      }),
      { numRuns: 60 },
    );
    fc.assert(
      fc.property(payloadName, fc.string({ minLength: 1, maxLength: 40 }), (name, extra) => {
        const text = payload(name).ciphertext.toString('base64');
        const result = outcome(text + extra);
        // after "=" padding nothing may follow; without padding, whole extra quads are base64 of 1-30 extra bytes
        if (text.endsWith('=')) expect(result).toEqual({ ok: false, failure: 'invalidBase64' });
        expect(result).toEqual({ ok: false, failure: expectedFailureBeforeRsa(text + extra) });
      }),
      { numRuns: 60 },
    );
    const text = payload('ascii').ciphertext.toString('base64');
    expect(outcome(`${text}\n`)).toEqual({ ok: false, failure: 'invalidBase64' });
    const blockAppended = Buffer.concat([payload('ascii').ciphertext, payload('unicode').ciphertext.subarray(0, K)]);
    expect(outcome(blockAppended.toString('base64'))).toEqual(
      expectedForPlaintext(Buffer.concat([payload('ascii').plaintext, payload('unicode').plaintext.subarray(0, CHUNK)])),
    );
  });
});
