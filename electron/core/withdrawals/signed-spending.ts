// What a currency's daily limit counts, read from signed statements only (issue 20): the intents of the profile's
// verifying request statements signed within the window, less those a verifying reject or cancel closed. Never a
// request row's date, amount or state, which anyone with the database file can change.
//
// The audit columns it selects by (kind, at) are what the statements say only after a linkage walk held (rowShape
// compares each row's columns with its signed statement), so the caller walks first: `dayTotalFromStatements` does.
// A failed order keeps counting until its day ends: no operator signs a statement of the service's failure, and the
// safe direction for a limit is to count too much.
import { Money, parseMoney } from '../../chains';
import { type ChainRow, isBatchIntent, intentHash, type Roster, type WithdrawalIntent } from '../ledger';
import { type AuditRecorder, auditRowsOfKindsSince } from '../audit';
import type { Kernel } from '../kernel/kernel';
import type { WithdrawalPolicy } from './policy';
import { parsedStatement } from './verified-signatures';
import { HOUR_MS, type SignedIntent, type VelocityBreach, velocityBreaches, type VelocityCandidate } from './velocity';
import { signer } from './verify';

type DeskParts = Kernel & AuditRecorder;

/** Why a total cannot be read from the audit log whose linkage does not hold (a broken log decides nothing). */
export function unreadableLog(problem: { readonly seq: number; readonly reason: string }, what: string): string {
  return `the audit log does not hold (row ${problem.seq}: ${problem.reason}), so ${what} cannot be read from it`;
}

export const DAY_MS = 86_400_000;

/** The UTC day [start, end) holding `at` (ms). */
export function utcDayOf(at: number): { readonly start: number; readonly end: number } {
  const start = Math.floor(at / DAY_MS) * DAY_MS;
  return { start, end: start + DAY_MS };
}

/** The intents one request statement signed: its own, or a batch's lines (a batch statement carries them all). */
function signedIntents(row: ChainRow): readonly WithdrawalIntent[] {
  const body = row.statement.body;
  const batch = body['batch'];
  if (isBatchIntent(batch)) return batch.lines;
  const intent = body['intent'] as unknown as WithdrawalIntent | undefined;
  if (!intent || typeof intent !== 'object' || row.statement.subject !== intentHash(intent)) return [];
  return [intent];
}

/** What a request statement signs, as the windows count it; derived from the statement alone, so kept per parsed statement (parsedStatement hands out one object per text). */
const countedByStatement = new WeakMap<ChainRow['statement'], readonly Omit<SignedIntent, 'initiator' | 'at'>[]>();

function countedIntents(row: ChainRow): readonly Omit<SignedIntent, 'initiator' | 'at'>[] {
  const known = countedByStatement.get(row.statement);
  if (known) return known;
  const counted: Omit<SignedIntent, 'initiator' | 'at'>[] = [];
  for (const intent of signedIntents(row)) {
    try {
      counted.push({ key: `${row.statement.subject}/${intent.userOrder}`, currency: intent.currency, amount: parseMoney(intent.amount), destination: intent.toAddress });
    } catch {
      // a signed amount that is not a decimal cannot be sent either (the judge refuses it): it counts for nothing
    }
  }
  countedByStatement.set(row.statement, counted);
  return counted;
}

/**
 * The verified signed intents of the profile's request statements signed in [start, end), any currency, less those
 * closed by a verifying reject or cancel: each with its initiator (who signed the request) and the statement's time.
 * Rows that do not verify under `roster` count for nothing and close nothing; a signed amount that is not a decimal
 * cannot be sent either (the judge refuses it) and counts for nothing. Call after a linkage walk held.
 */
