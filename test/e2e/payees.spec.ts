// E2E: payees in the app (issue 21 item 1), on the Address book screen. An initiator adds a payee with addresses on
// two chains, an independent approver approves it once, and it is listed with each address in the book; a CSV of
// payees imported through main's open dialog waits as one batch (a bad file is refused whole, naming its lines); a
// name with a direction override is shown escaped; a treasury-desk://payee link opens the Address book with that payee
// marked; proof of control by a reverse micro-deposit (issue 21 item 2) from a payee's address; the approvals queue,
// All orders, batch lines and the period statement name the payee of an address. Every state passes axe.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeTronAddress } from '../../electron/chains';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';
import { evmAddress, writePayoutCsv } from './support/payout-files';
import { sandboxAdmin } from './support/sandbox-admin';

test.use({ locale: 'en-US' });

function tronAddress(): string {
  return encodeTronAddress(Uint8Array.from([0x41, ...randomBytes(20)]));
}

test('a payee with addresses on two chains is added, approved once by another operator, and listed with each address in the book', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'addressBook');
  const section = page.getByTestId('@payees/section');
  await expect(section.getByTestId('@payees/empty')).toBeVisible();
  await expectAccessible(page, 'payees, none yet');

  const tron = tronAddress();
  const eth = evmAddress();
  await section.getByTestId('@payees/name').fill('ACME GmbH');
  await section.getByTestId('@payees/note').fill('supplier, invoices monthly');
  await section.getByTestId('@payees/address').first().fill(tron);
  await section.getByTestId('@payees/another-address').click();
  await section.getByTestId('@payees/chain-select').nth(1).selectOption('eth');
  await section.getByTestId('@payees/address').nth(1).fill(eth);
  await section.getByTestId('@payees/add-button').click();
  await actAs(page, DEMO_ADMIN);
  await expect(section.getByTestId('@payees/status')).toHaveText('ACME GmbH was proposed and waits for approval.');
  const pending = section.getByTestId('@payees/pending-item');
  await expect(pending).toHaveCount(1);
  await expect(pending).toContainText('ACME GmbH');
  await expect(pending).toContainText(tron);
  await expect(pending).toContainText(eth);
  await expectAccessible(page, 'a payee waiting for approval');

  // The proposer cannot approve it: the dialog says why, and it still waits.
  await section.getByTestId('@payees/approve-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toContainText('independent');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(pending).toHaveCount(1);

  await section.getByTestId('@payees/approve-button').click();
  await actAs(page, DEMO_APPROVER);
  await expect(section.getByTestId('@payees/pending-empty')).toBeVisible();
  const row = section.getByTestId('@payees/row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('ACME GmbH');
  await expect(row).toContainText('supplier, invoices monthly');
  await expect(row.getByTestId('@payees/address-item')).toHaveCount(2);
  await expect(row.locator('[data-testid="@payees/address-item"][data-approved="true"]')).toHaveCount(2);
  await expect(row).toContainText(`approved by ${DEMO_APPROVER.operator}`);
  await expectAccessible(page, 'a payee in force');
  await saveScreenshot(page, 'payees-in-force');
  // The book itself says the same: both addresses are in it, by signed statements.
  const book = await desk.value('addressbook/list', {});
  for (const address of [tron, eth]) expect(book.entries.find((entry) => entry.address === address)?.approved).toBe(true);
});

test('a payee CSV is imported through the open dialog as one batch; a bad file is refused whole, naming its lines', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'addressBook');
  const section = page.getByTestId('@payees/section');
  const bad = join(desk.dataDir, 'bad-payees.csv');
  writeFileSync(bad, ['name,note,chain,address', `Payroll Ann,,trx,${tronAddress()}`, 'Payroll Bob,,trx,not-an-address', `Payroll Cy,,mars,${tronAddress()}`].join('\r\n') + '\r\n');
  desk.harness.desktop.answerNextOpenDialog(bad);
  await section.getByTestId('@payees/import-button').click();
  await actAs(page, DEMO_ADMIN);
  await expect(section.getByTestId('@payees/status')).toHaveText('The file was not imported: nothing was signed or stored.');
  const refused = section.getByTestId('@payees/refused');
  await expect(refused).toContainText('2 lines of the file need fixing (line 1 is the first payee line after the header)');
  await expect(refused.getByTestId('@payees/refused-line')).toHaveText([/^2\s*not-an-address is not a trx address/, /^3\s*"mars" is not a chain/]);
  await expectAccessible(page, 'a refused payee file');
  expect((await desk.value('payees/list', {})).pending).toEqual([]);

  const good = join(desk.dataDir, 'payees.csv');
  // BOM, CRLF, a quoted comma in a note, two addresses for one payee.
  writeFileSync(good, '\uFEFF' + ['name,note,chain,address', `Payroll Ann,"March, April",trx,${tronAddress()}`, `Payroll Ann,"March, April",eth,${evmAddress()}`, `Payroll Bob,,trx,${tronAddress()}`].join('\r\n') + '\r\n');
  desk.harness.desktop.answerNextOpenDialog(good);
  await section.getByTestId('@payees/import-button').click();
  await actAs(page, DEMO_ADMIN);
  await expect(section.getByTestId('@payees/status')).toHaveText('Imported payees.csv: the payees wait for approval as one batch.');
  const pending = section.getByTestId('@payees/pending-item');
  await expect(pending).toHaveCount(1);
  await expect(pending).toContainText('Payroll Ann');
  await expect(pending).toContainText('Payroll Bob');
  await expect(pending).toContainText('March, April');
  const dialog = desk.harness.desktop.records.findLast((record) => record.kind === 'openDialog');
  expect(dialog?.kind === 'openDialog' && dialog.request.purpose).toBe('payeesCsv');
  await expectAccessible(page, 'an imported payee batch waiting for approval');

  await section.getByTestId('@payees/approve-button').click();
  await actAs(page, DEMO_APPROVER);
  await expect(section.getByTestId('@payees/row')).toHaveCount(2);
});

