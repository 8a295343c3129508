// The index of signed intents kept at the chain's head (issue 20's benchmark) answers exactly as a full read does: over random request, reject, cancel and clock sequences signed into a real SQLite chain, velocityHolds, the day's total and the intents listed equal what velocity.ts makes of the test's own record of what it signed; a rolled-back append, a roster replayed before a later enrolment and a rewritten chain are never served from it.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../../electron/chains';
import { AuditTrail } from '../../../electron/core/audit/trail';
import { DeskIdentity } from '../../../electron/core/audit/desk-identity';
import { memorySecrets } from '../../support/memory-secrets';
import { generateSigningKey, type SigningKeyPair } from '../../../electron/core/statements/keys';
import { BATCH_INTENT_KIND, type BatchIntent, batchIntentHash } from '../../../electron/core/statements/batch-intent';
import { intentHash, type WithdrawalIntent } from '../../../electron/core/statements/intent';
import { canonicalHash, signStatementText, type StatementBody } from '../../../electron/core/statements/statement';
import { writeTransaction, type StoreDatabase } from '../../../electron/core/store/database';
import { DEFAULT_WITHDRAWAL_POLICY, type WithdrawalPolicy } from '../../../electron/core/withdrawals/policy';
import { forgetSignedIntents, signedIntentIndex, signedIntentIndexStats } from '../../../electron/core/withdrawals/signed-intent-index';
import { requestedFromStatements, signedIntentsFromStatements, utcDayOf, velocityHolds } from '../../../electron/core/withdrawals/signed-spending';
import { type DestinationCap, inScope, type SignedIntent, type VelocityCandidate, type VelocityWindow, velocityBreaches } from '../../../electron/core/withdrawals/velocity';
import { useTempDir } from '../store/helpers';

const HOUR = 3_600_000;
const PROFILE = 'main';
const MERCHANT = 'M-1001';
const T0 = Date.UTC(2026, 10, 1, 6);
const temp = useTempDir('td-intent-index-');
const CURRENCIES = [
  { symbol: 'eth.usdt', chain: 'eth' },
  { symbol: 'trx.usdt', chain: 'trx' },
] as const;
// The same EVM address in two cases counts as one destination; the TRON ones are case-sensitive.
const DESTINATIONS = ['0xAbCd000000000000000000000000000000000001', '0xabcd000000000000000000000000000000000001', '0x1111111111111111111111111111111111111111', 'TXyzBench1'];

let identity: DeskIdentity;
const admins = [generateSigningKey(), generateSigningKey()] as const;
const people = { i0: generateSigningKey(), i1: generateSigningKey(), i2: generateSigningKey(), p0: generateSigningKey() } as const;
type Person = keyof typeof people;
const INITIATORS: readonly Person[] = ['i0', 'i1', 'i2'];
beforeAll(async () => {
  identity = await DeskIdentity.load(memorySecrets());
});

/** A founded desk whose clock the test moves; `signedIntents` is the test's own record of what stands signed and open. */
class Desk {
  readonly db: StoreDatabase = temp.open();
  clock = T0;
  readonly trail = new AuditTrail(this.db, identity, memorySecrets(), () => this.clock);
  readonly open: (SignedIntent & { readonly subject: string; readonly by: Person })[] = [];
  #orders = 0;

  constructor() {
    const body: StatementBody = { admins: [{ name: 'a1', publicKey: admins[0].publicKey }, { name: 'a2', publicKey: admins[1].publicKey }], deskKey: { publicKey: identity.publicKey }, merchantId: MERCHANT };
    this.#sign(admins[0], 'a1', 'found', canonicalHash(body), body);
    this.#sign(admins[1], 'a2', 'found', canonicalHash(body), body);
    for (const name of ['i0', 'i1', 'p0'] as const) this.enrol(name);
  }

