// parseCredentials, MerchantKeys' leak safety (JSON, util.inspect, String, console, structuredClone) and keygen.
import { createPrivateKey, createPublicKey, createSign, createVerify } from 'node:crypto';
import { format, inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  InvalidCredentialsError,
  MerchantKeys,
  describeCredentials,
  generateMerchantKeyPair,
  parseCredentials,
  type MerchantCredentialsText,
} from '../../../electron/core/secrets';
import { generateRsaKeyPair, publicKeyFingerprint } from '../../../electron/protocol/keys';
import { leakedParts, makeCredentials } from './support';

function failureOf(text: MerchantCredentialsText): InvalidCredentialsError {
  try {
    parseCredentials(text);
  } catch (error) {
    if (error instanceof InvalidCredentialsError) return error;
    throw error;
  }
  throw new Error('expected parseCredentials to fail');
}

describe('parseCredentials', () => {
  it('parses both keys once into KeyObjects and describes only non-secret facts', () => {
    const creds = makeCredentials();
    const keys = parseCredentials(creds.text);
    expect(keys.merchantPrivateKey.type).toBe('private');
    expect(keys.platformPublicKey.type).toBe('public');
    expect(keys.merchantPublicKey.type).toBe('public');
    expect(describeCredentials(keys)).toEqual({
      merchantId: creds.text.merchantId,
      platformPublicKeyFingerprint: publicKeyFingerprint(createPublicKey(creds.text.platformPublicKey)),
      merchantPublicKeyFingerprint: publicKeyFingerprint(createPublicKey(creds.merchantPublicKeyPem)),
      platformKeyBits: 2048,
      merchantKeyBits: 2048,
    });
    expect(describeCredentials(keys).platformPublicKeyFingerprint).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
  });

  it('names the missing, empty or wrongly typed field', () => {
    const { text } = makeCredentials();
    for (const field of ['merchantId', 'secret', 'platformPublicKey', 'merchantPrivateKey'] as const) {
      const { [field]: _omitted, ...rest } = text;
      expect(failureOf(rest as MerchantCredentialsText).field).toBe(field);
      expect(failureOf(rest as MerchantCredentialsText).message).toMatch(new RegExp(`^${field}: .* is missing\\.$`));
      expect(failureOf({ ...text, [field]: ' \n' }).message).toMatch(/is empty/);
      expect(failureOf({ ...text, [field]: 42 as unknown as string }).message).toMatch(/must be text, not a number/);
    }
  });

  it('refuses bad merchant IDs and secrets without echoing them', () => {
    const { text } = makeCredentials();
    const badId = failureOf({ ...text, merchantId: 'merchant one' });
    expect(badId.field).toBe('merchantId');
    expect(badId.message).not.toContain('merchant one');
    const badSecret = failureOf({ ...text, secret: 'abc\u0007def' });
    expect(badSecret.field).toBe('secret');
    expect(badSecret.message).not.toContain('abc');
    expect(failureOf({ ...text, secret: 'x'.repeat(1025) }).message).toMatch(/longer than 1024/);
  });

  it('refuses unusable keys, naming the field (PROTOCOL §1.1-§1.2)', () => {
    const creds = makeCredentials();
    const encrypted = createPrivateKey(creds.text.merchantPrivateKey)
      .export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'pass' })
      .toString();
    const small = generateRsaKeyPair(1024);
    const cases: Array<[Partial<MerchantCredentialsText>, string, RegExp]> = [
      [{ platformPublicKey: 'hello, world!' }, 'platformPublicKey', /neither PEM nor base64 DER/],
      [{ platformPublicKey: 'QUJDRA==' }, 'platformPublicKey', /could not be read as an SPKI or PKCS#1 public key/],
      [{ platformPublicKey: creds.text.merchantPrivateKey }, 'platformPublicKey', /private key where a public key is expected/],
      [{ merchantPrivateKey: creds.text.platformPublicKey }, 'merchantPrivateKey', /public key where a private key is expected/],
      [{ merchantPrivateKey: encrypted }, 'merchantPrivateKey', /passphrase-encrypted/],
      [{ merchantPrivateKey: small.privateKeyPem }, 'merchantPrivateKey', /1024-bit/],
      [{ platformPublicKey: small.publicKeyPem }, 'platformPublicKey', /1024-bit/],
      [{ platformPublicKey: creds.merchantPublicKeyPem }, 'platformPublicKey', /public half of the merchant private key/],
    ];
    for (const [patch, field, pattern] of cases) {
      const error = failureOf({ ...creds.text, ...patch });
      expect(error.field).toBe(field);
      expect(error.message).toMatch(new RegExp(`^${field}: `));
      expect(error.message).toMatch(pattern);
      expect(leakedParts(`${error.message}\n${error.stack ?? ''}\n${inspect(error)}`, creds)).toEqual([]);
    }
  });

  it('cannot be constructed around validation', () => {
    const Construct = MerchantKeys as unknown as new (token: symbol, parts: object) => MerchantKeys;
    expect(() => new Construct(Symbol('MerchantKeys.construct'), {})).toThrow(TypeError);
  });
});

