// An operator's key sealed by their passphrase (core/operators/sealed-key.ts): seal and unseal round-trip, a wrong
// passphrase or another binding (operator, profile, key id) fails as wrongPassphrase, Unicode forms of the same
// passphrase open it, and stored kdf parameters outside the bounds are refused before any work is done. This file
// puts its process back at the app's cost (the test setup lowers it, test/support/fast-seals.ts) and checks that only
// test code can lower it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportPrivateKey, generateSigningKey, publicKeyOfPrivate, type SigningKeyPair } from '../../../electron/core/statements/keys';
import {
  parseSealedKey,
  SEAL_KDF,
  SEAL_VERSION,
  SealError,
  sealPrivateKey,
  unsealPrivateKey,
  type SealBinding,
  type SealedKey,
} from '../../../electron/core/operators/sealed-key';
import { sealCostForTestProcess } from '../../../electron/core/operators/seal-cost';

const PASSPHRASE = 'caf\u00e9 correct horse battery';
let pair: SigningKeyPair;
let binding: SealBinding;
let seal: SealedKey;

beforeAll(async () => {
  sealCostForTestProcess(SEAL_KDF.N);
  pair = generateSigningKey();
  binding = { profile: 'main', operator: 'Alice', keyId: pair.keyId };
  seal = await sealPrivateKey(pair.privateKey, PASSPHRASE, binding);
});

async function unsealError(candidate: SealedKey, passphrase: string, bindingUsed: SealBinding): Promise<SealError> {
  try {
    await unsealPrivateKey(candidate, passphrase, bindingUsed);
  } catch (error) {
    if (error instanceof SealError) return error;
    throw error;
  }
  throw new Error('expected unsealing to fail');
}

