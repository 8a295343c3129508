// Sync-at-scale benchmark (issue 25, item 4): a first sync of 1,000,000 deposits by a desk (the engine) in its own
// process from a sandbox in its own process. Measures the wall time against the RSA limit, the desk's CPU against that
// RSA work, the desk's peak memory (gate: <= 400 MB), the time until the deposits screen's first page has rows, how long
// the desk takes to answer that page (`deposits/list`, what the window asks) and how late its event loop runs while it
// syncs; then a second desk SIGKILLed at a random point of its sync, a fresh desk resuming it, and the history ending
// complete with every deposit once.
//
//   npm run bench -- sync-scale [--deposits N] [--no-kill] [--seed S] [--cpu-prof DIR]
//
// --cpu-prof DIR writes the first desk's main-thread CPU profile (node --cpu-prof) into DIR, to see where its time goes.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { callMethod } from '../../electron/contract';
import { createEngine } from '../../electron/core/engine';
import { poolTiming, type PoolSliceTiming } from '../../electron/protocol/intake-tracing';
import { startSandbox } from '../../electron/sandbox';
import { randomInt, seededRandom } from '../../electron/sandbox/chain-sim';
import type { BenchOutcome } from './run';
import { percentile } from './history';
import { format, opensslPrivateOpsPerSecond, percent, positiveCount, printTable, SandboxProcess, seedDeposits } from './sync';

const DEFAULT_DEPOSITS = 1_000_000;
/** Issue 25, item 4: the desk's peak resident memory during a first sync of 1,000,000 deposits. */
const PEAK_RSS_TARGET_MB = 400;
/** What the deposits screen asks first (renderer/src/stores/deposits.ts DEPOSIT_PAGE_SIZE). */
const SCREEN_PAGE = 500;
/** How often the desk samples its memory, and asks for the deposits screen's first page until it has rows. */
const PROBE_INTERVAL_MS = 250;
/** Once the screen has rows, how often it asks again (the window asks when deposits change, not continuously). */
const REPROBE_INTERVAL_MS = 2_000;
const DESK_FLAG = 'SYNC_SCALE_BENCH_DESK_CHILD';
const THIS_FILE = fileURLToPath(import.meta.url);

interface Options {
  readonly deposits: number;
  readonly kill: boolean;
  readonly seed: string;
  readonly cpuProfileDir: string | undefined;
}

function parseArgs(args: readonly string[]): Options {
  let deposits = DEFAULT_DEPOSITS;
  let kill = true;
  let seed = String(Date.now());
  let cpuProfileDir: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--deposits') deposits = positiveCount(arg, args[(i += 1)]);
    else if (arg === '--no-kill') kill = false;
    else if (arg === '--seed') seed = String(args[(i += 1)] ?? '');
    else if (arg === '--cpu-prof') cpuProfileDir = resolve(String(args[(i += 1)] ?? '.'));
    else throw new Error(`unknown argument ${String(arg)}; use --deposits N, --no-kill, --seed S, --cpu-prof DIR`);
  }
  return { deposits, kill, seed, cpuProfileDir };
}

// ---- the desk, in its own process ---------------------------------------------------------------------------------

interface DeskJob {
  readonly dbPath: string;
  readonly credentialsPath: string;
}

/** Cumulative figures the desk reports while it syncs (so a killed desk's work up to then is known). */
interface DeskProgress {
  readonly type: 'progress';
  readonly elapsedMs: number;
  readonly pages: number;
  readonly blocks: number;
  readonly rssBytes: number;
}

interface DeskResult {
  readonly type: 'done';
  readonly wallMs: number;
  readonly depositsNew: number;
  readonly pages: number;
  readonly blocks: number;
  readonly cpuSeconds: number;
  /** The main thread's share of cpuSeconds (the rest: the crypto pool's workers, V8's and libuv's threads). */
  readonly mainThreadSeconds: number;
  readonly peakRssBytes: number;
  /** The largest V8 heap in use and the largest memory outside it (Buffers, ArrayBuffers) sampled. */
  readonly peakHeapBytes: number;
  readonly peakExternalBytes: number;
  /** process.resourceUsage().maxRSS: the kernel's peak for the whole process life, start-up included. */
  readonly maxRssBytes: number;
  /** From the sync's start until `deposits/list` first answered rows; null when it never did during the sync. */
  readonly firstRowsMs: number | null;
  /** Every `deposits/list` answer time asked during the sync, ms. */
  readonly listMs: readonly number[];
  readonly loopDelayP99Ms: number;
  readonly loopDelayMaxMs: number;
  readonly complete: boolean;
  readonly depositsHeld: number;
}

