// Sync benchmark: a full sync of 20,000 deposits from the sandbox, run in a child process so that the desk's CPU and
// the sandbox's are measured apart. For each engine `sync/run {full: true}` it reports the RSA work of the pages
// (OAEP blocks decrypted, answers verified, requests signed, each costed on this machine), the client's CPU (main
// thread and the crypto pool's threads), the intake's CPU (validation after decryption, storing, search index: the
// `treasury-desk:intake` tracing channel) and the sandbox's CPU; the intake's share of the RSA work is a gate (issue
// 11, item 10: at most 15 %, median of the runs). Then where the time goes per page (issue 25, item 1): the fetch, base64
// decoding, the hand-off to the pool, the wait in its queue, the decryption on each worker, the answer's way back,
// joining, validation, storing and indexing, and how busy each thread was. Then deposits per second against the RSA
// limit (`openssl speed rsa2048` on all cores) for the engine on 2 and 1 pool threads and the bare client decrypting
// inline; then the history queries over 1,000,000 cached deposits (runHistoryBench from history.ts).
//
//   npm run bench -- sync [--deposits N] [--runs N] [--rows N] [--no-history] [--no-full-check]
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Agent, type Dispatcher } from 'undici';
import { CURRENCIES, type AddressType, type CurrencySymbol } from '../../electron/chains';
import { createEngine } from '../../electron/core/engine';
import { closeDatabase, openDatabase } from '../../electron/core/store/database';
import { insertOrTouchDeposits } from '../../electron/core/deposits/deposits-table';
import { createProfile } from '../../electron/core/profiles/profiles-table';
import { decodeStrictBase64, decryptBlock, splitBlocks } from '../../electron/protocol/cipher';
import { intakeTracing, poolTiming, type IntakeStage, type IntakeTrace, type PoolSliceTiming } from '../../electron/protocol/intake-tracing';
import { modulusBytes, parsePrivateKey, parsePublicKey } from '../../electron/protocol/keys';
import { MerchantClient } from '../../electron/protocol/merchant-client';
import { DEPOSITS_LIMIT_MAX, HEADER, PATHS } from '../../electron/protocol/profile';
import { signingInput, signText, verifyText } from '../../electron/protocol/signature';
import { startSandbox, type SandboxHandle } from '../../electron/sandbox';
import type { SandboxCredentials } from '../../electron/sandbox/merchants';
import { randomInt, seededRandom, type RandomSource } from '../../electron/sandbox/chain-sim';
import { createAddress, SILENT_EVENTS, simulateTransfer, type LedgerEnv } from '../../electron/sandbox/ledger';
import { openDatabase as openSandboxDatabase } from '../../electron/sandbox/store';
import type { BenchOutcome } from './run';
import { parseOpensslSpeed } from './protocol';
import { runHistoryBench } from './history';

const OPENSSL = '/usr/bin/openssl';
const OPENSSL_SECONDS = 3;
const DEFAULT_DEPOSITS = 20_000;
const DEFAULT_RUNS = 3;
const DEFAULT_HISTORY_ROWS = 1_000_000;
/** Issue 11, item 10: the intake costs at most this share of the RSA work. */
const INTAKE_TARGET = 0.15;
/** Private-key decryptions timed to cost one OAEP block on this machine. */
const CALIBRATION_BLOCKS = 1_500;
const CHILD_FLAG = 'SYNC_BENCH_SANDBOX_CHILD';
const THIS_FILE = fileURLToPath(import.meta.url);

interface Options {
  readonly deposits: number;
  readonly runs: number;
  readonly rows: number;
  readonly history: boolean;
  readonly fullIntegrityCheck: boolean;
}

