// The stuck-order watchdog through the engine against the sandbox (issue 11, item 3), the desk's clock and the
// sandbox's moved together: an admin edits the thresholds with their passphrase (audited with before and after; others,
// a wrong passphrase or a value out of range change nothing); an order pending past its threshold carries the flag in
// its view and in withdrawals/list {stuck}, saying what to do next (the platform with its apiOrder; checkTransfer on
// its txid once it has one); each order stuck in a status is audited once, by whoever lists it (no watchdog runs here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractEvent } from '../../../electron/contract';
import { DEFAULT_STUCK_THRESHOLDS } from '../../../electron/contract';
import { ADMIN, APPROVER, INITIATOR, openDesk, tronAddress, type Desk } from './support';

const MINUTE = 60_000;
let clockOffsetMs = 0;
let desk: Desk;
let merchantId: string;
const events: ContractEvent[] = [];

async function moveClocks(byMs: number): Promise<void> {
  clockOffsetMs += byMs;
  expect((await desk.admin('POST', '/clock', { offsetSeconds: clockOffsetMs / 1000 })).status).toBe(200);
}

beforeAll(async () => {
  desk = await openDesk({ engine: { clock: () => Date.now() + clockOffsetMs } });
  desk.engine.onEvent((event) => events.push(event));
  merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  await desk.value('sync/run', {});
});
afterAll(async () => desk?.close());

describe('thresholds edited by an admin', () => {
  it('an admin changes some, with their passphrase; audited with before and after', async () => {
    expect(await desk.value('settings/stuckThresholds', {})).toEqual({ thresholds: DEFAULT_STUCK_THRESHOLDS, defaults: DEFAULT_STUCK_THRESHOLDS, range: { min: MINUTE, max: 30 * 24 * 60 * MINUTE } });
    const from = events.length;
    const changed = await desk.value('settings/setStuckThresholds', { thresholds: { pendingTransfer: 45 * MINUTE }, as: ADMIN });
    expect(changed.thresholds).toEqual({ ...DEFAULT_STUCK_THRESHOLDS, pendingTransfer: 45 * MINUTE });
    expect(events.slice(from)).toContainEqual({ type: 'withdrawals/changed', id: null });
    const audit = (await desk.value('audit/list', { limit: 5 })).rows.find((row) => row.action === 'settings/stuckThresholds');
    expect(audit).toMatchObject({ operator: 'alice', details: { changed: { pendingTransfer: 45 * MINUTE }, before: DEFAULT_STUCK_THRESHOLDS, after: changed.thresholds } });
  });

  it('refuses an operator who is not an admin, a wrong passphrase and values out of range, changing nothing', async () => {
    const before = await desk.value('settings/stuckThresholds', {});
    const refusals = [
      await desk.call('settings/setStuckThresholds', { thresholds: { pendingConfirm: 10 * MINUTE }, as: APPROVER }),
      await desk.call('settings/setStuckThresholds', { thresholds: { pendingConfirm: 10 * MINUTE }, as: { ...ADMIN, passphrase: 'not it' } }),
      await desk.call('settings/setStuckThresholds', { thresholds: { pendingConfirm: 30_000 }, as: ADMIN }),
      await desk.call('settings/setStuckThresholds', { thresholds: { pendingReview: 10 * MINUTE }, as: ADMIN }),
      await desk.call('settings/setStuckThresholds', { thresholds: {}, as: ADMIN }),
    ];
    expect(refusals.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['forbidden', 'wrongPassphrase', 'invalidInput', 'invalidInput', 'invalidInput']);
    expect(await desk.value('settings/stuckThresholds', {})).toEqual(before);
  });
});

describe('a stuck order', () => {
  it('is flagged in its view and in the stuck list with what to do next, and audited once per status', async () => {
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '30', toAddress: tronAddress(), as: INITIATOR });
    await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    await desk.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect((await desk.admin('POST', `/withdrawals/${merchantId}/${withdrawal.userOrder}/advance`, { to: 'pendingTransfer' })).status).toBe(200);
    await desk.value('sync/run', {});
    const sent = await desk.value('withdrawals/get', { id: withdrawal.id });
    expect([sent.orderStatus, sent.stuck]).toEqual(['pendingTransfer', null]);
    expect((await desk.value('withdrawals/list', { stuck: true })).rows).toEqual([]);

    // 46 minutes later, past the 45 minutes the admin set for pendingTransfer.
    await moveClocks(46 * MINUTE);
    const stuck = await desk.value('withdrawals/get', { id: withdrawal.id });
    expect(stuck.stuck).toMatchObject({ status: 'pendingTransfer', thresholdMs: 45 * MINUTE });
    expect(stuck.stuck?.stuckForMs).toBeGreaterThanOrEqual(46 * MINUTE);
    expect(stuck.stuck?.nextSteps).toEqual([
      'The order is pendingTransfer: waiting for the platform to make the transfer.',
      `Contact the platform with apiOrder ${sent.apiOrder} (userOrder ${sent.userOrder}).`,
    ]);
    const listed = await desk.value('withdrawals/list', { stuck: true });
    expect(listed).toEqual({ rows: [expect.objectContaining({ id: withdrawal.id, stuck: expect.objectContaining({ status: 'pendingTransfer' }) })], nextCursor: null });
    await desk.value('withdrawals/list', { stuck: true });

    // On chain now (a txid), and pending its final status past 2 hours: check the transfer first.
    expect((await desk.admin('POST', `/withdrawals/${merchantId}/${withdrawal.userOrder}/advance`, { to: 'pendingCallback' })).status).toBe(200);
    await desk.value('sync/run', {});
    expect((await desk.value('withdrawals/get', { id: withdrawal.id })).stuck).toBeNull();
    await moveClocks(2 * 60 * MINUTE + MINUTE);
    const onChain = await desk.value('withdrawals/get', { id: withdrawal.id });
    expect(onChain.txid).not.toBeNull();
    expect(onChain.stuck?.status).toBe('pendingCallback');
    expect(onChain.stuck?.nextSteps).toContain(`Check the transfer on chain: run checkTransfer on txid ${onChain.txid} (trx.usdt).`);
    await desk.value('withdrawals/list', { stuck: true });
    await desk.value('withdrawals/list', { stuck: true });

    const audited = (await desk.value('audit/list', { limit: 100 })).rows.filter((row) => row.action === 'withdrawals/stuck' && row.subject === withdrawal.userOrder);
    expect(audited.map((row) => (row.details as { status: string }).status).sort()).toEqual(['pendingCallback', 'pendingTransfer']);

    const refused = await desk.call('withdrawals/list', { stuck: true, state: 'submitted' });
    expect(refused.ok ? null : refused.error.code).toBe('invalidInput');
  });
});