  #sign(pair: SigningKeyPair, name: string, kind: Parameters<AuditTrail['append']>[0]['kind'], subject: string, body: StatementBody): void {
    this.trail.append({ kind, profile: PROFILE, subject, body, operator: name, keyId: pair.keyId }, (text) => signStatementText(pair.privateKey, text));
  }

  enrol(name: Person): void {
    const pair = people[name];
    const proposal = this.trail.append(
      { kind: 'enrol', profile: PROFILE, subject: name, body: { role: name.startsWith('i') ? 'initiator' : 'approver', codeHash: '0'.repeat(64) }, operator: 'a1', keyId: admins[0].keyId },
      (text) => signStatementText(admins[0].privateKey, text),
    );
    this.#sign(pair, name, 'accept', name, { proposal: proposal.hash, publicKey: pair.publicKey });
    this.#sign(admins[1], 'a2', 'confirm', name, { proposal: proposal.hash, keyId: pair.keyId });
  }

  #intent(currency: string, destination: string, amount: string): WithdrawalIntent {
    this.#orders += 1;
    return { v: 1, merchantId: MERCHANT, currency, amount, toAddress: destination, withdrawType: 'normal', userOrder: `td-index-${this.#orders}`, memo: null, requiredApprovals: 1, policy: 'default', requestedAt: this.clock };
  }

  /** Signs a request as `by` and records its intent as open. */
  request(by: Person, currency: string, destination: string, amount: string): void {
    const intent = this.#intent(currency, destination, amount);
    const subject = intentHash(intent);
    this.#sign(people[by], by, 'request', subject, { intent: JSON.parse(JSON.stringify(intent)) as never, warnings: [] });
    this.open.push({ subject, by, key: `${subject}/${intent.userOrder}`, currency, amount: new Money(amount), initiator: by, destination, at: this.clock });
  }

  /** Signs a payout batch as `by`: one request statement whose lines each count as an intent. */
  batch(by: Person, lines: readonly { readonly currency: string; readonly destination: string; readonly amount: string }[]): void {
    const intents = lines.map((line) => this.#intent(line.currency, line.destination, line.amount));
    const batch: BatchIntent = { v: 1, kind: BATCH_INTENT_KIND, merchantId: MERCHANT, lines: intents, totals: {}, requiredApprovals: 1, policies: {}, requestedAt: this.clock };
    const subject = batchIntentHash(batch);
    this.#sign(people[by], by, 'request', subject, { batch: JSON.parse(JSON.stringify(batch)) as never, source: 'payouts.csv' });
    for (const intent of intents) {
      this.open.push({ subject, by, key: `${subject}/${intent.userOrder}`, currency: intent.currency, amount: new Money(intent.amount), initiator: by, destination: intent.toAddress, at: this.clock });
    }
  }

  /** The approver rejects, or the initiator cancels, the `which`-th open request. */
  close(which: number, how: 'reject' | 'cancel'): void {
    const closing = this.open[which % this.open.length];
    if (!closing) return;
    const by: Person = how === 'reject' ? 'p0' : closing.by;
    this.#sign(people[by], by, how, closing.subject, { fingerprint: 'F', reason: 'test' });
    // A batch is closed whole: every line of its statement stops counting.
    for (let index = this.open.length - 1; index >= 0; index -= 1) if (this.open[index]?.subject === closing.subject) this.open.splice(index, 1);
  }

  parts(): { db: StoreDatabase; now: () => number } {
    return { db: this.db, now: () => this.clock };
  }
}

const windowArb: fc.Arbitrary<VelocityWindow> = fc.record(
  {
    hours: fc.oneof(fc.integer({ min: 1, max: 72 }), fc.constantFrom(1, 2, 3, 24)),
    scope: fc.constantFrom('currency', 'initiator', 'destination'),
    maxAmount: fc.integer({ min: 1, max: 3_000 }).map(String),
    maxCount: fc.integer({ min: 1, max: 8 }),
  },
  { requiredKeys: ['hours', 'scope'] },
).filter((window) => window.maxAmount !== undefined || window.maxCount !== undefined);
const capArb: fc.Arbitrary<DestinationCap> = fc.record({ address: fc.constantFrom(...DESTINATIONS), maxAmount: fc.integer({ min: 1, max: 3_000 }).map(String), hours: fc.integer({ min: 1, max: 72 }) });

