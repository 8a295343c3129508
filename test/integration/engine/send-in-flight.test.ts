// The engine's narrow "a send is in flight" predicate (what keeps an update from restarting the app mid-send): true
// while createWithdrawOrder is on its way to the service (held at a loopback proxy), false before and after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../../electron/protocol/profile';
import { openProxiedDesk, type ProxiedDesk } from './fixtures/proxied-desk';
import { APPROVER, INITIATOR, tronAddress } from './support';

let proxied: ProxiedDesk | undefined;

beforeAll(async () => {
  proxied = await openProxiedDesk('100');
});

afterAll(async () => {
  await proxied?.close();
});

describe('engine.sendInFlight', () => {
  it('holds while a withdrawal is being sent, and only then', async () => {
    const { desk, proxy } = proxied as ProxiedDesk;
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: tronAddress(), as: INITIATOR });
    await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    expect(desk.engine.sendInFlight()).toBe(false);

    const held = proxy.holdNext(PATHS.createWithdrawOrder);
    const sending = desk.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    await held.arrived;
    expect(desk.engine.sendInFlight()).toBe(true);
    held.release();
    expect(await sending).toMatchObject({ ok: true, value: { state: 'submitted' } });
    expect(desk.engine.sendInFlight()).toBe(false);
  });
});
