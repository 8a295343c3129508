// The desk process SIGKILLed at random points of a withdrawal submission, 200 times (ARCHITECTURE rule 5): after
// each kill a fresh engine reconciles (sync/run), and the sandbox must hold exactly one order for the request (never
// two), the request must be submitted/completed with the sandbox's status, or still approved when the kill came
// before the submitting state was committed (then a submit finishes it). Kills are spread over the submission by
// random kill delays, a random think time in the child and random proxy delays before forwarding and answering.
import { fork, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRequest, type MethodName, type ParsedRequestOf, type ResponseOf, type Result } from '../../../electron/contract';
import { createEngine, type Engine } from '../../../electron/core/engine';
import {
  closeDatabase,
  createWithdrawalRequest,
  getOperatorByName,
  openDatabase,
  recordApproval,
  writeTransaction,
  type StoreDatabase,
} from '../../../electron/core/store';
import { newUserOrder } from '../../../electron/core/withdrawals/desk';
import { PATHS } from '../../../electron/protocol/profile';
import { bundleNodeScript, type BundledScript } from './fixtures/bundle';
import type { FaultProxy } from './fixtures/fault-proxy';
import { openProxiedDesk, type ProxiedDesk } from './fixtures/proxied-desk';
import type { SandboxState } from './fixtures/sandbox-state';
import type { FromChild } from './fixtures/submit-child';
import { APPROVER, INITIATOR, tronAddress, type Desk } from './support';

const RUNS = 200;
/** Random think time of the child before it submits (ms): kills also land before the state is committed. */
const CHILD_MAX_THINK_MS = 6;
/** Random delays the proxy adds to createWithdrawOrder before forwarding it and before handing back the answer (ms). */
const MAX_FORWARD_DELAY_MS = 12;
const MAX_ANSWER_DELAY_MS = 12;
/** The kill comes 0..MAX_KILL_DELAY_MS after the parent tells the child to submit. */
const MAX_KILL_DELAY_MS = 80;
/** Children started ahead of their run (their start-up overlaps the previous runs). */
const CHILDREN_AHEAD = 2;

type KillPoint =
  | 'before the submitting state was committed'
  | 'committed, create not yet at the service'
  | 'create at the service, answer not yet received'
  | 'answer received, not yet stored'
  | 'answer stored (submission finished)';

let proxied: ProxiedDesk | undefined;
let desk: Desk;
let proxy: FaultProxy;
let sandboxState: SandboxState;
let bundle: BundledScript | undefined;
let merchantId: string;
const live = new Set<ChildProcess>();

interface StartedChild {
  readonly process: ChildProcess;
  readonly ready: Promise<{ startupMs: number; warmupMs: number }>;
  readonly exited: Promise<void>;
}

function startChild(): StartedChild {
  if (!bundle) throw new Error('the child is not built');
  const child = fork(bundle.file, [], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      TD_DB_PATH: desk.dbPath,
      TD_KEYCHAIN_SERVICE: desk.vault.service,
      TD_CHILD_MAX_THINK_MS: String(CHILD_MAX_THINK_MS),
    },
  });
  live.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => live.delete(child));
  const ready = new Promise<{ startupMs: number; warmupMs: number }>((resolve, reject) => {
    child.on('message', (message: FromChild) => {
      if (message.type === 'ready') resolve({ startupMs: message.startupMs, warmupMs: message.warmupMs });
      else if (message.type === 'failed') reject(new Error(`submit child failed:\n${message.message}`));
    });
    void exited.then(() => reject(new Error('submit child exited before it was ready')));
  });
  ready.catch(() => undefined);
  return { process: child, ready, exited };
}

async function call<M extends MethodName>(engine: Engine, method: M, request: unknown): Promise<ResponseOf<M>> {
  const parsed = parseRequest(method, request);
  if (!parsed.ok) throw new Error(`${method}: ${parsed.error.message}`);
  const handler = engine.handlers[method] as (request: ParsedRequestOf<M>) => Promise<Result<ResponseOf<M>>>;
  const result = await handler(parsed.value);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms < 1 ? setImmediate(resolve) : setTimeout(resolve, ms)));
}

