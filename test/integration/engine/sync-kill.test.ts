// The first sync of a deposit history SIGKILLed at random moments, many times (issue 25, item 4: resumable at any
// point, nothing lost, nothing unverified stored). A real CLI process (`sync` or `sync --full`) walks ~1,500 deposits
// on the desk's database and is killed, in turn: at a moment drawn uniformly over the measured duration of a whole
// sync, right after the database shows a page committed, or the moment another process's write transaction is seen in
// progress (a write-lock probe); more than a page of deposits arrives between some runs. After every kill the database
// passes integrity_check, every deposit it holds (history and staged pages) equals the sandbox's record field by field,
// none twice, the walk's saved position matches what is stored (its pages are held, and the pages staged since it
// resumed hold exactly its records), the "complete" mark's part of the list is held, and the audit chain verifies;
// a final run completes the history. The random draws come from a printed seed (SYNC_KILL_SEED replays them).
import { randomBytes } from 'node:crypto';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countDeposits, listDepositsStoredAfter, type Deposit } from '../../../electron/core/deposits';
import { MAX_PAGE_SIZE } from '../../../electron/core/store/pagination';
import { checkDatabaseIntegrity, closeDatabase, openDatabase, openReadableDatabase, type ReadableDB, type StoreDatabase } from '../../../electron/core/store/database';
import { readDepositHistory, type DepositHistoryState } from '../../../electron/core/sync/deposit-history';
import type { DepositRecord } from '../../../electron/protocol';
import { DEPOSITS_LIMIT_MAX } from '../../../electron/protocol';
import { randomInt, seededRandom } from '../../../electron/sandbox/chain-sim';
import { openDatabase as openSandboxDatabase } from '../../../electron/sandbox/store';
import { creditLedgerDeposits } from '../../support/ledger-deposits';
import { processEnv, spawnCli, startCliProcess } from '../../support/cli';
import { DepositCredits } from './fixtures/deposit-credits';
import { median, pause } from './fixtures/kill-children';
import { openProxiedDesk, PROXIED_PROFILE, type ProxiedDesk } from './fixtures/proxied-desk';
import type { SandboxState } from './fixtures/sandbox-state';
import type { Desk } from './support';

const SEED = process.env['SYNC_KILL_SEED'] ?? randomBytes(4).toString('hex');
/** Deposits credited before the first sync: 15 pages of the walk. */
const INITIAL_DEPOSITS = 1_500;
/** Kills that must land on a running sync (a run the sync finishes first does not count). */
const KILLS = 14;
/** Runs at most, landed kills or not. */
const MAX_RUNS = 30;
/** Before every ARRIVALS_EVERY-th run, ARRIVAL_COUNT more deposits (more than a page: an interrupted walk's pages shift). */
const ARRIVALS_EVERY = 4;
const ARRIVAL_COUNT = 150;
/** How the kill of each run is timed, in turn (between two commits twice: its moments are the fewest). */
const KILL_MODES = ['by the clock', 'between two commits', 'while a write is in progress', 'between two commits'] as const;
type KillMode = (typeof KILL_MODES)[number];

let proxied: ProxiedDesk | undefined;
let desk: Desk;
let sandboxState: SandboxState;
let merchantId: string;
let credits: DepositCredits;
let reader: ReadableDB | undefined;
let writeProbe: StoreDatabase | undefined;
const live = new Set<ChildProcessWithoutNullStreams>();

const random = seededRandom(`sync-kill:${SEED}`);
/** A uniform draw in [0, 1) from the seeded source. */
function uniform(): number {
  return random(6).readUIntBE(0, 6) / 2 ** 48;
}

beforeAll(async () => {
  proxied = await openProxiedDesk('5000');
  ({ desk, sandboxState, merchantId } = proxied);
  credits = await DepositCredits.open(desk, 'sync-kill');
  // The history to walk, credited through the sandbox's own ledger in one transaction (what its transfer endpoint
  // runs, far faster than 1,500 requests); later arrivals come through the admin API.
  const ledger = openSandboxDatabase(desk.sandbox.dataDir);
  try {
    creditLedgerDeposits(ledger, merchantId, INITIAL_DEPOSITS);
  } finally {
    ledger.close();
  }
  reader = openReadableDatabase(desk.dbPath);
  // A second writer that never writes: BEGIN IMMEDIATE refused at once (no busy wait) means a write is in progress.
  writeProbe = openDatabase(desk.dbPath, { integrityCheck: 'none', busyTimeoutMs: 0 });
}, 120_000);

