// What a currency's daily limit counts, read from signed statements only (issue 20): the intents of the profile's
// verifying request statements signed within the window, less those a verifying reject or cancel closed. Never a
// request row's date, amount or state, which anyone with the database file can change.
//
// The audit columns it selects by (kind, at) are what the statements say only after a linkage walk held (rowShape
// compares each row's columns with its signed statement), so the caller walks first: `dayTotalFromStatements` does.
// A failed order keeps counting until its day ends: no operator signs a statement of the service's failure, and the
// safe direction for a limit is to count too much.
import type { Money } from '../../chains';
import type { Roster } from '../ledger';
import type { AuditRecorder } from '../audit';
import type { Kernel } from '../kernel/kernel';
import type { WithdrawalPolicy } from './policy';
import { signedIntentIndex } from './signed-intent-index';
import { HOUR_MS, inScope, type SignedIntent, type VelocityBreach, velocityBreaches, type VelocityCandidate, type VelocityTotals } from './velocity';

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

/**
 * The verified signed intents of the profile's request statements signed in [start, end), any currency, less those
 * closed by a verifying reject or cancel: each with its initiator (who signed the request) and the statement's time,
 * oldest first. Rows that do not verify under `roster` count for nothing and close nothing; a signed amount that is
 * not a decimal cannot be sent either (the judge refuses it) and counts for nothing (signed-intent-index.ts keeps
 * them at the chain's head). Call after a linkage walk held.
 */
export function signedIntentsFromStatements(
  parts: Pick<DeskParts, 'db' | 'now'>,
  roster: Roster,
  range: { readonly profile: string; readonly start: number; readonly end: number },
): SignedIntent[] {
  return signedIntentIndex(parts, roster, range.profile, range.start).all(range.start, range.end);
}

/**
 * The amount of `currency` the profile's request statements signed in [start, end), less those closed by a verifying
 * reject or cancel, and the number of requests counted (signedIntentsFromStatements). Call after a linkage walk held;
 * `dayTotalFromStatements` does it for you.
 */
export function requestedFromStatements(
  parts: Pick<DeskParts, 'db' | 'now'>,
  roster: Roster,
  window: { readonly profile: string; readonly currency: string; readonly start: number; readonly end: number },
): { readonly total: Money; readonly requests: number } {
  const during = signedIntentIndex(parts, roster, window.profile, window.start).currencyDuring(window.currency, window.start, window.end);
  return { total: during.amount, requests: during.count };
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
  earlier: readonly SignedIntent[] = [],
): VelocityBreach[] {
  const windows = (policy.windows ?? []).filter((window) => candidate.initiator !== null || window.scope !== 'initiator');
  const caps = policy.destinationCaps ?? [];
  if (windows.length === 0 && caps.length === 0) return [];
  const now = parts.now();
  const start = now - Math.max(...windows.map((window) => window.hours), ...caps.map((cap) => cap.hours)) * HOUR_MS;
  const index = signedIntentIndex(parts, roster, profile, start);
  // The index's running totals answer a window that fits; a window that may be over is read intent by intent.
  const totals: VelocityTotals = {
    within: (scope, judged, after, through) => {
      const kept = index.totals.within(scope, judged, after, through);
      if (kept === null) return null;
      const alsoCounted = earlier.filter((intent) => intent.at > after && intent.at <= through && inScope(scope, intent, judged));
      return { count: kept.count + alsoCounted.length, amount: alsoCounted.reduce((sum, intent) => sum.plus(intent.amount), kept.amount) };
    },
  };
  const intents = (): SignedIntent[] => [...index.all(start, now + 1), ...earlier];
  return velocityBreaches({ windows, destinationCaps: caps }, intents, { ...candidate, initiator: candidate.initiator ?? '' }, now, totals);
}

/** The preflight's side of velocityHolds: the linkage walked first (a broken log decides nothing), then one message per breach. */
export function velocityRefusals(
  parts: DeskParts,
  roster: Roster,
  policy: WithdrawalPolicy,
  profile: string,
  candidate: Omit<VelocityCandidate, 'initiator'> & { readonly initiator: string | null },
  earlier: readonly SignedIntent[] = [],
): string[] {
  if ((policy.windows ?? []).length === 0 && (policy.destinationCaps ?? []).length === 0) return [];
  const walk = parts.trail.linkage();
  if (walk.problem) return [unreadableLog(walk.problem, 'the velocity windows')];
  return velocityHolds(parts, roster, policy, profile, candidate, earlier).map((breach) => breach.message);
}
