// Notifications raised by the real engine against the sandbox (core/notifications, withdrawals/watchdog): a request
// asks exactly the operators whose approval would count; its outcome tells the initiator; a restart raises nothing
// twice; each operator sets only their own preferences, with their passphrase, thresholds checked per currency; a
// deposit strictly above a threshold tells that operator; an order kept pending past its threshold (clocks moved
// forward) is stuck once, audited once; the desk going offline and coming back is told once each; the approvals count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractEvent, DeskNotification, MethodName, ResponseOf } from '../../../electron/contract';
import { callMethod } from '../../../electron/contract';
import type { Engine, EngineOptions } from '../../../electron/core/engine';
import { ADMIN, APPROVER, INITIATOR, openDesk, SECOND_ADMIN, tronAddress, VIEWER, type Desk } from './support';

/** The engine's clock runs ahead by this much (the sandbox's is moved along with it for the stuck-order test). */
let clockOffsetMs = 0;
const NOTIFYING: Partial<EngineOptions> = {
  clock: () => Date.now() + clockOffsetMs,
  notifications: { reviewIntervalMs: 3_600_000, offlineNoticeDelayMs: 0, watchdogIntervalMs: 3_600_000 },
};

let desk: Desk;
let merchantId: string;
const raised: DeskNotification[] = [];

function listen(engine: Engine): void {
  engine.onEvent((event: ContractEvent) => {
    if (event.type === 'notification/raised') raised.push(event.notification);
  });
}

/** The notices raised since `from` (index into `raised`), once `count` of them arrived (reviews run after the event). */
async function noticesAfter(from: number, count: number, timeoutMs = 10_000): Promise<DeskNotification[]> {
  const deadline = Date.now() + timeoutMs;
  while (raised.length - from < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} notices, got ${JSON.stringify(raised.slice(from), null, 2)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  // Give a late, unexpected one the chance to show up too.
  await new Promise((resolve) => setTimeout(resolve, 150));
  return raised.slice(from);
}

const sorted = (names: readonly string[]): string[] => [...names].sort();

beforeAll(async () => {
  desk = await openDesk({ engine: NOTIFYING });
  listen(desk.engine);
  merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '50000' } })).status).toBe(200);
  await desk.value('sync/run', {});
});
afterAll(async () => desk?.close());

async function request(amount: string, memo?: string): Promise<{ id: string; userOrder: string; fingerprint: string | null }> {
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress: tronAddress(), as: INITIATOR, ...(memo === undefined ? {} : { memo }) });
  return withdrawal;
}

describe('a withdrawal waiting for approval, and its outcome', () => {
  it('asks the admins and the approver (not the initiator, not the viewer), once; tells the initiator when it is paid out', async () => {
    const from = raised.length;
    const made = await request('1250.000001', 'rent for March');
    const [notice, ...others] = await noticesAfter(from, 1);
    expect(others).toEqual([]);
    expect(notice).toMatchObject({ id: `main:approval:${made.id}`, kind: 'approvalWaiting', profile: 'main', target: { kind: 'withdrawal', id: made.id } });
    expect(sorted(notice?.recipients ?? [])).toEqual(['alice', 'bob', 'frank']);
    expect(notice?.body).toContain('carol requests 1250.000001 USDT on TRON');
    expect(notice?.body).toContain(`Fingerprint ${made.fingerprint}`);
    expect(notice?.body).toContain('Memo: "rent for March"');
    expect(notice?.discreetBody).not.toMatch(/1250|carol|rent/);

    expect(await desk.value('notifications/waiting', { operator: 'bob' })).toEqual({ operator: 'bob', approvals: 1 });
    expect((await desk.value('notifications/waiting', { operator: 'carol' })).approvals).toBe(0);
    expect((await desk.value('notifications/waiting', { operator: 'dave' })).approvals).toBe(0);

    // bob approves (one approval is enough): nobody is asked again; it is sent, and the platform pays it out.
    const approving = raised.length;
    await desk.value('withdrawals/approve', { id: made.id, as: APPROVER });
    expect((await desk.value('notifications/waiting', { operator: 'alice' })).approvals).toBe(0);
    await desk.value('withdrawals/submit', { id: made.id, as: INITIATOR });
    expect(await noticesAfter(approving, 0)).toEqual([]);
    for (const status of ['pendingTransfer', 'pendingCallback', 'success']) {
      expect((await desk.admin('POST', `/withdrawals/${merchantId}/${made.userOrder}/advance`, { to: status })).status).toBe(200);
    }
    const paying = raised.length;
    await desk.value('sync/run', {});
    const [paid, ...more] = await noticesAfter(paying, 1);
    expect(more).toEqual([]);
    expect(paid).toMatchObject({ id: `main:final:${made.id}`, kind: 'orderFinal', recipients: ['carol'], title: 'A withdrawal was paid out' });
    expect(paid?.body).toContain('1250.000001 USDT on TRON');
  });

  it('tells the initiator who rejected their request, and why', async () => {
    const asking = raised.length;
    const made = await request('15');
    expect((await noticesAfter(asking, 1)).map((notice) => notice.kind)).toEqual(['approvalWaiting']);
    const from = raised.length;
    await desk.value('withdrawals/reject', { id: made.id, reason: 'wrong address', as: APPROVER });
    const [notice, ...others] = await noticesAfter(from, 1);
    expect(others).toEqual([]);
    expect(notice).toMatchObject({ kind: 'orderFinal', recipients: ['carol'], title: 'A withdrawal request was rejected' });
    expect(notice?.body).toBe(`bob rejected 15 USDT on TRON (request ${made.id}): "wrong address"`);
  });
});

