// The loosening comparison (ledger/loosening.ts): every policy field and governance field in both directions, unknown
// fields counted as loosening; and the roster's scheduled changes from rows signed at controlled times: a loosening
// waits for the delay, a tightening applies at once, a veto during the delay stops it, a veto after is refused, a
// time-locked freeze lift lifts only after the lock.
import { describe, expect, it } from 'vitest';
import { DEFAULT_GOVERNANCE, governanceLoosens, parseGovernance, policyLoosens } from '../../../electron/core/ledger/loosening';
import type { StatementBody } from '../../../electron/core/statements/statement';
import { Chain, person } from '../../support/roster-chain';

const base: StatementBody = { thresholds: [{ above: '100', approvals: 2 }], dailyLimit: '1000', useFinancialConfirmation: true, onlyFromBook: true, newDestinationWaitHours: 24 };
const withField = (field: string, value: StatementBody[string]): StatementBody => ({ ...base, [field]: value });

describe('policyLoosens', () => {
  it('keeps: no reasons', () => {
    expect(policyLoosens(base, { ...base })).toEqual([]);
  });
  it.each([
    ['a higher approval threshold', withField('thresholds', [{ above: '500', approvals: 2 }]), /fewer approvals above 100/],
    ['fewer approvals', withField('thresholds', [{ above: '100', approvals: 1 }]), /fewer approvals/],
    ['a tier removed', withField('thresholds', []), /fewer approvals/],
    ['a higher daily limit', withField('dailyLimit', '1000.01'), /a higher daily limit/],
    ['the daily limit removed', withField('dailyLimit', null), /daily limit removed/],
    ['financial confirmation dropped', withField('useFinancialConfirmation', false), /financial confirmation dropped/],
    ['"only from book" dropped', withField('onlyFromBook', false), /"only from book" dropped/],
    ['"only from book" omitted', (() => { const { onlyFromBook: _dropped, ...rest } = base; return rest; })(), /"only from book" dropped/],
    ['a shorter wait', withField('newDestinationWaitHours', 23), /shorter new-destination wait/],
    ['an unknown field added', withField('velocityLimits', [{ hours: 1, amount: '5' }]), /"velocityLimits" changed/],
    ['approvals count for longer', { ...base, approvalValidHours: 48 }, /approvals count for longer/, { ...base, approvalValidHours: 24 }],
    ['approvals no longer expire', base, /approvals no longer expire/, { ...base, approvalValidHours: 24 }],
    ['a window removed', base, /1 rolling window removed or widened/, { ...base, windows: [{ hours: 24, scope: 'initiator', maxCount: 3 }] }],
    ['a window with a higher maximum', { ...base, windows: [{ hours: 24, scope: 'initiator', maxCount: 4 }] }, /rolling window removed or widened/, { ...base, windows: [{ hours: 24, scope: 'initiator', maxCount: 3 }] }],
    ['a window shortened', { ...base, windows: [{ hours: 12, scope: 'currency', maxAmount: '100' }] }, /rolling window/, { ...base, windows: [{ hours: 24, scope: 'currency', maxAmount: '100' }] }],
    ['a cap raised', { ...base, destinationCaps: [{ address: 'TXyz', maxAmount: '101', hours: 24 }] }, /1 destination cap removed or raised/, { ...base, destinationCaps: [{ address: 'TXyz', maxAmount: '100', hours: 24 }] }],
    ['a tier\'s groups removed', withField('thresholds', [{ above: '100', approvals: 2 }]), /approval groups of 1 tier removed or changed/, withField('thresholds', [{ above: '100', approvals: 2, groups: [[{ group: 'finance', count: 1 }]] }])],
    ['a tier\'s groups widened to an alternative', withField('thresholds', [{ above: '100', approvals: 2, groups: [[{ group: 'finance', count: 1 }], [{ group: 'ops', count: 1 }]] }]), /approval groups/, withField('thresholds', [{ above: '100', approvals: 2, groups: [[{ group: 'finance', count: 1 }]] }])],
    ['the unusual-amount rule removed', base, /the unusual-amount rule removed/, { ...base, unusualAmount: { factor: '3', firstPayment: false } }],
    ['a higher unusual-amount factor', { ...base, unusualAmount: { factor: '3.5', firstPayment: true } }, /a higher unusual-amount factor/, { ...base, unusualAmount: { factor: '3', firstPayment: true } }],
    ['first payments no longer counted', { ...base, unusualAmount: { factor: '3', firstPayment: false } }, /a first payment no longer adds an approval/, { ...base, unusualAmount: { factor: '3', firstPayment: true } }],
    ['an unreadable unusual-amount factor', { ...base, unusualAmount: { factor: 'x', firstPayment: true } }, /cannot be compared/, { ...base, unusualAmount: { factor: '3', firstPayment: true } }],
    ['"proven control above" removed', base, /"proven control above" removed/, { ...base, provenControlAbove: '1000' }],
    ['a higher proven-control amount', { ...base, provenControlAbove: '1000.5' }, /a higher proven-control amount/, { ...base, provenControlAbove: '1000' }],
    ['an unreadable proven-control amount', { ...base, provenControlAbove: 'x' }, /proven-control amount changed and cannot be compared/, { ...base, provenControlAbove: '1000' }],
    ['an unreadable threshold', withField('thresholds', [{ above: 'lots', approvals: 2 }]), /cannot be compared/],
    ['an unreadable limit', withField('dailyLimit', 12), /cannot be compared/],
  ])('loosens: %s', (_name, after, reason, before: StatementBody = base) => {
    const reasons = policyLoosens(before, after);
    expect(reasons.join('; ')).toMatch(reason);
  });
  it.each([
    ['a lower approval threshold', withField('thresholds', [{ above: '50', approvals: 2 }])],
    ['more approvals', withField('thresholds', [{ above: '100', approvals: 3 }])],
    ['a tier added', withField('thresholds', [{ above: '100', approvals: 2 }, { above: '900', approvals: 3 }])],
    ['a lower daily limit', withField('dailyLimit', '999.99')],
    ['"only from book" kept', withField('onlyFromBook', true)],
    ['a longer wait', withField('newDestinationWaitHours', 48)],
    ['approvals that expire', { ...base, approvalValidHours: 24 }],
    ['a window added', { ...base, windows: [{ hours: 24, scope: 'destination', maxAmount: '5000' }] }],
    ['a window made longer and lower', { ...base, windows: [{ hours: 48, scope: 'initiator', maxCount: 2 }] }, { ...base, windows: [{ hours: 24, scope: 'initiator', maxCount: 3 }] }],
    ['a cap lowered', { ...base, destinationCaps: [{ address: 'TXyz', maxAmount: '99', hours: 24 }] }, { ...base, destinationCaps: [{ address: 'TXyz', maxAmount: '100', hours: 24 }] }],
    ['the unusual-amount rule added', { ...base, unusualAmount: { factor: '3', firstPayment: true } }],
    ['a lower unusual-amount factor, first payments now counted', { ...base, unusualAmount: { factor: '2', firstPayment: true } }, { ...base, unusualAmount: { factor: '3', firstPayment: false } }],
    ['"proven control above" added', { ...base, provenControlAbove: '1000' }],
    ['a lower proven-control amount', { ...base, provenControlAbove: '999' }, { ...base, provenControlAbove: '1000' }],
    ['groups added to a tier', withField('thresholds', [{ above: '100', approvals: 2, groups: [[{ group: 'finance', count: 1 }]] }])],
  ])('tightens or keeps: %s', (_name, after, before: StatementBody = base) => {
    expect(policyLoosens(before, after)).toEqual([]);
  });
  it('compares against the default when no policy was set: a limit and more approvals tighten, an unknown field loosens', () => {
    expect(policyLoosens(null, { thresholds: [{ above: '0', approvals: 2 }], dailyLimit: '5', useFinancialConfirmation: true, onlyFromBook: true, newDestinationWaitHours: 1 })).toEqual([]);
    expect(policyLoosens(null, { thresholds: [{ above: '0', approvals: 1 }], dailyLimit: null, useFinancialConfirmation: false, velocityLimits: [] }).join()).toMatch(/"velocityLimits" changed/);
  });
  it('setting a daily limit where there was none tightens; dropping financial confirmation that was never on keeps', () => {
    expect(policyLoosens({ ...base, dailyLimit: null }, base)).toEqual([]);
    expect(policyLoosens({ ...base, useFinancialConfirmation: false }, { ...base, useFinancialConfirmation: false })).toEqual([]);
  });
});

