// A head acknowledgement verifies only against the desk key that signed it, exactly as signed, under its own domain:
// an edited field, another key, a reused checkpoint or statement signature, or a mismatching key id never counts.
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_DOMAIN } from '../../../electron/core/audit/trail';
import { encodeCanonical } from '../../../electron/core/statements/canonical';
import { generateSigningKey, keyIdOf, signBytes } from '../../../electron/core/statements/keys';
import { headAckMessage, headAckVerifies, type HeadAck, type SignedHeadAck } from '../../../electron/core/statements/head-ack';

const ack: HeadAck = { deskId: 'd'.repeat(32), workstation: 'front-office', seq: 412, hash: 'a'.repeat(64), nonce: '0123456789abcdef0123456789abcdef', at: 1_800_000_000_000 };

function signed(by = generateSigningKey(), fields: HeadAck = ack): { key: ReturnType<typeof generateSigningKey>; ack: SignedHeadAck } {
  return { key: by, ack: { ...fields, keyId: keyIdOf(by.publicKey), signature: signBytes(by.privateKey, headAckMessage(fields)) } };
}

describe('head acknowledgements', () => {
  it('verify against the signing desk key, and not once any signed field changes', () => {
    const { key, ack: good } = signed();
    expect(headAckVerifies(good, key.publicKey)).toBe(true);
    for (const change of [{ seq: 413 }, { hash: 'b'.repeat(64) }, { nonce: null }, { workstation: 'laptop-bob' }, { deskId: 'e'.repeat(32) }, { at: ack.at + 1 }]) {
      expect(headAckVerifies({ ...good, ...change }, key.publicKey), JSON.stringify(change)).toBe(false);
    }
  });

  it("do not verify against another workstation's key, nor with a key id that is not the key's", () => {
    const { ack: good } = signed();
    const other = generateSigningKey();
    expect(headAckVerifies(good, other.publicKey)).toBe(false);
    const { key, ack: mine } = signed(other);
    expect(headAckVerifies({ ...mine, keyId: 'someone-else' }, key.publicKey)).toBe(false);
    expect(headAckVerifies({ ...mine, signature: 'not base64 at all' }, key.publicKey)).toBe(false);
  });

  it('are domain-separated: a checkpoint signature over the same fields is not an ack', () => {
    const key = generateSigningKey();
    const asCheckpoint = signBytes(key.privateKey, CHECKPOINT_DOMAIN + encodeCanonical({ v: 1, deskId: ack.deskId, workstation: ack.workstation, seq: ack.seq, hash: ack.hash, nonce: ack.nonce, at: ack.at }));
    expect(headAckVerifies({ ...ack, keyId: keyIdOf(key.publicKey), signature: asCheckpoint }, key.publicKey)).toBe(false);
    expect(headAckMessage(ack).startsWith('treasury-desk/head-ack/v1\n')).toBe(true);
  });
});
