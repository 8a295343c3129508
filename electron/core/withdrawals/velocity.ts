// Rolling velocity windows and per-destination caps (issue 20, part 2): one pure evaluation over a list of verified signed intents (never rows), so the preflight and the send judge the same way.
//
// A window of H hours ending at `now` holds the intents signed in (now - H h, now]. A window's scope picks which of
// them count with the request being judged: all of its currency ('currency'), those its initiator signed
// ('initiator'), or those to its destination ('destination', addresses compared as the chain compares them: EVM in
// any case). A destination cap is a 'destination' window on amount that applies to one named address only; it is
// judged next to the policy's windows, never instead of them, so the stricter of the two holds.
import { type Chain, formatMoney, Money, normalizeAddress, parseMoney } from '../../chains';
import { z } from 'zod';
import { utcMinuteText } from '../../contract';

export type VelocityScope = 'currency' | 'initiator' | 'destination';
export const VELOCITY_SCOPES: readonly VelocityScope[] = ['currency', 'initiator', 'destination'];

/** The longest rolling window: 30 days. */
export const MAX_WINDOW_HOURS = 720;
/** The most windows and destination caps one policy may carry. */
export const MAX_VELOCITY_RULES = 20;

export interface VelocityWindow {
  /** Whole hours, 1..MAX_WINDOW_HOURS. */
  readonly hours: number;
  readonly scope: VelocityScope;
  /** The most that may be requested in the window, a decimal string; at least one of the maxima is set. */
  readonly maxAmount?: string | undefined;
  /** The most requests that may be signed in the window. */
  readonly maxCount?: number | undefined;
}

export interface DestinationCap {
  readonly address: string;
  readonly maxAmount: string;
  readonly hours: number;
}

/** One verified signed intent, as the windows count it. */
export interface SignedIntent {
  /** The request statement's subject (its intent or batch hash) and the line's userOrder: one per intent. */
  readonly key: string;
  readonly currency: string;
  readonly amount: Money;
  /** The operator who signed the request. */
  readonly initiator: string;
  readonly destination: string;
  /** When the request statement was signed, epoch ms. */
  readonly at: number;
}

/** The request judged: one that would be made now (not in the list), or one being sent (its own intent counted once). */
export interface VelocityCandidate {
  readonly key: string | null;
  readonly currency: string;
  readonly chain: Chain;
  readonly amount: Money;
  readonly initiator: string;
  readonly destination: string;
  readonly at: number;
}

/**
 * Running totals over the same intents, when a caller keeps them (signed-intent-index.ts): the count and amount of the
 * intents in the candidate's scope signed in (after, through], the candidate's own intent (by key) left out; null when
 * they cannot say (the list is read instead). Only a window that may be over is then read intent by intent.
 */
export interface VelocityTotals {
  within(scope: VelocityScope, candidate: VelocityCandidate, after: number, through: number): { readonly count: number; readonly amount: Money } | null;
}

export interface VelocityBreach {
  /** 'window' with its index in policy.windows, or 'destinationCap' with its index in policy.destinationCaps. */
  readonly rule: { readonly kind: 'window' | 'destinationCap'; readonly index: number };
  readonly measure: 'amount' | 'count';
  readonly limit: Money;
  /** What the window holds with the candidate: the amount or the count. */
  readonly total: Money;
  /** When the oldest counted request was signed. */
  readonly since: number;
  /** When enough counted requests have left the window for the candidate to fit (null: it never fits alone). */
  readonly fitsAt: number | null;
  readonly message: string;
}

export const HOUR_MS = 3_600_000;

/** Problems with windows and caps an admin entered ([] when usable). */
export function velocityProblems(windows: readonly VelocityWindow[] | undefined, caps: readonly DestinationCap[] | undefined): string[] {
  const problems: string[] = [];
  const hoursProblem = (hours: number, what: string): void => {
    if (!Number.isInteger(hours) || hours < 1 || hours > MAX_WINDOW_HOURS) problems.push(`${what}: hours must be a whole number from 1 to ${MAX_WINDOW_HOURS}`);
  };
  const amountProblem = (amount: string, what: string): void => {
    try {
      if (parseMoney(amount).lessThanOrEqualTo(0)) problems.push(`${what}: the amount ${amount} must be above 0`);
    } catch {
      problems.push(`${what}: "${amount}" is not a decimal amount`);
    }
  };
  if ((windows?.length ?? 0) + (caps?.length ?? 0) > MAX_VELOCITY_RULES) problems.push(`at most ${MAX_VELOCITY_RULES} windows and destination caps together`);
  for (const [index, window] of (windows ?? []).entries()) {
    const what = `window ${index + 1}`;
    hoursProblem(window.hours, what);
    if (!VELOCITY_SCOPES.includes(window.scope)) problems.push(`${what}: the scope is one of ${VELOCITY_SCOPES.join(', ')}`);
    if (window.maxAmount === undefined && window.maxCount === undefined) problems.push(`${what}: give a maximum amount, a maximum count, or both`);
    if (window.maxAmount !== undefined) amountProblem(window.maxAmount, what);
    if (window.maxCount !== undefined && (!Number.isInteger(window.maxCount) || window.maxCount < 1)) problems.push(`${what}: the count must be a whole number of at least 1`);
  }
  for (const [index, cap] of (caps ?? []).entries()) {
    const what = `destination cap ${index + 1}`;
    hoursProblem(cap.hours, what);
    amountProblem(cap.maxAmount, what);
    if (typeof cap.address !== 'string' || cap.address.trim() === '' || cap.address !== cap.address.trim()) problems.push(`${what}: give the destination address`);
  }
  return problems;
}

