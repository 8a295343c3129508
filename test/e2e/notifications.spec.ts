// E2E: notifications through the browser harness, whose desktop double records what the app's notifier would show
// with the system's notifications. A demo desk with two admins, an approver and a viewer: an approval request arrives as
// a notice for the operator signed in here only when that operator may approve it (not the viewer, not the
// initiator); the initiator hears the outcome; clicking a notice brings the window to the request; while the desk is
// locked the notice leaves out amount and names and the tray's count keeps following. In Settings an operator chooses
// their own notices with their passphrase, a deposit above their threshold arrives as one, and the workstation keeps
// running in the tray when asked.
import { randomBytes } from 'node:crypto';
import { test, expect, type Desk } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_ADMIN_2, DEMO_APPROVER, go, signInAs, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

const VIEWER = { operator: 'vera', passphrase: 'vera passphrase 77' };

/** A withdrawal requested on the engine directly, as if at another workstation. */
async function requestElsewhere(desk: Desk, as: { operator: string; passphrase: string }, amount: string) {
  return (await desk.value('withdrawals/request', { currency: 'eth.usdt', amount, toAddress: `0x${randomBytes(20).toString('hex')}`, as })).withdrawal;
}

const shown = (desk: Desk): string[] => desk.harness.desktop.notifications().map((notice) => notice.id);
const lastCount = (desk: Desk): { count: number; operator: string | null } | undefined => desk.harness.desktop.approvalsWaiting().at(-1);

test('an approval request arrives as a notice for the operator who may approve it, and only for them', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const invitation = await desk.value('operators/invite', { name: VIEWER.operator, role: 'viewer', as: DEMO_ADMIN });
  await desk.value('operators/accept', { name: VIEWER.operator, code: invitation.code, passphrase: VIEWER.passphrase });
  await desk.value('operators/confirm', { proposal: invitation.proposal, as: DEMO_ADMIN_2 });

  // The viewer is signed in here: a request demo-admin makes elsewhere is not theirs to approve.
  await signInAs(page, VIEWER);
  const first = await requestElsewhere(desk, DEMO_ADMIN, '21');
  await go(page, 'withdrawals');
  await expect(page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${first.id}"]`)).toBeVisible();

  // The approver signs in: the tray and badge count the request waiting for them; the next request arrives as a notice.
  await signInAs(page, DEMO_APPROVER);
  await expect.poll(() => lastCount(desk)).toEqual({ count: 1, operator: DEMO_APPROVER.operator });
  const second = await requestElsewhere(desk, DEMO_ADMIN, '22.5');
  await expect.poll(() => shown(desk)).toEqual([`demo:approval:${second.id}`]);
  const [notice] = desk.harness.desktop.notifications();
  expect(notice?.title).toBe('A withdrawal is waiting for your approval');
  expect(notice?.body).toContain('demo-admin requests 22.5 USDT on Ethereum');
  expect(notice?.body).toContain(`Fingerprint ${second.fingerprint}`);
  await expect.poll(() => lastCount(desk)).toEqual({ count: 2, operator: DEMO_APPROVER.operator });

  // demo-admin signs in and requests one here: no notice asks them to approve their own request...
  await signInAs(page, DEMO_ADMIN);
  await page.getByTestId('@withdrawals/tab-request').click();
  await page.getByTestId('@withdrawals/currency').selectOption('eth.usdt');
  await page.getByTestId('@withdrawals/amount').fill('33');
  await page.getByTestId('@withdrawals/to-address').fill(`0x${randomBytes(20).toString('hex')}`);
  await expect(page.getByTestId('@withdrawals/preflight-verdict')).toHaveText(/Ready to request/);
  await page.getByTestId('@withdrawals/request-button').click();
  await actAs(page, DEMO_ADMIN);
  await expect(page.getByTestId('@withdrawals/request-created')).toBeVisible();
  const [own] = (await desk.value('withdrawals/list', { state: 'awaitingApproval', limit: 1 })).rows;
  if (own === undefined) throw new Error('the request was not made');
  // ...but they hear when the approver rejects it (the notices come in order: nothing came in between).
  await desk.value('withdrawals/reject', { id: own.id, reason: 'wrong amount', as: DEMO_APPROVER });
  await expect.poll(() => shown(desk)).toEqual([`demo:approval:${second.id}`, `demo:final:${own.id}`]);
  expect(desk.harness.desktop.notifications()[1]).toMatchObject({ title: 'A withdrawal request was rejected', body: `demo-approver rejected 33 USDT on Ethereum (request ${own.id}): "wrong amount"` });

  // Clicking the notice brings the window to the request.
  await go(page, 'dashboard');
  desk.harness.desktop.clickNotification(`demo:final:${own.id}`);
  expect(desk.harness.desktop.records.at(-1)).toEqual({ kind: 'showMainWindow' });
  await expect(page.getByTestId('@screen/withdrawals')).toBeVisible();
  await expect(page.getByTestId('@withdrawals/detail')).toHaveAttribute('data-id', own.id);
  await expectAccessible(page, 'withdrawals opened from a notice');
  await saveScreenshot(page, 'notifications-opened-from-notice');

  // demo-admin's next order is approved and sent; demo-admin-2 asks demo-admin for an approval (a notice, in full).
  const sent = await requestElsewhere(desk, DEMO_ADMIN, '44');
  await desk.value('withdrawals/approve', { id: sent.id, as: DEMO_APPROVER });
  await desk.value('withdrawals/submit', { id: sent.id, as: DEMO_ADMIN });
  const asking = await requestElsewhere(desk, DEMO_ADMIN_2, '55');
  await expect.poll(() => shown(desk)).toHaveLength(3);
  expect(desk.harness.desktop.notifications()[2]).toMatchObject({ id: `demo:approval:${asking.id}`, body: expect.stringContaining('demo-admin-2 requests 55 USDT on Ethereum') });
  const [profile] = (await desk.value('profiles/list', {})).filter((candidate) => candidate.active);
  const listener = await desk.value('callbacks/start', { port: 0 });
  const platform = sandboxAdmin(desk.demoSandbox().baseUrl);
  await platform.patchMerchant(profile?.merchantId ?? '', { callbackUrl: listener.url });

  // Locked, the desk is still demo-admin's: the platform pays the order out (by callback), and the notice says so
  // without amount or names; the tray's count, asked while locked, still counts the approval waiting for them.
  await page.getByTestId('@shell/lock-button').click();
  await expect(page.getByTestId('@lock')).toBeVisible();
  for (const status of ['pendingTransfer', 'pendingCallback', 'success']) await platform.advance(profile?.merchantId ?? '', sent.userOrder, status);
  await expect.poll(() => shown(desk)).toHaveLength(4);
  expect(desk.harness.desktop.notifications()[3]).toEqual({
    id: `demo:final:${sent.id}`,
    title: 'A withdrawal was paid out',
    body: 'A withdrawal was paid out. Unlock Treasury Desk to see the details.',
  });
  expect(lastCount(desk)).toEqual({ count: 1, operator: DEMO_ADMIN.operator });
  expect(await desk.value('notifications/waiting', { operator: DEMO_ADMIN.operator })).toEqual({ operator: DEMO_ADMIN.operator, approvals: 1 });
  await saveScreenshot(page, 'notifications-locked-desk');
});

