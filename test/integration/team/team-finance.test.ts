// Issue 13's records on a team desk (real PostgreSQL, sandbox, three workstations): a batch payout imported at A,
// approved at B, submitted at A (one order per line at the sandbox) has its lines final at C; labels set and imported
// at A are found at B; an address-book addition proposed at A and approved at B is in force at C under "only from
// book"; a freeze signed at A reaches C and holds A's send until a second admin lifts it (issue 20); a row this
// version does not know (a newer workstation's) is reported once and replication goes on.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutBatchView } from '../../../electron/contract';
import { ADMIN, APPROVER, INITIATOR, payoutFile, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, sandboxOrders, within, type Workstation } from './desk-support';

/** How long a change may take to reach another workstation here (the 1 s target is measured by team-flow). */
const SEEN_WITHIN_MS = 3000;

let desk: Desk;
let a: Workstation;
let b: Workstation;
let c: Workstation;

beforeAll(async () => {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  desk = first.desk;
  a = first.a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B');
  c = await openWorkstation('C');
  await joinTeam(b, 'B', a, [APPROVER]);
  await joinTeam(c, 'C', a, [APPROVER]);
}, 120_000);

afterAll(async () => {
  for (const workstation of [c, b, a]) await workstation?.close();
});

/** The workstation's view of the batch with this fingerprint (batch ids are per workstation), or undefined. */
async function batchAt(workstation: Workstation, fingerprint: string): Promise<PayoutBatchView | undefined> {
  const summary = (await workstation.value('payouts/list', { limit: 50 })).rows.find((row) => row.fingerprint === fingerprint);
  return summary === undefined ? undefined : workstation.value('payouts/get', { id: summary.id });
}

async function labelAt(workstation: Workstation, text: string): Promise<{ ref: string; label: string; note: string | null }[]> {
  return (await workstation.value('labels/search', { text })).map(({ ref, label, note }) => ({ ref, label, note }));
}

describe('batch payouts on a team desk', () => {
  it('imported at A, approved at B, submitted at A once per line, final at C', async () => {
    const imported = await a.value('payouts/import', { path: payoutFile(desk, 'team.csv', 3), as: INITIATOR });
    await within('the batch at B', SEEN_WITHIN_MS, async () => (await batchAt(b, imported.fingerprint)) !== undefined);
    const atB = (await batchAt(b, imported.fingerprint)) as PayoutBatchView;
    // B holds what A signed: the lines, the totals, and a verified request statement (no problem but the waiting one).
    expect(atB).toMatchObject({ state: 'awaitingApproval', lineCount: 3, initiator: INITIATOR.operator, totals: imported.totals, source: 'team.csv' });
    expect(atB.lines.map((line) => [line.userOrder, line.amount, line.toAddress])).toEqual(imported.lines.map((line) => [line.userOrder, line.amount, line.toAddress]));
    expect(atB.problems.filter((problem) => !problem.startsWith('waiting'))).toEqual([]);

    expect((await b.value('payouts/approve', { id: atB.id, as: APPROVER })).state).toBe('approved');
    await within('the approval at A', SEEN_WITHIN_MS, async () => (await a.value('payouts/get', { id: imported.id })).state === 'approved');
    await within('the approval at C', SEEN_WITHIN_MS, async () => (await batchAt(c, imported.fingerprint))?.state === 'approved');

    const submitted = await a.value('payouts/submit', { id: imported.id, as: INITIATOR });
    expect(submitted).toMatchObject({ sent: 3, failures: [] });
    const userOrders = imported.lines.map((line) => line.userOrder);
    const orders = sandboxOrders(desk).filter((order) => userOrders.includes(order.userOrder));
    expect(orders.map((order) => order.count)).toEqual([1, 1, 1]);
    await within('the submissions at B', SEEN_WITHIN_MS, async () => (await batchAt(b, imported.fingerprint))?.lines.every((line) => line.state === 'submitted') === true);

    const merchantId = desk.sandbox.credentials.merchantId;
    for (const userOrder of userOrders) {
      for (const to of ['pendingTransfer', 'pendingCallback', 'success']) {
        expect((await desk.admin('POST', `/withdrawals/${merchantId}/${userOrder}/advance`, { to })).status).toBe(200);
      }
    }
    await a.value('sync/run', {});
    await within('the final lines at C', SEEN_WITHIN_MS, async () => (await batchAt(c, imported.fingerprint))?.state === 'done');
    const atC = (await batchAt(c, imported.fingerprint)) as PayoutBatchView;
    expect(atC.lines.map((line) => [line.state, line.orderStatus])).toEqual(userOrders.map(() => ['completed', 'success']));
    expect(atC.verified).toBe(true);

    // Nothing was reported as not applied, and every workstation verifies the same chain.
    for (const workstation of [a, b, c]) expect((await workstation.value('team/status', {})).refused).toEqual([]);
    // A's sync may still be publishing desk events (order statuses) that B and C pull a moment later: wait for one head.
    const verifiedHeads = async (): Promise<Set<string | undefined>> =>
      new Set((await Promise.all([a, b, c].map(async (workstation) => workstation.value('audit/verify', {})))).map((verification) => (verification.ok ? verification.head?.hash : `bad ${verification.firstBadSeq}`)));
    await within('one verified head at A, B and C', SEEN_WITHIN_MS, async () => (await verifiedHeads()).size === 1);
    const heads = await verifiedHeads();
    expect(heads.size).toBe(1);
    expect([...heads][0]).toMatch(/^[0-9a-f]{64}$/);
  }, 90_000);
});

