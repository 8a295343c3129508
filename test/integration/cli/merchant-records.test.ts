// Everything the service says, through `treasury-desk` against the real sandbox (issue 11, items 4-6): `merchant` shows
// the merchant name and API version merchantInfo reported; a financialConfirmation withdrawal without a bound auditor
// messenger is refused at preflight and request time (nothing is requested), and so is such a policy; `withdraw
// status` shows the platform's remark and every field of the order record; a currency the service adds later is listed
// by `currencies` and `balances` with its note, its deposits by `deposits list`, and withdrawals in it are refused.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BalanceView, CurrencyView, DepositView, MerchantInfoView, Page, PolicyChangeView, WithdrawalView } from '../../../electron/contract';
import { TON_USDC } from '../../support/added-currency';
import { ADMIN, APPROVER, as, expectFailure, expectOk, INITIATOR, json, openCliDesk, SECOND_ADMIN, setUpDesk, tronAddress, type CliDesk } from './support';

let desk: CliDesk;
let merchantId: string;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
}, 60_000);
afterAll(async () => desk?.close());

async function withdrawalCount(): Promise<number> {
  return json<Page<WithdrawalView>>(expectOk(await desk.cli(['withdraw', 'list', '--json']))).rows.length;
}

describe('the merchant account', () => {
  it('says merchantInfo has not answered yet, then shows the merchant name and API version', async () => {
    expect(expectOk(await desk.cli(['merchant'])).stdout).toMatch(/merchantInfo has not answered for this profile yet: run "treasury-desk sync"/);
    expectOk(await desk.cli(['sync']));
    const text = expectOk(await desk.cli(['merchant'])).stdout;
    const { merchant } = json<{ merchant: MerchantInfoView }>(expectOk(await desk.cli(['merchant', '--json'])));
    expect(merchant).toMatchObject({ merchantId, apiVersion: 2, auditorMessengerBound: true });
    expect(text).toContain(`merchant           ${merchant.merchantName} (${merchantId})\n`);
    expect(text).toContain('API version        2\n');
    expect(text).toContain('withdrawal types   normal, financialConfirmation\n');
    expect(text).toContain('auditor messenger  bound\n');
  });
});

