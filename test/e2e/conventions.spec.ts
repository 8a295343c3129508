// E2E: the desktop conventions in the real renderer — dark mode follows the system (the dark palette is applied, and
// every screen, dialog and the lock screen pass axe in it), the desk's keyboard shortcuts, block explorer links that
// go through main (the harness's recording double), amounts grouped in the browser's locale, and times shown in the
// reporting time zone an admin sets on the Settings screen.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, go, startDemo, type ScreenName } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';

/** The computed colours of an element, e.g. "rgb(18, 21, 25)". */
async function colours(page: Page, selector: string): Promise<{ background: string; color: string; scheme: string }> {
  await expect(page.locator(selector).first()).toBeVisible();
  // An expression string: this project's Node tsconfig has no DOM types; it runs in the page.
  return page.evaluate(
    `(() => { const style = getComputedStyle(document.querySelector(${JSON.stringify(selector)})); return { background: style.backgroundColor, color: style.color, scheme: style.colorScheme }; })()`,
  );
}

function openedUrls(desk: { harness: { desktop: { records: readonly { kind: string; url?: string }[] } } }): string[] {
  return desk.harness.desktop.records.flatMap((record) => (record.kind === 'openExternal' && record.url !== undefined ? [record.url] : []));
}

test.describe('in a dark system theme', () => {
  test.use({ colorScheme: 'dark' });

  test('the dark palette is applied, and every screen, the operator dialog and the lock screen pass axe', async ({ page, desk }) => {
    await page.goto(desk.url);
    await expect(page.getByTestId('@onboarding/demo-button')).toBeVisible();
    expect(await colours(page, 'body')).toEqual({ background: 'rgb(18, 21, 25)', color: 'rgb(230, 233, 238)', scheme: 'dark' });
    await expectAccessible(page, 'onboarding (dark)');
    await saveScreenshot(page, 'dark-onboarding');

    await startDemo(page, desk.url);
    await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '30', toAddress: `0x${randomBytes(20).toString('hex')}`, as: DEMO_ADMIN });
    await desk.value('addresses/create', { addressType: 'trx', as: DEMO_ADMIN });
    expect(await colours(page, '.topbar')).toMatchObject({ background: 'rgb(11, 14, 18)' });
    expect(await colours(page, '.card')).toMatchObject({ background: 'rgb(27, 31, 37)', color: 'rgb(230, 233, 238)' });
    expect(await colours(page, '.button--primary, .sidebar__link[aria-current="page"]')).not.toMatchObject({ background: 'rgb(255, 255, 255)' });

    const screens: readonly ScreenName[] = ['dashboard', 'deposits', 'addresses', 'withdrawals', 'tools', 'audit', 'operators', 'settings', 'profiles'];
    for (const screen of screens) {
      await go(page, screen);
      if (screen === 'deposits') await expect(page.getByTestId('@deposits/row').first()).toBeVisible();
      if (screen === 'addresses') await page.getByTestId('@addresses/row').first().click();
      if (screen === 'withdrawals') await expect(page.getByTestId('@withdrawals/queue-item').first()).toBeVisible();
      await expectAccessible(page, `${screen} (dark)`);
      await saveScreenshot(page, `dark-${screen}`);
    }
    await go(page, 'withdrawals');
    await page.getByTestId('@withdrawals/tab-orders').click();
    await page.getByTestId('@withdrawals/order-row').first().getByRole('button', { name: /Details/ }).click();
    await expect(page.getByTestId('@withdrawals/timeline')).toBeVisible();
    await expectAccessible(page, 'withdrawal detail (dark)');
    await page.getByTestId('@withdrawals/tab-request').click();
    await page.getByTestId('@withdrawals/amount').fill('not a number');
    await expectAccessible(page, 'withdrawal request with a problem (dark)');
    await saveScreenshot(page, 'dark-withdrawals-request');

    await go(page, 'settings');
    await page.getByTestId('@settings/time-zone-save').click();
    await expect(page.getByTestId('@operator-dialog')).toBeVisible();
    await expectAccessible(page, 'operator dialog (dark)');
    await saveScreenshot(page, 'dark-operator-dialog');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('@operator-dialog')).toBeHidden();

    await page.getByTestId('@shell/lock-button').click();
    await expect(page.getByTestId('@lock')).toBeVisible();
    await expectAccessible(page, 'lock screen (dark)');
    await saveScreenshot(page, 'dark-lock-screen');
  });
});

test('in a light system theme the light palette is applied', async ({ page, desk }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await startDemo(page, desk.url);
  expect(await colours(page, 'body')).toEqual({ background: 'rgb(243, 244, 246)', color: 'rgb(26, 31, 38)', scheme: 'light' });
  // The page follows a change of the system theme at once, without a reload.
  await page.emulateMedia({ colorScheme: 'dark' });
  expect((await colours(page, 'body')).background).toBe('rgb(18, 21, 25)');
});

