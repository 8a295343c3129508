// E2E: the withdrawal desk — a request with live preflight and its fingerprint, approval by a second operator who sees
// the same fingerprint in the approve dialog as in the request's detail (the initiator cannot approve), the approval
// counted toward four-eyes, submission as a named operator, the service moving the order to success with the timeline
// following by callback, and the look-alike warning marking the characters that differ from an address paid before;
// a request altered in the database after approval, whose detail lists the problems and which is never sent; and on a
// single-admin desk an approval that does not count toward four-eyes, with the reason.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { DEMO_SEED } from '../../electron/sandbox';
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
  // An address that fails the chain rules is neither "paid before" nor checked by the service (issue 22, part 2).
  await page.getByTestId('@withdrawals/to-address').fill('0x1234');
  await expect(page.getByTestId('@withdrawals/destination-history')).toHaveText('not judged: the address fails the chain rules');
  await expect(page.getByTestId('@withdrawals/preflight-service-check')).toHaveText('not asked: the address fails the chain rules');
  await expect(page.getByText('Memo (optional, sent to the service with the order as its remark)')).toBeVisible();
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
  // The request's confirmation shows its fingerprint, for the initiator to pass on to the approvers.
  expect(request.fingerprint).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  const fingerprint = request.fingerprint ?? '';
  await expect(page.getByTestId('@withdrawals/request-fingerprint')).toHaveText(fingerprint);

  await page.getByTestId('@withdrawals/tab-queue').click();
  const item = page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${request.id}"]`);
  await expect(item).toContainText('25.5');
  await expect(item.getByTestId('@withdrawals/queue-fingerprint')).toHaveText(fingerprint);
  await expect(item.getByTestId('@withdrawals/queue-counted')).toHaveText('0 of 1 independent approval');

  // The request's detail shows the fingerprint, and what its signed statements support so far.
  await item.getByTestId('@withdrawals/details-button').click();
  const detail = page.getByTestId('@withdrawals/detail');
  await expect(detail).toHaveAttribute('data-id', request.id);
  const detailFingerprint = (await detail.getByTestId('@withdrawals/detail-fingerprint').textContent()) ?? '';
  expect(detailFingerprint).toBe(fingerprint);
  await expect(detail.getByTestId('@withdrawals/verification')).toHaveAttribute('data-ok', 'false');
  await expect(detail.getByTestId('@withdrawals/verification')).toContainText('Not approved yet');

  // The initiator can never approve their own request.
  await item.getByTestId('@withdrawals/approve-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  // The approver sees the same fingerprint in the dialog as in the request's detail.
  await expect(dialog.getByTestId('@operator-dialog/fingerprint')).toHaveText(detailFingerprint);
  await expectAccessible(page, 'approve dialog with the fingerprint');
  await saveScreenshot(page, 'withdrawals-approve-dialog-fingerprint');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toHaveAttribute('data-code', 'forbidden');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_APPROVER.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_APPROVER.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog).toBeHidden();

  await expect(item.getByTestId('@withdrawals/state')).toHaveText(/Approved, not yet sent/);
  // demo-approver was invited by one founder and confirmed by the other: independent of demo-admin, so it counts.
  await expect(item.getByTestId('@withdrawals/queue-counted')).toHaveText('1 of 1 independent approval');
  const approval = detail.locator('[data-testid="@withdrawals/approval"][data-operator="demo-approver"]');
  await expect(approval).toHaveAttribute('data-counts', 'true');
  await expect(approval).toContainText('counts');
  await expect(detail.getByTestId('@withdrawals/verification')).toHaveAttribute('data-ok', 'true');
  await expectAccessible(page, 'approvals queue');
  await saveScreenshot(page, 'withdrawals-approvals-queue');

  // Sending is a decision too: a named operator, passphrase-checked, with the fingerprint in front of them.
  await item.getByTestId('@withdrawals/submit-button').click();
  await expect(dialog.getByTestId('@operator-dialog/fingerprint')).toHaveText(fingerprint);
  await actAs(page, DEMO_ADMIN);
  // The order leaves the queue, and the queue says where it went (issue 22 part 2), leading to it.
  const sent = page.getByTestId('@withdrawals/sent-notice');
  await expect(sent).toContainText(`Sent to the service by ${DEMO_ADMIN.operator}`);
  await expect(sent).toContainText(request.userOrder);
  await expect(sent).toContainText('now “At the service”');
  await expect(page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${request.id}"]`)).toHaveCount(0);
  await expectAccessible(page, 'approvals queue after a send');
  await sent.getByTestId('@withdrawals/sent-show').click();
  await expect(page.getByTestId('@withdrawals/sent-notice')).toHaveCount(0);
  await expect(detail).toHaveAttribute('data-id', request.id);
  await expect(detail.getByTestId('@withdrawals/order-status')).toHaveText('pendingConfirm');

  // The platform moves the order along; each status arrives by verified callback.
  for (const status of ['pendingTransfer', 'pendingCallback', 'success']) {
    await admin.advance(profile.merchantId, request.userOrder, status);
    await expect(detail.getByTestId('@withdrawals/order-status')).toHaveText(status);
  }
  await expect(detail.getByTestId('@withdrawals/outcome')).toHaveText('Paid out');
  const timeline = detail.getByTestId('@withdrawals/timeline');
  // Plain headings, who requested, approved and sent it (the sender from its signed submit statement).
  for (const entry of ['Requested', 'Approved', 'Sent to the service', 'Accepted by the service', 'Transfer under way', 'Transfer done, final notice pending', 'Paid out']) {
    await expect(timeline).toContainText(entry);
  }
  expect(await timeline.locator('.timeline__title').allTextContents()).not.toContain('pendingConfirm');
  await expect(timeline).toContainText('by demo-approver');
  await expect(timeline.locator('li', { hasText: 'Sent to the service' })).toContainText(`by ${DEMO_ADMIN.operator}`);
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

test('a request altered in the database after approval shows why its statements do not support it, and is not sent', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '30', toAddress: `0x${randomBytes(20).toString('hex')}`, as: DEMO_ADMIN });
  await desk.value('withdrawals/approve', { id: withdrawal.id, as: DEMO_APPROVER });
  // Someone with the database file raises the amount after the approval (as an attacker with the file would).
  const db = new Database(desk.harness.dbPath);
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare("UPDATE withdrawal_requests SET amount = '14000' WHERE id = ?").run(Number(withdrawal.id));
  } finally {
    db.close();
  }

  await go(page, 'withdrawals');
  const item = page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${withdrawal.id}"]`);
  await expect(item).toContainText('14,000');
  await expect(item.getByTestId('@withdrawals/queue-unverified')).toBeVisible();
  await item.getByTestId('@withdrawals/details-button').click();
  const detail = page.getByTestId('@withdrawals/detail');
  await expect(detail.getByTestId('@withdrawals/detail-fingerprint')).toHaveText(withdrawal.fingerprint ?? '');
  await expect(detail.getByTestId('@withdrawals/verification')).toHaveAttribute('data-ok', 'false');
  await expect(detail.getByTestId('@withdrawals/verification-problems')).toContainText('differs from what demo-admin signed (amount)');
  await expectAccessible(page, 'withdrawal detail with verification problems');
  await saveScreenshot(page, 'withdrawals-detail-unverified');

  // Sending is refused: the desk says which statement does not hold, and nothing reaches the service.
  await item.getByTestId('@withdrawals/submit-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog.getByTestId('@operator-dialog/fingerprint')).toHaveText(withdrawal.fingerprint ?? '');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toHaveAttribute('data-code', 'unverified');
  await expect(dialog.getByTestId('@operator-dialog/error')).toContainText('amount');
  await saveScreenshot(page, 'withdrawals-submit-unverified');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await desk.value('withdrawals/get', { id: withdrawal.id })).apiOrder).toBeNull();
});

