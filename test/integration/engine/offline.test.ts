// Offline diagnosis against the real sandbox: an IP not on the whitelist, a clock 15 minutes off, a wrong secret and
// a stopped service each fail sync with their own reason (notWhitelisted, clockDrift, credentials, network), say what
// to do, mark the connection offline since the first failure, and every read still works from SQLite.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIATOR, openDesk, tronAddress, type Desk } from './support';

let desk: Desk;
let merchantId: string;
let requestId: string;
let depositAddress: string;

beforeAll(async () => {
  desk = await openDesk();
  merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000', ton: '12.5' } })).status).toBe(200);
  const created = await desk.value('addresses/create', { addressType: 'trx', as: INITIATOR });
  depositAddress = created.address;
  for (const amount of ['40', '41.25']) {
    expect((await desk.admin('POST', '/transfers', { toAddress: created.address, currency: 'trx.usdt', amount })).status).toBe(200);
  }
  await desk.value('sync/run', {});
  requestId = (await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: tronAddress(), as: INITIATOR })).withdrawal.id;
});
afterAll(async () => desk?.close());

async function expectOnlineAgain(): Promise<void> {
  await desk.value('sync/run', {});
  expect((await desk.value('sync/status', {})).connection).toMatchObject({ online: true, reason: null, since: null });
}

/** Every read the desk offers while offline answers from the cache. */
async function expectReadsWork(): Promise<void> {
  const deposits = await desk.value('deposits/list', {});
  expect(deposits.rows.map((row) => row.amount).sort()).toEqual(['39.5', '40.75']);
  const balances = await desk.value('balances/list', {});
  expect(balances.find((balance) => balance.currency === 'ton')).toMatchObject({ available: '12.5' });
  expect(balances.find((balance) => balance.currency === 'trx.usdt')?.available).toBe('5080.25');
  const withdrawals = await desk.value('withdrawals/list', {});
  expect(withdrawals.rows.map((row) => row.id)).toContain(requestId);
  expect((await desk.value('withdrawals/get', { id: requestId })).state).toBe('awaitingApproval');
  expect(await desk.value('currencies/list', {})).toHaveLength(13);
  expect((await desk.value('deposits/list', { search: depositAddress.slice(3, 13) })).rows).toHaveLength(2);
}

