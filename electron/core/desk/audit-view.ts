// The audit viewer's engine side: audit/list's and audit/export's filters turned into one AuditQuery (a withdrawal
// request named by id or fingerprint becomes its subjects), each row described (its sentence, the request a decision is
// about, from the signed request statement) and given its standing in the trail's own verification, reused while
// nothing changed the database; and the filtered view written as JSON lines or CSV. Reads only; never a second verifier.
import {
  auditDetailsText,
  type AuditEntryView,
  type AuditRowVerification,
  auditSentence,
  type AuditWithdrawalContext,
  escapeSingleLine,
} from '../../contract';
import { type AuditQuery, type AuditRow, auditRowsBySubject, type AuditTrail } from '../audit';
import { batchFingerprint, intentFingerprint, parseStatement, requestBodySchema, type WithdrawalIntent } from '../ledger';
import { getWithdrawalRequest, getWithdrawalRequestByFingerprint } from '../withdrawals';
import type { ProfileSelection } from '../profiles';
import type { ReadableDB } from '../store/database';
import { DeskError } from '../errors';
import { csvInstant, csvLine } from '../export/csv';

/** audit/list's and audit/export's filter fields (contract/methods.ts auditFilter), as parsed. */
export interface AuditFilter {
  readonly operator?: string | undefined;
  readonly action?: string | undefined;
  readonly request?: string | undefined;
  readonly from?: number | undefined;
  readonly to?: number | undefined;
  readonly search?: string | undefined;
}

const WITHDRAWAL_DECISIONS: ReadonlySet<string> = new Set(['request', 'approve', 'reject', 'cancel', 'submit']);
const FINGERPRINT = /^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/;

/** The SQL half of a filter; the request resolved to the subjects its rows carry. Bad input changes nothing and says what to do. */
export function auditQueryOf(context: { readonly db: ReadableDB } & ProfileSelection, filter: AuditFilter): AuditQuery {
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to) {
    throw new DeskError('invalidInput', 'the time range ends before it starts: give a "to" later than "from"');
  }
  const query: { -readonly [K in keyof AuditQuery]: AuditQuery[K] } = {};
  if (filter.operator !== undefined) query.operator = filter.operator;
  if (filter.action !== undefined) query.action = filter.action;
  if (filter.from !== undefined) query.from = filter.from;
  if (filter.to !== undefined) query.to = filter.to;
  if (filter.request !== undefined) {
    const wanted = filter.request.trim();
    const fingerprint = wanted.toUpperCase().replace(/\s+/g, '');
    let request;
    if (/^[0-9]{1,15}$/.test(wanted)) request = getWithdrawalRequest(context.db, Number(wanted));
    else if (FINGERPRINT.test(fingerprint)) {
      const profile = context.activeProfileName();
      request = profile === undefined ? undefined : getWithdrawalRequestByFingerprint(context.db, profile, fingerprint);
    } else {
      throw new DeskError('invalidInput', `${escapeSingleLine(wanted)} is neither a withdrawal request number nor a fingerprint: give the number "withdraw list" shows or the fingerprint ABCD-EFGH-IJKL-MNOP`);
    }
    if (request === undefined) {
      throw new DeskError('notFound', `this desk holds no withdrawal request ${escapeSingleLine(wanted)}: check the number or fingerprint in the withdrawals list`);
    }
    query.profile = request.profile;
    query.subjects = [request.userOrder, request.intentHash, request.batchHash].filter((subject): subject is string => subject !== null);
  }
  return query;
}

/** Describes audit rows (sentence, details, the request a decision is about), remembering the requests it read. */
export class AuditDescriber {
  readonly #db: ReadableDB;
  readonly #requests = new Map<string, AuditWithdrawalContext | null>();

  constructor(db: ReadableDB) {
    this.#db = db;
  }

  describe(row: AuditRow): Omit<AuditEntryView, 'verification'> {
    const statement = parseStatement(row.statement);
    const body = statement?.body ?? {};
    const details = statement?.kind === 'system' || statement?.kind === 'action' ? (body['details'] ?? {}) : body;
    const withdrawal = this.#withdrawal(row);
    const view = { seq: row.seq, at: row.at, profile: row.profile, operator: row.operator, kind: row.kind, action: row.action, subject: row.subject === '' ? null : row.subject, keyFingerprint: row.keyId, details, withdrawal };
    return { ...view, sentence: auditSentence(view) };
  }

