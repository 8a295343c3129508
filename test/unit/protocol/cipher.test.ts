// Proves the PROTOCOL §2 ciphertext against openssl: block-by-block interop both ways, exact k - 42 chunking, output form.
import type { KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chunkBytes,
  decodeStrictBase64,
  decryptBytes,
  decryptJson,
  encryptBytes,
  encryptJson,
  parsePlaintextJson,
  splitBlocks,
} from '../../../electron/protocol/cipher';
import { CipherError, type CipherFailure } from '../../../electron/protocol/errors';
import { modulusBytes, parsePrivateKey, parsePublicKey } from '../../../electron/protocol/keys';
import {
  generateOpensslRsaKey,
  makeTempDir,
  opensslOaepDecrypt,
  opensslOaepEncrypt,
  type OpensslRsaKey,
  type TempDir,
} from '../../support/openssl';

interface Pair {
  readonly files: OpensslRsaKey;
  readonly publicKey: KeyObject;
  readonly privateKey: KeyObject;
}

let dir: TempDir;
let rsa2048: Pair;
let rsa3072: Pair;
let other2048: Pair;

function pair(name: string, bits: number): Pair {
  const files = generateOpensslRsaKey(dir, name, bits);
  return { files, publicKey: parsePublicKey(files.spkiPem), privateKey: parsePrivateKey(files.pkcs1PrivatePem) };
}

beforeAll(() => {
  dir = makeTempDir();
  rsa2048 = pair('a2048', 2048);
  rsa3072 = pair('a3072', 3072);
  other2048 = pair('b2048', 2048);
}, 60_000);

afterAll(() => dir.remove());

function cipherFailure(run: () => unknown): CipherFailure {
  try {
    run();
  } catch (error) {
    if (!(error instanceof CipherError)) throw error;
    expect(error.kind).toBe('cipher');
    return error.failure;
  }
  throw new Error('no CipherError was raised');
}

function blocksOf(base64: string, k: number): Buffer[] {
  const bytes = Buffer.from(base64, 'base64');
  expect(bytes.length % k).toBe(0);
  const blocks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += k) blocks.push(bytes.subarray(offset, offset + k));
  return blocks;
}

/** A JSON document of at least `minBytes` UTF-8 bytes mixing 2-, 3- and 4-byte characters, escapes and '/'. */
function nonAsciiJson(minBytes: number): { value: unknown; text: string } {
  const items: string[] = [];
  const value = { memo: items, note: 'ünïcödé / 中文 / 😀🚀 / "quoted" \\ back\nslash' };
  let text = JSON.stringify(value);
  for (let i = 0; Buffer.byteLength(text) < minBytes; i += 1) {
    items.push(`${i}: é中😀/${'ß'.repeat(i % 7)}`);
    text = JSON.stringify(value);
  }
  return { value, text };
}

describe('chunking: exactly k - 42 bytes per block (§2.2)', () => {
  it('2048-bit: 214 bytes per chunk, 256-byte blocks; 214 bytes give 1 block, 215 give 2', () => {
    expect(chunkBytes(rsa2048.publicKey)).toBe(214);
    expect(modulusBytes(rsa2048.publicKey)).toBe(256);
    const one = encryptBytes(Buffer.alloc(214, 0x61), rsa2048.publicKey);
    expect(Buffer.from(one, 'base64').length).toBe(256);
    const two = encryptBytes(Buffer.alloc(215, 0x61), rsa2048.publicKey);
    expect(Buffer.from(two, 'base64').length).toBe(512);
    // openssl sees a 214-byte first chunk and a 1-byte second one
    const [first, second] = blocksOf(two, 256).map((block) => opensslOaepDecrypt(block, rsa2048.files.pkcs8PemPath));
    expect(first?.length).toBe(214);
    expect(second?.toString()).toBe('a');
  });

  it('3072-bit: 342 bytes per chunk, 384-byte blocks', () => {
    expect(chunkBytes(rsa3072.publicKey)).toBe(342);
    expect(Buffer.from(encryptBytes(Buffer.alloc(342, 0x62), rsa3072.publicKey), 'base64').length).toBe(384);
    const two = encryptBytes(Buffer.alloc(343, 0x62), rsa3072.publicKey);
    expect(Buffer.from(two, 'base64').length).toBe(768);
    const chunks = blocksOf(two, 384).map((block) => opensslOaepDecrypt(block, rsa3072.files.pkcs1PrivatePemPath));
    expect(chunks.map((chunk) => chunk.length)).toEqual([342, 1]);
  });

  it('a JSON text of exactly 214 bytes is one block, 215 bytes two', () => {
    const exact = 'x'.repeat(212); // "x...x" with quotes = 214 bytes
    expect(Buffer.byteLength(JSON.stringify(exact))).toBe(214);
    expect(Buffer.from(encryptJson(exact, rsa2048.publicKey), 'base64').length).toBe(256);
    expect(Buffer.from(encryptJson(`${exact}y`, rsa2048.publicKey), 'base64').length).toBe(512);
    expect(decryptJson(encryptJson(exact, rsa2048.publicKey), rsa2048.privateKey)).toBe(exact);
  });

  it('an empty request {} is one block holding exactly the two bytes "{}" (§2.5)', () => {
    const ciphertext = encryptJson({}, rsa2048.publicKey);
    const blocks = blocksOf(ciphertext, 256);
    expect(blocks).toHaveLength(1);
    expect(opensslOaepDecrypt(blocks[0]!, rsa2048.files.pkcs8PemPath).toString('utf8')).toBe('{}');
    expect(decryptJson(ciphertext, rsa2048.privateKey)).toEqual({});
  });

  it('no plaintext still makes one block, which decodes to an empty plaintext and is refused', () => {
    const ciphertext = encryptBytes(new Uint8Array(0), rsa2048.publicKey);
    expect(blocksOf(ciphertext, 256)).toHaveLength(1);
    expect(decryptBytes(ciphertext, rsa2048.privateKey).length).toBe(0);
    expect(cipherFailure(() => decryptJson(ciphertext, rsa2048.privateKey))).toBe('emptyPlaintext');
  });
});

