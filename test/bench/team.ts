// Benchmark of a team desk against a single SQLite desk: three harness engines ("workstations") on one PostgreSQL
// (scripts/with-postgres.sh) and a sandbox of their own (sandbox-desk.ts). Reports decision-to-visible latency across workstations (a request
// at A seen at B, an approval at B seen at A; p50 and p95, target p95 <= 1 s) next to the same decisions on one desk,
// and submissions per second with three workstations submitting at once next to one desk submitting alone.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callMethod, type MethodName, type ResponseOf } from '../../electron/contract';
import { startHarnessEngine, type HarnessEngine } from '../harness/engine';
import type { BenchOutcome } from './run';
import { runSoak } from './team-soak';
import { runStoreBench } from './team-store';
import { joinAndEnrol, type Operator } from '../support/team-join';
import { BENCH_PROFILE, startSandboxDesk, type SandboxDesk } from './sandbox-desk';
import { runRegistryBench } from './team-registry';
import { runWitnessBench } from './team-witness';
import { emptyTeamSchema } from './team-database';

const ROUNDS = 30;
const SUBMISSIONS = 30;

interface Station {
  readonly harness: HarnessEngine;
  value<M extends MethodName>(method: M, request: unknown): Promise<ResponseOf<M>>;
  idOf(userOrder: string): Promise<string | undefined>;
  stateOf(userOrder: string): Promise<string | undefined>;
}

async function station(dataDir: string): Promise<Station> {
  const harness = await startHarnessEngine({ dataDir, lockable: false, demoAuto: false });
  const value = async <M extends MethodName>(method: M, request: unknown): Promise<ResponseOf<M>> => {
    const result = await callMethod(harness.engine.handlers, method, request);
    if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
    return result.value;
  };
  const find = async (userOrder: string) => (await value('withdrawals/list', { limit: 1000 })).rows.find((row) => row.userOrder === userOrder);
  return { harness, value, idOf: async (userOrder) => (await find(userOrder))?.id, stateOf: async (userOrder) => (await find(userOrder))?.state };
}

/** Polls every 2 ms until `check` holds; the time it took (ms). */
async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return performance.now() - started;
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

async function request(at: Station, as: Operator): Promise<string> {
  const { withdrawal } = await at.value('withdrawals/request', { currency: 'eth.usdt', amount: '21', toAddress: `0x${randomBytes(20).toString('hex')}`, as });
  return withdrawal.userOrder;
}

/** Timed decisions on one desk: the time each call takes (visible at once on the same desk). */
async function soloFigures(solo: Station, { initiator, approver }: SandboxDesk): Promise<{ decisions: number[]; submitsPerSecond: number }> {
  const decisions: number[] = [];
  const approved: string[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    let started = performance.now();
    const userOrder = await request(solo, initiator);
    decisions.push(performance.now() - started);
    started = performance.now();
    await solo.value('withdrawals/approve', { id: await solo.idOf(userOrder), as: approver });
    decisions.push(performance.now() - started);
    if (approved.length < SUBMISSIONS) approved.push(userOrder);
  }
  const started = performance.now();
  for (const userOrder of approved) await solo.value('withdrawals/submit', { id: await solo.idOf(userOrder), as: initiator });
  return { decisions, submitsPerSecond: approved.length / ((performance.now() - started) / 1000) };
}

