// E2E: the withdrawal desk — a request with live preflight, approval by a second operator (the initiator cannot
// approve), submission, the service moving the order to success with the timeline following by callback, and the
// look-alike warning marking the characters that differ from an address paid before.
import { randomBytes } from 'node:crypto';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

test('a request approved by a second operator is submitted and reaches success', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const [profile] = (await desk.value('profiles/list', {})).filter((candidate) => candidate.active);
  if (profile === undefined) throw new Error('no active profile');
  const admin = sandboxAdmin(desk.demoSandbox().baseUrl);
  const listener = await desk.value('callbacks/start', { port: 0 });
  await admin.patchMerchant(profile.merchantId, { callbackUrl: listener.url });

  const destination = `0x${randomBytes(20).toString('hex')}`;
  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-request').click();
  await page.getByTestId('@withdrawals/currency').selectOption('eth.usdt');
  await page.getByTestId('@withdrawals/amount').fill('25.5');
  await page.getByTestId('@withdrawals/to-address').fill(destination);
  const preflight = page.getByTestId('@withdrawals/preflight');
  await expect(page.getByTestId('@withdrawals/preflight-verdict')).toHaveText(/Ready to request/);
  await expect(page.getByTestId('@withdrawals/preflight-fee')).toHaveText(/\d/);
  await expect(page.getByTestId('@withdrawals/preflight-received')).toContainText('25.5');
  await expect(page.getByTestId('@withdrawals/preflight-minimum')).toHaveText(/\d/);
  await expect(page.getByTestId('@withdrawals/preflight-balance-after')).toHaveText(/\d/);
  await expect(page.getByTestId('@withdrawals/destination-history')).toContainText('never paid');
  await expect(preflight).toContainText('Approvals required');
  await expectAccessible(page, 'withdrawal request with preflight');
  await saveScreenshot(page, 'withdrawals-request-preflight');

  // A field error comes back next to its field.
  await page.getByTestId('@withdrawals/amount').fill('25.1234567');
  await expect(page.getByTestId('@withdrawals/amount-error')).toContainText('decimal');
  await page.getByTestId('@withdrawals/amount').fill('25.5');
  await expect(page.getByTestId('@withdrawals/preflight-verdict')).toHaveText(/Ready to request/);

  await page.getByTestId('@withdrawals/request-button').click();
  await actAs(page, DEMO_ADMIN);
  await expect(page.getByTestId('@withdrawals/request-created')).toBeVisible();
  const [request] = (await desk.value('withdrawals/list', { state: 'awaitingApproval' })).rows;
  if (request === undefined) throw new Error('the request is not awaiting approval');

  await page.getByTestId('@withdrawals/tab-queue').click();
  const item = page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${request.id}"]`);
  await expect(item).toContainText('25.5');

  // The initiator can never approve their own request.
  await item.getByTestId('@withdrawals/approve-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toHaveAttribute('data-code', 'forbidden');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_APPROVER.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_APPROVER.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog).toBeHidden();

  await expect(item.getByTestId('@withdrawals/state')).toHaveText(/Approved, not yet sent/);
  await expectAccessible(page, 'approvals queue');
  await saveScreenshot(page, 'withdrawals-approvals-queue');
  await item.getByTestId('@withdrawals/submit-button').click();
  await page.getByTestId('@withdrawals/tab-orders').click();
  const detail = page.getByTestId('@withdrawals/detail');
  await page.locator(`[data-testid="@withdrawals/order-row"][data-id="${request.id}"]`).getByRole('button', { name: /Details/ }).click();
  await expect(detail.getByTestId('@withdrawals/order-status')).toHaveText('pendingConfirm');

  // The platform moves the order along; each status arrives by verified callback.
  for (const status of ['pendingTransfer', 'pendingCallback', 'success']) {
    await admin.advance(profile.merchantId, request.userOrder, status);
    await expect(detail.getByTestId('@withdrawals/order-status')).toHaveText(status);
  }
  await expect(detail.getByTestId('@withdrawals/outcome')).toHaveText('Paid out');
  const timeline = detail.getByTestId('@withdrawals/timeline');
  for (const entry of ['Requested', 'Approved', 'pendingConfirm', 'pendingTransfer', 'pendingCallback', 'success']) await expect(timeline).toContainText(entry);
  await expect(timeline).toContainText('by demo-approver');
  await expectAccessible(page, 'withdrawal detail with timeline');
  await saveScreenshot(page, 'withdrawals-detail-success');

  // A look-alike of the address just paid: same first and last characters, a different middle.
  const middle = destination.slice(20, 22) === 'ff' ? '00' : 'ff';
  const lookAlike = `${destination.slice(0, 20)}${middle}${destination.slice(22)}`;
  await page.getByTestId('@withdrawals/tab-request').click();
  await page.getByTestId('@withdrawals/currency').selectOption('eth.usdt');
  await page.getByTestId('@withdrawals/amount').fill('10');
  await page.getByTestId('@withdrawals/to-address').fill(lookAlike);
  const warning = page.getByTestId('@withdrawals/lookalike');
  await expect(warning).toBeVisible();
  const typedMarks = await page.getByTestId('@withdrawals/lookalike-typed').locator('mark').allTextContents();
  const knownMarks = await page.getByTestId('@withdrawals/lookalike-known').locator('mark').allTextContents();
  const differing = [20, 21].filter((index) => lookAlike[index] !== destination[index]);
  expect(typedMarks.join('')).toBe(differing.map((index) => lookAlike[index]).join(''));
  expect(knownMarks.join('')).toBe(differing.map((index) => destination[index]).join(''));
  await expectAccessible(page, 'withdrawal request with a look-alike warning');
  await saveScreenshot(page, 'withdrawals-lookalike-warning');
});
