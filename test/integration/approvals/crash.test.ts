// SIGKILL during approve, reject and submit: a decision exists iff its audit row does, the chain always verifies, one order at most.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WithdrawalView } from '../../../electron/contract';
import { DecisionChildren, KillTimer, median } from '../engine/fixtures/kill-children';
import type { DecisionMethod } from '../engine/fixtures/decision-child';
import { SandboxState } from '../engine/fixtures/sandbox-state';
import { seedSignedRequests, type SeededRequest } from '../engine/fixtures/signed-seed';
import { APPROVER, INITIATOR, type Desk } from '../engine/support';
import { decisionRows, fundedDesk, inspect } from './support';

/** Kills per decision kind. Each run costs a passphrase check in the child (scrypt at the test cost, fast-seals.ts) plus the checks here. */
const RUNS_PER_KIND = 14;

type Kind = 'approve' | 'reject' | 'submit';
const METHOD: Readonly<Record<Kind, DecisionMethod>> = { approve: 'withdrawals/approve', reject: 'withdrawals/reject', submit: 'withdrawals/submit' };

let desk: Desk;
let children: DecisionChildren | undefined;
let sandboxState: SandboxState | undefined;
let merchantId: string;
const targets: Record<Kind, SeededRequest[]> = { approve: [], reject: [], submit: [] };
const calibration: Partial<Record<Kind, SeededRequest>> = {};

beforeAll(async () => {
  desk = await fundedDesk(['approver', 'initiator'], '1000000');
  merchantId = desk.sandbox.credentials.merchantId;
  const seed = (count: number, approved: boolean): Promise<SeededRequest[]> =>
    seedSignedRequests({ dbPath: desk.dbPath, profile: 'main', merchantId, initiator: INITIATOR, ...(approved ? { approver: APPROVER } : {}), count });
  const [waiting, approved] = await Promise.all([seed(2 * RUNS_PER_KIND + 2, false), seed(RUNS_PER_KIND + 1, true)]);
  [calibration.approve, calibration.reject] = [waiting.pop(), waiting.pop()];
  calibration.submit = approved.pop();
  targets.approve = waiting.slice(0, RUNS_PER_KIND);
  targets.reject = waiting.slice(RUNS_PER_KIND);
  targets.submit = approved;
  children = await DecisionChildren.start({ dbPath: desk.dbPath, keychainService: desk.vault.service });
  sandboxState = new SandboxState(desk.sandbox.dataDir);
}, 120_000);

afterAll(async () => {
  children?.close();
  sandboxState?.close();
  await desk?.close();
});

function requestFor(kind: Kind, target: SeededRequest): Record<string, unknown> {
  switch (kind) {
    case 'approve':
      return { id: target.id, as: APPROVER };
    case 'reject':
      return { id: target.id, reason: 'unknown payee', as: APPROVER };
    case 'submit':
      return { id: target.id, as: INITIATOR };
  }
}

function stateOf(target: SeededRequest): string {
  return inspect(desk, (db) => (db.prepare('SELECT state FROM withdrawal_requests WHERE id = ?').get(Number(target.id)) as { state: string }).state);
}

function ordersOf(target: SeededRequest): string[] {
  return sandboxState!.ordersTo(merchantId, target.toAddress).map((order) => order.userOrder);
}

/** What the kill left: the decision's audit row (if any) against what the engine says of the request. */
async function afterKill(kind: Kind, target: SeededRequest, run: string): Promise<{ landed: boolean; view: WithdrawalView }> {
  const rows = inspect(desk, (db) => decisionRows(db, target.intentHash, kind));
  expect(rows.length, `${run}: more than one ${kind} row`).toBeLessThanOrEqual(1);
  const landed = rows.length === 1;
  const view = await desk.value('withdrawals/get', { id: target.id });
  switch (kind) {
    case 'approve':
      expect(view.approvals.some((approval) => approval.operator === 'bob' && approval.decision === 'approve'), run).toBe(landed);
      expect(view.state, run).toBe(landed ? 'approved' : 'awaitingApproval');
      break;
    case 'reject':
      expect(view.approvals.some((approval) => approval.operator === 'bob' && approval.decision === 'reject'), run).toBe(landed);
      expect(view.state, run).toBe(landed ? 'rejected' : 'awaitingApproval');
      break;
    case 'submit':
      // The submit statement and `submitting` commit together, before the first byte goes out.
      expect(view.state !== 'approved', `${run}: state ${view.state}`).toBe(landed);
      expect(['approved', 'submitting', 'submitted'], run).toContain(view.state);
      if (!landed) expect(ordersOf(target), `${run}: an order without a submit statement`).toEqual([]);
      break;
  }
  expect(ordersOf(target).length, run).toBeLessThanOrEqual(1);
  const verified = await desk.value('audit/verify', {});
  expect(verified, `${run}: ${JSON.stringify(verified)}`).toMatchObject({ ok: true });
  return { landed, view };
}

