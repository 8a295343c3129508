// E2E support: the steps many tests share, done through the UI the way an operator would (navigation, the
// operator dialog, the demo onboarding).
import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { DEMO_OPERATORS, WITHDRAWAL_STATE_TRAITS } from '../../../electron/contract';
import type { Desk } from './desk';
import { sandboxAdmin } from './sandbox-admin';

function demoOperator(name: (typeof DEMO_OPERATORS)[number]['name']): { operator: string; passphrase: string } {
  const found = DEMO_OPERATORS.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no demo operator ${name}`);
  return { operator: found.name, passphrase: found.passphrase };
}

/** The demo desk's founding admins (independent of each other) and the approver one invited and the other confirmed. */
export const DEMO_ADMIN = demoOperator('demo-admin');
export const DEMO_ADMIN_2 = demoOperator('demo-admin-2');
export const DEMO_APPROVER = demoOperator('demo-approver');

export type ScreenName = 'dashboard' | 'deposits' | 'addresses' | 'withdrawals' | 'addressBook' | 'reconciliation' | 'tools' | 'audit' | 'operators' | 'settings' | 'profiles';

export async function go(page: Page, screen: ScreenName): Promise<void> {
  await page.getByTestId(`@nav/${screen}`).click();
  await expect(page.getByTestId(`@screen/${screen}`)).toBeVisible();
}

/** Answers the "who is acting?" dialog and waits for it to close (the action succeeded). */
export async function actAs(page: Page, acting: { operator: string; passphrase: string }, reason?: string): Promise<void> {
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog).toBeVisible();
  // Open and prepared for this prompt: what is typed from now on stays.
  await expect(dialog).toHaveAttribute('data-ready', 'true');
  await dialog.getByTestId('@operator-dialog/operator').fill(acting.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(acting.passphrase);
  if (reason !== undefined) await dialog.getByTestId('@operator-dialog/reason').fill(reason);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog).toBeHidden();
}

/** Locks the desk from the top bar and unlocks it as `operator`: who is signed in at this workstation. */
export async function signInAs(page: Page, operator: { operator: string; passphrase: string }): Promise<void> {
  await page.getByTestId('@shell/lock-button').click();
  await page.getByTestId('@lock/operator').fill(operator.operator);
  await page.getByTestId('@lock/passphrase').fill(operator.passphrase);
  await page.getByTestId('@lock/unlock-button').click();
  await expect(page.getByText(`Operator: ${operator.operator}`)).toBeVisible();
}

/**
 * Brings the withdrawals the demo desk sent on its first day (core/desk/demo-desk.ts) to success at the sandbox, as
 * demo mode's self-advancing sandbox does within seconds (e2e desks run it without timers), and syncs until the desk
 * has them final: the flow's own orders are then the only ones in flight.
 */
export async function settleDemoWithdrawals(desk: Pick<Desk, 'value' | 'demoSandbox'>): Promise<void> {
  const admin = sandboxAdmin(desk.demoSandbox().baseUrl);
  const merchantId = (await admin.health()).primaryMerchantId;
  for (const row of (await desk.value('withdrawals/list', {})).rows) {
    if (WITHDRAWAL_STATE_TRAITS[row.state].final) continue;
    // The normal flow from where the order stands (the demo's orders are normal ones).
    const flow = ['pendingConfirm', 'pendingTransfer', 'pendingCallback', 'success'];
    const at = flow.indexOf((await admin.withdrawal(merchantId, row.userOrder)).order.orderStatus);
    for (const to of flow.slice(at + 1)) await admin.advance(merchantId, row.userOrder, to);
  }
  await expect
    .poll(
      async () => {
        await desk.value('sync/run', {});
        return (await desk.value('withdrawals/list', {})).rows.filter((row) => !WITHDRAWAL_STATE_TRAITS[row.state].final).length;
      },
      { timeout: 60_000, message: 'the demo desk\'s own withdrawals to be final' },
    )
    .toBe(0);
}

/** First start → "Explore with a sandbox" → selfcheck passes → Continue → the dashboard. */
export async function startDemo(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByTestId('@onboarding/demo-button').click();
  await expect(page.getByTestId('@onboarding/selfcheck')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('@selfcheck/run-button').click();
  // Passed, in whichever language the window speaks.
  await expect(page.getByTestId('@selfcheck/result')).toHaveClass(/verdict--ok/);
  await page.getByTestId('@onboarding/continue').click();
  await expect(page.getByTestId('@screen/dashboard')).toBeVisible();
}

/** Fills the withdrawal request form (25.5 USDT on Ethereum to a fresh address) and waits until the preflight is ready. */
export async function fillWithdrawal(page: Page): Promise<void> {
  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-request').click();
  await page.getByTestId('@withdrawals/currency').selectOption('eth.usdt');
  await page.getByTestId('@withdrawals/amount').fill('25.5');
  await page.getByTestId('@withdrawals/to-address').fill(`0x${randomBytes(20).toString('hex')}`);
  await expect(page.getByTestId('@withdrawals/preflight-verdict')).toHaveText(/Ready to request/);
}

/** A founding admin of a desk on a sandbox of its own (no demo operators there). */
export const SOLE_ADMIN = { operator: 'alice', passphrase: 'alice passphrase 1' } as const;

/**
 * A desk on a sandbox of its own whose trx.usdt balance goes from 1000 to 1055.000001 between two syncs with no record
 * (the sandbox's admin API), opened on the Reconciliation screen: an unexplained difference of exactly +55.000001.
 */
export async function openUnexplainedBalanceChange(page: Page, desk: Desk, otherBalances: Readonly<Record<string, string>> = {}): Promise<void> {
  const sandbox = await desk.startSandbox();
  const admin = sandboxAdmin(sandbox.baseUrl);
  const merchantId = (await admin.health()).primaryMerchantId;
  await admin.patchMerchant(merchantId, { balances: { 'trx.usdt': '1000', ...otherBalances } });
  await desk.value('profiles/importFile', { name: 'main', path: sandbox.credentialsPath });
  await desk.value('operators/found', { admins: [SOLE_ADMIN] });
  await desk.value('sync/run', {});
  await admin.patchMerchant(merchantId, { balances: { 'trx.usdt': '1055.000001' } });
  await desk.value('sync/run', {});
  await page.goto(desk.url);
  await expect(page.getByTestId('@screen/dashboard')).toBeVisible();
  await go(page, 'reconciliation');
}
