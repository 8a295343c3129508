// Sandbox benchmark: signed requests per second and p50/p99 latency on loopback from two client processes (selfcheck,
// and getDeposits with 100 records), next to the RSA limit of the server's own private-key work per request
// (one OAEP decrypt per request block + one signature) measured with `openssl speed -seconds 3 rsa2048`.
// Clients pre-sign their requests and verify every answer's signature but do not decrypt the pages, so the figures
// are the server's; each scenario's first answer is decrypted and checked.
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decodeStrictBase64 } from '../../electron/protocol/cipher';
import { modulusBytes } from '../../electron/protocol/keys';
import { PATHS } from '../../electron/protocol/profile';
import { startSandbox } from '../../electron/sandbox';
import { admin, expectData, RawMerchant, type RawCredentials } from '../support/raw-merchant';
import { parseOpensslSpeed } from './protocol';

const OPENSSL = '/usr/bin/openssl';
const OPENSSL_SECONDS = 3;
const CLIENTS = 2;
const IN_FLIGHT_PER_CLIENT = 4;
const DURATION_MS = 5000;
const WARMUP_REQUESTS = 20;
const PAGE_RECORDS = 100;
const CHILD_FLAG = 'SANDBOX_BENCH_CHILD';
const THIS_FILE = fileURLToPath(import.meta.url);

interface Scenario {
  readonly name: string;
  readonly path: string;
  readonly payload: unknown;
  /** Pre-signed requests per client: enough for the run at the expected rate (more are signed on the fly). */
  readonly poolSize: number;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'selfcheck', path: PATHS.selfcheck, payload: { ping: 'bench' }, poolSize: 2500 },
  { name: `getDeposits (${PAGE_RECORDS} records)`, path: PATHS.getDeposits, payload: { limit: PAGE_RECORDS }, poolSize: 700 },
];

// ---- child process: one client ------------------------------------------------------------------------------------

type ToChild =
  | { readonly type: 'prepare'; readonly credentials: RawCredentials; readonly token: string; readonly scenario: Scenario }
  | { readonly type: 'go'; readonly durationMs: number };

type FromChild =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly count: number; readonly errors: number; readonly latenciesMs: number[]; readonly sampleOk: boolean }
  | { readonly type: 'failed'; readonly message: string };

async function childMain(): Promise<void> {
  const send = (message: FromChild): void => {
    process.send?.(message);
  };
  let client: RawMerchant | undefined;
  let scenario: Scenario | undefined;
  const pool: Array<{ headers: Record<string, string>; body: string }> = [];
  process.on('message', (message: ToChild) => {
    void (async () => {
      try {
        if (message.type === 'prepare') {
          scenario = message.scenario;
          client = new RawMerchant(message.credentials, RawMerchant.keepAliveAgent());
          client.token = message.token;
          for (let i = 0; i < WARMUP_REQUESTS; i += 1) expectData(await client.call(scenario.path, scenario.payload));
          client.decryptAnswers = false;
          for (let i = 0; i < scenario.poolSize; i += 1) pool.push(client.build(scenario.payload));
          send({ type: 'ready' });
          return;
        }
        if (!client || !scenario) throw new Error('go before prepare');
        const active = client;
        const target = scenario;
        const latencies: number[] = [];
        let errors = 0;
        const deadline = performance.now() + message.durationMs;
        const worker = async (): Promise<void> => {
          while (performance.now() < deadline) {
            const request = pool.pop() ?? active.build(target.payload);
            const start = performance.now();
            const answer = await active.send(target.path, request);
            const elapsed = performance.now() - start;
            if (answer.status === 200 && answer.verified && answer.envelope?.code === 10000) latencies.push(elapsed);
            else errors += 1;
          }
        };
        await Promise.all(Array.from({ length: IN_FLIGHT_PER_CLIENT }, worker));
        active.decryptAnswers = true;
        const sample = await active.call(target.path, target.payload);
        const sampleOk = sample.verified && sample.data !== undefined;
        send({ type: 'done', count: latencies.length, errors, latenciesMs: latencies, sampleOk });
        if (active.agent) active.agent.destroy();
        process.disconnect();
      } catch (error) {
        send({ type: 'failed', message: (error as Error).stack ?? String(error) });
        process.disconnect();
      }
    })();
  });
}

// ---- parent: the sandbox and the coordination ---------------------------------------------------------------------