describe('sealing', () => {
  it('writes the scrypt parameters, salt, nonce, ciphertext and tag, and nothing of the plain key or passphrase', () => {
    expect(seal).toMatchObject({ v: SEAL_VERSION, kdf: { name: 'scrypt', N: 2 ** 17, r: 8, p: 1 } });
    expect(SEAL_KDF).toMatchObject({ N: 2 ** 17, r: 8, p: 1 });
    expect(Buffer.from(seal.kdf.salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(seal.nonce, 'base64')).toHaveLength(12);
    expect(Buffer.from(seal.tag, 'base64')).toHaveLength(16);
    const text = JSON.stringify(seal);
    const plain = exportPrivateKey(pair.privateKey);
    expect(text).not.toContain(plain.toString('base64'));
    expect(text).not.toContain(plain.subarray(-32).toString('base64'));
    expect(text).not.toContain('correct horse');
    expect(parseSealedKey(text)).toEqual(seal);
  });

  it('salts every seal: the same key and passphrase seal differently', async () => {
    const again = await sealPrivateKey(pair.privateKey, PASSPHRASE, binding);
    expect(again.kdf.salt).not.toBe(seal.kdf.salt);
    expect(again.nonce).not.toBe(seal.nonce);
    expect(again.ciphertext).not.toBe(seal.ciphertext);
  });
});

describe('unsealing (the passphrase check)', () => {
  it('opens with the right passphrase and gives back the same key', async () => {
    const key = await unsealPrivateKey(seal, PASSPHRASE, binding);
    expect(publicKeyOfPrivate(key)).toBe(pair.publicKey);
    expect(exportPrivateKey(key).equals(exportPrivateKey(pair.privateKey))).toBe(true);
  });

  it('accepts the passphrase typed in another Unicode form (NFKC), and the operator name in another case', async () => {
    const key = await unsealPrivateKey(seal, 'cafe\u0301 correct horse battery', { ...binding, operator: 'alice' });
    expect(publicKeyOfPrivate(key)).toBe(pair.publicKey);
  });

  it('refuses a wrong passphrase with SealError wrongPassphrase', async () => {
    const error = await unsealError(seal, 'caf\u00e9 correct horse batterY', binding);
    expect(error.reason).toBe('wrongPassphrase');
    expect(error.message).toMatch(/passphrase does not open this key/);
  });

  it('refuses a seal bound to another operator, profile or key id, even with the right passphrase', async () => {
    for (const other of [
      { ...binding, operator: 'mallory' },
      { ...binding, profile: 'other' },
      { ...binding, keyId: generateSigningKey().keyId },
    ]) {
      expect((await unsealError(seal, PASSPHRASE, other)).reason, JSON.stringify(other)).toBe('wrongPassphrase');
    }
  });

  it('refuses a seal whose ciphertext or tag was changed', async () => {
    const ciphertext = Buffer.from(seal.ciphertext, 'base64');
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    expect((await unsealError({ ...seal, ciphertext: ciphertext.toString('base64') }, PASSPHRASE, binding)).reason).toBe('wrongPassphrase');
    const tag = Buffer.from(seal.tag, 'base64');
    tag[3] = (tag[3] ?? 0) ^ 1;
    expect((await unsealError({ ...seal, tag: tag.toString('base64') }, PASSPHRASE, binding)).reason).toBe('wrongPassphrase');
  });
});

describe('reading a stored seal', () => {
  const malformed = (candidate: unknown): SealError => {
    try {
      parseSealedKey(typeof candidate === 'string' ? candidate : JSON.stringify(candidate));
    } catch (error) {
      if (error instanceof SealError) return error;
      throw error;
    }
    throw new Error('expected the seal to be refused');
  };

  it('refuses kdf parameters outside the bounds: too cheap, too costly, another block size or parallelism', () => {
    const cases: [string, SealedKey['kdf']][] = [
      ['N = 2^10 (unsealing made cheap)', { ...seal.kdf, N: 2 ** 10 }],
      ['N = 2^16', { ...seal.kdf, N: 2 ** 16 }],
      ['N = 2^30 (unsealing made to hang)', { ...seal.kdf, N: 2 ** 30 }],
      ['N = 2^21', { ...seal.kdf, N: 2 ** 21 }],
      ['N not a power of two', { ...seal.kdf, N: 2 ** 17 + 1 }],
      ['r = 1', { ...seal.kdf, r: 1 }],
      ['r = 16', { ...seal.kdf, r: 16 }],
      ['p = 0', { ...seal.kdf, p: 0 }],
      ['p = 5', { ...seal.kdf, p: 5 }],
      ['a short salt', { ...seal.kdf, salt: Buffer.alloc(8).toString('base64') }],
      ['another kdf', { ...seal.kdf, name: 'pbkdf2' as 'scrypt' }],
    ];
    for (const [what, kdf] of cases) {
      const error = malformed({ ...seal, kdf });
      expect(error.reason, what).toBe('malformed');
      expect(error.message, what).toMatch(/unknown or out-of-bounds parameters/);
    }
    // Inside the bounds is fine (a stronger N, more parallelism).
    expect(parseSealedKey(JSON.stringify({ ...seal, kdf: { ...seal.kdf, N: 2 ** 20, p: 4 } })).kdf.N).toBe(2 ** 20);
  });

  it('opens a test-cost seal only in a process lowered to it, which only test code can do', async () => {
    for (const refused of [2 ** 9, 2 ** 18, 3000, Number.NaN]) expect(() => sealCostForTestProcess(refused), String(refused)).toThrow(/a test process seals with N a power of two from 1024 to 131072/);
    sealCostForTestProcess(2 ** 10);
    try {
      const cheap = await sealPrivateKey(pair.privateKey, PASSPHRASE, binding);
      expect(cheap.kdf.N).toBe(2 ** 10);
      expect(publicKeyOfPrivate(await unsealPrivateKey(parseSealedKey(JSON.stringify(cheap)), PASSPHRASE, binding))).toBe(pair.publicKey);
      sealCostForTestProcess(SEAL_KDF.N);
      expect(() => parseSealedKey(JSON.stringify(cheap))).toThrow(/unknown or out-of-bounds parameters/);
    } finally {
      sealCostForTestProcess(SEAL_KDF.N);
    }
    const callers: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry.name) && !path.endsWith(join('operators', 'seal-cost.ts')) && readFileSync(path, 'utf8').includes('sealCostForTestProcess')) callers.push(path);
      }
    };
    walk('electron');
    expect(callers, 'only test code may lower the seal cost').toEqual([]);
  });

  it('refuses text that is not a seal of this version', () => {
    expect(malformed('not json').message).toMatch(/not readable/);
    expect(malformed('null').reason).toBe('malformed');
    expect(malformed({ ...seal, v: 2 }).reason).toBe('malformed');
    expect(malformed({ ...seal, nonce: Buffer.alloc(8).toString('base64') }).reason).toBe('malformed');
    expect(malformed({ ...seal, tag: Buffer.alloc(8).toString('base64') }).reason).toBe('malformed');
    expect(malformed({ ...seal, ciphertext: 7 }).reason).toBe('malformed');
    const { kdf: _kdf, ...withoutKdf } = seal;
    expect(malformed(withoutKdf).reason).toBe('malformed');
  });
});
