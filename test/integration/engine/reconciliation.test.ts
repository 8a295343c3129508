// Reconciliation scenarios against the real sandbox on loopback (issue 11, item 2), each reported with exact amounts:
// a lost deposit callback (listed by getDeposits only: explained while the platform may retry, flagged after its
// retries, the desk's clock moved 7 hours with the sandbox's), a deposit seen only by callback, a refund (amount + fee
// back, the balance adds up), a fee other than the currency table's, a reading taken after the platform refunded an
// order the desk has not yet seen final (pending, waiting for that order, until the outcome arrives; issue 22), and a
// balance changed through the admin API without any record. The desk receives callbacks on its own listener throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, Money } from '../../../electron/chains/amounts';
import type { ReconciliationFinding, ReconciliationReport } from '../../../electron/contract';
import { waitFor } from './fixtures/callbacks';
import { APPROVER, INITIATOR, openDesk, tronAddress, type Desk } from './support';

const HOUR = 3_600_000;
let clockOffsetMs = 0;
let desk: Desk;
let merchantId: string;
let address: string;

const now = (): number => Date.now() + clockOffsetMs;

/** Moves the desk's clock and the sandbox's together (signatures keep their ±300 s window). */
async function moveClocks(byMs: number): Promise<void> {
  clockOffsetMs += byMs;
  expect((await desk.admin('POST', '/clock', { offsetSeconds: clockOffsetMs / 1000 })).status).toBe(200);
}

async function transfer(amount: string): Promise<{ apiOrder: string; amount: string; fee: string; txid: string }> {
  const answer = await desk.admin<{ credited: boolean; deposit: { apiOrder: string; amount: string; fee: string; txid: string } }>('POST', '/transfers', {
    toAddress: address,
    currency: 'trx.usdt',
    amount,
  });
  expect(answer.json.credited).toBe(true);
  return answer.json.deposit;
}

async function calledBack(apiOrder: string): Promise<void> {
  await waitFor(`the callback of ${apiOrder}`, async () => {
    const rows = (await desk.value('deposits/list', { currency: 'trx.usdt', limit: 50 })).rows;
    return rows.some((row) => row.apiOrder === apiOrder) ? true : undefined;
  });
}

async function anomaly(body: Record<string, unknown>): Promise<void> {
  expect((await desk.admin('POST', '/anomalies', body)).status).toBe(201);
}

async function reconcile(from: number): Promise<ReconciliationReport> {
  return desk.value('reconcile/run', { currency: 'trx.usdt', from });
}

function findings(report: ReconciliationReport, kind: ReconciliationFinding['kind']): ReconciliationFinding[] {
  return (report.currencies[0]?.findings ?? []).filter((finding) => finding.kind === kind);
}

async function sentOrder(amount: string): Promise<{ id: string; userOrder: string }> {
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress: tronAddress(), as: INITIATOR });
  await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
  expect((await desk.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR })).state).toBe('submitted');
  return { id: withdrawal.id, userOrder: withdrawal.userOrder };
}

async function advance(userOrder: string, ...statuses: string[]): Promise<void> {
  for (const to of statuses) expect((await desk.admin('POST', `/withdrawals/${merchantId}/${userOrder}/advance`, { to })).status).toBe(200);
}

beforeAll(async () => {
  desk = await openDesk({ sandbox: { timeScale: 1000 }, engine: { clock: now } });
  merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  await desk.value('sync/run', {});
  const listener = await desk.value('callbacks/start', { host: '127.0.0.1', port: 0 });
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { callbackUrl: listener.url })).status).toBe(200);
  address = (await desk.value('addresses/create', { addressType: 'trx', as: INITIATOR })).address;
  // The desk receives callbacks from here on.
  await calledBack((await transfer('10')).apiOrder);
  await desk.value('sync/run', {});
});
afterAll(async () => desk?.close());

