// Everything the service says, through the engine against the real sandbox (issue 11, items 4-6): merchantInfo is kept
// and honoured (a financialConfirmation request without a bound auditor messenger, or a type the platform does not
// allow, is refused at request time with the reason and what to do, and so is a policy that would make every
// withdrawal fail); the order's remark and every field of its record reach the withdrawal view, and fields a verified
// record carries beyond the spec are kept and shown (PROTOCOL §8); a currency the service adds later appears in the
// currency table, balances and deposits, while withdrawals in it are refused.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TON_USDC } from '../../support/added-currency';
import { buildCallback, callbackKeys, postCallback } from './fixtures/callbacks';
import { SandboxState } from './fixtures/sandbox-state';
import { ADMIN, APPROVER, INITIATOR, openDesk, SECOND_ADMIN, tronAddress, type Desk } from './support';

let desk: Desk;
let merchantId: string;

beforeAll(async () => {
  desk = await openDesk();
  merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
});
afterAll(async () => desk?.close());

async function setFinancialConfirmation(on: boolean): Promise<void> {
  const change = await desk.value('policies/set', { currency: 'trx.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: on, as: ADMIN });
  if (!change.applied) await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
  expect((await desk.value('policies/list', {})).find((policy) => policy.currency === 'trx.usdt')?.useFinancialConfirmation).toBe(on);
}

async function requestCount(): Promise<number> {
  return (await desk.value('withdrawals/list', {})).rows.length;
}

describe('merchantInfo honoured', () => {
  it('warns that the platform settings are unknown until merchantInfo answers, then keeps its answer whole', async () => {
    expect((await desk.value('merchant/info', {})).merchant).toBeNull();
    const before = await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '10', toAddress: tronAddress() });
    expect(before.warnings.map((issue) => issue.message).join(' ')).toMatch(/withdrawal settings for this merchant are not known yet/);

    const report = await desk.value('selfcheck/run', {});
    const version = report.steps.find((step) => step.step === 'version');
    expect(version?.detail).toMatch(/protocol version 2/);
    expect(version?.detail).toContain(`, ${merchantId})`);
    const { merchant } = await desk.value('merchant/info', {});
    expect(merchant).toMatchObject({
      merchantId,
      apiVersion: 2,
      withdrawTypes: ['normal', 'financialConfirmation'],
      auditorMessengerBound: true,
      moreFields: {},
    });
    expect(merchant?.merchantName).not.toBe('');
    expect(version?.detail).toContain(merchant?.merchantName);
  });

  it('refuses a financialConfirmation request at request time when no messenger is bound, saying what to do', async () => {
    await setFinancialConfirmation(true);
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { auditorMessengerBound: false })).status).toBe(200);
    await desk.value('sync/run', {});
    expect((await desk.value('merchant/info', {})).merchant?.auditorMessengerBound).toBe(false);

    const toAddress = tronAddress();
    const preflight = await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '25', toAddress, withdrawType: 'financialConfirmation' });
    expect(preflight.ok).toBe(false);
    const issue = preflight.errors.find((candidate) => candidate.field === 'withdrawType');
    expect(issue?.message).toContain("financialConfirmation needs a messenger bound to the merchant's auditor");
    expect(issue?.message).toContain("bind one in the platform's merchant settings");
    expect(issue?.message).toContain('or use normal');

    const requests = await requestCount();
    const refused = await desk.call('withdrawals/request', { currency: 'trx.usdt', amount: '25', toAddress, withdrawType: 'financialConfirmation', as: INITIATOR });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('invalidInput');
    expect(refused.error.fields?.['withdrawType']).toContain('messenger bound');
    expect(await requestCount()).toBe(requests);

    // Binding a messenger on the platform (and syncing) lets the same request through.
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { auditorMessengerBound: true })).status).toBe(200);
    await desk.value('sync/run', {});
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '25', toAddress, withdrawType: 'financialConfirmation', as: INITIATOR });
    expect(withdrawal.withdrawType).toBe('financialConfirmation');
    await desk.value('withdrawals/cancel', { id: withdrawal.id, as: INITIATOR });
  });

  it('refuses a policy that would make every withdrawal fail, and leaves the policy in force unchanged', async () => {
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { auditorMessengerBound: false })).status).toBe(200);
    await desk.value('sync/run', {});
    await setFinancialConfirmation(false);
    const refused = await desk.call('policies/set', { currency: 'trx.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: true, as: ADMIN });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('invalidInput');
    expect(refused.error.message).toContain('the platform would refuse every withdrawal under this policy');
    expect(refused.error.fields?.['useFinancialConfirmation']).toContain('messenger bound');
    expect((await desk.value('operators/list', {})).proposals.filter((proposal) => proposal.kind === 'policy' && proposal.state === 'open')).toEqual([]);
    expect((await desk.value('policies/list', {})).find((policy) => policy.currency === 'trx.usdt')?.useFinancialConfirmation).toBe(false);
  });

  it('refuses a withdrawal type the platform does not allow this merchant', async () => {
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { withdrawTypes: ['financialConfirmation'], auditorMessengerBound: true })).status).toBe(200);
    await desk.value('sync/run', {});
    const preflight = await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '25', toAddress: tronAddress() });
    expect(preflight.errors.find((issue) => issue.field === 'withdrawType')?.message).toContain(
      'the platform does not allow normal withdrawals for this merchant (it allows: financialConfirmation)',
    );
    const policy = await desk.call('policies/set', { currency: 'trx.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: false, as: ADMIN });
    expect(policy.ok).toBe(false);
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { withdrawTypes: ['normal', 'financialConfirmation'] })).status).toBe(200);
    await desk.value('sync/run', {});
    expect((await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '25', toAddress: tronAddress() })).ok).toBe(true);
  });
});

