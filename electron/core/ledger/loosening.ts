// Which roster changes loosen (issue 20, part 4) and the desk's governance setting: one pure comparison of a policy body before and after, one of the governance setting, and the one "in force at this clock" rule every scheduled change is read through. Invariant: a field the comparison does not understand, or a value it cannot read, counts as loosening (the safe side: it waits and can be vetoed).
import { formatMoney, type Money, parseMoney } from '../../chains';
import { canonicalHash } from '../statements/statement';
import type { CanonicalValue } from '../statements/canonical';

export const HOUR_MS = 3_600_000;

/** The subject of governance proposals: the setting is desk-profile wide. */
export const GOVERNANCE_SUBJECT = 'governance';

/** The longest delay or time lock governance may set: 30 days. */
export const MAX_GOVERNANCE_HOURS = 720;

/** How a freeze is lifted: by two admins (an `unfreeze` proposal a second admin confirms), or by one admin after a time lock. */
export type FreezeLift = 'four-eyes' | 'time-lock';

export interface Governance {
  /** Hours a loosening change waits before it takes effect (any admin may veto it meanwhile); 0: at once. */
  readonly looseningDelayHours: number;
  readonly freezeLift: FreezeLift;
  /** With `time-lock`: hours after one admin's unfreeze before sending resumes. */
  readonly freezeLockHours: number;
}

/** Never set: no delay and a four-eyes lift (the desk's behaviour before issue 20 part 4). */
export const DEFAULT_GOVERNANCE: Governance = Object.freeze({ looseningDelayHours: 0, freezeLift: 'four-eyes', freezeLockHours: 0 });

/** The one rule for scheduled changes: a change takes effect at `effectiveAt` and is in force from then on, by the caller's clock. */
export function inForceAt(effectiveAt: number, now: number): boolean {
  return effectiveAt <= now;
}

type Body = Readonly<Record<string, CanonicalValue>>;

const isHours = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_GOVERNANCE_HOURS;

/** A governance body as the setting, or a reason it is not one (what to do about it). */
export function parseGovernance(body: unknown): Governance | string {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the governance setting is missing';
  const { looseningDelayHours, freezeLift, freezeLockHours, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `the governance setting has unknown fields (${Object.keys(rest).sort().join(', ')})`;
  if (!isHours(looseningDelayHours)) return `the loosening delay must be a whole number of hours from 0 to ${MAX_GOVERNANCE_HOURS}`;
  if (freezeLift !== 'four-eyes' && freezeLift !== 'time-lock') return 'the freeze lift is "four-eyes" (two admins) or "time-lock" (one admin, after the lock)';
  if (!isHours(freezeLockHours)) return `the freeze lock must be a whole number of hours from 0 to ${MAX_GOVERNANCE_HOURS}`;
  if (freezeLift === 'time-lock' && freezeLockHours < 1) return 'a time-locked freeze lift needs a lock of at least 1 hour';
  return { looseningDelayHours, freezeLift, freezeLockHours };
}

/** What a governance change loosens ([] when it only tightens or keeps): a shorter delay, a one-admin lift, a shorter lock. */
export function governanceLoosens(before: Governance, after: Governance): string[] {
  const reasons: string[] = [];
  if (after.looseningDelayHours < before.looseningDelayHours) reasons.push('a shorter loosening delay');
  if (before.freezeLift === 'four-eyes' && after.freezeLift === 'time-lock') reasons.push('one admin lifts a freeze after a time lock instead of two admins');
  if (after.freezeLift === 'time-lock' && before.freezeLift === 'time-lock' && after.freezeLockHours < before.freezeLockHours) reasons.push('a shorter freeze lock');
  return reasons;
}

/** The policy fields the comparison understands; a change in any other field counts as loosening. */
const KNOWN_POLICY_FIELDS = new Set(['thresholds', 'dailyLimit', 'useFinancialConfirmation', 'onlyFromBook', 'newDestinationWaitHours', 'approvalValidHours', 'windows', 'destinationCaps', 'unusualAmount', 'provenControlAbove']);

const recordOf = (value: CanonicalValue | undefined): Record<string, CanonicalValue> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, CanonicalValue>) : null;

/** A maximum (decimal text) as Money, undefined when absent, null when unreadable. */
function maximumOf(value: CanonicalValue | undefined): Money | undefined | null {
  if (value === undefined) return undefined;
  return readLimit(value) ?? null;
}

/** Whether `stricter` is at least as strict as `looser` on one maximum: set where it was set, and no higher. */
function noLooserMaximum(looser: CanonicalValue | undefined, stricter: CanonicalValue | undefined): boolean {
  const was = maximumOf(looser);
  if (was === undefined) return true;
  const now = maximumOf(stricter);
  return was !== null && now !== null && now !== undefined && !now.greaterThan(was);
}