describe('governanceLoosens and parseGovernance', () => {
  const g = (looseningDelayHours: number, freezeLift: 'four-eyes' | 'time-lock', freezeLockHours: number) => ({ looseningDelayHours, freezeLift, freezeLockHours }) as const;
  it('a shorter delay, a one-admin lift and a shorter lock loosen; the opposite directions do not', () => {
    expect(governanceLoosens(g(24, 'four-eyes', 0), g(12, 'four-eyes', 0))).toEqual(['a shorter loosening delay']);
    expect(governanceLoosens(g(12, 'four-eyes', 0), g(24, 'four-eyes', 0))).toEqual([]);
    expect(governanceLoosens(g(24, 'four-eyes', 0), g(24, 'time-lock', 48)).join()).toMatch(/one admin lifts a freeze/);
    expect(governanceLoosens(g(24, 'time-lock', 48), g(24, 'four-eyes', 0))).toEqual([]);
    expect(governanceLoosens(g(24, 'time-lock', 48), g(24, 'time-lock', 47))).toEqual(['a shorter freeze lock']);
    expect(governanceLoosens(g(24, 'time-lock', 47), g(24, 'time-lock', 48))).toEqual([]);
    expect(governanceLoosens(DEFAULT_GOVERNANCE, g(1, 'four-eyes', 0))).toEqual([]);
  });
  it('refuses a malformed setting, naming what to do', () => {
    expect(parseGovernance({ looseningDelayHours: -1, freezeLift: 'four-eyes', freezeLockHours: 0 })).toMatch(/whole number of hours from 0 to 720/);
    expect(parseGovernance({ looseningDelayHours: 1, freezeLift: 'one-admin', freezeLockHours: 0 })).toMatch(/four-eyes/);
    expect(parseGovernance({ looseningDelayHours: 1, freezeLift: 'time-lock', freezeLockHours: 0 })).toMatch(/at least 1 hour/);
    expect(parseGovernance({ looseningDelayHours: 1, freezeLift: 'four-eyes', freezeLockHours: 0, extra: 1 })).toMatch(/unknown fields \(extra\)/);
    expect(parseGovernance(g(24, 'time-lock', 48))).toEqual(g(24, 'time-lock', 48));
  });
});

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);