describe('everything in the order record', () => {
  it("shows the platform's remark (a refund's reason) and every field of the record it reported", async () => {
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '40', toAddress: tronAddress(), memo: 'supplier 7', as: INITIATOR });
    await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    const sent = await desk.value('withdrawals/submit', { id: withdrawal.id, as: ADMIN });
    expect(sent.platformRecord).toMatchObject({ orderStatus: 'pendingConfirm', userOrder: withdrawal.userOrder });
    const reason = 'refunded: the destination is on a sanctions list (case 4471)';
    const moved = await desk.admin('POST', `/withdrawals/${merchantId}/${withdrawal.userOrder}/advance`, { to: 'WithdrawRefund', message: reason });
    expect(moved.status).toBe(200);
    await desk.value('sync/run', {});

    const view = await desk.value('withdrawals/get', { id: withdrawal.id });
    expect(view.outcome).toBe('WithdrawRefund');
    expect(view.platformMessage).toBe(reason);
    const { order } = (await desk.admin<{ order: Record<string, unknown> }>('GET', `/withdrawals/${merchantId}/${withdrawal.userOrder}`)).json;
    expect(view.platformRecord).toEqual(order);
    expect(Object.keys(view.platformRecord ?? {}).sort()).toEqual(
      ['amount', 'apiOrder', 'businessType', 'currency', 'fee', 'message', 'orderStatus', 'toAddress', 'txid', 'userOrder', 'withdrawType'],
    );
  });
});

describe('fields beyond the spec', () => {
  it('are kept from verified callbacks and shown: a deposit\'s more fields, and the whole order record', async () => {
    const state = new SandboxState(desk.sandbox.dataDir);
    const keys = (() => {
      try {
        return callbackKeys(merchantId, desk.sandbox.credentials.merchantPrivateKey, state.platformPrivateKey());
      } finally {
        state.close();
      }
    })();
    const listener = await desk.value('callbacks/start', { host: '127.0.0.1', port: 0 });
    const url = listener.url ?? '';
    const address = (await desk.value('addresses/create', { addressType: 'trx', as: INITIATOR })).address;

    const deposit = {
      businessType: 'deposit',
      txid: `f00d${'1'.repeat(60)}`,
      address,
      addressType: 'trx',
      fromAddress: tronAddress(),
      amount: '12.5',
      currency: 'trx.usdt',
      fee: '0.5',
      apiOrder: 'DPMOREFIELDS1',
      userOrder: 'more-fields',
      confirmations: 19,
      network: { name: 'TRC20', finality: 'solid' },
    };
    expect(await postCallback(url, buildCallback(keys, deposit))).toEqual({ status: 200, text: 'success' });
    const [stored] = (await desk.value('deposits/list', { search: 'DPMOREFIELDS1' })).rows;
    expect(stored?.moreFields).toEqual({ confirmations: 19, network: { finality: 'solid', name: 'TRC20' } });

    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '15', toAddress: tronAddress(), as: INITIATOR });
    await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    await desk.value('withdrawals/submit', { id: withdrawal.id, as: ADMIN });
    const { order } = (await desk.admin<{ order: Record<string, unknown> }>('GET', `/withdrawals/${merchantId}/${withdrawal.userOrder}`)).json;
    const moved = { ...order, orderStatus: 'pendingTransfer', message: 'queued for the 14:00 batch', batchId: 'B-2231' };
    expect(await postCallback(url, buildCallback(keys, moved))).toEqual({ status: 200, text: 'success' });
    const view = await desk.value('withdrawals/get', { id: withdrawal.id });
    expect(view.orderStatus).toBe('pendingTransfer');
    expect(view.platformMessage).toBe('queued for the 14:00 batch');
    expect(view.platformRecord).toEqual(moved);
    await desk.value('callbacks/stop', {});
  });
});