afterAll(async () => {
  for (const child of live) child.kill('SIGKILL');
  if (writeProbe) closeDatabase(writeProbe);
  if (reader) closeDatabase(reader);
  await proxied?.close();
});

interface SyncChild {
  readonly process: ChildProcessWithoutNullStreams;
  readonly startedAt: number;
  readonly stderr: () => string;
  /** The exit code, null when killed. */
  readonly exited: Promise<number | null>;
  readonly hasExited: () => boolean;
}

async function startSync(dbPath: string, full: boolean): Promise<SyncChild> {
  const args = ['--db', dbPath, '--profile', PROXIED_PROFILE, 'sync', ...(full ? ['--full'] : [])];
  const child = await startCliProcess(args, processEnv({ TREASURY_DESK_KEYCHAIN_SERVICE: desk.vault.service }));
  const startedAt = performance.now();
  live.add(child);
  let stderr = '';
  let exited = false;
  child.stdout.resume();
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return {
    process: child,
    startedAt,
    stderr: () => stderr,
    exited: new Promise((resolve) =>
      child.on('close', (code) => {
        exited = true;
        live.delete(child);
        resolve(code);
      }),
    ),
    hasExited: () => exited,
  };
}

const fingerprints = new WeakMap<ReadableDB, ReturnType<ReadableDB['prepare']>>();

/** What a committed page changes: the walk's saved state, the staged pages, the history's size. */
function commitFingerprint(db: ReadableDB): string {
  let statement = fingerprints.get(db);
  if (statement === undefined) {
    statement = db.prepare(
      `SELECT (SELECT progress_json FROM sync_state WHERE profile = @profile AND resource = 'deposits') AS walk,
         (SELECT coalesce(max(id), 0) FROM deposit_intake) AS staged, (SELECT count(*) FROM deposits WHERE profile = @profile) AS held`,
    );
    fingerprints.set(db, statement);
  }
  return JSON.stringify(statement.get({ profile: PROXIED_PROFILE }));
}

/** Takes the database's write lock if no other connection holds it (then releaseWriteLock); false: a write is in progress. */
function takeWriteLock(): boolean {
  try {
    writeProbe!.exec('BEGIN IMMEDIATE');
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw error;
  }
}

function releaseWriteLock(): void {
  writeProbe!.exec('ROLLBACK');
}

/** Whether another connection holds the database's write lock (a write transaction in progress). */
function writeInProgress(): boolean {
  if (!takeWriteLock()) return true;
  releaseWriteLock();
  return false;
}

/** The commits of a run that are watched closely (see 'between two commits'). */
const CLOSE_COMMITS = 3;

/** How long a close watch looks back to back before it lets the event loop (the sandbox, the proxy) turn. */
const CLOSE_WATCH_SLICE_MS = 15;

/**
 * Waits until `trigger()` holds, the child exits, or `timeoutMs` passes: looked at every millisecond, or, `closely`,
 * back to back (microseconds apart, in slices: a few microseconds the child spends between two statements are then
 * seen, at a CPU's cost, so only for the last wait of a run).
 */
async function waitFor(child: SyncChild, trigger: () => boolean, timeoutMs: number, closely = false): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!child.hasExited() && performance.now() < deadline) {
    if (closely) {
      const sliceEnd = performance.now() + CLOSE_WATCH_SLICE_MS;
      while (performance.now() < sliceEnd) if (trigger()) return true;
      await new Promise((resolve) => setImmediate(resolve));
    } else {
      if (trigger()) return true;
      await pause(1);
    }
  }
  return false;
}

interface Calibration {
  /** From the process's start to its first committed deposit page, and to its exit (ms). */
  readonly firstPageMs: number;
  readonly completeMs: number;
}

