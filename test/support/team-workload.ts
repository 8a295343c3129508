// Mixed team work on many workstations for a set time (the 20-workstation test and `npm run bench -- team --soak` run
// this same code): requests, approvals and rejections on every workstation, racing submissions and syncs at the two
// holding the merchant credentials; then it waits for every workstation
// to settle and reports what was lost (a decision missing on a workstation), doubled (a userOrder with more than one
// order at the sandbox) or left waiting (a request not final everywhere). It asserts nothing: callers do.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { MethodName, ResponseOf, Result, WithdrawalView } from '../../electron/contract';

/** Orders a sandbox holds for its merchant, per userOrder, read from the sandbox's own database. */
export function sandboxOrdersIn(sandbox: { readonly dataDir: string; readonly credentials: { readonly merchantId: string } }): { userOrder: string; count: number }[] {
  const file = readdirSync(sandbox.dataDir).find((name) => name.endsWith('.sqlite') || name.endsWith('.db'));
  if (file === undefined) throw new Error(`no sandbox database in ${sandbox.dataDir}`);
  const db = new Database(join(sandbox.dataDir, file), { readonly: true });
  try {
    return db
      .prepare('SELECT user_order AS userOrder, count(*) AS count FROM withdrawals WHERE merchant_id = ? GROUP BY user_order')
      .all(sandbox.credentials.merchantId) as { userOrder: string; count: number }[];
  } finally {
    db.close();
  }
}

export interface WorkloadStation {
  readonly name: string;
  /** Holds the merchant credentials: may submit and sync. */
  readonly canSubmit: boolean;
  call<M extends MethodName>(method: M, request: unknown): Promise<Result<ResponseOf<M>>>;
}

type Credentials = { readonly operator: string; readonly passphrase: string };

export interface WorkloadOptions {
  readonly durationMs: number;
  readonly initiator: Credentials;
  readonly approver: Credentials;
  readonly submitter: Credentials;
  readonly currency: string;
  /** Each request's amount (at least the currency's minimum). */
  readonly amount: string;
  readonly toAddress: () => string;
  /** Orders the sandbox holds per userOrder (its own database). */
  readonly sandboxOrders: () => readonly { userOrder: string; count: number }[];
  /** How long the workstations may take to settle once work stops (default 120 s). */
  readonly settleMs?: number;
  /** Progress lines (the soak prints them). */
  readonly log?: (line: string) => void;
}

export interface WorkloadReport {
  readonly stations: number;
  readonly seconds: number;
  readonly requests: number;
  readonly approvals: number;
  readonly rejections: number;
  readonly submissions: number;
  /** Submissions refused because another workstation held or had done the claim (the race's loser). */
  readonly submitConflicts: number;
  /** Submissions signed whose witnesses did not all answer within the wait: sent later, once, by a resuming sync. */
  readonly witnessWaits: number;
  readonly syncs: number;
  /** Calls answered 'offline' (the team database did not answer in time) and made again after a pause. */
  readonly offlineRetries: number;
  /** Refusals other than a submission race's (each with the workstation and method). */
  readonly failures: readonly string[];
  /** `userOrder at station: state` where a workstation does not show the decision made. */
  readonly lost: readonly string[];
  /** userOrders with more than one order at the sandbox. */
  readonly doubled: readonly string[];
  /** Approved requests with no order at the sandbox, or requests not final at a workstation. */
  readonly waiting: readonly string[];
  /** The verified head each workstation reached (all equal when settled). */
  readonly heads: readonly number[];
  /** Decision to visible at the next workstation, ms. */
  readonly visibleP50: number;
  readonly visibleP95: number;
  readonly settleSeconds: number;
}

const FINAL = new Set(['rejected', 'submitted', 'completed']);
/** The refusal of a submission whose witnesses did not all answer in time (team/witness.ts): signed, sent later. */
const WITNESS_WAIT = /^nothing was sent: .* did not confirm .* The submission is signed and waits in 'submitting'/;

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** Every request a workstation shows, by userOrder. */
async function viewsAt(station: WorkloadStation): Promise<Map<string, WithdrawalView>> {
  const views = new Map<string, WithdrawalView>();
  let cursor: string | null = null;
  do {
    const page: Result<ResponseOf<'withdrawals/list'>> = await station.call('withdrawals/list', cursor === null ? { limit: 1000 } : { limit: 1000, cursor });
    if (!page.ok) throw new Error(`${station.name}: withdrawals/list failed: ${page.error.code}: ${page.error.message}`);
    for (const row of page.value.rows) views.set(row.userOrder, row);
    cursor = page.value.nextCursor;
  } while (cursor !== null);
  return views;
}

