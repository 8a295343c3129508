// Benchmark of batch payout submission as the audit chain grows: a real engine (SQLite file, keychain) against an
// in-process sandbox submits a batch of N lines (default 500) twice: on a young chain, then after the chain was grown
// by many signed system rows (default 50,000). Reports per-line submit time (median of the first and last 50 lines),
// the whole batch, and the chain's length, so a cost that grows with the chain or with the lines already sent shows.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeTronAddress } from '../../electron/chains';
import { callMethod, type MethodName, type RequestOf, type ResponseOf } from '../../electron/contract';
import { chooseDeskSecrets, DeskIdentity } from '../../electron/core/audit/desk-identity';
import { AuditTrail } from '../../electron/core/audit/trail';
import { createEngine, type Engine } from '../../electron/core/engine';
import { KeychainVault } from '../../electron/core/secrets';
import { closeDatabase, openDatabase, writeTransaction } from '../../electron/core/store/database';
import { startSandbox } from '../../electron/sandbox';
import { admin } from '../support/raw-merchant';

const INITIATOR = { operator: 'alice', passphrase: 'alice passphrase 1' };
const APPROVER = { operator: 'frank', passphrase: 'frank passphrase 6' };
/** Lines at each end of the batch whose per-line times are compared. */
const END_LINES = 50;

function option(args: readonly string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  const value = index >= 0 ? Number(args[index + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} takes a whole number`);
  return value;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function value<M extends MethodName>(engine: Engine, method: M, request: RequestOf<M>): Promise<ResponseOf<M>> {
  const result = await callMethod(engine.handlers, method, request);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** Appends `rows` desk-signed system rows to the chain (engine closed), in transactions of 1,000, and anchors the head. */
async function growChain(dbPath: string, vault: KeychainVault, rows: number): Promise<void> {
  const db = openDatabase(dbPath, { integrityCheck: 'none' });
  try {
    const secrets = await chooseDeskSecrets(vault, undefined);
    const trail = new AuditTrail(db, await DeskIdentity.load(secrets), secrets, Date.now);
    for (let start = 0; start < rows; start += 1000) {
      writeTransaction(db, () => {
        for (let i = start; i < Math.min(rows, start + 1000); i += 1) trail.system({ profile: 'main', action: 'deposits/export', subject: `filler-${i}`, details: { i } });
      });
    }
    await trail.flush();
  } finally {
    closeDatabase(db);
  }
}

interface BatchFigures {
  readonly chainBefore: number;
  readonly chainAfter: number;
  readonly totalSeconds: number;
  readonly firstMs: number;
  readonly lastMs: number;
}

/** Imports, approves and submits one batch of `lines` lines; per-line times from the lines' `withdrawals/changed` events. */
async function submitBatch(engine: Engine, dir: string, name: string, lines: number): Promise<BatchFigures> {
  const rows = Array.from({ length: lines }, (_, index) => `trx.usdt,${10 + (index % 50)}.5,${encodeTronAddress(Uint8Array.from([0x41, ...randomBytes(20)]))},bench ${index + 1}`);
  const path = join(dir, `${name}.csv`);
  writeFileSync(path, ['currency,amount,toAddress,memo', ...rows].join('\n') + '\n');
  const batch = await value(engine, 'payouts/import', { path, as: INITIATOR });
  await value(engine, 'payouts/approve', { id: batch.id, as: APPROVER });
  const lineOf = new Map(batch.lines.map((line) => [line.requestId, line.line]));
  const firstEvent = new Map<number, number>();
  const chainBefore = (await value(engine, 'audit/head', {})).head?.seq ?? 0;
  const stop = engine.onEvent((event) => {
    if (event.type !== 'withdrawals/changed' || event.id === null) return;
    const line = lineOf.get(event.id);
    if (line !== undefined && !firstEvent.has(line)) firstEvent.set(line, performance.now());
  });
  const start = performance.now();
  const result = await value(engine, 'payouts/submit', { id: batch.id, as: INITIATOR });
  const end = performance.now();
  stop();
  if (result.sent !== lines || result.failures.length > 0) throw new Error(`sent ${result.sent} of ${lines}: ${result.failures.map((failure) => `line ${failure.line}: ${failure.error}`).join('; ')}`);
  // A line's cost: from its first event to the next line's first event (the last line: to the end of the run).
  const perLine = Array.from({ length: lines }, (_, index) => (firstEvent.get(index + 2) ?? end) - (firstEvent.get(index + 1) ?? start));
  return {
    chainBefore,
    chainAfter: (await value(engine, 'audit/head', {})).head?.seq ?? 0,
    totalSeconds: (end - start) / 1000,
    firstMs: median(perLine.slice(0, END_LINES)),
    lastMs: median(perLine.slice(-END_LINES)),
  };
}

function report(label: string, figures: BatchFigures, lines: number): void {
  console.log(
    `${label}: chain ${figures.chainBefore.toLocaleString('en')} → ${figures.chainAfter.toLocaleString('en')} rows; ${lines} lines in ${figures.totalSeconds.toFixed(1)} s ` +
      `(${((figures.totalSeconds * 1000) / lines).toFixed(1)} ms/line); median per line: first ${END_LINES} ${figures.firstMs.toFixed(1)} ms, last ${END_LINES} ${figures.lastMs.toFixed(1)} ms`,
  );
}

export async function run(args: readonly string[]): Promise<void> {
  if (!process.env['TREASURY_KEYRING_HARNESS']) throw new Error('run it under scripts/with-keyring.sh: the engine keeps its keys in the keychain');
  const lines = option(args, '--lines', 500);
  const filler = option(args, '--chain', 50_000);
  const dir = mkdtempSync(join(tmpdir(), 'td-bench-payouts-'));
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'sandbox') });
  const vault = new KeychainVault({ service: `treasury-desk-bench-${randomBytes(6).toString('hex')}` });
  const dbPath = join(dir, 'desk.sqlite');
  let engine: Engine | undefined;
  try {
    engine = await createEngine({ dbPath, vault, cryptoThreads: 2 });
    await value(engine, 'profiles/importFile', { name: 'main', path: sandbox.credentialsPath });
    await value(engine, 'operators/found', { admins: [INITIATOR, APPROVER] });
    const funded = await admin(sandbox.adminUrl, 'PATCH', `/merchants/${sandbox.credentials.merchantId}`, { balances: { 'trx.usdt': '100000000', trx: '1000000' } });
    if (funded.status !== 200) throw new Error(`the sandbox refused the balances: ${JSON.stringify(funded.json)}`);
    await value(engine, 'sync/run', {});

    report('young chain', await submitBatch(engine, dir, 'young', lines), lines);
    await engine.close();
    engine = undefined;
    const grow = performance.now();
    await growChain(dbPath, vault, filler);
    console.log(`grew the chain by ${filler.toLocaleString('en')} signed system rows in ${((performance.now() - grow) / 1000).toFixed(1)} s`);
    engine = await createEngine({ dbPath, vault, cryptoThreads: 2 });
    report('grown chain', await submitBatch(engine, dir, 'grown', lines), lines);
  } finally {
    await engine?.close();
    await sandbox.close();
    for (const profile of await vault.listProfiles()) await vault.remove(profile);
    rmSync(dir, { recursive: true, force: true });
  }
}