describe('labels and the address book on a team desk', () => {
  it('a label set at A is found at B', async () => {
    await a.value('labels/set', { type: 'deposit', ref: 'API-ORDER-TEAM-1', label: 'Invoice 7731 Team', note: 'set at A', as: INITIATOR });
    await within('the label at B', SEEN_WITHIN_MS, async () => (await labelAt(b, 'invoice 7731')).length === 1);
    expect(await labelAt(b, 'invoice 7731')).toEqual([{ ref: 'API-ORDER-TEAM-1', label: 'Invoice 7731 Team', note: 'set at A' }]);
  });

  it('a labels import at A is found at B; an import larger than one signed statement carries is refused whole', async () => {
    const path = join(desk.dir, 'team-labels.jsonl');
    writeFileSync(path, [JSON.stringify({ type: 'deposit', ref: 'API-ORDER-TEAM-2', label: 'Imported rent' }), JSON.stringify({ type: 'withdrawal', ref: 'td-team-imported', label: 'Imported payroll', note: 'march' })].join('\n'));
    expect((await a.value('labels/import', { path, as: APPROVER })).rows).toBe(2);
    await within('the imported labels at B', SEEN_WITHIN_MS, async () => (await labelAt(b, 'imported')).length === 2);
    expect((await labelAt(b, 'imported')).sort((x, y) => x.ref.localeCompare(y.ref))).toEqual([
      { ref: 'API-ORDER-TEAM-2', label: 'Imported rent', note: null },
      { ref: 'td-team-imported', label: 'Imported payroll', note: 'march' },
    ]);

    const large = join(desk.dir, 'large-labels.jsonl');
    writeFileSync(large, Array.from({ length: 6000 }, (_, index) => JSON.stringify({ type: 'deposit', ref: `BULK-${index}`, label: `bulk ${'x'.repeat(190)}` })).join('\n'));
    const refused = await a.call('labels/import', { path: large, as: APPROVER });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalidInput', message: expect.stringMatching(/nothing was imported .*6000 labels are more than one signed import carries \(1024 KB of labels\): split the file/) } });
    expect(await labelAt(a, 'bulk')).toEqual([]);
  });

  it('an address-book addition proposed at A and approved at B is in force at C under "only from book"', async () => {
    const change = await a.value('policies/set', { currency: 'trx.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: false, onlyFromBook: true, as: ADMIN });
    await a.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
    const book = tronAddress();
    const added = await a.value('addressbook/add', { chain: 'trx', address: book, label: 'Vendor Team', as: INITIATOR });
    const proposal = added.pending.find((entry) => entry.address === book)?.proposal;
    expect(proposal).toBeDefined();
    await within('the proposal at B', SEEN_WITHIN_MS, async () => (await b.value('addressbook/list', {})).pending.some((entry) => entry.proposal === proposal));
    await b.value('addressbook/approve', { proposal, as: APPROVER });
    await within('the approved entry at C', SEEN_WITHIN_MS, async () => (await c.value('addressbook/list', {})).entries.some((entry) => entry.address === book && entry.approved));
    expect((await c.value('addressbook/list', {})).entries.find((entry) => entry.address === book)).toMatchObject({ label: 'Vendor Team', addedBy: INITIATOR.operator, approvedBy: APPROVER.operator });

    const onlyFromBook = async (toAddress: string): Promise<boolean> => {
      const check = await c.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '10', toAddress });
      return check.errors.some((issue) => /only from book/.test(issue.message));
    };
    expect(await onlyFromBook(tronAddress())).toBe(true);
    expect(await onlyFromBook(book)).toBe(false);

    // A label on the entry at A, then its removal from the desk's rows at A, reach C too.
    await a.value('addressbook/label', { chain: 'trx', address: book, label: 'Vendor Team 2', note: 'relabelled at A', as: INITIATOR });
    await within('the new label at C', SEEN_WITHIN_MS, async () => (await c.value('addressbook/list', {})).entries.find((entry) => entry.address === book)?.note === 'relabelled at A');
    expect((await c.value('addressbook/list', {})).entries.find((entry) => entry.address === book)?.label).toBe('Vendor Team 2');
  });
});

