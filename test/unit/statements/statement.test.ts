// Signed statements and Ed25519 keys (core/statements/statement.ts, keys.ts): a statement verifies only with its
// signer's key over its exact canonical text (domain-separated), parseStatement refuses anything else, and keys
// and fingerprints have one readable form.
import { describe, expect, it } from 'vitest';
import {
  exportPrivateKey,
  generateSigningKey,
  importPrivateKey,
  importPublicKey,
  isReadableFingerprint,
  keyIdOf,
  publicKeyOfPrivate,
  readableFingerprint,
  signBytes,
  verifyBytes,
} from '../../../electron/core/statements/keys';
import {
  auditRowHash,
  canonicalHash,
  CHAIN_GENESIS,
  encodeStatement,
  isRosterKind,
  isStatementKind,
  isWithdrawalKind,
  parseStatement,
  signStatementText,
  STATEMENT_DOMAIN,
  verifyStatementText,
  type Statement,
} from '../../../electron/core/statements/statement';

const alice = generateSigningKey();
const mallory = generateSigningKey();
const alicePublic = importPublicKey(alice.publicKey);
if (!alicePublic) throw new Error('the generated public key does not import');

const statement: Statement = {
  v: 1,
  kind: 'approve',
  profile: 'main',
  subject: 'a'.repeat(64),
  body: { fingerprint: 'ABCD-EFGH-IJKL-MNOP', note: 'caf\u00e9' },
  operator: 'alice',
  keyId: alice.keyId,
  at: 1_800_000_000_000,
  seq: 12,
  prev: 'b'.repeat(64),
};

describe('signing and verifying statements', () => {
  it('verifies a statement with its signer’s key over its canonical text', () => {
    const text = encodeStatement(statement);
    const signature = signStatementText(alice.privateKey, text);
    expect(Buffer.from(signature, 'base64')).toHaveLength(64);
    expect(verifyStatementText(alicePublic, text, signature)).toBe(true);
  });

  it('fails for tampered text, another key, a damaged signature, or a signature made without the statement domain', () => {
    const text = encodeStatement(statement);
    const signature = signStatementText(alice.privateKey, text);
    const tampered = [
      encodeStatement({ ...statement, kind: 'reject' }),
      encodeStatement({ ...statement, subject: 'c'.repeat(64) }),
      encodeStatement({ ...statement, seq: 13 }),
      encodeStatement({ ...statement, prev: CHAIN_GENESIS }),
      encodeStatement({ ...statement, operator: 'bob' }),
      encodeStatement({ ...statement, body: { ...statement.body, note: 'cafe' } }),
      text.replace('"seq":12', '"seq":21'),
      `${text} `,
    ];
    for (const changed of tampered) expect(verifyStatementText(alicePublic, changed, signature), changed).toBe(false);
    const malloryPublic = importPublicKey(mallory.publicKey);
    if (!malloryPublic) throw new Error('no key');
    expect(verifyStatementText(malloryPublic, text, signature)).toBe(false);
    expect(verifyStatementText(alicePublic, text, signStatementText(mallory.privateKey, text))).toBe(false);
    const bytes = Buffer.from(signature, 'base64');
    bytes[10] = (bytes[10] ?? 0) ^ 1;
    expect(verifyStatementText(alicePublic, text, bytes.toString('base64'))).toBe(false);
    expect(verifyStatementText(alicePublic, text, signature.slice(0, 40))).toBe(false);
    expect(verifyStatementText(alicePublic, text, '')).toBe(false);
    // Domain separation: a signature over the bare text (or any other message) is not a statement signature.
    expect(verifyStatementText(alicePublic, text, signBytes(alice.privateKey, text))).toBe(false);
    expect(verifyBytes(alicePublic, STATEMENT_DOMAIN + text, signature)).toBe(true);
  });

  it('hashes an audit row over its text and signature, and any canonical value by its canonical text', () => {
    const text = encodeStatement(statement);
    const signature = signStatementText(alice.privateKey, text);
    const hash = auditRowHash(text, signature);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(auditRowHash(encodeStatement({ ...statement, seq: 13 }), signature)).not.toBe(hash);
    expect(auditRowHash(text, signStatementText(mallory.privateKey, text))).not.toBe(hash);
    expect(canonicalHash({ b: 1, a: 'x' })).toBe(canonicalHash({ a: 'x', b: 1 }));
    expect(canonicalHash({ a: 'x', b: 1 })).not.toBe(canonicalHash({ a: 'x', b: 2 }));
  });
});

