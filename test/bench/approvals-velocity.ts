// Benchmark of the velocity windows (issue 20): one full window evaluation before a send over N signed intents inside the windows (default 100,000), cold (every signature verified, the index of signed intents built), warm (the index at the chain's head) and after one new request (the index brought up to date), p50/p95 against the 5 ms target and as a share of what a send verifies before its first byte.
import { rmSync } from 'node:fs';
import { Money } from '../../electron/chains';
import { auditRowsOfKindsSince } from '../../electron/core/audit/audit-table';
import { closeDatabase } from '../../electron/core/store/database';
import { signedIntentsFromStatements, velocityHolds } from '../../electron/core/withdrawals/signed-spending';
import { forgetSignedIntents, signedIntentIndexStats } from '../../electron/core/withdrawals/signed-intent-index';
import { judgeRequest } from '../../electron/core/withdrawals/verify';
import { resetSignatureCache, signatureCacheStats } from '../../electron/core/statements/verified-signatures';
import { getWithdrawalRequestByUserOrder } from '../../electron/core/withdrawals/withdrawals-table';
import { DEFAULT_WITHDRAWAL_POLICY, type WithdrawalPolicy } from '../../electron/core/withdrawals/policy';
import { buildBenchDesk, ed25519Limit, MERCHANT, PROFILE } from './bench-desk';
import { auditRecorder } from '../../electron/core/audit/recorder';
import { createKernel } from '../../electron/core/kernel/kernel';
import { getProfile } from '../../electron/core/profiles/profiles-table';
import { sendHolds } from '../../electron/core/withdrawals/send-rules';

