// The signed audit log as rows: every row holds one canonical statement (core/statements) and its Ed25519
// signature; the statement's seq and prev hash chain the rows, and triggers refuse UPDATE, DELETE and an INSERT
// that does not extend the chain. This module stores and reads rows; whether they verify is core/audit's business.
// Also the read-only legacy log of before migration 0050 (unsigned, hash-chained), checked by its old rule.
import { createHash } from 'node:crypto';
import {
  encodeStatement,
  auditRowHash,
  CHAIN_GENESIS,
  type Statement,
  type StatementBody,
  type StatementKind,
} from '../ledger';
import { perDatabase, statementCache, writeTransaction, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument } from '../store/errors';
import { checkPageSize, decodeCursor, toPage, type Page } from '../store/pagination';

/** What a caller states; the store adds v, seq, prev and at inside its write transaction. */
export type StatementDraft = Pick<Statement, 'kind' | 'profile' | 'subject' | 'body' | 'operator' | 'keyId'>;

/** Signs the canonical statement text (the signer holds a key that never leaves core). */
export type StatementSigner = (statementText: string) => string;

export interface AuditRow {
  readonly seq: number;
  readonly at: number;
  readonly profile: string | null;
  readonly kind: string;
  readonly action: string;
  readonly operator: string | null;
  readonly subject: string;
  readonly keyId: string;
  /** The canonical statement text exactly as signed. */
  readonly statement: string;
  readonly signature: string;
  readonly prevHash: string;
  readonly hash: string;
}

