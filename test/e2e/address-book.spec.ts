// E2E: the Address book screen and labels (issue 13) — an addition proposed by one operator waits, the proposer cannot
// approve it, a second operator does; with "only from book" set in Settings a withdrawal to an address outside the
// book is refused in the app naming the policy, and one to the approved address is ready; a deposit labelled in its
// row is found by the label search, and the labels file exports and imports it; an operator signed in labels without
// a passphrase each time (issue 22, item 3); look-alike warnings while typing an
// address (a TRON address in another letter case, the WBTC poisoning pair), while the same EVM address in another
// case is recognised as the same entry. Axe on every state shown.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { encodeTronAddress } from '../../electron/chains';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_ADMIN_2, DEMO_APPROVER, go, signInAs, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';

const WBTC_INTENDED = '0xd9A1b0B1e1aE382DbDc898Ea68012FfcB2853a91';
const WBTC_POISONED = '0xd9A1C3788D81257612E2581A6ea0aDa244853a91';

function tronAddress(): string {
  return encodeTronAddress(Uint8Array.from([0x41, ...randomBytes(20)]));
}

/** A's letters in the other case: the same characters a person checks, another address on a case-sensitive chain. */
function swapCase(text: string): string {
  return [...text].map((char) => (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase())).join('');
}

async function addToBook(page: Page, chain: string, address: string, label: string): Promise<void> {
  await page.getByTestId('@book/chain-select').selectOption(chain);
  await page.getByTestId('@book/address').fill(address);
  await page.getByTestId('@book/label').fill(label);
  await page.getByTestId('@book/add-button').click();
}