test('a payee link opens the Address book with that payee marked; a name with a direction override is shown escaped and refused', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const proposed = await desk.value('payees/add', { name: 'Plain Payee', addresses: [{ chain: 'trx', address: tronAddress() }], as: DEMO_ADMIN });
  const batch = proposed.pending[0];
  if (batch === undefined) throw new Error('the payee does not wait for approval');
  await desk.value('addressbook/approve', { proposal: batch.proposal, as: DEMO_APPROVER });
  const plain = (await desk.value('payees/list', {})).payees.find((payee) => payee.name === 'Plain Payee');
  if (plain === undefined) throw new Error('the payee is not in force');

  await go(page, 'dashboard');
  desk.harness.links.openUrl(`treasury-desk://payee/${plain.id}`);
  await expect(page.getByTestId('@screen/addressBook')).toBeVisible();
  const marked = page.locator('[data-testid="@payees/row"][aria-current="true"]');
  await expect(marked).toHaveAttribute('data-id', plain.id);
  await expect(marked).toContainText('Plain Payee');
  await expectAccessible(page, 'a payee opened from a link');
  await saveScreenshot(page, 'payees-link');

  // A name typed with a right-to-left override: the dialog shows it as a mark, and the engine refuses it.
  const section = page.getByTestId('@payees/section');
  await section.getByTestId('@payees/name').fill('Supplier \u202Egnp.exe');
  await section.getByTestId('@payees/address').first().fill(tronAddress());
  await section.getByTestId('@payees/add-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog.getByTestId('@operator-dialog/description')).toContainText('Supplier ⟨U+202E⟩gnp.exe');
  expect(await dialog.textContent()).not.toContain('\u202E');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toContainText('control and text-direction characters are not allowed');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await desk.value('payees/list', {})).pending).toEqual([]);
});

test("proof of control: the desk makes a deposit address, a deposit from another address does not prove it, one from the payee's does", async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const payeeAddress = tronAddress();
  const proposed = await desk.value('payees/add', { name: 'Proven Supplier', addresses: [{ chain: 'trx', address: payeeAddress }], as: DEMO_ADMIN });
  await desk.value('addressbook/approve', { proposal: proposed.pending[0]?.proposal ?? '', as: DEMO_APPROVER });
  await go(page, 'addressBook');
  const row = page.locator('[data-testid="@payees/row"]', { hasText: 'Proven Supplier' });
  await row.getByTestId('@payees/proof-button').click();
  const proof = row.getByTestId('@payees/proof');
  await expect(proof).toHaveAttribute('data-status', 'none');
  await expect(proof.getByTestId('@payees/proof-standing')).toHaveText('Control not proven');
  await proof.getByTestId('@payees/proof-start').click();
  await actAs(page, DEMO_ADMIN);
  await expect(proof).toHaveAttribute('data-status', 'waiting');
  const view = await desk.value('addressbook/proof', { chain: 'trx', address: payeeAddress });
  const depositAddress = view.request?.depositAddress ?? '';
  await expect(proof.getByTestId('@payees/proof-instructions')).toContainText(`FROM ${payeeAddress} TO ${depositAddress}`);
  await expectAccessible(page, 'a proof of control waiting for the payee');

  const admin = sandboxAdmin(desk.demoSandbox().baseUrl);
  const other = tronAddress();
  expect((await admin.transfer({ toAddress: depositAddress, currency: 'trx', amount: '5', fromAddress: other })).credited).toBe(true);
  await desk.value('sync/run', {});
  await proof.getByTestId('@payees/proof-refresh').click();
  await expect(proof.getByTestId('@payees/proof-refused-deposit')).toContainText(`a deposit came from ${other}, not from the address`);
  await expect(proof).toHaveAttribute('data-status', 'waiting');

  const proving = await admin.transfer({ toAddress: depositAddress, currency: 'trx', amount: view.request?.minimum ?? '1', fromAddress: payeeAddress });
  expect(proving.credited).toBe(true);
  await desk.value('sync/run', {});
  await proof.getByTestId('@payees/proof-refresh').click();
  await expect(proof).toHaveAttribute('data-status', 'proven');
  await expect(proof.getByTestId('@payees/proof-standing')).toContainText(`Control proven by deposit ${proving.txid}`);
  await expectAccessible(page, 'control proven');
  await saveScreenshot(page, 'payees-control-proven');
});