const stepArb = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('request' as const), by: fc.constantFrom(...INITIATORS), currency: fc.nat(1), destination: fc.nat(3), amount: fc.integer({ min: 1, max: 90_000 }).map((cents) => (cents / 100).toFixed(2)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('batch' as const), by: fc.constantFrom(...INITIATORS), lines: fc.array(fc.record({ currency: fc.nat(1), destination: fc.nat(3), amount: fc.integer({ min: 1, max: 900 }).map(String) }), { minLength: 1, maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('reject' as const, 'cancel' as const), which: fc.nat(50) }) },
  // Whole hours often, so that requests fall exactly on a window's edge; a step back is another workstation's clock.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('clock' as const), minutes: fc.oneof(fc.integer({ min: -30, max: 900 }), fc.integer({ min: 0, max: 24 }).map((hours) => hours * 60)) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('check' as const), windows: fc.array(windowArb, { maxLength: 4 }), caps: fc.array(capArb, { maxLength: 2 }), existing: fc.option(fc.nat(50)), by: fc.constantFrom(...INITIATORS), currency: fc.nat(1), destination: fc.nat(3), amount: fc.integer({ min: 1, max: 2_000 }).map(String) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('enrol' as const) }) },
);

/** What velocityHolds must answer: velocity.ts's evaluation over the test's own record (no running totals). */
function expected(desk: Desk, policy: WithdrawalPolicy, candidate: VelocityCandidate): ReturnType<typeof velocityBreaches> {
  return velocityBreaches({ windows: policy.windows ?? [], destinationCaps: policy.destinationCaps ?? [] }, desk.open, candidate, desk.clock);
}

