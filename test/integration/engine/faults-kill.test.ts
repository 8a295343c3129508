// The desk process SIGKILLed at random points of a withdrawal submission (ARCHITECTURE rule 5): after each kill a fresh
// engine reconciles (sync/run), and the sandbox must hold exactly one order for the request (never two), the request
// must be submitted/completed with the sandbox's status, or still approved when the kill came before the submit
// statement and the submitting state were committed (then a submit finishes it). The submit statement exists iff the
// request left `approved`, and the signed audit chain verifies after every kill. A submission starts with the
// operator's passphrase check (scrypt, its longest step, longer under load), which makes its timing too loose to aim
// at the few milliseconds after the commit by the clock alone; so the kills take turns: by the clock around the
// estimated commit (fixtures/kill-children.ts), just after the commit is seen in the database, at a random moment after
// createWithdrawOrder reaches the proxy (which adds random delays before forwarding it and answering), within 80 ms of
// the answer being delivered (before or after the desk stores it), and within 3 ms of asking (before the commit).
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod, type MethodName, type ResponseOf } from '../../../electron/contract';
import { createEngine, type Engine } from '../../../electron/core/engine';
import { PATHS } from '../../../electron/protocol/profile';
import type { FaultProxy } from './fixtures/fault-proxy';
import { DecisionChildren, KillTimer, median } from './fixtures/kill-children';
import { openProxiedDesk, PROXIED_PROFILE, type ProxiedDesk } from './fixtures/proxied-desk';
import type { SandboxState } from './fixtures/sandbox-state';
import { seedSignedRequests, type SeededRequest } from './fixtures/signed-seed';
import { APPROVER, INITIATOR, type Desk } from './support';

const RUNS = 33;
/** Random think time of the child before it submits (ms). */
const CHILD_MAX_THINK_MS = 6;
/** Random delays the proxy adds to createWithdrawOrder before forwarding it and before handing back the answer (ms). */
const MAX_FORWARD_DELAY_MS = 25;
const MAX_ANSWER_DELAY_MS = 25;
/** How the kill of each run is timed, in turn. */
const KILL_MODES = ['by the clock', 'just after the commit', 'after the create reached the proxy', 'after the answer was delivered', 'right after asking'] as const;

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
let children: DecisionChildren | undefined;
let merchantId: string;
let requests: SeededRequest[] = [];
let spare: SeededRequest;
let reader: Database.Database | undefined;

