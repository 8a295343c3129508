// Network faults around a withdrawal submission (ARCHITECTURE rule 5): an answer lost after the service committed
// the order is treated as ambiguous and resolved by checkWithdrawOrder (never a second create); a service that cannot
// be reached before sending leaves the request approved with the reason; in every case the sandbox holds exactly one
// order per request and its ledger invariant holds. A loopback proxy between engine and sandbox injects the faults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../../electron/chains';
import { PATHS } from '../../../electron/protocol/profile';
import type { FaultProxy } from './fixtures/fault-proxy';
import { openProxiedDesk, type ProxiedDesk } from './fixtures/proxied-desk';
import type { SandboxState } from './fixtures/sandbox-state';
import { APPROVER, INITIATOR, tronAddress, type Desk } from './support';

let proxied: ProxiedDesk | undefined;
let desk: Desk;
let proxy: FaultProxy;
let sandboxState: SandboxState;
let merchantId: string;

beforeAll(async () => {
  proxied = await openProxiedDesk('5000');
  ({ desk, proxy, sandboxState, merchantId } = proxied);
});

afterAll(async () => {
  await proxied?.close();
});

interface ApprovedRequest {
  readonly id: string;
  readonly userOrder: string;
  readonly toAddress: string;
  readonly fingerprint: string | null;
}

async function approvedRequest(amount = '10'): Promise<ApprovedRequest> {
  const toAddress = tronAddress();
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress, as: INITIATOR });
  const approved = await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
  expect(approved.state).toBe('approved');
  return { id: withdrawal.id, userOrder: withdrawal.userOrder, toAddress, fingerprint: withdrawal.fingerprint };
}

/** The request's audit rows: desk events name its userOrder; signed decisions name its intent (and carry its fingerprint). */
async function auditActions(request: ApprovedRequest): Promise<string[]> {
  const page = await desk.value('audit/list', { limit: 200 });
  const fingerprintOf = (details: unknown): unknown => (details !== null && typeof details === 'object' ? (details as { fingerprint?: unknown }).fingerprint : undefined);
  return page.rows.filter((row) => row.subject === request.userOrder || fingerprintOf(row.details) === request.fingerprint).map((row) => row.action);
}

describe('the create answer lost after the service committed the order', () => {
  it('is handled as ambiguous and resolved by checkWithdrawOrder: one order, request submitted', async () => {
    const request = await approvedRequest('10');
    const before = proxy.events.length;
    proxy.dropNextAnswer(PATHS.createWithdrawOrder);

    const submitted = await desk.value('withdrawals/submit', { id: request.id, as: INITIATOR });
    expect(submitted).toMatchObject({ state: 'submitted', orderStatus: 'pendingConfirm', lastError: null });
    expect(submitted.apiOrder).toMatch(/^WD/);

    const traffic = proxy.events.slice(before);
    const creates = traffic.filter((event) => event.path === PATHS.createWithdrawOrder);
    // Exactly one create left the desk: the service answered it (HTTP 200) and the proxy threw the answer away.
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({ upstreamStatus: 200 });
    expect(creates[0]?.droppedAt).toBeDefined();
    // The ambiguity was resolved by asking, after the lost answer.
    const checks = traffic.filter((event) => event.path === PATHS.checkWithdrawOrder);
    expect(checks.length).toBeGreaterThanOrEqual(1);
    expect(checks[0]?.receivedAt).toBeGreaterThan(creates[0]?.droppedAt ?? Infinity);
    expect(await auditActions(request)).toEqual(expect.arrayContaining(['withdrawals/submit', 'withdrawals/ambiguous', 'withdrawals/accepted']));

    const orders = sandboxState.ordersTo(merchantId, request.toAddress);
    expect(orders).toEqual([expect.objectContaining({ userOrder: request.userOrder, status: 'pendingConfirm', amount: '10' })]);
    // Funds were frozen once: amount + fee of that single order.
    await desk.value('sync/run', {});
    const balance = (await desk.value('balances/list', {})).find((entry) => entry.currency === 'trx.usdt');
    const order = orders[0];
    expect(balance?.frozen).toBe(new Money(order?.amount ?? '0').plus(new Money(order?.fee ?? '0')).toFixed());
    expect(desk.sandbox.checkInvariant()).toMatchObject({ ok: true, violations: [] });
  });

  it('stays submitting, answers `ambiguous`, and is resolved by the next sync when the check cannot be answered either', async () => {
    const request = await approvedRequest('20');
    proxy.dropNextAnswer(PATHS.createWithdrawOrder);
    // checkWithdrawOrder is a read: the client tries it three times (RETRY_MAX_ATTEMPTS); lose all three answers.
    for (let i = 0; i < 3; i += 1) proxy.dropNextAnswer(PATHS.checkWithdrawOrder);

    const result = await desk.call('withdrawals/submit', { id: request.id, as: INITIATOR });
    expect(result).toMatchObject({ ok: false, error: { code: 'ambiguous' } });
    if (!result.ok) expect(result.error.message).toMatch(/do not create a new request/);
    expect(await desk.value('withdrawals/get', { id: request.id })).toMatchObject({ state: 'submitting', orderStatus: null });
    // The order exists on the service already; the desk does not know it yet and has not created another.
    expect(sandboxState.ordersTo(merchantId, request.toAddress)).toHaveLength(1);

    const report = await desk.value('sync/run', {});
    expect(report.withdrawalsAdvanced).toBeGreaterThanOrEqual(1);
    expect(await desk.value('withdrawals/get', { id: request.id })).toMatchObject({ state: 'submitted', orderStatus: 'pendingConfirm' });
    expect(sandboxState.ordersTo(merchantId, request.toAddress)).toEqual([expect.objectContaining({ userOrder: request.userOrder })]);
    expect(desk.sandbox.checkInvariant().ok).toBe(true);
  });
});

describe('the service unreachable before sending', () => {
  it('puts the request back to approved with the reason; a later submit succeeds with one order', async () => {
    const request = await approvedRequest('30');
    await proxy.stopListening();
    // Let the client notice its pooled connections were closed, so the next request has to connect (and is refused).
    await new Promise((resolve) => setTimeout(resolve, 100));

    const refused = await desk.call('withdrawals/submit', { id: request.id, as: INITIATOR });
    expect(refused).toMatchObject({ ok: false, error: { code: 'offline' } });
    const after = await desk.value('withdrawals/get', { id: request.id });
    expect(after.state).toBe('approved');
    expect(after.lastError).toMatch(/refused|nothing was sent/);
    expect(sandboxState.ordersTo(merchantId, request.toAddress)).toEqual([]);
    expect(await auditActions(request)).not.toContain('withdrawals/ambiguous');

    await proxy.listen();
    const submitted = await desk.value('withdrawals/submit', { id: request.id, as: INITIATOR });
    expect(submitted).toMatchObject({ state: 'submitted', orderStatus: 'pendingConfirm', lastError: null });
    expect(sandboxState.ordersTo(merchantId, request.toAddress)).toEqual([expect.objectContaining({ userOrder: request.userOrder })]);
    expect(sandboxState.duplicatedDestinations(merchantId)).toEqual([]);
    expect(desk.sandbox.checkInvariant().ok).toBe(true);
    expect((await desk.value('audit/verify', {})).ok).toBe(true);
  });
});
