// Benchmark of the local store's deposit history at scale: bulk-loads realistic deposits (1,000,000 by default) into
// a temporary database and reports rows/s and p50/p95 latencies of keyset pages, txid lookups and text search.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEPOSIT_INTAKE_BATCH } from '../../electron/core/sync/records';
import { closeDatabase, openDatabase, writeTransaction, type StoreDatabase } from '../../electron/core/store/database';
import { countStagedDeposits, findDepositByTxid, indexDepositSearchBacklog, insertOrTouchDeposits, insertOrTouchDeposit, listDeposits, moveStagedDeposits, stageDeposits, buildDepositQuery, type DepositObservation, type DepositRecord } from '../../electron/core/deposits/deposits-table';
import { createProfile } from '../../electron/core/profiles/profiles-table';

export interface HistoryBenchOptions {
  /** Deposits to load (default 1,000,000). */
  readonly rows?: number;
  /** Iterations per query kind (default 300). */
  readonly iterations?: number;
  /** Seed of the data generator, for repeatable runs. */
  readonly seed?: number;
  /** Also time PRAGMA integrity_check over the whole file (slow at 1M rows; default true). */
  readonly fullIntegrityCheck?: boolean;
}

const PROFILE = 'bench';
const DAY_MS = 86_400_000;
const SPAN_DAYS = 730;
const START_MS = Date.UTC(2024, 10, 1);

/** xorshift32: fast, seeded, good enough for shaping test data. */
class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state;
  }
  below(n: number): number {
    return this.next() % n;
  }
  fraction(): number {
    return this.next() / 0x1_0000_0000;
  }
  text(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.below(alphabet.length)];
    return out;
  }
}

const HEX = '0123456789abcdef';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

type AddressType = 'trx' | 'eth_bnb' | 'solana' | 'ton';

/** Symbols with the share of deposits they get (USDT on TRON dominates real merchant traffic). */
const CURRENCY_MIX: readonly { symbol: string; addressType: AddressType; decimals: number; weight: number; stable: boolean }[] = [
  { symbol: 'trx.usdt', addressType: 'trx', decimals: 6, weight: 40, stable: true },
  { symbol: 'trx', addressType: 'trx', decimals: 6, weight: 8, stable: false },
  { symbol: 'eth', addressType: 'eth_bnb', decimals: 18, weight: 5, stable: false },
  { symbol: 'eth.usdt', addressType: 'eth_bnb', decimals: 6, weight: 10, stable: true },
  { symbol: 'eth.usdc', addressType: 'eth_bnb', decimals: 6, weight: 4, stable: true },
  { symbol: 'bnb', addressType: 'eth_bnb', decimals: 18, weight: 3, stable: false },
  { symbol: 'bnb.usdt', addressType: 'eth_bnb', decimals: 18, weight: 10, stable: true },
  { symbol: 'bnb.usdc', addressType: 'eth_bnb', decimals: 18, weight: 2, stable: true },
  { symbol: 'solana', addressType: 'solana', decimals: 9, weight: 4, stable: false },
  { symbol: 'solana.usdt', addressType: 'solana', decimals: 6, weight: 6, stable: true },
  { symbol: 'solana.usdc', addressType: 'solana', decimals: 6, weight: 3, stable: true },
  { symbol: 'ton', addressType: 'ton', decimals: 9, weight: 2, stable: false },
  { symbol: 'ton.usdt', addressType: 'ton', decimals: 6, weight: 3, stable: true },
];
const TOTAL_WEIGHT = CURRENCY_MIX.reduce((sum, entry) => sum + entry.weight, 0);

