// tools/verify-auditor-pack.mjs against the app's own code: its canonical text, hashes, key ids and signature checks
// equal the app's (core/statements) for a few statements, its decimals are exact, and over a small chain signed here
// with generated keys it passes a withdrawal approved by an independent admin and fails, naming the withdrawal, one
// submitted without an approval or approved only by its initiator.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeCanonical } from '../../../electron/core/statements/canonical';
import { auditRowHash, CHAIN_GENESIS, canonicalHash, encodeStatement, signStatementText, STATEMENT_DOMAIN, type Statement, type StatementKind } from '../../../electron/core/statements/statement';
import { generateSigningKey, keyIdOf, readableFingerprint, signBytes, type SigningKeyPair } from '../../../electron/core/statements/keys';
import { intentFingerprint, intentHash, type WithdrawalIntent } from '../../../electron/core/statements/intent';
import { CHECKPOINT_DOMAIN } from '../../../electron/core/audit/trail';

interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

interface Verifier {
  encodeCanonical(value: unknown): string;
  canonicalHash(value: unknown): string;
  auditRowHash(text: string, signature: string): string;
  keyIdOf(publicKey: string): string;
  readableFingerprint(bytes: Uint8Array | string): string;
  signatureHolds(publicKey: string, message: string, signature: string): boolean;
  parseDecimal(text: string): Decimal;
  addDecimal(a: Decimal, b: Decimal): Decimal;
  decimalEquals(a: Decimal, b: Decimal): boolean;
  formatDecimal(value: Decimal): string;
  verifyPack(pack: unknown, say?: (line: string) => void): { rows: number; withdrawals: number };
}

let verifier: Verifier;
beforeAll(async () => {
  verifier = (await import(pathToFileURL(join(__dirname, '../../../tools/verify-auditor-pack.mjs')).href)) as Verifier;
});

const SAMPLES: readonly Record<string, unknown>[] = [
  { v: 1, kind: 'approve', profile: 'main', subject: 'a'.repeat(64), body: { fingerprint: 'ABCD-EFGH-IJKL-MNOP' }, operator: 'bob', keyId: 'K', at: 1_700_000_000_000, seq: 7, prev: CHAIN_GENESIS },
  { v: 1, kind: 'system', profile: null, subject: 'Zürich', body: { details: { 'é': 'e\u0301', z: [1, { y: null, x: true }], B: -3 }, action: 'x/y' }, operator: null, keyId: 'K', at: 1, seq: 1, prev: CHAIN_GENESIS },
  { v: 1, kind: 'action', profile: 'main', subject: '😀 emoji \u202e bidi', body: { '\u00e9': 1, e: 2, E: 3, '': 'empty' }, operator: 'carol', keyId: 'K', at: 2, seq: 2, prev: 'f'.repeat(64) },
];

describe('the verifier re-implements the app exactly', () => {
  it('gives the same canonical text, canonical hash and row hash as the app for each statement', () => {
    for (const sample of SAMPLES) {
      expect(verifier.encodeCanonical(sample)).toBe(encodeCanonical(sample));
      expect(verifier.canonicalHash(sample)).toBe(canonicalHash(sample));
      const text = encodeStatement(sample as unknown as Statement);
      expect(verifier.auditRowHash(text, 'c2ln')).toBe(auditRowHash(text, 'c2ln'));
    }
  });

  it('gives the same key ids and fingerprints, and holds exactly the app-made signatures', () => {
    const key = generateSigningKey();
    expect(verifier.keyIdOf(key.publicKey)).toBe(keyIdOf(key.publicKey));
    expect(verifier.readableFingerprint('some text')).toBe(readableFingerprint('some text'));
    const text = encodeStatement(SAMPLES[0] as unknown as Statement);
    const signature = signStatementText(key.privateKey, text);
    expect(verifier.signatureHolds(key.publicKey, STATEMENT_DOMAIN + text, signature)).toBe(true);
    expect(verifier.signatureHolds(key.publicKey, STATEMENT_DOMAIN + text.replace('bob', 'eve'), signature)).toBe(false);
    expect(verifier.signatureHolds(generateSigningKey().publicKey, STATEMENT_DOMAIN + text, signature)).toBe(false);
  });

  it('adds and compares decimals exactly, with no float in between', () => {
    const { parseDecimal, addDecimal, decimalEquals, formatDecimal } = verifier;
    expect(formatDecimal(addDecimal(parseDecimal('0.1'), parseDecimal('0.2')))).toBe('0.3');
    expect(decimalEquals(parseDecimal('12.50'), parseDecimal('12.5'))).toBe(true);
    expect(decimalEquals(parseDecimal('9007199254740993.000001'), parseDecimal('9007199254740993.000002'))).toBe(false);
    expect(formatDecimal(addDecimal(parseDecimal('-0.5'), parseDecimal('0.25')))).toBe('-0.25');
    expect(() => parseDecimal('1e3')).toThrow(/not a decimal amount/);
  });
});