describe('parseStatement', () => {
  it('returns the statement of canonical, well-formed text', () => {
    expect(parseStatement(encodeStatement(statement))).toEqual(statement);
    const system: Statement = { ...statement, kind: 'system', operator: null, profile: null, subject: '', body: { action: 'sync/run', details: {} } };
    expect(parseStatement(encodeStatement(system))).toEqual(system);
  });

  it('refuses text edited into anything else: non-canonical, missing or extra fields, wrong types or values', () => {
    const text = encodeStatement(statement);
    const reordered = JSON.stringify({ ...statement, v: undefined, kind: statement.kind }).replace('{', '{"v":1,');
    const variants: string[] = [
      text.replace('{"at"', '{ "at"'),
      reordered,
      text.replace('caf\u00e9', 'cafe\u0301'),
      encodeStatementLoose(Object.fromEntries(Object.entries(statement).filter(([key]) => key !== 'prev'))),
      encodeStatementLoose({ ...statement, extra: 1 }),
      encodeStatementLoose({ ...statement, v: 2 }),
      encodeStatementLoose({ ...statement, kind: 'transfer' }),
      encodeStatementLoose({ ...statement, profile: 7 }),
      encodeStatementLoose({ ...statement, subject: null }),
      encodeStatementLoose({ ...statement, body: [1] }),
      encodeStatementLoose({ ...statement, body: null }),
      encodeStatementLoose({ ...statement, operator: 3 }),
      encodeStatementLoose({ ...statement, keyId: null }),
      encodeStatementLoose({ ...statement, at: '1800000000000' }),
      encodeStatementLoose({ ...statement, seq: 0 }),
      encodeStatementLoose({ ...statement, prev: 'B'.repeat(64) }),
      encodeStatementLoose({ ...statement, prev: 'b'.repeat(63) }),
      '[]',
      'null',
      'not json',
    ];
    for (const variant of variants) expect(parseStatement(variant), variant).toBeNull();
  });

  it('can skip the canonical check for the linkage walk, which hashes the exact bytes anyway', () => {
    const spaced = encodeStatement(statement).replace('{"at"', '{ "at"');
    expect(parseStatement(spaced)).toBeNull();
    expect(parseStatement(spaced, { requireCanonical: false })).toEqual(statement);
    expect(parseStatement('{"at":', { requireCanonical: false })).toBeNull();
  });

  it('knows the kinds of statements', () => {
    expect(isStatementKind('approve')).toBe(true);
    expect(isStatementKind('transfer')).toBe(false);
    expect(isWithdrawalKind('submit')).toBe(true);
    expect(isWithdrawalKind('enrol')).toBe(false);
    expect(isRosterKind('confirm')).toBe(true);
    expect(isRosterKind('system')).toBe(false);
  });
});

describe('keys and fingerprints', () => {
  it('writes fingerprints as 4 groups of 4 base32 characters of the first 80 bits of SHA-256', () => {
    expect(readableFingerprint('')).toBe('4OYM-IQUY-7QOB-JGX3');
    expect(readableFingerprint('treasury desk')).toBe('QLFT-6NVA-JJJG-7DYN');
    expect(readableFingerprint(Buffer.from('treasury desk'))).toBe('QLFT-6NVA-JJJG-7DYN');
    expect(isReadableFingerprint('QLFT-6NVA-JJJG-7DYN')).toBe(true);
    for (const bad of ['qlft-6nva-jjjg-7dyn', 'QLFT6NVAJJJG7DYN', 'QLFT-6NVA-JJJG-7DY1', 'QLFT-6NVA-JJJG-7DYN-AAAA', '']) {
      expect(isReadableFingerprint(bad), bad).toBe(false);
    }
  });

  it('names a key by the fingerprint of its 32 raw public bytes, and round-trips private keys', () => {
    expect(Buffer.from(alice.publicKey, 'base64')).toHaveLength(32);
    expect(alice.keyId).toBe(keyIdOf(alice.publicKey));
    expect(isReadableFingerprint(alice.keyId)).toBe(true);
    expect(alice.keyId).not.toBe(mallory.keyId);
    expect(publicKeyOfPrivate(alice.privateKey)).toBe(alice.publicKey);
    const copy = importPrivateKey(exportPrivateKey(alice.privateKey));
    expect(publicKeyOfPrivate(copy)).toBe(alice.publicKey);
    expect(() => importPrivateKey(Buffer.from('not a key'))).toThrow();
  });

  it('imports only 32-byte public keys in canonical base64', () => {
    expect(importPublicKey(alice.publicKey)).not.toBeNull();
    const raw = Buffer.from(alice.publicKey, 'base64');
    expect(importPublicKey(raw.subarray(0, 31).toString('base64'))).toBeNull();
    expect(importPublicKey(Buffer.concat([raw, Buffer.from([0])]).toString('base64'))).toBeNull();
    expect(importPublicKey(alice.publicKey.replace(/=$/, ''))).toBeNull();
    expect(importPublicKey('')).toBeNull();
    expect(importPublicKey('not base64 at all!')).toBeNull();
  });
});

/** JSON text in canonical key order for values that are deliberately not Statements (to test the refusals). */
function encodeStatementLoose(value: Record<string, unknown>): string {
  const sorted = Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)));
  return JSON.stringify(sorted);
}
