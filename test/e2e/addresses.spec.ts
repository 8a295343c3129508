// E2E: deposit addresses — creating one as an operator shows its QR code, and zbarimg decodes the on-screen QR back
// to exactly that address; the eth_bnb and TRON notes are shown where they matter.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot, SCREENSHOT_DIR } from './support/page-checks';

const run = promisify(execFile);

async function decodeQr(path: string): Promise<string> {
  const { stdout } = await run('zbarimg', ['--quiet', '--raw', '--nodbus', path]);
  return stdout.trim();
}

test('creating an address shows a QR code that decodes to that address', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'addresses');
  await page.getByTestId('@addresses/type-select').selectOption('trx');
  await page.getByTestId('@addresses/user-order').fill('E2E-QR-0001');
  await page.getByTestId('@addresses/create-button').click();
  await actAs(page, DEMO_ADMIN);

  const detail = page.getByTestId('@addresses/detail');
  await expect(detail).toBeVisible();
  const address = (await page.getByTestId('@addresses/selected-address').textContent())?.trim() ?? '';
  expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  const created = (await desk.value('addresses/list', {})).find((candidate) => candidate.userOrder === 'E2E-QR-0001');
  expect(created?.address).toBe(address);
  await expect(page.getByTestId('@addresses/notes')).toContainText('USDC sent to this address is NOT credited');

  const qr = page.getByTestId('@addresses/qr-image');
  await expect(qr).toBeVisible();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const qrPath = join(SCREENSHOT_DIR, 'addresses-qr-element.png');
  await qr.screenshot({ path: qrPath });
  expect(await decodeQr(qrPath)).toBe(address);
  await expectAccessible(page, 'deposit addresses');
  await saveScreenshot(page, 'addresses-created-trx');

  // One eth_bnb address serves two chains: its note says so.
  await page.getByTestId('@addresses/type-select').selectOption('eth_bnb');
  await page.getByTestId('@addresses/create-button').click();
  await actAs(page, DEMO_ADMIN);
  await expect(page.getByTestId('@addresses/selected-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('@addresses/notes')).toContainText('Ethereum and BNB Smart Chain');
  const evmPath = join(SCREENSHOT_DIR, 'addresses-qr-element-eth-bnb.png');
  await page.getByTestId('@addresses/qr-image').screenshot({ path: evmPath });
  expect(await decodeQr(evmPath)).toBe((await page.getByTestId('@addresses/selected-address').textContent())?.trim());
});

test('a wrong passphrase keeps the operator dialog open with the reason', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  // The demo desk's own first addresses (core/desk/demo-desk.ts); a refused creation adds none.
  const before = await desk.value('addresses/list', {});
  await go(page, 'addresses');
  await page.getByTestId('@addresses/create-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill('not the passphrase');
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toBeVisible();
  await expect(dialog.getByTestId('@operator-dialog/error')).toHaveAttribute('data-code', 'wrongPassphrase');
  await expectAccessible(page, 'operator dialog with an error');
  await saveScreenshot(page, 'operator-dialog-wrong-passphrase');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(await desk.value('addresses/list', {})).toEqual(before);
});