export function signedIntentsFromStatements(
  parts: Pick<DeskParts, 'db'>,
  roster: Roster,
  range: { readonly profile: string; readonly start: number; readonly end: number },
): SignedIntent[] {
  const rows = auditRowsOfKindsSince(parts.db, range.profile, ['request', 'reject', 'cancel'], range.start);
  const closed = new Set<string>();
  const requests: ChainRow[] = [];
  for (const row of rows) {
    const statement = parsedStatement({ hash: row.hash, text: row.statement });
    if (!statement || statement.profile !== range.profile) continue;
    const chainRow: ChainRow = { seq: row.seq, hash: row.hash, text: row.statement, signature: row.signature, statement };
    if (statement.kind === 'request') {
      if (statement.at < range.end) requests.push(chainRow);
    } else if (typeof signer(roster, chainRow, statement.kind === 'reject' ? 'rejectWithdrawal' : 'view') !== 'string') {
      closed.add(statement.subject);
    }
  }
  const intents: SignedIntent[] = [];
  for (const row of requests) {
    if (closed.has(row.statement.subject)) continue;
    const initiator = signer(roster, row, 'requestWithdrawal');
    if (typeof initiator === 'string') continue;
    for (const intent of countedIntents(row)) intents.push({ ...intent, initiator: initiator.name, at: row.statement.at });
  }
  return intents;
}

/**
 * The amount of `currency` the profile's request statements signed in [start, end), less those closed by a verifying
 * reject or cancel, and the number of requests counted (signedIntentsFromStatements). Call after a linkage walk held;
 * `dayTotalFromStatements` does it for you.
 */
export function requestedFromStatements(
  parts: DeskParts,
  roster: Roster,
  window: { readonly profile: string; readonly currency: string; readonly start: number; readonly end: number },
): { readonly total: Money; readonly requests: number } {
  let total = new Money(0);
  let counted = 0;
  for (const intent of signedIntentsFromStatements(parts, roster, window)) {
    if (intent.currency !== window.currency) continue;
    total = total.plus(intent.amount);
    counted += 1;
  }
  return { total, requests: counted };
}

/**
 * The day's total for a daily limit, after checking the audit log's linkage (the columns it selects by hold only
 * then). A string says why the log cannot be read: a broken log decides nothing.
 */
export function dayTotalFromStatements(
  parts: DeskParts,
  roster: Roster,
  window: { readonly profile: string; readonly currency: string; readonly start: number; readonly end: number },
): { readonly total: Money; readonly requests: number } | string {
  const walk = parts.trail.linkage();
  if (walk.problem) return unreadableLog(walk.problem, "the day's total");
  return requestedFromStatements(parts, roster, window);
}

/**
 * The policy's windows and destination caps judged for one request (velocity.ts) over the verified signed intents of
 * the span the longest of them covers. `candidate.key` names the request's own intent when it is being sent (counted
 * once), null for one that would be made now. Without an initiator (a preflight nobody signs yet) the windows per
 * initiator are left for the request itself. Call after a linkage walk held.
 */
export function velocityHolds(
  parts: Pick<DeskParts, 'db' | 'now'>,
  roster: Roster,
  policy: WithdrawalPolicy,
  profile: string,
  candidate: Omit<VelocityCandidate, 'initiator'> & { readonly initiator: string | null },
): VelocityBreach[] {
  const windows = (policy.windows ?? []).filter((window) => candidate.initiator !== null || window.scope !== 'initiator');
  const caps = policy.destinationCaps ?? [];
  if (windows.length === 0 && caps.length === 0) return [];
  const now = parts.now();
  const longest = Math.max(...windows.map((window) => window.hours), ...caps.map((cap) => cap.hours));
  const intents = signedIntentsFromStatements(parts, roster, { profile, start: now - longest * HOUR_MS, end: now + 1 });
  return velocityBreaches({ windows, destinationCaps: caps }, intents, { ...candidate, initiator: candidate.initiator ?? '' }, now);
}

/** The preflight's side of velocityHolds: the linkage walked first (a broken log decides nothing), then one message per breach. */
export function velocityRefusals(
  parts: DeskParts,
  roster: Roster,
  policy: WithdrawalPolicy,
  profile: string,
  candidate: Omit<VelocityCandidate, 'initiator'> & { readonly initiator: string | null },
): string[] {
  if ((policy.windows ?? []).length === 0 && (policy.destinationCaps ?? []).length === 0) return [];
  const walk = parts.trail.linkage();
  if (walk.problem) return [unreadableLog(walk.problem, 'the velocity windows')];
  return velocityHolds(parts, roster, policy, profile, candidate).map((breach) => breach.message);
}
