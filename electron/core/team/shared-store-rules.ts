// The rules both shared-store backends apply before touching their database: argument checks (a refusal changes
// nothing), the chain-extension check of an append, and the claim decision (who gets a submission claim).
import {
  MAX_CHAIN_PAGE,
  MAX_PROJECTION_KEY_LENGTH,
  MAX_PROJECTION_PAGE,
  PROJECTION_TABLES,
  SharedStoreError,
  type ChainHead,
  type ClaimChange,
  type ClaimOutcome,
  type SharedDeskIdentity,
  type ProjectionPage,
  type ProjectionQuery,
  type ProjectionRow,
  type ProjectionTable,
  type ProjectionWrite,
  type SharedChainRow,
  type SubmissionClaim,
} from './shared-store';
import type { SignedHeadAck } from '../ledger';

const HASH = /^[0-9a-f]{64}$/;
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const CLAIM_STATES = new Set(['claimed', 'sent', 'unknown', 'done']);
export const MAX_LEASE_MS = 60 * 60 * 1000;
const MAX_NAME_LENGTH = 200;

function invalid(message: string): SharedStoreError {
  return new SharedStoreError('invalidArgument', message);
}

function checkWholeNumber(what: string, value: number, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) throw invalid(`${what} must be a whole number from ${min} to ${max}, not ${String(value)}`);
  return value;
}

export function checkRowsAfter(seq: number, limit: number): void {
  checkWholeNumber('the sequence number to read after', seq, 0, Number.MAX_SAFE_INTEGER);
  checkWholeNumber('the number of chain rows to read', limit, 1, MAX_CHAIN_PAGE);
}

/** Refuses rows that are not consecutive, well-formed and chained onto `expectedHead` (null: the chain's start). */
export function checkAppend(rows: readonly SharedChainRow[], projections: readonly ProjectionWrite[], expectedHead: ChainHead | null): void {
  if (rows.length === 0) throw invalid('an append needs at least one chain row');
  let previous: ChainHead = expectedHead ?? { seq: 0, hash: '0'.repeat(64) };
  for (const row of rows) {
    if (row.seq !== previous.seq + 1) throw invalid(`chain row ${row.seq} does not follow ${previous.seq}: rows must be consecutive after the expected head`);
    if (row.prevHash !== previous.hash) throw invalid(`chain row ${row.seq} does not link to row ${previous.seq} (its prevHash is not that row's hash)`);
    if (!HASH.test(row.hash)) throw invalid(`chain row ${row.seq} has a malformed hash (64 lowercase hex digits expected)`);
    if (!Number.isSafeInteger(row.at)) throw invalid(`chain row ${row.seq} has a malformed time`);
    if (row.kind === '' || row.action === '' || row.statement === '' || row.signature === '' || row.keyId === '') {
      throw invalid(`chain row ${row.seq} lacks its kind, action, statement, signature or key id`);
    }
    previous = row;
  }
  for (const write of projections) checkProjectionWrite(write);
}

export function checkProjectionTable(table: string): ProjectionTable {
  const known = PROJECTION_TABLES.find((name) => name === table);
  if (known === undefined) throw invalid(`no projection table named ${JSON.stringify(table.slice(0, 40))} (known: ${PROJECTION_TABLES.join(', ')})`);
  return known;
}

function checkProjectionKey(key: string): void {
  if (typeof key !== 'string' || key.length < 1 || key.length > MAX_PROJECTION_KEY_LENGTH) {
    throw invalid(`a projection key must be 1 to ${MAX_PROJECTION_KEY_LENGTH} characters`);
  }
}

function checkProjectionWrite(write: ProjectionWrite): void {
  checkProjectionTable(write.table);
  checkProjectionKey(write.key);
  for (const [field, value] of Object.entries(write.row)) {
    if (!FIELD_NAME.test(field)) throw invalid(`projection ${write.table} ${write.key}: ${JSON.stringify(field.slice(0, 40))} is not a field name (letters, digits, _)`);
    if (typeof value === 'number' && !Number.isFinite(value)) throw invalid(`projection ${write.table} ${write.key}: field ${field} is not a finite number`);
  }
}

/** The checked query: `where` field names are letters, digits and _ (they are written into the SQL as JSON paths). */
export function checkProjectionQuery(table: string, query: ProjectionQuery): { table: ProjectionTable; where: [string, string][] } {
  const known = checkProjectionTable(table);
  checkWholeNumber('the page size', query.limit, 1, MAX_PROJECTION_PAGE);
  if (query.after !== undefined && query.after !== null) checkProjectionKey(query.after);
  const where = Object.entries(query.where ?? {});
  for (const [field, value] of where) {
    if (!FIELD_NAME.test(field)) throw invalid(`${JSON.stringify(field.slice(0, 40))} is not a field name (letters, digits, _)`);
    if (typeof value !== 'string') throw invalid(`the value for ${field} must be text`);
  }
  return { table: known, where };
}

