// E2E: locks that lock — the idle lock fires while background sync keeps refreshing the screens (only a person's input
// counts as activity), and "Hide balances" hides every balance figure, the withdrawal form's preflight included.
import { randomBytes } from 'node:crypto';
import { test, expect } from './support/desk';
import { DEMO_ADMIN, go, startDemo } from './support/flows';
import { saveScreenshot } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

/** A short idle lock: the engine compares idleness every 5 s, so the lock strikes within seconds of going idle. */
const LOCK_TIMEOUT_SECONDS = 3;

test.describe('with background sync running', () => {
  test.use({ autoSync: { intervalMs: 500, unsettledIntervalMs: 500, maxBackoffMs: 2_000 } });

  test('the idle lock fires while background sync keeps the screens refreshing', async ({ page, desk }) => {
    await startDemo(page, desk.url);
    await desk.value('settings/setLockTimeout', { seconds: LOCK_TIMEOUT_SECONDS, as: DEMO_ADMIN });
    const [seeded] = (await desk.value('deposits/list', { currency: 'trx.usdt', limit: 1 })).rows;
    if (seeded === undefined) throw new Error('the demo has no TRON deposit');
    const admin = sandboxAdmin(desk.demoSandbox().baseUrl);
    const available = page.getByTestId('@dashboard/available-trx.usdt');
    const before = await available.getAttribute('data-value');
    expect(before).not.toBeNull();

    // New deposits keep arriving at the service; background sync fetches them and the dashboard re-reads its balances
    // (events → balances/list, deposits/list) — nobody touches the keyboard or the mouse.
    let pumping = true;
    let transfers = 0;
    const pump = (async () => {
      while (pumping) {
        const transfer = await admin.transfer({ toAddress: seeded.address, currency: 'trx.usdt', amount: '1.5' });
        expect(transfer.credited).toBe(true);
        transfers += 1;
        await new Promise((resolve) => setTimeout(resolve, 700));
      }
    })();
    try {
      // The background refreshes reach the screen: the balance changes without anyone asking...
      await expect(available).not.toHaveAttribute('data-value', before ?? '');
      // ...and yet the desk locks itself once the lock timeout has passed without a person's input.
      await expect(page.getByTestId('@lock')).toBeVisible({ timeout: 60_000 });
    } finally {
      pumping = false;
      await pump;
    }
    expect(transfers).toBeGreaterThan(2);
    expect((await desk.value('session/state', {})).locked).toBe(true);
    await expect(desk.value('balances/list', {})).rejects.toThrow(/locked/);
    await saveScreenshot(page, 'lock-screen-idle-during-background-sync');

    // An operator unlocks; the desk carries on with what background sync fetched.
    await page.getByTestId('@lock/operator').fill(DEMO_ADMIN.operator);
    await page.getByTestId('@lock/passphrase').fill(DEMO_ADMIN.passphrase);
    await page.getByTestId('@lock/unlock-button').click();
    await expect(page.getByTestId('@screen/dashboard')).toBeVisible();
    await expect(available).not.toHaveAttribute('data-value', before ?? '');
  });
});

test('hide balances hides the balance figures on the withdrawal form too, preflight included', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const balances = await desk.value('balances/list', {});
  const ethUsdt = balances.find((balance) => balance.currency === 'eth.usdt');
  if (ethUsdt === undefined) throw new Error('the demo has no eth.usdt balance');
  const destination = `0x${randomBytes(20).toString('hex')}`;

  await page.getByTestId('@dashboard/hide-toggle').click();
  await expect(page.getByTestId('@dashboard/hide-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('@dashboard/available-eth.usdt')).toHaveText(/^•+/);
  await expect(page.getByTestId('@dashboard/available-eth.usdt')).not.toHaveText(/\d/);

  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-request').click();
  await page.getByTestId('@withdrawals/currency').selectOption('eth.usdt');
  await page.getByTestId('@withdrawals/amount').fill('25.5');
  await page.getByTestId('@withdrawals/to-address').fill(destination);
  await expect(page.getByTestId('@withdrawals/preflight-verdict')).toHaveText(/Ready to request/);
  // The withdrawal's own figures stay visible; the balance figures do not.
  await expect(page.getByTestId('@withdrawals/preflight-received')).toContainText('25.5');
  const availableNow = page.getByTestId('@withdrawals/preflight-available');
  const balanceAfter = page.getByTestId('@withdrawals/preflight-balance-after');
  await expect(page.getByTestId('@withdrawals/hide-toggle')).toHaveAttribute('aria-pressed', 'true');
  for (const figure of [availableNow, balanceAfter]) {
    await expect(figure).toContainText('••••');
    await expect(figure).not.toHaveText(/\d/);
  }
  await expect(page.getByTestId('@withdrawals/preflight')).not.toContainText(ethUsdt.available.split('.')[0] ?? 'x');
  await saveScreenshot(page, 'withdrawals-request-balances-hidden');

  // More than the balance: the problem says so without naming the balance.
  await page.getByTestId('@withdrawals/amount').fill('99999999');
  const balanceIssue = page.getByTestId('@withdrawals/preflight-issue-balance');
  await expect(balanceIssue).toContainText('does not cover');
  await expect(balanceIssue).not.toHaveText(/\d/);
  for (const figure of [availableNow, balanceAfter]) await expect(figure).not.toHaveText(/\d/);

  // Shown again from the form itself: the figures come back, and the dashboard follows the same setting.
  await page.getByTestId('@withdrawals/hide-toggle').click();
  await expect(page.getByTestId('@withdrawals/hide-toggle')).toHaveAttribute('aria-pressed', 'false');
  await expect(balanceIssue).toHaveText(/\d/);
  await page.getByTestId('@withdrawals/amount').fill('25.5');
  await expect(page.getByTestId('@withdrawals/preflight-verdict')).toHaveText(/Ready to request/);
  await expect(availableNow).toHaveText(/\d/);
  await expect(balanceAfter).toHaveText(/\d/);
  await go(page, 'dashboard');
  await expect(page.getByTestId('@dashboard/available-eth.usdt')).toHaveAttribute('data-value', ethUsdt.available);
});