describe('preferences', () => {
  it('each operator sets their own, with their passphrase; bad thresholds are refused and change nothing', async () => {
    expect(await desk.value('notifications/preferences', { operator: 'DAVE' })).toEqual({
      profile: 'main',
      operator: 'dave',
      preferences: { approvalWaiting: true, orderFinal: 'mine', orderStuck: false, connection: true, depositThresholds: {} },
      isDefault: true,
    });
    const wanted = { approvalWaiting: true, orderFinal: 'mine', orderStuck: false, connection: true, depositThresholds: { 'trx.usdt': '100.000000' } } as const;
    expect(await desk.call('notifications/setPreferences', { preferences: wanted, as: { ...VIEWER, passphrase: 'not dave' } })).toMatchObject({ ok: false, error: { code: 'wrongPassphrase' } });
    const tooPrecise = await desk.call('notifications/setPreferences', { preferences: { ...wanted, depositThresholds: { 'trx.usdt': '100.0000001' } }, as: VIEWER });
    expect(tooPrecise).toMatchObject({ ok: false, error: { code: 'invalidInput', fields: { 'preferences.depositThresholds.trx.usdt': expect.stringContaining('6 decimal') } } });
    expect((await desk.value('notifications/preferences', { operator: 'dave' })).isDefault).toBe(true);
    expect(await desk.call('notifications/preferences', { operator: 'mallory' })).toMatchObject({ ok: false, error: { code: 'notFound' } });

    const saved = await desk.value('notifications/setPreferences', { preferences: wanted, as: VIEWER });
    expect(saved).toMatchObject({ operator: 'dave', isDefault: false, preferences: { depositThresholds: { 'trx.usdt': '100' } } });
    expect(await desk.value('notifications/preferences', { operator: 'dave' })).toEqual(saved);
    const audit = await desk.value('audit/list', { limit: 20 });
    expect(audit.rows.find((row) => row.action === 'notifications/preferences')).toMatchObject({ operator: 'dave', subject: 'dave' });
  });

  it('tells dave of a deposit strictly above his threshold, exactly, and of nothing at or below it', async () => {
    const address = (await desk.value('addresses/create', { addressType: 'trx', as: INITIATOR })).address;
    // The sandbox credits the amount less its 0.5 % fee, rounded half up to 6 decimals: 100 (at the threshold exactly)
    // and 100.000001 (above it by the smallest step).
    for (const amount of ['100.502513', '100.502514']) {
      expect((await desk.admin('POST', '/transfers', { toAddress: address, currency: 'trx.usdt', amount })).status).toBe(200);
    }
    const from = raised.length;
    await desk.value('sync/run', {});
    const [notice, ...others] = await noticesAfter(from, 1);
    expect(others).toEqual([]);
    expect(notice).toMatchObject({ kind: 'depositCredited', recipients: ['dave'], title: 'A deposit arrived' });
    expect(notice?.body).toMatch(/^100\.000001 USDT on TRON received/);
    expect(notice?.body).not.toContain(address);
    const deposit = (await desk.value('deposits/list', { search: address })).rows.find((row) => row.amount === '100.000001');
    expect(notice?.target).toEqual({ kind: 'deposit', id: String(deposit?.id), txid: deposit?.txid });
  });
});