describe('offline reasons', () => {
  it('IP not whitelisted: notWhitelisted, with the whitelist explanation', async () => {
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { ipWhitelist: ['10.0.0.0/8'] })).status).toBe(200);
    const result = await desk.call('sync/run', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'notWhitelisted' } });
    if (!result.ok) expect(result.error.message).toMatch(/not on the merchant's whitelist/);
    const status = await desk.value('sync/status', {});
    expect(status.connection).toMatchObject({ online: false, reason: 'notWhitelisted' });
    expect(status.connection.message).toMatch(/whitelist/);
    expect(status.resources.find((resource) => resource.resource === 'balances')?.lastError).toMatch(/whitelist/);
    // The codes and values a window words in its own language, beside the English.
    expect(status.connection.cause).toEqual({ code: 'notWhitelisted', endpoint: expect.any(String) });
    expect(status.resources.find((resource) => resource.resource === 'balances')?.lastErrorCode).toBe('notWhitelisted');
    const selfcheck = await desk.value('selfcheck/run', {});
    expect(selfcheck.ok).toBe(false);
    expect(selfcheck.guidance.join(' ')).toMatch(/whitelist/);
    expect(selfcheck.advice).toEqual([{ code: 'notWhitelisted' }]);
    expect(selfcheck.steps.at(-1)?.outcome).toMatchObject({ code: 'failed', errorCode: 'notWhitelisted' });
    await expectReadsWork();

    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { ipWhitelist: ['127.0.0.0/8', '::1/128'] })).status).toBe(200);
    await expectOnlineAgain();
  });

  it('clock drift inside the window: selfcheck passes, warning from 150 s (item 9), and sync works', async () => {
    for (const [offsetSeconds, verdict] of [
      [100, 'ok'],
      [-151, 'warn'],
      [240, 'warn'],
    ] as const) {
      expect((await desk.admin('POST', '/clock', { offsetSeconds })).status).toBe(200);
      const selfcheck = await desk.value('selfcheck/run', {});
      expect(selfcheck.ok, `${offsetSeconds} s`).toBe(true);
      expect(Math.abs((selfcheck.clockDriftSeconds ?? 0) - offsetSeconds), `${offsetSeconds} s`).toBeLessThanOrEqual(2);
      expect(selfcheck.clockVerdict, `${offsetSeconds} s`).toBe(verdict);
      const clock = selfcheck.steps.find((step) => step.step === 'clock');
      expect(clock?.ok).toBe(true);
      if (verdict === 'warn') expect(selfcheck.guidance.join(' ')).toMatch(/clock synchronisation/);
      else expect(selfcheck.guidance).toEqual([]);
      expect((await desk.value('sync/run', {})).connection.online).toBe(true);
    }
    expect((await desk.admin('POST', '/clock', { offsetSeconds: 0 })).status).toBe(200);
  });

  it('clock 15 minutes off: clockDrift, explained by selfcheck and sync', async () => {
    expect((await desk.admin('POST', '/clock', { offsetSeconds: 900 })).status).toBe(200);
    const selfcheck = await desk.value('selfcheck/run', {});
    expect(selfcheck.ok).toBe(false);
    const failed = selfcheck.steps.find((step) => !step.ok);
    expect(failed?.detail).toMatch(/900 s ahead of this computer's clock/);
    expect(selfcheck).toMatchObject({ clockDriftSeconds: null, clockVerdict: null });
    expect(selfcheck.guidance.join(' ')).toMatch(/clock/);
    expect((await desk.value('sync/status', {})).connection).toMatchObject({ online: false, reason: 'clockDrift' });

    const result = await desk.call('sync/run', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'clockDrift' } });
    if (!result.ok) expect(result.error.message).toMatch(/clock/);
    const status = await desk.value('sync/status', {});
    expect(status.connection).toMatchObject({ online: false, reason: 'clockDrift' });
    expect(status.connection.message).toMatch(/clock/);
    await expectReadsWork();

    expect((await desk.admin('POST', '/clock', { offsetSeconds: 0 })).status).toBe(200);
    await expectOnlineAgain();
  });

  it('wrong secret: credentials', async () => {
    const path = join(desk.dir, 'wrong-secret.json');
    writeFileSync(path, JSON.stringify({ ...desk.sandbox.credentials, secret: 'f'.repeat(32) }), { mode: 0o600 });
    chmodSync(path, 0o600);
    await desk.value('profiles/importFile', { name: 'wrongsecret', path });
    await desk.value('profiles/select', { name: 'wrongsecret' });
    const result = await desk.call('sync/run', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'credentials', serviceReason: 'authFailed' } });
    const status = await desk.value('sync/status', {});
    expect(status.connection).toMatchObject({ online: false, reason: 'credentials' });
    expect(status.connection.message).toMatch(/merchant ID or secret/);
    expect((await desk.value('selfcheck/run', {})).guidance.join(' ')).toMatch(/secret is wrong/);

    await desk.value('profiles/select', { name: 'main' });
    await expectOnlineAgain();
  });

  it('service stopped: offline with reason network since the first failure; every read still works', async () => {
    const lastContact = (await desk.value('sync/status', {})).connection.lastContactAt;
    expect(lastContact).not.toBeNull();
    await desk.sandbox.close();

    const result = await desk.call('sync/run', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'offline' } });
    const status = await desk.value('sync/status', {});
    expect(status.connection).toMatchObject({ online: false, reason: 'network', lastContactAt: lastContact });
    expect(status.connection.message).toMatch(/cannot be reached/);
    const since = status.connection.since;
    expect(since).toEqual(expect.any(Number));
    expect(since ?? 0).toBeGreaterThanOrEqual(lastContact ?? Infinity);
    expect(status.resources.find((resource) => resource.resource === 'currencies')?.lastError).toMatch(/cannot be reached/);
    expect(status.resources.find((resource) => resource.resource === 'currencies')?.lastErrorCode).toBe('offline');
    expect(status.connection.cause).toMatchObject({ code: 'unreachable' });

    await expectReadsWork();
    // Still offline for the same reason: `since` keeps the first failure.
    expect(await desk.call('sync/run', {})).toMatchObject({ ok: false, error: { code: 'offline' } });
    expect((await desk.value('sync/status', {})).connection.since).toBe(since);
    expect(await desk.call('withdrawals/preflight', { currency: 'trx.usdt', amount: '5', toAddress: tronAddress() })).toMatchObject({ ok: true });
  });
});
