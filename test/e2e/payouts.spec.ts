// E2E: Withdrawals → Batch payouts in the real renderer: a CSV with bad lines chosen in the open dialog is refused
// naming each bad line and stores nothing; a good CSV becomes a batch intent (fingerprint, line count, totals per
// currency with fees, a new and a look-alike destination flagged, the policy and the approvals it needs); the
// initiator cannot approve it, an independent approver does with their passphrase; Submit sends every line and each
// line's status shows; the results export goes through the save dialog and its rows match the batch. Axe on each state.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Page } from '@playwright/test';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { evmAddress, writePayoutCsv } from './support/payout-files';

/**
 * The same characters as `address` but two in the middle, positions 21 and 22, each changed to another digit: a
 * look-alike. (Each is changed on its own: replacing the pair by 'ff' left one unchanged whenever it already was 'f'.)
 */
function lookAlikeOf(address: string): string {
  const other = (character: string | undefined): string => (character === '0' ? '1' : '0');
  return `${address.slice(0, 20)}${other(address[20])}${other(address[21])}${address.slice(22)}`;
}

/** Answers the open dialog with `path`, then "who is acting?" as the initiator. */
async function chooseFileAs(page: Page, answerOpenDialog: (path: string) => void, path: string, acting: { operator: string; passphrase: string }): Promise<void> {
  answerOpenDialog(path);
  await page.getByTestId('@payouts/import-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await dialog.getByTestId('@operator-dialog/operator').fill(acting.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(acting.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
}

test('a batch imported from a CSV is shown as one intent, approved by an independent approver, sent line by line and exported', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-batches').click();
  const section = page.getByTestId('@payouts/section');
  await expect(section.getByTestId('@payouts/empty')).toBeVisible();
  await expectAccessible(page, 'batch payouts, no batch yet');
  await saveScreenshot(page, 'payouts-empty');
  const answerOpenDialog = (path: string): void => desk.harness.desktop.answerNextOpenDialog(path);

  // A file with two bad lines is refused whole: each bad line is named, nothing is stored.
  const first = evmAddress();
  const bad = writePayoutCsv(desk.dataDir, 'bad-payouts.csv', [
    ['eth.usdt', '25.5', first, 'rent'],
    ['eth.usdt', '23', '0xnot-an-address', 'fees'],
    ['eth.usdt', '21.1234567', evmAddress(), 'too precise'],
  ]);
  await chooseFileAs(page, answerOpenDialog, bad, DEMO_ADMIN);
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog).toBeHidden();
  await expect(section.getByTestId('@payouts/notice')).toHaveText('The file was not imported: nothing was stored.');
  const refused = section.getByTestId('@payouts/refused');
  await expect(refused).toContainText('2 lines of the file need fixing');
  await expect(refused.getByTestId('@payouts/refused-line')).toHaveText([/^2\s*toAddress: /, /^3\s*amount: .*decimal/]);
  await expect(section.getByTestId('@payouts/empty')).toBeVisible();
  await expectAccessible(page, 'batch payouts, a refused file');
  await saveScreenshot(page, 'payouts-refused-file');
  expect((await desk.value('payouts/list', {})).rows).toEqual([]);
  const openDialog = desk.harness.desktop.records.findLast((record) => record.kind === 'openDialog');
  expect(openDialog?.kind === 'openDialog' && openDialog.request.purpose).toBe('payoutsCsv');

  // A good file: three lines, the second a look-alike of the first, every destination new.
  const third = evmAddress();
  const lines = [
    ['eth.usdt', '25.5', first, 'rent May'],
    ['eth.usdt', '20.25', lookAlikeOf(first), 'supplier'],
    ['eth.usdt', '30', third, 'payroll'],
  ] as const;
  const good = writePayoutCsv(desk.dataDir, 'payouts-may.csv', lines);
  await chooseFileAs(page, answerOpenDialog, good, DEMO_ADMIN);
  await expect(dialog).toBeHidden();
  const [summary] = (await desk.value('payouts/list', {})).rows;
  if (summary === undefined) throw new Error('the batch was not stored');
  const batch = await desk.value('payouts/get', { id: summary.id });
  await expect(section.getByTestId('@payouts/notice')).toHaveText(`Imported payouts-may.csv as batch ${batch.id}: 3 lines.`);
  await expect(section.getByTestId(`@payouts/open-${batch.id}`)).toContainText('payouts-may.csv');

  const detail = section.getByTestId('@payouts/detail');
  await expect(detail.getByTestId('@payouts/fingerprint')).toHaveText(batch.fingerprint);
  expect(batch.fingerprint).toMatch(/^[A-Z2-7]{4}(?:-[A-Z2-7]{4}){3}$/);
  await expect(detail.getByTestId('@payouts/line-count')).toHaveText('3 lines');
  const [total] = batch.totals;
  if (total === undefined) throw new Error('no totals');
  expect(total).toMatchObject({ currency: 'eth.usdt', lines: 3, amount: '75.75' });
  expect(Number(total.fee)).toBeGreaterThan(0);
  // Amounts as everywhere else: grouped digits, every decimal kept, with the asset.
  await expect(detail.getByTestId('@payouts/total-row')).toHaveText([
    new RegExp(`eth\\.usdt\\s*3\\s*75\\.75 USDT\\s*${total.fee.replace('.', '\\.')} USDT\\s*${total.total.replace('.', '\\.')} USDT`),
  ]);
  const flags = detail.getByTestId('@payouts/flag');
  await expect(flags.and(page.locator('[data-kind="newDestination"]'))).toHaveCount(3);
  const lookAlike = flags.and(page.locator('[data-kind="lookAlike"]'));
  await expect(lookAlike).toHaveCount(1);
  await expect(lookAlike).toHaveAttribute('data-line', '2');
  await expect(lookAlike).toContainText("looks like line 1's address, differing at positions 21, 22");
  await expect(detail.getByTestId('@payouts/policy')).toContainText('eth.usdt: the largest line 30 needs 1 approval');
  await expect(detail.getByTestId('@payouts/approvals')).toHaveText('0 of 1 independent approval');
  await expectAccessible(page, 'batch payouts, the batch intent awaiting approval');
  await saveScreenshot(page, 'payouts-intent');

  // The initiator cannot approve their own batch; an independent approver does, with the same fingerprint in front of them.
  await detail.getByTestId('@payouts/approve-button').click();
  await expect(dialog.getByTestId('@operator-dialog/fingerprint')).toHaveText(batch.fingerprint);
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toHaveAttribute('data-code', 'forbidden');
  await expectAccessible(page, 'batch approval refused to the initiator');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_APPROVER.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_APPROVER.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog).toBeHidden();
  await expect(detail.getByTestId('@payouts/approvals')).toHaveText('1 of 1 independent approval');
  await expect(detail.getByTestId('@payouts/state')).toHaveText('approved');
  await expect(detail.getByTestId('@payouts/line-state')).toHaveText(['approved', 'approved', 'approved']);
  await expectAccessible(page, 'batch payouts, approved');
  await saveScreenshot(page, 'payouts-approved');

  // Submit: every line is sent once, and each line shows its state and the platform's status.
  await detail.getByTestId('@payouts/submit-button').click();
  await expect(dialog.getByTestId('@operator-dialog/fingerprint')).toHaveText(batch.fingerprint);
  await actAs(page, DEMO_ADMIN);
  await expect(section.getByTestId('@payouts/notice')).toHaveText('3 lines sent or settled.');
  await expect(detail.getByTestId('@payouts/line-state')).toHaveText(['submitted', 'submitted', 'submitted']);
  await expect(detail.getByTestId('@payouts/line-status')).toHaveText(['pendingConfirm', 'pendingConfirm', 'pendingConfirm']);
  await expect(detail.getByTestId('@payouts/submit-button')).toBeHidden();
  await expectAccessible(page, 'batch payouts, submitted');
  await saveScreenshot(page, 'payouts-submitted');

  // The results go to the file chosen in the save dialog, one row per line.
  await detail.getByTestId('@payouts/export-button').click();
  await expect(section.getByTestId('@payouts/notice')).toContainText('Wrote 3 lines to ');
  const save = desk.harness.desktop.records.findLast((record) => record.kind === 'saveDialog');
  if (save?.kind !== 'saveDialog' || save.answer === null) throw new Error('no save dialog was shown');
  expect(save.request.purpose).toBe('payoutResultsCsv');
  await expect(section.getByTestId('@payouts/notice')).toHaveText(`Wrote 3 lines to ${basename(save.answer)}.`);
  const rows = parse(readFileSync(save.answer, 'utf8'), { columns: true }) as Record<string, string>[];
  const sent = await desk.value('payouts/get', { id: batch.id });
  expect(rows.map((row) => [row['line'], row['currency'], row['amount'], row['toAddress'], row['memo'], row['state'], row['status'], row['error']])).toEqual(
    lines.map((line, index) => [String(index + 1), line[0], line[1], line[2], line[3], 'submitted', 'pendingConfirm', '']),
  );
  expect(rows.map((row) => [row['userOrder'], row['apiOrder'], row['fee']])).toEqual(sent.lines.map((line) => [line.userOrder, line.apiOrder, line.fee]));
  expect(rows.every((row) => row['apiOrder'] !== '')).toBe(true);
  await expect(page.locator('body')).not.toContainText(desk.dataDir);
});