describe('stuck orders', () => {
  it('an order left pendingConfirm past 30 minutes is stuck once, for the admins and the approver, audited once', async () => {
    const made = await request('20');
    await desk.value('withdrawals/approve', { id: made.id, as: APPROVER });
    await desk.value('withdrawals/submit', { id: made.id, as: INITIATOR });
    expect((await desk.value('withdrawals/get', { id: made.id })).orderStatus).toBe('pendingConfirm');
    // 31 minutes later, for the desk and the service alike (signatures keep their ±300 s window).
    clockOffsetMs = 31 * 60_000;
    expect((await desk.admin('POST', '/clock', { offsetSeconds: 31 * 60 })).status).toBe(200);
    const from = raised.length;
    await desk.value('sync/run', {});
    const stuck = (await noticesAfter(from, 1)).filter((notice) => notice.kind === 'orderStuck');
    expect(stuck).toHaveLength(1);
    expect(stuck[0]).toMatchObject({ id: `main:stuck:${made.id}:pendingConfirm`, title: 'A withdrawal seems stuck', target: { kind: 'withdrawal', id: made.id } });
    expect(sorted(stuck[0]?.recipients ?? [])).toEqual(['alice', 'bob', 'frank']);
    expect(stuck[0]?.body).toContain('has been pendingConfirm for 31 min; it usually moves on within 30 min');

    const again = raised.length;
    await desk.value('sync/run', {});
    expect((await noticesAfter(again, 0)).filter((notice) => notice.kind === 'orderStuck')).toEqual([]);
    const audit = await desk.value('audit/list', { limit: 50 });
    expect(audit.rows.filter((row) => row.action === 'withdrawals/stuck' && row.subject === made.userOrder)).toHaveLength(1);
  });
});

describe('the connection', () => {
  it('offline once, and back online once, to everyone who wants it', async () => {
    const from = raised.length;
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { ipWhitelist: ['10.0.0.0/8'] })).status).toBe(200);
    expect((await desk.call('sync/run', {})).ok).toBe(false);
    expect((await desk.call('sync/run', {})).ok).toBe(false);
    const [offline, ...rest] = await noticesAfter(from, 1);
    expect(rest).toEqual([]);
    expect(offline).toMatchObject({ kind: 'offline', title: 'Treasury Desk is offline', target: { kind: 'connection' } });
    expect(sorted(offline?.recipients ?? [])).toEqual(['alice', 'bob', 'carol', 'dave', 'frank']);
    expect(offline?.body).toContain('whitelist');

    const back = raised.length;
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { ipWhitelist: ['127.0.0.0/8', '::1/128'] })).status).toBe(200);
    await desk.value('sync/run', {});
    const [online, ...after] = await noticesAfter(back, 1);
    expect(after).toEqual([]);
    expect(online).toMatchObject({ kind: 'online', title: 'Treasury Desk is back online' });
  });
});

describe('a restart', () => {
  it('raises nothing it raised before, and what is new after', async () => {
    const asking = raised.length;
    const waiting = await request('30');
    await noticesAfter(asking, 1);
    expect(raised.filter((notice) => notice.id === `main:approval:${waiting.id}`)).toHaveLength(1);
    await desk.engine.close();
    const restarted = await desk.reopen(NOTIFYING);
    listen(restarted);
    const call = async <M extends MethodName>(method: M, body: unknown): Promise<ResponseOf<M>> => {
      const result = await callMethod(restarted.handlers, method, body);
      if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
      return result.value;
    };
    const from = raised.length;
    await call('sync/run', {});
    expect(await noticesAfter(from, 0)).toEqual([]);
    const { withdrawal } = await call('withdrawals/request', { currency: 'trx.usdt', amount: '31', toAddress: tronAddress(), as: ADMIN });
    const [fresh, ...others] = await noticesAfter(from, 1);
    expect(others).toEqual([]);
    expect(fresh).toMatchObject({ id: `main:approval:${withdrawal.id}` });
    // alice made it: the other founder and the approver are asked.
    expect(sorted(fresh?.recipients ?? [])).toEqual(['bob', 'frank']);
    expect((await call('notifications/waiting', { operator: SECOND_ADMIN.operator })).approvals).toBe(2);
  });
});