describe('MerchantKeys never leaks', () => {
  it('JSON.stringify, util.inspect, String(), templates, console formats and copies show no secret or key', () => {
    const creds = makeCredentials();
    const keys = parseCredentials(creds.text);
    const renderings = [
      JSON.stringify(keys),
      JSON.stringify({ nested: { keys } }),
      inspect(keys),
      inspect(keys, { showHidden: true, depth: Infinity, getters: true }),
      inspect({ nested: [keys] }, { showHidden: true, depth: Infinity }),
      String(keys),
      `${keys}`,
      format('%s %o %O %j', keys, keys, keys, keys),
      JSON.stringify({ ...keys }),
      inspect({ ...keys }, { showHidden: true }),
      JSON.stringify(Object.entries(keys)),
      JSON.stringify(structuredClone(keys)),
      inspect(structuredClone(keys), { showHidden: true }),
    ];
    for (const rendering of renderings) {
      expect(leakedParts(rendering, creds), rendering).toEqual([]);
    }
    expect(JSON.parse(JSON.stringify(keys))).toEqual(describeCredentials(keys));
    expect(String(keys)).toContain(describeCredentials(keys).merchantPublicKeyFingerprint);
    expect(inspect(keys)).toContain(describeCredentials(keys).platformPublicKeyFingerprint);
  });

  it('still hands the real secret and keys to code that asks for them explicitly', () => {
    const creds = makeCredentials();
    const keys = parseCredentials(creds.text);
    expect(keys.secret).toBe(creds.text.secret);
    const signature = createSign('sha256').update('x').sign(keys.merchantPrivateKey);
    expect(createVerify('sha256').update('x').verify(keys.merchantPublicKey, signature)).toBe(true);
  });
});

describe('generateMerchantKeyPair', () => {
  it('returns a 2048-bit public key PEM to register and keeps the private key for the keychain', () => {
    const pair = generateMerchantKeyPair();
    expect(pair.bits).toBe(2048);
    expect(pair.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(pair.publicKeyFingerprint).toBe(publicKeyFingerprint(createPublicKey(pair.publicKeyPem)));
    const platform = makeCredentials();
    const text = pair.credentialsWith({ merchantId: 'M1', secret: 'issued-secret', platformPublicKey: platform.text.platformPublicKey });
    const keys = parseCredentials(text);
    expect(describeCredentials(keys).merchantPublicKeyFingerprint).toBe(pair.publicKeyFingerprint);
    const signature = createSign('sha256').update('register').sign(keys.merchantPrivateKey);
    expect(createVerify('sha256').update('register').verify(pair.publicKeyPem, signature)).toBe(true);
  });

  it('never shows the private key when printed or serialised', () => {
    const pair = generateMerchantKeyPair();
    const privateBody = pair.privateKeyPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const lines = pair.privateKeyPem.split('\n').filter((line) => line.length >= 40 && !line.startsWith('-----'));
    for (const rendering of [JSON.stringify(pair), inspect(pair, { showHidden: true }), String(pair), format('%o', pair), JSON.stringify({ ...pair })]) {
      expect(rendering.includes(privateBody) || lines.some((line) => rendering.includes(line)), rendering).toBe(false);
    }
    expect(JSON.parse(JSON.stringify(pair))).toMatchObject({ bits: 2048, publicKeyPem: pair.publicKeyPem });
  });

  it('refuses key sizes outside PROTOCOL §1.1', () => {
    expect(() => generateMerchantKeyPair(1024)).toThrow(RangeError);
    expect(() => generateMerchantKeyPair(8192)).toThrow(RangeError);
  });
});
