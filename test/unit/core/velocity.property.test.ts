// Property tests of the rolling velocity windows and destination caps (issue 20): over random signed intents and clocks, velocity.ts agrees with the plain reference model below.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Money } from '../../../electron/chains';
import {
  type DestinationCap,
  type SignedIntent,
  type VelocityCandidate,
  type VelocityScope,
  type VelocityWindow,
  velocityBreaches,
  velocityProblems,
  velocityRulesFromStatement,
} from '../../../electron/core/withdrawals/velocity';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);
const CURRENCIES = ['eth.usdt', 'trx.usdt'] as const;
const INITIATORS = ['alice', 'bob', 'carol'] as const;
// EVM addresses in mixed cases: the same address in two cases must count as one destination.
const DESTINATIONS = ['0xAbCd000000000000000000000000000000000001', '0xabcd000000000000000000000000000000000001', '0x00000000000000000000000000000000000000Ff', '0x1111111111111111111111111111111111111111'];

// ---- the reference model: written to be obviously right, not fast ----

interface Breach {
  readonly kind: 'window' | 'destinationCap';
  readonly index: number;
  readonly measure: 'amount' | 'count';
  readonly total: string;
  readonly fitsAt: number | null;
}

const sameDestination = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

function matches(scope: VelocityScope, intent: SignedIntent, candidate: VelocityCandidate): boolean {
  if (intent.currency !== candidate.currency) return false;
  if (scope === 'initiator') return intent.initiator === candidate.initiator;
  if (scope === 'destination') return sameDestination(intent.destination, candidate.destination);
  return true;
}

/** The others counted in the window ending at `t` (candidate's own intent excluded; nothing signed after `now`). */
function othersAt(intents: readonly SignedIntent[], candidate: VelocityCandidate, scope: VelocityScope, hours: number, t: number, now: number): SignedIntent[] {
  return intents.filter((intent) => intent.key !== candidate.key && intent.at > t - hours * HOUR && intent.at <= now && matches(scope, intent, candidate));
}

function referenceBreaches(windows: readonly VelocityWindow[], caps: readonly DestinationCap[], intents: readonly SignedIntent[], candidate: VelocityCandidate, now: number): Breach[] {
  const out: Breach[] = [];
  const judge = (kind: Breach['kind'], index: number, scope: VelocityScope, hours: number, maxAmount: string | undefined, maxCount: number | undefined): void => {
    const over = (others: readonly SignedIntent[], measure: 'amount' | 'count'): boolean => {
      if (measure === 'count') return maxCount !== undefined && others.length + 1 > maxCount;
      if (maxAmount === undefined) return false;
      let sum = candidate.amount;
      for (const other of others) sum = sum.plus(other.amount);
      return sum.greaterThan(new Money(maxAmount));
    };
    const others = othersAt(intents, candidate, scope, hours, now, now);
    for (const measure of ['count', 'amount'] as const) {
      if (!over(others, measure)) continue;
      // When does it fit? Try each moment an other leaves the window (its time + the window), earliest first.
      let fitsAt: number | null = null;
      const leaving = [...others].map((other) => other.at + hours * HOUR).sort((a, b) => a - b);
      for (const t of leaving) {
        if (!over(othersAt(intents, candidate, scope, hours, t, now), measure)) {
          fitsAt = t;
          break;
        }
      }
      const total = measure === 'count' ? String(others.length + 1) : others.reduce((sum, other) => sum.plus(other.amount), candidate.amount).toString();
      out.push({ kind, index, measure, total, fitsAt });
    }
  };
  windows.forEach((window, index) => judge('window', index, window.scope, window.hours, window.maxAmount, window.maxCount));
  caps.forEach((cap, index) => {
    if (sameDestination(cap.address, candidate.destination)) judge('destinationCap', index, 'destination', cap.hours, cap.maxAmount, undefined);
  });
  return out;
}

// ---- generators ----

const amount = fc.integer({ min: 1, max: 50_000 }).map((cents) => new Money(cents).dividedBy(100));
// Half on whole hours, so intents often sit exactly on a window's edge.
const time = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 3 * 24 * 60 }).map((minutes) => T0 + minutes * 60_000), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 3 * 24 }).map((hours) => T0 + hours * HOUR), weight: 3 },
);
const intentArb = fc.record({
  currency: fc.constantFrom(...CURRENCIES),
  amount,
  initiator: fc.constantFrom(...INITIATORS),
  destination: fc.constantFrom(...DESTINATIONS),
  at: time,
});
const windowArb: fc.Arbitrary<VelocityWindow> = fc
  .record({
    hours: fc.constantFrom(1, 2, 6, 24, 72, 720),
    scope: fc.constantFrom<VelocityScope>('currency', 'initiator', 'destination'),
    maxAmount: fc.option(fc.integer({ min: 1, max: 200_000 }).map((cents) => new Money(cents).dividedBy(100).toString()), { nil: undefined }),
    maxCount: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
  })
  .filter((window) => window.maxAmount !== undefined || window.maxCount !== undefined);
const capArb: fc.Arbitrary<DestinationCap> = fc.record({
  address: fc.constantFrom(...DESTINATIONS),
  maxAmount: fc.integer({ min: 1, max: 200_000 }).map((cents) => new Money(cents).dividedBy(100).toString()),
  hours: fc.constantFrom(1, 24, 168),
});