/**
 * The windows (or destination caps) of `before` that no rule of `after` holds at least as strictly: the same scope (or
 * address), at least as many hours, and no higher maximum on what it limited. Unreadable ones count as not held.
 */
function rulesNotHeld(before: CanonicalValue | undefined, after: CanonicalValue | undefined, key: 'scope' | 'address'): number {
  const oldRules = Array.isArray(before) ? before : before === undefined || before === null ? [] : [before];
  const newRules = (Array.isArray(after) ? after : []).map(recordOf).filter((rule) => rule !== null);
  return oldRules.filter((value) => {
    const rule = recordOf(value);
    if (rule === null || typeof rule['hours'] !== 'number') return true;
    const hours = rule['hours'];
    return !newRules.some(
      (candidate) =>
        candidate[key] === rule[key] &&
        typeof candidate['hours'] === 'number' &&
        candidate['hours'] >= hours &&
        noLooserMaximum(rule['maxAmount'], candidate['maxAmount']) &&
        (rule['maxCount'] === undefined || (typeof candidate['maxCount'] === 'number' && typeof rule['maxCount'] === 'number' && candidate['maxCount'] <= rule['maxCount'])),
    );
  }).length;
}

/** The tiers' group requirements of `before` that `after` no longer carries unchanged at the same amount. */
function groupTiersDropped(before: CanonicalValue | undefined, after: CanonicalValue | undefined): number {
  const tiersOf = (value: CanonicalValue | undefined): Record<string, CanonicalValue>[] => (Array.isArray(value) ? value.map(recordOf).filter((tier) => tier !== null) : []);
  const kept = tiersOf(after);
  return tiersOf(before).filter((tier) => tier['groups'] !== undefined && !kept.some((other) => other['above'] === tier['above'] && same(other['groups'], tier['groups']))).length;
}

/** A policy never set reads as this (withdrawals/policy.ts DEFAULT_WITHDRAWAL_POLICY). */
const DEFAULT_POLICY_BODY: Body = { thresholds: [{ above: '0', approvals: 1 }], dailyLimit: null, useFinancialConfirmation: false };

/** The thresholds as (above, approvals) pairs, or null when they cannot be read. */
function readThresholds(value: CanonicalValue | undefined): { above: Money; approvals: number }[] | null {
  if (!Array.isArray(value)) return null;
  const out: { above: Money; approvals: number }[] = [];
  for (const entry of value) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return null;
    const { above, approvals } = entry as Record<string, CanonicalValue>;
    if (typeof above !== 'string' || typeof approvals !== 'number' || !Number.isInteger(approvals)) return null;
    try {
      out.push({ above: parseMoney(above), approvals });
    } catch {
      return null;
    }
  }
  return out;
}

/** Approvals required just above `amount` (at least one, as withdrawals/policy.ts requiredApprovals). */
function requiredJustAbove(thresholds: readonly { above: Money; approvals: number }[], amount: Money): number {
  let required = 1;
  for (const threshold of thresholds) if (!threshold.above.greaterThan(amount)) required = Math.max(required, threshold.approvals);
  return required;
}

/** A limit in the body: null for none, a Money, or undefined when it cannot be read. */
function readLimit(value: CanonicalValue | undefined): Money | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return undefined;
  try {
    return parseMoney(value);
  } catch {
    return undefined;
  }
}

const waitOf = (value: CanonicalValue | undefined): number | undefined => (value === undefined || value === null ? 0 : typeof value === 'number' && Number.isFinite(value) ? value : undefined);

const same = (a: CanonicalValue | undefined, b: CanonicalValue | undefined): boolean => canonicalHash({ v: a ?? null }) === canonicalHash({ v: b ?? null });

/** What a change of the unusual-amount rule (issue 21) loosens: removed, a higher factor, first payments no longer counted. */
function unusualAmountLoosens(was: CanonicalValue | undefined, now: CanonicalValue | undefined): string[] {
  if (was === undefined || same(was, now)) return [];
  const before = recordOf(was);
  const after = recordOf(now);
  if (now === undefined) return ['the unusual-amount rule removed'];
  if (before === null || after === null) return ['the unusual-amount rule changed and cannot be compared'];
  const oldFactor = maximumOf(before['factor']);
  const newFactor = maximumOf(after['factor']);
  const reasons: string[] = [];
  if (oldFactor === null || oldFactor === undefined || newFactor === null || newFactor === undefined) reasons.push('the unusual-amount factor changed and cannot be compared');
  else if (newFactor.greaterThan(oldFactor)) reasons.push('a higher unusual-amount factor');
  if (before['firstPayment'] === true && after['firstPayment'] !== true) reasons.push('a first payment no longer adds an approval');
  return reasons;
}

