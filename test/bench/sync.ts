// Sync benchmark: deposits per second for a full sync of 20,000 deposits from the sandbox (engine `sync/run`, crypto
// pool on 2 threads and on 1; and the bare client decrypting inline, without the pool), next to the RSA limit of that
// work on this machine (OAEP blocks received ÷ `openssl speed rsa2048` private ops per second on all cores); then the
// history queries over 1,000,000 cached deposits (runHistoryBench from history.ts).
//
//   npm run bench -- sync [--deposits N] [--rows N] [--no-history] [--no-full-check]
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, type Dispatcher } from 'undici';
import { CURRENCIES, type AddressType, type CurrencySymbol } from '../../electron/chains';
import { createEngine } from '../../electron/core/engine';
import { closeDatabase, createProfile, insertOrTouchDeposits, openDatabase } from '../../electron/core/store';
import { decodeStrictBase64 } from '../../electron/protocol/cipher';
import { parsePrivateKey, parsePublicKey } from '../../electron/protocol/keys';
import { MerchantClient } from '../../electron/protocol/merchant-client';
import { DEPOSITS_LIMIT_MAX, PATHS } from '../../electron/protocol/profile';
import { startSandbox, type SandboxHandle } from '../../electron/sandbox';
import { randomInt, seededRandom, type RandomSource } from '../../electron/sandbox/chain-sim';
import { createAddress, SILENT_EVENTS, simulateTransfer, type LedgerEnv } from '../../electron/sandbox/ledger';
import { openDatabase as openSandboxDatabase } from '../../electron/sandbox/store';
import { parseOpensslSpeed } from './protocol';
import { runHistoryBench } from './history';

const OPENSSL = '/usr/bin/openssl';
const OPENSSL_SECONDS = 3;
const DEFAULT_DEPOSITS = 20_000;
const DEFAULT_HISTORY_ROWS = 1_000_000;
/** 2048-bit RSA: each OAEP block of a response is one private-key operation on the desk. */
const MODULUS_BYTES = 256;

interface Options {
  readonly deposits: number;
  readonly rows: number;
  readonly history: boolean;
  readonly fullIntegrityCheck: boolean;
}

