// UI benchmark: with 1,000,000 cached deposits, the time to the first rendered deposits page and the frame times
// (requestAnimationFrame deltas, p50/p95/max) while the virtualized table scrolls and loads keyset pages, in
// Debian's Chromium through the browser harness against the real engine. Then the same renderer while that engine runs
// a full first sync of a sandbox seeded with many deposits in its own process (issue 25, item 4): frame times with the
// Deposits screen idle and while it scrolls, the time to the first deposits row shown, and what the sync stored.
//
//   npm run bench -- ui [--sync-deposits N] [--sync-only]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { closeDatabase, openDatabase } from '../../electron/core/store/database';
import { insertOrTouchDeposits, type DepositObservation } from '../../electron/core/deposits/deposits-table';
import { startSandbox } from '../../electron/sandbox';
import { ensureRendererBuilt } from '../harness/build';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../harness/chromium';
import { startHarnessEngine } from '../harness/engine';
import { startHarness, type HarnessServer } from '../harness/server';
import { percentile } from './history';
import { positiveCount, SandboxProcess, seedDeposits } from './sync';

const DEPOSITS = 1_000_000;
/** The profile a credentials-file engine acts on (core/context.ts). */
const PROFILE = 'default';
const FIRST_PAGE_RUNS = 5;
const TARGET_FIRST_PAGE_MS = 500;
/** At 60 Hz: p95 no worse than one dropped frame (two vsync intervals, 33.4 ms, plus timer jitter). */
const TARGET_P95_FRAME_MS = 35;
/** Scroll speeds: a steady read, a fast mouse-wheel scroll, and a stress fling (every frame entirely new rows). */
const SCROLLS = [
  { name: 'steady scroll, 56 px/frame (2 rows)', step: 56, frames: 600, target: true },
  { name: 'fast wheel scroll, 280 px/frame (10 rows)', step: 280, frames: 600, target: true },
  { name: 'stress fling, 1400 px/frame (50 rows)', step: 1400, frames: 300, target: false },
] as const;
/** Lets the start-up reads (balances, addresses, withdrawals) finish before a scroll is measured. */
const SETTLE_MS = 1000;
const FILTER_CURRENCIES = ['trx.usdt', 'eth', 'ton.usdt', 'bnb.usdt', 'solana'] as const;

const HEX = '0123456789abcdef';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const CURRENCIES = ['trx', 'trx.usdt', 'eth', 'eth.usdt', 'eth.usdc', 'solana', 'solana.usdt', 'bnb', 'bnb.usdt', 'ton', 'ton.usdt'] as const;

/** A cheap deterministic generator (xorshift32): realistic-looking identifiers without crypto cost. */
function generator(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
}

function text(next: () => number, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[next() % alphabet.length];
  return out;
}