/**
 * What a policy change loosens, in words ([] when it only tightens or keeps): fewer approvals for some amount, a higher
 * or removed daily limit, financial confirmation dropped, "only from book" dropped, a shorter new-destination wait,
 * approvals that count for longer or no longer expire, a rolling window or destination cap removed or widened (a longer
 * window or a lower maximum is stricter), a tier's approval groups removed or changed (adding them only tightens), or
 * any change to a field this comparison does not know (counted as loosening: it only waits).
 * `before` null: no policy was set (the default).
 */
export function policyLoosens(before: Body | null, after: Body): string[] {
  const old = before ?? DEFAULT_POLICY_BODY;
  const reasons: string[] = [];
  const oldThresholds = readThresholds(old['thresholds']);
  const newThresholds = readThresholds(after['thresholds']);
  if (oldThresholds === null || newThresholds === null) {
    if (!same(old['thresholds'], after['thresholds'])) reasons.push('the approval thresholds changed and cannot be compared');
  } else {
    // The requirement is a step function of the amount: compare it just above every breakpoint of either policy, and below all.
    const points = [parseMoney('0'), ...oldThresholds.map((t) => t.above), ...newThresholds.map((t) => t.above)];
    const fewer = points.find((point) => requiredJustAbove(newThresholds, point) < requiredJustAbove(oldThresholds, point));
    if (fewer !== undefined) reasons.push(`fewer approvals above ${formatMoney(fewer)}`);
  }
  const oldLimit = readLimit(old['dailyLimit']);
  const newLimit = readLimit(after['dailyLimit']);
  if (oldLimit === undefined || newLimit === undefined) {
    if (!same(old['dailyLimit'], after['dailyLimit'])) reasons.push('the daily limit changed and cannot be compared');
  } else if (oldLimit !== null && (newLimit === null || newLimit.greaterThan(oldLimit))) {
    reasons.push(newLimit === null ? 'the daily limit removed' : 'a higher daily limit');
  }
  const flagDropped = (field: string, words: string): void => {
    const was = old[field];
    const now = after[field];
    if ((was !== undefined && typeof was !== 'boolean') || (now !== undefined && typeof now !== 'boolean')) {
      if (!same(was, now)) reasons.push(`${words} changed and cannot be compared`);
    } else if (was === true && now !== true) reasons.push(`${words} dropped`);
  };
  flagDropped('useFinancialConfirmation', 'financial confirmation');
  flagDropped('onlyFromBook', '"only from book"');
  const oldWait = waitOf(old['newDestinationWaitHours']);
  const newWait = waitOf(after['newDestinationWaitHours']);
  if (oldWait === undefined || newWait === undefined) {
    if (!same(old['newDestinationWaitHours'], after['newDestinationWaitHours'])) reasons.push('the new-destination wait changed and cannot be compared');
  } else if (newWait < oldWait) reasons.push('a shorter new-destination wait');
  const oldValid = old['approvalValidHours'];
  const newValid = after['approvalValidHours'];
  if (oldValid !== undefined && oldValid !== null && !same(oldValid, newValid)) {
    if (typeof oldValid !== 'number' || (newValid !== undefined && typeof newValid !== 'number')) reasons.push('the approvals\' validity changed and cannot be compared');
    else if (newValid === undefined || newValid === null || newValid > oldValid) reasons.push(newValid === undefined || newValid === null ? 'approvals no longer expire' : 'approvals count for longer');
  }
  const windowsLost = rulesNotHeld(old['windows'], after['windows'], 'scope');
  if (windowsLost > 0) reasons.push(`${windowsLost} rolling window${windowsLost === 1 ? '' : 's'} removed or widened`);
  const capsLost = rulesNotHeld(old['destinationCaps'], after['destinationCaps'], 'address');
  if (capsLost > 0) reasons.push(`${capsLost} destination cap${capsLost === 1 ? '' : 's'} removed or raised`);
  reasons.push(...unusualAmountLoosens(old['unusualAmount'], after['unusualAmount']));
  const oldProven = maximumOf(old['provenControlAbove']);
  const newProven = maximumOf(after['provenControlAbove']);
  if (oldProven === null || newProven === null) {
    if (!same(old['provenControlAbove'], after['provenControlAbove'])) reasons.push('the proven-control amount changed and cannot be compared');
  } else if (oldProven !== undefined && (newProven === undefined || newProven.greaterThan(oldProven))) {
    reasons.push(newProven === undefined ? '"proven control above" removed' : 'a higher proven-control amount');
  }
  const groupsLost = groupTiersDropped(old['thresholds'], after['thresholds']);
  if (groupsLost > 0) reasons.push(`the approval groups of ${groupsLost} tier${groupsLost === 1 ? '' : 's'} removed or changed`);
  const unknown = [...new Set([...Object.keys(old), ...Object.keys(after)])].filter((field) => !KNOWN_POLICY_FIELDS.has(field) && !same(old[field], after[field])).sort();
  for (const field of unknown) reasons.push(`"${field}" changed (not compared: counted as loosening)`);
  return reasons;
}
