// The audit viewer's engine side: audit/list's and audit/export's filters turned into one AuditQuery (a withdrawal
// request named by id or fingerprint becomes its subjects), each row described (its sentence, the request a decision is
// about, from the signed request statement) and given its standing in the trail's own chain verifier, kept at the head
// while nothing else wrote to the database; and the filtered view written as JSON lines or CSV. Reads only; never a
// second verifier.
import {
  auditDetailsText,
  type AuditEntryView,
  type AuditRowVerification,
  auditSentence,
  type AuditWithdrawalContext,
  escapeSingleLine,
} from '../../contract';
import { type AuditQuery, type AuditRow, auditRowsBySubject, type AuditTrail, type ChainVerifier, getAuditRow, iterateAudit } from '../audit';
import { batchFingerprint, intentFingerprint, parseStatement, requestBodySchema, type WithdrawalIntent } from '../ledger';
import { getWithdrawalRequest, getWithdrawalRequestByFingerprint } from '../withdrawals';
import type { ProfileSelection } from '../profiles';
import type { ReadableDB } from '../store/database';
import { DeskError } from '../kernel/errors';
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

/**
 * Each row's standing in the trail's own chain verification (AuditTrail.verifier, the ChainVerifier `audit verify` runs,
 * and its keychain anchor check), kept at the head: rows this engine appended since are fed to the same verifier, and
 * the walk starts again from row 1 whenever another connection wrote to the database (SQLite's data_version: an edit
 * from outside always changes it), the last row it verified changed, or the pinned genesis changed. A problem the kept
 * verifier finds is confirmed by a fresh full verification before any row is called failing.
 */
/** The verifier kept at the head, where it stands, and the first problem it met (it stays just before that row). */
interface KeptVerification {
  readonly verifier: ChainVerifier;
  readonly dataVersion: number;
  readonly pinned: string | null;
  last: { seq: number; hash: string } | null;
  problem: { seq: number; reason: string } | null;
}

export class AuditRowStanding {
  readonly #trail: AuditTrail;
  readonly #db: ReadableDB;
  #kept: KeptVerification | null = null;

  constructor(trail: AuditTrail, db: ReadableDB) {
    this.#trail = trail;
    this.#db = db;
  }

  #dataVersion(): number {
    return this.#db.pragma('data_version', { simple: true }) as number;
  }

  /** Feeds the rows after the verifier's position; remembers the first problem (the verifier stays before it). */
  #walk(kept: KeptVerification): void {
    for (const row of iterateAudit(this.#db, kept.verifier.rows + 1)) {
      const problem = kept.verifier.check(row);
      if (problem) {
        kept.problem = problem;
        return;
      }
      kept.last = { seq: row.seq, hash: row.hash };
    }
  }

  async current(): Promise<(seq: number) => AuditRowVerification> {
    const dataVersion = this.#dataVersion();
    const pinned = this.#trail.pinnedGenesis?.hash ?? null;
    let kept = this.#kept;
    const stale =
      kept === null || kept.dataVersion !== dataVersion || kept.pinned !== pinned || (kept.last !== null && getAuditRow(this.#db, kept.last.seq)?.hash !== kept.last.hash);
    let fresh = false;
    if (kept === null || stale) {
      kept = { verifier: this.#trail.verifier(), dataVersion, pinned, last: null, problem: null };
      fresh = true;
    }
    if (kept.problem === null) {
      this.#walk(kept);
      if (kept.problem !== null && !fresh) {
        // Met by the kept verifier: a full walk from row 1 (which trusts keys enrolled later in the chain) decides, once.
        kept = { verifier: this.#trail.verifier(), dataVersion, pinned, last: null, problem: null };
        this.#walk(kept);
      }
    }
    this.#kept = kept;
    const problem = kept.problem ?? (await this.#trail.anchorProblem());
    return (seq) => {
      if (problem === null || seq < problem.seq) return { status: 'verified' };
      if (seq === problem.seq) return { status: 'failed', reason: problem.reason };
      return { status: 'unchecked', reason: `the chain is broken at entry #${problem.seq}, so nothing vouches for the entries after it` };
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
