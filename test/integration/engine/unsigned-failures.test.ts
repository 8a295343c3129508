// Unsigned failures are not trusted (issue 11, item 7). A failure envelope's message is not signed (PROTOCOL §3.3
// signs ""), so an attacker on the path can take the signed headers of any failure the service sent and put any
// message under them. Here a proxy between desk and sandbox answers createWithdrawOrder with such a replayed
// envelope: the request stays "submission unknown" (no cancel, no new submit) until checkWithdrawOrder decides; an
// order that was in fact created is found and tracked, and only a confirmed absence makes the request refused, after
// which it may be cancelled or sent again with the same userOrder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../../electron/protocol/profile';
import { RawMerchant } from '../../support/raw-merchant';
import type { FaultProxy, WireAnswer } from './fixtures/fault-proxy';
import { openProxiedDesk, type ProxiedDesk } from './fixtures/proxied-desk';
import type { SandboxState } from './fixtures/sandbox-state';
import { ADMIN, APPROVER, INITIATOR, tronAddress, type Desk } from './support';

let proxied: ProxiedDesk | undefined;
let desk: Desk;
let proxy: FaultProxy;
let sandboxState: SandboxState;
let merchantId: string;
let raw: RawMerchant;

beforeAll(async () => {
  proxied = await openProxiedDesk('5000');
  ({ desk, proxy, sandboxState, merchantId } = proxied);
  raw = new RawMerchant(desk.sandbox.credentials);
  await raw.getToken();
});

afterAll(async () => {
  await proxied?.close();
});

interface ApprovedRequest {
  readonly id: string;
  readonly userOrder: string;
  readonly toAddress: string;
}

async function approvedRequest(amount: string): Promise<ApprovedRequest> {
  const toAddress = tronAddress();
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress, as: INITIATOR });
  expect((await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER })).state).toBe('approved');
  return { id: withdrawal.id, userOrder: withdrawal.userOrder, toAddress };
}

/**
 * A genuine signed failure envelope the desk never saw (the service's answer to someone asking for an order that
 * does not exist), with its unsigned message swapped for `message`: the signature still verifies.
 */
async function replayedFailure(message: string): Promise<WireAnswer> {
  const genuine = await raw.call(PATHS.checkWithdrawOrder, { userOrder: `nobody-${Date.now()}` });
  expect(genuine.envelope).toEqual({ code: 9999, data: '', message: 'withdrawOrderNotExist' });
  expect(genuine.verified).toBe(true);
  const body = Buffer.from(JSON.stringify({ code: 9999, data: '', message }), 'utf8');
  return { status: 200, headers: genuine.headers, body };
}

async function auditActions(userOrder: string): Promise<string[]> {
  const page = await desk.value('audit/list', { limit: 200 });
  return page.rows.filter((row) => row.subject === userOrder).map((row) => row.action).reverse();
}