export function checkClaimArguments(userOrder: string, workstation: string, leaseMs?: number): void {
  if (typeof userOrder !== 'string' || userOrder.length < 1 || userOrder.length > MAX_NAME_LENGTH) throw invalid(`a userOrder must be 1 to ${MAX_NAME_LENGTH} characters`);
  if (typeof workstation !== 'string' || workstation.length < 1 || workstation.length > MAX_NAME_LENGTH) {
    throw invalid(`a workstation name must be 1 to ${MAX_NAME_LENGTH} characters`);
  }
  if (leaseMs !== undefined) checkWholeNumber('the lease (ms)', leaseMs, 1, MAX_LEASE_MS);
}

export function checkClaimChange(change: ClaimChange): void {
  if (!CLAIM_STATES.has(change.state)) throw invalid(`a claim's state is claimed, sent, unknown or done, not ${JSON.stringify(String(change.state).slice(0, 20))}`);
  if (change.leaseMs !== undefined) checkWholeNumber('the lease (ms)', change.leaseMs, 1, MAX_LEASE_MS);
}

/** What to do with an existing claim when `workstation` asks for it at `now` (the database's clock). */
export type ClaimDecision = { readonly take: 'renew' } | { readonly take: 'over' } | { readonly take: 'refuse'; readonly outcome: ClaimOutcome };

export function decideClaim(existing: SubmissionClaim, workstation: string, now: number): ClaimDecision {
  if (existing.state === 'done') return { take: 'refuse', outcome: { claimed: false, heldBy: existing } };
  if (existing.workstation === workstation) return { take: 'renew' };
  if (existing.leaseUntil < now) return { take: 'over' };
  return { take: 'refuse', outcome: { claimed: false, heldBy: existing } };
}

export function checkDeskId(deskId: string, now: number): void {
  if (typeof deskId !== 'string' || deskId.length < 1 || deskId.length > MAX_NAME_LENGTH) throw invalid(`a desk id must be 1 to ${MAX_NAME_LENGTH} characters`);
  checkWholeNumber('the creation time', now, 0, Number.MAX_SAFE_INTEGER);
}

export function otherDeskError(existing: SharedDeskIdentity): SharedStoreError {
  return new SharedStoreError(
    'otherDesk',
    `this team database belongs to another desk (${existing.deskId}, created ${new Date(existing.createdAt).toISOString()}); ` +
      'use `team join` to connect to that desk, or ask IT for an empty database for a new one',
  );
}

export function sameHead(actual: ChainHead | null, expected: ChainHead | null): boolean {
  if (actual === null || expected === null) return actual === expected;
  return actual.seq === expected.seq && actual.hash === expected.hash;
}

export function newerSchemaError(version: number, latest: number): SharedStoreError {
  return new SharedStoreError(
    'newerSchema',
    `this team database was created by a newer Treasury Desk (schema ${version}; this version knows up to ${latest}); update this workstation`,
  );
}

/** Up to limit + 1 rows fetched → the page and the key to continue after. */
export function pageOf(fetched: readonly ProjectionRow[], limit: number): ProjectionPage {
  if (fetched.length <= limit) return { rows: fetched, nextCursor: null };
  const rows = fetched.slice(0, limit);
  return { rows, nextCursor: rows[rows.length - 1]?.key ?? null };
}

const NONCE = /^[0-9a-f]{32}$/;
export const MAX_WITNESS_AGE_MS = 60 * 60 * 1000;

export function checkWitnessRequest(nonce: string, workstation: string): void {
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) throw invalid('a witness nonce must be 32 lowercase hex digits');
  checkClaimArguments('witness', workstation);
}

export function checkWitnessQuery(afterId: number, maxAgeMs: number): void {
  checkWholeNumber('the witness request id to read after', afterId, 0, Number.MAX_SAFE_INTEGER);
  checkWholeNumber('the age of witness requests (ms)', maxAgeMs, 1, MAX_WITNESS_AGE_MS);
}

/** Refuses an ack that is not well-formed (its signature is the reader's to check, against the enrolled key). */
export function checkHeadAck(ack: SignedHeadAck): void {
  checkDeskId(ack.deskId, ack.at);
  checkClaimArguments('ack', ack.workstation);
  checkWholeNumber("the ack's seq", ack.seq, 0, Number.MAX_SAFE_INTEGER);
  if (typeof ack.hash !== 'string' || !HASH.test(ack.hash)) throw invalid("an ack's hash must be 64 lowercase hex digits");
  if (ack.nonce !== null && (typeof ack.nonce !== 'string' || !NONCE.test(ack.nonce))) throw invalid("an ack's nonce must be null or 32 lowercase hex digits");
  for (const [what, value] of [['key id', ack.keyId], ['signature', ack.signature]] as const) {
    if (typeof value !== 'string' || value.length < 1 || value.length > 400) throw invalid(`an ack's ${what} must be 1 to 400 characters`);
  }
}
