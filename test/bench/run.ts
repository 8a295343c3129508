// Benchmark dispatcher: `npm run bench -- <name> [args...]` runs one named benchmark; an unknown name lists the choices.
// Exit codes: 0 measured (targets missed are reported, not failed), 1 the benchmark itself failed, 2 bad usage, 3 a
// gate was missed (a figure a benchmark holds to, such as the sync's intake share; see README.md).

/** What a benchmark with gates reports: the gates it missed, each as one line (none: every gate held). */
export interface BenchOutcome {
  readonly missed: readonly string[];
}

interface BenchmarkModule {
  run(args: readonly string[]): Promise<BenchOutcome | void>;
}

interface Benchmark {
  readonly summary: string;
  readonly load: () => Promise<BenchmarkModule>;
}

/** One line per benchmark: its name, what it measures, and its module under test/bench/. */
const BENCHMARKS: Readonly<Record<string, Benchmark>> = {
  protocol: { summary: 'RSA private-key throughput vs openssl; a 100-record getDeposits page inline vs the worker pool', load: () => import('./protocol') },
  sandbox: { summary: 'sandbox signed requests/s and p50/p99 latency from two client processes vs the RSA limit', load: () => import('./sandbox') },
  sync: {
    summary: 'full sync of 20,000 sandbox deposits: intake CPU vs RSA work (gate: <= 15 %), deposits/s vs the RSA limit; history queries over 1M deposits',
    load: () => import('./sync'),
  },
  'sync-scale': {
    summary: 'a first sync of 1,000,000 sandbox deposits by a desk in its own process: wall vs the RSA limit, desk CPU and peak RSS (gate: <= 400 MB), first rows shown, deposits/list while syncing; then a SIGKILL at a random point and a resume',
    load: () => import('./sync-scale'),
  },
  approvals: { summary: '50 operators, 100,000 signed audit rows: what submission verifies before sending, full audit verify vs the Ed25519 limit, unsealing vs scrypt', load: () => import('./approvals') },
  team: {
    summary: 'three workstations on one PostgreSQL: decision-to-visible latency p50/p95 (target p95 <= 1 s) and submissions/s next to one SQLite desk; the witness step cost to a send with 3 and 10 workstations (--witness: only that); then the shared store, PostgreSQL vs SQLite: approvals-queue operations at 10,000 requests and 50 operators (gate: p95 <= 20 ms), notify latency, claims/s with 3 workstations; the kind registry verifying a 100,000-row shared chain (--registry: only that); `team --soak [--minutes N]`: 20 workstations doing mixed work for 30 minutes (gate: nothing lost, doubled or waiting)',
    load: () => import('./team'),
  },
  payouts: { summary: 'a 500-line batch payout submitted on a young audit chain and after 50,000 more rows: per-line submit time at both ends of the batch', load: () => import('./payouts') },
  ui: {
    summary:
      'Chromium through the harness, 1,000,000 cached deposits: time to the first deposits page, scroll frame times; then while a full first sync of 50,000 sandbox deposits runs (--sync-deposits N; --sync-only: only that): frame times idle and scrolling, time to the first deposits row',
    load: () => import('./ui'),
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(BENCHMARKS).map((name) => name.length));
  const lines = Object.entries(BENCHMARKS).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`);
  return ['usage: npm run bench -- <name> [args...]', '', 'benchmarks:', ...lines].join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  const benchmark = name !== undefined && Object.hasOwn(BENCHMARKS, name) ? BENCHMARKS[name] : undefined;
  if (!benchmark) {
    console.error(name === undefined ? usage() : `unknown benchmark "${name}"\n\n${usage()}`);
    return 2;
  }
  const outcome = await (await benchmark.load()).run(args);
  if (!outcome || outcome.missed.length === 0) return 0;
  for (const line of outcome.missed) console.error(`gate missed: ${line}`);
  return 3;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  },
);