/** One undisturbed first sync, on a copy of the desk's database, times the window the kills are drawn from. */
async function calibrate(): Promise<Calibration> {
  // The CLI's bundle is built, and its compiled code cached, by a first process, not inside the measured one.
  expect((await spawnCli(['--version'])).code).toBe(0);
  const copyPath = `${desk.dbPath}.calibration`;
  await reader!.backup(copyPath);
  const copy = openReadableDatabase(copyPath);
  try {
    const before = readDepositHistory(copy, PROXIED_PROFILE);
    const child = await startSync(copyPath, false);
    const paged = await waitFor(child, () => readDepositHistory(copy, PROXIED_PROFILE).walk?.pages !== before.walk?.pages, 60_000);
    const firstPageMs = performance.now() - child.startedAt;
    const code = await child.exited;
    expect(code, child.stderr()).toBe(0);
    expect(paged, 'the calibration sync committed no page before it ended').toBe(true);
    return { firstPageMs, completeMs: performance.now() - child.startedAt };
  } finally {
    closeDatabase(copy);
  }
}

interface StagedPage {
  /** The row's id and when it was staged: ids are reused once the table was emptied. */
  readonly key: string;
  readonly records: DepositRecord[];
}

function stagedPages(db: ReadableDB): StagedPage[] {
  const rows = db.prepare('SELECT id, profile, observed_at, records, records_json FROM deposit_intake ORDER BY id').all() as Array<{
    id: number;
    profile: string;
    observed_at: number;
    records: number;
    records_json: string;
  }>;
  return rows.map((row) => {
    const records = JSON.parse(row.records_json) as DepositRecord[];
    expect(row.profile).toBe(PROXIED_PROFILE);
    expect(records).toHaveLength(row.records);
    return { key: `${row.id}@${row.observed_at}`, records };
  });
}

function heldDeposits(db: ReadableDB): Deposit[] {
  const held: Deposit[] = [];
  for (;;) {
    const page = listDepositsStoredAfter(db, PROXIED_PROFILE, held.at(-1)?.id ?? 0, MAX_PAGE_SIZE);
    held.push(...page);
    if (page.length < MAX_PAGE_SIZE) return held;
  }
}

/** The fields of `stored` that differ from the sandbox's record (every field of the record, and the raw copy). */
function differences(stored: Record<string, unknown>, truth: DepositRecord | undefined): string[] {
  if (truth === undefined) return ['not a deposit the sandbox credited'];
  return Object.entries(truth).flatMap(([field, value]) => (stored[field] === value ? [] : [`${field}: ${String(stored[field])} != ${value}`]));
}

interface Snapshot {
  readonly history: DepositHistoryState;
  readonly stagedKeys: string[];
  readonly held: number;
}

function snapshot(db: ReadableDB): Snapshot {
  return { history: readDepositHistory(db, PROXIED_PROFILE), stagedKeys: stagedPages(db).map((page) => page.key), held: countDeposits(db, PROXIED_PROFILE) };
}

/**
 * What is wrong between the pages staged and the walk's saved position, given the state before the run: the pages
 * staged before it are moved into the history all together or not at all (and then nothing else happened); once they
 * are, the pages the run staged hold exactly the records its walk counted (at most, when the history was empty: its
 * first page is taken in at once), or, with no walk saved, belong to a walk it finished. Empty when all is well.
 */
function stagedAgainstWalk(before: Snapshot, staged: readonly StagedPage[], { complete, walk }: Pick<DepositHistoryState, 'complete' | 'walk'>): string[] {
  const walkBefore = before.history.walk;
  const earlier = new Set(before.stagedKeys);
  const stillStaged = staged.filter((page) => earlier.has(page.key)).map((page) => page.key);
  const newlyStaged = staged.filter((page) => !earlier.has(page.key)).reduce((sum, page) => sum + page.records.length, 0);
  if (stillStaged.length > 0) {
    if (stillStaged.join() !== before.stagedKeys.join()) return [`part of the staged pages was moved: ${stillStaged.length} of ${before.stagedKeys.length} left`];
    if (newlyStaged > 0) return [`${newlyStaged} records staged before the earlier pages were moved`];
    return JSON.stringify(walk) === JSON.stringify(walkBefore) ? [] : ['the walk moved before the staged pages were moved'];
  }
  if (walk === null) {
    const walkFinished = JSON.stringify(complete) !== JSON.stringify(before.history.complete);
    return walkFinished || newlyStaged === 0 ? [] : [`${newlyStaged} records staged by no saved walk`];
  }
  const counted = walk.records - (walkBefore !== null && walkBefore.id === walk.id ? walkBefore.records : 0);
  const consistent = before.held === 0 ? newlyStaged <= counted && newlyStaged % DEPOSITS_LIMIT_MAX === 0 : newlyStaged === counted;
  return consistent ? [] : [`${newlyStaged} records staged by this run, ${counted} counted by its walk (${walk.pages} pages)`];
}

