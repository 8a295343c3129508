// The shared store's table rows as both backends read them (PostgreSQL answers int8 columns as text, SQLite as
// numbers), and their mapping to the interface's types: one mapping for both, so the backends cannot drift apart.
import type { SharedChainRow, SubmissionClaim } from './shared-store';

/** The chain columns, in the order both backends' audit_log tables declare them. */
export const CHAIN_COLUMNS = 'seq, at, profile, kind, action, operator, subject, key_id, statement, signature, prev_hash, hash';

export interface ChainDbRow {
  seq: string | number;
  at: string | number;
  profile: string | null;
  kind: string;
  action: string;
  operator: string | null;
  subject: string;
  key_id: string;
  statement: string;
  signature: string;
  prev_hash: string;
  hash: string;
}

export interface ClaimDbRow {
  user_order: string;
  workstation: string;
  /** Epoch ms (each backend's query names its lease column so). */
  lease_until_ms: number;
  state: SubmissionClaim['state'];
  result: string | null;
}

export function toChainRow(row: ChainDbRow): SharedChainRow {
  return {
    seq: Number(row.seq),
    at: Number(row.at),
    profile: row.profile,
    kind: row.kind,
    action: row.action,
    operator: row.operator,
    subject: row.subject,
    keyId: row.key_id,
    statement: row.statement,
    signature: row.signature,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

export function toClaim(row: ClaimDbRow): SubmissionClaim {
  return { userOrder: row.user_order, workstation: row.workstation, leaseUntil: row.lease_until_ms, state: row.state, result: row.result };
}