/** Approved requests made straight in the store (four-eyes approval has its own tests; scrypt x 400 would take 25 s). */
function seedApprovedRequests(dbPath: string, count: number): Array<{ id: string; userOrder: string; toAddress: string }> {
  const db: StoreDatabase = openDatabase(dbPath);
  try {
    const initiator = getOperatorByName(db, INITIATOR.operator);
    const approver = getOperatorByName(db, APPROVER.operator);
    if (!initiator || !approver) throw new Error('the desk has no initiator or approver');
    return writeTransaction(db, () =>
      Array.from({ length: count }, () => {
        const now = Date.now();
        const request = createWithdrawalRequest(
          db,
          {
            profile: 'proxied',
            currency: 'trx.usdt',
            amount: '10',
            toAddress: tronAddress(),
            withdrawType: 'normal',
            userOrder: newUserOrder(now),
            initiatorId: initiator.id,
            state: 'approved',
            requiredApprovals: 1,
          },
          now,
        );
        recordApproval(db, { requestId: request.id, operatorId: approver.id, decision: 'approve' }, now);
        return { id: String(request.id), userOrder: request.userOrder, toAddress: request.toAddress };
      }),
    );
  } finally {
    closeDatabase(db);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

beforeAll(async () => {
  proxied = await openProxiedDesk('1000000');
  ({ desk, proxy, sandboxState, merchantId } = proxied);
  bundle = await bundleNodeScript('test/integration/engine/fixtures/submit-child.ts');
}, 120_000);

afterAll(async () => {
  for (const child of live) child.kill('SIGKILL');
  await proxied?.close();
  if (bundle) rmSync(bundle.dir, { recursive: true, force: true });
});

describe('SIGKILL at random points of a submission', () => {
  it(`never creates an order twice and always converges (${RUNS} kills)`, async () => {
    const started = performance.now();
    const requests = seedApprovedRequests(desk.dbPath, RUNS);
    const points = new Map<KillPoint, number>();
    const serviceCommittedBeforeKill = { yes: 0, no: 0 };
    const startup: number[] = [];
    const reconcileMs: number[] = [];
    const queue: StartedChild[] = [];
    const create = PATHS.createWithdrawOrder;

    for (const [run, request] of requests.entries()) {
      while (queue.length < CHILDREN_AHEAD + 1) queue.push(startChild());
      const child = queue.shift();
      if (!child) throw new Error('no child');
      const ready = await child.ready;
      startup.push(ready.startupMs + ready.warmupMs);

      const tag = `run-${run}`;
      proxy.tag = tag;
      proxy.setDelays({ path: create, beforeForward: () => Math.random() * MAX_FORWARD_DELAY_MS, beforeAnswer: () => Math.random() * MAX_ANSWER_DELAY_MS });
      child.process.send({ type: 'go', id: request.id });
      await pause(Math.random() * MAX_KILL_DELAY_MS);
      child.process.kill('SIGKILL');
      const killedAt = performance.now();
      await child.exited;
      proxy.tag = `reconcile-${run}`;
      proxy.setDelays(undefined);
      await proxy.idle();

      const reconcileStarted = performance.now();
      const engine = await createEngine({ dbPath: desk.dbPath, vault: desk.vault, cryptoThreads: 1 });
      try {
        const afterKill = await call(engine, 'withdrawals/get', { id: request.id });
        const creates = proxy.eventsFor(create, tag);
        // The child sends at most one create: an ambiguous one is checked, never resent.
        expect(creates.length, `run ${run}`).toBeLessThanOrEqual(1);
        const sent = creates[0];
        let point: KillPoint;
        if (afterKill.state === 'approved') {
          expect(sent, `run ${run}: a create went out before the state was committed`).toBeUndefined();
          point = 'before the submitting state was committed';
        } else if (!sent) point = 'committed, create not yet at the service';
        else if (sent.deliveredAt === undefined || sent.deliveredAt > killedAt) point = 'create at the service, answer not yet received';
        else point = afterKill.state === 'submitted' ? 'answer stored (submission finished)' : 'answer received, not yet stored';
        points.set(point, (points.get(point) ?? 0) + 1);
        if (sent) {
          if (sent.upstreamAnsweredAt !== undefined && sent.upstreamAnsweredAt <= killedAt) serviceCommittedBeforeKill.yes += 1;
          else serviceCommittedBeforeKill.no += 1;
        }
        expect(['approved', 'submitting', 'submitted'], `run ${run}`).toContain(afterKill.state);

        // Restart: a fresh engine reconciles.
        await call(engine, 'sync/run', {});
        let view = await call(engine, 'withdrawals/get', { id: request.id });
        let orders = sandboxState.ordersTo(merchantId, request.toAddress);
        if (view.state === 'approved') {
          expect(orders, `run ${run}: an approved request has an order`).toEqual([]);
          view = await call(engine, 'withdrawals/submit', { id: request.id });
          orders = sandboxState.ordersTo(merchantId, request.toAddress);
        }
        expect(orders.map((order) => order.userOrder), `run ${run} (${point})`).toEqual([request.userOrder]);
        expect(view.state, `run ${run} (${point})`).toBe('submitted');
        expect(view.orderStatus, `run ${run}`).toBe(orders[0]?.status);

        // Settle the order (`fail` returns amount + fee) so the next runs' syncs stay small.
        const moved = await desk.admin('POST', `/withdrawals/${merchantId}/${request.userOrder}/advance`, { to: 'fail' });
        expect(moved.status).toBe(200);
        const final = await call(engine, 'withdrawals/submit', { id: request.id });
        expect(final).toMatchObject({ state: 'completed', outcome: 'fail' });
      } finally {
        await engine.close();
      }
      reconcileMs.push(performance.now() - reconcileStarted);
    }
    for (const child of queue) child.process.kill('SIGKILL');

    // Whole-run invariants: one order per request, no destination paid twice, the ledger and the audit chain intact.
    expect(sandboxState.orderCount(merchantId)).toBe(RUNS);
    expect(sandboxState.duplicatedDestinations(merchantId)).toEqual([]);
    expect(desk.sandbox.checkInvariant()).toMatchObject({ ok: true, violations: [] });
    expect((await desk.value('audit/verify', {})).ok).toBe(true);
    const open = await desk.value('withdrawals/list', { state: 'submitting', limit: 10 });
    expect(open.rows).toEqual([]);

    const seconds = (performance.now() - started) / 1000;
    const table = [...points.entries()].map(([point, count]) => `  ${String(count).padStart(4)}  ${point}`).join('\n');
    console.log(
      `SIGKILL runs: ${RUNS} in ${seconds.toFixed(1)} s; child start + warm-up median ${median(startup).toFixed(0)} ms; ` +
        `kill + reconcile + settle median ${median(reconcileMs).toFixed(0)} ms\nwhere the kills landed:\n${table}\n` +
        `create reached the service in ${serviceCommittedBeforeKill.yes + serviceCommittedBeforeKill.no} runs: the service had answered it ` +
        `before the kill in ${serviceCommittedBeforeKill.yes}, after the kill (request in flight) in ${serviceCommittedBeforeKill.no}`,
    );
    // The spread is the point: every phase must have been hit.
    for (const point of [
      'before the submitting state was committed',
      'committed, create not yet at the service',
      'create at the service, answer not yet received',
      'answer stored (submission finished)',
    ] as const) {
      expect(points.get(point) ?? 0, point).toBeGreaterThan(0);
    }
  }, 240_000);
});