describe('a replayed failure envelope answering createWithdrawOrder', () => {
  it('over an order the service did create: the order is found by checkWithdrawOrder and the request is never cancellable', async () => {
    const request = await approvedRequest('12');
    // The create reaches the service (which creates the order); the desk gets "insufficientBalance" instead.
    proxy.replaceNextAnswer(PATHS.createWithdrawOrder, await replayedFailure('insufficientBalance'), { forward: true });

    const submitted = await desk.value('withdrawals/submit', { id: request.id, as: INITIATOR });
    expect(submitted).toMatchObject({ state: 'submitted', orderStatus: 'pendingConfirm', lastError: null });
    expect(submitted.apiOrder).toMatch(/^WD/);
    const creates = proxy.eventsFor(PATHS.createWithdrawOrder).slice(-1);
    expect(creates[0]).toMatchObject({ upstreamStatus: 200 });
    expect(creates[0]?.replacedAt).toBeDefined();
    // Never refused: the failure answer was held as unknown, and the check found the order.
    expect(await auditActions(request.userOrder)).toEqual(['withdrawals/failureAnswered', 'withdrawals/status', 'withdrawals/accepted']);

    const cancel = await desk.call('withdrawals/cancel', { id: request.id, as: INITIATOR });
    expect(cancel).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(sandboxState.ordersTo(merchantId, request.toAddress)).toEqual([expect.objectContaining({ userOrder: request.userOrder, status: 'pendingConfirm' })]);
    expect(desk.sandbox.checkInvariant().ok).toBe(true);
  });

  it('with no order and the check unanswered: submission unknown, neither cancellable nor sendable, until checkWithdrawOrder confirms no order', async () => {
    const request = await approvedRequest('13');
    // The create never reaches the service; the answers to the checks that follow are lost (three tries of a read).
    proxy.replaceNextAnswer(PATHS.createWithdrawOrder, await replayedFailure('withdrawMinAmount'), { forward: false });
    for (let i = 0; i < 3; i += 1) proxy.dropNextAnswer(PATHS.checkWithdrawOrder);

    const result = await desk.call('withdrawals/submit', { id: request.id, as: INITIATOR });
    expect(result).toMatchObject({ ok: false, error: { code: 'ambiguous' } });
    const unknown = await desk.value('withdrawals/get', { id: request.id });
    expect(unknown).toMatchObject({ state: 'submitUnknown', orderStatus: null });
    expect(unknown.lastError).toMatch(/^the service answered "withdrawMinAmount" \(not yet confirmed: a failure answer is not signed/);
    // Nothing may be decided while it is unknown: no cancel (by the initiator or an admin), no second submission.
    for (const as of [INITIATOR, ADMIN]) {
      const cancel = await desk.call('withdrawals/cancel', { id: request.id, as });
      expect(cancel).toMatchObject({ ok: false, error: { code: 'conflict' } });
    }
    expect((await desk.value('withdrawals/list', { state: 'submitUnknown' })).rows.map((row) => row.id)).toContain(request.id);
    expect(sandboxState.ordersTo(merchantId, request.toAddress)).toEqual([]);

    // The next sync asks again; the service says no such order exists: now the refusal stands.
    const report = await desk.value('sync/run', {});
    expect(report.withdrawalsChecked).toBeGreaterThanOrEqual(1);
    const refused = await desk.value('withdrawals/get', { id: request.id });
    expect(refused.state).toBe('submitFailed');
    expect(refused.lastError).toBe('the service answered "withdrawMinAmount", and checkWithdrawOrder confirmed that no order exists');
    expect(await auditActions(request.userOrder)).toEqual(['withdrawals/failureAnswered', 'withdrawals/submitFailed']);

    // Sent again: the same userOrder, one order at the service.
    const resent = await desk.value('withdrawals/submit', { id: request.id, as: INITIATOR });
    expect(resent).toMatchObject({ state: 'submitted', userOrder: request.userOrder, orderStatus: 'pendingConfirm', lastError: null });
    expect(sandboxState.ordersTo(merchantId, request.toAddress)).toEqual([expect.objectContaining({ userOrder: request.userOrder })]);
    expect(desk.sandbox.checkInvariant().ok).toBe(true);
  });

  it('with no order and the check answered at once: the submission fails with the reason, and the request can then be cancelled', async () => {
    const request = await approvedRequest('14');
    proxy.replaceNextAnswer(PATHS.createWithdrawOrder, await replayedFailure('insufficientBalance'), { forward: false });

    const result = await desk.call('withdrawals/submit', { id: request.id, as: INITIATOR });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/insufficientBalance/);
    const checks = proxy.eventsFor(PATHS.checkWithdrawOrder).filter((event) => event.receivedAt > (proxy.eventsFor(PATHS.createWithdrawOrder).at(-1)?.receivedAt ?? Infinity));
    expect(checks.length).toBeGreaterThanOrEqual(1);
    expect(await desk.value('withdrawals/get', { id: request.id })).toMatchObject({ state: 'submitFailed' });

    const cancelled = await desk.value('withdrawals/cancel', { id: request.id, as: INITIATOR, reason: 'refused by the service' });
    expect(cancelled.state).toBe('cancelled');
    expect(sandboxState.ordersTo(merchantId, request.toAddress)).toEqual([]);
    expect((await desk.value('audit/verify', {})).ok).toBe(true);
  });
});