test('an addition waits for a second operator; "only from book" then refuses other addresses in the app, naming the policy', async ({ page, desk }) => {
  await startDemo(page, desk.url);

  // The policy option, set where policies are edited, and confirmed by the other admin.
  await go(page, 'settings');
  await page.getByRole('button', { name: 'Edit the USDT on TRON policy' }).click();
  await page.getByTestId('@settings/policy-only-from-book').check();
  await page.getByTestId('@settings/policy-wait').fill('1.5');
  await page.getByTestId('@settings/policy-save').click();
  await expect(page.getByTestId('@settings/policy-wait-error')).toContainText('whole hours');
  await page.getByTestId('@settings/policy-wait').fill('0');
  await page.getByTestId('@settings/policy-save').click();
  await actAs(page, DEMO_ADMIN);
  await expect(page.getByTestId('@settings/policy-status')).toContainText('waiting for confirmation by another admin');
  const [change] = (await desk.value('operators/list', {})).proposals.filter((proposal) => proposal.kind === 'policy');
  if (change === undefined) throw new Error('no policy proposal');
  await desk.value('operators/confirm', { proposal: change.id, as: DEMO_ADMIN_2 });
  await go(page, 'dashboard');
  await go(page, 'settings');
  await expect(page.getByTestId('@settings/policy-only-from-book-trx.usdt')).toHaveText('yes');
  await expect(page.getByTestId('@settings/policy-wait-trx.usdt')).toHaveText('no');

  const supplier = tronAddress();
  await go(page, 'addressBook');
  await expectAccessible(page, 'address book, empty');
  await addToBook(page, 'trx', supplier, 'Supplier ACME');
  await actAs(page, DEMO_ADMIN);
  const pending = page.locator(`[data-testid="@book/pending-item"][data-address="${supplier}"]`);
  await expect(pending).toContainText('proposed by demo-admin');
  const entry = page.locator(`[data-testid="@book/entry"][data-address="${supplier}"]`);
  await expect(entry.getByTestId('@book/status')).toHaveAttribute('data-status', 'pending');
  await expect(entry.getByTestId('@book/entry-label-text')).toHaveText('Supplier ACME');
  await expectAccessible(page, 'address book with an addition waiting');
  await saveScreenshot(page, 'address-book-pending');

  // The proposer is not independent of themself: the dialog says so and nothing changes.
  await pending.getByTestId('@book/approve-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toContainText('not independent of demo-admin');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(entry.getByTestId('@book/status')).toHaveAttribute('data-status', 'pending');

  // Before the approval, a withdrawal to it is refused, saying the addition waits.
  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-request').click();
  await page.getByTestId('@withdrawals/currency').selectOption('trx.usdt');
  await page.getByTestId('@withdrawals/amount').fill('10');
  await page.getByTestId('@withdrawals/to-address').fill(supplier);
  await expect(page.getByTestId('@withdrawals/to-address-error')).toContainText("waits for another operator's approval");

  await go(page, 'addressBook');
  await pending.getByTestId('@book/approve-button').click();
  await actAs(page, DEMO_APPROVER);
  await expect(page.getByTestId('@book/pending-empty')).toBeVisible();
  await expect(entry.getByTestId('@book/status')).toHaveAttribute('data-status', 'approved');
  await expect(entry.getByTestId('@book/status')).toContainText('added by demo-admin, approved by demo-approver');
  const book = await desk.value('addressbook/list', {});
  expect(book.entries.find((candidate) => candidate.address === supplier)).toMatchObject({ approved: true, addedBy: 'demo-admin', approvedBy: 'demo-approver', label: 'Supplier ACME' });
  await expectAccessible(page, 'address book with an approved entry');
  await saveScreenshot(page, 'address-book-approved');

  // Relabel in place: the entry's label changes, signed by an operator.
  await entry.getByTestId('@book/entry-label-edit').click();
  await entry.getByTestId('@book/entry-label-input').fill('Supplier ACME (EUR)');
  await entry.getByTestId('@book/entry-label-save').click();
  await actAs(page, DEMO_ADMIN);
  await expect(entry.getByTestId('@book/entry-label-text')).toHaveText('Supplier ACME (EUR)');

  // In the app: an address outside the book is refused naming the policy; the approved one is ready.
  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-request').click();
  await page.getByTestId('@withdrawals/currency').selectOption('trx.usdt');
  await page.getByTestId('@withdrawals/amount').fill('10');
  await page.getByTestId('@withdrawals/to-address').fill(tronAddress());
  const refusal = page.getByTestId('@withdrawals/to-address-error');
  await expect(refusal).toContainText('policy allows only addresses from the address book ("only from book")');
  await expect(refusal).toContainText('USDT');
  await expect(page.getByTestId('@withdrawals/request-button')).toBeDisabled();
  await expectAccessible(page, 'withdrawal refused by only-from-book');
  await page.getByTestId('@withdrawals/to-address').fill(supplier);
  await expect(page.getByTestId('@withdrawals/preflight-verdict')).toHaveText(/Ready to request/);

  // Removal takes effect at once.
  await go(page, 'addressBook');
  await entry.getByTestId('@book/remove-button').click();
  await actAs(page, DEMO_ADMIN);
  expect((await desk.value('addressbook/list', {})).entries.find((candidate) => candidate.address === supplier)).toBeUndefined();
});

test('a deposit labelled in its row is found by the label search; the labels file exports and imports it', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const [deposit] = (await desk.value('deposits/list', { limit: 1 })).rows;
  if (deposit === undefined) throw new Error('the demo has no deposits');
  const total = (await desk.value('deposits/list', { limit: 1000 })).rows.length;
  expect(total).toBeGreaterThan(1);

  await go(page, 'deposits');
  const row = page.locator(`[data-testid="@deposits/row"][data-txid="${deposit.txid}"]`);
  await row.getByTestId('@deposits/label-edit').click();
  await row.getByTestId('@deposits/label-input').fill('Invoice 77 ACME');
  await row.getByTestId('@deposits/label-save').click();
  await actAs(page, DEMO_ADMIN);
  await expect(row.getByTestId('@deposits/label-text')).toHaveText('Invoice 77 ACME');

  await page.getByTestId('@deposits/label-search').fill('acme');
  await expect(page.getByTestId('@deposits/count')).toHaveText(/^1 deposit shown/);
  await expect(page.getByTestId('@deposits/row')).toHaveCount(1);
  await expect(row).toBeVisible();
  await expectAccessible(page, 'deposits found by label');
  await saveScreenshot(page, 'deposits-by-label');
  await page.getByTestId('@deposits/label-search').fill('nobody wrote this');
  await expect(page.getByTestId('@deposits/count')).toHaveText(/^0 deposits shown/);

  // The file holds every label of the profile: this one and those the demo desk gave its own addresses.
  const labelCount = (await desk.value('labels/search', { text: '' })).length;
  expect(labelCount).toBeGreaterThan(1);
  await go(page, 'addressBook');
  await page.getByTestId('@book/export-labels').click();
  await expect(page.getByTestId('@book/labels-status')).toHaveText(new RegExp(`Exported ${labelCount} labels to \\S*labels-[0-9-]+\\.jsonl\\.`));
  const saved = [...desk.harness.desktop.records].reverse().find((record) => record.kind === 'saveDialog');
  if (saved?.kind !== 'saveDialog' || saved.answer === null) throw new Error('no labels file saved');
  const lines = readFileSync(saved.answer, 'utf8').split('\n');
  expect(lines.pop()).toBe('');
  expect(lines).toHaveLength(labelCount);
  expect(lines).toContain(JSON.stringify({ type: 'deposit', ref: deposit.apiOrder, label: 'Invoice 77 ACME' }));

  // Change the label, then import the file: the exported label is back.
  await desk.value('labels/set', { type: 'deposit', ref: deposit.apiOrder, label: 'changed', as: DEMO_ADMIN });
  desk.harness.desktop.answerNextOpenDialog(saved.answer);
  await page.getByTestId('@book/import-labels').click();
  await actAs(page, DEMO_ADMIN);
  await expect(page.getByTestId('@book/labels-status')).toContainText(new RegExp(`Imported ${labelCount} labels from \\S*labels-[0-9-]+\\.jsonl\\.`));
  expect((await desk.value('labels/search', { text: '', type: 'deposit' })).map((view) => view.label)).toEqual(['Invoice 77 ACME']);
  await expectAccessible(page, 'address book after a labels import');
});