/** An audit_log row as a database answers it: SQLite gives the integers as numbers, PostgreSQL its int8 as text. */
export interface AuditDbRow {
  seq: number | string;
  at: number | string;
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

/** The audit_log columns, in the order every audit_log table declares them (the local one and the team database's). */
export const AUDIT_COLUMNS = 'seq, at, profile, kind, action, operator, subject, key_id, statement, signature, prev_hash, hash';
const COLUMNS = AUDIT_COLUMNS;

/** One mapping from a database's audit row to the engine's, for the local store and both team stores. */
export function auditRowFromDb(row: AuditDbRow): AuditRow {
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

/** The `domain/verb` shown for a statement: decisions by kind, actions and system events by their body. */
export function actionOf(kind: StatementKind, body: StatementBody): string {
  switch (kind) {
    case 'request':
    case 'approve':
    case 'reject':
    case 'cancel':
    case 'submit':
      return `withdrawals/${kind}`;
    case 'policy':
      return 'policies/propose';
    case 'book':
      return 'addressbook/propose';
    case 'unbook':
      return 'addressbook/remove';
    case 'profile-add':
      return 'profiles/propose-add';
    case 'profile-remove':
      return 'profiles/propose-remove';
    case 'freeze':
      return 'sending/freeze';
    case 'unfreeze':
      return 'sending/propose-unfreeze';
    case 'group':
      return 'operators/propose-group';
    case 'governance':
      return 'governance/propose';
    case 'veto':
      return 'governance/veto';
    case 'radar-clear':
      return 'radar/propose-clear';
    case 'payees':
      return 'payees/propose';
    case 'found':
    case 'enrol':
    case 'rekey':
    case 'role':
    case 'disable':
    case 'accept':
    case 'confirm':
    case 'withdraw-proposal':
    case 'passphrase':
    case 'device':
      return `operators/${kind}`;
    case 'action':
    case 'system': {
      const action = body['action'];
      return typeof action === 'string' && action !== '' ? action : kind;
    }
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

const statements = perDatabase((db) => ({
  head: db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1'),
  insert: db.prepare(
    `INSERT INTO audit_log (${COLUMNS}) VALUES (@seq, @at, @profile, @kind, @action, @operator, @subject, @keyId, @statement, @signature, @prevHash, @hash)`,
  ),
  one: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE seq = ?`),
  walk: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE seq >= ? ORDER BY seq`),
  range: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE seq >= ? AND seq <= ? ORDER BY seq`),
  count: db.prepare('SELECT count(*) FROM audit_log').pluck(),
  bySubject: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE profile = ? AND subject = ? ORDER BY seq`),
  byKinds: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE profile = ? AND kind IN (SELECT value FROM json_each(?)) ORDER BY seq`),
  byKindsSince: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE profile = ? AND kind IN (SELECT value FROM json_each(?)) AND at >= ? ORDER BY seq`),
  byKindsBetween: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE profile = ? AND kind IN (SELECT value FROM json_each(?)) AND seq > ? AND seq <= ? ORDER BY seq`),
  anyOfKindsAfter: db.prepare('SELECT 1 FROM audit_log WHERE profile = ? AND kind IN (SELECT value FROM json_each(?)) AND seq > ? LIMIT 1').pluck(),
  anyOfActionAfter: db.prepare('SELECT 1 FROM audit_log WHERE action = ? AND seq > ? AND profile = ? LIMIT 1').pluck(),
  // Two index seeks, not one OR: with the OR, SQLite read every row of the profile (a roster replay grew with the
  // chain, 33 ms at 160,000 rows); the system rows are found by the action index (`+` keeps it off the kind index).
  roster: db.prepare(
    `SELECT ${COLUMNS} FROM audit_log WHERE profile = @profile AND kind IN (SELECT value FROM json_each(@kinds))
     UNION ALL SELECT ${COLUMNS} FROM audit_log WHERE action = @action AND +kind = 'system' AND +profile = @profile ORDER BY seq`,
  ),
  byAction: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE action = ? ORDER BY seq`),
  enrolling: db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE kind = 'found' OR (kind = 'action' AND action = ?) ORDER BY seq`),
  legacyWalk: db.prepare('SELECT seq, at, profile, operator, action, subject, details_json, prev_hash, hash FROM legacy_audit_log ORDER BY seq'),
}));
const dynamic = statementCache();

/**
 * Appends one signed statement at the head of the chain, in an IMMEDIATE transaction (or the caller's, so a decision,
 * its state change and its audit row commit together). The signer sees the final canonical text, seq and prev included.
 */
export function appendStatement(db: WritableDB, draft: StatementDraft, sign: StatementSigner, now: number = Date.now()): AuditRow {
  if (draft.subject.length > 512) throw invalidArgument('a statement subject is at most 512 characters');
  return writeTransaction(db, () => {
    const s = statements(db);
    const head = s.head.get() as { seq: number; hash: string } | undefined;
    const statement: Statement = {
      v: 1,
      kind: draft.kind,
      profile: draft.profile,
      subject: draft.subject,
      body: draft.body,
      operator: draft.operator,
      keyId: draft.keyId,
      at: now,
      seq: (head?.seq ?? 0) + 1,
      prev: head?.hash ?? CHAIN_GENESIS,
    };
    const text = encodeStatement(statement);
    const signature = sign(text);
    const row: AuditRow = {
      seq: statement.seq,
      at: now,
      profile: draft.profile,
      kind: draft.kind,
      action: actionOf(draft.kind, draft.body),
      operator: draft.operator,
      subject: draft.subject,
      keyId: draft.keyId,
      statement: text,
      signature,
      prevHash: statement.prev,
      hash: auditRowHash(text, signature),
    };
    s.insert.run(row);
    return row;
  });
}

/**
 * Inserts a row signed elsewhere (a team workstation's, pulled from the team database) exactly as it is; the caller
 * has verified it. The table's triggers still refuse a row that does not extend the local chain.
 */
export function insertAuditRow(db: WritableDB, row: AuditRow): void {
  statements(db).insert.run(row);
}

export function auditHead(db: ReadableDB): { readonly seq: number; readonly hash: string } | null {
  return (statements(db).head.get() as { seq: number; hash: string } | undefined) ?? null;
}

export function getAuditRow(db: ReadableDB, seq: number): AuditRow | undefined {
  const row = statements(db).one.get(seq) as AuditDbRow | undefined;
  return row === undefined ? undefined : auditRowFromDb(row);
}

export function countAuditRows(db: ReadableDB): number {
  return statements(db).count.get() as number;
}

/** Every row from `fromSeq` on, in seq order, streamed. */
export function* iterateAudit(db: ReadableDB, fromSeq = 1): Generator<AuditRow> {
  for (const row of statements(db).walk.iterate(fromSeq) as IterableIterator<AuditDbRow>) yield auditRowFromDb(row);
}

/** A profile's rows about one subject (an intent hash, an operator, a currency), by the stored column. */
export function auditRowsBySubject(db: ReadableDB, profile: string, subject: string): AuditRow[] {
  return (statements(db).bySubject.all(profile, subject) as AuditDbRow[]).map(auditRowFromDb);
}

/** A profile's rows of the given kinds, in seq order (the roster replays its kinds). */
export function auditRowsOfKinds(db: ReadableDB, profile: string, kinds: readonly string[]): AuditRow[] {
  return (statements(db).byKinds.all(profile, JSON.stringify(kinds)) as AuditDbRow[]).map(auditRowFromDb);
}

/**
 * A profile's rows of the given kinds signed at or after `since` (ms), in seq order. The `kind` and `at` columns are
 * only what the statements say after a linkage walk held (AuditTrail.linkage): call it first when the answer decides.
 */
export function auditRowsOfKindsSince(db: ReadableDB, profile: string, kinds: readonly string[], since: number): AuditRow[] {
  return (statements(db).byKindsSince.all(profile, JSON.stringify(kinds), since) as AuditDbRow[]).map(auditRowFromDb);
}

/** A profile's rows of the given kinds with afterSeq < seq <= throughSeq, in seq order (what was appended since a reader's last look). */
export function auditRowsOfKindsBetween(db: ReadableDB, profile: string, kinds: readonly string[], afterSeq: number, throughSeq: number): AuditRow[] {
  return (statements(db).byKindsBetween.all(profile, JSON.stringify(kinds), afterSeq, throughSeq) as AuditDbRow[]).map(auditRowFromDb);
}

/** Whether the profile has a row of the given kinds, or a row of `action`, after `afterSeq` (a replay made before it would miss it). */
export function auditHasRowsAfter(db: ReadableDB, profile: string, afterSeq: number, match: { readonly kinds: readonly string[]; readonly action: string }): boolean {
  const queries = statements(db);
  return queries.anyOfKindsAfter.get(profile, JSON.stringify(match.kinds), afterSeq) !== undefined || queries.anyOfActionAfter.get(match.action, afterSeq, profile) !== undefined;
}

/** A profile's roster rows and its desk-signed system rows of `endAction` (a removed profile's roster ends there). */
export function auditRosterRows(db: ReadableDB, profile: string, kinds: readonly string[], endAction: string): AuditRow[] {
  return (statements(db).roster.all({ profile, kinds: JSON.stringify(kinds), action: endAction }) as AuditDbRow[]).map(auditRowFromDb);
}

/** The rows that name desk keys: foundings and the audited `action` that enrols a workstation (its name given). */
export function auditRowsNamingDeskKeys(db: ReadableDB, enrolmentAction: string): AuditRow[] {
  return (statements(db).enrolling.all(enrolmentAction) as AuditDbRow[]).map(auditRowFromDb);
}

/** Every row of one action (any profile), in seq order: rare actions such as a team move's enrolments. */
export function auditRowsOfAction(db: ReadableDB, action: string): AuditRow[] {
  return (statements(db).byAction.all(action) as AuditDbRow[]).map(auditRowFromDb);
}

/** Rows for export, in seq order; optionally a seq range, both ends inclusive. */
export function exportAudit(db: ReadableDB, range: { readonly fromSeq?: number; readonly toSeq?: number } = {}): AuditRow[] {
  return (statements(db).range.all(range.fromSeq ?? 1, range.toSeq ?? Number.MAX_SAFE_INTEGER) as AuditDbRow[]).map(auditRowFromDb);
}

/** Which rows a list or an export covers (audit/list's filters): each condition given narrows it; none, every row. */
export interface AuditQuery {
  readonly profile?: string;
  readonly operator?: string;
  readonly action?: string;
  /** Rows about these subjects of `profile` (a withdrawal's intent hash and userOrder): the (profile, subject) index. */
  readonly subjects?: readonly string[];
  /** [from, to): the row's time. */
  readonly from?: number;
  readonly to?: number;
}

function auditWhere(query: AuditQuery): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (query.subjects !== undefined && query.profile !== undefined) {
    conditions.push('profile = ? AND subject IN (SELECT value FROM json_each(?))');
    params.push(query.profile, JSON.stringify(query.subjects));
  } else if (query.profile !== undefined) {
    conditions.push('(profile = ? OR profile IS NULL)');
    params.push(query.profile);
  }
  if (query.operator !== undefined) {
    conditions.push('operator = ? COLLATE NOCASE');
    params.push(query.operator);
  }
  if (query.action !== undefined) {
    conditions.push('action = ?');
    params.push(query.action);
  }
  if (query.from !== undefined) {
    conditions.push('at >= ?');
    params.push(query.from);
  }
  if (query.to !== undefined) {
    conditions.push('at < ?');
    params.push(query.to);
  }
  return { where: conditions.map((condition) => `${condition} AND `).join(''), params };
}

/** How many rows a search reads per query while it looks for a page's matches. */
const SCAN_BATCH = 500;

/**
 * Newest rows first, of those `query` selects and `matches` accepts (a search the SQL cannot answer); `after` is the
 * cursor of the previous page. The cursor names the last row returned, so rows a search skipped are never lost.
 */
export function listAudit(
  db: ReadableDB,
  query: AuditQuery & { readonly limit: number; readonly after?: string | null },
  matches?: (row: AuditRow) => boolean,
): Page<AuditRow> {
  const limit = checkPageSize(query.limit);
  let before = query.after === undefined || query.after === null ? Number.MAX_SAFE_INTEGER : decodeCursor(query.after).id;
  const { where, params } = auditWhere(query);
  const sql = `SELECT ${COLUMNS} FROM audit_log WHERE ${where}seq < ? ORDER BY seq DESC LIMIT ?`;
  const batch = matches === undefined ? limit + 1 : Math.max(SCAN_BATCH, limit + 1);
  const found: AuditRow[] = [];
  for (;;) {
    const rows = (dynamic(db, sql).all(...params, before, batch) as AuditDbRow[]).map(auditRowFromDb);
    for (const row of rows) if ((matches === undefined || matches(row)) && found.length <= limit) found.push(row);
    const last = rows[rows.length - 1];
    if (found.length > limit || rows.length < batch || last === undefined) break;
    before = last.seq;
  }
  return toPage(found, limit, (row) => ({ at: row.at, id: row.seq }));
}

/** Every row `query` selects and `matches` accepts, oldest first (an export of a filtered view). */
export function auditRowsWhere(db: ReadableDB, query: AuditQuery, matches?: (row: AuditRow) => boolean): AuditRow[] {
  const { where, params } = auditWhere(query);
  const sql = `SELECT ${COLUMNS} FROM audit_log WHERE ${where}seq >= 1 ORDER BY seq`;
  const rows = (dynamic(db, sql).all(...params) as AuditDbRow[]).map(auditRowFromDb);
  return matches === undefined ? rows : rows.filter(matches);
}

// ---- the legacy, unsigned log (before migration 0050) --------------------------------------------------------------

const LEGACY_HASH_FORMAT = 'treasury-desk/audit/v1';

export interface LegacyAuditCheck {
  readonly rows: number;
  /** The last legacy row's hash, or the genesis hash when there were none. */
  readonly headHash: string;
  /** The first row that breaks the old hash chain, or null. */
  readonly firstBadSeq: number | null;
}

/** Re-checks the closed legacy log's old SHA-256 chain; the signed log's first system row records its head. */
export function checkLegacyAudit(db: ReadableDB): LegacyAuditCheck {
  let expected = 1;
  let previous = CHAIN_GENESIS;
  for (const row of statements(db).legacyWalk.iterate() as IterableIterator<{
    seq: number; at: number; profile: string | null; operator: string | null; action: string; subject: string | null; details_json: string; prev_hash: string; hash: string;
  }>) {
    const hash = createHash('sha256')
      .update(JSON.stringify([LEGACY_HASH_FORMAT, row.seq, row.at, row.profile, row.operator, row.action, row.subject, row.details_json, row.prev_hash]), 'utf8')
      .digest('hex');
    if (row.seq !== expected || row.prev_hash !== previous || hash !== row.hash) return { rows: expected - 1, headHash: previous, firstBadSeq: row.seq };
    previous = row.hash;
    expected += 1;
  }
  return { rows: expected - 1, headHash: previous, firstBadSeq: null };
}
