// Complete deposit history (issue 11, item 1) against the real sandbox on loopback, reached through a fault proxy:
// walks interrupted by a service failing from page N on, by token expiry, by the desk's process being killed, and
// disturbed by more than a page of deposits arriving mid-walk; each followed by a plain sync, after which the desk
// lists every deposit the service credited exactly once and says the history is complete. A resumed walk continues at
// the page it reached instead of starting again. `sync/verify` then finds nothing, and finds exactly the deposits a
// damaged history lacks or holds in excess (the CLI's `sync --verify` exits 1 with them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DepositVerification, SyncStatus } from '../../../electron/contract';
import { openDatabase, closeDatabase } from '../../../electron/core/store/database';
import { countStagedDeposits, insertOrTouchDeposit } from '../../../electron/core/deposits/deposits-table';
import { PATHS } from '../../../electron/protocol/profile';
import { processEnv, runInProcess, startCliProcess } from '../../support/cli';
import { DepositCredits } from './fixtures/deposit-credits';
import type { FaultProxy } from './fixtures/fault-proxy';
import { openProxiedDesk, PROXIED_PROFILE, type ProxiedDesk } from './fixtures/proxied-desk';
import type { SandboxState } from './fixtures/sandbox-state';
import type { Desk } from './support';

let proxied: ProxiedDesk | undefined;
let desk: Desk;
let proxy: FaultProxy;
let sandboxState: SandboxState;
let merchantId: string;
let credits: DepositCredits;
let depositAddress: string;

beforeAll(async () => {
  proxied = await openProxiedDesk('5000');
  ({ desk, proxy, sandboxState, merchantId } = proxied);
  credits = await DepositCredits.open(desk, 'history-test');
  depositAddress = credits.address;
}, 60_000);

afterAll(async () => {
  await desk.admin('DELETE', '/faults');
  await proxied?.close();
});

/** Credits `count` deposits on the simulated chain. */
function addDeposits(count: number): Promise<void> {
  return credits.add(count);
}

async function allLocalApiOrders(): Promise<string[]> {
  const apiOrders: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await desk.value('deposits/list', { limit: 1000, ...(cursor === undefined ? {} : { cursor }) });
    apiOrders.push(...page.rows.map((row) => row.apiOrder));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return apiOrders;
}

/** The desk lists every deposit the service credited, exactly once, and says its history is complete. */
async function expectEveryDepositOnce(): Promise<void> {
  const service = sandboxState.depositApiOrders(merchantId);
  const local = await allLocalApiOrders();
  expect(new Set(local).size).toBe(local.length);
  expect(local.length).toBe(service.length);
  expect([...local].sort()).toEqual([...service].sort());
  const history = (await desk.value('sync/status', {})).depositHistory;
  expect(history).toMatchObject({ complete: true, walk: null, depositsHeld: service.length });
}

async function history(): Promise<SyncStatus['depositHistory']> {
  return (await desk.value('sync/status', {})).depositHistory;
}

/** The deposit pages a sync reads, in order, from its progress events. */
function depositPagesWalked(): { readonly walked: number[]; during<T>(work: Promise<T>): Promise<T> } {
  const walked: number[] = [];
  const stop = desk.engine.onEvent((event) => {
    const page = event.type === 'sync/progress' ? /^deposits: page (\d+),/.exec(event.progress?.message ?? '')?.[1] : undefined;
    if (page !== undefined) walked.push(Number(page));
  });
  return {
    walked,
    during: (work) => work.finally(stop),
  };
}

async function failGetDepositsFrom(page: number): Promise<void> {
  expect((await desk.admin('POST', '/faults', { endpoint: 'getDeposits', merchantId, fromPage: page, answer: { httpStatus: 503 } })).status).toBe(201);
}

async function clearFaults(): Promise<void> {
  expect((await desk.admin('DELETE', '/faults')).status).toBe(200);
}