test('keyboard shortcuts open each screen, focus the search box, and lock the desk', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await page.keyboard.press('Control+2');
  await expect(page.getByTestId('@screen/deposits')).toBeVisible();
  await page.keyboard.press('Control+8');
  await expect(page.getByTestId('@screen/audit')).toBeVisible();
  await page.keyboard.press('Control+5');
  await expect(page.getByTestId('@screen/addressBook')).toBeVisible();
  await page.keyboard.press('Control+6');
  await expect(page.getByTestId('@screen/reconciliation')).toBeVisible();
  await page.keyboard.press('Control+9');
  await expect(page.getByTestId('@screen/operators')).toBeVisible();
  await expect(page.getByTestId('@nav/deposits')).toHaveAttribute('aria-keyshortcuts', 'Control+2');
  // Search from a screen without a search box opens the deposits and focuses theirs; there it just focuses it.
  await page.keyboard.press('Control+1');
  await expect(page.getByTestId('@screen/dashboard')).toBeVisible();
  await page.keyboard.press('Control+F');
  await expect(page.getByTestId('@deposits/search')).toBeFocused();
  await page.keyboard.type('abc');
  await page.keyboard.press('Control+3');
  await expect(page.getByTestId('@screen/addresses')).toBeVisible();
  // A shortcut without its modifiers is just typing.
  await page.keyboard.press('2');
  await expect(page.getByTestId('@screen/addresses')).toBeVisible();
  await page.keyboard.press('Control+Shift+L');
  await expect(page.getByTestId('@lock')).toBeVisible();
  expect((await desk.value('session/state', {})).locked).toBe(true);
  // Locked, the shortcuts do nothing.
  await page.keyboard.press('Control+2');
  await expect(page.getByTestId('@lock')).toBeVisible();
});

test('explorer links open through main, built from its table: deposit txids, a withdrawal\'s address, deposit addresses', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const [deposit] = (await desk.value('deposits/list', { currency: 'trx.usdt', limit: 1 })).rows;
  if (deposit === undefined) throw new Error('the demo has no TRON deposit');
  await go(page, 'deposits');
  await page.getByTestId('@deposits/search').fill(deposit.txid);
  await expect(page.getByTestId('@deposits/row')).toHaveCount(1);
  await page.getByTestId('@deposits/txid-link').click();
  await expect.poll(() => openedUrls(desk)).toEqual([`https://tronscan.org/#/transaction/${deposit.txid}`]);

  const toAddress = `0x${randomBytes(20).toString('hex')}`;
  await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '25', toAddress, as: DEMO_ADMIN });
  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-orders').click();
  await page.getByTestId('@withdrawals/order-row').first().getByRole('button', { name: /Details/ }).click();
  await page.getByTestId('@withdrawals/detail-address-link').click();
  await expect.poll(() => openedUrls(desk).at(-1)).toBe(`https://etherscan.io/address/${toAddress}`);

  const created = await desk.value('addresses/create', { addressType: 'eth_bnb', as: DEMO_ADMIN });
  await go(page, 'addresses');
  await page.getByTestId('@addresses/row').filter({ hasText: created.address }).click();
  await expect(page.getByRole('button', { name: /^Etherscan\s*: open this address/ })).toBeVisible();
  await expect(page.getByTestId('@addresses/explorer-bnb')).toContainText('BscScan ↗');
  await page.getByTestId('@addresses/explorer-bnb').click();
  await expect.poll(() => openedUrls(desk).at(-1)).toBe(`https://bscscan.com/address/${created.address}`);
  await expectAccessible(page, 'addresses with explorer links');
});

test.describe('in a German locale', () => {
  test.use({ locale: 'de-DE' });

  test('amounts are grouped the German way, every digit kept', async ({ page, desk }) => {
    await startDemo(page, desk.url);
    const balances = await desk.value('balances/list', {});
    const withDecimals = balances.find((balance) => balance.available.includes('.')) ?? balances[0];
    if (withDecimals === undefined) throw new Error('the demo has no balances');
    const figure = page.getByTestId(`@dashboard/available-${withDecimals.currency}`);
    await expect(figure).toHaveAttribute('data-value', withDecimals.available);
    const [integer = '', fraction] = withDecimals.available.split('.');
    const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
    await expect(figure.locator('.amount__digits')).toHaveText(fraction === undefined ? grouped : `${grouped},${fraction}`);
  });
});

test('an admin sets the reporting time zone on the Settings screen; times everywhere follow it, zone shown', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'settings');
  await expect(page.getByTestId('@settings/time-zone-current')).toHaveText('UTC');
  // A name that is no zone is refused at once, before anyone is asked for a passphrase.
  await page.getByTestId('@settings/time-zone-input').fill('Mars/Olympus');
  await page.getByTestId('@settings/time-zone-save').click();
  await expect(page.getByTestId('@settings/time-zone-error')).toContainText('"Mars/Olympus" is not an IANA time zone name');
  await expect(page.getByTestId('@operator-dialog')).toBeHidden();
  await expect(page.getByTestId('@settings/time-zone-current')).toHaveText('UTC');

  await page.getByTestId('@settings/time-zone-input').fill('asia/kolkata');
  await page.getByTestId('@settings/time-zone-save').click();
  await actAs(page, DEMO_ADMIN);
  await expect(page.getByTestId('@settings/time-zone-current')).toHaveText('Asia/Kolkata');
  expect((await desk.value('session/state', {})).reportingTimeZone).toBe('Asia/Kolkata');

  await go(page, 'audit');
  const firstTime = page.getByTestId('@audit/row').first().locator('time');
  await expect(firstTime).toHaveAttribute('datetime', /\+05:30$/);
  await expect(firstTime).toContainText('GMT+5:30');
  await go(page, 'deposits');
  await expect(page.getByTestId('@deposits/row').first()).toContainText('GMT+5:30');
  await expect(page.getByText('From (date seen, Asia/Kolkata)')).toBeVisible();
  await saveScreenshot(page, 'deposits-in-kolkata-time');
});
