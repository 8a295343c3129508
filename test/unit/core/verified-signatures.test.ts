// The verified-signature and parsed-statement caches (issue 20's benchmark): a row altered after it verified (its text, its signature or the key) is verified afresh and refused, never served from the cache.
import { beforeEach, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../../electron/core/statements/keys';
import { auditRowHash, encodeStatement, signStatementText, type Statement } from '../../../electron/core/statements/statement';
import { parsedStatement, resetSignatureCache, signatureCacheStats, signatureHolds } from '../../../electron/core/statements/verified-signatures';

function statement(amount: string): Statement {
  return {
    v: 1,
    kind: 'request',
    profile: 'main',
    subject: 'a'.repeat(64),
    body: { intent: { amount, currency: 'trx.usdt' } },
    operator: 'carol',
    keyId: 'K',
    at: 1_700_000_000_000,
    seq: 7,
    prev: 'b'.repeat(64),
  };
}

describe('the verified-signature cache', () => {
  beforeEach(resetSignatureCache);
  const pair = generateSigningKey();
  const text = encodeStatement(statement('25'));
  const signature = signStatementText(pair.privateKey, text);
  const row = { hash: auditRowHash(text, signature), text, signature };

  it('verifies a row once, then serves the same row from the cache', () => {
    expect(signatureHolds(pair.publicKey, row)).toBe(true);
    expect(signatureHolds(pair.publicKey, row)).toBe(true);
    expect(signatureCacheStats()).toMatchObject({ hits: 1, misses: 1, size: 1 });
  });

  it('refuses a row whose text was altered under the same hash and signature, though its original verified before', () => {
    expect(signatureHolds(pair.publicKey, row)).toBe(true);
    const tampered = { ...row, text: encodeStatement(statement('2500')) };
    expect(signatureHolds(pair.publicKey, tampered)).toBe(false);
    expect(signatureCacheStats()).toMatchObject({ hits: 0, misses: 2 });
    // The original still verifies; the tampered one is not remembered.
    expect(signatureHolds(pair.publicKey, row)).toBe(true);
    expect(signatureHolds(pair.publicKey, tampered)).toBe(false);
  });

  it('refuses the same row under another key, and a changed signature', () => {
    expect(signatureHolds(pair.publicKey, row)).toBe(true);
    expect(signatureHolds(generateSigningKey().publicKey, row)).toBe(false);
    expect(signatureHolds(pair.publicKey, { ...row, signature: signStatementText(generateSigningKey().privateKey, text) })).toBe(false);
  });

  it('parses a row again when its text changed under the same hash', () => {
    expect(parsedStatement(row)?.body).toEqual({ intent: { amount: '25', currency: 'trx.usdt' } });
    const tampered = { ...row, text: encodeStatement(statement('2500')) };
    expect(parsedStatement(tampered)?.body).toEqual({ intent: { amount: '2500', currency: 'trx.usdt' } });
  });
});
