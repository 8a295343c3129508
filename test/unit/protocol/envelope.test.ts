// Proves the response envelope of PROTOCOL §5.2: strict parsing, '\/' escaping, and §3.3 signing over DATA as parsed.
import type { KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptJson, encryptJson } from '../../../electron/protocol/cipher';
import { failureEnvelope, parseEnvelope, successEnvelope, toEscapedJson } from '../../../electron/protocol/envelope';
import { parsePrivateKey, parsePublicKey } from '../../../electron/protocol/keys';
import { signingInput, signText, verifyText } from '../../../electron/protocol/signature';
import { generateOpensslRsaKey, makeTempDir, opensslVerify, type OpensslRsaKey, type TempDir } from '../../support/openssl';

let dir: TempDir;
let platform: OpensslRsaKey;
let merchant: OpensslRsaKey;
let platformPrivate: KeyObject;
let platformPublic: KeyObject;
let merchantPublic: KeyObject;
let merchantPrivate: KeyObject;

beforeAll(() => {
  dir = makeTempDir();
  platform = generateOpensslRsaKey(dir, 'platform', 2048);
  merchant = generateOpensslRsaKey(dir, 'merchant', 2048);
  platformPrivate = parsePrivateKey(platform.pkcs8Pem);
  platformPublic = parsePublicKey(platform.spkiPem);
  merchantPublic = parsePublicKey(merchant.spkiPem);
  merchantPrivate = parsePrivateKey(merchant.pkcs1PrivatePem);
}, 60_000);

afterAll(() => dir.remove());

function refused(text: string): string {
  const result = parseEnvelope(text);
  if (result.ok) throw new Error(`accepted: ${text}`);
  return result.reason;
}

