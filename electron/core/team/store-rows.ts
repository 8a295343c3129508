// The shared store's submission-claim, witness-request and head-ack rows as both backends read them, and their mapping
// to the interface's types: one mapping for both, so the backends cannot drift apart (chain rows use the local store's
// audit mapping, audit/audit-table.ts).
import type { SignedHeadAck } from '../ledger';
import type { SubmissionClaim, WitnessRequest } from './shared-store';

export interface ClaimDbRow {
  user_order: string;
  workstation: string;
  /** Epoch ms (each backend's query names its lease column so). */
  lease_until_ms: number;
  state: SubmissionClaim['state'];
  result: string | null;
}

export function toClaim(row: ClaimDbRow): SubmissionClaim {
  return { userOrder: row.user_order, workstation: row.workstation, leaseUntil: row.lease_until_ms, state: row.state, result: row.result };
}

/** A head ack as both backends read it (the interface's type; numbers may come as text from PostgreSQL's int8). */
export interface HeadAckDbRow {
  desk_id: string;
  workstation: string;
  seq: number | string;
  hash: string;
  nonce: string | null;
  at: number | string;
  key_id: string;
  signature: string;
}

export const HEAD_ACK_COLUMNS = 'desk_id, workstation, seq, hash, nonce, at, key_id, signature';

export function toHeadAck(row: HeadAckDbRow): SignedHeadAck {
  return { deskId: row.desk_id, workstation: row.workstation, seq: Number(row.seq), hash: row.hash, nonce: row.nonce, at: Number(row.at), keyId: row.key_id, signature: row.signature };
}

export interface WitnessRequestDbRow {
  id: number | string;
  nonce: string;
  workstation: string;
}

export function toWitnessRequest(row: WitnessRequestDbRow): WitnessRequest {
  return { id: Number(row.id), nonce: row.nonce, workstation: row.workstation };
}