function expectProfile(): never {
  throw new Error(`the bench desk has no profile ${PROFILE}`);
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

function samples(run: () => void, iterations: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const start = process.hrtime.bigint();
    run();
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return out;
}

/**
 * The trx.usdt policy in force: one approval from any of four approval groups, a daily limit, windows of every scope
 * and a destination cap, none of them over (every rule runs to its end).
 */
const policyOf = (groups: readonly string[]): WithdrawalPolicy => ({
  ...DEFAULT_WITHDRAWAL_POLICY,
  thresholds: [{ above: '0', approvals: 1, groups: groups.slice(0, 4).map((group) => [{ group, count: 1 }]) }],
  dailyLimit: '1000000000',
  windows: [
    { hours: 1, scope: 'currency', maxAmount: '1000000000', maxCount: 10_000_000 },
    { hours: 24, scope: 'initiator', maxAmount: '1000000000', maxCount: 10_000_000 },
    { hours: 168, scope: 'destination', maxCount: 10_000_000 },
  ],
  destinationCaps: [{ address: 'TBenchPartner', maxAmount: '1000000000', hours: 24 }],
});

export async function runVelocity(requests: number): Promise<{ readonly p95: number }> {
  console.log(`\nthe policy before a send: ${requests.toLocaleString('en')} signed intents inside the windows, 50 operators in 5 approval groups`);
  let policy: WithdrawalPolicy = DEFAULT_WITHDRAWAL_POLICY;
  const { dir, db, trail, lastUserOrder, appendRequest } = await buildBenchDesk(requests, 0, (groups) => (policy = policyOf(groups)));
  try {
    const limit = ed25519Limit();
    const request = getWithdrawalRequestByUserOrder(db, lastUserOrder);
    if (!request?.intentJson) throw new Error('the last request is missing');
    const parts = { db, now: Date.now };
    const roster = trail.roster(PROFILE);
    const walk = trail.linkage({ profile: PROFILE, subject: request.intentHash ?? '' });
    const evidence = judgeRequest(roster, request, walk.collected, MERCHANT, Date.now());
    if (walk.problem || evidence.intent === null || evidence.requestRow === null || evidence.initiator === null) throw new Error('the bench desk does not verify');
    const intent = evidence.intent;
    const candidate = {
      key: `${evidence.requestRow.statement.subject}/${intent.userOrder}`,
      currency: intent.currency,
      chain: 'trx' as const,
      amount: new Money(intent.amount),
      initiator: evidence.initiator,
      destination: intent.toAddress,
      at: evidence.requestRow.statement.at,
    };
    const evaluate = (): void => {
      if (velocityHolds(parts, roster, policy, PROFILE, candidate).length > 0) throw new Error('the bench policy should hold nothing');
    };
    // The whole policy before a send (send-rules.ts): freeze, approvals and groups, the book, the daily total, the
    // windows and caps, the radar, judged under the roster the send's judging replayed (timed on its own below).
    const desk = { ...createKernel(db, Date.now), ...auditRecorder(trail), activeProfileName: () => PROFILE, activeProfile: () => getProfile(db, PROFILE) ?? expectProfile() };
    const wholePolicy = (): void => {
      const holds = sendHolds(desk, request, evidence, roster);
      if (holds.length > 0) throw new Error(`the bench policy should hold nothing: ${holds.join('; ')}`);
    };
    const counted = signedIntentsFromStatements(parts, roster, { profile: PROFILE, start: Date.now() - 168 * 3_600_000, end: Date.now() + 1 }).length;
    if (counted !== requests) throw new Error(`the windows count ${counted} intents, not ${requests}`);

    resetSignatureCache();
    forgetSignedIntents(db);
    const builtBefore = signedIntentIndexStats().built;
    const [cold = 0] = samples(evaluate, 1);
    const warm = samples(evaluate, 200);
    const stats = signatureCacheStats();
    const indexStats = signedIntentIndexStats();
    // One more signed request before each sample (not timed): the index reads only the rows appended since its head.
    const grown: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      appendRequest();
      grown.push(...samples(evaluate, 1));
    }
    const readMs = percentile(samples(() => auditRowsOfKindsSince(db, PROFILE, ['request', 'reject', 'cancel'], Date.now() - 168 * 3_600_000), 10), 50);
    const linkageMs = percentile(samples(() => trail.linkage({ profile: PROFILE, subject: request.intentHash ?? '' }), 10), 50);
    const rosterMs = percentile(samples(() => trail.roster(PROFILE), 10), 50);
    const whole = samples(wholePolicy, 200);
    const judgeMs = percentile(samples(() => judgeRequest(roster, request, walk.collected, MERCHANT, Date.now()), 30), 50);
    const p50 = percentile(warm, 50);
    const p95 = percentile(warm, 95);
    const grownP50 = percentile(grown, 50);
    const grownP95 = percentile(grown, 95);
    const wholeP50 = percentile(whole, 50);
    const send = linkageMs + rosterMs + judgeMs + wholeP50;
    console.log(`  cold (every request signature verified, the index built): ${cold.toFixed(0)} ms = ${((requests / cold) * 1000).toFixed(0)} verifications/s, ${((requests / cold) * 1000 / limit).toFixed(2)} of the Ed25519 limit (${limit.toLocaleString('en')}/s)`);
    console.log(`  warm (the index at the chain's head; ${stats.size.toLocaleString('en')} verified signatures kept, index built ${indexStats.built - builtBefore} time${indexStats.built - builtBefore === 1 ? '' : 's'}): p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (target p95 <= 5 ms: ${p95 <= 5 ? 'PASS' : 'MISSED'})`);
    console.log(`  after one new signed request each (the index reads the new rows only): p50 ${grownP50.toFixed(2)} ms, p95 ${grownP95.toFixed(2)} ms (the append itself not timed)`);
    console.log(`    for scale, reading every request row of the windows from SQLite once: ${readMs.toFixed(1)} ms`);
    console.log(`  the whole policy (send-rules: freeze, approvals and groups, book, daily total, windows and cap, radar): p50 ${wholeP50.toFixed(2)} ms, p95 ${percentile(whole, 95).toFixed(2)} ms (target p95 <= 5 ms: ${percentile(whole, 95) <= 5 ? 'PASS' : 'MISSED'})`);
    console.log(`  a send's verification before its first byte: linkage ${linkageMs.toFixed(1)} ms + roster replay ${rosterMs.toFixed(1)} ms + judging ${judgeMs.toFixed(2)} ms + the whole policy ${wholeP50.toFixed(2)} ms: the policy is ${((wholeP50 / send) * 100).toFixed(0)} %, its windows ${((p50 / send) * 100).toFixed(1)} %`);
    return { p95 };
  } finally {
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}
