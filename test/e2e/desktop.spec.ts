// E2E: what the renderer needs of the desktop goes through named methods answered by the shell (here the app's
// desktop handlers over the harness's recording double): copying an address reaches the clipboard, a CSV export
// writes the file chosen in the save dialog, and a window that tries to name a path itself is refused.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test, expect } from './support/desk';
import { DEMO_ADMIN, go, startDemo } from './support/flows';

test('copying a deposit address puts exactly that address on the clipboard, through main', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'addresses');
  const first = await desk.value('addresses/create', { addressType: 'trx', userOrder: 'E2E-COPY-0001', as: DEMO_ADMIN });
  await page.reload();
  await go(page, 'addresses');
  await page.getByRole('button', { name: `Show ${first.address}` }).click();
  const address = (await page.getByTestId('@addresses/selected-address').textContent())?.trim() ?? '';
  expect(address).toBe(first.address);
  await page.getByTestId('@addresses/copy-button').click();
  await expect(page.locator('.copy__status')).toHaveText('Copied');
  expect(desk.harness.desktop.clipboardText()).toBe(address);
});

test('exporting deposits as CSV asks with the save dialog and writes the chosen file; a cancel writes nothing', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'deposits');
  await expect(page.getByTestId('@deposits/row').first()).toBeVisible();

  await page.getByTestId('@deposits/export-button').click();
  await expect(page.getByTestId('@deposits/export-result')).toBeVisible();
  const dialog = desk.harness.desktop.records.findLast((record) => record.kind === 'saveDialog');
  if (dialog?.kind !== 'saveDialog' || dialog.answer === null) throw new Error('no save dialog was shown');
  expect(dialog.request.purpose).toBe('depositsCsv');
  expect(dialog.request.defaultName).toMatch(/^deposits-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(dialog.answer, 'utf8').trim().split('\n');
  const rows = csv.length - 1;
  expect(rows).toBeGreaterThan(0);
  // The page names the file, never its folder.
  await expect(page.getByTestId('@deposits/export-result')).toHaveText(`Exported ${rows.toLocaleString('en-US')} rows to ${basename(dialog.answer)}.`);
  await expect(page.locator('body')).not.toContainText(desk.dataDir);

  desk.harness.desktop.cancelNextSaveDialog();
  const before = desk.harness.desktop.records.length;
  await page.getByTestId('@deposits/export-button').click();
  await expect.poll(() => desk.harness.desktop.records.length).toBe(before + 1);
  const cancelled = desk.harness.desktop.records.at(-1);
  expect(cancelled?.kind === 'saveDialog' && cancelled.answer).toBeNull();
});

test('a window that names a file path itself is refused, and nothing is written', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const target = join(desk.dataDir, 'planted.csv');
  const answers = await page.evaluate(async (path) => {
    const treasury = (globalThis as unknown as { treasury: { call(method: string, request: unknown): Promise<{ ok: boolean; error?: { code: string; message: string } }> } }).treasury;
    return Promise.all([
      treasury.call('deposits/exportCsv', { path }),
      treasury.call('audit/export', { path }),
      treasury.call('audit/checkpoint', { path }),
      treasury.call('audit/verify', { against: path }),
      treasury.call('profiles/importFile', { name: 'planted', path }),
    ]);
  }, target);
  for (const answer of answers) {
    expect(answer.ok).toBe(false);
    expect(answer.error?.code).toBe('forbidden');
    expect(answer.error?.message).toContain('system');
  }
  expect(existsSync(target)).toBe(false);
  expect(desk.harness.desktop.records).toEqual([]);
});