describe('the index of signed intents at the chain head', () => {
  it('answers the windows, the day totals and the listed intents as the record of what was signed says, step after step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 30 }), async (steps) => {
        const desk = new Desk();
        let enrolledI2 = false;
        for (const step of steps) {
          switch (step.kind) {
            case 'request': {
              const currency = CURRENCIES[step.currency]!;
              const destination = DESTINATIONS[currency.chain === 'trx' ? 3 : step.destination % 3]!;
              if (step.by === 'i2' && !enrolledI2) break;
              desk.request(step.by, currency.symbol, destination, step.amount);
              break;
            }
            case 'batch':
              if (step.by === 'i2' && !enrolledI2) break;
              desk.batch(
                step.by,
                step.lines.map((line) => {
                  const currency = CURRENCIES[line.currency]!;
                  return { currency: currency.symbol, destination: DESTINATIONS[currency.chain === 'trx' ? 3 : line.destination % 3]!, amount: line.amount };
                }),
              );
              break;
            case 'reject':
            case 'cancel':
              desk.close(step.which, step.kind);
              break;
            case 'clock':
              desk.clock += step.minutes * 60_000;
              break;
            case 'enrol':
              if (!enrolledI2) desk.enrol('i2');
              enrolledI2 = true;
              break;
            case 'check': {
              const roster = desk.trail.roster(PROFILE);
              const policy: WithdrawalPolicy = { ...DEFAULT_WITHDRAWAL_POLICY, windows: step.windows, destinationCaps: step.caps };
              const existing = step.existing === null ? undefined : desk.open[step.existing % Math.max(1, desk.open.length)];
              const currency = existing ? CURRENCIES.find((entry) => entry.symbol === existing.currency)! : CURRENCIES[step.currency]!;
              const candidate: VelocityCandidate = existing
                ? { key: existing.key, currency: existing.currency, chain: currency.chain, amount: existing.amount, initiator: existing.initiator, destination: existing.destination, at: existing.at }
                : { key: null, currency: currency.symbol, chain: currency.chain, amount: new Money(step.amount), initiator: step.by, destination: DESTINATIONS[currency.chain === 'trx' ? 3 : step.destination % 3]!, at: desk.clock };
              expect(velocityHolds(desk.parts(), roster, policy, PROFILE, candidate)).toEqual(expected(desk, policy, candidate));
              // The running totals themselves (a window they call over is read intent by intent, which would hide an error above).
              const index = signedIntentIndex(desk.parts(), roster, PROFILE, desk.clock - 72 * HOUR);
              for (const window of step.windows) {
                const after = desk.clock - window.hours * HOUR;
                const kept = desk.open.filter((intent) => intent.key !== candidate.key && intent.at > after && intent.at <= desk.clock && inScope(window.scope, intent, candidate));
                const totals = index.totals.within(window.scope, candidate, after, desk.clock);
                expect(totals && { count: totals.count, amount: totals.amount.toString() }).toEqual({ count: kept.length, amount: kept.reduce((sum, intent) => sum.plus(intent.amount), new Money(0)).toString() });
              }

              const day = utcDayOf(desk.clock);
              const inDay = desk.open.filter((intent) => intent.currency === currency.symbol && intent.at >= day.start && intent.at < day.end);
              const total = requestedFromStatements(desk.parts(), roster, { profile: PROFILE, currency: currency.symbol, ...day });
              expect(total.total.toString()).toBe(inDay.reduce((sum, intent) => sum.plus(intent.amount), new Money(0)).toString());
              expect(total.requests).toBe(inDay.length);

              const span = { start: desk.clock - 48 * HOUR, end: desk.clock + 1 };
              const listed = signedIntentsFromStatements(desk.parts(), roster, { profile: PROFILE, ...span }).map((intent) => intent.key).sort();
              expect(listed).toEqual(desk.open.filter((intent) => intent.at >= span.start && intent.at < span.end).map((intent) => intent.key).sort());
              break;
            }
          }
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('is kept between evaluations and reads only the rows appended since its head', () => {
    const desk = new Desk();
    const policy: WithdrawalPolicy = { ...DEFAULT_WITHDRAWAL_POLICY, windows: [{ hours: 24, scope: 'currency', maxCount: 3 }] };
    const candidate: VelocityCandidate = { key: null, currency: 'trx.usdt', chain: 'trx', amount: new Money(1), initiator: 'i0', destination: DESTINATIONS[3]!, at: T0 };
    desk.request('i0', 'trx.usdt', DESTINATIONS[3]!, '10');
    const before = signedIntentIndexStats();
    expect(velocityHolds(desk.parts(), desk.trail.roster(PROFILE), policy, PROFILE, candidate)).toEqual([]);
    desk.request('i1', 'trx.usdt', DESTINATIONS[3]!, '10');
    desk.request('i1', 'trx.usdt', DESTINATIONS[3]!, '10');
    const breaches = velocityHolds(desk.parts(), desk.trail.roster(PROFILE), policy, PROFILE, candidate);
    expect(breaches.map((breach) => [breach.measure, breach.total.toString()])).toEqual([['count', '4']]);
    const after = signedIntentIndexStats();
    expect(after.built - before.built).toBe(1);
    expect(after.extended - before.extended).toBe(1);
  });

  it('counts a request signed exactly a window ago as out of the window, and one a millisecond later as in', () => {
    const desk = new Desk();
    const policy: WithdrawalPolicy = { ...DEFAULT_WITHDRAWAL_POLICY, windows: [{ hours: 24, scope: 'currency', maxCount: 2 }] };
    desk.request('i0', 'trx.usdt', DESTINATIONS[3]!, '10');
    desk.clock += 1;
    desk.request('i0', 'trx.usdt', DESTINATIONS[3]!, '10');
    desk.clock = T0 + 24 * HOUR;
    const candidate: VelocityCandidate = { key: null, currency: 'trx.usdt', chain: 'trx', amount: new Money(1), initiator: 'i0', destination: DESTINATIONS[3]!, at: desk.clock };
    const totals = signedIntentIndex(desk.parts(), desk.trail.roster(PROFILE), PROFILE, desk.clock - 24 * HOUR).totals.within('currency', candidate, desk.clock - 24 * HOUR, desk.clock);
    expect(totals?.count).toBe(1);
    expect(velocityHolds(desk.parts(), desk.trail.roster(PROFILE), policy, PROFILE, candidate)).toEqual([]);
    desk.clock -= 1;
    expect(velocityHolds(desk.parts(), desk.trail.roster(PROFILE), policy, PROFILE, { ...candidate, at: desk.clock })).toHaveLength(1);
  });

  it('forgets a request whose append was rolled back', () => {
    const desk = new Desk();
    const policy: WithdrawalPolicy = { ...DEFAULT_WITHDRAWAL_POLICY, windows: [{ hours: 24, scope: 'currency', maxAmount: '100' }] };
    const candidate: VelocityCandidate = { key: null, currency: 'trx.usdt', chain: 'trx', amount: new Money(60), initiator: 'i0', destination: DESTINATIONS[3]!, at: T0 };
    desk.request('i0', 'trx.usdt', DESTINATIONS[3]!, '30');
    expect(velocityHolds(desk.parts(), desk.trail.roster(PROFILE), policy, PROFILE, candidate)).toEqual([]);
    expect(() =>
      writeTransaction(desk.db, () => {
        desk.request('i1', 'trx.usdt', DESTINATIONS[3]!, '50');
        // Inside the transaction the uncommitted request counts (30 + 50 + 60 > 100)...
        expect(velocityHolds(desk.parts(), desk.trail.roster(PROFILE), policy, PROFILE, candidate)).toHaveLength(1);
        throw new Error('the signing flow failed after the append');
      }),
    ).toThrow(/signing flow failed/);
    desk.open.pop();
    // ...and once it rolled back it counts for nothing, though the index had read it: another request of 5 now takes
    // its seq (30 + 5 + 60 fits; with the 50 kept it would not).
    desk.request('i1', 'trx.usdt', DESTINATIONS[3]!, '5');
    expect(velocityHolds(desk.parts(), desk.trail.roster(PROFILE), policy, PROFILE, candidate)).toEqual([]);
    desk.request('i1', 'trx.usdt', DESTINATIONS[3]!, '20');
    expect(velocityHolds(desk.parts(), desk.trail.roster(PROFILE), policy, PROFILE, candidate)).toEqual(expected(desk, policy, candidate));
    expect(expected(desk, policy, candidate)).toHaveLength(1);
  });

  it('judges with a roster replayed before a later enrolment for that answer only, and keeps nothing from it', () => {
    const desk = new Desk();
    const policy: WithdrawalPolicy = { ...DEFAULT_WITHDRAWAL_POLICY, windows: [{ hours: 24, scope: 'currency', maxAmount: '100' }] };
    const candidate: VelocityCandidate = { key: null, currency: 'trx.usdt', chain: 'trx', amount: new Money(60), initiator: 'i0', destination: DESTINATIONS[3]!, at: T0 };
    forgetSignedIntents(desk.db);
    const early = desk.trail.roster(PROFILE);
    desk.enrol('i2');
    desk.request('i2', 'trx.usdt', DESTINATIONS[3]!, '50');
    const before = signedIntentIndexStats();
    // The early roster does not know i2: her request counts for nothing under it...
    expect(velocityHolds(desk.parts(), early, policy, PROFILE, candidate)).toEqual([]);
    expect(signedIntentIndexStats().bypassed - before.bypassed).toBe(1);
    // ...and that verdict was not kept: under the roster of the chain's head it counts.
    expect(velocityHolds(desk.parts(), desk.trail.roster(PROFILE), policy, PROFILE, candidate)).toHaveLength(1);
  });

  it('is read afresh when the row at its head was replaced (another chain in the same file)', () => {
    const desk = new Desk();
    const policy: WithdrawalPolicy = { ...DEFAULT_WITHDRAWAL_POLICY, windows: [{ hours: 24, scope: 'currency', maxAmount: '100' }] };
    const candidate: VelocityCandidate = { key: null, currency: 'trx.usdt', chain: 'trx', amount: new Money(60), initiator: 'i0', destination: DESTINATIONS[3]!, at: T0 };
    desk.request('i0', 'trx.usdt', DESTINATIONS[3]!, '30');
    expect(velocityHolds(desk.parts(), desk.trail.roster(PROFILE), policy, PROFILE, candidate)).toEqual([]);
    const before = signedIntentIndexStats();
    // The last row is replaced by a request of 50 signed at the same seq (the guards dropped, as someone with the file could).
    desk.db.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete; DROP TRIGGER audit_log_extends_chain;');
    desk.db.prepare('DELETE FROM audit_log WHERE seq = (SELECT max(seq) FROM audit_log)').run();
    desk.open.pop();
    desk.request('i0', 'trx.usdt', DESTINATIONS[3]!, '50');
    expect(velocityHolds(desk.parts(), desk.trail.roster(PROFILE), policy, PROFILE, candidate)).toEqual(expected(desk, policy, candidate));
    expect(expected(desk, policy, candidate)).toHaveLength(1);
    expect(signedIntentIndexStats().built - before.built).toBe(1);
  });
});