describe('the emergency freeze on a team desk', () => {
  it('signed at A, it reaches C, holds a send approved at B, and lifts for every workstation once a second admin confirms', async () => {
    await a.value('policies/set', { currency: 'trx.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: false, onlyFromBook: false, as: ADMIN }).then((change) =>
      a.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN }),
    );
    const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '12', toAddress: tronAddress(), as: INITIATOR });
    await within('the request at B', SEEN_WITHIN_MS, async () => (await b.value('withdrawals/list', { limit: 50 })).rows.some((row) => row.userOrder === withdrawal.userOrder));
    const atB = (await b.value('withdrawals/list', { limit: 50 })).rows.find((row) => row.userOrder === withdrawal.userOrder);
    await b.value('withdrawals/approve', { id: atB?.id ?? '', as: APPROVER });
    await within('the approval at A', SEEN_WITHIN_MS, async () => (await a.value('withdrawals/get', { id: withdrawal.id })).state === 'approved');

    await a.value('sending/freeze', { reason: 'team drill', as: ADMIN });
    await within('the freeze at C', SEEN_WITHIN_MS, async () => (await c.value('sending/state', {})).frozen?.reason === 'team drill');
    const held = await a.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(held).toMatchObject({ ok: false, error: { code: 'held', message: expect.stringMatching(/sending is frozen by alice/) } });
    expect(sandboxOrders(desk).some((order) => order.userOrder === withdrawal.userOrder)).toBe(false);

    const lifting = await a.value('sending/unfreeze', { as: ADMIN });
    await a.value('operators/confirm', { proposal: lifting.lift?.id, as: SECOND_ADMIN });
    await within('the lift at C', SEEN_WITHIN_MS, async () => (await c.value('sending/state', {})).frozen === null);
    expect((await a.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR })).state).not.toBe('approved');
  }, 90_000);
});

describe('a desk event that is not one of the named ones', () => {
  it('is refused before it is published, reported at the workstation that queued it, and does not hold up the rest', async () => {
    // Desk events of a kind no workstation accepts (registry: SYSTEM_ACTIONS), as if a newer workstation queued them at A.
    const db = new Database(desk.dbPath);
    try {
      for (const subject of ['first', 'second']) {
        db.prepare('INSERT INTO team_outbox (at, event_json) VALUES (?, ?)').run(Date.now(), JSON.stringify({ action: 'labels/merge', profile: 'main', subject, details: { from: subject } }));
      }
    } finally {
      db.close();
    }
    await a.value('labels/set', { type: 'deposit', ref: 'API-ORDER-TEAM-3', label: 'Before the unknown rows', as: INITIATOR });
    await within('the outbox drained at A', SEEN_WITHIN_MS, async () => (await a.value('team/status', {})).pendingEvents === 0);
    const atA = await a.value('team/status', {});
    expect(atA.halted).toBeNull();
    const refused = atA.refused.filter((entry) => entry.source === 'outbox');
    expect(refused, JSON.stringify(atA.refused)).toHaveLength(2);
    expect(refused[0]?.reason).toMatch(/the desk refuses this statement: row [0-9]+ \(system labels\/merge by desk key [^)]*\) does not hold: a desk key signs only the desk's named events, and labels\/merge is not one.*; the event was not published/);
    await a.value('labels/set', { type: 'deposit', ref: 'API-ORDER-TEAM-4', label: 'After the unknown rows', as: INITIATOR });
    for (const workstation of [b, c]) {
      await within(`the label after the unknown rows at ${workstation.name}`, SEEN_WITHIN_MS, async () => (await labelAt(workstation, 'after the unknown rows')).length === 1);
      expect((await workstation.value('team/status', {})).halted).toBeNull();
      expect((await workstation.value('audit/list', { limit: 200 })).rows.filter((row) => row.action === 'labels/merge')).toEqual([]);
      expect((await workstation.value('audit/verify', {})).ok).toBe(true);
    }
  });
});
