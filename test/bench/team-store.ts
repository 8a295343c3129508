// Benchmark of the team desk's shared store, PostgreSQL against the single-desk SQLite store: the store operations
// behind the approvals queue at 10,000 requests and 50 operators (p50/p95 each; gate p95 <= 20 ms), an append's
// notification reaching two other workstations (p50/p95; target p95 <= 1 s), and submission-claim cycles per second
// with 3 workstations. The store half of `npm run bench -- team` (team.ts), which provides the throwaway cluster.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresDeskStore } from '../../electron/core/team/postgres-store';
import type { ChainHead, ProjectionWrite, SharedDeskStore } from '../../electron/core/team/shared-store';
import { openSqliteDeskStore } from '../../electron/core/team/sqlite-store';
import { chainRows } from '../support/shared-chain';
import { percentile } from './history';
import type { BenchOutcome } from './run';
import { emptyTeamSchema } from './team-database';

const OPERATORS = 50;
const QUEUE_PAGE = 50;
const GATE_P95_MS = 20;
const VISIBLE_TARGET_P95_MS = 1_000;

interface Figures {
  readonly name: string;
  readonly samples: number[];
}

function summary(samples: readonly number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

async function timed(name: string, iterations: number, operation: (iteration: number) => Promise<unknown>): Promise<Figures> {
  const samples: number[] = [];
  for (let iteration = 0; iteration < iterations; iteration += 1) {
    const started = performance.now();
    await operation(iteration);
    samples.push(performance.now() - started);
  }
  return { name, samples };
}

function userOrder(index: number): string {
  return `wd-${String(index).padStart(6, '0')}`;
}

/** 10,000 requests (1 in 10 pending), two approvals each, 50 operators: rows and projections, appended in batches. */
async function load(store: SharedDeskStore, requests: number): Promise<ChainHead> {
  let head: ChainHead | null = null;
  const batch = 500;
  for (let start = 0; start < requests; start += batch) {
    const writes: ProjectionWrite[] = [];
    const count = Math.min(batch, requests - start);
    for (let index = start; index < start + count; index += 1) {
      const order = userOrder(index);
      writes.push({ table: 'withdrawal_requests', key: order, row: { userOrder: order, profile: 'main', state: index % 10 === 0 ? 'pending' : 'final', amount: '125.50', currency: 'USDT' } });
      for (const approver of [index % OPERATORS, (index + 7) % OPERATORS]) {
        writes.push({ table: 'approvals', key: `${order}/op-${approver}`, row: { userOrder: order, operator: `op-${approver}` } });
      }
    }
    if (start === 0) {
      for (let operator = 0; operator < OPERATORS; operator += 1) {
        writes.push({ table: 'operators', key: `op-${operator}`, row: { name: `op-${operator}`, role: operator < 2 ? 'admin' : 'approver', publicKey: 'x'.repeat(64) } });
      }
    }
    // Three statements per request (request, two approvals).
    const rows = chainRows(head, count * 3);
    const outcome = await store.append(rows, writes, head);
    if (!outcome.appended) throw new Error('the bench load lost an append race it cannot have');
    head = outcome.head;
  }
  if (head === null) throw new Error('nothing loaded');
  return head;
}

/** The approvals queue's store operations, each timed `iterations` times. */
async function queueOperations(store: SharedDeskStore, workstation: SharedDeskStore, requests: number, iterations: number): Promise<Figures[]> {
  const figures: Figures[] = [];
  figures.push(await timed('head', iterations, () => store.head()));
  figures.push(
    await timed('catch-up: rowsAfter (last 20 rows)', iterations, async () => {
      const head = await store.head();
      return store.rowsAfter(Math.max(0, (head?.seq ?? 0) - 20), 100);
    }),
  );
  figures.push(await timed(`pending requests, first page (${QUEUE_PAGE})`, iterations, () => store.projection('withdrawal_requests', { limit: QUEUE_PAGE, where: { state: 'pending' } })));
  figures.push(
    await timed(`pending requests, a later page (${QUEUE_PAGE})`, iterations, (iteration) =>
      store.projection('withdrawal_requests', { limit: QUEUE_PAGE, where: { state: 'pending' }, after: userOrder((iteration * 97) % (requests - 1000)) }),
    ),
  );
  figures.push(await timed('approvals of one request', iterations, (iteration) => store.projection('approvals', { limit: 100, where: { userOrder: userOrder((iteration * 131) % requests) } })));
  figures.push(await timed(`operators (${OPERATORS})`, iterations, () => store.projection('operators', { limit: 100 })));
  figures.push(
    await timed('decision: append 1 statement + 2 projection rows at the head', iterations, async (iteration) => {
      const head = await store.head();
      const order = userOrder((iteration * 13) % requests);
      const outcome = await store.append(
        chainRows(head, 1),
        [
          { table: 'withdrawal_requests', key: order, row: { userOrder: order, profile: 'main', state: 'approved', amount: '125.50', currency: 'USDT' } },
          { table: 'approvals', key: `${order}/op-bench`, row: { userOrder: order, operator: 'op-bench' } },
        ],
        head,
      );
      if (!outcome.appended) throw new Error('unexpected conflict');
    }),
  );
  figures.push(
    await timed('submission claim (another workstation refused)', iterations, async (iteration) => {
      const order = `claim-${iteration}`;
      await store.claimSubmission(order, 'ws-a', 60_000);
      await workstation.claimSubmission(order, 'ws-b', 60_000);
    }),
  );
  return figures;
}

/** An append at one workstation until both others are told of it (store level: the NOTIFY path). */
async function visibleAcross(open: () => Promise<SharedDeskStore>, rounds: number): Promise<Figures> {
  const [writer, first, second] = [await open(), await open(), await open()];
  const waiting = new Map<number, { remaining: number; done: () => void }>();
  const onAppended = (seq: number): void => {
    const entry = waiting.get(seq);
    if (entry === undefined) return;
    entry.remaining -= 1;
    if (entry.remaining === 0) entry.done();
  };
  const stops = [await first.subscribe(onAppended, () => undefined), await second.subscribe(onAppended, () => undefined)];
  try {
    return await timed('append at A until B and C are told', rounds, async () => {
      const head = await writer.head();
      const seq = (head?.seq ?? 0) + 1;
      const seen = new Promise<void>((resolve) => waiting.set(seq, { remaining: 2, done: resolve }));
      await writer.append(chainRows(head, 1), [], head);
      await seen;
      waiting.delete(seq);
    });
  } finally {
    for (const stop of stops) await stop();
    await Promise.all([writer.close(), first.close(), second.close()]);
  }
}

/** Claim → sent → done cycles for distinct requests, 3 workstations competing for each. */
async function claimCycles(open: () => Promise<SharedDeskStore>, requests: number): Promise<{ perSecond: number; duplicates: number }> {
  const stations = [await open(), await open(), await open()];
  let winners = 0;
  let duplicates = 0;
  const started = performance.now();
  try {
    for (let index = 0; index < requests; index += 1) {
      const order = `cycle-${index}`;
      const outcomes = await Promise.all(stations.map((station, number) => station.claimSubmission(order, `ws-${number}`, 60_000)));
      const won = outcomes.flatMap((outcome, number) => (outcome.claimed ? [number] : []));
      if (won.length !== 1) duplicates += 1;
      const winner = won[0] ?? 0;
      const station = stations[winner] as SharedDeskStore;
      await station.updateClaim(order, `ws-${winner}`, { state: 'sent', leaseMs: 60_000 });
      await station.updateClaim(order, `ws-${winner}`, { state: 'done', result: `order-${index}` });
      winners += 1;
    }
    return { perSecond: winners / ((performance.now() - started) / 1000), duplicates };
  } finally {
    await Promise.all(stations.map((station) => station.close()));
  }
}

const fixed = (value: number, digits = 2): string => value.toFixed(digits);

/** The store half of `npm run bench -- team` (team.ts runs it after the workstations' figures), on a throwaway cluster. */
export async function runStoreBench(args: readonly string[], url: string, ownerUrl: string): Promise<BenchOutcome> {
  const requests = Number(args[0] ?? 10_000);
  const iterations = Number(args[1] ?? 300);
  const folder = mkdtempSync(join(tmpdir(), 'td-bench-team-'));
  await emptyTeamSchema(ownerUrl);
  const backends: { name: string; open: () => Promise<SharedDeskStore> }[] = [
    { name: 'SQLite (single desk)', open: async () => openSqliteDeskStore(join(folder, 'shared.sqlite')) },
    { name: 'PostgreSQL 15 (team)', open: () => openPostgresDeskStore(url, { ownerUrl }) },
  ];
  const missed: string[] = [];
  const table: string[] = [];
  try {
    for (const backend of backends) {
      const store = await backend.open();
      const workstation = await backend.open();
      try {
        await store.initialise('bench-desk', Date.now());
        const loadStarted = performance.now();
        const head = await load(store, requests);
        console.log(`team: ${backend.name}: loaded ${requests} requests, ${requests * 2} approvals, ${OPERATORS} operators, ${head.seq} chain rows in ${fixed((performance.now() - loadStarted) / 1000, 1)} s`);
        for (const figures of await queueOperations(store, workstation, requests, iterations)) {
          const { p50, p95 } = summary(figures.samples);
          table.push(`${backend.name.padEnd(22)} ${figures.name.padEnd(62)} p50 ${fixed(p50).padStart(7)} ms  p95 ${fixed(p95).padStart(7)} ms`);
          if (p95 > GATE_P95_MS) missed.push(`${backend.name}: ${figures.name} p95 ${fixed(p95)} ms > ${GATE_P95_MS} ms`);
        }
      } finally {
        await Promise.all([store.close(), workstation.close()]);
      }
      const visible = summary((await visibleAcross(backend.open, Math.min(iterations, 200))).samples);
      table.push(`${backend.name.padEnd(22)} ${'append at A until B and C are told (store level)'.padEnd(62)} p50 ${fixed(visible.p50).padStart(7)} ms  p95 ${fixed(visible.p95).padStart(7)} ms`);
      if (visible.p95 > VISIBLE_TARGET_P95_MS) missed.push(`${backend.name}: visible across workstations p95 ${fixed(visible.p95)} ms > ${VISIBLE_TARGET_P95_MS} ms`);
      const cycles = await claimCycles(backend.open, Math.min(iterations, 300));
      table.push(`${backend.name.padEnd(22)} ${'claim → sent → done, 3 workstations competing'.padEnd(62)} ${fixed(cycles.perSecond, 0)} submissions/s, ${cycles.duplicates} double claims`);
      if (cycles.duplicates > 0) missed.push(`${backend.name}: ${cycles.duplicates} requests claimed by more than one workstation`);
    }
    console.log(`\nteam: store operations behind the approvals queue (${iterations} runs each; gate p95 <= ${GATE_P95_MS} ms)`);
    for (const line of table) console.log(line);
    return { missed };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