async function call<M extends MethodName>(engine: Engine, method: M, request: unknown): Promise<ResponseOf<M>> {
  const result = await callMethod(engine.handlers, method, request);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** How many submit statements the log holds for a request (its rows' subject is the intent's hash). */
async function submitRows(engine: Engine, request: SeededRequest): Promise<number> {
  let cursor: string | null = null;
  let rows = 0;
  do {
    const page: ResponseOf<'audit/list'> = await call(engine, 'audit/list', { limit: 1000, ...(cursor ? { cursor } : {}) });
    rows += page.rows.filter((row) => row.action === 'withdrawals/submit' && row.subject === request.intentHash).length;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows;
}

beforeAll(async () => {
  proxied = await openProxiedDesk('1000000');
  ({ desk, proxy, sandboxState, merchantId } = proxied);
  // Approved requests signed for real, made straight in the store (a passphrase check per decision would cost 0.6 s each).
  requests = await seedSignedRequests({ dbPath: desk.dbPath, profile: PROXIED_PROFILE, merchantId, initiator: INITIATOR, approver: APPROVER, count: RUNS + 1 });
  spare = requests.pop()!;
  children = await DecisionChildren.start({ dbPath: desk.dbPath, keychainService: desk.vault.service, maxThinkMs: CHILD_MAX_THINK_MS });
  reader = new Database(desk.dbPath, { readonly: true });
}, 120_000);

afterAll(async () => {
  reader?.close();
  children?.close();
  await proxied?.close();
});

describe('SIGKILL at random points of a submission', () => {
  it(`never creates an order twice and always converges (${RUNS} kills)`, async () => {
    if (!children) throw new Error('no children');
    const started = performance.now();
    const points = new Map<KillPoint, number>();
    const serviceCommittedBeforeKill = { yes: 0, no: 0 };
    const startup: number[] = [];
    const reconcileMs: number[] = [];
    const create = PATHS.createWithdrawOrder;

    // One undisturbed submission says roughly when the submit commits (after the passphrase check).
    const calibration = await DecisionChildren.decideToEnd(await children.next(), 'withdrawals/submit', { id: spare.id, as: INITIATOR });
    expect(calibration.done).toMatchObject({ ok: true, state: 'submitted' });
    const timer = new KillTimer(calibration.ms * 0.95, { spread: 0.15 });
    const stateOf = reader!.prepare('SELECT state FROM withdrawal_requests WHERE id = ?').pluck();

    for (const [run, request] of requests.entries()) {
      const child = await children.next();
      startup.push(child.startup.startupMs + child.startup.warmupMs);

      const tag = `run-${run}`;
      proxy.tag = tag;
      proxy.setDelays({ path: create, beforeForward: () => Math.random() * MAX_FORWARD_DELAY_MS, beforeAnswer: () => Math.random() * MAX_ANSWER_DELAY_MS });
      const submit = { id: request.id, as: INITIATOR };
      const mode = KILL_MODES[run % KILL_MODES.length]!;
      const { killedAt } =
        mode === 'by the clock'
          ? await DecisionChildren.decideAndKill(child, 'withdrawals/submit', submit, timer.next())
          : mode === 'right after asking'
            ? await DecisionChildren.decideAndKill(child, 'withdrawals/submit', submit, Math.random() * 3)
          : mode === 'just after the commit'
            ? await DecisionChildren.decideAndKillWhen(child, 'withdrawals/submit', submit, () => stateOf.get(Number(request.id)) !== 'approved', Math.random() * 2)
            : mode === 'after the create reached the proxy'
              ? await DecisionChildren.decideAndKillWhen(
                  child,
                  'withdrawals/submit',
                  submit,
                  () => proxy.eventsFor(create, tag).length > 0,
                  Math.random() * (MAX_FORWARD_DELAY_MS + MAX_ANSWER_DELAY_MS + 20),
                )
              : await DecisionChildren.decideAndKillWhen(
                  child,
                  'withdrawals/submit',
                  submit,
                  () => proxy.eventsFor(create, tag).some((event) => event.deliveredAt !== undefined),
                  Math.random() * 80,
                );
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
        const landed = afterKill.state !== 'approved';
        if (mode === 'by the clock') timer.observe(landed);
        // The submit statement and `submitting` commit together, before the first byte goes out.
        expect(await submitRows(engine, request), `run ${run}: submit statements`).toBe(landed ? 1 : 0);
        expect((await call(engine, 'audit/verify', {})).ok, `run ${run}: the chain after the kill`).toBe(true);
        let point: KillPoint;
        if (!landed) {
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
          view = await call(engine, 'withdrawals/submit', { id: request.id, as: INITIATOR });
          orders = sandboxState.ordersTo(merchantId, request.toAddress);
        }
        expect(orders.map((order) => order.userOrder), `run ${run} (${point})`).toEqual([request.userOrder]);
        expect(view.state, `run ${run} (${point})`).toBe('submitted');
        expect(view.orderStatus, `run ${run}`).toBe(orders[0]?.status);

        // Settle the order (`fail` returns amount + fee) so the next runs' syncs stay small; the sync sees it final.
        const moved = await desk.admin('POST', `/withdrawals/${merchantId}/${request.userOrder}/advance`, { to: 'fail' });
        expect(moved.status).toBe(200);
        await call(engine, 'sync/run', {});
        expect(await call(engine, 'withdrawals/get', { id: request.id })).toMatchObject({ state: 'completed', outcome: 'fail' });
      } finally {
        await engine.close();
      }
      reconcileMs.push(performance.now() - reconcileStarted);
    }

    // Whole-run invariants: one order per request, no destination paid twice, the ledger and the audit chain intact.
    expect(sandboxState.orderCount(merchantId)).toBe(RUNS + 1);
    expect(sandboxState.duplicatedDestinations(merchantId)).toEqual([]);
    expect(desk.sandbox.checkInvariant()).toMatchObject({ ok: true, violations: [] });
    expect((await desk.value('audit/verify', {})).ok).toBe(true);
    const open = await desk.value('withdrawals/list', { state: 'submitting', limit: 10 });
    expect(open.rows).toEqual([]);

    const seconds = (performance.now() - started) / 1000;
    const table = [...points.entries()].map(([point, count]) => `  ${String(count).padStart(4)}  ${point}`).join('\n');
    console.log(
      `SIGKILL runs: ${RUNS} in ${seconds.toFixed(1)} s; child start + warm-up median ${median(startup).toFixed(0)} ms; ` +
        `kill + reconcile + settle median ${median(reconcileMs).toFixed(0)} ms; commit estimate ${timer.estimate.toFixed(0)} ms\nwhere the kills landed:\n${table}\n` +
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
