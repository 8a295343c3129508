// Benchmark of witnessed sends (team/witness.ts): what asking every other workstation for a fresh signed head adds to
// a send. A demo desk moved into the throwaway PostgreSQL sends with 3 and with 10 workstations enrolled: the witness
// step at the sender (its team database calls timed: from posting the request to reading the last ack it waited for,
// p50/p95), the whole send (withdrawals/submit, passphrase unsealing and the service included) for scale, and the
// round in the database (request stored to last ack stored, database clock).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEMO_OPERATORS, callMethod, type MethodName, type ResponseOf } from '../../electron/contract';
import { createEngine, type Engine } from '../../electron/core/engine';
import { KeychainVault } from '../../electron/core/secrets';
import { TEAM_SCHEMA } from '../../electron/core/team/pg-migrations';
import { openPostgresDeskStore } from '../../electron/core/team/postgres-store';
import type { SharedDeskStore } from '../../electron/core/team/shared-store';
import { startHarnessEngine } from '../harness/engine';
import { joinAndEnrol } from '../support/team-join';
import { percentile } from './history';
import type { BenchOutcome } from './run';
import { emptyTeamSchema } from './team-database';

const SENDS = 15;
const SIZES = [3, 10] as const;

function operator(name: string): { operator: string; passphrase: string } {
  const found = DEMO_OPERATORS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no demo operator ${name}`);
  return { operator: found.name, passphrase: found.passphrase };
}
const ADMIN = operator('demo-admin');
const APPROVER = operator('demo-approver');

type Call = <M extends MethodName>(method: M, request: unknown) => Promise<ResponseOf<M>>;

function caller(engine: Engine): Call {
  return async <M extends MethodName>(method: M, request: unknown): Promise<ResponseOf<M>> => {
    const result = await callMethod(engine.handlers, method, request);
    if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
    return result.value;
  };
}

function summary(samples: readonly number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((left, right) => left - right);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** Per witness nonce: when the sender posted the request and when it last read the acks (performance.now()). */
type WitnessTimes = Map<string, { readonly posted: number; read: number }>;

/** The sender's team database, its witness calls timed (everything else passes through untouched). */
function timedStore(store: SharedDeskStore, times: WitnessTimes): SharedDeskStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'requestWitness') {
        return async (nonce: string, workstation: string) => {
          const posted = performance.now();
          const request = await target.requestWitness(nonce, workstation);
          times.set(nonce, { posted, read: performance.now() });
          return request;
        };
      }
      if (property === 'headAcks') {
        return async (nonce?: string) => {
          const acks = await target.headAcks(nonce);
          const timing = nonce === undefined ? undefined : times.get(nonce);
          if (timing !== undefined) timing.read = performance.now();
          return acks;
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** SENDS approved requests submitted one after the other at A: each submit's time, each witness step, each round in the database. */
async function timeSends(a: Call, admin: pg.Client, times: WitnessTimes): Promise<{ sends: number[]; steps: number[]; rounds: number[] }> {
  const approved: string[] = [];
  for (let index = 0; index < SENDS; index += 1) {
    const { withdrawal } = await a('withdrawals/request', { currency: 'eth.usdt', amount: '21', toAddress: `0x${randomBytes(20).toString('hex')}`, as: ADMIN });
    await a('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    approved.push(withdrawal.id);
  }
  const [before] = (await admin.query<{ id: string | null }>(`SELECT max(id) AS id FROM ${TEAM_SCHEMA}.witness_requests`)).rows;
  const sends: number[] = [];
  times.clear();
  for (const id of approved) {
    const started = performance.now();
    await a('withdrawals/submit', { id, as: ADMIN });
    sends.push(performance.now() - started);
  }
  const rounds = await admin.query<{ ms: number }>(
    `SELECT (extract(epoch FROM max(h.received_at) - r.requested_at) * 1000)::float8 AS ms
     FROM ${TEAM_SCHEMA}.witness_requests r JOIN ${TEAM_SCHEMA}.head_acks h ON h.nonce = r.nonce
     WHERE r.id > $1 GROUP BY r.id, r.requested_at`,
    [Number(before?.id ?? 0)],
  );
  const steps = [...times.values()].map((timing) => timing.read - timing.posted);
  return { sends, steps, rounds: rounds.rows.map((row) => row.ms) };
}

export async function runWitnessBench(url: string, ownerUrl: string): Promise<BenchOutcome> {
  await emptyTeamSchema(ownerUrl);
  const admin = new pg.Client({ connectionString: ownerUrl });
  await admin.connect();
  const dir = mkdtempSync(join(tmpdir(), 'td-bench-witness-'));
  const closers: (() => Promise<void>)[] = [];
  try {
    const times: WitnessTimes = new Map();
    const first = await startHarnessEngine({
      dataDir: join(dir, 'A'),
      lockable: false,
      demoAuto: false,
      openSharedStore: async (target, options) => timedStore(await openPostgresDeskStore(target, options), times),
    });
    closers.push(() => first.close());
    const a = caller(first.engine);
    await a('demo/start', {});
    await a('team/init', { database: url, ownerDatabase: ownerUrl, workstation: 'A', as: ADMIN });
    const lines: string[] = [];
    let enrolled = 1;
    for (const size of SIZES) {
      for (; enrolled < size; enrolled += 1) {
        const name = `W${enrolled + 1}`;
        const engine = await createEngine({ dbPath: join(dir, `${name}.sqlite`), vault: new KeychainVault({ service: `treasury-desk-bench-${randomBytes(6).toString('hex')}` }), cryptoThreads: 1 });
        closers.push(() => engine.close());
        await joinAndEnrol(caller(engine), a, name, url, ADMIN);
      }
      const witnessed = await timeSends(a, admin, times);
      if (witnessed.steps.length !== SENDS) throw new Error(`${witnessed.steps.length} witness steps for ${SENDS} sends`);
      const steps = summary(witnessed.steps);
      const sends = summary(witnessed.sends);
      const rounds = summary(witnessed.rounds);
      lines.push(
        `  ${size} workstations (${size - 1} witnesses): witness step p50 ${steps.p50.toFixed(0)} ms, p95 ${steps.p95.toFixed(0)} ms; ` +
          `whole send p50 ${sends.p50.toFixed(0)} ms, p95 ${sends.p95.toFixed(0)} ms; round in the database p50 ${rounds.p50.toFixed(0)} ms, p95 ${rounds.p95.toFixed(0)} ms`,
      );
    }
    console.log(`witnessed sends (${SENDS} sends at A for each size, one after the other)`);
    for (const line of lines) console.log(line);
    return { missed: [] };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}