describe('a currency the service adds later', () => {
  it('appears in the currency table with its fees, minimums and decimals, marked as having no address rules', async () => {
    expect((await desk.admin('POST', '/currencies', TON_USDC)).status).toBe(201);
    const report = await desk.value('sync/run', {});
    expect(report.currencies).toBe(14);
    const currencies = await desk.value('currencies/list', {});
    expect(currencies.map((currency) => currency.symbol).slice(0, 2)).toEqual(['trx', 'trx.usdt']);
    const added = currencies.at(-1);
    expect(added).toMatchObject({
      symbol: 'ton.usdc',
      displayName: 'USDC on TON',
      serviceName: 'USDC on TON',
      decimals: 6,
      addressRules: false,
      depositMin: '1',
      depositPercentFee: '0.5',
      withdrawMin: '5',
      withdrawFixedFee: '0.5',
      moreFields: { decimals: 6 },
    });
    expect(added?.note).toMatch(/no address rules for ton\.usdc/);
    expect(currencies.find((currency) => currency.symbol === 'trx.usdt')).toMatchObject({ addressRules: true, note: null, decimals: 6 });
  });

  it('appears in balances and deposits once credited, exactly', async () => {
    const address = await desk.value('addresses/create', { addressType: 'ton', as: INITIATOR });
    const transfer = await desk.admin<{ credited: boolean }>('POST', '/transfers', { toAddress: address.address, currency: 'ton.usdc', amount: '1234.567891' });
    expect(transfer.json.credited).toBe(true);
    await desk.value('sync/run', {});
    // §9.6: fee = 0.5 % of 1234.567891 = 6.172839455, rounded half-up to 6 decimals; amount = gross - fee.
    const unknown = await desk.call('deposits/list', { currency: 'ton.dai' });
    expect(unknown.ok ? 'accepted' : unknown.error.message).toMatch(/ton\.dai is not a currency this desk knows or the service lists/);
    const deposits = await desk.value('deposits/list', { currency: 'ton.usdc' });
    expect(deposits.rows.map((deposit) => [deposit.currency, deposit.amount, deposit.fee])).toEqual([['ton.usdc', '1228.395052', '6.172839']]);
    const balance = (await desk.value('balances/list', {})).find((candidate) => candidate.currency === 'ton.usdc');
    expect(balance).toMatchObject({ available: '1228.395052', frozen: '0', displayName: 'USDC on TON', addressRules: false });
    expect(balance?.note).toMatch(/withdrawals in it are refused/);
  });

  it('is refused for withdrawals, with the reason, before anything is requested', async () => {
    const toAddress = `0:${randomBytes(32).toString('hex')}`;
    const preflight = await desk.value('withdrawals/preflight', { currency: 'ton.usdc', amount: '10', toAddress });
    expect(preflight.ok).toBe(false);
    expect(preflight.errors).toEqual([{ field: 'currency', message: expect.stringMatching(/no address rules for ton\.usdc/) as string }]);
    const requests = await requestCount();
    const refused = await desk.call('withdrawals/request', { currency: 'ton.usdc', amount: '10', toAddress, as: INITIATOR });
    expect(refused.ok ? 'accepted' : refused.error.code).toBe('invalidInput');
    expect(refused.ok ? '' : refused.error.message).toMatch(/no address rules for "ton\.usdc", so it cannot withdraw in it/);
    expect(await requestCount()).toBe(requests);
    const unlisted = await desk.value('withdrawals/preflight', { currency: 'ton.dai', amount: '10', toAddress });
    expect(unlisted.errors[0]?.message).toMatch(/not a currency this desk knows or the service lists/);
    // A policy for it cannot even be written: the policy editor only knows the currencies it can withdraw.
    const policy = await desk.call('policies/set', { currency: 'ton.usdc', thresholds: [], dailyLimit: null, useFinancialConfirmation: false, as: ADMIN });
    expect(policy.ok ? 'accepted' : policy.error.code).toBe('invalidInput');
  });
});
