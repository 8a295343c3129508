// The callback listener against the real sandbox (PROTOCOL §10): deposits are stored once whoever sees them first,
// order statuses only move forward however callbacks are reordered or repeated, and anything replayed, tampered,
// stale or addressed to another merchant is refused and changes nothing. The sandbox's own retry schedule
// (timeScale 1000: 15 s become 15 ms) delivers once the listener is up again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_RETRY_SCHEDULE_SECONDS, HEADER, PATHS } from '../../../electron/protocol/profile';
import { buildCallback, callbackKeys, postCallback, tamperData, waitFor, type CallbackKeys } from './fixtures/callbacks';
import { FaultProxy } from './fixtures/fault-proxy';
import { SandboxState } from './fixtures/sandbox-state';
import { APPROVER, INITIATOR, openDesk, seedRoster, tronAddress, type Desk } from './support';

const TIME_SCALE = 1000;

interface LoggedCallback {
  readonly ref: string;
  readonly kind: 'deposit' | 'withdraw';
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly eventAt: number;
  readonly record: Record<string, unknown>;
  readonly deliveries: ReadonlyArray<{ attempt: number; at: number; outcome: 'delivered' | 'failed'; httpStatus: number | null }>;
}

let desk: Desk;
let proxy: FaultProxy;
let keys: CallbackKeys;
let merchantId: string;
let listenerUrl: string;
let address: string;

async function callbackLog(): Promise<LoggedCallback[]> {
  const answer = await desk.admin<{ callbacks: LoggedCallback[] }>('GET', `/callbacks?merchantId=${merchantId}`);
  return answer.json.callbacks;
}

async function logged(ref: string): Promise<LoggedCallback | undefined> {
  return (await callbackLog()).find((entry) => entry.ref === ref);
}

async function depositsWith(txid: string) {
  return (await desk.value('deposits/list', { search: txid })).rows.filter((row) => row.txid === txid);
}

async function transfer(amount: string): Promise<{ txid: string; apiOrder: string }> {
  const answer = await desk.admin<{ credited: boolean; deposit: { txid: string; apiOrder: string } }>('POST', '/transfers', {
    toAddress: address,
    currency: 'trx.usdt',
    amount,
  });
  expect(answer.json.credited).toBe(true);
  return answer.json.deposit;
}

async function submittedOrder(): Promise<{ id: string; userOrder: string }> {
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: tronAddress(), as: INITIATOR });
  await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
  expect((await desk.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR })).state).toBe('submitted');
  return { id: withdrawal.id, userOrder: withdrawal.userOrder };
}

async function advance(userOrder: string, to: string): Promise<void> {
  expect((await desk.admin('POST', `/withdrawals/${merchantId}/${userOrder}/advance`, { to })).status).toBe(200);
}

beforeAll(async () => {
  desk = await openDesk({ sandbox: { timeScale: TIME_SCALE } });
  merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  // Business calls go through a recording proxy (to capture a genuine service response for the replay test).
  proxy = await FaultProxy.start(desk.sandbox.baseUrl);
  proxy.captureAnswers = true;
  const { baseUrl: _direct, ...credentials } = desk.sandbox.credentials;
  await desk.value('profiles/add', { name: 'proxied', credentials: { ...credentials, baseUrl: proxy.url } });
  await desk.value('profiles/select', { name: 'proxied' });
  // Operators belong to a profile: the proxied profile gets its own roster.
  await seedRoster(desk);
  await desk.value('sync/run', {});
  const state = new SandboxState(desk.sandbox.dataDir);
  try {
    keys = callbackKeys(merchantId, desk.sandbox.credentials.merchantPrivateKey, state.platformPrivateKey());
  } finally {
    state.close();
  }
  const listener = await desk.value('callbacks/start', { host: '127.0.0.1', port: 0 });
  expect(listener.running).toBe(true);
  listenerUrl = listener.url ?? '';
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { callbackUrl: listenerUrl })).status).toBe(200);
  address = (await desk.value('addresses/create', { addressType: 'trx', as: INITIATOR })).address;
});

afterAll(async () => {
  await desk?.close();
  await proxy?.close();
});

describe('deposits by callback', () => {
  it('stores a called-back deposit once with source callback; a later sync adds nothing', async () => {
    const deposit = await transfer('125.5');
    const stored = await waitFor('the deposit callback', async () => {
      const rows = await depositsWith(deposit.txid);
      return rows.length > 0 ? rows : undefined;
    });
    expect(stored).toEqual([expect.objectContaining({ apiOrder: deposit.apiOrder, source: 'callback', currency: 'trx.usdt' })]);
    expect(await logged(deposit.apiOrder)).toMatchObject({ state: 'delivered', attempts: 1 });

    const report = await desk.value('sync/run', {});
    expect(report.depositsNew).toBe(0);
    expect(await depositsWith(deposit.txid)).toEqual([expect.objectContaining({ source: 'callback' })]);

    // At-least-once delivery (§10.5): the same deposit called back again, validly signed, is acknowledged and kept once.
    const again = await postCallback(listenerUrl, buildCallback(keys, (await logged(deposit.apiOrder))?.record));
    expect(again).toEqual({ status: 200, text: 'success' });
    expect(await depositsWith(deposit.txid)).toHaveLength(1);
  });
});

