// A team workstation's signed head acknowledgement: "I, workstation W of desk D, verified the chain up to row seq with
// this hash", signed by W's desk key under its own domain (never confusable with a statement or a checkpoint), bound to
// a witness request's nonce when it answers one. Invariant: an ack counts only when it verifies against the desk key the
// verified chain enrolled for W (never a key read from a table).
import { encodeCanonical } from './canonical';
import { importPublicKey, keyIdOf, verifyBytes } from './keys';

export const HEAD_ACK_DOMAIN = 'treasury-desk/head-ack/v1\n';

/** What a workstation signs. `nonce` is the witness request's (null: an ack nobody asked for, e.g. at start). */
export interface HeadAck {
  readonly deskId: string;
  readonly workstation: string;
  readonly seq: number;
  readonly hash: string;
  readonly nonce: string | null;
  /** Epoch ms on the signer's clock. */
  readonly at: number;
}

/** An ack as the team database keeps it: the signed fields, the signing key's id and the signature. */
export interface SignedHeadAck extends HeadAck {
  readonly keyId: string;
  readonly signature: string;
}

/** The exact text the desk key signs: the domain, then the canonical encoding of the ack's fields. */
export function headAckMessage(ack: HeadAck): string {
  return HEAD_ACK_DOMAIN + encodeCanonical({ v: 1, deskId: ack.deskId, workstation: ack.workstation, seq: ack.seq, hash: ack.hash, nonce: ack.nonce, at: ack.at });
}

/** Whether the ack was signed by `publicKey` (the enrolled desk key of ack.workstation) exactly as it reads. */
export function headAckVerifies(ack: SignedHeadAck, publicKey: string): boolean {
  const key = importPublicKey(publicKey);
  if (key === null || ack.keyId !== keyIdOf(publicKey)) return false;
  try {
    return verifyBytes(key, headAckMessage(ack), ack.signature);
  } catch {
    return false;
  }
}