function startClient(): ChildProcess {
  return fork(THIS_FILE, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, [CHILD_FLAG]: '1' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

function nextMessage(child: ChildProcess): Promise<FromChild> {
  return new Promise((resolvePromise, reject) => {
    const onMessage = (message: FromChild): void => {
      cleanup();
      if (message.type === 'failed') reject(new Error(`a benchmark client failed:\n${message.message}`));
      else resolvePromise(message);
    };
    const onExit = (code: number | null): void => {
      cleanup();
      reject(new Error(`a benchmark client exited early (code ${code})`));
    };
    const cleanup = (): void => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

const format = (value: number, digits = 0): string =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-';

interface Result {
  readonly scenario: Scenario;
  readonly requests: number;
  readonly errors: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly serverCpuMsPerRequest: number;
  readonly privateOpsPerRequest: number;
  readonly requestBlocks: number;
  readonly responseBytes: number;
  readonly sampleOk: boolean;
}

async function runScenario(scenario: Scenario, credentials: RawCredentials, token: string, probe: RawMerchant): Promise<Result> {
  // §4.5 work of the server per request: one OAEP decrypt per request block, one signature on the answer.
  const body = probe.build(scenario.payload).body;
  const requestBlocks = decodeStrictBase64(body).length / modulusBytes(probe.platformPublicKey);
  const sampleAnswer = await probe.call(scenario.path, scenario.payload);
  const children = Array.from({ length: CLIENTS }, startClient);
  try {
    const ready = children.map(nextMessage);
    for (const child of children) child.send({ type: 'prepare', credentials, token, scenario } satisfies ToChild);
    await Promise.all(ready);
    const done = children.map(nextMessage);
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    for (const child of children) child.send({ type: 'go', durationMs: DURATION_MS } satisfies ToChild);
    const results = (await Promise.all(done)).filter((message) => message.type === 'done');
    const wallSeconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    const latencies = results.flatMap((result) => result.latenciesMs).sort((a, b) => a - b);
    const requests = latencies.length;
    return {
      scenario,
      requests,
      errors: results.reduce((sum, result) => sum + result.errors, 0),
      perSecond: requests / wallSeconds,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      serverCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / Math.max(1, requests),
      privateOpsPerRequest: requestBlocks + 1,
      requestBlocks,
      responseBytes: Buffer.byteLength(sampleAnswer.text),
      sampleOk: results.every((result) => result.sampleOk),
    };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
  }
}

function printTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = header.map((name, column) => Math.max(name.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((text, column) => (column === 0 ? text.padEnd(widths[column] ?? 0) : text.padStart(widths[column] ?? 0))).join('  ');
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
}

/** Runs the sandbox benchmark and prints its tables (about 30 s). */
export async function runSandboxBench(): Promise<void> {
  console.log(
    `sandbox benchmark: node ${process.version}; ${availableParallelism()} cores; ${CLIENTS} client processes x ${IN_FLIGHT_PER_CLIENT} in flight, ` +
      `keep-alive, ${DURATION_MS / 1000} s per scenario; requests pre-signed, answers signature-verified`,
  );
  const [load] = loadavg();
  if (load !== undefined && load > 0.5) console.log(`note: load average ${format(load, 2)} at start; figures compete with other work`);

  console.log(`running openssl speed -seconds ${OPENSSL_SECONDS} rsa2048 ...`);
  const { stdout } = await promisify(execFile)(OPENSSL, ['speed', '-seconds', String(OPENSSL_SECONDS), 'rsa2048'], { timeout: 120_000 });
  const signsPerSecond = parseOpensslSpeed(stdout);

  const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const sandbox = await startSandbox({ port: 0, dataDir: dir });
  try {
    const created = await admin<RawCredentials>(sandbox.adminUrl, 'POST', '/merchants', { merchantName: 'Bench' });
    const credentials = created.json;
    const probe = new RawMerchant(credentials);
    const token = expectData<{ token: string }>(await probe.getToken()).token;
    const { address } = expectData<{ address: string }>(await probe.call(PATHS.createAddress, { userOrder: 'bench', addressType: 'eth_bnb' }));
    for (let i = 0; i < PAGE_RECORDS; i += 1) {
      await admin(sandbox.adminUrl, 'POST', '/transfers', { toAddress: address, currency: i % 2 === 0 ? 'bnb.usdt' : 'eth.usdt', amount: `${100 + i}.25` });
    }

    const results: Result[] = [];
    for (const scenario of SCENARIOS) {
      console.log(`running ${scenario.name} ...`);
      results.push(await runScenario(scenario, credentials, token, probe));
    }

    console.log(`\nopenssl speed rsa2048: ${format(signsPerSecond, 1)} sign/s = ${format(1000 / signsPerSecond, 3)} ms per private operation (one core)\n`);
    printTable(
      ['scenario', 'requests', 'errors', 'req/s', 'p50 ms', 'p99 ms', 'answer bytes', 'server CPU ms/req', 'private RSA ops/req', 'RSA ms/req', 'RSA limit req/s (1 core)', 'of limit'],
      results.map((result) => {
        const rsaMs = (result.privateOpsPerRequest * 1000) / signsPerSecond;
        const limit = signsPerSecond / result.privateOpsPerRequest;
        return [
          result.scenario.name,
          format(result.requests),
          format(result.errors),
          format(result.perSecond, 1),
          format(result.p50, 2),
          format(result.p99, 2),
          format(result.responseBytes),
          format(result.serverCpuMsPerRequest, 3),
          `${format(result.requestBlocks)} + 1`,
          format(rsaMs, 3),
          format(limit, 0),
          `${format((result.perSecond / limit) * 100, 0)} %`,
        ];
      }),
    );
    console.log(
      '\nprivate RSA ops/req: OAEP decrypt blocks of the request + the answer\'s signature; the answer is encrypted with the merchant ' +
        'PUBLIC key (cheap: a 100-record page is about 167 public operations). "of limit" compares the measured rate with ' +
        'what one core could do if the private-key work were all there is; the two clients share the 2 cores with the server.',
    );
    const bad = results.filter((result) => !result.sampleOk || result.errors > 0);
    if (bad.length > 0) throw new Error(`answers failed verification or decryption in: ${bad.map((result) => result.scenario.name).join(', ')}`);
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bench dispatcher's entry point (test/bench/run.ts). */
export async function run(_args: readonly string[]): Promise<void> {
  await runSandboxBench();
}

if (process.env[CHILD_FLAG] === '1') {
  void childMain();
} else if (process.argv[1] !== undefined && resolve(process.argv[1]) === THIS_FILE) {
  runSandboxBench().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  });
}