test('the approvals queue, all orders and batch lines name the payee beside an address of the signed book, and no payee beside another', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const payeeAddress = evmAddress();
  const proposed = await desk.value('payees/add', { name: 'Queue Supplier', addresses: [{ chain: 'eth', address: payeeAddress }], as: DEMO_ADMIN });
  await desk.value('addressbook/approve', { proposal: proposed.pending[0]?.proposal ?? '', as: DEMO_APPROVER });
  const { withdrawal: toPayee } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '33', toAddress: payeeAddress, as: DEMO_ADMIN });
  const { withdrawal: toOther } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '34', toAddress: evmAddress(), as: DEMO_ADMIN });

  await go(page, 'withdrawals');
  const named = page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${toPayee.id}"]`);
  await expect(named.getByTestId('@withdrawals/queue-payee')).toHaveText('Queue Supplier');
  await expect(named).toContainText(payeeAddress);
  const unnamed = page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${toOther.id}"]`);
  await expect(unnamed).toBeVisible();
  await expect(unnamed.getByTestId('@withdrawals/queue-payee')).toHaveCount(0);
  await expectAccessible(page, 'the approvals queue with a payee named');

  await page.getByTestId('@withdrawals/tab-orders').click();
  await expect(page.locator(`[data-testid="@withdrawals/order-row"][data-id="${toPayee.id}"]`).getByTestId('@withdrawals/order-payee')).toHaveText('(Queue Supplier)');
  await expect(page.locator(`[data-testid="@withdrawals/order-row"][data-id="${toOther.id}"]`).getByTestId('@withdrawals/order-payee')).toHaveCount(0);

  const path = writePayoutCsv(desk.dataDir, 'payee-lines.csv', [
    ['eth.usdt', '21', payeeAddress, 'to the payee'],
    ['eth.usdt', '22', evmAddress(), 'to nobody booked'],
  ]);
  const batch = await desk.value('payouts/import', { path, as: DEMO_ADMIN });
  await page.getByTestId('@withdrawals/tab-batches').click();
  const section = page.getByTestId('@payouts/section');
  await section.getByTestId(`@payouts/open-${batch.id}`).click();
  const lines = section.getByTestId('@payouts/detail').getByTestId('@payouts/line');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0).getByTestId('@payouts/line-payee')).toHaveText('(payee Queue Supplier)');
  await expect(lines.nth(1).getByTestId('@payouts/line-payee')).toHaveCount(0);
  await expectAccessible(page, 'batch lines with a payee named');
});

test("the period statement names the payee of a withdrawal sent to a payee's address, and none for another", async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const payeeAddress = evmAddress();
  const proposed = await desk.value('payees/add', { name: 'Statement Supplier', addresses: [{ chain: 'eth', address: payeeAddress }], as: DEMO_ADMIN });
  await desk.value('addressbook/approve', { proposal: proposed.pending[0]?.proposal ?? '', as: DEMO_APPROVER });
  const sent: string[] = [];
  for (const toAddress of [payeeAddress, evmAddress()]) {
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '35', toAddress, as: DEMO_ADMIN });
    await desk.value('withdrawals/approve', { id: withdrawal.id, as: DEMO_APPROVER });
    await desk.value('withdrawals/submit', { id: withdrawal.id, as: DEMO_ADMIN });
    sent.push(withdrawal.id);
  }
  await desk.value('sync/run', {});

  await go(page, 'reconciliation');
  const section = page.getByTestId('@statement/section');
  await section.getByTestId('@statement/from').fill(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
  await section.getByTestId('@statement/build-button').click();
  const line = (id: string | undefined) => section.locator(`[data-testid="@statement/withdrawal"][data-request="${id}"]`);
  await expect(line(sent[0]).getByTestId('@statement/withdrawal-payee')).toHaveText('Statement Supplier');
  await expect(line(sent[0])).toContainText(payeeAddress);
  await expect(line(sent[1]).getByTestId('@statement/withdrawal-payee')).toHaveText('—');
  await expectAccessible(page, 'a statement with a withdrawal to a payee');
});