test('on a single-admin desk an approval by an operator that admin enrolled alone does not count, and says why', async ({ page, desk }) => {
  const sandbox = await desk.startSandbox({ seed: DEMO_SEED });
  await desk.value('profiles/importFile', { name: 'main', path: sandbox.credentialsPath });
  const alice = { operator: 'alice', passphrase: 'alice passphrase 1' };
  const bob = { operator: 'bob', passphrase: 'bob passphrase 22' };
  await desk.value('operators/found', { admins: [alice] });
  const invitation = await desk.value('operators/invite', { name: bob.operator, role: 'approver', as: alice });
  expect(invitation.needsConfirmation).toBe(false);
  await desk.value('operators/accept', { name: bob.operator, code: invitation.code, passphrase: bob.passphrase });
  await desk.value('sync/run', { full: true });
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '30', toAddress: `0x${randomBytes(20).toString('hex')}`, as: alice });
  await desk.value('withdrawals/approve', { id: withdrawal.id, as: bob });

  await page.goto(desk.url);
  await expect(page.getByTestId('@screen/dashboard')).toBeVisible();
  await go(page, 'withdrawals');
  const item = page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${withdrawal.id}"]`);
  await expect(item.getByTestId('@withdrawals/queue-counted')).toHaveText('0 of 1 independent approval');
  await item.getByTestId('@withdrawals/details-button').click();
  const detail = page.getByTestId('@withdrawals/detail');
  const approval = detail.locator('[data-testid="@withdrawals/approval"][data-operator="bob"]');
  await expect(approval).toHaveAttribute('data-counts', 'false');
  await expect(approval).toContainText('does not count');
  const note = (await desk.value('withdrawals/get', { id: withdrawal.id })).approvals[0]?.note ?? '';
  expect(note).not.toBe('');
  await expect(approval).toContainText(note);
  await expect(detail.getByTestId('@withdrawals/verification')).toHaveAttribute('data-ok', 'false');
  await expectAccessible(page, 'withdrawal detail with an approval that does not count');
  await saveScreenshot(page, 'withdrawals-approval-does-not-count');

  // The Operators screen says plainly that this desk cannot give four-eyes.
  await go(page, 'operators');
  await expect(page.getByTestId('@operators/notice')).toContainText('cannot give four-eyes');
  await expect(page.locator('[data-testid="@operators/row"][data-name="bob"]')).toContainText('alice');
});
