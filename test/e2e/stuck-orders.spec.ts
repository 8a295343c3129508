// E2E: the stuck-order watchdog through the UI, with the desk's clock and the demo sandbox's moved together. An admin
// sets when a pendingConfirm order counts as stuck in Settings (with their passphrase); an order left pendingConfirm
// past it is flagged on the dashboard and in its detail with what to do next (the platform with its apiOrder), arrives
// as a notice for the admin signed in here and is in the audit log; once on chain and pending past its threshold, the
// flag offers checkTransfer on its txid, and the service answers it.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

const MINUTE = 60_000;

async function signInAs(page: Page, operator: { operator: string; passphrase: string }): Promise<void> {
  await page.getByTestId('@shell/lock-button').click();
  await page.getByTestId('@lock/operator').fill(operator.operator);
  await page.getByTestId('@lock/passphrase').fill(operator.passphrase);
  await page.getByTestId('@lock/unlock-button').click();
  await expect(page.getByText(`Operator: ${operator.operator}`)).toBeVisible();
}

test('an order pending past the threshold an admin set is flagged with what to do next, notified and audited', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await signInAs(page, DEMO_ADMIN);
  // The clock moves by hours below: the idle lock must not take the desk away meanwhile.
  await desk.value('settings/setLockTimeout', { seconds: 0, as: DEMO_ADMIN });

  // Settings: pendingConfirm counts as stuck after 1 minute, signed by an admin.
  await go(page, 'settings');
  const settings = page.getByTestId('@settings/stuck');
  await expect(settings.getByTestId('@settings/stuck-pendingConfirm')).toHaveValue('30');
  await settings.getByTestId('@settings/stuck-pendingConfirm').fill('0');
  await settings.getByTestId('@settings/stuck-save').click();
  await expect(settings.getByTestId('@settings/stuck-pendingConfirm-error')).toContainText('whole minutes from 1 to 43200');
  await settings.getByTestId('@settings/stuck-pendingConfirm').fill('1');
  await settings.getByTestId('@settings/stuck-save').click();
  await actAs(page, DEMO_ADMIN);
  await expect(settings.getByTestId('@settings/stuck-status')).toHaveText('Saved.');
  expect((await desk.value('settings/stuckThresholds', {})).thresholds.pendingConfirm).toBe(MINUTE);
  await expectAccessible(page, 'settings with stuck thresholds');

  // An order sent to the service and left pendingConfirm (the demo sandbox moves nothing by itself here).
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '40', toAddress: `0x${randomBytes(20).toString('hex')}`, as: DEMO_ADMIN });
  await desk.value('withdrawals/approve', { id: withdrawal.id, as: DEMO_APPROVER });
  const sent = await desk.value('withdrawals/submit', { id: withdrawal.id, as: DEMO_ADMIN });
  expect(sent.orderStatus).toBe('pendingConfirm');

  // Two minutes later for the desk and the service alike; a sync runs the watchdog.
  const admin = sandboxAdmin(desk.demoSandbox().baseUrl);
  let offset = 2 * MINUTE;
  desk.harness.moveClock(2 * MINUTE);
  await admin.setClock(offset / 1000);
  await go(page, 'dashboard');
  await page.getByTestId('@dashboard/sync-button').click();
  const stuck = page.locator(`[data-testid="@dashboard/stuck-item"][data-id="${withdrawal.id}"]`);
  await expect(stuck).toBeVisible();
  const flag = stuck.getByTestId('@dashboard/stuck-flag');
  await expect(flag).toHaveAttribute('data-status', 'pendingConfirm');
  await expect(flag).toContainText('Stuck: pendingConfirm for 2 min (it usually moves on within 1 min)');
  await expect(flag.getByTestId('@dashboard/stuck-flag-steps')).toContainText(`Contact the platform with apiOrder ${sent.apiOrder ?? ''} (userOrder ${sent.userOrder}).`);
  await expectAccessible(page, 'dashboard with a stuck withdrawal');
  await saveScreenshot(page, 'dashboard-stuck-withdrawal');
  await expect.poll(() => desk.harness.desktop.notifications().map((notice) => notice.id)).toContain(`demo:stuck:${withdrawal.id}:pendingConfirm`);
  const notice = desk.harness.desktop.notifications().find((shown) => shown.id === `demo:stuck:${withdrawal.id}:pendingConfirm`);
  expect(notice?.body).toContain(`has been pendingConfirm for 2 min; it usually moves on within 1 min. Contact the platform with apiOrder ${sent.apiOrder ?? ''}`);
  const audited = (await desk.value('audit/list', { limit: 50 })).rows.filter((row) => row.action === 'withdrawals/stuck' && row.subject === sent.userOrder);
  expect(audited).toHaveLength(1);

  // The order's detail carries the flag too, and its row a "stuck" badge.
  await stuck.getByTestId('@dashboard/stuck-details').click();
  const detail = page.getByTestId('@withdrawals/detail');
  await expect(detail.getByTestId('@withdrawals/stuck-flag')).toHaveAttribute('data-status', 'pendingConfirm');
  await expect(detail.getByTestId('@withdrawals/stuck-badge')).toBeVisible();

  // On chain (a txid) and pending its final status past 2 hours: the flag offers checkTransfer on the txid.
  await admin.advance((await admin.health()).primaryMerchantId, sent.userOrder, 'pendingTransfer');
  await admin.advance((await admin.health()).primaryMerchantId, sent.userOrder, 'pendingCallback');
  await desk.value('sync/run', {});
  offset += 2 * 60 * MINUTE + 5 * MINUTE;
  desk.harness.moveClock(2 * 60 * MINUTE + 5 * MINUTE);
  await admin.setClock(offset / 1000);
  await detail.getByTestId('@withdrawals/refresh-button').click();
  const onChain = detail.getByTestId('@withdrawals/stuck-flag');
  await expect(onChain).toHaveAttribute('data-status', 'pendingCallback');
  const txid = (await desk.value('withdrawals/get', { id: withdrawal.id })).txid ?? '';
  expect(txid).not.toBe('');
  await expect(onChain.getByTestId('@withdrawals/stuck-flag-steps')).toContainText(`run checkTransfer on txid ${txid} (eth.usdt)`);
  await onChain.getByTestId('@withdrawals/stuck-flag-check-transfer').click();
  await expect(onChain.getByTestId('@withdrawals/stuck-flag-check-result')).toHaveAttribute('data-valid', 'true');
  await expectAccessible(page, 'withdrawal detail of a stuck order');
  await saveScreenshot(page, 'withdrawal-stuck-detail');
});