const scenario = fc
  .record({
    intents: fc.array(intentArb, { minLength: 3, maxLength: 40, size: 'max' }),
    windows: fc.array(windowArb, { maxLength: 4 }),
    caps: fc.array(capArb, { maxLength: 2 }),
    candidate: intentArb,
    /** The candidate is being sent (its own intent is in the list, signed at its time) or would be made now. */
    sending: fc.boolean(),
    nowOffsetMinutes: fc.oneof(fc.integer({ min: 0, max: 2 * 24 * 60 }), fc.integer({ min: 0, max: 48 }).map((hours) => hours * 60)),
  })
  .map(({ intents, windows, caps, candidate, sending, nowOffsetMinutes }) => {
    const signed: SignedIntent[] = intents.map((intent, index) => ({ key: `k${index}`, ...intent }));
    const ownKey = 'own';
    const now = sending ? candidate.at + nowOffsetMinutes * 60_000 : candidate.at;
    if (sending) signed.push({ key: ownKey, ...candidate });
    const judged: VelocityCandidate = { key: sending ? ownKey : null, chain: 'eth', ...candidate };
    // Only what was signed by `now` exists yet.
    return { intents: signed.filter((intent) => intent.at <= now), windows, caps, candidate: judged, now };
  });

describe('velocity windows and destination caps (property tests against a reference model)', () => {
  it('name the same breaches, totals and release times as the reference model', () => {
    fc.assert(
      fc.property(scenario, ({ intents, windows, caps, candidate, now }) => {
        const actual = velocityBreaches({ windows, destinationCaps: caps }, intents, candidate, now).map((breach) => ({
          kind: breach.rule.kind,
          index: breach.rule.index,
          measure: breach.measure,
          total: breach.total.toString(),
          fitsAt: breach.fitsAt,
        }));
        const expected = referenceBreaches(windows, caps, intents, candidate, now);
        const order = (list: readonly Breach[]): Breach[] => [...list].sort((a, b) => `${a.kind}${a.index}${a.measure}`.localeCompare(`${b.kind}${b.index}${b.measure}`));
        expect(order(actual)).toEqual(order(expected));
      }),
      { numRuns: 1000 },
    );
  });

  it('counts a request being sent once, however often its own intent is listed', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 3 }), ({ intents, windows, caps, candidate, now }, copies) => {
        if (candidate.key === null) return;
        const own = intents.find((intent) => intent.key === candidate.key);
        if (!own) return;
        const doubled = [...intents, ...Array.from({ length: copies }, () => own)];
        expect(velocityBreaches({ windows, destinationCaps: caps }, doubled, candidate, now)).toEqual(velocityBreaches({ windows, destinationCaps: caps }, intents, candidate, now));
      }),
      { numRuns: 200 },
    );
  });

  it('never lets a request through that a tighter window refuses (tightening only adds breaches)', () => {
    fc.assert(
      fc.property(scenario, ({ intents, windows, caps, candidate, now }) => {
        const loose = velocityBreaches({ windows, destinationCaps: caps }, intents, candidate, now);
        const tight = velocityBreaches(
          { windows: windows.map((window) => ({ ...window, ...(window.maxCount === undefined ? {} : { maxCount: Math.max(1, window.maxCount - 1) }) })), destinationCaps: caps },
          intents,
          candidate,
          now,
        );
        expect(tight.length).toBeGreaterThanOrEqual(loose.length);
      }),
      { numRuns: 200 },
    );
  });

  it('names the rule and what releases it in each message', () => {
    const intents: SignedIntent[] = [0, 1, 2].map((index) => ({
      key: `k${index}`,
      currency: 'trx.usdt',
      amount: new Money(10),
      initiator: 'alice',
      destination: 'TXYZ',
      at: T0 + (9 * 60 + 12 + index) * 60_000,
    }));
    const candidate: VelocityCandidate = { key: null, currency: 'trx.usdt', chain: 'trx', amount: new Money(5), initiator: 'alice', destination: 'TOTHER', at: T0 + 12 * HOUR };
    const [breach, ...rest] = velocityBreaches({ windows: [{ hours: 24, scope: 'initiator', maxCount: 3 }] }, intents, candidate, T0 + 12 * HOUR);
    expect(rest).toEqual([]);
    expect(breach?.message).toContain('the 24 h window per initiator allows 3 requests; alice signed 3 others since 2026-11-01 09:12 UTC');
    expect(breach?.message).toContain('it fits again at 2026-11-02 09:12 UTC');
    expect(breach?.message).toContain('or an admin changes the policy');
  });

  it('refuses unusable windows and caps, and reads only usable ones from a signed policy', () => {
    expect(velocityProblems([{ hours: 0, scope: 'currency', maxCount: 1 }], [])).toHaveLength(1);
    expect(velocityProblems([{ hours: 24, scope: 'currency' }], [])).toEqual(['window 1: give a maximum amount, a maximum count, or both']);
    expect(velocityProblems([], [{ address: 'T', maxAmount: 'lots', hours: 24 }])).toEqual(['destination cap 1: "lots" is not a decimal amount']);
    expect(velocityProblems([{ hours: 24, scope: 'initiator', maxAmount: '1000', maxCount: 3 }], [{ address: 'T', maxAmount: '10000', hours: 24 }])).toEqual([]);
    expect(velocityRulesFromStatement({ windows: [{ hours: 24, scope: 'initiator', maxCount: 3 }, { hours: 9999, scope: 'currency', maxCount: 1 }] })).toEqual({
      windows: [{ hours: 24, scope: 'initiator', maxCount: 3 }],
    });
    expect(velocityRulesFromStatement({})).toEqual({});
  });
});