describe('strict parsing', () => {
  it('accepts exactly {code: 10000 | 9999, data: string, message: string}, in any key order', () => {
    expect(parseEnvelope('{"code":10000,"data":"abc","message":"success"}')).toEqual({
      ok: true,
      envelope: { code: 10000, data: 'abc', message: 'success' },
    });
    expect(parseEnvelope(' {"message":"paramError","data":"","code":9999}\n')).toEqual({
      ok: true,
      envelope: { code: 9999, data: '', message: 'paramError' },
    });
    expect(parseEnvelope('{"code":1e4,"data":"","message":""}')).toMatchObject({ ok: true });
  });

  it.each([
    ['an extra field', '{"code":10000,"data":"","message":"success","extra":1}', 'expected exactly code, data, message'],
    ['a missing field', '{"code":10000,"data":""}', 'expected exactly code, data, message'],
    ['no fields', '{}', 'expected exactly code, data, message'],
    ['a misspelt field', '{"code":10000,"Data":"","message":""}', 'expected exactly'],
    ['code as a string', '{"code":"10000","data":"","message":""}', 'code is not an integer'],
    ['code null', '{"code":null,"data":"","message":""}', 'code is not an integer'],
    ['a non-integer code', '{"code":10000.5,"data":"","message":""}', 'code is not an integer'],
    ['an unknown code', '{"code":200,"data":"","message":""}', 'neither 10000 nor 9999'],
    ['a negative code', '{"code":-9999,"data":"","message":""}', 'neither 10000 nor 9999'],
    ['data as an object', '{"code":10000,"data":{"a":1},"message":""}', 'data is not a string'],
    ['data null', '{"code":9999,"data":null,"message":"x"}', 'data is not a string'],
    ['message as a number', '{"code":9999,"data":"","message":5}', 'message is not a string'],
    ['an array', '[10000,"",""]', 'not a JSON object'],
    ['null', 'null', 'not a JSON object'],
    ['a string', '"ok"', 'not a JSON object'],
    ['a number', '10000', 'not a JSON object'],
    ['not JSON', 'Oops', 'not JSON'],
    ['empty', '', 'not JSON'],
    ['a BOM before the object', '\uFEFF{"code":10000,"data":"","message":""}', 'not JSON'],
    ['trailing text', '{"code":10000,"data":"","message":""} x', 'not JSON'],
  ])('refuses %s', (_name, text, reason) => {
    expect(refused(text)).toContain(reason);
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.json({ maxDepth: 2 }),
          // near-envelopes: each field present or not, right or wrong type
          fc
            .record(
              {
                code: fc.oneof(fc.constantFrom(10000, 9999), fc.jsonValue({ maxDepth: 1 })),
                data: fc.jsonValue({ maxDepth: 1 }),
                message: fc.jsonValue({ maxDepth: 1 }),
              },
              { requiredKeys: [] },
            )
            .map((value) => JSON.stringify(value)),
        ),
        (text) => {
          const result = parseEnvelope(text);
          if (result.ok) {
            expect(Object.keys(result.envelope).sort()).toEqual(['code', 'data', 'message']);
          } else {
            expect(typeof result.reason).toBe('string');
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('success and failure envelopes have the §5.2 shape (failures carry data "")', () => {
    expect(successEnvelope('x')).toEqual({ code: 10000, data: 'x', message: 'success' });
    expect(failureEnvelope('paramError')).toEqual({ code: 9999, data: '', message: 'paramError' });
  });
});

describe('toEscapedJson (§5.2: every "/" written as "\\/")', () => {
  it('writes no bare "/" and JSON.parse restores the value', () => {
    const value = { data: 'ab/cd//e', message: 'a/b', nested: ['/', { 'k/ey': '\\/' }], url: 'https://x.example/path' };
    const text = toEscapedJson(value);
    expect(text).not.toMatch(/(^|[^\\])\//);
    expect(text.match(/\\\//g)).toHaveLength(10);
    expect(text).toContain('"https:\\/\\/x.example\\/path"');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('property: for any JSON value, every "/" is escaped and parsing gives the value back', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: fc.constantFrom('/', '\\', '"', 'a', 'é', '😀', '\n', 'u') }), (value) => {
        const text = toEscapedJson(value);
        const bareSlashes = text.replace(/\\\\/g, '').replace(/\\\//g, '');
        expect(bareSlashes).not.toContain('/');
        expect(JSON.stringify(JSON.parse(text))).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });
});

describe('§3.3: responses are signed over DATA as parsed, after "\\/" is restored', () => {
  it('a response built like the server\'s verifies over the parsed data, not over the escaped text', () => {
    // find a ciphertext that contains '/', so the escaping matters
    let data = '';
    while (!data.includes('/')) data = encryptJson({ address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', userOrder: 'o/1' }, merchantPublic);
    const timestamp = '1700000000';
    const nonce = 'f'.repeat(32);
    const signature = signText(signingInput(timestamp, nonce, data), platformPrivate);
    const body = toEscapedJson(successEnvelope(data));
    expect(body).toContain('\\/');
    expect(body).not.toContain(data); // the raw body holds the escaped form only

    const parsed = parseEnvelope(body);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.envelope.data).toBe(data);
    expect(verifyText(signingInput(timestamp, nonce, parsed.envelope.data), signature, platformPublic)).toBe(true);
    // a client that signs the escaped text from the body would fail
    const escapedData = /"data":"([^"]*)"/.exec(body)?.[1] ?? '';
    expect(escapedData).toContain('\\/');
    expect(verifyText(signingInput(timestamp, nonce, escapedData), signature, platformPublic)).toBe(false);
    // openssl agrees on what was signed
    expect(opensslVerify(dir, signingInput(timestamp, nonce, parsed.envelope.data), signature, platform.spkiPemPath)).toBe(true);
    expect(opensslVerify(dir, signingInput(timestamp, nonce, escapedData), signature, platform.spkiPemPath)).toBe(false);
    expect(decryptJson(parsed.envelope.data, merchantPrivate)).toEqual({ address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', userOrder: 'o/1' });
  });

  it('a failure envelope signs DATA = ""', () => {
    const timestamp = '1700000000';
    const nonce = 'A'.repeat(16);
    const signature = signText(signingInput(timestamp, nonce, ''), platformPrivate);
    const parsed = parseEnvelope(toEscapedJson(failureEnvelope('signatureFailed')));
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.envelope.data).toBe('');
    expect(verifyText(`${timestamp}\n${nonce}\n`, signature, platformPublic)).toBe(true);
    expect(verifyText(signingInput(timestamp, nonce, parsed.envelope.data), signature, platformPublic)).toBe(true);
  });
});