/** A command-line count: a positive whole number, or an error naming the flag. */
export function positiveCount(flag: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${flag} needs a positive whole number, got ${String(text)}`);
  return value;
}

function parseArgs(args: readonly string[]): Options {
  let deposits = DEFAULT_DEPOSITS;
  let runs = DEFAULT_RUNS;
  let rows = DEFAULT_HISTORY_ROWS;
  let history = true;
  let fullIntegrityCheck = true;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--deposits') deposits = positiveCount(arg, args[(i += 1)]);
    else if (arg === '--runs') runs = positiveCount(arg, args[(i += 1)]);
    else if (arg === '--rows') rows = positiveCount(arg, args[(i += 1)]);
    else if (arg === '--no-history') history = false;
    else if (arg === '--no-full-check') fullIntegrityCheck = false;
    else throw new Error(`unknown argument ${String(arg)}; use --deposits N, --runs N, --rows N, --no-history, --no-full-check`);
  }
  return { deposits, runs, rows, history, fullIntegrityCheck };
}

export const format = (value: number, digits = 0): string =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-';
export const percent = (ratio: number): string => `${format(ratio * 100, 1)} %`;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

export function printTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

// ---- seeding: the sandbox's own ledger functions, one transaction -------------------------------------------------

/** Deposit currencies in a plausible merchant mix (USDT on TRON dominates), with gross amounts above deposit_min. */
const MIX: ReadonlyArray<{ readonly currency: CurrencySymbol; readonly weight: number; readonly min: number; readonly max: number }> = [
  { currency: 'trx.usdt', weight: 50, min: 5, max: 20_000 },
  { currency: 'trx', weight: 8, min: 20, max: 50_000 },
  { currency: 'eth.usdt', weight: 10, min: 20, max: 20_000 },
  { currency: 'eth', weight: 4, min: 0.05, max: 5 },
  { currency: 'bnb.usdt', weight: 10, min: 20, max: 20_000 },
  { currency: 'solana.usdt', weight: 8, min: 20, max: 20_000 },
  { currency: 'solana', weight: 4, min: 1, max: 100 },
  { currency: 'ton.usdt', weight: 6, min: 20, max: 20_000 },
];
const MIX_WEIGHT = MIX.reduce((sum, entry) => sum + entry.weight, 0);
const ADDRESSES_PER_TYPE = 200;

function grossAmount(random: RandomSource, min: number, max: number, decimals: number): string {
  const places = Math.min(decimals, 4);
  const unit = 10 ** places;
  const units = randomInt(random, Math.ceil(min * unit), Math.floor(max * unit));
  const whole = Math.floor(units / unit);
  const fraction = String(units % unit).padStart(places, '0').replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

/**
 * Credits `count` deposits to the merchant through the ledger (createAddress + simulateTransfer, exactly what the
 * admin transfer endpoint runs), callbacks silenced, in one transaction on the stopped sandbox's database.
 */
export function seedDeposits(dataDir: string, merchantId: string, count: number): number {
  const db = openSandboxDatabase(dataDir);
  try {
    const random = seededRandom('sync-bench');
    const env: LedgerEnv = { db, nowMs: Date.now, random, events: SILENT_EVENTS };
    let credited = 0;
    db.transaction(() => {
      const addresses = new Map<AddressType, string[]>();
      for (const type of ['trx', 'eth_bnb', 'solana', 'ton'] as const) {
        const list: string[] = [];
        for (let i = 0; i < ADDRESSES_PER_TYPE; i += 1) {
          const result = createAddress(env, merchantId, `bench-${type}-${i}`, type);
          if (!result.ok) throw new Error(`createAddress failed: ${result.message}`);
          list.push(result.record.address);
        }
        addresses.set(type, list);
      }
      for (let i = 0; i < count; i += 1) {
        let pick = randomInt(random, 0, MIX_WEIGHT - 1);
        const entry = MIX.find((candidate) => (pick -= candidate.weight) < 0) ?? MIX[0];
        if (!entry) throw new Error('empty currency mix');
        const info = CURRENCIES[entry.currency];
        const pool = addresses.get(info.addressType) ?? [];
        const toAddress = pool[randomInt(random, 0, pool.length - 1)] ?? '';
        const result = simulateTransfer(env, { toAddress, currency: entry.currency, amount: grossAmount(random, entry.min, entry.max, info.decimals) });
        if (!result.ok || !result.credited) throw new Error(`transfer ${i} was not credited: ${JSON.stringify(result)}`);
        credited += 1;
      }
    })();
    return credited;
  } finally {
    db.close();
  }
}

// ---- the sandbox in a child process -------------------------------------------------------------------------------

type ToSandbox = { readonly type: 'cpu' } | { readonly type: 'stop' };
type FromSandbox =
  | { readonly type: 'ready'; readonly credentialsPath: string; readonly credentials: SandboxCredentials; readonly invariantOk: boolean }
  | { readonly type: 'cpu'; readonly microseconds: number }
  | { readonly type: 'failed'; readonly message: string };

/** The child: starts the sandbox on the seeded data folder and answers CPU questions until told to stop. */
async function sandboxChildMain(dataDir: string): Promise<void> {
  const send = (message: FromSandbox): void => {
    process.send?.(message);
  };
  let sandbox: SandboxHandle | undefined;
  try {
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir });
    const handle = sandbox;
    process.on('message', (message: ToSandbox) => {
      if (message.type === 'cpu') {
        const usage = process.cpuUsage();
        send({ type: 'cpu', microseconds: usage.user + usage.system });
      } else {
        void handle.close().finally(() => process.disconnect());
      }
    });
    send({ type: 'ready', credentialsPath: handle.credentialsPath, credentials: handle.credentials, invariantOk: handle.checkInvariant().ok });
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    await sandbox?.close();
    process.disconnect();
  }
}

export class SandboxProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly credentialsPath: string,
    readonly credentials: SandboxCredentials,
  ) {}

  static async start(dataDir: string): Promise<SandboxProcess> {
    const child = fork(THIS_FILE, [dataDir], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, [CHILD_FLAG]: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await nextMessage(child);
    if (ready.type !== 'ready') throw new Error(`the sandbox process answered ${ready.type} instead of ready`);
    if (!ready.invariantOk) throw new Error('the seeded ledger breaks its invariant');
    return new SandboxProcess(child, ready.credentialsPath, ready.credentials);
  }

  /** The sandbox process's CPU time so far (user + system), in seconds. */
  async cpuSeconds(): Promise<number> {
    const answer = nextMessage(this.child);
    this.child.send({ type: 'cpu' } satisfies ToSandbox);
    const message = await answer;
    if (message.type !== 'cpu') throw new Error(`the sandbox process answered ${message.type} instead of cpu`);
    return message.microseconds / 1e6;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || !this.child.connected) return;
    const exited = new Promise((resolveExit) => this.child.once('exit', resolveExit));
    this.child.send({ type: 'stop' } satisfies ToSandbox);
    await exited;
  }
}

function nextMessage(child: ChildProcess): Promise<FromSandbox> {
  return new Promise((resolveMessage, reject) => {
    const onMessage = (message: FromSandbox): void => {
      cleanup();
      if (message.type === 'failed') reject(new Error(`the sandbox process failed:\n${message.message}`));
      else resolveMessage(message);
    };
    const onExit = (code: number | null): void => {
      cleanup();
      reject(new Error(`the sandbox process exited early (code ${code})`));
    };
    const cleanup = (): void => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

// ---- measuring ----------------------------------------------------------------------------------------------------

/** One getDeposits answer as received: what it costs in RSA work is worked out after the run, off the clock. */
interface CapturedAnswer {
  readonly body: Buffer;
  readonly timestamp: string;
  readonly nonce: string;
  readonly sign: string;
}

/**
 * Keeps every getDeposits answer (body and signature headers) passing through its dispatcher, and how long each took
 * from the request's dispatch to the answer's last byte (wall ms).
 */
class AnswerCapture {
  readonly answers: CapturedAnswer[] = [];
  readonly fetchMs: number[] = [];

  dispatcher(): Dispatcher {
    return new Agent().compose((dispatch) => (options, handler) => {
      if (!String(options.path).endsWith(PATHS.getDeposits)) return dispatch(options, handler);
      const dispatchedAt = performance.now();
      const chunks: Buffer[] = [];
      let headers: Record<string, string | string[] | undefined> = {};
      return dispatch(options, {
        onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
        onRequestUpgrade: (controller, statusCode, upgradeHeaders, socket) => handler.onRequestUpgrade?.(controller, statusCode, upgradeHeaders, socket),
        onResponseStart: (controller, statusCode, responseHeaders, statusMessage) => {
          headers = responseHeaders;
          handler.onResponseStart?.(controller, statusCode, responseHeaders, statusMessage);
        },
        onResponseData: (controller, chunk) => {
          chunks.push(Buffer.from(chunk));
          handler.onResponseData?.(controller, chunk);
        },
        onResponseEnd: (controller, trailers) => {
          const header = (name: string): string => String(headers[name.toLowerCase()] ?? '');
          this.answers.push({ body: Buffer.concat(chunks), timestamp: header(HEADER.timestamp), nonce: header(HEADER.nonce), sign: header(HEADER.sign) });
          this.fetchMs.push(performance.now() - dispatchedAt);
          handler.onResponseEnd?.(controller, trailers);
        },
        onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
      });
    });
  }
}

/** The RSA work of a set of answers: OAEP blocks to decrypt, signatures to verify, requests signed. */
interface RsaCount {
  readonly pages: number;
  readonly blocks: number;
  readonly verifications: number;
  readonly signatures: number;
}

function countRsaWork(answers: readonly CapturedAnswer[]): RsaCount {
  let pages = 0;
  let blocks = 0;
  for (const answer of answers) {
    const envelope = JSON.parse(answer.body.toString('utf8')) as { data?: unknown };
    if (typeof envelope.data !== 'string' || envelope.data === '') continue;
    pages += 1;
    blocks += decodeStrictBase64(envelope.data).length / 256;
  }
  return { pages, blocks, verifications: answers.length, signatures: answers.length };
}

/** CPU seconds, on this machine, of one OAEP private-key decryption, one answer verification and one request signature. */
interface RsaCosts {
  readonly block: number;
  readonly verification: number;
  readonly signature: number;
}

function threadCpuSeconds(): number {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** Times the three operations on this thread with the merchant's keys and real answers (median of three rounds). */
function calibrateRsa(answers: readonly CapturedAnswer[], credentials: SandboxCredentials): RsaCosts {
  const privateKey = parsePrivateKey(credentials.merchantPrivateKey);
  const platformKey = parsePublicKey(credentials.platformPublicKey);
  const sample = answers.find((answer) => answer.body.length > 10_000) ?? answers[0];
  if (sample === undefined) throw new Error('no getDeposits answer to calibrate with');
  const data = (JSON.parse(sample.body.toString('utf8')) as { data: string }).data;
  const blocks = splitBlocks(decodeStrictBase64(data), modulusBytes(privateKey));
  const timed = (count: number, work: (index: number) => void): number => {
    const rounds: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const started = threadCpuSeconds();
      for (let i = 0; i < count; i += 1) work(i);
      rounds.push((threadCpuSeconds() - started) / count);
    }
    return median(rounds);
  };
  const input = signingInput(sample.timestamp, sample.nonce, data);
  const requestBody = 'x'.repeat(344); // a getDeposits request: one OAEP block, base64
  return {
    block: timed(CALIBRATION_BLOCKS / 3, (i) => decryptBlock(blocks[i % blocks.length] ?? Buffer.alloc(0), privateKey)),
    verification: timed(200, () => {
      if (!verifyText(input, sample.sign, platformKey)) throw new Error('a captured answer does not verify');
    }),
    signature: timed(100, (i) => signText(signingInput('1700000000', `nonce${i}`, requestBody), privateKey)),
  };
}

function rsaSeconds(count: RsaCount, costs: RsaCosts): number {
  return count.blocks * costs.block + count.verifications * costs.verification + count.signatures * costs.signature;
}

/** The stages after decryption: the intake gated against the RSA work (issue 11, item 10). */
const AFTER_DECRYPTION: readonly IntakeStage[] = ['validate', 'store', 'index'];

/**
 * Sums the CPU time of each traced intake stage on the thread that runs it (every traced call is synchronous), and
 * keeps the timing of every slice the crypto pool's workers decrypted.
 */
class IntakeMeter {
  readonly seconds: Record<IntakeStage, number> = { decode: 0, handoff: 0, join: 0, decrypt: 0, validate: 0, store: 0, index: 0 };
  readonly slices: PoolSliceTiming[] = [];
  readonly #onSlice = (message: unknown): void => {
    this.slices.push(message as PoolSliceTiming);
  };
  readonly #started = new WeakMap<IntakeTrace, number>();
  readonly #handlers = {
    start: (trace: IntakeTrace) => this.#started.set(trace, threadCpuSeconds()),
    end: (trace: IntakeTrace) => {
      const started = this.#started.get(trace);
      if (started !== undefined) this.seconds[trace.stage] += threadCpuSeconds() - started;
    },
    asyncStart: () => undefined,
    asyncEnd: () => undefined,
    error: () => undefined,
  };

  constructor() {
    intakeTracing.subscribe(this.#handlers);
    poolTiming.subscribe(this.#onSlice);
  }

  /** The intake after decryption (the gated share). */
  get total(): number {
    return AFTER_DECRYPTION.reduce((sum, stage) => sum + this.seconds[stage], 0);
  }

  stop(): void {
    intakeTracing.unsubscribe(this.#handlers);
    poolTiming.unsubscribe(this.#onSlice);
  }
}

interface SyncRun {
  readonly name: string;
  readonly engine: boolean;
  readonly deposits: number;
  readonly rsa: RsaCount;
  readonly wallSeconds: number;
  /** The client process (main thread and every other thread: crypto pool, V8, libuv), CPU seconds. */
  readonly clientSeconds: number;
  readonly mainThreadSeconds: number;
  readonly sandboxSeconds: number;
  readonly intake: Readonly<Record<IntakeStage, number>>;
  readonly intakeSeconds: number;
  /** Every slice the pool's workers decrypted (none without a pool). */
  readonly slices: readonly PoolSliceTiming[];
  /** Each getDeposits request, dispatch to last byte, wall ms. */
  readonly fetchMs: readonly number[];
}

async function measured(
  name: string,
  engine: boolean,
  sandbox: SandboxProcess,
  capture: AnswerCapture,
  work: () => Promise<number>,
): Promise<SyncRun> {
  const meter = new IntakeMeter();
  try {
    const sandboxBefore = await sandbox.cpuSeconds();
    const process0 = process.cpuUsage();
    const main0 = process.threadCpuUsage();
    const started = performance.now();
    const deposits = await work();
    const wallSeconds = (performance.now() - started) / 1000;
    const main = process.threadCpuUsage(main0);
    const client = process.cpuUsage(process0);
    const sandboxSeconds = (await sandbox.cpuSeconds()) - sandboxBefore;
    return {
      name,
      engine,
      deposits,
      rsa: countRsaWork(capture.answers),
      wallSeconds,
      clientSeconds: (client.user + client.system) / 1e6,
      mainThreadSeconds: (main.user + main.system) / 1e6,
      sandboxSeconds,
      intake: { ...meter.seconds },
      intakeSeconds: meter.total,
      slices: [...meter.slices],
      fetchMs: [...capture.fetchMs],
    };
  } finally {
    meter.stop();
  }
}

/** A full engine sync (`sync/run {full: true}`) into a fresh desk database, the crypto pool on `threads` workers. */
async function engineSync(sandbox: SandboxProcess, dir: string, threads: number, label: string): Promise<{ run: SyncRun; answers: CapturedAnswer[] }> {
  const capture = new AnswerCapture();
  const dispatcher = capture.dispatcher();
  const engine = await createEngine({
    dbPath: join(dir, `desk-${label}.sqlite`),
    credentialsFile: sandbox.credentialsPath,
    cryptoThreads: threads,
    network: { dispatcher },
  });
  try {
    await engine.handlers['selfcheck/run']({}); // token, keys and connection ready: the run measures the sync
    const run = await measured(`engine sync/run, crypto pool ${threads} thread${threads > 1 ? 's' : ''}`, true, sandbox, capture, async () => {
      const result = await engine.handlers['sync/run']({ full: true });
      if (!result.ok) throw new Error(`sync failed: ${result.error.code}: ${result.error.message}`);
      return result.value.depositsNew;
    });
    return { run, answers: capture.answers };
  } finally {
    await engine.close();
    await dispatcher.close();
  }
}

/** The bare client walking every page with inline decryption (no pool), storing each page with the store's batch form. */
async function inlineScan(sandbox: SandboxProcess, dir: string): Promise<SyncRun> {
  const capture = new AnswerCapture();
  const dispatcher = capture.dispatcher();
  const { credentials } = sandbox;
  const client = new MerchantClient({
    baseUrl: credentials.baseUrl,
    merchantId: credentials.merchantId,
    secret: credentials.secret,
    platformPublicKey: parsePublicKey(credentials.platformPublicKey),
    merchantPrivateKey: parsePrivateKey(credentials.merchantPrivateKey),
    dispatcher,
  });
  const db = openDatabase(join(dir, 'desk-inline.sqlite'));
  try {
    createProfile(db, { name: 'bench', baseUrl: credentials.baseUrl, merchantId: credentials.merchantId });
    await client.getToken();
    return await measured('client getDeposits pages, inline decrypt (no pool)', false, sandbox, capture, async () => {
      let inserted = 0;
      for await (const batch of client.depositPages({ limit: DEPOSITS_LIMIT_MAX })) {
        const observedAt = Date.now();
        inserted += insertOrTouchDeposits(db, 'bench', batch.records.map((record) => ({ record, source: 'query' as const, observedAt }))).inserted;
      }
      return inserted;
    });
  } finally {
    closeDatabase(db);
    await client.close();
    await dispatcher.close();
  }
}

export async function opensslPrivateOpsPerSecond(): Promise<number> {
  const { stdout } = await promisify(execFile)(OPENSSL, ['speed', '-seconds', String(OPENSSL_SECONDS), 'rsa2048'], { timeout: 120_000 });
  return parseOpensslSpeed(stdout);
}

function printCpuTable(runs: readonly SyncRun[], costs: RsaCosts): void {
  console.log(
    `\nCPU of each engine sync, in seconds (RSA work = OAEP blocks x ${format(costs.block * 1000, 3)} ms + answers verified x ` +
      `${format(costs.verification * 1000, 3)} ms + requests signed x ${format(costs.signature * 1000, 3)} ms, timed on this machine)`,
  );
  printTable(
    ['run', 'RSA work', 'client', 'client/RSA', 'main thread', 'other threads', 'validate', 'store', 'index', 'intake', 'intake/RSA', 'intake rows/s', 'sandbox'],
    runs.map((run) => {
      const rsa = rsaSeconds(run.rsa, costs);
      return [
        run.name,
        format(rsa, 2),
        format(run.clientSeconds, 2),
        format(run.clientSeconds / rsa, 2),
        format(run.mainThreadSeconds, 2),
        format(run.clientSeconds - run.mainThreadSeconds, 2),
        format(run.intake.validate, 3),
        format(run.intake.store, 3),
        format(run.intake.index, 3),
        format(run.intakeSeconds, 3),
        percent(run.intakeSeconds / rsa),
        format(run.deposits / run.intakeSeconds),
        format(run.sandboxSeconds, 2),
      ];
    }),
  );
  console.log(
    'client = this process (main thread + crypto pool + V8 and libuv threads), the sandbox runs in its own process; intake = ' +
      'validation after decryption + storing pages + search index upkeep, CPU of the thread that ran it.',
  );
}

/**
 * Where a run's time goes, per getDeposits page (issue 25, item 1): the fetch (wall, dispatch to last byte); the CPU of
 * each traced stage on the calling thread; for the pool, the wait of a slice in a worker's queue, its decryption and
 * the way back of its answer (wall, mean per slice); then how busy each thread was over the run's wall time.
 */
function printBreakdownTable(runs: readonly SyncRun[]): void {
  console.log('\nWhere the time goes, per getDeposits page: ms (fetch and pool columns: wall; the others: CPU of the calling thread)');
  const perPage = (run: SyncRun, seconds: number): string => format((seconds * 1000) / Math.max(1, run.rsa.pages), 2);
  const meanMs = (values: readonly number[]): string => (values.length === 0 ? '-' : format(values.reduce((sum, value) => sum + value, 0) / values.length, 2));
  printTable(
    ['run', 'fetch', 'decode', 'hand-off', 'queue/slice', 'decrypt/slice', 'back/slice', 'join', 'decrypt inline', 'validate', 'store', 'index'],
    runs.map((run) => [
      run.name,
      meanMs(run.fetchMs),
      perPage(run, run.intake.decode),
      perPage(run, run.intake.handoff),
      meanMs(run.slices.map((slice) => slice.startedAt - slice.postedAt)),
      meanMs(run.slices.map((slice) => slice.finishedAt - slice.startedAt)),
      meanMs(run.slices.map((slice) => slice.receivedAt - slice.finishedAt)),
      perPage(run, run.intake.join),
      perPage(run, run.intake.decrypt),
      perPage(run, run.intake.validate),
      perPage(run, run.intake.store),
      perPage(run, run.intake.index),
    ]),
  );
  console.log('\nHow busy each thread was, share of the run\'s wall time (the rest it waited)');
  const workers = Math.max(0, ...runs.flatMap((run) => run.slices.map((slice) => slice.worker + 1)));
  printTable(
    ['run', 'main thread', ...Array.from({ length: workers }, (_, worker) => `pool worker ${worker + 1}`), 'traced on main', 'main, untraced'],
    runs.map((run) => {
      const wallMs = run.wallSeconds * 1000;
      const traced = Object.values(run.intake).reduce((sum, seconds) => sum + seconds, 0);
      return [
        run.name,
        percent(run.mainThreadSeconds / run.wallSeconds),
        ...Array.from({ length: workers }, (_, worker) => {
          const mine = run.slices.filter((slice) => slice.worker === worker);
          const busy = mine.reduce((sum, slice) => sum + (slice.finishedAt - slice.startedAt), 0);
          return mine.length === 0 ? '-' : percent(busy / wallMs);
        }),
        percent(traced / run.wallSeconds),
        percent((run.mainThreadSeconds - traced) / run.wallSeconds),
      ];
    }),
  );
  console.log(
    "main, untraced = the main thread's CPU outside the traced stages: loopback HTTP I/O, signing requests, verifying answers, " +
      "the walk's own bookkeeping, garbage collection.",
  );
}

function printWallTable(runs: readonly SyncRun[], limitOpsPerSecond: number, cores: number): void {
  console.log(`\nFull sync of the deposit history, wall clock (RSA limit: blocks ÷ ${format(limitOpsPerSecond)} private ops/s on ${cores} cores)`);
  printTable(
    ['run', 'deposits', 'pages', 'OAEP blocks', 'wall s', 'deposits/s', 'RSA limit dep/s', 'of limit', 'client cores', 'sandbox cores'],
    runs.map((run) => {
      const limitRate = run.deposits / (run.rsa.blocks / limitOpsPerSecond);
      const rate = run.deposits / run.wallSeconds;
      return [
        run.name,
        format(run.deposits),
        format(run.rsa.pages),
        format(run.rsa.blocks),
        format(run.wallSeconds, 1),
        format(rate),
        format(limitRate),
        `${format((rate / limitRate) * 100)} %`,
        format(run.clientSeconds / run.wallSeconds, 2),
        format(run.sandboxSeconds / run.wallSeconds, 2),
      ];
    }),
  );
}

export async function run(args: readonly string[]): Promise<BenchOutcome> {
  const options = parseArgs(args);
  const cores = availableParallelism();
  const dir = mkdtempSync(join(tmpdir(), 'td-bench-sync-'));
  const missed: string[] = [];
  let sandbox: SandboxProcess | undefined;
  try {
    console.log(
      `sync benchmark: ${format(options.deposits)} deposits; ${options.runs} engine run(s) on 2 pool threads; node ${process.version}; ` +
        `${cores} cores; sandbox in a child process`,
    );
    const [load] = loadavg();
    if (load !== undefined && load > 0.5) console.log(`note: load average ${format(load, 2)} at start; wall-clock figures compete with other work, CPU figures much less`);
    const dataDir = join(dir, 'sandbox');
    const first = await startSandbox({ host: '127.0.0.1', port: 0, dataDir });
    const merchantId = first.credentials.merchantId;
    await first.close();
    const started = performance.now();
    const credited = seedDeposits(dataDir, merchantId, options.deposits);
    console.log(
      `seeded ${format(credited)} deposits through the sandbox ledger (createAddress + simulateTransfer, one transaction) in ` +
        `${format((performance.now() - started) / 1000, 1)} s`,
    );
    sandbox = await SandboxProcess.start(dataDir);

    console.log(`running openssl speed rsa2048 for ${OPENSSL_SECONDS} s ...`);
    const perCore = await opensslPrivateOpsPerSecond();
    const limitOpsPerSecond = perCore * Math.min(2, cores);
    console.log(`openssl: ${format(perCore, 1)} private ops/s on one core (${format(1000 / perCore, 3)} ms each); limit uses ${Math.min(2, cores)} cores`);

    const engineRuns: SyncRun[] = [];
    let answers: CapturedAnswer[] = [];
    for (let index = 1; index <= options.runs; index += 1) {
      console.log(`full sync ${index} of ${options.runs}, engine, crypto pool 2 threads ...`);
      const result = await engineSync(sandbox, dir, 2, `pool2-${index}`);
      engineRuns.push(result.run);
      answers = result.answers;
    }
    console.log('full sync, engine, crypto pool 1 thread ...');
    const oneThread = (await engineSync(sandbox, dir, 1, 'pool1')).run;
    console.log('full scan, bare client, inline decryption ...');
    const inline = await inlineScan(sandbox, dir);
    const runs = [...engineRuns, oneThread, inline];
    for (const result of runs) {
      if (result.deposits !== options.deposits) throw new Error(`${result.name} stored ${result.deposits} deposits, expected ${options.deposits}`);
    }

    const costs = calibrateRsa(answers, sandbox.credentials);
    printCpuTable([...engineRuns, oneThread], costs);
    const ratios = engineRuns.map((result) => result.intakeSeconds / rsaSeconds(result.rsa, costs));
    const ratio = median(ratios);
    const verdict = ratio <= INTAKE_TARGET ? 'PASS' : 'MISS';
    console.log(
      `intake / RSA work, median of ${engineRuns.length} run(s) on 2 pool threads: ${percent(ratio)} (runs: ${ratios.map(percent).join(', ')}); ` +
        `target <= ${percent(INTAKE_TARGET)}: ${verdict}`,
    );
    if (verdict === 'MISS') missed.push(`sync: the intake costs ${percent(ratio)} of the RSA work (target <= ${percent(INTAKE_TARGET)})`);

    printBreakdownTable(runs);
    printWallTable(runs, limitOpsPerSecond, Math.min(2, cores));
    const page = engineRuns[0];
    if (page && page.rsa.pages > 0) {
      console.log(
        `a page of ${DEPOSITS_LIMIT_MAX}: ${format(page.rsa.blocks / page.rsa.pages, 1)} OAEP blocks = ${format(((page.rsa.blocks / page.rsa.pages) * 1000) / perCore, 0)} ms ` +
          'of private-key work on one core',
      );
    }
  } finally {
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  if (options.history) {
    console.log(`\nHistory queries over ${format(options.rows)} cached deposits (runHistoryBench):`);
    await runHistoryBench({ rows: options.rows, fullIntegrityCheck: options.fullIntegrityCheck });
  }
  return { missed };
}

if (process.env[CHILD_FLAG] === '1') {
  void sandboxChildMain(process.argv[2] ?? '');
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
