// Shared setup for the team-mode engine tests: one real PostgreSQL (scripts/with-postgres.sh), one sandbox, and two or
// three engines ("workstations"), each with its own SQLite file and keychain service name. Workstation A holds the
// merchant credentials (openDesk imports them and seeds the roster); the others join without credentials.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { callMethod, type MethodName, type ResponseOf, type Result, type TeamStatusView, type WithdrawalView } from '../../../electron/contract';
import { createEngine, type Engine, type EngineOptions } from '../../../electron/core/engine';
import { KeychainVault } from '../../../electron/core/secrets';
import { openPostgresDeskStore, type PostgresStoreOptions } from '../../../electron/core/team/postgres-store';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { ADMIN, APPROVER, INITIATOR, openDesk, requireKeyring, SECOND_ADMIN, VIEWER, type Desk } from '../engine/support';
import { sandboxOrdersIn } from '../../support/team-workload';

const HARNESS_COMMAND = 'bash scripts/with-node.sh bash scripts/with-keyring.sh bash scripts/with-postgres.sh npx vitest run test/integration/team';

/** The throwaway cluster's URL for a workstation (its role reads and appends only); fails (never skips) without scripts/with-postgres.sh. */
export function databaseUrl(): string {
  const url = process.env['TREASURY_DESK_DATABASE_URL'];
  if (url === undefined || process.env['TREASURY_DESK_PG_HARNESS'] === undefined) throw new Error(`the team tests need a throwaway PostgreSQL: run \`${HARNESS_COMMAND}\``);
  return url;
}

/** The throwaway cluster's URL for the database's owner (migrations, team init's owner URL, the tests' administrator). */
export function ownerDatabaseUrl(): string {
  const url = process.env['TREASURY_DESK_OWNER_DATABASE_URL'];
  if (url === undefined) throw new Error(`TREASURY_DESK_OWNER_DATABASE_URL is not set: run \`${HARNESS_COMMAND}\``);
  return url;
}

/** Quick reconnects, so outages are noticed and healed within the tests' time. */
export const TEST_STORE_OPTIONS: PostgresStoreOptions = { poolSize: 8, heartbeatMs: 300, reconnectDelayMs: { first: 100, longest: 400 }, connectTimeoutMs: 2_000 };
/**
 * The engines' opener in these tests: the owner URL for `initialise` is the one team/init passed, else the cluster's
 * owner (so a test's team/init needs no ownerDatabase); the CLI test exercises the desk's own opener and owner option.
 */
export const openTestStore = (url: string, options: PostgresStoreOptions = {}): ReturnType<typeof openPostgresDeskStore> =>
  openPostgresDeskStore(url, { ...TEST_STORE_OPTIONS, ...options, ownerUrl: options.ownerUrl ?? ownerDatabaseUrl() });

/** Runs SQL as the database's owner (the tests' "database administrator"). */
export async function adminSql<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: ownerDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

export async function emptyTeamDatabase(): Promise<void> {
  await adminSql(`DROP SCHEMA IF EXISTS ${TEAM_SCHEMA} CASCADE`);
}

/** Stops or starts the throwaway cluster (outage tests); starting a running one does nothing. */
export function postgres(action: 'stop' | 'start'): void {
  const pgCtl = process.env['TREASURY_DESK_PG_CTL'];
  if (pgCtl === undefined) throw new Error(`TREASURY_DESK_PG_CTL is not set: run \`${HARNESS_COMMAND}\``);
  if (action === 'start') {
    try {
      execFileSync(pgCtl, ['status'], { stdio: 'ignore' });
      return;
    } catch {
      // not running: start it below
    }
  }
  execFileSync(pgCtl, [action], { stdio: 'ignore' });
}

export interface Workstation {
  readonly name: string;
  readonly engine: Engine;
  call<M extends MethodName>(method: M, request: unknown): Promise<Result<ResponseOf<M>>>;
  value<M extends MethodName>(method: M, request: unknown): Promise<ResponseOf<M>>;
  /** This workstation's view of the request with this userOrder (request ids are per workstation), or undefined. */
  find(userOrder: string): Promise<WithdrawalView | undefined>;
  close(): Promise<void>;
}

function workstationOf(name: string, engine: Engine, close: () => Promise<void>): Workstation {
  const call = async <M extends MethodName>(method: M, request: unknown): Promise<Result<ResponseOf<M>>> => {
    return callMethod(engine.handlers, method, request);
  };
  const value = async <M extends MethodName>(method: M, request: unknown): Promise<ResponseOf<M>> => {
    const result = await call(method, request);
    if (!result.ok) expect.fail(`${name}: ${method} failed: ${result.error.code}: ${result.error.message}`);
    return result.value;
  };
  return {
    name,
    engine,
    call,
    value,
    async find(userOrder) {
      const page = await value('withdrawals/list', { limit: 200 });
      return page.rows.find((row) => row.userOrder === userOrder);
    },
    close,
  };
}

/** Workstation A: the sandbox, the merchant credentials, the standard roster, a funded balance and a first sync. */
export async function openFirstWorkstation(store: PostgresStoreOptions = {}, engine: Partial<EngineOptions> = {}): Promise<{ desk: Desk; a: Workstation }> {
  const desk = await openDesk({ engine: { ...engine, openSharedStore: (url, options) => openTestStore(url, { ...store, ...options }) } });
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '100000', trx: '1000' } })).status).toBe(200);
  await desk.value('sync/run', {});
  return { desk, a: workstationOf('A', desk.engine, () => desk.close()) };
}

