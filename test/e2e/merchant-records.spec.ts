// E2E: everything the service says (issue 11, items 4-6). The connection screen shows the merchant name and API version
// merchantInfo reported; with no messenger bound to the merchant's auditor, a financialConfirmation withdrawal is
// refused at request time (the preflight says why and what to do, the request button stays off, nothing is requested)
// and so is a policy that turns financial confirmation on; the order detail shows the platform's remark (escaped,
// labelled as the service's) and every field of the order record; a currency the service adds later appears in the
// balances, the currency table with its fees and minimums, and the deposits, while a withdrawal in it is refused.
import { randomBytes } from 'node:crypto';
import { TON_USDC } from '../support/added-currency';
import { test, expect, type Desk } from './support/desk';
import { DEMO_DESK_WITHDRAWALS } from '../../electron/core/desk/demo-desk';
import { DEMO_ADMIN, DEMO_ADMIN_2, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

async function activeMerchantId(desk: Desk): Promise<string> {
  const profile = (await desk.value('profiles/list', {})).find((candidate) => candidate.active);
  if (profile === undefined) throw new Error('no active profile');
  return profile.merchantId;
}

test('with no messenger bound to the auditor, a financialConfirmation request is refused at request time, saying what to do', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const merchantId = await activeMerchantId(desk);
  const admin = sandboxAdmin(desk.demoSandbox().baseUrl);

  // The connection screen: the merchant as the service reports it.
  await go(page, 'profiles');
  const { merchant } = await desk.value('merchant/info', {});
  if (merchant === null) throw new Error('merchantInfo never answered during the demo start');
  const account = page.getByTestId('@merchant');
  await expect(account.getByTestId('@merchant/name')).toHaveText(merchant.merchantName);
  await expect(account.getByTestId('@merchant/id')).toHaveText(merchantId);
  await expect(account.getByTestId('@merchant/api-version')).toHaveText('2');
  await expect(account.getByTestId('@merchant/withdraw-types')).toHaveText('normal, financialConfirmation');
  await expect(account.getByTestId('@merchant/auditor-messenger')).toHaveText('bound');

  // eth.usdt withdrawals go through financial confirmation (both demo admins agree); then the platform unbinds the messenger.
  const change = await desk.value('policies/set', { currency: 'eth.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: true, as: DEMO_ADMIN });
  if (!change.applied) await desk.value('operators/confirm', { proposal: change.proposal.id, as: DEMO_ADMIN_2 });
  await admin.patchMerchant(merchantId, { auditorMessengerBound: false });
  await go(page, 'dashboard');
  await page.getByTestId('@dashboard/sync-button').click();
  await go(page, 'profiles');
  await expect(account.getByTestId('@merchant/auditor-messenger')).toHaveText('not bound');
  await expect(account.getByTestId('@merchant/messenger-warning')).toContainText("bind one in the platform's merchant settings");
  await expectAccessible(page, 'connection screen with the merchant account');
  await saveScreenshot(page, 'connection-merchant-account');

  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-request').click();
  await page.getByTestId('@withdrawals/currency').selectOption('eth.usdt');
  await page.getByTestId('@withdrawals/financial-confirmation').check();
  await page.getByTestId('@withdrawals/amount').fill('25');
  await page.getByTestId('@withdrawals/to-address').fill(`0x${randomBytes(20).toString('hex')}`);
  await expect(page.getByTestId('@withdrawals/preflight-verdict')).toHaveText(/Not possible as typed/);
  const refusal = page.getByTestId('@withdrawals/withdraw-type-error');
  await expect(refusal).toContainText("financialConfirmation needs a messenger bound to the merchant's auditor");
  await expect(refusal).toContainText("bind one in the platform's merchant settings");
  await expect(refusal).toContainText('or use normal');
  await expect(page.getByTestId('@withdrawals/request-button')).toBeDisabled();
  await expectAccessible(page, 'withdrawal request refused for a missing auditor messenger');
  await saveScreenshot(page, 'withdrawals-request-no-auditor-messenger');
  // Only the demo desk's own first-day withdrawals (core/desk/demo-desk.ts): nothing of this request was stored.
  expect((await desk.value('withdrawals/list', {})).rows.map((row) => row.memo).sort()).toEqual(DEMO_DESK_WITHDRAWALS.map((planned) => planned.memo).sort());

  // The policy editor refuses to turn financial confirmation on for another currency while no messenger is bound.
  await go(page, 'settings');
  await page.getByRole('button', { name: 'Edit the USDT on TRON policy' }).click();
  const editor = page.getByTestId('@settings/policy-editor');
  await expect(editor.getByTestId('@settings/platform-withdrawal-settings')).toContainText('is not bound to its auditor');
  await editor.getByTestId('@settings/policy-financial').check();
  await editor.getByTestId('@settings/policy-save').click();
  const dialog = page.getByTestId('@operator-dialog');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toContainText('the platform would refuse every withdrawal under this policy');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await desk.value('policies/list', {})).find((policy) => policy.currency === 'trx.usdt')?.useFinancialConfirmation).toBe(false);
});

