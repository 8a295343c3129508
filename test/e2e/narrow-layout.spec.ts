// E2E: the desk at a small laptop's window, 1024x700 CSS pixels: no screen scrolls sideways, and the withdrawal form's
// preflight sits beside the fields, inside the window, while the amount and the address are typed.
import type { Page } from '@playwright/test';
import { test, expect } from './support/desk';
import { fillWithdrawal, go, startDemo, type ScreenName } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';

test.use({ viewport: { width: 1024, height: 700 } });

/**
 * How far anything in the screen scrolls sideways, in CSS pixels, and which element (0 and '': nothing does). An
 * expression string: this project's Node tsconfig has no DOM types; it runs in the page.
 */
async function sidewaysOverflow(page: Page): Promise<{ overflow: number; culprit: string }> {
  return page.evaluate(`(() => {
    let overflow = Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth);
    let culprit = overflow > 0 ? 'the page' : '';
    for (const element of document.querySelectorAll('main, main *')) {
      const scroller = element.scrollWidth - element.clientWidth;
      const style = getComputedStyle(element);
      if (scroller > 1 && (style.overflowX === 'auto' || style.overflowX === 'scroll') && scroller > overflow) {
        overflow = scroller;
        const heading = element.closest('section, .card')?.querySelector('h2, h3')?.textContent ?? 'the screen';
        culprit = element.tagName.toLowerCase() + '.' + element.className + ' in "' + heading + '" scrolls ' + scroller + 'px';
      }
    }
    return { overflow, culprit };
  })()`);
}

test('at 1024x700 no screen scrolls sideways, and the preflight stays in view beside the withdrawal form', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  for (const screen of ['dashboard', 'deposits', 'addresses', 'withdrawals', 'addressBook', 'reconciliation', 'tools', 'audit', 'operators', 'settings', 'profiles'] satisfies ScreenName[]) {
    await go(page, screen);
    await expect.poll(async () => (await sidewaysOverflow(page)).culprit || 'nothing scrolls sideways', { message: `${screen} at 1024x700` }).toBe('nothing scrolls sideways');
    expect((await sidewaysOverflow(page)).overflow, screen).toBe(0);
  }
  // The deposits table stacks each deposit on two lines at this width, and every column is still there.
  await go(page, 'deposits');
  const table = page.getByTestId('@deposits/table');
  await expect(table).toHaveAttribute('data-layout', 'stacked');
  await expect(table.getByRole('columnheader')).toHaveText(['Seen', 'Currency', 'Amount', 'Fee', 'Address', 'Txid', 'User order', 'From', 'Source', 'Last seen', 'Label']);
  const firstRow = page.getByTestId('@deposits/row').first();
  await expect(firstRow.locator('[data-column="order"]')).toBeInViewport();
  await expect(firstRow.locator('[data-column="label"]')).toBeInViewport();
  await saveScreenshot(page, 'narrow-deposits');
  // A wide window keeps one line per deposit.
  await page.setViewportSize({ width: 1600, height: 900 });
  await expect(table).toHaveAttribute('data-layout', 'one-line');
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect(table).toHaveAttribute('data-layout', 'stacked');

  await fillWithdrawal(page);
  // The preflight sits to the right of the fields, its verdict and fee inside the window without scrolling.
  const form = await page.getByTestId('@withdrawals/request-form').boundingBox();
  const preflight = await page.getByTestId('@withdrawals/preflight').boundingBox();
  if (form === null || preflight === null) throw new Error('the form or the preflight is not laid out');
  expect(preflight.x).toBeGreaterThanOrEqual(form.x + form.width);
  await expect(page.getByTestId('@withdrawals/preflight-verdict')).toBeInViewport();
  await expect(page.getByTestId('@withdrawals/preflight-fee')).toBeInViewport();
  await expect(page.getByTestId('@withdrawals/preflight-balance-after')).toBeInViewport();
  // It stays in view while the form scrolls down to the request button.
  await page.getByTestId('@withdrawals/request-button').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('@withdrawals/preflight-verdict')).toBeInViewport();
  await saveScreenshot(page, 'narrow-withdrawal-request');
  await expectAccessible(page, 'narrow withdrawal request');
});
