// The withdrawal intent (core/statements/intent.ts): its fingerprint is 4×4 base32 characters, the same for equal
// intents however they were built, different when any field changes; the order's remark carries it before the memo.
import { base32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { REMARK_MAX_LENGTH } from '../../../electron/protocol/profile';
import { readableFingerprint } from '../../../electron/core/statements/keys';
import { encodeCanonical } from '../../../electron/core/statements/canonical';
import {
  DEFAULT_POLICY_REFERENCE,
  encodeIntent,
  intentFingerprint,
  intentHash,
  MEMO_MAX_LENGTH,
  remarkFor,
  type WithdrawalIntent,
} from '../../../electron/core/statements/intent';

const intent: WithdrawalIntent = {
  v: 1,
  merchantId: 'M-1001',
  currency: 'trx.usdt',
  amount: '1250.50',
  toAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  withdrawType: 'normal',
  userOrder: 'td-20261123-0123456789abcdef01234567',
  memo: 'supplier invoice 77',
  requiredApprovals: 2,
  policy: DEFAULT_POLICY_REFERENCE,
  requestedAt: 1_800_000_000_000,
};

const FINGERPRINT = /^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/;

describe('intent fingerprint', () => {
  it('is 4 groups of 4 base32 characters: the first 80 bits of SHA-256 over the canonical intent', () => {
    const fingerprint = intentFingerprint(intent);
    expect(fingerprint).toMatch(FINGERPRINT);
    expect(fingerprint).toBe(readableFingerprint(encodeIntent(intent)));
    expect(encodeIntent(intent)).toBe(encodeCanonical(intent));
    expect(intentHash(intent)).toMatch(/^[0-9a-f]{64}$/);
    // The fingerprint is the first 80 bits of the same digest as the hash, in RFC 4648 base32.
    const code = base32.encode(Buffer.from(intentHash(intent), 'hex').subarray(0, 10));
    expect(fingerprint).toBe(code.match(/.{4}/g)?.join('-'));
  });

  it('is stable for equal intents: key order and Unicode composition of the memo do not matter', () => {
    const reordered = Object.fromEntries(Object.entries(intent).reverse()) as unknown as WithdrawalIntent;
    expect(intentFingerprint(reordered)).toBe(intentFingerprint(intent));
    expect(intentHash(reordered)).toBe(intentHash(intent));
    const composed = { ...intent, memo: 'caf\u00e9 invoice' };
    const decomposed = { ...intent, memo: 'cafe\u0301 invoice' };
    expect(intentFingerprint(decomposed)).toBe(intentFingerprint(composed));
    expect(intentFingerprint(JSON.parse(JSON.stringify(intent)) as WithdrawalIntent)).toBe(intentFingerprint(intent));
  });

  it('differs when any single field changes', () => {
    const changes: Partial<Record<keyof WithdrawalIntent, unknown>> = {
      v: 2,
      merchantId: 'M-1002',
      currency: 'trx',
      amount: '1250.51',
      toAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSF',
      withdrawType: 'financialConfirmation',
      userOrder: 'td-20261123-0123456789abcdef01234568',
      memo: null,
      requiredApprovals: 1,
      policy: 'c'.repeat(64),
      requestedAt: 1_800_000_000_001,
    };
    expect(Object.keys(changes).sort()).toEqual(Object.keys(intent).sort());
    const seen = new Set([intentFingerprint(intent)]);
    for (const [field, value] of Object.entries(changes)) {
      const changed = { ...intent, [field]: value } as WithdrawalIntent;
      expect(intentFingerprint(changed), field).not.toBe(intentFingerprint(intent));
      expect(intentHash(changed), field).not.toBe(intentHash(intent));
      seen.add(intentFingerprint(changed));
    }
    expect(seen.size).toBe(Object.keys(changes).length + 1);
    // Money is the decimal string that is sent: '1250.5' is another intent than '1250.50'.
    expect(intentFingerprint({ ...intent, amount: '1250.5' })).not.toBe(intentFingerprint(intent));
  });

  it('cannot be computed for an intent with a float amount or an undefined field', () => {
    expect(() => intentFingerprint({ ...intent, requiredApprovals: 1.5 })).toThrow(/safe integers/);
    expect(() => intentFingerprint({ ...intent, memo: undefined } as unknown as WithdrawalIntent)).toThrow(/undefined/);
  });
});

describe('the order remark', () => {
  it('carries "TD <fingerprint>", then the memo when there is one', () => {
    expect(remarkFor(intent)).toBe(`TD ${intentFingerprint(intent)} supplier invoice 77`);
    expect(remarkFor({ ...intent, memo: null })).toBe(`TD ${intentFingerprint({ ...intent, memo: null })}`);
    expect(remarkFor({ ...intent, memo: '' })).toBe(`TD ${intentFingerprint({ ...intent, memo: '' })}`);
  });

  it('fits PROTOCOL §8 with the longest memo the contract accepts', () => {
    const longest = { ...intent, memo: 'm'.repeat(MEMO_MAX_LENGTH) };
    expect(remarkFor(longest).length).toBeLessThanOrEqual(REMARK_MAX_LENGTH);
  });
});