test('a batch awaiting approval is cancelled from its page: its initiator signs, every line is cancelled and nothing is sent', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-batches').click();
  const section = page.getByTestId('@payouts/section');
  const file = writePayoutCsv(desk.dataDir, 'payouts-june.csv', [
    ['eth.usdt', '22', evmAddress(), 'rent June'],
    ['eth.usdt', '24', evmAddress(), 'supplier June'],
  ]);
  await chooseFileAs(page, (path) => desk.harness.desktop.answerNextOpenDialog(path), file, DEMO_ADMIN);
  await expect(section.getByTestId('@payouts/notice')).toContainText('Imported payouts-june.csv');
  const [summary] = (await desk.value('payouts/list', {})).rows;
  if (summary === undefined) throw new Error('the batch was not stored');
  const detail = section.getByTestId('@payouts/detail');
  await expect(detail.getByTestId('@payouts/state')).toHaveText('awaitingApproval');
  await detail.getByTestId('@payouts/cancel-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog.getByTestId('@operator-dialog/fingerprint')).toHaveText(summary.fingerprint);
  await expect(dialog).toContainText('Every line not yet sent is cancelled and never sent');
  await expectAccessible(page, 'batch payouts, the cancel dialog');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog).toBeHidden();
  await expect(section.getByTestId('@payouts/notice')).toContainText(`Batch ${summary.id}: cancelled`);
  await expect(detail.getByTestId('@payouts/state')).toHaveText('cancelled');
  await expect(detail.getByTestId('@payouts/cancel-button')).toHaveCount(0);
  await expect(detail.getByTestId('@payouts/approve-button')).toHaveCount(0);
  const batch = await desk.value('payouts/get', { id: summary.id });
  expect(batch.lines.map((line) => line.state)).toEqual(['cancelled', 'cancelled']);
  expect(batch.lines.every((line) => line.apiOrder === null)).toBe(true);
  await saveScreenshot(page, 'payouts-cancelled');
});
