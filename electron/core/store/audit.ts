// The append-only, hash-chained audit log. Each row's hash is SHA-256 over a canonical serialisation of its fields
// and the previous row's hash (genesis: 64 zeros); triggers refuse UPDATE and DELETE, and verifyAuditChain finds
// the first altered, reordered or missing row if someone bypasses them. Never put a secret in `details`.
import { createHash } from 'node:crypto';
import { perDatabase, writeTransaction, type StoreDatabase } from './database';
import { invalidArgument } from './errors';
import { canonicalJson, parseJsonColumn } from './json';
import { AUDIT_GENESIS_HASH } from './migrations/0030-audit-log';
import { checkPageSize, decodeCursor, toPage, type Page } from './pagination';

export { AUDIT_GENESIS_HASH };

/** Prefix of the hashed serialisation: a new format gets a new tag, so old rows stay verifiable. */
export const AUDIT_HASH_FORMAT = 'treasury-desk/audit/v1';

export interface AuditEntry {
  readonly profile?: string | null;
  /** The operator's name (as shown, stable for reading an export). */
  readonly operator?: string | null;
  /** What happened, `domain/verb`: `withdrawals/approve`, `deposits/conflict`, `operators/create`. */
  readonly action: string;
  /** What it happened to: a userOrder, an apiOrder, an operator name. */
  readonly subject?: string | null;
  /** Any JSON; stored in canonical form (sorted keys). */
  readonly details?: unknown;
}

/** The fields the hash covers, exactly as stored. */
export interface AuditChainFields {
  readonly seq: number;
  readonly at: number;
  readonly profile: string | null;
  readonly operator: string | null;
  readonly action: string;
  readonly subject: string | null;
  readonly detailsJson: string;
  readonly prevHash: string;
}

export interface AuditRow extends AuditChainFields {
  readonly hash: string;
  readonly details: unknown;
}

export type AuditVerification =
  | { readonly ok: true; readonly rows: number; readonly headHash: string }
  | { readonly ok: false; readonly firstBadSeq: number; readonly reason: string; readonly rows: number };

interface AuditDbRow {
  seq: number;
  at: number;
  profile: string | null;
  operator: string | null;
  action: string;
  subject: string | null;
  details_json: string;
  prev_hash: string;
  hash: string;
}

const COLUMNS = 'seq, at, profile, operator, action, subject, details_json, prev_hash, hash';