describe('output form (§2.1, §2.3)', () => {
  it('is standard base64 on one line, with padding, of whole k-byte blocks; OAEP makes each encryption different', () => {
    const { value } = nonAsciiJson(1000);
    const a = encryptJson(value, rsa2048.publicKey);
    const b = encryptJson(value, rsa2048.publicKey);
    for (const text of [a, b]) {
      expect(text).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
      expect(Buffer.from(text, 'base64').toString('base64')).toBe(text);
    }
    expect(a).not.toBe(b);
    expect(decryptJson(a, rsa2048.privateKey)).toEqual(decryptJson(b, rsa2048.privateKey));
  });

  it('the plaintext is UTF-8 without a BOM', () => {
    const plaintext = decryptBytes(encryptJson({ a: 'é' }, rsa2048.publicKey), rsa2048.privateKey);
    expect(plaintext[0]).toBe(0x7b);
    expect(plaintext.equals(Buffer.from('{"a":"é"}', 'utf8'))).toBe(true);
  });
});

describe('openssl interop (§2.2: RSA-OAEP, SHA-1, MGF1-SHA-1, empty label)', () => {
  it.each([
    ['2048', () => rsa2048, 256],
    ['3072', () => rsa3072, 384],
  ] as const)('%s-bit: the project\'s ciphertext decrypts block by block with openssl pkeyutl to the exact JSON bytes', (_bits, get, k) => {
    const key = get();
    const { value, text } = nonAsciiJson(1000);
    const expected = Buffer.from(text, 'utf8');
    const ciphertext = encryptJson(value, key.publicKey);
    const blocks = blocksOf(ciphertext, k);
    expect(blocks.length).toBe(Math.ceil(expected.length / (k - 42)));
    expect(blocks.length).toBeGreaterThan(1);
    const chunks = blocks.map((block) => opensslOaepDecrypt(block, key.files.pkcs8PemPath));
    expect(chunks.slice(0, -1).every((chunk) => chunk.length === k - 42)).toBe(true);
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
  });

  it.each([
    ['2048', () => rsa2048],
    ['3072', () => rsa3072],
  ] as const)('%s-bit: openssl-made blocks, concatenated and base64-encoded, decrypt in the project', (_bits, get) => {
    const key = get();
    const { value, text } = nonAsciiJson(1000);
    const plaintext = Buffer.from(text, 'utf8');
    const size = chunkBytes(key.publicKey);
    const blocks: Buffer[] = [];
    // chunk boundaries fall inside multi-byte characters: only the concatenation is UTF-8
    for (let offset = 0; offset < plaintext.length; offset += size) {
      blocks.push(opensslOaepEncrypt(plaintext.subarray(offset, offset + size), key.files.spkiPemPath));
    }
    const ciphertext = Buffer.concat(blocks).toString('base64');
    expect(decryptJson(ciphertext, key.privateKey)).toEqual(value);
    expect(decryptBytes(ciphertext, key.privateKey).equals(plaintext)).toBe(true);
  });

  it('openssl decrypts the project\'s blocks with the PKCS#1 private key file too, and refuses them under another key', () => {
    const ciphertext = encryptJson({ amount: '1.5' }, rsa2048.publicKey);
    const [block] = blocksOf(ciphertext, 256);
    expect(opensslOaepDecrypt(block!, rsa2048.files.pkcs1PrivatePemPath).toString()).toBe('{"amount":"1.5"}');
    expect(() => opensslOaepDecrypt(block!, other2048.files.pkcs8PemPath)).toThrow(/failed/);
  });
});