describe('withdrawal status callbacks', () => {
  it('follow an order to its final state and never move it back or out of it', async () => {
    const order = await submittedOrder();
    for (const to of ['pendingTransfer', 'pendingCallback', 'success']) await advance(order.userOrder, to);
    const final = await waitFor('the final status by callback', async () => {
      const view = await desk.value('withdrawals/get', { id: order.id });
      return view.state === 'completed' ? view : undefined;
    });
    expect(final).toMatchObject({ orderStatus: 'success', outcome: 'success' });
    expect(final.txid).toBeTruthy();
    expect(final.history.filter((event) => event.source === 'callback').map((event) => event.status).sort()).toEqual(
      ['pendingCallback', 'pendingTransfer', 'success'].sort(),
    );

    // An older status delivered late (authentic: freshly signed by the platform key) is acknowledged, changes nothing.
    const older = (await logged(`${order.userOrder}:pendingTransfer`))?.record;
    expect(older).toMatchObject({ orderStatus: 'pendingTransfer' });
    expect(await postCallback(listenerUrl, buildCallback(keys, older))).toEqual({ status: 200, text: 'success' });
    // So is another final status after the final one.
    const success = (await logged(`${order.userOrder}:success`))?.record;
    expect(await postCallback(listenerUrl, buildCallback(keys, { ...success, orderStatus: 'fail' }))).toEqual({ status: 200, text: 'success' });
    const after = await desk.value('withdrawals/get', { id: order.id });
    expect(after).toMatchObject({ state: 'completed', orderStatus: 'success', outcome: 'success', txid: final.txid });
    const audit = await desk.value('audit/list', { limit: 200 });
    const afterFinal = audit.rows.filter((row) => row.subject === order.userOrder && row.action === 'withdrawals/statusAfterFinal');
    expect(afterFinal.map((row) => (row.details as { observed?: string }).observed)).toEqual(expect.arrayContaining(['pendingTransfer', 'fail']));
  });

  it('keep a pending order where it is when an earlier status arrives after a later one', async () => {
    const order = await submittedOrder();
    await advance(order.userOrder, 'pendingTransfer');
    await advance(order.userOrder, 'pendingCallback');
    await waitFor('pendingCallback by callback', async () => {
      const view = await desk.value('withdrawals/get', { id: order.id });
      return view.orderStatus === 'pendingCallback' && (await logged(`${order.userOrder}:pendingTransfer`))?.state === 'delivered' ? view : undefined;
    });
    const transferRecord = (await logged(`${order.userOrder}:pendingTransfer`))?.record;
    for (const status of ['pendingTransfer', 'pendingConfirm']) {
      expect(await postCallback(listenerUrl, buildCallback(keys, { ...transferRecord, orderStatus: status, txid: '' }))).toEqual({ status: 200, text: 'success' });
    }
    const view = await desk.value('withdrawals/get', { id: order.id });
    expect(view).toMatchObject({ state: 'submitted', orderStatus: 'pendingCallback', outcome: null });
    // The platform agrees: a sync does not move it either.
    await desk.value('sync/run', {});
    expect((await desk.value('withdrawals/get', { id: order.id })).orderStatus).toBe('pendingCallback');
  });
});

