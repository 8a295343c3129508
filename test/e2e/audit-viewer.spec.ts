// E2E: the audit viewer on the Audit screen over the real engine (demo desk): each entry as a sentence with its amounts
// grouped, whether it verifies as a word and icon; the filters (kind, operator, request by fingerprint, dates) and the
// search narrowing the list in the engine; the filtered view exported through the save dialog as CSV or JSON lines
// (the file type picked in the dialog) and recorded; an entry edited in the database file shown as failing; axe passes.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import Database from 'better-sqlite3';
import type { DesktopRecord } from '../harness/desktop-double';
import { test, expect } from './support/desk';
import { DEMO_DESK_WITHDRAWALS } from '../../electron/core/desk/demo-desk';
import { DEMO_ADMIN, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';

function lastSaveDialog(records: readonly DesktopRecord[]): { readonly purpose: string; readonly answer: string; readonly types: readonly string[] } {
  const dialog = records.findLast((record) => record.kind === 'saveDialog');
  if (dialog?.kind !== 'saveDialog' || dialog.answer === null) throw new Error('no save dialog was answered');
  return { purpose: dialog.request.purpose, answer: dialog.answer, types: dialog.request.filters.flatMap((filter) => filter.extensions) };
}

test('the audit viewer reads as sentences, filters and searches in the engine, shows each entry\'s standing and exports the view', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const toAddress = `0x${randomBytes(20).toString('hex')}`;
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '1250.5', toAddress, as: DEMO_ADMIN });
  const fingerprint = withdrawal.fingerprint ?? '';
  expect(fingerprint).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);

  await go(page, 'audit');
  const rows = page.getByTestId('@audit/row');
  await expect(rows.first()).toBeVisible();
  const requested = `demo-admin requested withdrawal ${fingerprint} of 1,250.5 USDT on Ethereum to ${toAddress}`;
  await expect(rows.first().getByTestId('@audit/row-sentence')).toHaveText(requested);
  await expect(rows.first().getByTestId('@audit/row-standing')).toHaveText(/^✓ Verified:/);
  await expect(rows.first().getByTestId('@audit/row-standing')).toHaveAttribute('data-status', 'verified');
  // No raw JSON or message syntax in a sentence (a label is quoted on purpose: the demo desk labelled its addresses).
  await expect(page.getByTestId('@audit/row-sentence').filter({ hasText: /[{}]|"\s*:/ })).toHaveCount(0);
  await rows.first().getByText('Details').click();
  await expect(rows.first().locator('dl')).toContainText('signed by key');
  await expect(rows.first().locator('dl')).toContainText(toAddress);
  await expectAccessible(page, 'audit viewer');
  await saveScreenshot(page, 'audit-viewer');

  // Kind: only the requests; then the request by its fingerprint (typed in lower case); then a search.
  const total = await rows.count();
  // This request and those the demo desk sent on its first day (core/desk/demo-desk.ts).
  const requests = (await desk.value('audit/list', { action: 'withdrawals/request' })).rows.length;
  expect(requests).toBe(1 + DEMO_DESK_WITHDRAWALS.length);
  await page.getByTestId('@audit/action-filter').selectOption('withdrawals/request');
  await expect(rows).toHaveCount(requests);
  await expect(rows.first().getByTestId('@audit/row-sentence')).toHaveText(requested);
  await page.getByTestId('@audit/action-filter').selectOption('');
  await page.getByTestId('@audit/request-filter').fill(fingerprint.toLowerCase());
  await expect(rows).toHaveCount(1);
  await page.getByTestId('@audit/request-filter').fill('');
  await page.getByTestId('@audit/search').fill('REQUESTED WITHDRAWAL');
  await expect(rows).toHaveCount(requests);
  await page.getByTestId('@audit/search').fill('no entry says this');
  await expect(page.getByTestId('@audit/empty')).toHaveText('No entries match these filters.');
  await page.getByTestId('@audit/search').fill('');
  await page.getByTestId('@audit/operator-filter').fill('DEMO-ADMIN');
  await expect(rows.first().getByTestId('@audit/row-sentence')).toHaveText(requested);
  const byAdmin = await desk.value('audit/list', { operator: 'demo-admin' });
  await expect(rows).toHaveCount(byAdmin.rows.length);
  await expect(page.getByTestId('@audit/row-sentence').filter({ hasNotText: /^demo-admin / })).toHaveCount(0);
  const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  await page.getByTestId('@audit/from').fill(tomorrow);
  await expect(page.getByTestId('@audit/empty')).toBeVisible();
  await page.getByTestId('@audit/request-filter').fill('nonsense');
  await expect(page.getByTestId('@audit/list-error')).toContainText('neither a withdrawal request number nor a fingerprint');
  await expectAccessible(page, 'audit viewer with a refused filter');
  await page.getByTestId('@audit/clear-filters').click();
  await expect(rows).toHaveCount(total);

  // The filtered view as CSV (the type picked in the dialog), then as JSON lines; each export is an entry of its own.
  await page.getByTestId('@audit/operator-filter').fill('demo-admin');
  await expect(rows).toHaveCount(byAdmin.rows.length);
  desk.harness.desktop.chooseNextSaveType('csv');
  await page.getByTestId('@audit/export-button').click();
  await expect(page.getByTestId('@audit/export-result')).toHaveText(new RegExp(`^Exported ${byAdmin.rows.length} entries to \\d+-audit-\\d{4}-\\d{2}-\\d{2}\\.csv\\.$`));
  const csv = lastSaveDialog(desk.harness.desktop.records);
  expect(csv).toMatchObject({ purpose: 'auditExport', types: ['jsonl', 'csv'] });
  const csvLines = readFileSync(csv.answer, 'utf8').trimEnd().split('\r\n');
  expect(csvLines[0]).toBe('seq,at,profile,operator,action,subject,sentence,verification,verification_reason,details,key_id,hash');
  expect(csvLines).toHaveLength(byAdmin.rows.length + 1);
  expect(csvLines.some((line) => line.includes(`demo-admin requested withdrawal ${fingerprint} of 1250.5 USDT on Ethereum`))).toBe(true);
  await expect(page.getByTestId('@audit/export-result')).toContainText(basename(csv.answer));

  await page.getByTestId('@audit/clear-filters').click();
  await page.getByTestId('@audit/request-filter').fill(fingerprint);
  await expect(rows).toHaveCount(1);
  await page.getByTestId('@audit/export-button').click();
  await expect(page.getByTestId('@audit/export-result')).toHaveText(/^Exported 1 entry to \d+-audit-\d{4}-\d{2}-\d{2}\.jsonl\.$/);
  const jsonl = lastSaveDialog(desk.harness.desktop.records);
  const [line] = readFileSync(jsonl.answer, 'utf8').trimEnd().split('\n').map((text) => JSON.parse(text) as { statement: string; signature: string; sentence: string });
  expect(line?.sentence).toContain(`requested withdrawal ${fingerprint}`);
  expect(line?.signature).not.toBe('');
  await page.getByTestId('@audit/clear-filters').click();
  await page.getByTestId('@audit/action-filter').selectOption('audit/export');
  await expect(page.getByTestId('@audit/row-sentence')).toHaveText(['The desk exported 1 audit entry as JSONL', `The desk exported ${byAdmin.rows.length} audit entries as CSV`]);

  // An entry edited in the database file: it fails, the entries after it are unchecked, those before verify.
  const bad = (await desk.value('audit/list', { request: fingerprint })).rows[0]?.seq ?? 0;
  expect(bad).toBeGreaterThan(1);
  const db = new Database(desk.harness.dbPath);
  try {
    db.exec('DROP TRIGGER IF EXISTS audit_log_no_update');
    db.prepare("UPDATE audit_log SET operator = 'mallory' WHERE seq = ?").run(bad);
  } finally {
    db.close();
  }
  await page.getByTestId('@audit/clear-filters').click();
  const altered = page.locator(`[data-testid="@audit/row"][data-seq="${bad}"]`);
  await expect(altered.getByTestId('@audit/row-standing')).toHaveAttribute('data-status', 'failed');
  await expect(altered.getByTestId('@audit/row-standing')).toHaveText(/^✗ Fails: row \d+'s columns no longer say what its signed statement says$/);
  await expect(page.locator(`[data-testid="@audit/row"][data-seq="${bad + 1}"]`).getByTestId('@audit/row-standing')).toHaveText(/^\? Unchecked: the chain is broken at entry #\d+/);
  await expect(page.locator(`[data-testid="@audit/row"][data-seq="${bad - 1}"]`).getByTestId('@audit/row-standing')).toHaveAttribute('data-status', 'verified');
  await expectAccessible(page, 'audit viewer with an altered entry');
  await saveScreenshot(page, 'audit-viewer-altered');
});