test('look-alike warnings while typing an address to add: another letter case on TRON, the same edges on Ethereum', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const tron = tronAddress();
  await desk.value('addressbook/add', { chain: 'trx', address: tron, label: 'Payroll wallet', as: DEMO_ADMIN });
  await desk.value('addressbook/add', { chain: 'eth', address: WBTC_INTENDED, label: 'Cold wallet', as: DEMO_ADMIN });
  await go(page, 'addressBook');

  // TRON is case-sensitive: the same letters in another case are another address that looks the same.
  await page.getByTestId('@book/chain-select').selectOption('trx');
  await page.getByTestId('@book/address').fill(`${tron.slice(0, 1)}${swapCase(tron.slice(1))}`);
  const warning = page.getByTestId('@book/lookalike');
  await expect(warning).toHaveCount(1);
  await expect(warning).toContainText('“Payroll wallet”');
  await expect(page.getByTestId('@book/lookalike-known')).toHaveText(tron);
  await expectAccessible(page, 'address book look-alike warning');
  await saveScreenshot(page, 'address-book-lookalike');

  // The WBTC poisoning pair: the same first and last characters, another middle.
  await page.getByTestId('@book/chain-select').selectOption('eth');
  await page.getByTestId('@book/address').fill(WBTC_POISONED);
  await expect(warning).toHaveCount(1);
  await expect(warning).toContainText('“Cold wallet”');
  await expect(page.getByTestId('@book/lookalike-typed').locator('mark').first()).toBeVisible();

  // An EVM address in another letter case is the same entry, not a look-alike.
  await page.getByTestId('@book/address').fill(WBTC_INTENDED.toLowerCase());
  await expect(warning).toHaveCount(0);
  await expect(page.getByTestId('@book/already-known')).toContainText('already knows this address as “Cold wallet”');

  // A control character typed into the label is echoed escaped in the dialog and refused by the engine.
  await page.getByTestId('@book/address').fill(tronAddress());
  await page.getByTestId('@book/label').fill('evil\u202Etxt');
  await page.getByTestId('@book/add-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog.getByTestId('@operator-dialog/description')).toContainText('evil⟨U+202E⟩txt');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();
  await expect(dialog.getByTestId('@operator-dialog/error')).toContainText('text-direction');
});

test('signed in, an operator labels records without a passphrase each time; the audit log names them', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const [deposit] = (await desk.value('deposits/list', { limit: 1 })).rows;
  if (deposit === undefined) throw new Error('the demo has no deposits');
  await signInAs(page, DEMO_APPROVER);
  await go(page, 'deposits');
  const row = page.locator(`[data-testid="@deposits/row"][data-txid="${deposit.txid}"]`);
  await row.getByTestId('@deposits/label-edit').click();
  await row.getByTestId('@deposits/label-input').fill('Payroll June');
  await row.getByTestId('@deposits/label-save').click();
  await expect(row.getByTestId('@deposits/label-text')).toHaveText('Payroll June');
  await expect(page.getByTestId('@operator-dialog')).toBeHidden();
  expect((await desk.value('audit/list', { limit: 1 })).rows[0]).toMatchObject({ action: 'labels/set', operator: DEMO_APPROVER.operator });
});