type FromDesk = DeskProgress | DeskResult | { readonly type: 'ready' } | { readonly type: 'failed'; readonly message: string };

/** The desk child: opens an engine on the job's database, syncs once, and reports. */
async function deskChildMain(job: DeskJob): Promise<void> {
  const send = (message: FromDesk): void => {
    process.send?.(message);
  };
  let pages = 0;
  let blocks = 0;
  const onSlice = (message: unknown): void => {
    const slice = message as PoolSliceTiming;
    blocks += slice.blocks;
    if (slice.worker === 0) pages += 1; // every page of 100 goes to both workers; count it once
  };
  poolTiming.subscribe(onSlice);
  const engine = await createEngine({ dbPath: job.dbPath, credentialsFile: job.credentialsPath, cryptoThreads: 2 });
  try {
    const selfcheck = await engine.handlers['selfcheck/run']({});
    if (!selfcheck.ok) throw new Error(`selfcheck failed: ${selfcheck.error.code}: ${selfcheck.error.message}`);
    send({ type: 'ready' });
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    const listMs: number[] = [];
    let firstRowsMs: number | null = null;
    let peakRss = process.memoryUsage.rss();
    let peakHeap = 0;
    let peakExternal = 0;
    let lastProbe = 0;
    let syncing = true;
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    const main0 = process.threadCpuUsage();
    // The window's question while it syncs: the deposits screen's first page, timed as the desk answers it.
    const probe = async (): Promise<void> => {
      const asked = performance.now();
      const result = await callMethod(engine.handlers, 'deposits/list', { limit: SCREEN_PAGE });
      listMs.push(performance.now() - asked);
      if (firstRowsMs === null && result.ok && result.value.rows.length > 0) firstRowsMs = performance.now() - started;
    };
    const sampler = setInterval(() => {
      const memory = process.memoryUsage();
      peakRss = Math.max(peakRss, memory.rss);
      peakHeap = Math.max(peakHeap, memory.heapUsed);
      peakExternal = Math.max(peakExternal, memory.external);
      const now = performance.now();
      send({ type: 'progress', elapsedMs: now - started, pages, blocks, rssBytes: peakRss });
      if (syncing && (firstRowsMs === null || now - lastProbe >= REPROBE_INTERVAL_MS)) {
        lastProbe = now;
        void probe();
      }
    }, PROBE_INTERVAL_MS);
    loopDelay.enable();
    const synced = await engine.handlers['sync/run']({});
    syncing = false;
    const wallMs = performance.now() - started;
    loopDelay.disable();
    clearInterval(sampler);
    const cpu = process.cpuUsage(cpu0);
    const main = process.threadCpuUsage(main0);
    if (!synced.ok) throw new Error(`sync failed: ${synced.error.code}: ${synced.error.message}`);
    const status = await engine.handlers['sync/status']({});
    if (!status.ok) throw new Error(`sync/status failed: ${status.error.code}`);
    send({
      type: 'done',
      wallMs,
      depositsNew: synced.value.depositsNew,
      pages,
      blocks,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      mainThreadSeconds: (main.user + main.system) / 1e6,
      peakRssBytes: Math.max(peakRss, process.memoryUsage.rss()),
      peakHeapBytes: peakHeap,
      peakExternalBytes: peakExternal,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      firstRowsMs,
      listMs,
      loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
      loopDelayMaxMs: loopDelay.max / 1e6,
      complete: status.value.depositHistory.complete,
      depositsHeld: status.value.depositHistory.depositsHeld,
    });
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } finally {
    poolTiming.unsubscribe(onSlice);
    await engine.close();
    process.disconnect();
  }
}

/** A desk process syncing `job`; `onProgress` sees each cumulative report. */
class DeskProcess {
  readonly child: ChildProcess;
  last: DeskProgress | undefined;
  readonly ready: Promise<void>;
  readonly result: Promise<DeskResult>;
  /** Resolves when the process has ended, by itself or killed. */
  readonly exited: Promise<void>;

