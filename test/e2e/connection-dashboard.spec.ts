// E2E: the connection panel and the dashboard's totals and history (issue 13, parts 5 and 6). The panel on Profiles
// and connection shows the service, merchant and API version, the session token's age and estimated expiry, both
// fingerprints as the profile list has them, the clock drift history (chart and table) after a selfcheck 200 s off,
// and the last whitelist refusal after an `Oops`; the dashboard sums USDT across its chains exactly (18-decimal BNB USDT
// beside 6-decimal TRON USDT), draws a balance history whose table holds the exact snapshots, and hides both with
// "Hide balances". Both screens pass axe, and the chart library causes no Content-Security-Policy violation.
import Decimal from 'decimal.js';
import type { Page } from '@playwright/test';
import { test, expect, type Desk } from './support/desk';
import { go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

/** decimal.js with room for every digit (its default 20 significant digits would round these sums). */
const Exact = Decimal.clone({ precision: 80 });

/** Collects console errors about the Content-Security-Policy (a chart library needing eval or inline styles would log one). */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

async function activeProfile(desk: Desk) {
  const profile = (await desk.value('profiles/list', {})).find((candidate) => candidate.active);
  if (profile === undefined) throw new Error('no active profile');
  return profile;
}

test('the connection panel: service, merchant, token, fingerprints, drift history and the last Oops', async ({ page, desk }) => {
  const csp = watchCsp(page);
  await startDemo(page, desk.url);
  const profile = await activeProfile(desk);
  const admin = sandboxAdmin(desk.demoSandbox().baseUrl);
  await go(page, 'profiles');
  const panel = page.getByTestId('@connection');
  await expect(panel.getByTestId('@connection/base-url')).toHaveText(profile.baseUrl);
  await expect(panel.getByTestId('@connection/merchant')).toContainText(profile.merchantId);
  await expect(panel.getByTestId('@connection/api-version')).toHaveText('2');
  await expect(panel.getByTestId('@connection/platform-fingerprint')).toHaveText(profile.platformKeyFingerprint ?? 'missing');
  await expect(panel.getByTestId('@connection/merchant-fingerprint')).toHaveText(profile.merchantKeyFingerprint ?? 'missing');
  await expect(panel.getByTestId('@connection/token')).toContainText('issued under a minute ago');
  await expect(panel.getByTestId('@connection/token')).toContainText(/expires in about (7 h 59 min|8 h) /);
  await expect(panel.getByTestId('@connection/last-refusal')).toHaveText('never');
  await expect(panel.getByTestId('@connection/sync').locator('tr[data-resource="balances"]')).toContainText('just now');

  // A selfcheck with the service's clock 200 s ahead: a reading in the table, a chart once there are two.
  await admin.setClock(200);
  await page.getByTestId('@selfcheck/run-button').click();
  await expect(page.getByTestId('@selfcheck/result')).toHaveText(/Selfcheck passed/);
  await expect(panel.getByTestId('@connection/drift-latest')).toContainText(/the service's clock is (19[89]|20[012]) s ahead of this computer \(close to the 300 s limit/);
  const rows = panel.getByTestId('@connection/drift-row');
  await expect(rows.first()).toContainText('selfcheck');
  await expect(rows.first().locator('td.num')).toHaveText(/^(19[89]|20[012])$/);
  await expect(panel.getByTestId('@connection/drift-chart').locator('canvas')).toHaveCount(1);
  await expect(panel.getByTestId('@connection/drift-chart')).toHaveAttribute('aria-label', /Clock drift over time, \d+ readings/);
  await admin.setClock(0);

  // The platform drops this workstation from the whitelist: the next sync meets `Oops`, and the panel says when.
  await admin.patchMerchant(profile.merchantId, { ipWhitelist: ['10.0.0.0/8'] });
  await go(page, 'dashboard');
  await page.getByTestId('@dashboard/sync-button').click();
  await expect(page.getByTestId('@dashboard/sync-error')).toContainText('whitelist');
  await go(page, 'profiles');
  await expect(panel.getByTestId('@connection/last-refusal')).toContainText('the service answered "Oops"');
  await expect(panel.getByTestId('@connection/last-refusal').locator('time')).toHaveCount(1);
  await expect(panel.getByTestId('@connection/state')).toContainText('offline');
  await expectAccessible(page, 'connection panel after a whitelist refusal');
  await saveScreenshot(page, 'connection-panel');
  const answer = await desk.value('connection/panel', {});
  expect(answer.lastWhitelistRefusal?.refusedAt).toBeGreaterThan(0);
  await admin.patchMerchant(profile.merchantId, { ipWhitelist: ['127.0.0.0/8', '::1/128'] });
  expect(csp).toEqual([]);
});

test('the dashboard: USDT summed across chains exactly, a balance history chart with its exact table, both hidden on request', async ({ page, desk }) => {
  const csp = watchCsp(page);
  await startDemo(page, desk.url);
  const profile = await activeProfile(desk);
  const admin = sandboxAdmin(desk.demoSandbox().baseUrl);
  await admin.patchMerchant(profile.merchantId, { balances: { 'bnb.usdt': '0.000000000000000001', 'trx.usdt': '9007199254740993.5' } });
  await go(page, 'dashboard');
  await page.getByTestId('@dashboard/sync-button').click();
  await expect(page.getByTestId('@dashboard/available-bnb.usdt')).toHaveAttribute('data-value', '0.000000000000000001');
  await admin.patchMerchant(profile.merchantId, { balances: { 'bnb.usdt': '1.25' } });
  await page.getByTestId('@dashboard/sync-button').click();
  await expect(page.getByTestId('@dashboard/available-bnb.usdt')).toHaveAttribute('data-value', '1.25');

  // The expected total, summed here independently from the per-currency balances.
  const balances = await desk.value('balances/list', {});
  const usdt = balances.filter((balance) => balance.currency.endsWith('.usdt'));
  expect(usdt.map((balance) => balance.currency).sort()).toEqual(['bnb.usdt', 'eth.usdt', 'solana.usdt', 'ton.usdt', 'trx.usdt']);
  const available = usdt.reduce((sum, balance) => sum.plus(balance.available), new Exact(0));
  const frozen = usdt.reduce((sum, balance) => sum.plus(balance.frozen), new Exact(0));
  const totals = page.getByTestId('@dashboard/totals');
  await expect(totals.getByTestId('@dashboard/total-available-USDT')).toHaveAttribute('data-value', available.toFixed());
  await expect(totals.getByTestId('@dashboard/total-sum-USDT')).toHaveAttribute('data-value', available.plus(frozen).toFixed());
  await expect(totals.getByTestId('@dashboard/total-USDT')).toContainText('USDT on TRON');
  await expect(totals.getByTestId('@dashboard/total-USDC')).toBeVisible();

  // The history of bnb.usdt: two changes, drawn, and listed exactly (newest first).
  const history = page.getByTestId('@dashboard/balance-history');
  await history.getByTestId('@dashboard/history-currency').selectOption('bnb.usdt');
  const rows = history.getByTestId('@dashboard/history-row');
  await expect(rows.first().locator('td.num').first().locator('[data-value]')).toHaveAttribute('data-value', '1.25');
  await expect(rows.nth(1).locator('td.num').first().locator('[data-value]')).toHaveAttribute('data-value', '0.000000000000000001');
  await expect(history.getByTestId('@dashboard/history-chart').locator('canvas')).toHaveCount(1);
  await expect(history.getByTestId('@dashboard/history-chart')).toHaveAttribute('role', 'img');

  // A third change beyond a float's precision: the legend names both lines and, under the pointer, shows the newest
  // point's time as the table does (the reporting zone, named) and its exact amount, never the plotted number.
  await admin.patchMerchant(profile.merchantId, { balances: { 'bnb.usdt': '40000.000000000000000001' } });
  await page.getByTestId('@dashboard/sync-button').click();
  await expect(rows.first().locator('td.num').first().locator('[data-value]')).toHaveAttribute('data-value', '40000.000000000000000001');
  const chart = history.getByTestId('@dashboard/history-chart');
  const legend = chart.locator('.u-legend .u-series');
  await expect(legend).toHaveCount(3);
  await expect(legend.nth(1)).toContainText('available');
  await expect(legend.nth(2)).toContainText('frozen');
  const over = chart.locator('.u-over');
  await over.scrollIntoViewIfNeeded();
  const plot = await over.boundingBox();
  if (plot === null) throw new Error('the chart has no plot area');
  await over.hover({ position: { x: plot.width - 1, y: plot.height / 2 } });
  await expect(legend.nth(1).locator('.u-value')).toHaveText('40,000.000000000000000001');
  await expect(legend.nth(2).locator('.u-value')).toHaveText('0');
  await expect(legend.nth(0).locator('.u-value')).toHaveText(await rows.first().locator('time').first().innerText());
  // The value axis is as wide as its longest label plus its ticks (at the default 50 px, "40,000" was cut to "0,000").
  const axis = await chart.evaluate((element) => {
    const labels = JSON.parse(element.dataset['valueTicks'] ?? '[]') as string[];
    const over = element.querySelector('.u-over')?.getBoundingClientRect();
    const root = element.querySelector('.uplot')?.getBoundingClientRect();
    const context = element.ownerDocument.createElement('canvas').getContext('2d');
    if (context === null || over === undefined || root === undefined) return { labels, width: 0, widest: Number.POSITIVE_INFINITY };
    context.font = '12px system-ui, sans-serif';
    return { labels, width: over.left - root.left, widest: Math.max(...labels.map((label) => context.measureText(label).width)) };
  });
  expect(axis.labels.some((label) => /^\d{2},\d{3}$/.test(label)), axis.labels.join(' ')).toBe(true);
  expect(axis.width).toBeGreaterThanOrEqual(axis.widest + 10);
  await expectAccessible(page, 'dashboard with totals and the balance history');
  await saveScreenshot(page, 'dashboard-totals-history');

  // "Hide balances" hides the totals and replaces the chart and its table.
  await page.getByTestId('@dashboard/hide-toggle').click();
  await expect(totals.getByTestId('@dashboard/total-sum-USDT')).not.toHaveAttribute('data-value', /./);
  await expect(history.getByTestId('@dashboard/history-hidden')).toBeVisible();
  await expect(history.getByTestId('@dashboard/history-chart')).toHaveCount(0);
  await expectAccessible(page, 'dashboard with balances hidden');
  expect(csp).toEqual([]);
});
