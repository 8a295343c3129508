// A first sync of more deposits than one intake batch (core/sync/records.ts): the history takes the first page in at
// once (the deposits screen has rows after one page), then the rest by DEPOSIT_INTAKE_BATCH, and the search index follows in steps of DEPOSIT_INDEX_STEP rows after each page while more
// pages come (indexing a whole batch at once held the main thread 0.66 s), so that when the walk ends nothing waits
// to be indexed and the oldest deposit is found by search. Against the real sandbox on loopback, seeded through its
// ledger.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod } from '../../../electron/contract';
import { createEngine, type Engine } from '../../../electron/core/engine';
import { depositSearchBacklog } from '../../../electron/core/deposits/deposits-table';
import { closeDatabase, openReadableDatabase, type ReadableDB } from '../../../electron/core/store/database';
import { DEPOSIT_INDEX_STEP, DEPOSIT_INTAKE_BATCH } from '../../../electron/core/sync/records';
import { startSandbox, type SandboxHandle } from '../../../electron/sandbox';
import { openDatabase as openSandboxDatabase } from '../../../electron/sandbox/store';
import { creditLedgerDeposits } from '../../support/ledger-deposits';

/** The first page, one batch and 550 more: the batch is taken in at page 51, and 6 more pages follow it. */
const DEPOSITS = DEPOSIT_INTAKE_BATCH + 650;

let dir: string;
let sandbox: SandboxHandle;
let engine: Engine;
let oldestApiOrder: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'td-deposit-intake-'));
  const sandboxDir = join(dir, 'sandbox');
  const first = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: sandboxDir });
  const { merchantId } = first.credentials;
  await first.close();
  const db = openSandboxDatabase(sandboxDir);
  try {
    creditLedgerDeposits(db, merchantId, DEPOSITS);
    oldestApiOrder = db.prepare('SELECT api_order FROM deposits WHERE merchant_id = ? ORDER BY seq LIMIT 1').pluck().get(merchantId) as string;
  } finally {
    db.close();
  }
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: sandboxDir });
  engine = await createEngine({ dbPath: join(dir, 'desk.sqlite'), credentialsFile: sandbox.credentialsPath, cryptoThreads: 2 });
}, 60_000);

afterAll(async () => {
  await engine?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a first sync of more than one intake batch', () => {
  it('shows the first page at once, indexes for search in steps after each page, and has nothing left to index when the walk ends', async () => {
    const reader: ReadableDB = openReadableDatabase(join(dir, 'desk.sqlite'));
    const backlogs: number[] = [];
    const held: number[] = [];
    const stop = engine.onEvent((event) => {
      if (event.type === 'sync/progress' && event.progress?.phase?.kind === 'depositsPage') {
        backlogs.push(depositSearchBacklog(reader));
        held.push(reader.prepare('SELECT COUNT(*) FROM deposits').pluck().get() as number);
      }
    });
    try {
      const synced = await callMethod(engine.handlers, 'sync/run', {});
      expect(synced).toMatchObject({ ok: true, value: { depositsNew: DEPOSITS } });
    } finally {
      stop();
    }
    expect(backlogs).toHaveLength(Math.ceil((DEPOSITS + 1) / 100));
    // The first page is in the history and indexed at once; the next ones wait for a batch.
    expect(held.slice(0, 3)).toEqual([100, 100, 100]);
    // Page 51 took the batch in and indexed one step of it; each page after it indexed one more step.
    const afterBatch = backlogs.findIndex((backlog) => backlog > 0);
    expect(afterBatch).toBe(DEPOSIT_INTAKE_BATCH / 100);
    expect(held[afterBatch]).toBe(100 + DEPOSIT_INTAKE_BATCH);
    const whileComing = backlogs.slice(afterBatch, -1);
    expect(whileComing).toEqual(whileComing.map((_, index) => DEPOSIT_INTAKE_BATCH - (index + 1) * DEPOSIT_INDEX_STEP));
    // The last page takes in the rest and indexes everything.
    expect(backlogs.at(-1)).toBe(0);
    expect(depositSearchBacklog(reader)).toBe(0);
    closeDatabase(reader);
    const found = await callMethod(engine.handlers, 'deposits/list', { search: oldestApiOrder.slice(-10) });
    expect(found.ok && found.value.rows.map((row) => row.apiOrder)).toContain(oldestApiOrder);
  }, 60_000);
});