describe('four-eyes over a chain signed here', () => {
  const FROM = 1_800_000_000_000;
  const desk = generateSigningKey();
  const alice = generateSigningKey();
  const frank = generateSigningKey();

  interface Draft {
    readonly kind: StatementKind;
    readonly subject: string;
    readonly body: Record<string, unknown>;
    readonly operator: string | null;
    readonly key: SigningKeyPair;
  }

  function intentOf(amount: string, userOrder: string): WithdrawalIntent {
    return { v: 1, merchantId: 'm-1', currency: 'trx.usdt', amount, toAddress: 'TXYZ', withdrawType: 'normal', userOrder, memo: null, requiredApprovals: 1, policy: 'default', requestedAt: FROM };
  }

  /** A pack of the drafts as a chain (founded by alice and frank), its checkpoint and a statement sending `sent` from 100. */
  function packOf(decisions: readonly Draft[], sent: string, closing = '87.5'): unknown {
    const admins = [
      { name: 'alice', publicKey: alice.publicKey },
      { name: 'frank', publicKey: frank.publicKey },
    ];
    const founding = { admins, deskKey: { publicKey: desk.publicKey } };
    const drafts: Draft[] = [
      { kind: 'found', subject: canonicalHash(founding), body: founding, operator: 'alice', key: alice },
      { kind: 'found', subject: canonicalHash(founding), body: founding, operator: 'frank', key: frank },
      ...decisions,
    ];
    let prev = CHAIN_GENESIS;
    const chain = drafts.map((draft, index) => {
      const statement = { v: 1, kind: draft.kind, profile: 'main', subject: draft.subject, body: draft.body, operator: draft.operator, keyId: draft.key.keyId, at: FROM + index, seq: index + 1, prev };
      const text = encodeCanonical(statement);
      const signature = signStatementText(draft.key.privateKey, text);
      const hash = auditRowHash(text, signature);
      prev = hash;
      return { seq: index + 1, statement: text, signature, hash };
    });
    const head = chain.at(-1)!;
    const checkpoint = { v: 1, deskId: 'desk-1', seq: head.seq, headHash: head.hash, at: FROM + 100, publicKey: desk.publicKey };
    return {
      format: 'treasury-desk/auditor-pack',
      version: 1,
      deskId: 'desk-1',
      profile: 'main',
      generatedAt: FROM + 100,
      statement: {
        profile: 'main',
        from: FROM,
        to: FROM + 3_600_000,
        timeZone: 'UTC',
        generatedAt: FROM + 100,
        currencies: [
          {
            currency: 'trx.usdt',
            opening: { available: '100' },
            closing: { available: closing },
            startsLate: false,
            deposits: { count: 0, amount: '0' },
            depositFees: '0',
            withdrawals: { count: sent === '0' ? 0 : 1, amount: sent },
            withdrawalFees: '0',
            refunds: { count: 0, amount: '0' },
            unexplained: '0',
          },
        ],
        findings: [],
        unexplainedFindings: 0,
        auditHead: null,
      },
      chain,
      deskKeys: [{ keyId: desk.keyId, publicKey: desk.publicKey, namedBy: null }],
      operators: [],
      checkpoint: { checkpoint, signature: signBytes(desk.privateKey, CHECKPOINT_DOMAIN + encodeCanonical(checkpoint)) },
      auditHead: { seq: head.seq, hash: head.hash, fingerprint: readableFingerprint(Buffer.from(head.hash, 'hex')) },
    };
  }

  function decisionsOf(intent: WithdrawalIntent, approvers: readonly { name: string; key: SigningKeyPair }[]): Draft[] {
    const subject = intentHash(intent);
    const fingerprint = intentFingerprint(intent);
    return [
      { kind: 'request', subject, body: { intent }, operator: 'alice', key: alice },
      ...approvers.map((approver): Draft => ({ kind: 'approve', subject, body: { fingerprint }, operator: approver.name, key: approver.key })),
      { kind: 'submit', subject, body: { fingerprint }, operator: 'alice', key: alice },
    ];
  }

  it('passes a withdrawal approved by an admin independent of its initiator', () => {
    const lines: string[] = [];
    expect(verifier.verifyPack(packOf(decisionsOf(intentOf('12.5', 'u-1'), [{ name: 'frank', key: frank }]), '12.5'), (line) => lines.push(line))).toEqual({ rows: 5, withdrawals: 1 });
    expect(lines.join('\n')).toContain('four-eyes: 1 withdrawal sent in the period');
  });

  it('fails a withdrawal submitted without an approval, or approved by its initiator alone, naming it', () => {
    expect(() => verifier.verifyPack(packOf(decisionsOf(intentOf('12.5', 'u-2'), []), '12.5'))).toThrow(/^withdrawal u-2 \(request row 3\): submitted at row 4 with 0 independent approvals of the 1 required/);
    expect(() => verifier.verifyPack(packOf(decisionsOf(intentOf('12.5', 'u-3'), [{ name: 'alice', key: alice }]), '12.5'))).toThrow(/^withdrawal u-3 \(request row 3\): submitted at row 5 with 0 independent approvals/);
  });

  it('fails a withdrawal rejected before its submit, and lets a cancel after the submit stand', () => {
    const intent = intentOf('12.5', 'u-6');
    const [request, approval, submit] = decisionsOf(intent, [{ name: 'frank', key: frank }]) as [Draft, Draft, Draft];
    const rejection: Draft = { kind: 'reject', subject: request.subject, body: { fingerprint: intentFingerprint(intent) }, operator: 'frank', key: frank };
    expect(() => verifier.verifyPack(packOf([request, approval, rejection, submit], '12.5'))).toThrow(/^withdrawal u-6 \(request row 3\): frank rejected it at row 5/);
    const lateCancel: Draft = { kind: 'cancel', subject: request.subject, body: {}, operator: 'alice', key: alice };
    expect(verifier.verifyPack(packOf([request, approval, submit, lateCancel], '12.5'))).toEqual({ rows: 6, withdrawals: 1 });
  });

  it('fails a statement whose withdrawals are not the signed ones', () => {
    expect(() => verifier.verifyPack(packOf(decisionsOf(intentOf('12.5', 'u-4'), [{ name: 'frank', key: frank }]), '12.500001'))).toThrow(
      /^statement trx\.usdt withdrawals: the statement says 1 for 12\.500001; the verified rows sent 1 for 12\.5/,
    );
  });

  it('fails a row signed by a key the roster never gave its signer', () => {
    const intruder = generateSigningKey();
    expect(() => verifier.verifyPack(packOf(decisionsOf(intentOf('12.5', 'u-5'), [{ name: 'frank', key: intruder }]), '12.5'))).toThrow(/^audit row 4: signed by frank with key .*not frank's key in force/);
  });
});