/** The hashed fields and the stored hash, without parsing the details (all that verification needs). */
function toChainFields(row: AuditDbRow): AuditChainFields & { readonly hash: string } {
  return {
    seq: row.seq,
    at: row.at,
    profile: row.profile,
    operator: row.operator,
    action: row.action,
    subject: row.subject,
    detailsJson: row.details_json,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

function toRow(row: AuditDbRow): AuditRow {
  return { ...toChainFields(row), details: parseJsonColumn(row.details_json) };
}

/** SHA-256 (lowercase hex) over the canonical serialisation of a row's fields and the previous hash. */
export function auditRowHash(fields: AuditChainFields): string {
  const serialised = JSON.stringify([
    AUDIT_HASH_FORMAT,
    fields.seq,
    fields.at,
    fields.profile,
    fields.operator,
    fields.action,
    fields.subject,
    fields.detailsJson,
    fields.prevHash,
  ]);
  return createHash('sha256').update(serialised, 'utf8').digest('hex');
}

const statements = perDatabase((db) => ({
  head: db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1'),
  insert: db.prepare(
    `INSERT INTO audit_log (${COLUMNS}) VALUES (@seq, @at, @profile, @operator, @action, @subject, @detailsJson, @prevHash, @hash)`,
  ),
  walk: db.prepare(`SELECT ${COLUMNS} FROM audit_log ORDER BY seq`),
  range: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE seq >= ? AND seq <= ? ORDER BY seq`),
}));

/** Appends one entry at the head of the chain (in an IMMEDIATE transaction, so concurrent writers serialise). */
export function appendAudit(db: StoreDatabase, entry: AuditEntry, now: number = Date.now()): AuditRow {
  if (entry.action === '') throw invalidArgument('audit action is empty');
  const detailsJson = canonicalJson(entry.details ?? {});
  if (detailsJson === undefined) throw invalidArgument('audit details cannot be stored as JSON');
  return writeTransaction(db, () => {
    const s = statements(db);
    const head = s.head.get() as { seq: number; hash: string } | undefined;
    const fields: AuditChainFields = {
      seq: (head?.seq ?? 0) + 1,
      at: now,
      profile: entry.profile ?? null,
      operator: entry.operator ?? null,
      action: entry.action,
      subject: entry.subject ?? null,
      detailsJson,
      prevHash: head?.hash ?? AUDIT_GENESIS_HASH,
    };
    const hash = auditRowHash(fields);
    s.insert.run({ ...fields, hash });
    return { ...fields, hash, details: parseJsonColumn(detailsJson) };
  });
}

/**
 * Walks rows in seq order from seq 1 and reports the first that breaks the chain: a missing seq (deleted row),
 * a prev_hash that is not the previous row's hash, or a hash that does not match the row's contents (edited row).
 * Removing rows from the very end leaves a shorter valid chain: compare `headHash` with one noted elsewhere.
 */
export function verifyAuditRows(rows: Iterable<AuditChainFields & { readonly hash: string }>): AuditVerification {
  let expectedSeq = 1;
  let previousHash = AUDIT_GENESIS_HASH;
  let checked = 0;
  for (const row of rows) {
    if (row.seq !== expectedSeq) {
      const reason =
        row.seq > expectedSeq
          ? `row ${expectedSeq} is missing: the log jumps from ${expectedSeq - 1} to ${row.seq}`
          : `row ${row.seq} is out of order (expected ${expectedSeq})`;
      return { ok: false, firstBadSeq: Math.min(row.seq, expectedSeq), reason, rows: checked };
    }
    if (row.prevHash !== previousHash) {
      return {
        ok: false,
        firstBadSeq: row.seq,
        reason: row.seq === 1 ? 'row 1 does not start from the genesis hash' : `row ${row.seq} does not link to row ${row.seq - 1}'s hash`,
        rows: checked,
      };
    }
    if (auditRowHash(row) !== row.hash) {
      return { ok: false, firstBadSeq: row.seq, reason: `row ${row.seq} does not match its hash: it was altered`, rows: checked };
    }
    previousHash = row.hash;
    expectedSeq += 1;
    checked += 1;
  }
  return { ok: true, rows: checked, headHash: previousHash };
}

/** Verifies the whole audit log of this database, streaming it row by row. */
export function verifyAuditChain(db: StoreDatabase): AuditVerification {
  function* rows(): Generator<AuditChainFields & { hash: string }> {
    for (const row of statements(db).walk.iterate() as IterableIterator<AuditDbRow>) yield toChainFields(row);
  }
  return verifyAuditRows(rows());
}

/**
 * Rows for export, in seq order, hashes included (an export from seq 1 can be re-verified with verifyAuditRows).
 * Optionally a seq range, both ends inclusive.
 */
export function exportAudit(db: StoreDatabase, range: { readonly fromSeq?: number; readonly toSeq?: number } = {}): AuditRow[] {
  const from = range.fromSeq ?? 1;
  const to = range.toSeq ?? Number.MAX_SAFE_INTEGER;
  return (statements(db).range.all(from, to) as AuditDbRow[]).map(toRow);
}

const listStatements = perDatabase((db) => ({
  all: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE seq < ? ORDER BY seq DESC LIMIT ?`),
  byProfile: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE profile = ? AND seq < ? ORDER BY seq DESC LIMIT ?`),
}));

/** Newest entries first, optionally of one profile; `after` is the cursor of the previous page. */
export function listAudit(
  db: StoreDatabase,
  query: { readonly profile?: string; readonly limit: number; readonly after?: string | null },
): Page<AuditRow> {
  const limit = checkPageSize(query.limit);
  const before = query.after === undefined || query.after === null ? Number.MAX_SAFE_INTEGER : decodeCursor(query.after).id;
  const s = listStatements(db);
  const rows = (query.profile === undefined ? s.all.all(before, limit + 1) : s.byProfile.all(query.profile, before, limit + 1)) as AuditDbRow[];
  return toPage(rows.map(toRow), limit, (row) => ({ at: row.at, id: row.seq }));
}
