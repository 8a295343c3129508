// Benchmark of witnessed sends (team/witness.ts): what asking every other workstation for a fresh signed head adds to
// a send. One demo desk moved into the throwaway PostgreSQL submits alone (nobody to ask), then with 3 and with 10
// workstations enrolled: each send timed (withdrawals/submit, p50/p95), the witness step's cost as the difference to
// sending alone, and the witness round in the database (request posted to the last ack stored, database clock).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEMO_OPERATORS, parseRequest, type MethodName, type ParsedRequestOf, type ResponseOf, type Result } from '../../electron/contract';
import { createEngine, type Engine } from '../../electron/core/engine';
import { KeychainVault } from '../../electron/core/secrets';
import { TEAM_SCHEMA } from '../../electron/core/team/pg-migrations';
import { startHarnessEngine } from '../harness/engine';
import { percentile } from './history';
import type { BenchOutcome } from './run';

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
    const parsed = parseRequest(method, request);
    if (!parsed.ok) throw new Error(`${method}: ${parsed.error.message}`);
    const handler = engine.handlers[method] as (request: ParsedRequestOf<M>) => Promise<Result<ResponseOf<M>>>;
    const result = await handler(parsed.value);
    if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
    return result.value;
  };
}

function summary(samples: readonly number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((left, right) => left - right);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** SENDS approved requests submitted one after the other at A: each submit's time, and each witness round in the database. */
async function timeSends(a: Call, admin: pg.Client): Promise<{ sends: number[]; rounds: number[] }> {
  const approved: string[] = [];
  for (let index = 0; index < SENDS; index += 1) {
    const { withdrawal } = await a('withdrawals/request', { currency: 'eth.usdt', amount: '21', toAddress: `0x${randomBytes(20).toString('hex')}`, as: ADMIN });
    await a('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    approved.push(withdrawal.id);
  }
  const [before] = (await admin.query<{ id: string | null }>(`SELECT max(id) AS id FROM ${TEAM_SCHEMA}.witness_requests`)).rows;
  const sends: number[] = [];
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
  return { sends, rounds: rounds.rows.map((row) => row.ms) };
}

export async function runWitnessBench(url: string): Promise<BenchOutcome> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${TEAM_SCHEMA} CASCADE`);
  const dir = mkdtempSync(join(tmpdir(), 'td-bench-witness-'));
  const closers: (() => Promise<void>)[] = [];
  try {
    const first = await startHarnessEngine({ dataDir: join(dir, 'A'), lockable: false, demoAuto: false });
    closers.push(() => first.close());
    const a = caller(first.engine);
    await a('demo/start', {});
    await a('team/init', { database: url, workstation: 'A', as: ADMIN });
    const alone = await timeSends(a, admin);
    const lines = [`  alone (nobody to ask): a send takes p50 ${summary(alone.sends).p50.toFixed(0)} ms, p95 ${summary(alone.sends).p95.toFixed(0)} ms`];
    let enrolled = 1;
    for (const size of SIZES) {
      for (; enrolled < size; enrolled += 1) {
        const name = `W${enrolled + 1}`;
        const engine = await createEngine({ dbPath: join(dir, `${name}.sqlite`), vault: new KeychainVault({ service: `treasury-desk-bench-${randomBytes(6).toString('hex')}` }), cryptoThreads: 1 });
        closers.push(() => engine.close());
        await caller(engine)('team/join', { database: url, workstation: name, as: ADMIN });
      }
      const witnessed = await timeSends(a, admin);
      const sends = summary(witnessed.sends);
      const rounds = summary(witnessed.rounds);
      const cost = { p50: sends.p50 - summary(alone.sends).p50, p95: sends.p95 - summary(alone.sends).p95 };
      lines.push(
        `  ${size} workstations: a send takes p50 ${sends.p50.toFixed(0)} ms, p95 ${sends.p95.toFixed(0)} ms; the witness step adds p50 ${cost.p50.toFixed(0)} ms, p95 ${cost.p95.toFixed(0)} ms; ` +
          `witness round in the database (request to last of ${size - 1} acks) p50 ${rounds.p50.toFixed(0)} ms, p95 ${rounds.p95.toFixed(0)} ms`,
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