/** The list as it was when the current walk last moved: its pages are positions of that list. */
let listAtWalkMove: { readonly walkId: string; readonly nextPage: number; readonly apiOrders: readonly string[] } | undefined;

/** Every property that must hold after a kill (or a finished run), `label` naming the run and the seed. */
async function expectConsistent(label: string, before: Snapshot): Promise<{ readonly staged: number; readonly walkMoved: boolean }> {
  const db = reader!;
  expect(checkDatabaseIntegrity(db, 'full'), `${label}: integrity_check`).toEqual([]);
  const service = sandboxState.deposits(merchantId);
  const truth = new Map(service.map((record) => [record.apiOrder, record]));
  const apiOrders = service.map((record) => record.apiOrder);

  // Nothing unverified stored: each held deposit and each staged record is the sandbox's record, none twice.
  const held = heldDeposits(db);
  const heldWrong = held.flatMap((deposit) => {
    const wrong = [...differences(deposit as unknown as Record<string, unknown>, truth.get(deposit.apiOrder)), ...differences(deposit.raw, truth.get(deposit.apiOrder))];
    return wrong.length === 0 ? [] : [`${deposit.apiOrder}: ${wrong.join(', ')}`];
  });
  expect(heldWrong, `${label}: held deposits that differ from the sandbox's`).toEqual([]);
  const heldOrders = new Set(held.map((deposit) => deposit.apiOrder));
  expect(heldOrders.size, `${label}: an apiOrder held twice`).toBe(held.length);
  const staged = stagedPages(db);
  const stagedRecords = staged.flatMap((page) => page.records);
  const stagedWrong = stagedRecords.flatMap((record) => {
    const wrong = differences(record as unknown as Record<string, unknown>, truth.get(record.apiOrder));
    return wrong.length === 0 ? [] : [`${record.apiOrder}: ${wrong.join(', ')}`];
  });
  expect(stagedWrong, `${label}: staged records that differ from the sandbox's`).toEqual([]);
  expect(new Set(stagedRecords.map((record) => record.apiOrder)).size, `${label}: an apiOrder staged twice`).toBe(stagedRecords.length);
  const kept = new Set([...heldOrders, ...stagedRecords.map((record) => record.apiOrder)]);

  // The walk's saved position against what is stored.
  const { complete, walk } = readDepositHistory(db, PROXIED_PROFILE);
  const walkBefore = before.history.walk;
  const walkMoved = walk !== null && (walk.id !== walkBefore?.id || walk.nextPage !== walkBefore.nextPage);
  if (walk !== null) {
    expect(walk.records, `${label}: an unfinished walk reads only whole pages`).toBe(walk.pages * DEPOSITS_LIMIT_MAX);
    expect(walk.nextPage, `${label}: the walk resumes after its last page`).toBe(walk.pages + 1);
    if (walkMoved) listAtWalkMove = { walkId: walk.id, nextPage: walk.nextPage, apiOrders };
    if (walk.anchor !== undefined && walk.anchor !== null && walk.pages > 0) {
      // Everything from the walk's anchor down to the last record of its last page (as the list stood then) is kept.
      const list = listAtWalkMove?.walkId === walk.id && listAtWalkMove.nextPage === walk.nextPage ? listAtWalkMove.apiOrders : undefined;
      expect(list, `${label}: the walk moved without this test seeing it`).toBeDefined();
      const from = list!.indexOf(walk.anchor);
      expect(from, `${label}: the walk's anchor is not a listed deposit`).toBeGreaterThanOrEqual(0);
      const lost = list!.slice(from, (walk.nextPage - 1) * DEPOSITS_LIMIT_MAX).filter((apiOrder) => !kept.has(apiOrder));
      expect(lost, `${label}: deposits of pages the walk counts as read are not stored`).toEqual([]);
    }
  }
  // The pages staged before the run were moved into the history all together, or not at all (nothing else happened).
  expect(stagedAgainstWalk(before, staged, { complete, walk }), label).toEqual([]);
  // The part of the list a complete walk vouched for (from its anchor down) is kept.
  if (complete !== null && complete.through !== null) {
    const from = apiOrders.indexOf(complete.through);
    expect(from, `${label}: the complete mark is not a listed deposit`).toBeGreaterThanOrEqual(0);
    expect(apiOrders.slice(from).filter((apiOrder) => !kept.has(apiOrder)), `${label}: deposits below the complete mark are not stored`).toEqual([]);
  }
  const verified = await desk.value('audit/verify', {});
  expect(verified, `${label}: the audit chain`).toMatchObject({ ok: true });
  return { staged: stagedRecords.length, walkMoved };
}