describe('callbacks that are not authentic', () => {
  /** A deposit record no one has seen: if any of these callbacks were accepted, it would appear in the cache. */
  function unseenDeposit(tag: string): Record<string, string> {
    return {
      businessType: 'deposit',
      txid: `${tag}${'0'.repeat(64 - tag.length)}`,
      address,
      addressType: 'trx',
      fromAddress: tronAddress(),
      amount: '77',
      currency: 'trx.usdt',
      fee: '1',
      apiOrder: `DPTEST${tag}`,
      userOrder: 'refused-callbacks',
    };
  }

  it('refuse a replayed body (used nonce), a tampered body, a stale timestamp and a wrong SVC-APP-ID', async () => {
    const before = await desk.value('callbacks/state', {});

    const replayed = unseenDeposit('aa01');
    const first = buildCallback(keys, replayed);
    expect(await postCallback(listenerUrl, first)).toEqual({ status: 200, text: 'success' });
    expect(await postCallback(listenerUrl, first)).toEqual({ status: 400, text: 'refused' });
    expect(await depositsWith(replayed.txid ?? '')).toHaveLength(1);

    // Each callback is signed just before it is sent, and the stale ones lie well outside the ±300 s window (§4.2; its
    // exact edges are unit-tested with a fixed clock): one signed 301 s ahead and sent a second later is inside it.
    const refusals: Array<[string, Record<string, string>, () => ReturnType<typeof buildCallback>]> = [];
    const tampered = unseenDeposit('bb02');
    refusals.push(['tampered data', tampered, () => tamperData(buildCallback(keys, tampered))]);
    const ahead = unseenDeposit('cc03');
    refusals.push(['timestamp 360 s ahead', ahead, () => buildCallback(keys, ahead, { skewSeconds: 360 })]);
    const behind = unseenDeposit('dd04');
    refusals.push(['timestamp 360 s behind', behind, () => buildCallback(keys, behind, { skewSeconds: -360 })]);
    const foreign = unseenDeposit('ee05');
    refusals.push(['another merchant ID', foreign, () => buildCallback(keys, foreign, { appId: '1234567890' })]);
    for (const [what, record, build] of refusals) {
      expect(await postCallback(listenerUrl, build()), what).toEqual({ status: 400, text: 'refused' });
      expect(await depositsWith(record.txid ?? ''), what).toEqual([]);
    }
    // Control: the stale and foreign ones were refused for what was wrong with them, not for their content.
    expect(await postCallback(listenerUrl, buildCallback(keys, ahead))).toEqual({ status: 200, text: 'success' });

    const after = await desk.value('callbacks/state', {});
    expect(after.refused - before.refused).toBe(5);
    expect(after.received - before.received).toBe(2);
    const audit = await desk.value('audit/list', { limit: 100 });
    // Every refusal is counted (above); the audit log gets a bounded sample of them (callbacks/refusals.ts).
    const sampled = audit.rows.filter((row) => row.action === 'callbacks/refused').length;
    expect(sampled).toBeGreaterThanOrEqual(1);
    expect(sampled).toBeLessThanOrEqual(5);
  });

  it('refuses a genuine service response replayed as a callback (one nonce memory for answers and callbacks)', async () => {
    const order = await submittedOrder();
    const before = proxy.events.length;
    await desk.value('withdrawals/submit', { id: order.id, as: INITIATOR }); // reconcile: checkWithdrawOrder through the proxy
    const answer = proxy.events.slice(before).find((event) => event.path === PATHS.checkWithdrawOrder)?.answer;
    expect(answer?.status).toBe(200);
    if (!answer) return;
    const headers: Record<string, string> = { 'Content-Type': 'application/json', [HEADER.appId]: merchantId };
    for (const name of [HEADER.timestamp, HEADER.nonce, HEADER.sign]) headers[name] = String(answer.headers[name.toLowerCase()]);
    const replay = await postCallback(listenerUrl, { headers, body: answer.body.toString('utf8') });
    expect(replay).toEqual({ status: 400, text: 'refused' });
    expect((await desk.value('callbacks/state', {})).lastError).toMatch(/already received/);
  });
});

describe('the sandbox retry schedule', () => {
  it('delivers once the listener is back up; a deposit a sync saw first is kept once, as first seen', async () => {
    const port = Number(new URL(listenerUrl).port);
    await desk.value('callbacks/stop', {});
    const deposit = await transfer('66');
    // Attempts at 0, 15 and 60 "seconds" (ms here) fail: nothing listens.
    const failing = await waitFor('three failed attempts', async () => {
      const entry = await logged(deposit.apiOrder);
      return entry && entry.deliveries.filter((delivery) => delivery.outcome === 'failed').length >= 3 ? entry : undefined;
    });
    expect(failing.state).toBe('pending');
    expect(await desk.value('sync/run', {})).toMatchObject({ depositsNew: 1 });
    expect(await depositsWith(deposit.txid)).toEqual([expect.objectContaining({ source: 'query' })]);

    const restarted = await desk.value('callbacks/start', { host: '127.0.0.1', port });
    expect(restarted.url).toBe(listenerUrl);
    const delivered = await waitFor(
      'delivery after the listener came back',
      async () => {
        const entry = await logged(deposit.apiOrder);
        return entry?.state === 'delivered' ? entry : undefined;
      },
      10_000,
    );
    expect(delivered.deliveries.at(-1)).toMatchObject({ outcome: 'delivered', httpStatus: 200 });
    expect(delivered.attempts).toBeGreaterThanOrEqual(4);
    // Each attempt no earlier than its (scaled) slot of the §10.3 schedule.
    for (const delivery of delivered.deliveries) {
      const slot = CALLBACK_RETRY_SCHEDULE_SECONDS[delivery.attempt - 1] ?? Infinity;
      expect(delivery.at - delivered.eventAt).toBeGreaterThanOrEqual(Math.round((slot * 1000) / TIME_SCALE) - 1);
    }
    expect(await depositsWith(deposit.txid)).toEqual([expect.objectContaining({ source: 'query' })]);
  });
});