/** A team desk from scratch: the team database emptied, workstation A opened (openFirstWorkstation) and its desk moved into it. */
export async function startTeamAtA(): Promise<{ desk: Desk; a: Workstation }> {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  await first.a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  return first;
}

/** Another workstation: its own SQLite file and keychain service, no merchant credentials. */
export async function openWorkstation(
  name: string,
  options: { readonly notifications?: boolean; readonly store?: PostgresStoreOptions } = {},
): Promise<Workstation & { readonly dbPath: string; restart(): Promise<Workstation>; stop(): Promise<void>; start(): Promise<Workstation> }> {
  requireKeyring();
  const dir = mkdtempSync(join(tmpdir(), `td-team-${name}-`));
  const vault = new KeychainVault({ service: `treasury-desk-test-${randomBytes(6).toString('hex')}` });
  const start = (): Promise<Engine> =>
    createEngine({
      dbPath: join(dir, 'desk.sqlite'),
      vault,
      cryptoThreads: 1,
      openSharedStore: (url, opened) => openTestStore(url, { ...options.store, ...opened }),
      notifications: options.notifications === true,
    });
  let engine = await start();
  let running = true;
  const close = async (): Promise<void> => {
    if (running) await engine.close();
    running = false;
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    ...workstationOf(name, engine, close),
    dbPath: join(dir, 'desk.sqlite'),
    /** Closes this workstation's engine and starts a new one on the same data folder and keychain (a restart). */
    async restart() {
      await engine.close();
      engine = await start();
      return workstationOf(name, engine, close);
    },
    /** Closes this workstation's engine, keeping its data folder: it neither pulls nor answers (unreachable). */
    async stop() {
      await engine.close();
      running = false;
    },
    /** Starts a new engine on the data folder and keychain after stop(). */
    async start() {
      engine = await start();
      running = true;
      return workstationOf(name, engine, close);
    },
  };
}

/**
 * Polls `check` until it holds, first after 5 ms and then twice as long each time up to every 50 ms; answers how long it
 * took (ms, up to 50 ms late). Fails after `timeoutMs`. The checks run on the engines' own event loop: polling a list
 * every 5 ms for seconds takes turns from the work being waited for.
 */
export async function within(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) expect.fail(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Orders the sandbox holds for this merchant, per userOrder, from its own database. */
export function sandboxOrders(desk: Desk): { userOrder: string; count: number }[] {
  return sandboxOrdersIn(desk.sandbox);
}

/** The desk's genesis fingerprint as a workstation already on the desk shows it (what a joiner confirms). */
export async function genesisOf(workstation: Workstation): Promise<string> {
  const fingerprint = (await workstation.value('team/status', {})).genesis?.fingerprint;
  if (fingerprint === undefined) expect.fail(`${workstation.name} has no pinned genesis`);
  return fingerprint;
}

/** The standard roster's operators (engine/support.ts), who get a device key at each workstation that joins. */
export const STANDARD_OPERATORS = [ADMIN, SECOND_ADMIN, APPROVER, INITIATOR, VIEWER] as const;

/**
 * Confirms at `by` (with the operator's own key there, or `as` an admin) the device key `operator` proposed at `at`,
 * once `by` sees it; answers its id.
 */
export async function confirmDeviceAt(by: Workstation, proposal: string, as: { operator: string; passphrase: string }): Promise<void> {
  await within(`device key ${proposal.slice(0, 12)} at ${by.name}`, 10_000, async () => (await by.value('operators/list', {})).pendingDevices.some((device) => device.id === proposal));
  await by.value('operators/confirmDevice', { proposal, as });
}

/**
 * Joins workstation `ws` as alice (ADMIN), confirming the genesis fingerprint `by` shows, then enrols it
 * (enrolAfterJoin). Answers the join's status once `ws` knows it is enrolled.
 */
export async function joinTeam(ws: Workstation, name: string, by: Workstation, operators: readonly { operator: string; passphrase: string }[] = STANDARD_OPERATORS): Promise<TeamStatusView> {
  const joined = await ws.value('team/join', { database: databaseUrl(), workstation: name, as: ADMIN, genesis: await genesisOf(by) });
  await enrolAfterJoin(ws, name, by, operators);
  return { ...joined, enrolment: null };
}

/**
 * The join's second step: alice's device key proposed at the joined `ws` is confirmed at `by` with her key, which also
 * enrols `ws` (an admin's `team/workstation` after the pinned genesis); then each of `operators` gets a device key at
 * `ws`, confirmed at `by` with their own key (no private key travels through the team database).
 */
export async function enrolAfterJoin(ws: Workstation, name: string, by: Workstation, operators: readonly { operator: string; passphrase: string }[]): Promise<void> {
  const mine = (await ws.value('operators/list', {})).pendingDevices.find((device) => device.operator === ADMIN.operator && device.workstation === name);
  if (mine) await confirmDeviceAt(by, mine.id, ADMIN);
  for (const operator of operators) {
    if (operator.operator === ADMIN.operator && mine) continue;
    await within(`alice's key at ${ws.name}`, 10_000, async () => (await ws.value('team/status', {})).enrolment === null);
    const proposed = await ws.value('operators/addDevice', operator);
    await confirmDeviceAt(by, proposed.id, operator);
  }
  await within(`${ws.name} enrolled, its device keys in force`, 10_000, async () => {
    const roster = await ws.value('operators/list', {});
    return (await ws.value('team/status', {})).enrolment === null && roster.pendingDevices.length === 0;
  });
}