/** Runs the benchmark again inside a private keyring and a throwaway PostgreSQL cluster (it drops and refills the schema). */
function reinvokeInCluster(args: readonly string[]): never {
  console.log('team: starting a private keyring and a throwaway PostgreSQL cluster (scripts/with-keyring.sh, scripts/with-postgres.sh) for this run');
  const result = spawnSync('bash', ['scripts/with-keyring.sh', 'bash', 'scripts/with-postgres.sh', 'npx', '--no-install', 'tsx', 'test/bench/run.ts', 'team', ...args], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

/**
 * Workstations first (decision to visible, submissions/s), then the witness step's cost to a send with 3 and 10
 * workstations, then the store operations behind the approvals queue, then the kind registry verifying a 100,000-row
 * shared chain. `--witness` and `--registry` run that part alone.
 */
/** `--requests N`: the registry bench's desk size (10,000 requests, about 100,000 rows, unless given). */
function requestsOption(args: readonly string[]): number {
  const index = args.indexOf('--requests');
  const value = index >= 0 ? Number(args[index + 1]) : 10_000;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error('--requests takes a positive whole number');
  return value;
}

export async function run(args: readonly string[]): Promise<BenchOutcome> {
  const url = process.env['TREASURY_DESK_DATABASE_URL'];
  // Never against a real team database: only inside the harnesses' throwaway cluster and keyring.
  const ownerUrl = process.env['TREASURY_DESK_OWNER_DATABASE_URL'];
  if (url === undefined || ownerUrl === undefined || process.env['TREASURY_DESK_PG_HARNESS'] === undefined || process.env['TREASURY_KEYRING_HARNESS'] === undefined) reinvokeInCluster(args);
  if (args.includes('--soak')) return runSoak(args, url, ownerUrl);
  if (args.includes('--witness')) return runWitnessBench(url, ownerUrl);
  if (args.includes('--registry')) return runRegistryBench(url, ownerUrl, requestsOption(args));
  const workstations = await runWorkstationBench(url, ownerUrl);
  const witness = await runWitnessBench(url, ownerUrl);
  const store = await runStoreBench(args, url, ownerUrl);
  const registry = await runRegistryBench(url, ownerUrl, requestsOption(args));
  return { missed: [...workstations.missed, ...witness.missed, ...store.missed, ...registry.missed] };
}

async function runWorkstationBench(url: string, ownerUrl: string): Promise<BenchOutcome> {
  await emptyTeamSchema(ownerUrl);

  const dir = mkdtempSync(join(tmpdir(), 'td-bench-team-'));
  const stations: Station[] = [];
  const closers: (() => Promise<void>)[] = [];
  try {
    const solo = await station(join(dir, 'solo'));
    stations.push(solo);
    const soloDesk = await startSandboxDesk(solo.value, join(dir, 'solo-service'));
    closers.push(() => soloDesk.sandbox.close());
    const baseline = await soloFigures(solo, soloDesk);

    const a = await station(join(dir, 'a'));
    stations.push(a);
    const desk = await startSandboxDesk(a.value, join(dir, 'service'));
    closers.push(() => desk.sandbox.close());
    const { initiator: ADMIN, approver: APPROVER } = desk;
    await a.value('team/init', { database: url, ownerDatabase: ownerUrl, workstation: 'A', as: ADMIN });
    const others: Station[] = [];
    for (const name of ['B', 'C']) {
      const other = await station(join(dir, name));
      stations.push(other);
      await joinAndEnrol(other.value, a.value, name, url, ADMIN, [APPROVER]);
      others.push(other);
    }
    const [b, c] = others as [Station, Station];

    const visible: number[] = [];
    const approved: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const userOrder = await request(a, ADMIN);
      visible.push(await until(async () => (await b.stateOf(userOrder)) === 'awaitingApproval'));
      await b.value('withdrawals/approve', { id: await b.idOf(userOrder), as: APPROVER });
      visible.push(await until(async () => (await a.stateOf(userOrder)) === 'approved'));
      approved.push(userOrder);
    }

    // B and C get the merchant credentials too; each workstation submits its third of the approved requests at once.
    for (const other of [b, c]) await other.value('profiles/importFile', { name: BENCH_PROFILE, path: desk.sandbox.credentialsPath });
    for (const userOrder of approved) await until(async () => (await c.stateOf(userOrder)) === 'approved');
    const shares = [a, b, c].map((at, index) => ({ at, userOrders: approved.filter((_, position) => position % 3 === index).slice(0, SUBMISSIONS / 3) }));
    const started = performance.now();
    await Promise.all(shares.map(async ({ at, userOrders }) => {
      for (const userOrder of userOrders) await at.value('withdrawals/submit', { id: await at.idOf(userOrder), as: ADMIN });
    }));
    const teamSubmits = shares.reduce((sum, share) => sum + share.userOrders.length, 0) / ((performance.now() - started) / 1000);

    const p95 = percentile(visible, 95);
    console.log(`team desk benchmark (${ROUNDS} requests and ${ROUNDS} approvals; ${SUBMISSIONS} submissions)`);
    console.log(`  one SQLite desk:   a decision takes p50 ${percentile(baseline.decisions, 50).toFixed(0)} ms, p95 ${percentile(baseline.decisions, 95).toFixed(0)} ms, and is visible at once; ${baseline.submitsPerSecond.toFixed(2)} submissions/s`);
    console.log(`  team (PostgreSQL): decision to visible on another workstation p50 ${percentile(visible, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (target p95 <= 1000 ms: ${p95 <= 1000 ? 'PASS' : 'MISS'})`);
    console.log(`                     ${teamSubmits.toFixed(2)} submissions/s with 3 workstations submitting at once`);
    return { missed: [] };
  } finally {
    for (const opened of stations.reverse()) await opened.harness.close().catch(() => undefined);
    for (const close of closers) await close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