async function viewAt(station: WorkloadStation, userOrder: string, until: (view: WithdrawalView) => boolean, timeoutMs: number): Promise<{ view: WithdrawalView; ms: number } | null> {
  const started = performance.now();
  for (;;) {
    const view = (await viewsAt(station)).get(userOrder);
    if (view !== undefined && until(view)) return { view, ms: performance.now() - started };
    if (performance.now() - started > timeoutMs) return null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function runTeamWorkload(stations: readonly WorkloadStation[], options: WorkloadOptions): Promise<WorkloadReport> {
  const submitters = stations.filter((station) => station.canSubmit);
  if (stations.length < 2 || submitters.length < 2) throw new Error('the workload needs at least two workstations, two of them holding the merchant credentials');
  const counts = { requests: 0, approvals: 0, rejections: 0, submissions: 0, submitConflicts: 0, witnessWaits: 0, syncs: 0, offlineRetries: 0 };
  const failures: string[] = [];
  const visible: number[] = [];
  /** userOrder → the decision made ('rejected' or 'submitted'), once made. */
  const decided = new Map<string, 'rejected' | 'submitted'>();
  const requested: string[] = [];
  const started = performance.now();
  const deadline = started + options.durationMs;
  const fail = (station: WorkloadStation, method: string, error: { code: string; message: string }): void => {
    failures.push(`${station.name} ${method}: ${error.code}: ${error.message}`);
  };

  const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  /**
   * Calls until the answer is not 'offline' (the desk refusing a decision while it cannot reach the team database:
   * the person would try again), for at most a minute past the end of the work.
   */
  const persist = async <M extends MethodName>(station: WorkloadStation, method: M, request: unknown): Promise<Result<ResponseOf<M>>> => {
    for (;;) {
      const answer = await station.call(method, request);
      if (answer.ok || answer.error.code !== 'offline' || performance.now() > deadline + 60_000) return answer;
      counts.offlineRetries += 1;
      await pause(500);
    }
  };

  // One actor per workstation: a credential holder requests (the currency list comes from its syncs), this
  // workstation decides, and two credential holders race to submit each approved request.
  const actor = async (index: number): Promise<void> => {
    const decider = stations[index] as WorkloadStation;
    const first = submitters[index % submitters.length] as WorkloadStation;
    const requester = first === decider ? (submitters[(index + 1) % submitters.length] as WorkloadStation) : first;
    let round = 0;
    while (performance.now() < deadline) {
      round += 1;
      const asked = await persist(requester, 'withdrawals/request', {
        currency: options.currency,
        amount: options.amount,
        toAddress: options.toAddress(),
        memo: `soak ${decider.name} ${round}`,
        as: options.initiator,
      });
      if (!asked.ok) {
        fail(requester, 'withdrawals/request', asked.error);
        await pause(500);
        continue;
      }
      counts.requests += 1;
      const userOrder = asked.value.withdrawal.userOrder;
      requested.push(userOrder);
      const seen = await viewAt(decider, userOrder, (view) => view.state === 'awaitingApproval', 30_000);
      if (seen === null) {
        failures.push(`${decider.name}: ${userOrder} not seen awaiting approval within 30 s`);
        continue;
      }
      visible.push(seen.ms);
      if ((index + round) % 4 === 0) {
        const rejected = await persist(decider, 'withdrawals/reject', { id: seen.view.id, reason: 'soak: rejected on purpose', as: options.approver });
        if (!rejected.ok) fail(decider, 'withdrawals/reject', rejected.error);
        else {
          counts.rejections += 1;
          decided.set(userOrder, 'rejected');
        }
        continue;
      }
      const approved = await persist(decider, 'withdrawals/approve', { id: seen.view.id, as: options.approver });
      if (!approved.ok) {
        fail(decider, 'withdrawals/approve', approved.error);
        continue;
      }
      counts.approvals += 1;
      const racers = [submitters[(index + round) % submitters.length], submitters[(index + round + 1) % submitters.length]] as WorkloadStation[];
      const answers = await Promise.all(
        racers.map(async (racer) => {
          const ready = await viewAt(racer, userOrder, (view) => view.state !== 'awaitingApproval', 30_000);
          if (ready === null) return { racer, answer: null };
          return { racer, answer: await persist(racer, 'withdrawals/submit', { id: ready.view.id, as: options.submitter }) };
        }),
      );
      for (const { racer, answer } of answers) {
        if (answer === null) failures.push(`${racer.name}: ${userOrder} not seen approved within 30 s`);
        else if (answer.ok) counts.submissions += 1;
        else if (answer.error.code === 'conflict' && WITNESS_WAIT.test(answer.error.message)) counts.witnessWaits += 1;
        else if (answer.error.code === 'conflict') counts.submitConflicts += 1;
        else fail(racer, 'withdrawals/submit', answer.error);
      }
      if (answers.some(({ answer }) => answer?.ok === true)) decided.set(userOrder, 'submitted');
      else if (answers.some(({ answer }) => answer?.ok === false && WITNESS_WAIT.test(answer.error.message))) {
        // The submit statement is signed and the request waits in 'submitting' for its witnesses (team/witness.ts): it
        // must still reach the service exactly once, resumed by a later sync, before the settle below ends.
        decided.set(userOrder, 'submitted');
      }
      if ((index + round) % 5 === 0) {
        const synced = await persist(requester, 'sync/run', {});
        if (synced.ok) counts.syncs += 1;
        else fail(requester, 'sync/run', synced.error);
      }
    }
  };
  let lastLog = performance.now();
  const progress = setInterval(() => {
    if (options.log === undefined || performance.now() - lastLog < 10_000) return;
    lastLog = performance.now();
    options.log(`  ${((performance.now() - started) / 1000).toFixed(0)} s: ${counts.requests} requests, ${counts.approvals} approvals, ${counts.rejections} rejections, ${counts.submissions} submissions, ${failures.length} failures`);
  }, 1_000);
  try {
    await Promise.all(stations.map((_, index) => actor(index)));
  } finally {
    clearInterval(progress);
  }
  const seconds = (performance.now() - started) / 1000;

  // Settle: every workstation shows every decision and reaches the same verified head.
  const settleStarted = performance.now();
  const settleMs = options.settleMs ?? 120_000;
  let lost: string[];
  let waiting: string[];
  let heads: number[];
  for (;;) {
    lost = [];
    waiting = [];
    for (const station of stations) {
      const views = await viewsAt(station);
      for (const userOrder of requested) {
        const view = views.get(userOrder);
        const decision = decided.get(userOrder);
        if (view === undefined) lost.push(`${userOrder} at ${station.name}: missing`);
        else if (decision === 'rejected' && view.state !== 'rejected') lost.push(`${userOrder} at ${station.name}: ${view.state}, rejected elsewhere`);
        else if (decision === 'submitted' && !FINAL.has(view.state)) lost.push(`${userOrder} at ${station.name}: ${view.state}, submitted elsewhere`);
        else if (decision === undefined && !FINAL.has(view.state)) waiting.push(`${userOrder} at ${station.name}: ${view.state}`);
      }
    }
    heads = [];
    for (const station of stations) {
      const status = await station.call('team/status', {});
      heads.push(status.ok ? status.value.verifiedSeq : -1);
    }
    const settled = lost.length === 0 && new Set(heads).size === 1;
    if (settled || performance.now() - settleStarted > settleMs) break;
    // A submission left waiting for its witnesses is resumed by a sync at a workstation holding the credentials, as
    // the app's own sync does; nothing else sends it.
    if (lost.length > 0) for (const station of submitters) await persist(station, 'sync/run', {});
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const orders = new Map(options.sandboxOrders().map((order) => [order.userOrder, order.count]));
  const doubled = requested.filter((userOrder) => (orders.get(userOrder) ?? 0) > 1);
  for (const [userOrder, decision] of decided) if (decision === 'submitted' && (orders.get(userOrder) ?? 0) === 0) waiting.push(`${userOrder}: submitted but no order at the sandbox`);
  for (const userOrder of requested) if (decided.get(userOrder) !== 'submitted' && (orders.get(userOrder) ?? 0) > 0) doubled.push(`${userOrder}: an order at the sandbox though not submitted`);
  return {
    stations: stations.length,
    seconds,
    ...counts,
    failures,
    lost,
    doubled,
    waiting,
    heads,
    visibleP50: percentile(visible, 50),
    visibleP95: percentile(visible, 95),
    settleSeconds: (performance.now() - settleStarted) / 1000,
  };
}

/** The report as lines a person reads. */
export function workloadLines(report: WorkloadReport): string[] {
  return [
    `${report.stations} workstations, ${report.seconds.toFixed(0)} s of work: ${report.requests} requests, ${report.approvals} approvals, ${report.rejections} rejections, ` +
      `${report.submissions} submissions (${report.submitConflicts} racing submissions refused, ${report.witnessWaits} left waiting for witnesses and resumed), ${report.syncs} syncs; ${report.offlineRetries} calls made again after an 'offline' answer`,
    `  decision to visible at the next workstation: p50 ${report.visibleP50.toFixed(0)} ms, p95 ${report.visibleP95.toFixed(0)} ms; settled in ${report.settleSeconds.toFixed(1)} s at head ${[...new Set(report.heads)].join('/')}`,
    `  lost ${report.lost.length}, doubled ${report.doubled.length}, waiting ${report.waiting.length}, failures ${report.failures.length}`,
    ...[...report.lost, ...report.doubled, ...report.waiting, ...report.failures].slice(0, 20).map((line) => `    ${line}`),
  ];
}