describe('SIGKILL at random points of a decision', () => {
  it(`leaves a decision with its audit row or neither, a verifying chain, and at most one order (${3 * RUNS_PER_KIND} kills)`, async () => {
    if (!children) throw new Error('no children');
    const started = performance.now();
    const startup: number[] = [];
    const timers = {} as Record<Kind, KillTimer>;
    // Calibration: one undisturbed decision of each kind says roughly when a decision commits.
    for (const kind of ['approve', 'reject', 'submit'] as const) {
      const target = calibration[kind]!;
      const child = await children.next();
      const { ms, done } = await DecisionChildren.decideToEnd(child, METHOD[kind], requestFor(kind, target));
      expect(done, `calibration ${kind}`).toMatchObject({ ok: true });
      const { landed } = await afterKill(kind, target, `calibration ${kind}`);
      expect(landed).toBe(true);
      timers[kind] = new KillTimer(kind === 'submit' ? ms * 0.95 : ms);
    }
    expect(ordersOf(calibration.submit!)).toEqual([calibration.submit!.userOrder]);

    const outcomes = new Map<string, number>();
    const count = (key: string): void => void outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    for (let index = 0; index < RUNS_PER_KIND; index += 1) {
      for (const kind of ['approve', 'reject', 'submit'] as const) {
        const target = targets[kind][index]!;
        const run = `${kind} run ${index}`;
        const child = await children.next();
        startup.push(child.startup.startupMs + child.startup.warmupMs);
        // A third of the decisions are killed just after their commit shows in the database (for a submission, inside
        // the few milliseconds before its answer is stored) and a third within 3 ms of being asked (before the
        // passphrase check ends, so before any commit): both sides of every commit are reached however fast or slow
        // the machine is. The rest are timed by the clock around the estimated commit.
        const how = (['clock', 'afterCommit', 'early'] as const)[index % 3];
        const byClock = how === 'clock';
        const before = kind === 'submit' ? 'approved' : 'awaitingApproval';
        if (how === 'clock') await DecisionChildren.decideAndKill(child, METHOD[kind], requestFor(kind, target), timers[kind].next());
        else if (how === 'early') await DecisionChildren.decideAndKill(child, METHOD[kind], requestFor(kind, target), Math.random() * 3);
        else await DecisionChildren.decideAndKillWhen(child, METHOD[kind], requestFor(kind, target), () => stateOf(target) !== before, Math.random() * 10);
        const answered = child.done();
        const { landed, view } = await afterKill(kind, target, run);
        if (answered?.ok) expect(landed, `${run}: answered ok but nothing was recorded`).toBe(true);
        if (byClock) timers[kind].observe(landed);

        if (kind !== 'submit') {
          count(`${kind}: ${landed ? 'recorded' : 'not recorded'}`);
          continue;
        }
        // Submission: where the kill landed, then convergence to exactly one order.
        const orders = ordersOf(target);
        count(
          `submit: ${
            !landed ? 'killed before the submit statement committed' : view.state === 'submitted' ? 'finished' : orders.length === 0 ? 'committed, no order yet' : 'order created, answer not stored'
          }`,
        );
        if (view.state === 'submitting') await desk.value('sync/run', {});
        else if (view.state === 'approved') await desk.value('withdrawals/submit', { id: target.id, as: INITIATOR });
        expect((await desk.value('withdrawals/get', { id: target.id })).state, run).toBe('submitted');
        expect(ordersOf(target), run).toEqual([target.userOrder]);
        expect(inspect(desk, (db) => decisionRows(db, target.intentHash, 'submit')), run).toHaveLength(1);
      }
    }

    // Whole-run invariants: one order per submitted request, none for the others, nothing left half-submitted.
    expect(sandboxState!.duplicatedDestinations(merchantId)).toEqual([]);
    expect(sandboxState!.orderCount(merchantId)).toBe(RUNS_PER_KIND + 1);
    for (const target of [...targets.approve, ...targets.reject]) expect(ordersOf(target)).toEqual([]);
    expect(desk.sandbox.checkInvariant()).toMatchObject({ ok: true, violations: [] });
    expect((await desk.value('withdrawals/list', { state: 'submitting', limit: 10 })).rows).toEqual([]);
    expect(await desk.value('audit/verify', {})).toMatchObject({ ok: true });

    const table = [...outcomes.entries()].sort().map(([outcome, n]) => `  ${String(n).padStart(3)}  ${outcome}`).join('\n');
    console.log(
      `SIGKILL decisions: ${3 * RUNS_PER_KIND} in ${((performance.now() - started) / 1000).toFixed(1)} s; child start + warm-up median ` +
        `${median(startup).toFixed(0)} ms; commit estimates approve ${timers.approve.estimate.toFixed(0)} ms, reject ${timers.reject.estimate.toFixed(0)} ms, ` +
        `submit ${timers.submit.estimate.toFixed(0)} ms\n${table}`,
    );
    // The kills must have landed on both sides of every kind of commit.
    for (const kind of ['approve', 'reject'] as const) {
      expect(outcomes.get(`${kind}: recorded`) ?? 0, `${kind} recorded`).toBeGreaterThan(0);
      expect(outcomes.get(`${kind}: not recorded`) ?? 0, `${kind} not recorded`).toBeGreaterThan(0);
    }
    expect(outcomes.get('submit: killed before the submit statement committed') ?? 0).toBeGreaterThan(0);
    expect((outcomes.get('submit: committed, no order yet') ?? 0) + (outcomes.get('submit: order created, answer not stored') ?? 0)).toBeGreaterThan(0);
  }, 150_000);
});