type Landing = 'before anything was written' | 'pages committed, walk unfinished' | 'walk finished, pages still staged' | 'walk finished, all taken in' | 'staged pages taken in, no page read';

function landingOf(before: Snapshot, after: Snapshot, beforePrint: string, afterPrint: string): Landing {
  if (beforePrint === afterPrint && before.stagedKeys.join() === after.stagedKeys.join()) return 'before anything was written';
  if (after.history.walk !== null) return after.history.walk.id !== before.history.walk?.id || after.history.walk.nextPage !== before.history.walk.nextPage ? 'pages committed, walk unfinished' : 'staged pages taken in, no page read';
  if (before.history.walk === null && JSON.stringify(before.history.complete) === JSON.stringify(after.history.complete)) return 'staged pages taken in, no page read';
  return after.stagedKeys.length > 0 ? 'walk finished, pages still staged' : 'walk finished, all taken in';
}

describe('a first deposit sync SIGKILLed at random moments', () => {
  it(`keeps only verified deposits, a position that matches them, and completes afterwards (seed ${SEED})`, async () => {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    let checksMs = 0;
    const calibration = await calibrate();
    console.log(`sync SIGKILL (seed ${SEED}): a whole first sync of ${INITIAL_DEPOSITS} deposits: first page at ${calibration.firstPageMs.toFixed(0)} ms, done at ${calibration.completeMs.toFixed(0)} ms`);
    const calibratedPages = Math.ceil(INITIAL_DEPOSITS / DEPOSITS_LIMIT_MAX);
    const pageMs = (calibration.completeMs - calibration.firstPageMs) / (calibratedPages - 1);
    const landings = new Map<string, number>();
    const killMs: number[] = [];
    let kills = 0;
    let killedWriting = 0;
    let killedBetweenCommits = 0;
    let runs = 0;

    while (kills < KILLS) {
      expect(runs, `only ${kills} of ${runs} runs were killed before they finished`).toBeLessThan(MAX_RUNS);
      if (runs % ARRIVALS_EVERY === ARRIVALS_EVERY - 1) await credits.add(ARRIVAL_COUNT);
      const mode: KillMode = KILL_MODES[runs % KILL_MODES.length]!;
      const before = snapshot(reader!);
      // An unfinished walk is resumed by either command; a complete history is walked again by --full only.
      const full = before.history.walk === null || uniform() < 0.5;
      const label = `seed ${SEED}, run ${runs} (${full ? 'sync --full' : 'sync'}, ${mode})`;
      runs += 1;

      // This run's sync as the calibration measured one: its start-up, then a page at a time to the end of its walk
      // (a resumed walk from its page on, then the head that grew meanwhile).
      const listedPages = Math.ceil(sandboxState.depositApiOrders(merchantId).length / DEPOSITS_LIMIT_MAX);
      const walkResumed = before.history.walk !== null && (!full || before.history.walk.full);
      const pagesToWalk = walkResumed ? Math.max(1, listedPages - before.history.walk!.pages) + 1 : listedPages;
      const syncMs = calibration.firstPageMs + pageMs * (pagesToWalk - 1);
      const beforePrint = commitFingerprint(reader!);
      const child = await startSync(desk.dbPath, full);
      let writing = false;
      let holdingLock = false;
      switch (mode) {
        case 'by the clock':
          await pause(child.startedAt + uniform() * syncMs - performance.now());
          break;
        case 'between two commits': {
          // After the n-th change the database shows. The last CLOSE_COMMITS changes are watched holding the write lock
          // between looks, so the kill comes after the child's commit and before its next write transaction begins (it
          // waits for the lock); each of those commits is checked as a kill would leave it, and a wrong one is killed.
          const commits = randomInt(random, 1, pagesToWalk);
          let print = beforePrint;
          let seen = 0;
          while (seen < commits - CLOSE_COMMITS && (await waitFor(child, () => commitFingerprint(reader!) !== print, 3 * calibration.completeMs))) {
            print = commitFingerprint(reader!);
            seen += 1;
          }
          holdingLock = await waitFor(
            child,
            () => {
              if (!takeWriteLock()) return false;
              const now = commitFingerprint(writeProbe!);
              if (now !== print) {
                seen += 1;
                print = now;
                if (seen >= commits || stagedAgainstWalk(before, stagedPages(writeProbe!), readDepositHistory(writeProbe!, PROXIED_PROFILE)).length > 0) return true;
              }
              releaseWriteLock();
              return false;
            },
            3 * calibration.completeMs,
            true,
          );
          break;
        }
        case 'while a write is in progress':
          await pause(child.startedAt + uniform() * syncMs - performance.now());
          writing = await waitFor(child, writeInProgress, 3 * calibration.completeMs, true);
          break;
        default:
          throw new Error(`unknown kill mode ${mode satisfies never}`);
      }
      const killedAfterMs = performance.now() - child.startedAt;
      const killed = !child.hasExited() && child.process.kill('SIGKILL');
      const code = await child.exited;
      if (holdingLock) releaseWriteLock();
      if (killed && code === null) {
        kills += 1;
        killMs.push(killedAfterMs);
        if (writing) killedWriting += 1;
        if (holdingLock) killedBetweenCommits += 1;
      } else {
        expect(code, `${label}: ${child.stderr()}`).toBe(0);
      }

      const checksStarted = performance.now();
      await expectConsistent(label, before);
      checksMs += performance.now() - checksStarted;
      const landing = killed && code === null ? landingOf(before, snapshot(reader!), beforePrint, commitFingerprint(reader!)) : 'finished before the kill';
      landings.set(landing, (landings.get(landing) ?? 0) + 1);
    }

    // Nothing lost: a run left alone completes the history, each deposit held once, equal to the sandbox's.
    const before = snapshot(reader!);
    const finalRun = await startSync(desk.dbPath, false);
    expect(await finalRun.exited, finalRun.stderr()).toBe(0);
    const { staged } = await expectConsistent(`seed ${SEED}, the final run`, before);
    expect(staged).toBe(0);
    const service = sandboxState.depositApiOrders(merchantId);
    const held = heldDeposits(reader!).map((deposit) => deposit.apiOrder);
    expect([...held].sort()).toEqual([...service].sort());
    const history = (await desk.value('sync/status', {})).depositHistory;
    expect(history).toMatchObject({ complete: true, walk: null, depositsHeld: service.length });

    const table = [...landings.entries()].map(([landing, count]) => `  ${String(count).padStart(4)}  ${landing}`).join('\n');
    console.log(
      `sync SIGKILL (seed ${SEED}): ${kills} kills in ${runs} runs, ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `checks ${(checksMs / 1000).toFixed(1)} s, this process's CPU ${(process.cpuUsage(cpuStarted).user / 1e6).toFixed(1)} s user ${(process.cpuUsage(cpuStarted).system / 1e6).toFixed(1)} s system; ` +
        `kills at median ${median(killMs).toFixed(0)} ms, ${killedWriting} of them while a write was in progress, ${killedBetweenCommits} between two commits; ${service.length} deposits at the end\n` +
        `where the runs ended:\n${table}`,
    );
    // The spread is the point: kills mid-walk, during a write and right after a commit must have happened.
    expect(landings.get('pages committed, walk unfinished') ?? 0, 'kills between pages of a walk').toBeGreaterThan(0);
    expect(killedWriting, 'kills while a write was in progress').toBeGreaterThan(0);
    expect(killedBetweenCommits, 'kills between two commits').toBeGreaterThan(0);
  }, 180_000);
});