describe('merchantInfo honoured at request time', () => {
  it('refuses financialConfirmation without a bound auditor messenger, at preflight, request and policy change', async () => {
    const change = json<PolicyChangeView>(
      expectOk(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', '--financial-confirmation', '--as', ADMIN.name, '--json'], as(ADMIN))),
    );
    expectOk(await desk.cli(['operator', 'confirm', change.proposal.id, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { auditorMessengerBound: false })).status).toBe(200);
    expectOk(await desk.cli(['sync']));
    expect(expectOk(await desk.cli(['merchant'])).stdout).toContain('auditor messenger  not bound: financialConfirmation withdrawals are refused\n');

    const to = tronAddress();
    const withdrawal = ['--currency', 'trx.usdt', '--amount', '25', '--to', to, '--type', 'financialConfirmation'];
    const preflight = await desk.cli(['withdraw', 'preflight', ...withdrawal]);
    expect(preflight.code).toBe(2);
    expect(preflight.stdout).toContain("error: withdrawType: financialConfirmation needs a messenger bound to the merchant's auditor");
    expect(preflight.stderr).toMatch(/^treasury-desk: the withdrawal would be refused: withdrawType: financialConfirmation needs a messenger bound [^\n]*or use normal/);

    const before = await withdrawalCount();
    const refused = expectFailure(await desk.cli(['withdraw', 'request', ...withdrawal, '--as', INITIATOR.name], as(INITIATOR)), 2);
    expect(refused).toMatch(/^treasury-desk: invalidInput: the withdrawal cannot be requested: financialConfirmation needs a messenger bound to the merchant's auditor[^\n]*bind one in the platform's merchant settings/);
    expect(await withdrawalCount()).toBe(before);

    // Turning financial confirmation back off works; turning it on again is refused while no messenger is bound.
    const off = json<PolicyChangeView>(
      expectOk(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', '--no-financial-confirmation', '--as', ADMIN.name, '--json'], as(ADMIN))),
    );
    expectOk(await desk.cli(['operator', 'confirm', off.proposal.id, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', '--financial-confirmation', '--as', ADMIN.name], as(ADMIN)), 2)).toMatch(
      /^treasury-desk: invalidInput: the platform would refuse every withdrawal under this policy: financialConfirmation needs a messenger bound/,
    );
  });
});

describe('everything in the order record', () => {
  it("withdraw status shows the platform's remark and every field the service reported", async () => {
    const { withdrawal } = json<{ withdrawal: WithdrawalView }>(
      expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '30', '--to', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR))),
    );
    expectOk(await desk.cli(['withdraw', 'approve', withdrawal.id, '--as', APPROVER.name], as(APPROVER)));
    expectOk(await desk.cli(['withdraw', 'submit', withdrawal.id, '--as', ADMIN.name], as(ADMIN)));
    const reason = 'refunded: beneficiary bank rejected the transfer';
    expect((await desk.admin('POST', `/withdrawals/${merchantId}/${withdrawal.userOrder}/advance`, { to: 'WithdrawRefund', message: reason })).status).toBe(200);
    expectOk(await desk.cli(['sync']));

    const status = expectOk(await desk.cli(['withdraw', 'status', withdrawal.id])).stdout;
    expect(status).toContain(`platform's remark (text from the service): ${reason}\n`);
    const { order } = (await desk.admin<{ order: Record<string, string> }>('GET', `/withdrawals/${merchantId}/${withdrawal.userOrder}`)).json;
    const section = status.slice(status.indexOf('the order as the service last reported it (every field):\n'));
    for (const [field, value] of Object.entries(order)) expect(section).toContain(`  ${field}: ${value}\n`);
    expect(order['message']).toBe(reason);
    const view = json<WithdrawalView>(expectOk(await desk.cli(['withdraw', 'status', withdrawal.id, '--json'])));
    expect(view).toMatchObject({ platformMessage: reason, platformRecord: order, outcome: 'WithdrawRefund' });
  });
});

describe('a currency the service adds later', () => {
  it('is listed with its fees and a note, its deposits and balance shown, and withdrawals in it refused', async () => {
    expect((await desk.admin('POST', '/currencies', TON_USDC)).status).toBe(201);
    const address = json<{ address: string }>(expectOk(await desk.cli(['address', 'create', '--type', 'ton', '--as', INITIATOR.name, '--json'], as(INITIATOR))));
    expect((await desk.admin<{ credited: boolean }>('POST', '/transfers', { toAddress: address.address, currency: 'ton.usdc', amount: '20' })).json.credited).toBe(true);
    expect(expectOk(await desk.cli(['sync'])).stdout).toMatch(/^synced 14 currencies, 14 balances/);

    const currencies = expectOk(await desk.cli(['currencies'])).stdout;
    expect(currencies).toMatch(/^ton\.usdc \(new\)\s+USDC on TON\s+6\s+1\s+0 \+ 0\.5%, 0\.1\.\.50\s+5\s+0\.5 \+ 0%, 0\.5\.\.0$/m);
    expect(currencies).toContain('note: ton.usdc: the desk has no address rules for ton.usdc yet');
    expect(currencies).toContain('more fields of ton.usdc (sent by the service, not in the spec):\n  decimals: 6\n');
    expect(json<CurrencyView[]>(expectOk(await desk.cli(['currencies', '--json']))).at(-1)).toMatchObject({ symbol: 'ton.usdc', addressRules: false, decimals: 6 });

    // 20 gross, fee 0.5 % = 0.1 (the floor), credited 19.9.
    const balances = expectOk(await desk.cli(['balances'])).stdout;
    expect(balances).toMatch(/^ton\.usdc \(new\)\s+USDC on TON\s+19\.9\s+0\s/m);
    expect(json<BalanceView[]>(expectOk(await desk.cli(['balances', '--json']))).find((balance) => balance.currency === 'ton.usdc')).toMatchObject({ available: '19.9', addressRules: false });
    const deposits = json<Page<DepositView>>(expectOk(await desk.cli(['deposits', 'list', '--currency', 'ton.usdc', '--json'])));
    expect(deposits.rows.map((deposit) => [deposit.currency, deposit.amount, deposit.fee])).toEqual([['ton.usdc', '19.9', '0.1']]);

    const to = `0:${randomBytes(32).toString('hex')}`;
    const preflight = await desk.cli(['withdraw', 'preflight', '--currency', 'ton.usdc', '--amount', '5', '--to', to]);
    expect(preflight.code).toBe(2);
    expect(preflight.stderr).toMatch(/^treasury-desk: the withdrawal would be refused: currency: the desk has no address rules for ton\.usdc yet/);
    const before = await withdrawalCount();
    // Refused before any passphrase is asked (none is given here).
    expect(expectFailure(await desk.cli(['withdraw', 'request', '--currency', 'ton.usdc', '--amount', '5', '--to', to, '--as', INITIATOR.name]), 2)).toMatch(
      /^treasury-desk: invalidInput: --currency: this desk has no address rules for "ton\.usdc", so it cannot withdraw in it/,
    );
    expect(await withdrawalCount()).toBe(before);
  });
});
