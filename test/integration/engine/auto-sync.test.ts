// Background sync against the real sandbox (the desktop app's engine option): a deposit on the simulated chain
// reaches the cache, and a submitted withdrawal is followed to success, with nobody calling sync/run and no callback
// URL configured; when the service goes away the desk notices on its own.
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVER, INITIATOR, openDesk, tronAddress, type Desk } from './support';

const FAST = { intervalMs: 300, unsettledIntervalMs: 150, maxBackoffMs: 1_200 };

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('background sync', () => {
  it('caches a new deposit and follows a submitted withdrawal to success without sync/run', async () => {
    desk = await openDesk({ engine: { autoSync: FAST }, sandbox: { auto: true, timeScale: 50 } });
    const open = desk;
    const merchantId = open.sandbox.credentials.merchantId;
    expect((await open.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '500' } })).status).toBe(200);

    const address = await open.value('addresses/create', { addressType: 'trx', as: INITIATOR });
    const transfer = await open.admin<{ credited: boolean; deposit: { txid: string; amount: string } }>('POST', '/transfers', {
      toAddress: address.address,
      currency: 'trx.usdt',
      amount: '42.5',
    });
    expect(transfer.json.credited).toBe(true);
    const page = await eventually(
      () => open.value('deposits/list', { search: transfer.json.deposit.txid }),
      (found) => found.rows.length === 1,
    );
    // The credited amount, net of the deposit fee, exactly as the service reports it.
    expect(page.rows[0]).toMatchObject({ txid: transfer.json.deposit.txid, amount: transfer.json.deposit.amount, source: 'query' });

    // The preflight needs the currencies a sync brought in; then request, approve, submit.
    const { withdrawal } = await open.value('withdrawals/request', { currency: 'trx.usdt', amount: '20', toAddress: tronAddress(), as: INITIATOR });
    await open.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    const submitted = await open.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(submitted.state).toBe('submitted');
    const final = await eventually(
      () => open.value('withdrawals/get', { id: withdrawal.id }),
      (view) => view.state === 'completed',
    );
    expect(final).toMatchObject({ state: 'completed', outcome: 'success', orderStatus: 'success' });
    expect(final.txid).toBeTruthy();
  }, 60_000);

  it('notices on its own that the service stopped: offline, reason network, since when', async () => {
    desk = await openDesk({ engine: { autoSync: FAST } });
    const open = desk;
    await eventually(
      () => open.value('sync/status', {}),
      (status) => status.resources.every((resource) => resource.lastSuccessAt !== null),
    );
    await open.sandbox.close();
    const offline = await eventually(
      () => open.value('sync/status', {}),
      (status) => !status.connection.online,
    );
    expect(offline.connection).toMatchObject({ online: false, reason: 'network' });
    expect(offline.connection.since).not.toBeNull();
  }, 60_000);
});
