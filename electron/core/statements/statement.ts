// Signed statements: the record of every decision and event of a desk (APPROVALS.md). A statement is
// `{v, kind, profile, subject, body, operator, keyId, at, seq, prev}` in canonical form (canonical.ts), signed with
// Ed25519 by the operator's key (or the desk's key for system events, operator = null) over a domain-separated
// message. `seq` and `prev` (the previous audit row's hash) are inside the signature, so a signed row cannot be
// moved, removed from the middle of the chain or replayed elsewhere without breaking a signature.
import { createHash, type KeyObject } from 'node:crypto';
import { encodeCanonical, parseCanonical, type CanonicalValue } from './canonical';
import { signBytes, verifyBytes } from './keys';

export const STATEMENT_VERSION = 1;
/** Prefix of the signed message: a signature made for a statement is never valid for anything else. */
export const STATEMENT_DOMAIN = 'treasury-desk/statement/v1\n';
/** Prefix of an audit row's hash input. */
export const AUDIT_ROW_DOMAIN = 'treasury-desk/audit/v2\n';
/** The `prev` of the first row of a chain. */
export const CHAIN_GENESIS = '0'.repeat(64);

/** Decisions about one withdrawal intent (subject = the intent's hash). */
export const WITHDRAWAL_KINDS = ['request', 'approve', 'reject', 'cancel', 'submit'] as const;
/**
 * Roster and policy statements (subject = the operator's name, the currency, or the founding's hash):
 * found (each founding admin signs the founding), enrol / rekey / role / disable / policy (an admin proposes),
 * accept (the invited operator, with their new key), confirm (a second, independent admin), withdraw-proposal;
 * book / unbook (an address-book addition, confirmed like a proposal, and a removal; subject = `chain:address`);
 * group (an admin proposes an approval group's whole member list; subject = the group's name);
 * radar-clear (an admin clears an address the poisoning radar flagged, confirmed like a proposal; subject = `chain:address`);
 * payees (1..N payees with their addresses, confirmed like `book`; subject = `payees`, the payees in the body).
 */
export const ROSTER_KINDS = ['found', 'enrol', 'rekey', 'role', 'disable', 'policy', 'accept', 'confirm', 'withdraw-proposal', 'book', 'unbook', 'profile-add', 'profile-remove', 'device', 'freeze', 'unfreeze', 'group', 'governance', 'veto', 'radar-clear', 'payees'] as const;
/** Other signed rows: an operator's audited action (`action`), a desk-key event (`system`), a re-sealed passphrase. */
export const OTHER_KINDS = ['action', 'system', 'passphrase'] as const;
export const STATEMENT_KINDS = [...WITHDRAWAL_KINDS, ...ROSTER_KINDS, ...OTHER_KINDS] as const;

export type WithdrawalKind = (typeof WITHDRAWAL_KINDS)[number];
export type RosterKind = (typeof ROSTER_KINDS)[number];
export type StatementKind = (typeof STATEMENT_KINDS)[number];

export type StatementBody = { readonly [key: string]: CanonicalValue };

export interface Statement {
  readonly v: number;
  readonly kind: StatementKind;
  /** The desk profile (merchant) it belongs to; null for desk-wide events. */
  readonly profile: string | null;
  readonly subject: string;
  readonly body: StatementBody;
  /** The signing operator's name; null when the desk key signed (system events). */
  readonly operator: string | null;
  readonly keyId: string;
  /** Epoch milliseconds, the signer's clock. */
  readonly at: number;
  readonly seq: number;
  readonly prev: string;
}

export function isStatementKind(value: string): value is StatementKind {
  return (STATEMENT_KINDS as readonly string[]).includes(value);
}

export function isWithdrawalKind(kind: StatementKind): kind is WithdrawalKind {
  return (WITHDRAWAL_KINDS as readonly string[]).includes(kind);
}

export function isRosterKind(kind: StatementKind): kind is RosterKind {
  return (ROSTER_KINDS as readonly string[]).includes(kind);
}

export function encodeStatement(statement: Statement): string {
  return encodeCanonical(statement);
}

/** Signs the canonical text of a statement. */
export function signStatementText(privateKey: KeyObject, text: string): string {
  return signBytes(privateKey, STATEMENT_DOMAIN + text);
}

export function verifyStatementText(publicKey: KeyObject, text: string, signature: string): boolean {
  return verifyBytes(publicKey, STATEMENT_DOMAIN + text, signature);
}

/** The hash of an audit row: SHA-256 (hex) over the domain, the statement text and its signature. */
export function auditRowHash(statementText: string, signature: string): string {
  return createHash('sha256').update(`${AUDIT_ROW_DOMAIN}${statementText}\n${signature}`, 'utf8').digest('hex');
}

/** SHA-256 (hex) of any canonical value: the id of an intent, a proposal, a founding. */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(encodeCanonical(value), 'utf8').digest('hex');
}

/**
 * Parses stored statement text back into a Statement, checking that it is canonical and well formed; null otherwise
 * (a row whose text was edited into something else is refused here before any signature is checked). The chain
 * linkage walk passes `requireCanonical: false`: it only needs seq and prev, and the hash it checks covers the exact
 * bytes, so re-encoding every row there would triple its cost for nothing; full verification keeps the check.
 */
export function parseStatement(text: string, options: { readonly requireCanonical?: boolean } = {}): Statement | null {
  let value: CanonicalValue | null;
  if (options.requireCanonical === false) {
    try {
      value = JSON.parse(text) as CanonicalValue;
    } catch {
      return null;
    }
  } else value = parseCanonical(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const s = value as Record<string, CanonicalValue>;
  const keys = Object.keys(s).sort().join(',');
  if (keys !== 'at,body,keyId,kind,operator,prev,profile,seq,subject,v') return null;
  if (s['v'] !== STATEMENT_VERSION) return null;
  if (typeof s['kind'] !== 'string' || !isStatementKind(s['kind'])) return null;
  if (s['profile'] !== null && typeof s['profile'] !== 'string') return null;
  if (typeof s['subject'] !== 'string') return null;
  if (s['body'] === null || typeof s['body'] !== 'object' || Array.isArray(s['body'])) return null;
  if (s['operator'] !== null && typeof s['operator'] !== 'string') return null;
  if (typeof s['keyId'] !== 'string' || typeof s['at'] !== 'number' || typeof s['seq'] !== 'number' || typeof s['prev'] !== 'string') return null;
  if (!/^[0-9a-f]{64}$/.test(s['prev']) || s['seq'] < 1) return null;
  return value as unknown as Statement;
}