describe('decoding refusals (§2.4), each with its failure code', () => {
  it('invalid base64: white space, line breaks, base64url, missing or wrong padding, stray characters', () => {
    const good = encryptJson({ a: 1 }, rsa2048.publicKey);
    const cases = [
      ` ${good}`,
      `${good.slice(0, 76)}\n${good.slice(76)}`,
      good.replace(/\+/g, '-').replace(/\//g, '_'),
      good.replace(/=+$/, ''),
      `${good}=`,
      `${good.slice(0, 10)}*${good.slice(11)}`,
      'QR==', // non-canonical: unused bits set
    ];
    for (const text of cases) {
      if (text === good) continue;
      expect(cipherFailure(() => decryptJson(text, rsa2048.privateKey))).toBe('invalidBase64');
    }
  });

  it('bad length: empty text (decoded length 0) and lengths that are not a multiple of k', () => {
    expect(cipherFailure(() => decryptJson('', rsa2048.privateKey))).toBe('badLength');
    expect(cipherFailure(() => decryptJson(Buffer.alloc(255).toString('base64'), rsa2048.privateKey))).toBe('badLength');
    expect(cipherFailure(() => decryptJson(Buffer.alloc(257).toString('base64'), rsa2048.privateKey))).toBe('badLength');
    // a 2048-bit ciphertext is not a whole number of 3072-bit blocks
    expect(cipherFailure(() => decryptJson(encryptJson({}, rsa2048.publicKey), rsa3072.privateKey))).toBe('badLength');
    expect(() => splitBlocks(Buffer.alloc(0), 256)).toThrow(CipherError);
    expect(decodeStrictBase64('')).toHaveLength(0);
  });

  it('OAEP failure: the wrong private key, zero blocks, a block above the modulus', () => {
    const ciphertext = encryptJson({ a: 1 }, rsa2048.publicKey);
    expect(cipherFailure(() => decryptJson(ciphertext, other2048.privateKey))).toBe('oaepFailed');
    expect(cipherFailure(() => decryptJson(Buffer.alloc(256).toString('base64'), rsa2048.privateKey))).toBe('oaepFailed');
    expect(cipherFailure(() => decryptJson(Buffer.alloc(256, 0xff).toString('base64'), rsa2048.privateKey))).toBe('oaepFailed');
  });

  it('invalid UTF-8 and non-JSON plaintext, including one made by openssl and a BOM-prefixed document', () => {
    const invalidUtf8 = Buffer.from([0x22, 0xc3, 0x28, 0x22]);
    expect(cipherFailure(() => decryptJson(encryptBytes(invalidUtf8, rsa2048.publicKey), rsa2048.privateKey))).toBe('invalidUtf8');
    const fromOpenssl = opensslOaepEncrypt(Buffer.from([0x7b, 0xff, 0x7d]), rsa2048.files.spkiPemPath).toString('base64');
    expect(cipherFailure(() => decryptJson(fromOpenssl, rsa2048.privateKey))).toBe('invalidUtf8');
    const surrogate = Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]); // CESU-style lone surrogate: not UTF-8
    expect(cipherFailure(() => parsePlaintextJson(surrogate))).toBe('invalidUtf8');
    for (const text of ['not json', '{"a":1', '{}}', '\uFEFF{}']) {
      const ciphertext = encryptBytes(Buffer.from(text, 'utf8'), rsa2048.publicKey);
      expect(cipherFailure(() => decryptJson(ciphertext, rsa2048.privateKey))).toBe('invalidJson');
    }
  });

  it('error messages carry no plaintext', () => {
    const secretish = 'super-secret-memo-text';
    const ciphertext = encryptBytes(Buffer.from(`{"memo":"${secretish}"`, 'utf8'), rsa2048.publicKey);
    try {
      decryptJson(ciphertext, rsa2048.privateKey);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(CipherError);
      expect((error as Error).message).not.toContain(secretish);
    }
  });
});