  /** Whether `search` (already lower case) is in the row's sentence, details, subject or operator. */
  matches(row: AuditRow, search: string): boolean {
    const view = this.describe(row);
    return `${view.sentence}\n${auditDetailsText(view.details)}\n${view.subject ?? ''}\n${view.operator ?? ''}`.toLowerCase().includes(search);
  }

  /** The withdrawal (or payout batch) a decision is about, as the log's request statement for its subject says. */
  #withdrawal(row: AuditRow): AuditWithdrawalContext | null {
    if (!WITHDRAWAL_DECISIONS.has(row.kind) || row.profile === null) return null;
    const key = `${row.profile}\n${row.subject}`;
    if (this.#requests.has(key)) return this.#requests.get(key) ?? null;
    const requestRow = row.kind === 'request' ? row : auditRowsBySubject(this.#db, row.profile, row.subject).find((candidate) => candidate.kind === 'request');
    const parsed = requestRow === undefined ? null : requestBodySchema.safeParse(parseStatement(requestRow.statement)?.body);
    let context: AuditWithdrawalContext | null = null;
    if (parsed?.success === true) {
      const body = parsed.data;
      context =
        'intent' in body
          ? { fingerprint: intentFingerprint(body.intent as WithdrawalIntent), amount: body.intent.amount, currency: body.intent.currency, toAddress: body.intent.toAddress, batchLines: null }
          : { fingerprint: batchFingerprint(body.batch), amount: null, currency: null, toAddress: null, batchLines: body.batch.lines.length };
    }
    this.#requests.set(key, context);
    return context;
  }
}

type ChainVerification = Awaited<ReturnType<AuditTrail['verify']>>;

/**
 * Each row's standing from the trail's own full verification (AuditTrail.verify), run again only when the head moved or
 * another connection committed to the database (SQLite's data_version: an edit from outside always changes it).
 */
export class AuditRowStanding {
  readonly #trail: AuditTrail;
  readonly #db: ReadableDB;
  #last: { key: string; verification: ChainVerification } | null = null;

  constructor(trail: AuditTrail, db: ReadableDB) {
    this.#trail = trail;
    this.#db = db;
  }

  async current(): Promise<(seq: number) => AuditRowVerification> {
    const head = this.#trail.head();
    const key = `${head?.seq ?? 0}:${head?.hash ?? ''}:${String(this.#db.pragma('data_version', { simple: true }))}`;
    if (this.#last?.key !== key) this.#last = { key, verification: await this.#trail.verify() };
    const verification = this.#last.verification;
    return (seq) => {
      if (verification.ok || seq < verification.firstBadSeq) return { status: 'verified' };
      if (seq === verification.firstBadSeq) return { status: 'failed', reason: verification.reason };
      return { status: 'unchecked', reason: `the chain is broken at entry #${verification.firstBadSeq}, so nothing vouches for the entries after it` };
    };
  }
}

/** One JSON line of an export: the row as signed (statement, signature, hash) and as read (sentence, standing). */
export function auditJsonLine(row: AuditRow, view: AuditEntryView): string {
  return `${JSON.stringify({ seq: row.seq, statement: row.statement, signature: row.signature, hash: row.hash, sentence: view.sentence, verification: view.verification })}\n`;
}

export const AUDIT_CSV_HEADER = csvLine(['seq', 'at', 'profile', 'operator', 'action', 'subject', 'sentence', 'verification', 'verification_reason', 'details', 'key_id', 'hash']);

/** One CSV line of an export, the instant in the reporting zone with its offset like every other export. */
export function auditCsvLine(row: AuditRow, view: AuditEntryView, timeZone: string): string {
  const reason = view.verification.status === 'verified' ? '' : view.verification.reason;
  return csvLine([row.seq, csvInstant(row.at, timeZone), row.profile, row.operator, row.action, row.subject, view.sentence, view.verification.status, reason, auditDetailsText(view.details), row.keyId, row.hash]);
}