test('an operator chooses their notices with their passphrase; a deposit above the threshold arrives as one; the tray choice is kept', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await signInAs(page, DEMO_APPROVER);
  await go(page, 'settings');
  const section = page.getByTestId('@settings/notifications');
  await expect(section.getByTestId('@settings/notifications-whose')).toHaveText('demo-approver has not chosen yet: these are the defaults for their role.');
  await expect(section.getByTestId('@settings/notify-approvals')).toBeChecked();
  await expect(section.getByTestId('@settings/notify-stuck')).toBeChecked();
  await expect(section.getByTestId('@settings/notify-final')).toHaveValue('mine');

  // A threshold with more decimals than USDT on TRON has is refused next to its field.
  const threshold = section.getByTestId('@settings/notify-threshold-trx.usdt');
  await threshold.fill('5.1234567');
  await section.getByTestId('@settings/notifications-save').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog.getByTestId('@operator-dialog/operator')).toHaveValue(DEMO_APPROVER.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_APPROVER.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toHaveAttribute('data-code', 'invalidInput');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await threshold.fill('5');
  await section.getByTestId('@settings/notify-final').selectOption('all');
  await section.getByTestId('@settings/notifications-save').click();
  await actAs(page, DEMO_APPROVER);
  await expect(section.getByTestId('@settings/notifications-status')).toHaveText('Saved.');
  expect(await desk.value('notifications/preferences', { operator: DEMO_APPROVER.operator })).toMatchObject({
    isDefault: false,
    preferences: { orderFinal: 'all', depositThresholds: { 'trx.usdt': '5' } },
  });
  await expectAccessible(page, 'settings with notifications');
  await saveScreenshot(page, 'settings-notifications');

  // A deposit of more than 5 USDT on TRON arrives: a notice; clicking it finds the deposit by its transaction.
  const [seeded] = (await desk.value('deposits/list', { currency: 'trx.usdt', limit: 1 })).rows;
  if (seeded === undefined) throw new Error('the demo has no TRON deposit address');
  const transfer = await sandboxAdmin(desk.demoSandbox().baseUrl).transfer({ toAddress: seeded.address, currency: 'trx.usdt', amount: '250' });
  expect(transfer.credited).toBe(true);
  await desk.value('sync/run', {});
  await expect.poll(() => desk.harness.desktop.notifications().map((notice) => notice.title)).toEqual(['A deposit arrived']);
  const [deposit] = desk.harness.desktop.notifications();
  expect(deposit?.body).toMatch(/^\d+(\.\d+)? USDT on TRON received/);
  desk.harness.desktop.clickNotification(deposit?.id ?? '');
  await expect(page.getByTestId('@screen/deposits')).toBeVisible();
  await expect(page.getByTestId('@deposits/search')).toHaveValue(transfer.txid);
  await expect(page.locator(`[data-testid="@deposits/row"][data-txid="${transfer.txid}"]`)).toBeVisible();

  // This workstation keeps running in the tray once asked, and remembers it.
  await go(page, 'settings');
  const keep = page.getByTestId('@settings/keep-in-tray');
  await expect(keep).not.toBeChecked();
  await keep.check();
  await expect(keep).toBeChecked();
  // The box follows the click at once and the choice is saved after it: wait for main to have it.
  await expect.poll(() => desk.harness.desktopHandlers['desktop/preferences']({})).toEqual({ ok: true, value: { keepRunningInTray: true, language: 'system' } });
  await page.reload();
  await go(page, 'settings');
  await expect(page.getByTestId('@settings/keep-in-tray')).toBeChecked();
});