test("the order's detail shows the platform's remark, escaped, and every field of the record it reported", async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const merchantId = await activeMerchantId(desk);
  const admin = sandboxAdmin(desk.demoSandbox().baseUrl);
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '30', toAddress: `0x${randomBytes(20).toString('hex')}`, as: DEMO_ADMIN });
  await desk.value('withdrawals/approve', { id: withdrawal.id, as: DEMO_APPROVER });
  await desk.value('withdrawals/submit', { id: withdrawal.id, as: DEMO_ADMIN });
  // The platform refunds it with a reason carrying a right-to-left override: shown as a mark, never acting on the text.
  await admin.advance(merchantId, withdrawal.userOrder, 'WithdrawRefund', 'refunded: compliance hold \u202Efdp.exe');
  await desk.value('sync/run', {});

  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-orders').click();
  await page.locator(`[data-testid="@withdrawals/order-row"][data-id="${withdrawal.id}"]`).getByRole('button', { name: /Details/ }).click();
  const detail = page.getByTestId('@withdrawals/detail');
  await expect(detail.getByTestId('@withdrawals/order-status')).toHaveText('WithdrawRefund');
  await expect(detail.getByTestId('@withdrawals/platform-message')).toHaveText('refunded: compliance hold ⟨U+202E⟩fdp.exe');
  await expect(detail).toContainText("Platform's remark");
  await expect(detail).toContainText('text from the service');

  const record = detail.getByTestId('@withdrawals/platform-record');
  await record.locator('summary').click();
  const view = await desk.value('withdrawals/get', { id: withdrawal.id });
  const fields = Object.entries(view.platformRecord ?? {});
  expect(fields.map(([name]) => name).sort()).toEqual(['amount', 'apiOrder', 'businessType', 'currency', 'fee', 'message', 'orderStatus', 'toAddress', 'txid', 'userOrder', 'withdrawType']);
  for (const [name, value] of fields) {
    const shown = value === '' ? '(empty)' : String(value).replace('\u202E', '⟨U+202E⟩');
    await expect(record.locator(`[data-field="${name}"] dd`)).toHaveText(shown);
  }
  await expectAccessible(page, 'withdrawal detail with the platform remark and record');
  await saveScreenshot(page, 'withdrawals-detail-platform-remark');
});

test('a currency the service adds later appears in balances, the currency table and deposits; a withdrawal in it is refused', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const admin = sandboxAdmin(desk.demoSandbox().baseUrl);
  await admin.addCurrency(TON_USDC);
  const address = await desk.value('addresses/create', { addressType: 'ton', as: DEMO_ADMIN });
  expect((await admin.transfer({ toAddress: address.address, currency: 'ton.usdc', amount: '100' })).credited).toBe(true);

  await page.getByTestId('@dashboard/sync-button').click();
  // 100 gross, 0.5 % deposit fee: 99.5 credited.
  const balance = page.getByTestId('@dashboard/balance-ton.usdc');
  await expect(balance).toContainText('USDC on TON');
  await expect(page.getByTestId('@dashboard/available-ton.usdc')).toHaveAttribute('data-value', '99.5');
  await expect(page.getByTestId('@dashboard/new-currency-ton.usdc')).toHaveText('new: no address rules yet');

  const row = page.getByTestId('@currencies/row-ton.usdc');
  await expect(row).toHaveAttribute('data-address-rules', 'false');
  await expect(row).toContainText('USDC on TON');
  await expect(row.locator('td').first()).toHaveText('6');
  await expect(page.getByTestId('@currencies/deposit-min-ton.usdc').locator('.amount')).toHaveAttribute('data-value', '1');
  await expect(page.getByTestId('@currencies/withdraw-min-ton.usdc').locator('.amount')).toHaveAttribute('data-value', '5');
  await expect(row).toContainText('0.5 %');
  await expect(page.getByTestId('@currencies/row-trx.usdt')).toHaveAttribute('data-address-rules', 'true');
  await expect(page.getByTestId('@currencies/new-note')).toContainText('the desk has no address rules for ton.usdc yet');
  await expect(page.getByTestId('@currencies/table').locator('tbody tr')).toHaveCount(14);
  await expectAccessible(page, 'dashboard with a currency added later');
  await saveScreenshot(page, 'dashboard-currency-added-later');
  await page.getByTestId('@currencies/new-note').scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'dashboard-currency-table');

  await go(page, 'deposits');
  await page.getByTestId('@deposits/currency-filter').selectOption('ton.usdc');
  await expect(page.getByTestId('@deposits/count')).toHaveText(/^1 deposit shown/);

  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-request').click();
  await page.getByTestId('@withdrawals/currency').selectOption('ton.usdc');
  await page.getByTestId('@withdrawals/amount').fill('10');
  await page.getByTestId('@withdrawals/to-address').fill(`0:${randomBytes(32).toString('hex')}`);
  await expect(page.getByTestId('@withdrawals/preflight-verdict')).toHaveText(/Not possible as typed/);
  await expect(page.getByTestId('@withdrawals/currency-error')).toContainText('the desk has no address rules for ton.usdc yet');
  await expect(page.getByTestId('@withdrawals/request-button')).toBeDisabled();
  await saveScreenshot(page, 'withdrawals-request-currency-added-later');
});