function scopeText(scope: VelocityScope, candidate: VelocityCandidate): string {
  switch (scope) {
    case 'currency':
      return `of ${candidate.currency}`;
    case 'initiator':
      return `per initiator`;
    case 'destination':
      return `per destination`;
  }
}

function whoText(scope: VelocityScope, candidate: VelocityCandidate): string {
  switch (scope) {
    case 'currency':
      return 'the desk';
    case 'initiator':
      return candidate.initiator;
    case 'destination':
      return `requests to ${candidate.destination}`;
  }
}

/** Whether an intent falls in the same scope as the candidate. */
export function inScope(scope: VelocityScope, intent: SignedIntent, candidate: VelocityCandidate): boolean {
  if (intent.currency !== candidate.currency) return false;
  switch (scope) {
    case 'currency':
      return true;
    case 'initiator':
      return intent.initiator === candidate.initiator;
    case 'destination':
      return normalizeAddress(intent.destination, candidate.chain) === normalizeAddress(candidate.destination, candidate.chain);
  }
}

/** The counted intents of one window, oldest first: those signed in (now - hours, now], plus the candidate once. */
function counted(intents: readonly SignedIntent[], candidate: VelocityCandidate, hours: number, now: number, scope: VelocityScope): { list: SignedIntent[]; own: SignedIntent } {
  const start = now - hours * HOUR_MS;
  const list: SignedIntent[] = [];
  for (const intent of intents) {
    if (candidate.key !== null && intent.key === candidate.key) continue;
    if (intent.at > start && intent.at <= now && inScope(scope, intent, candidate)) list.push(intent);
  }
  const own: SignedIntent = { key: candidate.key ?? '', currency: candidate.currency, amount: candidate.amount, initiator: candidate.initiator, destination: candidate.destination, at: candidate.at };
  list.push(own);
  list.sort((a, b) => a.at - b.at);
  return { list, own };
}

/**
 * When the window first holds no more than `limit` with the candidate: the time the oldest requests that must leave
 * it leave (their signing time + the window). Null when the candidate alone is over.
 */
function fitsAt(list: readonly SignedIntent[], own: SignedIntent, hours: number, over: (kept: readonly SignedIntent[]) => boolean): number | null {
  const others = list.filter((intent) => intent !== own);
  for (let dropped = 0; dropped <= others.length; dropped += 1) {
    if (!over([...others.slice(dropped), own])) return dropped === 0 ? null : (others[dropped - 1]?.at ?? 0) + hours * HOUR_MS;
  }
  return null;
}

/**
 * The windows and caps the candidate breaks at `now`, each with its message ([] when it fits). `intents` are the
 * verified signed intents of the span the longest window covers (any currency; other currencies are ignored), or a
 * function that reads them, called only when `totals` (the same intents' running totals) leave a window in doubt.
 */