describe('reconciliation scenarios', () => {
  it('a lost deposit callback: listed by getDeposits only, explained while the platform may retry, flagged after', async () => {
    const start = now();
    await anomaly({ kind: 'dropDepositCallback', merchantId, times: 1 });
    const lost = await transfer('40');
    expect([lost.amount, lost.fee]).toEqual(['39.5', '0.5']);
    await desk.value('sync/run', {});
    const during = await reconcile(start);
    expect(findings(during, 'queryOnly')).toEqual([expect.objectContaining({ explained: true, amount: '39.5', reference: { kind: 'deposit', apiOrder: lost.apiOrder, txid: lost.txid } })]);
    expect(during.currencies[0]?.deposits.queryOnly).toEqual({ count: 1, amount: '39.5' });
    expect(during.currencies[0]?.balance?.unexplained).toBe('0');

    await moveClocks(7 * HOUR);
    const after = await reconcile(start);
    const [flagged] = findings(after, 'queryOnly');
    expect(flagged).toMatchObject({ explained: false, amount: '39.5' });
    expect(flagged?.summary).toBe(`Deposit ${lost.apiOrder} of 39.5 trx.usdt is in the service's deposit list, but the service never sent its notice (callback).`);
    expect(after.ok).toBe(false);
    expect(after.unexplained).toBe(1);
  });

  it('a deposit seen only by callback: reported, never listed by getDeposits although a sync ran after it', async () => {
    const start = now();
    const only = await transfer('60');
    await calledBack(only.apiOrder);
    await anomaly({ kind: 'unlistDeposit', apiOrder: only.apiOrder });
    await desk.value('sync/run', {});
    const report = await reconcile(start);
    expect(findings(report, 'callbackOnly')).toEqual([expect.objectContaining({ explained: false, amount: '59.5', reference: { kind: 'deposit', apiOrder: only.apiOrder, txid: only.txid } })]);
    expect(report.currencies[0]?.deposits).toMatchObject({ total: { count: 1, amount: '59.5' }, callbackOnly: { count: 1, amount: '59.5' }, both: { count: 0, amount: '0' } });
    // The balance holds it: the callback is a record of it.
    expect(report.currencies[0]?.balance).toMatchObject({ deposits: { count: 1, amount: '59.5' }, unexplained: '0' });
  });

  it('a refund: amount + fee leave at creation and come back; the balance adds up', async () => {
    await desk.value('sync/run', {});
    const start = now();
    const order = await sentOrder('25');
    // A sync while the order is open (the app syncs every 15 s then) reads the balance with amount + fee gone.
    await desk.value('sync/run', {});
    await advance(order.userOrder, 'WithdrawRefund');
    await desk.value('sync/run', {});
    const report = await reconcile(start);
    const currency = report.currencies[0];
    expect(findings(report, 'refund')).toEqual([
      expect.objectContaining({
        explained: true,
        amount: '26.025',
        summary: `Withdrawal ${order.userOrder} was refunded: 26.025 trx.usdt (amount 25 trx.usdt + fee 1.025 trx.usdt) returned to the available balance.`,
        reference: expect.objectContaining({ kind: 'withdrawal', id: order.id, userOrder: order.userOrder }),
      }),
    ]);
    expect(currency?.balance).toMatchObject({ withdrawals: { count: 1, amount: '26.025' }, returned: { count: 1, amount: '26.025' }, change: '0', unexplained: '0' });
    expect(currency?.frozen).toMatchObject({ reported: '0', openOrders: { count: 0, amount: '0' }, difference: '0' });
    expect(currency?.ok).toBe(true);
  });

  it('a fee that differs from the currency table: flagged with the difference, while the balance still adds up', async () => {
    await desk.value('sync/run', {});
    const start = now();
    await anomaly({ kind: 'withdrawFee', merchantId, currency: 'trx.usdt', fee: '2.75', times: 1 });
    const order = await sentOrder('25');
    expect((await desk.value('withdrawals/get', { id: order.id })).fee).toBe('2.75');
    await desk.value('sync/run', {});
    const open = await reconcile(start);
    expect(open.currencies[0]?.frozen).toMatchObject({ reported: '27.75', openOrders: { count: 1, amount: '27.75' }, difference: '0' });
    await advance(order.userOrder, 'pendingTransfer', 'pendingCallback', 'success');
    await desk.value('sync/run', {});
    const report = await reconcile(start);
    expect(findings(report, 'feeDiffers')).toEqual([
      expect.objectContaining({
        explained: false,
        amount: '1.725',
        summary: `Withdrawal ${order.userOrder}: the platform charged a fee of 2.75 trx.usdt on 25 trx.usdt; the currency table gives 1.025 trx.usdt (+1.725).`,
      }),
    ]);
    expect(report.currencies[0]?.balance).toMatchObject({ withdrawals: { count: 1, amount: '27.75' }, change: '-27.75', unexplained: '0' });
  });

  it('a reading taken after the platform refunded an order the desk has not yet seen final waits for that order', async () => {
    await desk.value('sync/run', {});
    const start = now();
    const order = await sentOrder('30');
    await desk.value('sync/run', {});
    // The platform refunds the order; its callback goes nowhere and checkWithdrawOrder is busy, so the next sync reads
    // the balance with amount + fee back and the order still open, as a reading a second before the outcome arrives.
    const listener = (await desk.admin<{ callbackUrl: string }>('GET', `/merchants/${merchantId}`)).json.callbackUrl;
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { callbackUrl: 'http://127.0.0.1:9/unreachable' })).status).toBe(200);
    await advance(order.userOrder, 'WithdrawRefund');
    const fault = await desk.admin<{ fault: { id: number } }>('POST', '/faults', { endpoint: 'checkWithdrawOrder', merchantId, answer: { message: 'systemBusy' } });
    expect(fault.status).toBe(201);
    await desk.call('sync/run', {});
    const waiting = await reconcile(start);
    const pending = findings(waiting, 'awaitingOrder');
    expect(pending.map((finding) => finding.amount).sort()).toEqual(['-31.03', '31.03']);
    for (const finding of pending) {
      expect(finding).toMatchObject({ explained: true, reference: { kind: 'withdrawal', id: order.id, userOrder: order.userOrder } });
      expect(finding.summary).toMatch(new RegExp(`^Waiting for order ${order.userOrder} \\(sent at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\): the `));
    }
    expect(waiting.currencies[0]?.findings.filter((finding) => !finding.explained)).toEqual([]);
    expect(waiting).toMatchObject({ ok: true, unexplained: 0 });

    // Once the desk hears the outcome, the same readings add up.
    expect((await desk.admin('DELETE', `/faults/${fault.json.fault.id}`)).status).toBe(200);
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { callbackUrl: listener })).status).toBe(200);
    await desk.value('sync/run', {});
    const settled = await reconcile(start);
    expect(findings(settled, 'awaitingOrder')).toEqual([]);
    expect(findings(settled, 'refund')).toEqual([expect.objectContaining({ amount: '31.03' })]);
    expect(settled).toMatchObject({ ok: true, unexplained: 0 });
  });

  it('a balance changed by the admin API without a record: the exact amount, between the two readings', async () => {
    await desk.value('sync/run', {});
    const start = now();
    const balances = (await desk.admin<{ balances: { currency: string; available: string }[] }>('GET', `/merchants/${merchantId}`)).json.balances;
    const available = new Money(balances.find((balance) => balance.currency === 'trx.usdt')?.available ?? '0');
    const changed = formatMoney(available.plus('123.456789'));
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': changed } })).status).toBe(200);
    await desk.value('sync/run', {});
    const report = await reconcile(start);
    const [finding, ...others] = findings(report, 'unexplainedBalanceChange');
    expect(others).toEqual([]);
    expect(finding).toMatchObject({ explained: false, amount: '123.456789', reference: { kind: 'balance' } });
    expect(finding?.summary).toBe(
      `The available balance went from ${formatMoney(available)} trx.usdt to ${changed} trx.usdt (+123.456789) between two readings; the records account for 0, leaving +123.456789 trx.usdt unexplained.`,
    );
    expect(report.currencies[0]?.balance).toMatchObject({ change: '123.456789', expectedChange: '0', unexplained: '123.456789' });
    expect(report).toMatchObject({ ok: false, unexplained: 1 });
  });

  it('every currency with records, and a period that ends before it starts is refused', async () => {
    const all = await desk.value('reconcile/run', {});
    expect(all.currencies.map((currency) => currency.currency)).toEqual(['trx.usdt']);
    expect(all.from).toBeNull();
    const refused = await desk.call('reconcile/run', { from: now(), to: now() - 1 });
    expect(refused.ok ? null : refused.error.code).toBe('invalidInput');
  });
});
