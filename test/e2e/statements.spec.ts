// E2E: the period statement on the Reconciliation screen over the real engine and a sandbox the test controls. A
// balance changed through the sandbox's admin API without any record shows as that exact unexplained difference while
// another currency balances; the times follow the zone typed; the section passes axe; the CSV and the PDF (printed by
// the harness's Chromium) go to the files chosen in save dialogs, the PDF's text holding the totals and the audit
// head's fingerprint; the period's journals for Xero take the account mapping from the file opened and go to the file
// saved, named with the audit fingerprint; the auditor pack goes to the file saved and the offline verifier passes it;
// and the Withdrawals screen exports its requests as CSV the same way.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DesktopRecord } from '../harness/desktop-double';
import { test, expect } from './support/desk';
import { go, openUnexplainedBalanceChange, SOLE_ADMIN } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';


function lastSaveDialog(records: readonly DesktopRecord[]): { readonly purpose: string; readonly answer: string } {
  const dialog = records.findLast((record) => record.kind === 'saveDialog');
  if (dialog?.kind !== 'saveDialog' || dialog.answer === null) throw new Error('no save dialog was answered');
  return { purpose: dialog.request.purpose, answer: dialog.answer };
}

test('the period statement shows an unexplained difference exactly, and saves as CSV and PDF', async ({ page, desk }) => {
  await openUnexplainedBalanceChange(page, desk, { trx: '7.5' });
  const section = page.getByTestId('@statement/section');
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await section.getByTestId('@statement/from').fill(yesterday);
  await section.getByTestId('@statement/zone').fill('America/New_York');
  await section.getByTestId('@statement/build-button').click();
  const trx = section.locator('[data-testid="@statement/row"][data-currency="trx.usdt"]');
  await expect(trx).toHaveAttribute('data-unexplained', '55.000001');
  await expect(section.locator('[data-testid="@statement/row"][data-currency="trx"]')).toHaveAttribute('data-unexplained', '0');
  await expect(section.getByTestId('@statement/period')).toContainText('(times in America/New_York)');
  await expect(section.getByTestId('@statement/period')).toContainText(/-0[45]:00 to /);
  await expect(section.getByTestId('@statement/unexplained')).toContainText('The available balance went from 1000 trx.usdt to 1055.000001 trx.usdt (+55.000001)');
  const head = (await desk.value('audit/head', {})).head;
  await expect(section.getByTestId('@statement/audit-head')).toHaveText(`Audit head: entry ${head?.seq}, fingerprint ${head?.fingerprint}.`);
  await expectAccessible(page, 'statement');
  await saveScreenshot(page, 'statement');

  // A zone that is not IANA is refused on the page, saying what to type.
  await section.getByTestId('@statement/zone').fill('+01:00');
  await section.getByTestId('@statement/build-button').click();
  await expect(section.getByTestId('@statement/error')).toContainText('is not an IANA time zone name');
  await section.getByTestId('@statement/zone').fill('');

  await section.getByTestId('@statement/csv-button').click();
  await expect(section.getByTestId('@statement/csv-result')).toBeVisible();
  const csv = lastSaveDialog(desk.harness.desktop.records);
  expect(csv.purpose).toBe('statementCsv');
  expect(readFileSync(csv.answer, 'utf8')).toMatch(/\r\nbalance,trx\.usdt,[^\r]*,1055\.000001,0,55\.000001,/);
  await expect(section.getByTestId('@statement/csv-result')).toHaveText(/^Saved the statement of \d+ currencies to /);
  await expect(section.getByTestId('@statement/csv-result')).toContainText(basename(csv.answer));

  // The PDF carries the head it is printed under; its own export is the next entry of the log.
  const headBeforePdf = (await desk.value('audit/head', {})).head;
  await section.getByTestId('@statement/pdf-button').click();
  await expect(section.getByTestId('@statement/pdf-result')).toBeVisible({ timeout: 30_000 });
  const pdf = lastSaveDialog(desk.harness.desktop.records);
  expect(pdf.purpose).toBe('statementPdf');
  expect(desk.harness.desktop.records.some((record) => record.kind === 'printToPdf')).toBe(true);
  const text = execFileSync('pdftotext', ['-layout', pdf.answer, '-'], { encoding: 'utf8' });
  expect(text).toContain('55.000001');
  // Titled with the merchant's name (the demo merchant's), pages numbered, the audit head last on the page.
  const merchantName = (await desk.value('merchant/info', {})).merchant?.merchantName ?? 'no merchant name';
  expect(text).toContain(`Statement of ${merchantName}`);
  expect(text).toMatch(new RegExp(`Audit head: entry ${headBeforePdf?.seq}, fingerprint ${headBeforePdf?.fingerprint}\\s+Page \\d+ of \\d+\\s*$`));
  const [exported] = (await desk.value('audit/list', { limit: 1 })).rows;
  expect(exported).toMatchObject({ action: 'statements/export', seq: (headBeforePdf?.seq ?? 0) + 1, details: { format: 'pdf' } });
  await expect(page.locator('body')).not.toContainText(desk.dataDir);

  // The journals for Xero: the mapping from the file the person opens, the journals to the file saved. A balance
  // changed without records moves nothing in the books: the file holds the header only.
  const mapping = join(desk.dataDir, 'mapping.csv');
  writeFileSync(mapping, 'kind,key,account\ncurrency,trx.usdt,1210\nclearing,,1290\nfees,,6120\n');
  desk.harness.desktop.answerNextOpenDialog(mapping);
  const headBeforeJournals = (await desk.value('audit/head', {})).head;
  await section.getByTestId('@statement/xero-button').click();
  await expect(section.getByTestId('@statement/xero-result')).toHaveText(/^Saved 0 journals \(0 lines from 0 records\) to \d+-xero-journals-\d{4}-\d{2}-\d{2}-[A-Z0-9]{16}\.csv\.$/);
  const journals = lastSaveDialog(desk.harness.desktop.records);
  expect(journals.purpose).toBe('accountingExport');
  expect(basename(journals.answer)).toContain((headBeforeJournals?.fingerprint ?? 'none').replaceAll('-', ''));
  expect(readFileSync(journals.answer, 'utf8')).toBe('*Narration,*Date,Description,*AccountCode,*TaxRate,*Amount,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2\r\n');
  // A mapping that is not one is refused on the page, naming its line, and nothing is saved.
  writeFileSync(mapping, 'kind,key,account\nfees,,\n');
  desk.harness.desktop.answerNextOpenDialog(mapping);
  await section.getByTestId('@statement/quickbooks-button').click();
  await expect(section.getByRole('group', { name: /QuickBooks/ })).toContainText('line 2: the account is empty');
  await expect(page.locator('body')).not.toContainText(desk.dataDir);

  // The auditor pack goes to the file saved, and the offline verifier (plain Node, a child process) passes it.
  await section.getByTestId('@statement/auditor-pack-button').click();
  await expect(section.getByTestId('@statement/auditor-pack-result')).toHaveText(/^Saved the auditor pack \(\d+ audit entries, head [A-Z2-7]{4}(-[A-Z2-7]{4}){3}\) to .*auditor-pack-\d{4}-\d{2}-\d{2}\.json\.$/);
  const pack = lastSaveDialog(desk.harness.desktop.records);
  expect(pack.purpose).toBe('auditPack');
  const verified = execFileSync(process.execPath, [join(import.meta.dirname, '../../tools/verify-auditor-pack.mjs'), pack.answer], { encoding: 'utf8' });
  expect(verified).toMatch(/^ok +statement trx\.usdt: withdrawals 0 for 0 as signed; closing 1055\.000001 = .* unexplained 55\.000001$/m);
  expect(verified).toMatch(/^PASS/m);
});

test('the Withdrawals screen exports the requests as CSV through the save dialog', async ({ page, desk }) => {
  const sandbox = await desk.startSandbox();
  await desk.value('profiles/importFile', { name: 'main', path: sandbox.credentialsPath });
  await desk.value('operators/found', { admins: [SOLE_ADMIN] });
  await page.goto(desk.url);
  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-orders').click();
  await page.getByTestId('@withdrawals/export-button').click();
  await expect(page.getByTestId('@withdrawals/export-result')).toHaveText(/^Exported 0 requests to \d+-withdrawals-\d{4}-\d{2}-\d{2}\.csv\.$/);
  const dialog = lastSaveDialog(desk.harness.desktop.records);
  expect(dialog.purpose).toBe('withdrawalsCsv');
  expect(readFileSync(dialog.answer, 'utf8')).toBe('created,request,currency,amount,fee,state,order_status,order_status_at,to_address,payee,memo,withdraw_type,user_order,api_order,txid,initiator,fingerprint,updated\r\n');
  await expectAccessible(page, 'withdrawals-export');
});