export function velocityBreaches(
  rules: { readonly windows?: readonly VelocityWindow[] | undefined; readonly destinationCaps?: readonly DestinationCap[] | undefined },
  intents: readonly SignedIntent[] | (() => readonly SignedIntent[]),
  candidate: VelocityCandidate,
  now: number,
  totals?: VelocityTotals,
): VelocityBreach[] {
  const breaches: VelocityBreach[] = [];
  let read: readonly SignedIntent[] | null = typeof intents === 'function' ? null : intents;
  const listed = (): readonly SignedIntent[] => (read ??= (intents as () => readonly SignedIntent[])());
  /** Whether running totals show the window within its maxima with the candidate (false: judge it intent by intent). */
  const fitsByTotals = (scope: VelocityScope, hours: number, maxAmount: string | undefined, maxCount: number | undefined): boolean => {
    const kept = totals?.within(scope, candidate, now - hours * HOUR_MS, now);
    if (!kept) return false;
    if (maxCount !== undefined && kept.count + 1 > maxCount) return false;
    return maxAmount === undefined || !kept.amount.plus(candidate.amount).greaterThan(parseMoney(maxAmount));
  };
  const judge = (rule: VelocityBreach['rule'], scope: VelocityScope, hours: number, maxAmount: string | undefined, maxCount: number | undefined, name: string): void => {
    if (fitsByTotals(scope, hours, maxAmount, maxCount)) return;
    const { list, own } = counted(listed(), candidate, hours, now, scope);
    const since = list[0]?.at ?? candidate.at;
    const release = (fits: number | null, what: string): string =>
      fits === null
        ? `this request alone is over ${what}: request less, or an admin changes the policy (policy set)`
        : `it fits again at ${utcMinuteText(fits)}, when the oldest counted request${list.length > 2 ? 's leave' : ' leaves'} the window, or an admin changes the policy (policy set)`;
    if (maxCount !== undefined && list.length > maxCount) {
      const fits = fitsAt(list, own, hours, (kept) => kept.length > maxCount);
      const signedBefore = list.length - 1;
      breaches.push({
        rule,
        measure: 'count',
        limit: new Money(maxCount),
        total: new Money(list.length),
        since,
        fitsAt: fits,
        message:
          `${name} allows ${maxCount} request${maxCount === 1 ? '' : 's'}; ${whoText(scope, candidate)} signed ${signedBefore} ${signedBefore === 1 ? 'other' : 'others'} since ${utcMinuteText(since)} ` +
          `and this one makes ${list.length}: ${release(fits, 'the count')}`,
      });
    }
    if (maxAmount !== undefined) {
      const limit = parseMoney(maxAmount);
      const sum = (kept: readonly SignedIntent[]): Money => kept.reduce<Money>((total, intent) => total.plus(intent.amount), new Money(0));
      const total = sum(list);
      if (total.greaterThan(limit)) {
        const fits = fitsAt(list, own, hours, (kept) => sum(kept).greaterThan(limit));
        breaches.push({
          rule,
          measure: 'amount',
          limit,
          total,
          since,
          fitsAt: fits,
          message:
            `${name} allows ${formatMoney(limit)} ${candidate.currency}; ${whoText(scope, candidate)} signed ${formatMoney(total.minus(candidate.amount))} since ${utcMinuteText(since)} ` +
            `and this request's ${formatMoney(candidate.amount)} makes ${formatMoney(total)}: ${release(fits, 'the limit')}`,
        });
      }
    }
  };
  for (const [index, window] of (rules.windows ?? []).entries()) {
    judge({ kind: 'window', index }, window.scope, window.hours, window.maxAmount, window.maxCount, `the ${window.hours} h window ${scopeText(window.scope, candidate)}`);
  }
  for (const [index, cap] of (rules.destinationCaps ?? []).entries()) {
    if (normalizeAddress(cap.address, candidate.chain) !== normalizeAddress(candidate.destination, candidate.chain)) continue;
    judge({ kind: 'destinationCap', index }, 'destination', cap.hours, cap.maxAmount, undefined, `the cap on ${cap.address} per ${cap.hours} h`);
  }
  return breaches;
}

const windowSchema = z.strictObject({
  hours: z.number().int().min(1).max(MAX_WINDOW_HOURS),
  scope: z.enum(VELOCITY_SCOPES as [VelocityScope, ...VelocityScope[]]),
  maxAmount: z.string().optional(),
  maxCount: z.number().int().min(1).optional(),
});
const capSchema = z.strictObject({ address: z.string().min(1), maxAmount: z.string(), hours: z.number().int().min(1).max(MAX_WINDOW_HOURS) });

/**
 * The windows and caps of a signed policy statement's value: only those that pass `velocityProblems` (policies/set
 * refuses any other before it is signed, so a signed one that does not is from no desk of ours and counts for nothing).
 */
export function velocityRulesFromStatement(policy: { readonly windows?: unknown; readonly destinationCaps?: unknown }): {
  windows?: readonly VelocityWindow[];
  destinationCaps?: readonly DestinationCap[];
} {
  const each = <T>(value: unknown, schema: z.ZodType<T>, usable: (entry: T) => boolean): T[] =>
    (Array.isArray(value) ? value : []).flatMap((entry: unknown) => {
      const parsed = schema.safeParse(entry);
      return parsed.success && usable(parsed.data) ? [parsed.data] : [];
    });
  const usableWindows = each(policy.windows, windowSchema, (window) => velocityProblems([window], []).length === 0);
  const usableCaps = each(policy.destinationCaps, capSchema, (cap) => velocityProblems([], [cap]).length === 0);
  return {
    ...(usableWindows.length > 0 ? { windows: usableWindows } : {}),
    ...(usableCaps.length > 0 ? { destinationCaps: usableCaps } : {}),
  };
}