function parseArgs(args: readonly string[]): Options {
  let deposits = DEFAULT_DEPOSITS;
  let rows = DEFAULT_HISTORY_ROWS;
  let history = true;
  let fullIntegrityCheck = true;
  const count = (flag: string, text: string | undefined): number => {
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${flag} needs a positive whole number, got ${String(text)}`);
    return value;
  };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--deposits') deposits = count(arg, args[(i += 1)]);
    else if (arg === '--rows') rows = count(arg, args[(i += 1)]);
    else if (arg === '--no-history') history = false;
    else if (arg === '--no-full-check') fullIntegrityCheck = false;
    else throw new Error(`unknown argument ${String(arg)}; use --deposits N, --rows N, --no-history, --no-full-check`);
  }
  return { deposits, rows, history, fullIntegrityCheck };
}

const format = (value: number, digits = 0): string =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-';

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
function seedDeposits(dataDir: string, merchantId: string, count: number): number {
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

// ---- measuring ----------------------------------------------------------------------------------------------------

/** Counts getDeposits answers and the OAEP blocks in their `data` (each one private-key operation on the desk). */
class BlockCounter {
  pages = 0;
  blocks = 0;
  responseBytes = 0;

  record(body: Buffer): void {
    const envelope = JSON.parse(body.toString('utf8')) as { data?: unknown };
    if (typeof envelope.data !== 'string' || envelope.data === '') return;
    this.pages += 1;
    this.responseBytes += body.length;
    this.blocks += decodeStrictBase64(envelope.data).length / MODULUS_BYTES;
  }

  dispatcher(): Dispatcher {
    return new Agent().compose((dispatch) => (options, handler) => {
      if (!String(options.path).endsWith(PATHS.getDeposits)) return dispatch(options, handler);
      const chunks: Buffer[] = [];
      return dispatch(options, {
        onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
        onRequestUpgrade: (controller, statusCode, headers, socket) => handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
        onResponseStart: (controller, statusCode, headers, statusMessage) => handler.onResponseStart?.(controller, statusCode, headers, statusMessage),
        onResponseData: (controller, chunk) => {
          chunks.push(Buffer.from(chunk));
          handler.onResponseData?.(controller, chunk);
        },
        onResponseEnd: (controller, trailers) => {
          this.record(Buffer.concat(chunks));
          handler.onResponseEnd?.(controller, trailers);
        },
        onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
      });
    });
  }
}

interface SyncRun {
  readonly name: string;
  readonly deposits: number;
  readonly pages: number;
  readonly blocks: number;
  readonly seconds: number;
  /** Cores busy on average in this process (main thread + workers). */
  readonly cores: number;
}

async function timed(name: string, counter: BlockCounter, work: () => Promise<number>): Promise<SyncRun> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deposits = await work();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { name, deposits, pages: counter.pages, blocks: counter.blocks, seconds, cores: (used.user + used.system) / 1e6 / seconds };
}

/** A full engine sync (`sync/run {full: true}`) into a fresh desk database, the crypto pool on `threads` workers. */
async function engineSync(sandbox: SandboxHandle, dir: string, threads: number): Promise<SyncRun> {
  const counter = new BlockCounter();
  const dispatcher = counter.dispatcher();
  const engine = await createEngine({
    dbPath: join(dir, `desk-${threads}.sqlite`),
    credentialsFile: sandbox.credentialsPath,
    cryptoThreads: threads,
    network: { dispatcher },
  });
  try {
    await engine.handlers['selfcheck/run']({}); // token, keys and connection ready: the run measures the sync
    return await timed(`engine sync/run, crypto pool ${threads} thread${threads > 1 ? 's' : ''}`, counter, async () => {
      const result = await engine.handlers['sync/run']({ full: true });
      if (!result.ok) throw new Error(`sync failed: ${result.error.code}: ${result.error.message}`);
      return result.value.depositsNew;
    });
  } finally {
    await engine.close();
    await dispatcher.close();
  }
}

/** The bare client walking every page with inline decryption (no pool), storing each page like sync does. */
async function inlineScan(sandbox: SandboxHandle, dir: string): Promise<SyncRun> {
  const counter = new BlockCounter();
  const dispatcher = counter.dispatcher();
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
    return await timed('client getDeposits pages, inline decrypt (no pool)', counter, async () => {
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

async function opensslPrivateOpsPerSecond(): Promise<number> {
  const { stdout } = await promisify(execFile)(OPENSSL, ['speed', '-seconds', String(OPENSSL_SECONDS), 'rsa2048'], { timeout: 120_000 });
  return parseOpensslSpeed(stdout);
}

function printSyncTable(runs: readonly SyncRun[], limitOpsPerSecond: number, cores: number): void {
  const header = ['run', 'deposits', 'pages', 'OAEP blocks', 'wall s', 'deposits/s', 'RSA limit dep/s', 'of limit', 'cores busy'];
  const rows = runs.map((run) => {
    const limitSeconds = run.blocks / limitOpsPerSecond;
    const limitRate = run.deposits / limitSeconds;
    const rate = run.deposits / run.seconds;
    return [
      run.name,
      format(run.deposits),
      format(run.pages),
      format(run.blocks),
      format(run.seconds, 1),
      format(rate),
      format(limitRate),
      `${format((rate / limitRate) * 100)} %`,
      format(run.cores, 2),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  console.log(`\nFull sync of the deposit history (RSA limit: blocks ÷ ${format(limitOpsPerSecond)} private ops/s on ${cores} cores)`);
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

export async function run(args: readonly string[]): Promise<void> {
  const options = parseArgs(args);
  const cores = availableParallelism();
  const dir = mkdtempSync(join(tmpdir(), 'td-bench-sync-'));
  let sandbox: SandboxHandle | undefined;
  try {
    console.log(`sync benchmark: ${format(options.deposits)} deposits; node ${process.version}; ${cores} cores; sandbox in this process`);
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
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir });
    const invariant = sandbox.checkInvariant();
    if (!invariant.ok) throw new Error(`the seeded ledger breaks its invariant: ${JSON.stringify(invariant.violations.slice(0, 3))}`);

    console.log(`running openssl speed rsa2048 for ${OPENSSL_SECONDS} s ...`);
    const perCore = await opensslPrivateOpsPerSecond();
    const limitOpsPerSecond = perCore * Math.min(2, cores);
    console.log(`openssl: ${format(perCore, 1)} private ops/s on one core (${format(1000 / perCore, 3)} ms each); limit uses ${Math.min(2, cores)} cores`);

    const runs: SyncRun[] = [];
    for (const threads of [2, 1]) {
      console.log(`full sync, engine, crypto pool ${threads} thread(s) ...`);
      runs.push(await engineSync(sandbox, dir, threads));
    }
    console.log('full scan, bare client, inline decryption ...');
    runs.push(await inlineScan(sandbox, dir));
    for (const result of runs) {
      if (result.deposits !== options.deposits) throw new Error(`${result.name} stored ${result.deposits} deposits, expected ${options.deposits}`);
    }
    printSyncTable(runs, limitOpsPerSecond, Math.min(2, cores));
    const page = runs[0];
    if (page && page.pages > 0) {
      console.log(
        `a page of ${DEPOSITS_LIMIT_MAX}: ${format(page.blocks / page.pages, 1)} OAEP blocks = ${format(((page.blocks / page.pages) * 1000) / perCore, 0)} ms ` +
          `of private-key work on one core; the sandbox's own work (query, encryption, signature) shares this process's main thread`,
      );
    }
  } finally {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  }

  if (options.history) {
    console.log(`\nHistory queries over ${format(options.rows)} cached deposits (runHistoryBench):`);
    await runHistoryBench({ rows: options.rows, fullIntegrityCheck: options.fullIntegrityCheck });
  }
}