/** One deposit per minute up to `now`: about 1.9 years of history for a million. */
function* deposits(count: number, now: number): Generator<DepositObservation> {
  const next = generator(20261123);
  for (let i = 0; i < count; i += 1) {
    const currency = CURRENCIES[i % CURRENCIES.length] ?? 'trx';
    const units = next() % 5_000_000;
    yield {
      source: i % 3 === 0 ? 'callback' : 'query',
      observedAt: now - (count - i) * 60_000,
      record: {
        businessType: 'deposit',
        txid: text(next, HEX, 64),
        address: `T${text(next, BASE58, 33)}`,
        addressType: currency.startsWith('eth') || currency.startsWith('bnb') ? 'eth_bnb' : (currency.split('.')[0] ?? 'trx'),
        fromAddress: `T${text(next, BASE58, 33)}`,
        amount: `${Math.floor(units / 100)}.${String(units % 100).padStart(2, '0')}`,
        currency,
        fee: '1.5',
        apiOrder: `BENCH${String(i).padStart(8, '0')}`,
        userOrder: `INV-${String(i % 100_000).padStart(6, '0')}`,
      },
    };
  }
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

type ReportRow = readonly [measure: string, value: string, target?: string, pass?: boolean];

function report(title: string, rows: readonly ReportRow[]): void {
  console.log(`\n${title}`);
  const width = Math.max(...rows.map(([measure]) => measure.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  for (const [measure, value, target, pass] of rows) {
    const verdict = pass === undefined ? '' : pass ? '  PASS' : '  MISS';
    console.log(`  ${measure.padEnd(width)}  ${value.padStart(valueWidth)}${target === undefined ? '' : `  (target ${target})`}${verdict}`);
  }
}

/**
 * In the page, right after navigation: clicks the Deposits link as soon as the desk shows it and resolves once the
 * first deposit row has been painted (the frame after it appeared). Times are from the page's time origin, so this
 * is a cold start: bundle, bootstrap, the engine's first keyset page and the render. Plain JS text: it runs in the
 * browser as written.
 */
const COLD_START_SCRIPT = `new Promise((resolve) => {
  let clickedAt = null;
  const poll = () => {
    if (clickedAt === null) {
      const link = document.querySelector('[data-testid="@nav/deposits"]');
      if (link !== null) { clickedAt = performance.now(); link.click(); }
    } else if (document.querySelector('[data-testid="@deposits/row"]') !== null) {
      requestAnimationFrame(() => {
        const scroller = document.querySelector('[data-testid="@deposits/scroller"]');
        resolve({ painted: performance.now(), clickedAt, engine: Number(scroller.getAttribute('data-first-page-ms')) });
      });
      return;
    }
    requestAnimationFrame(poll);
  };
  poll();
})`;

/**
 * In the page, on the Deposits screen: picks a currency filter (a new keyset query from the first page) and resolves
 * when the first row of the filtered history has been painted.
 */
function filterScript(currency: string): string {
  return `new Promise((resolve) => {
    const select = document.querySelector('[data-testid="@deposits/currency-filter"]');
    const start = performance.now();
    select.value = ${JSON.stringify(currency)};
    select.dispatchEvent(new Event('change', { bubbles: true }));
    const poll = () => {
      const row = document.querySelector('[data-testid="@deposits/row"]');
      const cell = row === null ? null : row.querySelector('[role="cell"]:nth-child(2)');
      if (cell !== null && cell.textContent === ${JSON.stringify(currency)}) {
        requestAnimationFrame(() => resolve(performance.now() - start));
        return;
      }
      requestAnimationFrame(poll);
    };
    poll();
  })`;
}

/** In the page: scrolls the table by `step` px per frame for `frames` frames; returns the rAF deltas and rows loaded. */
function scrollScript(step: number, frames: number): string {
  return `new Promise((resolve) => {
    const scroller = document.querySelector('[data-testid="@deposits/scroller"]');
    const deltas = [];
    let last = performance.now();
    let count = 0;
    const frame = (now) => {
      deltas.push(now - last);
      last = now;
      scroller.scrollTop += ${step};
      count += 1;
      if (count < ${frames}) requestAnimationFrame(frame);
      else resolve({ deltas, rows: document.querySelector('[data-testid="@deposits/count"]').textContent, top: scroller.scrollTop });
    };
    requestAnimationFrame((now) => { last = now; requestAnimationFrame(frame); });
  })`;
}

interface ScrollResult {
  readonly deltas: number[];
  readonly rows: string;
  readonly top: number;
}

interface ColdStart {
  readonly painted: number;
  readonly clickedAt: number;
  readonly engine: number;
}

const sortedCopy = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);
const medianAndWorst = (sorted: readonly number[]): string => `${ms(percentile(sorted, 50))} (${ms(percentile(sorted, 100))})`;

export interface UiBenchOptions {
  /** Cached deposits to measure against; default 1,000,000. */
  readonly deposits?: number;
}

export async function runUiBench(options: UiBenchOptions = {}): Promise<void> {
  const count = options.deposits ?? DEPOSITS;
  const dir = mkdtempSync(join(tmpdir(), 'treasury-ui-bench-'));
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'sandbox') });
  // Credentials from the sandbox's file: the benchmark runs without a keychain.
  const desk = await startHarnessEngine({ dataDir: join(dir, 'desk'), credentialsFile: sandbox.credentialsPath, lockable: false });
  let server: HarnessServer | undefined;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });
  try {
    const insertStart = performance.now();
    const db = openDatabase(desk.dbPath, { integrityCheck: 'none' });
    try {
      const summary = insertOrTouchDeposits(db, PROFILE, deposits(count, Date.now()));
      if (summary.inserted !== count) throw new Error(`inserted ${summary.inserted} deposits, expected ${count}`);
    } finally {
      closeDatabase(db);
    }
    const insertMs = performance.now() - insertStart;

    const rendererDir = await ensureRendererBuilt();
    server = await startHarness({ engine: desk.engine, desktop: desk.desktopHandlers, rendererDir });
    // Wide enough for one line per deposit (28-px rows, as the scroll steps assume); narrower windows stack rows.
    const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });

    const cold: ColdStart[] = [];
    const filtered: number[] = [];
    for (let run = 0; run < FIRST_PAGE_RUNS; run += 1) {
      await page.goto(server.url, { waitUntil: 'domcontentloaded' });
      cold.push((await page.evaluate(COLD_START_SCRIPT)) as ColdStart);
      filtered.push((await page.evaluate(filterScript(FILTER_CURRENCIES[run % FILTER_CURRENCIES.length] ?? 'trx'))) as number);
    }

    const scrolls: { readonly name: string; readonly result: ScrollResult; readonly target: boolean }[] = [];
    for (const scenario of SCROLLS) {
      await page.goto(server.url, { waitUntil: 'domcontentloaded' });
      await page.evaluate(COLD_START_SCRIPT);
      await page.waitForTimeout(SETTLE_MS);
      scrolls.push({ name: scenario.name, result: (await page.evaluate(scrollScript(scenario.step, scenario.frames))) as ScrollResult, target: scenario.target });
    }

    const painted = sortedCopy(cold.map((run) => run.painted));
    const afterClick = sortedCopy(cold.map((run) => run.painted - run.clickedAt));
    const engine = sortedCopy(cold.map((run) => run.engine));
    const query = sortedCopy(filtered);
    report(`UI benchmark: ${count.toLocaleString('en-US')} cached deposits (Chromium ${browser.version()}, harness over WebSocket)`, [
      [`insert ${count.toLocaleString('en-US')} deposits into SQLite (insertOrTouchDeposits)`, `${(insertMs / 1000).toFixed(1)} s`],
    ]);
    report(`Time to the first rendered deposits page, ${FIRST_PAGE_RUNS} runs: median (worst)`, [
      ['cold start: page load → first row painted', medianAndWorst(painted), `<= ${TARGET_FIRST_PAGE_MS} ms`, percentile(painted, 50) <= TARGET_FIRST_PAGE_MS],
      ['  of which: click on Deposits → first row painted', medianAndWorst(afterClick)],
      ['  of which: deposits/list first page, request → answer', medianAndWorst(engine)],
      ['new query (currency filter) → first row painted', medianAndWorst(query), `<= ${TARGET_FIRST_PAGE_MS} ms`, percentile(query, 50) <= TARGET_FIRST_PAGE_MS],
    ]);
    for (const { name, result, target } of scrolls) {
      const sorted = sortedCopy(result.deltas);
      const p95 = percentile(sorted, 95);
      report(`Frame times, ${name}, ${result.deltas.length} frames; afterwards: ${result.rows}`, [
        ['p50', ms(percentile(sorted, 50))],
        target ? ['p95', ms(p95), `<= ${TARGET_P95_FRAME_MS.toFixed(1)} ms`, p95 <= TARGET_P95_FRAME_MS] : ['p95 (stress case, no target)', ms(p95)],
        ['max', ms(percentile(sorted, 100))],
        ['frames over 50 ms', String(sorted.filter((delta) => delta > 50).length)],
      ]);
    }
  } finally {
    await browser.close();
    await server?.close();
    await desk.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- while a first sync runs (issue 25, item 4) ------------------------------------------------------------------

const DEFAULT_SYNC_DEPOSITS = 50_000;
/** Frame times while the sync runs: the Deposits screen left alone, then scrolled as the steady scenario above. */
const SYNC_WATCHES = [
  { name: 'Deposits screen idle (rAF only)', step: 0 },
  { name: 'steady scroll, 56 px/frame (2 rows)', step: 56 },
] as const;
/** After the sync returns, how long the screen may take to show its first row before the run counts as failed. */
const FIRST_ROW_GRACE_MS = 10_000;

/** Epoch milliseconds, sub-millisecond: the same clock as the page's `performance.timeOrigin + now`. */
const epochMs = (): number => performance.timeOrigin + performance.now();

/**
 * In the page, right after navigation: clicks the Deposits link as soon as the desk shows it and resolves once the
 * Deposits screen's scroller is there (the history may be empty: the sync has not run).
 */
const OPEN_DEPOSITS_SCRIPT = `new Promise((resolve) => {
  let clicked = false;
  const poll = () => {
    if (!clicked) {
      const link = document.querySelector('[data-testid="@nav/deposits"]');
      if (link !== null) { clicked = true; link.click(); }
    } else if (document.querySelector('[data-testid="@deposits/scroller"]') !== null) {
      resolve(true);
      return;
    }
    requestAnimationFrame(poll);
  };
  poll();
})`;

/**
 * In the page: starts recording every frame (epoch time of its start and the rAF delta) until `stop()`, noting the
 * first frame that finds a deposits row and the frame after it (painted). With `step` > 0 the table is scrolled that
 * many px per frame, turning back when it can go no further (at either end, or while the history is empty), so it
 * keeps moving at a steady speed as the intake grows the history. Returns at once; `window.__syncWatch` holds the state.
 */
function syncWatchScript(step: number): string {
  return `(() => {
    const scroller = document.querySelector('[data-testid="@deposits/scroller"]');
    const watch = { frames: [], firstRowSeenAt: null, firstRowPaintedAt: null, scrolledFrames: 0, stopped: false };
    window.__syncWatch = watch;
    let last = null;
    let direction = 1;
    let previousTop = null;
    const frame = (now) => {
      const at = performance.timeOrigin + now;
      if (last !== null) watch.frames.push([at, now - last]);
      last = now;
      if (watch.firstRowSeenAt !== null && watch.firstRowPaintedAt === null) watch.firstRowPaintedAt = at;
      if (watch.firstRowSeenAt === null && document.querySelector('[data-testid="@deposits/row"]') !== null) watch.firstRowSeenAt = at;
      if (${step} > 0) {
        const top = scroller.scrollTop;
        if (previousTop !== null && top === previousTop) direction = -direction;
        else if (previousTop !== null) watch.scrolledFrames += 1;
        previousTop = top;
        scroller.scrollTop = top + direction * ${step};
      }
      if (!watch.stopped) requestAnimationFrame(frame);
    };
    requestAnimationFrame((now) => { last = now; requestAnimationFrame(frame); });
  })()`;
}

/** In the page: whether the watch has seen the first row painted yet. */
const FIRST_ROW_PAINTED_SCRIPT = 'window.__syncWatch.firstRowPaintedAt !== null';

/** In the page: stops the watch and hands over what it recorded. */
const STOP_WATCH_SCRIPT = `(() => {
  const watch = window.__syncWatch;
  watch.stopped = true;
  return {
    frames: watch.frames,
    firstRowPaintedAt: watch.firstRowPaintedAt,
    scrolledFrames: watch.scrolledFrames,
    rows: document.querySelector('[data-testid="@deposits/count"]').textContent,
  };
})()`;

/**
 * In the page, after the sync: scrolls the Deposits table to its end frame by frame (the table loads keyset pages as it
 * goes) until it says it holds its whole list (aria-rowcount is -1 while more can be loaded), then resolves with how
 * many rows it lists; null when it has not reached its end within `timeoutMs`.
 */
function scrollToEndScript(timeoutMs: number): string {
  return `new Promise((resolve) => {
    const scroller = document.querySelector('[data-testid="@deposits/scroller"]');
    const table = document.querySelector('[data-testid="@deposits/table"]');
    const giveUpAt = performance.now() + ${timeoutMs};
    const frame = (now) => {
      const rowCount = Number(table.getAttribute('aria-rowcount'));
      if (rowCount !== -1) { resolve(rowCount - 1); return; }
      if (now > giveUpAt) { resolve(null); return; }
      scroller.scrollTop = scroller.scrollHeight;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })`;
}
/** How long the table may take to load its whole list after the sync (pages of 500, one per frame at best). */
const SCROLL_TO_END_MS = 300_000;

interface SyncWatch {
  /** [epoch ms of the frame's start, rAF delta ms] */
  readonly frames: ReadonlyArray<readonly [number, number]>;
  readonly firstRowPaintedAt: number | null;
  readonly scrolledFrames: number;
  readonly rows: string;
}

interface SyncWatchResult {
  readonly name: string;
  readonly step: number;
  /** rAF deltas of the frames that started while the sync ran. */
  readonly deltas: number[];
  readonly scrolledFrames: number;
  readonly rows: string;
  readonly stored: number;
  readonly wallMs: number;
  /** Sync start to the first `deposits/changed` event (the intake's first move into the history). */
  readonly firstIntakeMs: number | null;
  /** Sync start to the frame after the first deposits row was found on the screen. */
  readonly firstRowMs: number;
  /** Rows the Deposits screen lists once scrolled to its end after the sync (null: no end within SCROLL_TO_END_MS). */
  readonly listedAtEnd: number | null;
}

export interface SyncFramesBenchOptions {
  /** Deposits seeded in the sandbox for the first sync; default 50,000. */
  readonly deposits?: number;
}

/**
 * A fresh desk on the sandbox's credentials, its renderer in a page on the Deposits screen, and a full first sync run
 * by the harness engine while the page records its frames (and scrolls by `step` px per frame, if any).
 */
async function watchFirstSync(browser: Browser, sandbox: SandboxProcess, dataDir: string, rendererDir: string, watch: (typeof SYNC_WATCHES)[number]): Promise<SyncWatchResult> {
  const desk = await startHarnessEngine({ dataDir, credentialsFile: sandbox.credentialsPath, lockable: false });
  let server: HarnessServer | undefined;
  let stopEvents: (() => void) | undefined;
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  try {
    // Token, keys and connection ready first, as in the sync benchmark: the figures are the sync's.
    const check = await desk.engine.handlers['selfcheck/run']({});
    if (!check.ok) throw new Error(`selfcheck failed: ${check.error.code}: ${check.error.message}`);
    server = await startHarness({ engine: desk.engine, desktop: desk.desktopHandlers, rendererDir });
    await page.goto(server.url, { waitUntil: 'domcontentloaded' });
    await page.evaluate(OPEN_DEPOSITS_SCRIPT);
    await page.waitForTimeout(SETTLE_MS);

    let firstIntakeAt: number | null = null;
    stopEvents = desk.engine.onEvent((event) => {
      if (event.type === 'deposits/changed' && firstIntakeAt === null) firstIntakeAt = epochMs();
    });
    await page.evaluate(syncWatchScript(watch.step));
    const startedAt = epochMs();
    const result = await desk.engine.handlers['sync/run']({ full: true });
    const endedAt = epochMs();
    if (!result.ok) throw new Error(`the first sync failed: ${result.error.code}: ${result.error.message}`);
    // The last batch can reach the screen just after the sync returns (a small history is one batch at the end).
    const deadline = Date.now() + FIRST_ROW_GRACE_MS;
    while (!((await page.evaluate(FIRST_ROW_PAINTED_SCRIPT)) as boolean) && Date.now() < deadline) await page.waitForTimeout(50);
    const seen = (await page.evaluate(STOP_WATCH_SCRIPT)) as SyncWatch;
    if (seen.firstRowPaintedAt === null) throw new Error(`no deposits row on the Deposits screen ${FIRST_ROW_GRACE_MS} ms after the sync stored ${result.value.depositsNew}`);
    const listedAtEnd = (await page.evaluate(scrollToEndScript(SCROLL_TO_END_MS))) as number | null;
    return {
      name: watch.name,
      step: watch.step,
      deltas: seen.frames.filter(([at]) => at >= startedAt && at <= endedAt).map(([, delta]) => delta),
      scrolledFrames: seen.scrolledFrames,
      rows: seen.rows,
      stored: result.value.depositsNew,
      wallMs: endedAt - startedAt,
      firstIntakeMs: firstIntakeAt === null ? null : firstIntakeAt - startedAt,
      firstRowMs: seen.firstRowPaintedAt - startedAt,
      listedAtEnd,
    };
  } finally {
    stopEvents?.();
    await page.close();
    await server?.close();
    await desk.close();
  }
}

const loadText = (): string => loadavg().map((value) => value.toFixed(2)).join(' ');

/**
 * Seeds a sandbox with `deposits` deposits through its ledger, starts it in its own process, and for each watch
 * (idle, steady scroll) runs a full first sync into a fresh desk while the renderer records its frames.
 */
export async function runSyncFramesBench(options: SyncFramesBenchOptions = {}): Promise<void> {
  const count = options.deposits ?? DEFAULT_SYNC_DEPOSITS;
  const dir = mkdtempSync(join(tmpdir(), 'treasury-ui-sync-bench-'));
  let sandbox: SandboxProcess | undefined;
  let browser: Browser | undefined;
  try {
    const sandboxDir = join(dir, 'sandbox');
    const first = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: sandboxDir });
    const merchantId = first.credentials.merchantId;
    await first.close();
    const seedStart = performance.now();
    const seeded = seedDeposits(sandboxDir, merchantId, count);
    if (seeded !== count) throw new Error(`seeded ${seeded} deposits, expected ${count}`);
    const seedMs = performance.now() - seedStart;
    sandbox = await SandboxProcess.start(sandboxDir);
    const rendererDir = await ensureRendererBuilt();
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });

    const loadBefore = loadText();
    const results: SyncWatchResult[] = [];
    for (const [index, watch] of SYNC_WATCHES.entries()) {
      const result = await watchFirstSync(browser, sandbox, join(dir, `desk-${index + 1}`), rendererDir, watch);
      if (result.stored !== count) throw new Error(`the first sync (${watch.name}) stored ${result.stored} deposits, expected the ${count} seeded`);
      results.push(result);
    }
    const loadAfter = loadText();

    report(`While a full first sync runs: ${count.toLocaleString('en-US')} deposits seeded in a sandbox in its own process (Chromium ${browser.version()}, harness over WebSocket)`, [
      [`seed ${count.toLocaleString('en-US')} deposits through the sandbox ledger`, `${(seedMs / 1000).toFixed(1)} s`],
      ['load average (1, 5, 15 min) before / after the syncs', `${loadBefore} / ${loadAfter}`],
    ]);
    for (const result of results) {
      const sorted = sortedCopy(result.deltas);
      const p95 = percentile(sorted, 95);
      const scrolled = result.step > 0 ? `; scrolled in ${result.scrolledFrames} frames` : '';
      report(`Frame times during the sync, ${result.name}, ${result.deltas.length} frames${scrolled}; afterwards: ${result.rows}`, [
        ['p50', ms(percentile(sorted, 50))],
        ['p95', ms(p95), `<= ${TARGET_P95_FRAME_MS.toFixed(1)} ms`, p95 <= TARGET_P95_FRAME_MS],
        ['max', ms(percentile(sorted, 100))],
        ['frames over 50 ms', String(sorted.filter((delta) => delta > 50).length)],
        ['sync start → first deposits row painted', ms(result.firstRowMs)],
        ['  of which: sync start → first batch in the history (deposits/changed)', result.firstIntakeMs === null ? '-' : ms(result.firstIntakeMs)],
        ['deposits stored by the sync (= seeded)', result.stored.toLocaleString('en-US')],
        [
          'afterwards, the Deposits screen scrolled to its end lists',
          result.listedAtEnd === null ? `no end within ${SCROLL_TO_END_MS / 1000} s` : result.listedAtEnd.toLocaleString('en-US'),
          `all ${result.stored.toLocaleString('en-US')} stored`,
          result.listedAtEnd === result.stored,
        ],
        ['sync wall time', `${(result.wallMs / 1000).toFixed(1)} s (${Math.round(result.stored / (result.wallMs / 1000)).toLocaleString('en-US')} deposits/s)`],
      ]);
    }
  } finally {
    await browser?.close();
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface UiBenchArgs {
  readonly syncDeposits: number;
  readonly syncOnly: boolean;
}

function parseArgs(args: readonly string[]): UiBenchArgs {
  let syncDeposits = DEFAULT_SYNC_DEPOSITS;
  let syncOnly = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--sync-deposits') syncDeposits = positiveCount(arg, args[(i += 1)]);
    else if (arg === '--sync-only') syncOnly = true;
    else throw new Error(`unknown argument ${String(arg)}; use --sync-deposits N, --sync-only`);
  }
  return { syncDeposits, syncOnly };
}

/** The dispatcher's module interface (test/bench/run.ts): `npm run bench -- ui [--sync-deposits N] [--sync-only]`. */
export async function run(args: readonly string[] = []): Promise<void> {
  const options = parseArgs(args);
  if (!options.syncOnly) await runUiBench();
  await runSyncFramesBench({ deposits: options.syncDeposits });
}