function address(random: Random, type: AddressType): string {
  switch (type) {
    case 'trx':
      return `T${random.text(BASE58, 33)}`;
    case 'eth_bnb':
      return `0x${random.text(HEX, 40)}`;
    case 'solana':
      return random.text(BASE58, 43 + random.below(2));
    case 'ton':
      return `${random.below(2) === 0 ? 'EQ' : 'UQ'}${random.text(BASE64URL, 46)}`;
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

function txid(random: Random, type: AddressType): string {
  switch (type) {
    case 'trx':
    case 'ton':
      return random.text(HEX, 64);
    case 'eth_bnb':
      return `0x${random.text(HEX, 64)}`;
    case 'solana':
      return random.text(BASE58, 87 + random.below(2));
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

function amount(random: Random, decimals: number, stable: boolean): string {
  const whole = stable ? 1 + Math.floor(random.fraction() ** 3 * 50_000) : Math.floor(random.fraction() ** 4 * 40);
  const places = Math.min(decimals, stable ? 2 + random.below(5) : 4 + random.below(decimals - 3));
  const fraction = random.text('0123456789', places).replace(/0+$/, '');
  const text = fraction === '' ? String(whole) : `${whole}.${fraction}`;
  return text === '0' ? '0.5' : text;
}

export interface Sample {
  txids: string[];
  addresses: string[];
}

/** Deposits in observation order: batches of up to 100 share one timestamp, as a getDeposits page would. */
export function* deposits(count: number, seed: number, sample: Sample, timing: { ms: number } = { ms: 0 }): Generator<DepositObservation> {
  let started = performance.now();
  const random = new Random(seed);
  const pools = new Map<AddressType, { address: string; userOrder: string }[]>();
  const senders = new Map<AddressType, string[]>();
  let customer = 0;
  for (const type of ['trx', 'eth_bnb', 'solana', 'ton'] as const) {
    const size = type === 'trx' ? 24_000 : 8_000;
    pools.set(type, Array.from({ length: size }, () => ({ address: address(random, type), userOrder: `cust-${++customer}-${type}` })));
    senders.set(type, Array.from({ length: 5_000 }, () => address(random, type)));
  }
  const step = (SPAN_DAYS * DAY_MS) / count;
  let observedAt = START_MS;
  let batchLeft = 0;
  for (let i = 0; i < count; i++) {
    if (batchLeft === 0) {
      batchLeft = 1 + random.below(100);
      observedAt = Math.max(observedAt + 1, Math.floor(START_MS + i * step + random.below(1000)));
    }
    batchLeft -= 1;
    let pick = random.below(TOTAL_WEIGHT);
    let currency = CURRENCY_MIX[0];
    for (const entry of CURRENCY_MIX) {
      if (pick < entry.weight) {
        currency = entry;
        break;
      }
      pick -= entry.weight;
    }
    if (currency === undefined) throw new Error('empty currency mix');
    const pool = pools.get(currency.addressType) ?? [];
    // A few customers deposit often: square the fraction to skew towards the pool's start.
    const target = pool[Math.floor(random.fraction() ** 2 * pool.length)];
    const frequentSenders = senders.get(currency.addressType) ?? [];
    const from = random.below(10) < 3 ? (frequentSenders[random.below(frequentSenders.length)] ?? '') : address(random, currency.addressType);
    if (target === undefined) throw new Error('empty address pool');
    const record: DepositRecord = {
      businessType: 'deposit',
      txid: txid(random, currency.addressType),
      address: target.address,
      addressType: currency.addressType,
      fromAddress: from,
      amount: amount(random, currency.decimals, currency.stable),
      currency: currency.symbol,
      fee: currency.stable ? (random.below(4) === 0 ? '1' : '0') : '0',
      apiOrder: `D${String(20241101 + Math.floor(i / 50_000))}${String(i).padStart(10, '0')}`,
      userOrder: target.userOrder,
    };
    // Reservoir samples of what an operator would look up.
    if (sample.txids.length < 2_000) sample.txids.push(record.txid);
    else if (random.below(i + 1) < 2_000) sample.txids[random.below(2_000)] = record.txid;
    if (sample.addresses.length < 2_000) sample.addresses.push(record.address);
    else if (random.below(i + 1) < 2_000) sample.addresses[random.below(2_000)] = record.address;
    const observation: DepositObservation = { record, source: random.below(10) < 7 ? 'callback' : 'query', observedAt };
    timing.ms += performance.now() - started;
    yield observation;
    started = performance.now();
  }
  timing.ms += performance.now() - started;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

interface Measurement {
  readonly name: string;
  readonly samples: number[];
  readonly note: string;
}

function measure(name: string, iterations: number, note: string, run: (iteration: number) => number | void): Measurement {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    const extra = run(i);
    const elapsed = performance.now() - started;
    samples.push(typeof extra === 'number' ? extra : elapsed);
  }
  return { name, samples, note };
}

function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(3);
}

function printTable(measurements: readonly Measurement[]): void {
  const header = ['query', 'n', 'p50 ms', 'p95 ms', 'max ms', 'note'];
  const rows = measurements.map((m) => {
    const sorted = [...m.samples].sort((a, b) => a - b);
    return [m.name, String(sorted.length), formatMs(percentile(sorted, 50)), formatMs(percentile(sorted, 95)), formatMs(sorted[sorted.length - 1] ?? NaN), m.note];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, column) => (column === 0 || column === cells.length - 1 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

function rate(count: number, started: number): string {
  return Math.round(count / ((performance.now() - started) / 1000)).toLocaleString('en-US');
}

function fileSizeMb(path: string): string {
  let bytes = 0;
  for (const suffix of ['', '-wal']) {
    try {
      bytes += statSync(path + suffix).size;
    } catch {
      // no WAL file
    }
  }
  return (bytes / 1e6).toFixed(0);
}

export async function runHistoryBench(options: HistoryBenchOptions = {}): Promise<void> {
  const rows = options.rows ?? 1_000_000;
  const iterations = options.iterations ?? 300;
  const seed = options.seed ?? 20261122;
  const dir = mkdtempSync(join(tmpdir(), 'td-bench-history-'));
  const path = join(dir, 'treasury.sqlite');
  try {
    console.log(`history bench: ${rows.toLocaleString('en-US')} deposits in ${path}`);
    let db: StoreDatabase = openDatabase(path);
    createProfile(db, { name: PROFILE, baseUrl: 'https://bench.invalid', merchantId: 'BENCH' });

    const sample: Sample = { txids: [], addresses: [] };
    const generation = { ms: 0 };
    let started = performance.now();
    const summary = insertOrTouchDeposits(db, PROFILE, deposits(rows, seed, sample, generation));
    const bulkSeconds = (performance.now() - started - generation.ms) / 1000;
    started = performance.now();
    indexDepositSearchBacklog(db);
    const indexSeconds = (performance.now() - started) / 1000;
    console.log(
      `bulk load (insertOrTouchDeposits, one transaction): ${summary.inserted.toLocaleString('en-US')} rows in ${bulkSeconds.toFixed(1)} s ` +
        `of store time (${(generation.ms / 1000).toFixed(1)} s generating data excluded) = ` +
        `${Math.round(summary.inserted / bulkSeconds).toLocaleString('en-US')} rows/s, then the search index in ${indexSeconds.toFixed(1)} s = ` +
        `${Math.round(summary.inserted / (bulkSeconds + indexSeconds)).toLocaleString('en-US')} rows/s in all; peak file + WAL ${fileSizeMb(path)} MB`,
    );

    // The sync path: each getDeposits page of 100 staged in its own transaction (committed like the walk's, with
    // 'processCrash' durability), moved into the history and indexed for search DEPOSIT_INTAKE_BATCH at a time.
    const extra = Math.min(10_000, Math.max(200, Math.floor(rows / 100)));
    const later = [...deposits(extra + 2_000, seed + 1, { txids: [], addresses: [] })].map((observation) => ({
      ...observation,
      record: { ...observation.record, apiOrder: `S${observation.record.apiOrder}` },
      observedAt: observation.observedAt + SPAN_DAYS * DAY_MS,
    }));
    const pages = later.slice(0, extra);
    started = performance.now();
    for (let i = 0; i < pages.length; i += 100) {
      const page = pages.slice(i, i + 100);
      writeTransaction(db, () => stageDeposits(db, PROFILE, page.map((observation) => observation.record), 'query', page[0]?.observedAt ?? 0), 'processCrash');
      if (countStagedDeposits(db) >= DEPOSIT_INTAKE_BATCH || i + 100 >= pages.length) {
        moveStagedDeposits(db);
        indexDepositSearchBacklog(db);
      }
    }
    console.log(`sync pages (staged 100 per transaction, moved and indexed ${DEPOSIT_INTAKE_BATCH.toLocaleString('en-US')} at a time): ${rate(extra, started)} rows/s`);
    started = performance.now();
    for (let i = 0; i < 2_000; i += 100) insertOrTouchDeposits(db, PROFILE, pages.slice(i, i + 100));
    console.log(`re-observed pages (touch only, conflict check): ${rate(2_000, started)} rows/s`);

    // One row at a time (callbacks), 100 per transaction, then indexed.
    const singles = later.slice(extra);
    started = performance.now();
    for (let i = 0; i < singles.length; i += 100) {
      writeTransaction(db, () => {
        for (const observation of singles.slice(i, i + 100)) insertOrTouchDeposit(db, PROFILE, observation.record, observation.source, observation.observedAt);
      });
    }
    indexDepositSearchBacklog(db);
    console.log(`row by row (insertOrTouchDeposit, 100 per transaction, then indexed): ${rate(singles.length, started)} rows/s`);

    closeDatabase(db);
    console.log(`database file after close (WAL checkpointed): ${fileSizeMb(path)} MB`);
    started = performance.now();
    db = openDatabase(path);
    console.log(`open, default 'auto' check (desk tables; the history is checked once a day): ${(performance.now() - started).toFixed(0)} ms`);
    closeDatabase(db);
    started = performance.now();
    db = openDatabase(path, { integrityCheck: 'quick' });
    console.log(`open with integrityCheck 'quick' (every b-tree: the once-a-day whole-file check): ${(performance.now() - started).toFixed(0)} ms`);
    if (options.fullIntegrityCheck ?? true) {
      closeDatabase(db);
      started = performance.now();
      db = openDatabase(path, { integrityCheck: 'full' });
      console.log(`open with integrityCheck 'full' (FTS index verified too): ${(performance.now() - started).toFixed(0)} ms`);
    }

    const random = new Random(seed + 2);
    const measurements: Measurement[] = [];
    const busyCurrencies = ['trx.usdt', 'eth.usdt', 'bnb.usdt', 'trx', 'solana.usdt', 'ton.usdt'];
    const windowStart = (): number => START_MS + random.below(SPAN_DAYS - 30) * DAY_MS;

    const pageSamples: number[] = [];
    let pagesWalked = 0;
    let rowsSeen = 0;
    for (let walk = 0; walk < Math.ceil(iterations / 5); walk++) {
      const from = windowStart();
      const query = { profile: PROFILE, currency: busyCurrencies[walk % busyCurrencies.length], from, to: from + 30 * DAY_MS, limit: 50 };
      let after: string | null = null;
      for (let page = 0; page < 5; page++) {
        const pageStarted = performance.now();
        const result = listDeposits(db, { ...query, after });
        pageSamples.push(performance.now() - pageStarted);
        pagesWalked += 1;
        rowsSeen += result.rows.length;
        after = result.nextCursor;
        if (after === null) break;
      }
    }
    measurements.push({ name: 'keyset page: currency + 30-day range, 50 rows', samples: pageSamples, note: `${pagesWalked} pages (5 per walk), ${rowsSeen} rows` });

    const deepSamples: number[] = [];
    for (let walk = 0; walk < 3; walk++) {
      let after: string | null = null;
      for (let page = 0; page < 100; page++) {
        const pageStarted = performance.now();
        const result = listDeposits(db, { profile: PROFILE, limit: 50, after });
        deepSamples.push(performance.now() - pageStarted);
        after = result.nextCursor;
        if (after === null) break;
      }
    }
    measurements.push({ name: 'keyset page: all currencies, pages 1-100', samples: deepSamples, note: 'cost independent of depth' });

    measurements.push(
      measure('txid lookup (findDepositByTxid)', iterations, 'random known txids', (i) => {
        const found = findDepositByTxid(db, PROFILE, sample.txids[i % sample.txids.length] ?? '');
        if (found.length === 0) throw new Error('bench txid not found');
      }),
    );
    measurements.push(
      measure('txid lookup, unknown txid', iterations, 'miss', () => {
        findDepositByTxid(db, PROFILE, random.text(HEX, 64));
      }),
    );

    const fragment = (i: number, length: number): string => {
      const full = sample.addresses[i % sample.addresses.length] ?? '';
      const start = 2 + ((i * 7) % Math.max(1, full.length - length - 2));
      return full.slice(start, start + length);
    };
    let plans = new Map<string, number>();
    const countPlan = (search: string, currency?: string): void => {
      const plan = buildDepositQuery(db, { profile: PROFILE, limit: 50, search, ...(currency === undefined ? {} : { currency }) }).plan;
      const key = `${plan.kind}/${plan.search}`;
      plans.set(key, (plans.get(key) ?? 0) + 1);
    };
    const planNote = (): string => {
      const note = [...plans].map(([key, count]) => `${key} ${count}`).join(', ');
      plans = new Map();
      return note;
    };
    for (const length of [10, 6]) {
      const m = measure(`text search: ${length}-char address fragment, 50 rows`, iterations, '', (i) => {
        const search = fragment(i, length);
        const result = listDeposits(db, { profile: PROFILE, search, limit: 50 });
        if (result.rows.length === 0) throw new Error(`bench search ${search} found nothing`);
      });
      for (let i = 0; i < iterations; i++) countPlan(fragment(i, length));
      measurements.push({ ...m, note: planNote() });
    }
    {
      const m = measure('text search + currency + 90-day range', iterations, '', (i) => {
        const from = windowStart();
        listDeposits(db, { profile: PROFILE, search: fragment(i, 8), currency: 'trx.usdt', from, to: from + 90 * DAY_MS, limit: 50 });
      });
      for (let i = 0; i < iterations; i++) countPlan(fragment(i, 8), 'trx.usdt');
      measurements.push({ ...m, note: planNote() });
    }
    {
      const m = measure('text search: 3-char fragment (worst case)', Math.min(iterations, 100), '', (i) => {
        listDeposits(db, { profile: PROFILE, search: fragment(i, 3), limit: 50 });
      });
      for (let i = 0; i < Math.min(iterations, 100); i++) countPlan(fragment(i, 3));
      measurements.push({ ...m, note: planNote() });
    }
    printTable(measurements);
    closeDatabase(db);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = Number(process.env.BENCH_ROWS ?? '1000000');
  runHistoryBench({ rows }).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