  constructor(job: DeskJob, cpuProfileDir?: string) {
    this.child = fork(THIS_FILE, [JSON.stringify(job)], {
      execArgv: ['--import', 'tsx', ...(cpuProfileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`])],
      env: { ...process.env, [DESK_FLAG]: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let readyResolve: () => void = () => undefined;
    this.ready = new Promise((resolveReady) => (readyResolve = resolveReady));
    this.result = new Promise((resolveResult, reject) => {
      this.child.on('message', (message: FromDesk) => {
        if (message.type === 'ready') readyResolve();
        else if (message.type === 'progress') this.last = message;
        else if (message.type === 'done') resolveResult(message);
        else reject(new Error(`the desk process failed:\n${message.message}`));
      });
      this.child.on('exit', (code, signal) => reject(new Error(`the desk process exited (code ${code}, signal ${signal}) before it reported`)));
    });
    this.result.catch(() => undefined);
    this.exited = new Promise((resolveExit) => this.child.once('exit', () => resolveExit()));
  }

  /** SIGKILL, and resolves once the process is gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

// ---- the run ------------------------------------------------------------------------------------------------------

const mb = (bytes: number): string => format(bytes / 2 ** 20, 0);

export async function run(args: readonly string[]): Promise<BenchOutcome> {
  const options = parseArgs(args);
  const cores = Math.min(2, availableParallelism());
  const dir = mkdtempSync(join(tmpdir(), 'td-bench-sync-scale-'));
  const missed: string[] = [];
  let sandbox: SandboxProcess | undefined;
  const desks: DeskProcess[] = [];
  try {
    console.log(`sync-scale benchmark: a first sync of ${format(options.deposits)} deposits; desk and sandbox each in its own process; node ${process.version}`);
    const [load] = loadavg();
    if (load !== undefined && load > 0.5) console.log(`note: load average ${format(load, 2)} at start; wall-clock figures compete with other work`);
    const dataDir = join(dir, 'sandbox');
    const first = await startSandbox({ host: '127.0.0.1', port: 0, dataDir });
    const merchantId = first.credentials.merchantId;
    await first.close();
    const seeding = performance.now();
    const credited = seedDeposits(dataDir, merchantId, options.deposits);
    console.log(`seeded ${format(credited)} deposits through the sandbox ledger in ${format((performance.now() - seeding) / 1000, 1)} s`);
    sandbox = await SandboxProcess.start(dataDir);
    const perCore = await opensslPrivateOpsPerSecond();
    const limitOpsPerSecond = perCore * cores;
    console.log(`openssl: ${format(perCore, 1)} private ops/s on one core; the RSA limit uses ${cores} cores`);

    // 1. One uninterrupted first sync.
    console.log('first sync, uninterrupted ...');
    const sandboxCpu0 = await sandbox.cpuSeconds();
    const desk = new DeskProcess({ dbPath: join(dir, 'desk-1.sqlite'), credentialsPath: sandbox.credentialsPath }, options.cpuProfileDir);
    desks.push(desk);
    const done = await desk.result;
    await desk.exited; // it ends by itself once it has reported (and writes its CPU profile then)
    const sandboxSeconds = (await sandbox.cpuSeconds()) - sandboxCpu0;
    if (done.depositsNew !== options.deposits || done.depositsHeld !== options.deposits || !done.complete) {
      throw new Error(`the sync stored ${done.depositsNew} (held ${done.depositsHeld}, complete ${done.complete}), expected ${options.deposits}, complete`);
    }
    const wall = done.wallMs / 1000;
    const limitSeconds = done.blocks / limitOpsPerSecond;
    const rsaSeconds = done.blocks / perCore;
    const peak = Math.max(done.peakRssBytes, done.maxRssBytes);
    const listMs = [...done.listMs].sort((a, b) => a - b);
    const rssPass = peak <= PEAK_RSS_TARGET_MB * 2 ** 20;
    printTable(
      ['measure', 'value', 'target'],
      [
        ['deposits stored, history complete', format(done.depositsNew), ''],
        ['pages, OAEP blocks', `${format(done.pages)}, ${format(done.blocks)}`, ''],
        ['wall time, s', format(wall, 1), ''],
        ['deposits/s', format(options.deposits / wall), ''],
        [`RSA limit, s (blocks / ${format(limitOpsPerSecond)} ops/s)`, format(limitSeconds, 1), ''],
        ['of the RSA limit', percent(limitSeconds / wall), '>= 85 %'],
        ['desk CPU, s / RSA work (blocks at openssl speed)', `${format(done.cpuSeconds, 1)} / ${format(rsaSeconds, 1)} = ${format(done.cpuSeconds / rsaSeconds, 2)}x`, '<= 1.10x'],
        ['desk main thread CPU, s', format(done.mainThreadSeconds, 1), ''],
        ['sandbox CPU, s (its own process, same cores)', format(sandboxSeconds, 1), ''],
        ['desk peak RSS, MB (sampled / kernel maxRSS)', `${mb(done.peakRssBytes)} / ${mb(done.maxRssBytes)}`, `<= ${PEAK_RSS_TARGET_MB} ${rssPass ? 'PASS' : 'MISS'}`],
        ['desk peak V8 heap used / outside the heap, MB', `${mb(done.peakHeapBytes)} / ${mb(done.peakExternalBytes)}`, ''],
        ['first rows on the deposits screen, s after the start', done.firstRowsMs === null ? 'never' : format(done.firstRowsMs / 1000, 2), ''],
        [
          `deposits/list (${SCREEN_PAGE} rows) while syncing, ms p50 / p95 / max (${done.listMs.length} asked)`,
          `${format(percentile(listMs, 50), 1)} / ${format(percentile(listMs, 95), 1)} / ${format(percentile(listMs, 100), 1)}`,
          '',
        ],
        ['desk event loop delay while syncing, ms p99 / max', `${format(done.loopDelayP99Ms, 1)} / ${format(done.loopDelayMaxMs, 1)}`, ''],
      ],
    );
    if (!rssPass) missed.push(`sync-scale: the desk's peak RSS was ${mb(peak)} MB (target <= ${PEAK_RSS_TARGET_MB} MB)`);

    // 2. A second desk killed at a random point of its sync, then resumed by a fresh one.
    if (options.kill) {
      const random = seededRandom(`sync-scale-${options.seed}`);
      const killAtMs = randomInt(random, Math.round(done.wallMs * 0.05), Math.round(done.wallMs * 0.95));
      console.log(`\nsecond desk: SIGKILL ${format(killAtMs / 1000, 1)} s into its sync (seed ${options.seed}), then a fresh desk resumes ...`);
      const dbPath = join(dir, 'desk-2.sqlite');
      const killed = new DeskProcess({ dbPath, credentialsPath: sandbox.credentialsPath });
      desks.push(killed);
      await killed.ready;
      await new Promise((resolveWait) => setTimeout(resolveWait, killAtMs));
      await killed.kill();
      const before = killed.last;
      const resumed = new DeskProcess({ dbPath, credentialsPath: sandbox.credentialsPath });
      desks.push(resumed);
      const after = await resumed.result;
      const whole = after.depositsHeld === options.deposits && after.complete;
      printTable(
        ['measure', 'value'],
        [
          ['killed after, s / pages decrypted by then', `${format((before?.elapsedMs ?? 0) / 1000, 1)} / ${format(before?.pages ?? 0)}`],
          ['the fresh desk: pages read, new deposits stored, wall s', `${format(after.pages)}, ${format(after.depositsNew)}, ${format(after.wallMs / 1000, 1)}`],
          ['pages read twice (both desks read them)', format((before?.pages ?? 0) + after.pages - done.pages)],
          ['history complete with every deposit once', whole ? `yes (${format(after.depositsHeld)})` : `NO: held ${after.depositsHeld}, complete ${after.complete}`],
        ],
      );
      if (!whole) missed.push(`sync-scale: after a kill and a resume the desk held ${after.depositsHeld} of ${options.deposits} deposits (complete: ${after.complete})`);
    }
  } finally {
    for (const desk of desks) await desk.kill();
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { missed };
}

if (process.env[DESK_FLAG] === '1') {
  void deskChildMain(JSON.parse(process.argv[2] ?? '{}') as DeskJob);
} else if (process.argv[1] !== undefined && resolve(process.argv[1]) === THIS_FILE) {
  run(process.argv.slice(2)).then(
    (outcome) => {
      process.exitCode = outcome.missed.length > 0 ? 3 : 0;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exitCode = 1;
    },
  );
}