describe('interrupted deposit walks, each followed by a plain sync', () => {
  it('service errors from page 4 on cut the walk after 3 pages; the plain sync resumes at page 4 and completes the history', async () => {
    await addDeposits(550);
    await failGetDepositsFrom(4);
    const cut = await desk.call('sync/run', {});
    expect(cut.ok).toBe(false);
    expect(await history()).toEqual({
      complete: false,
      completeAt: expect.any(Number),
      walk: { full: false, startedAt: expect.any(Number), pagesWalked: 3, recordsWalked: 300, nextPage: 4 },
      depositsHeld: 300,
    });
    await clearFaults();

    const pages = depositPagesWalked();
    const report = await pages.during(desk.value('sync/run', {}));
    expect(report.depositsNew).toBe(250);
    // Pages 4, 5 and 6, then page 1 for anything newer: not pages 1 to 3 again.
    expect(pages.walked).toEqual([4, 5, 6, 1]);
    await expectEveryDepositOnce();
  });

  it('service errors during an incremental walk, then more than a page of deposits arriving: the plain sync misses none', async () => {
    await addDeposits(350);
    await failGetDepositsFrom(3);
    expect((await desk.call('sync/run', {})).ok).toBe(false);
    expect(await history()).toMatchObject({ complete: false, walk: { full: false, pagesWalked: 2, recordsWalked: 200, nextPage: 3 } });
    await clearFaults();
    // While the walk is interrupted, 150 more arrive at the head of the list and push everything down.
    await addDeposits(150);

    const pages = depositPagesWalked();
    const report = await pages.during(desk.value('sync/run', {}));
    expect(report.depositsNew).toBe(300);
    // The interrupted walk resumes at page 3 (its pages moved down by 150, so it re-reads some), reaches the part
    // already complete, and then the head that grew meanwhile is read from page 1.
    expect(pages.walked[0]).toBe(3);
    expect(pages.walked.slice(-2)).toEqual([1, 2]);
    await expectEveryDepositOnce();
  });

  it('more than a page of deposits arriving in the middle of a walk: the next plain sync lists each once', async () => {
    await addDeposits(350);
    const held = proxy.holdNext(PATHS.getDeposits, 1);
    const walking = desk.call('sync/run', {});
    await held.arrived;
    await addDeposits(150);
    held.release();
    expect((await walking).ok).toBe(true);
    expect((await desk.value('sync/run', {})).depositsNew).toBeGreaterThanOrEqual(100);
    await expectEveryDepositOnce();
  });

  it('token expiry mid-walk: the client takes a new token and the walk goes on', async () => {
    await addDeposits(350);
    const held = proxy.holdNext(PATHS.getDeposits, 1);
    const walking = desk.call('sync/run', {});
    await held.arrived;
    const tokensBefore = proxy.eventsFor(PATHS.getToken).length;
    expect((await desk.admin<{ expired: number }>('POST', `/merchants/${merchantId}/expireTokens`)).json.expired).toBeGreaterThanOrEqual(1);
    held.release();
    const report = await walking;
    expect(report.ok).toBe(true);
    expect(proxy.eventsFor(PATHS.getToken).length).toBe(tokensBefore + 1);
    await expectEveryDepositOnce();
  });

  it('token expiry mid-walk with no new token to be had: the walk stops there, and the plain sync completes it', async () => {
    await addDeposits(350);
    const held = proxy.holdNext(PATHS.getDeposits, 1);
    const walking = desk.call('sync/run', {});
    await held.arrived;
    expect((await desk.admin('POST', `/merchants/${merchantId}/expireTokens`)).status).toBe(200);
    // getToken is tried three times; every answer is lost.
    for (let i = 0; i < 3; i += 1) proxy.dropNextAnswer(PATHS.getToken);
    held.release();
    const cut = await walking;
    expect(cut).toMatchObject({ ok: false, error: { code: 'offline' } });
    expect(await history()).toMatchObject({ complete: false, walk: { pagesWalked: 1, recordsWalked: 100, nextPage: 2 } });

    expect((await desk.value('sync/run', {})).depositsNew).toBe(250);
    await expectEveryDepositOnce();
  });

  it('the process killed mid-walk: a fresh engine resumes where the dead one stopped', async () => {
    await addDeposits(450);
    const heldBefore = (await history()).depositsHeld;
    // The CLI, a real process on the same database, walks the head page by page; it is killed while page 3 is asked.
    const held = proxy.holdNext(PATHS.getDeposits, 2);
    const child = await startCliProcess(['--db', desk.dbPath, '--profile', PROXIED_PROFILE, 'sync'], processEnv({ TREASURY_DESK_KEYCHAIN_SERVICE: desk.vault.service }));
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    await held.arrived;
    child.kill('SIGKILL');
    await exited;
    held.release();
    expect(await history()).toMatchObject({ complete: false, walk: { pagesWalked: 2, recordsWalked: 200, nextPage: 3 } });
    // The two pages it verified were committed (staged, with the walk's position) before it died: they are kept.
    const db = openDatabase(desk.dbPath, { integrityCheck: 'none' });
    try {
      expect(countStagedDeposits(db)).toBe(200);
    } finally {
      closeDatabase(db);
    }

    const restarted = await desk.reopen();
    // The engine takes them into the history as it starts, before any sync.
    const status = await restarted.handlers['sync/status']({});
    expect(status).toMatchObject({ ok: true, value: { depositHistory: { complete: false, depositsHeld: heldBefore + 200 } } });
    const resumed = await restarted.handlers['sync/run']({ full: false });
    expect(resumed).toMatchObject({ ok: true, value: { depositsNew: 250 } });
    await expectEveryDepositOnce();
  }, 60_000);

  it('the background sync of the app finishes an interrupted walk by itself', async () => {
    await addDeposits(250);
    await failGetDepositsFrom(2);
    expect((await desk.call('sync/run', {})).ok).toBe(false);
    expect(await history()).toMatchObject({ complete: false, walk: { pagesWalked: 1, nextPage: 2 } });
    await clearFaults();
    const app = await desk.reopen({ autoSync: { intervalMs: 200, unsettledIntervalMs: 200, maxBackoffMs: 400 } });
    try {
      const deadline = Date.now() + 20_000;
      while (!(await history()).complete && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await app.close();
    }
    await expectEveryDepositOnce();
  }, 60_000);

  it('a desk synced by an earlier version (which kept only a page number) walks its whole history once, then knows it is complete', async () => {
    const db = openDatabase(desk.dbPath, { integrityCheck: 'none' });
    try {
      const changed = db
        .prepare("UPDATE sync_state SET progress_json = '{\"page\":1,\"full\":false}' WHERE profile = ? AND resource = 'deposits'")
        .run(PROXIED_PROFILE).changes;
      expect(changed).toBe(1);
    } finally {
      closeDatabase(db);
    }
    expect(await history()).toMatchObject({ complete: false, walk: null });
    const report = await desk.value('sync/run', {});
    expect(report.depositsSeen).toBe(sandboxState.depositApiOrders(merchantId).length);
    expect(report.depositsNew).toBe(0);
    await expectEveryDepositOnce();
    // From now on a plain sync reads one page.
    const pages = depositPagesWalked();
    await pages.during(desk.value('sync/run', {}));
    expect(pages.walked).toEqual([1]);
  });
});

describe('cancelling a sync (issue 22 part 2: the progress banner has a Cancel)', () => {
  it('stops a full walk after the page in hand, keeps what was read, marks no resource failing, and the next sync resumes there', async () => {
    const pages = depositPagesWalked();
    let asked: Promise<{ readonly cancelled: boolean }> | undefined;
    const stop = desk.engine.onEvent((event) => {
      if (asked === undefined && event.type === 'sync/progress' && /^deposits: page 2,/.test(event.progress?.message ?? '')) asked = desk.value('sync/cancel', {});
    });
    const cancelled = await pages.during(desk.call('sync/run', { full: true })).finally(stop);
    expect(await asked).toEqual({ cancelled: true });
    expect(cancelled).toMatchObject({ ok: false, error: { code: 'conflict', message: 'the sync was cancelled after deposits page 2: what was read is stored, and the next sync resumes from there' } });
    expect(pages.walked).toEqual([1, 2]);
    expect(await history()).toMatchObject({ walk: { full: true, pagesWalked: 2, nextPage: 3 } });
    const status = await desk.value('sync/status', {});
    expect(status.running).toBe(false);
    expect(status.resources.find((entry) => entry.resource === 'deposits')?.lastError).toBeNull();
    // With no sync running there is nothing to cancel.
    expect(await desk.value('sync/cancel', {})).toEqual({ cancelled: false });

    const resumed = depositPagesWalked();
    await resumed.during(desk.value('sync/run', {}));
    expect(resumed.walked[0]).toBe(3);
    await expectEveryDepositOnce();
  }, 60_000);
});

describe('sync --verify', () => {
  beforeAll(async () => {
    // Run alone (vitest -t), this part needs a history of its own.
    if (sandboxState.depositApiOrders(merchantId).length < 20) {
      await addDeposits(20);
      await desk.value('sync/run', {});
    }
  });

  it('finds nothing on a complete history', async () => {
    const verification = await desk.value('sync/verify', {});
    const listed = sandboxState.depositApiOrders(merchantId).length;
    expect(verification).toMatchObject({ ok: true, listedByService: listed, heldLocally: listed, missingLocally: [], notListed: [], differing: [], completeMarkWithdrawn: false });
    expect(verification.pagesWalked).toBeGreaterThanOrEqual(Math.ceil(listed / 100));
  });

  it('is cancelled by sync/cancel after the page in hand: it concludes nothing, changes nothing and audits nothing', async () => {
    const before = await history();
    const audited = await desk.value('audit/list', { action: 'deposits/verified', limit: 1000 });
    let asked: Promise<{ readonly cancelled: boolean }> | undefined;
    const stop = desk.engine.onEvent((event) => {
      if (asked === undefined && event.type === 'sync/progress' && /^verifying deposits: page 2 /.test(event.progress?.message ?? '')) asked = desk.value('sync/cancel', {});
    });
    const cancelled = await desk.call('sync/verify', {}).finally(stop);
    expect(await asked).toEqual({ cancelled: true });
    expect(cancelled).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/^the comparison with the service was cancelled after page \d+: nothing was concluded and nothing changed$/) } });
    expect(await history()).toEqual(before);
    expect((await desk.value('audit/list', { action: 'deposits/verified', limit: 1000 })).rows).toHaveLength(audited.rows.length);
    expect((await desk.value('sync/status', {})).progress).toBeNull();
    // The next comparison runs in full.
    expect((await desk.value('sync/verify', {})).ok).toBe(true);
  }, 60_000);

  it('names exactly what a damaged history lacks and holds in excess, exits 1 in the CLI, and the next sync repairs the hole', async () => {
    const service = sandboxState.depositApiOrders(merchantId);
    const lost = [service[7], service[service.length - 3]] as [string, string];
    const db = openDatabase(desk.dbPath, { integrityCheck: 'none' });
    try {
      for (const apiOrder of lost) expect(db.prepare('DELETE FROM deposits WHERE profile = ? AND api_order = ?').run(PROXIED_PROFILE, apiOrder).changes).toBe(1);
      insertOrTouchDeposit(
        db,
        PROXIED_PROFILE,
        {
          businessType: 'deposit',
          txid: 'f'.repeat(64),
          address: depositAddress,
          addressType: 'trx',
          fromAddress: depositAddress,
          amount: '99.5',
          currency: 'trx.usdt',
          fee: '0.5',
          apiOrder: 'DP-NOT-LISTED-1',
          userOrder: 'history-test',
        },
        'callback',
        Date.now() - 1_000,
      );
    } finally {
      closeDatabase(db);
    }

    const run = await runInProcess(['--db', desk.dbPath, '--profile', PROXIED_PROFILE, 'sync', '--verify', '--json'], {
      env: { TREASURY_DESK_KEYCHAIN_SERVICE: desk.vault.service },
    });
    expect(run.code).toBe(1);
    // Under --json the failure is one JSON object on stderr; the verification stays the answer on stdout.
    expect(JSON.parse(run.stderr)).toMatchObject({
      error: { code: 'conflict', message: "the deposit history differs from the service's: 2 missing here, 1 not listed by the service, 0 differing" },
    });
    const verification = JSON.parse(run.stdout) as DepositVerification;
    expect(verification.ok).toBe(false);
    expect(verification.missingLocally.map((ref) => ref.apiOrder).sort()).toEqual([...lost].sort());
    expect(verification.missingLocally.every((ref) => ref.source === null && ref.currency === 'trx.usdt')).toBe(true);
    expect(verification.notListed).toEqual([{ apiOrder: 'DP-NOT-LISTED-1', txid: 'f'.repeat(64), currency: 'trx.usdt', amount: '99.5', source: 'callback' }]);
    expect(verification).toMatchObject({ listedByService: service.length, heldLocally: service.length - 2 + 1, differing: [], completeMarkWithdrawn: true });
    // Verification stores nothing: the hole is still there, and the history no longer claims to be complete.
    expect(await history()).toMatchObject({ complete: false, walk: null, depositsHeld: service.length - 1 });

    const text = await runInProcess(['--db', desk.dbPath, '--profile', PROXIED_PROFILE, 'sync', '--verify'], { env: { TREASURY_DESK_KEYCHAIN_SERVICE: desk.vault.service } });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^missing here \(listed by the service, not held\): 2$/m);
    expect(text.stdout).toMatch(/^not listed by the service \(held here\): 1$/m);
    expect(text.stdout).toMatch(/^DP-NOT-LISTED-1\s+f{64}\s+trx\.usdt\s+99\.5\s+from callback$/m);

    // With the mark withdrawn, a plain sync walks the whole list and fetches the two.
    expect((await desk.value('sync/run', {})).depositsNew).toBe(2);
    const after = await desk.value('sync/verify', {});
    expect(after).toMatchObject({ ok: false, missingLocally: [], differing: [], completeMarkWithdrawn: false });
    expect(after.notListed.map((ref) => ref.apiOrder)).toEqual(['DP-NOT-LISTED-1']);
    expect(await history()).toMatchObject({ complete: true, walk: null });
  }, 60_000);
});