/** A one-admin desk (alice; bob a second, non-independent admin she enrolled alone) with a 24 h loosening delay set at T0. */
function deskWithDelay(): { chain: Chain; alice: ReturnType<typeof person>; bob: ReturnType<typeof person> } {
  const [alice, bob] = [person('alice'), person('bob')];
  const chain = new Chain();
  chain.found(alice);
  chain.enrol(alice, bob, 'admin');
  chain.add(alice, 'governance', 'governance', { governance: { looseningDelayHours: 24, freezeLift: 'four-eyes', freezeLockHours: 0 } }, { at: T0 });
  return { chain, alice, bob };
}

describe('the roster schedules loosening changes', () => {
  it('a raised limit takes effect only after the delay; a tightening at once; the rows\' times and the caller\'s clock both count', () => {
    const { chain, alice } = deskWithDelay();
    chain.add(alice, 'policy', 'trx.usdt', { policy: { thresholds: [], dailyLimit: '100', useFinancialConfirmation: false } }, { at: T0 + HOUR });
    const raised = chain.add(alice, 'policy', 'trx.usdt', { policy: { thresholds: [], dailyLimit: '500', useFinancialConfirmation: false } }, { at: T0 + 2 * HOUR });
    let roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.policyAt('trx.usdt', Infinity, T0 + 3 * HOUR)?.policy['dailyLimit']).toBe('100');
    expect(roster.policyAt('trx.usdt')?.policy['dailyLimit']).toBe('100');
    expect(roster.scheduledChanges(T0 + 3 * HOUR).map((change) => [change.id, change.effectiveAt])).toEqual([[raised.hash, T0 + 26 * HOUR]]);
    expect(roster.policyAt('trx.usdt', Infinity, T0 + 26 * HOUR)?.policy['dailyLimit']).toBe('500');
    expect(roster.scheduledChanges(T0 + 26 * HOUR)).toEqual([]);
    // A later signed row past the effective time moves the default clock too.
    chain.add(alice, 'freeze', 'sending', { reason: 'drill' }, { at: T0 + 27 * HOUR });
    roster = chain.roster();
    expect(roster.policyAt('trx.usdt')?.policy['dailyLimit']).toBe('500');
    chain.add(alice, 'policy', 'trx.usdt', { policy: { thresholds: [], dailyLimit: '50', useFinancialConfirmation: false } }, { at: T0 + 28 * HOUR });
    expect(chain.roster().policyAt('trx.usdt', Infinity, T0 + 28 * HOUR)?.policy['dailyLimit']).toBe('50');
  });

  it('a veto during the delay stops the change for good; a veto after it took effect is refused, named', () => {
    const { chain, alice, bob } = deskWithDelay();
    const booked = chain.add(alice, 'book', 'trx:TXyz', {}, { at: T0 + HOUR });
    expect(chain.roster().bookEntry('trx', 'TXyz', T0 + 2 * HOUR)).toBeUndefined();
    chain.add(bob, 'veto', booked.hash, {}, { at: T0 + 2 * HOUR });
    let roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.bookEntry('trx', 'TXyz', T0 + 100 * HOUR)).toBeUndefined();
    expect(roster.scheduledChange(booked.hash)).toMatchObject({ vetoedBy: 'bob' });
    const raised = chain.add(alice, 'policy', 'trx.usdt', { policy: { thresholds: [], dailyLimit: null, useFinancialConfirmation: false, velocityLimits: [] } }, { at: T0 + 3 * HOUR });
    chain.add(bob, 'veto', raised.hash, {}, { at: T0 + 27 * HOUR });
    roster = chain.roster();
    expect(roster.problems.at(-1)?.reason).toMatch(/veto refused: the change took effect at .*propose the change back/);
    expect(roster.policyAt('trx.usdt', Infinity, T0 + 27 * HOUR)?.id).toBe(raised.hash);
  });

  it('a group widened waits for the delay (an approval before it counts for the old members only), a group narrowed at once, and a veto stops a widening', () => {
    const { chain, alice, bob } = deskWithDelay();
    const [carol, dave] = [person('carol'), person('dave')];
    chain.enrol(alice, carol, 'approver');
    chain.enrol(alice, dave, 'approver');
    chain.add(alice, 'group', 'finance', { members: ['carol'] }, { at: T0 + HOUR });
    expect(chain.roster().groupsOf('carol', Infinity, T0 + 2 * HOUR)).toEqual([]);
    expect(chain.roster().groupsOf('carol', Infinity, T0 + 25 * HOUR)).toEqual(['finance']);
    const widened = chain.add(alice, 'group', 'finance', { members: ['carol', 'dave'] }, { at: T0 + 30 * HOUR });
    let roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.scheduledChange(widened.hash)?.loosens).toEqual(['dave added to approval group finance']);
    expect(roster.groupsOf('dave', Infinity, T0 + 31 * HOUR)).toEqual([]);
    expect(roster.groupsOf('dave', Infinity, T0 + 54 * HOUR)).toEqual(['finance']);
    chain.add(bob, 'veto', widened.hash, {}, { at: T0 + 40 * HOUR });
    roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.groupsOf('dave', Infinity, T0 + 100 * HOUR)).toEqual([]);
    expect(roster.groupsOf('carol', Infinity, T0 + 100 * HOUR)).toEqual(['finance']);
    chain.add(alice, 'group', 'finance', { members: [] }, { at: T0 + 101 * HOUR });
    expect(chain.roster().groupsOf('carol', Infinity, T0 + 101 * HOUR)).toEqual([]);
  });

  it('a veto by a non-admin, or of a change never scheduled, is refused', () => {
    const { chain, alice } = deskWithDelay();
    const carol = person('carol');
    chain.enrol(alice, carol, 'approver');
    const tightened = chain.add(alice, 'policy', 'trx.usdt', { policy: { thresholds: [{ above: '0', approvals: 2 }], dailyLimit: '1', useFinancialConfirmation: true } }, { at: T0 + HOUR });
    chain.add(alice, 'veto', tightened.hash, {}, { at: T0 + HOUR + 1 });
    const booked = chain.add(alice, 'book', 'trx:TAbc', {}, { at: T0 + 2 * HOUR });
    chain.add(carol, 'veto', booked.hash, {}, { at: T0 + 2 * HOUR + 1 });
    expect(chain.roster().problems.map((problem) => problem.reason)).toEqual([expect.stringMatching(/no scheduled change to veto/), 'veto refused: carol is not an admin']);
  });

  it('shortening the delay is itself a loosening: it waits for the delay in force', () => {
    const { chain, alice } = deskWithDelay();
    chain.add(alice, 'governance', 'governance', { governance: { looseningDelayHours: 0, freezeLift: 'four-eyes', freezeLockHours: 0 } }, { at: T0 + HOUR });
    const roster = chain.roster();
    expect(roster.governanceAt(T0 + 2 * HOUR)?.governance.looseningDelayHours).toBe(24);
    expect(roster.governanceAt(T0 + 25 * HOUR)?.governance.looseningDelayHours).toBe(0);
  });

  it('a time-locked freeze lift by one admin lifts only after the lock, and a veto keeps the freeze', () => {
    const [alice, bob] = [person('alice'), person('bob')];
    const chain = new Chain();
    chain.found(alice, bob);
    const setting = chain.add(alice, 'governance', 'governance', { governance: { looseningDelayHours: 0, freezeLift: 'time-lock', freezeLockHours: 48 } }, { at: T0 });
    chain.confirm(bob, setting.hash);
    chain.add(alice, 'freeze', 'sending', { reason: 'leak' }, { at: T0 + HOUR });
    const lift = chain.add(alice, 'unfreeze', 'sending', {}, { at: T0 + 2 * HOUR });
    let roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.proposal(lift.hash)).toMatchObject({ needsConfirmation: false, state: 'applied' });
    expect(roster.frozenAt(T0 + 49 * HOUR)).toMatchObject({ by: 'alice', liftAt: T0 + 50 * HOUR });
    expect(roster.frozenAt(T0 + 50 * HOUR)).toBeNull();
    chain.add(bob, 'veto', lift.hash, { reason: 'not yet' }, { at: T0 + 3 * HOUR });
    roster = chain.roster();
    expect(roster.problems).toEqual([]);
    expect(roster.frozenAt(T0 + 100 * HOUR)).toMatchObject({ by: 'alice', liftAt: null });
  });

  it('with no governance set (the default), every change applies at once as before', () => {
    const alice = person('alice');
    const chain = new Chain();
    chain.found(alice);
    chain.add(alice, 'policy', 'trx.usdt', { policy: { thresholds: [], dailyLimit: null, useFinancialConfirmation: false } });
    chain.add(alice, 'book', 'trx:TXyz', {});
    const roster = chain.roster();
    expect(roster.policyAt('trx.usdt')).not.toBeNull();
    expect(roster.bookEntry('trx', 'TXyz')).toBeDefined();
    expect(roster.scheduledChanges(0)).toEqual([]);
  });
});
