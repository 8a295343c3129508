// E2E: the policy editor's preview (issue 20, part 6). Before a change is proposed, the editor says what it would do
// to the requests now waiting: which need more approvals and which a new limit would hold, each request's amount and
// fingerprint as its signed intent says; typing another draft updates it; cancelling proposes nothing. Passes axe.
import { randomBytes } from 'node:crypto';
import { test, expect } from './support/desk';
import { DEMO_ADMIN, DEMO_APPROVER, go, startDemo } from './support/flows';
import { expectAccessible } from './support/page-checks';

test.use({ locale: 'en-US' });

test('the policy editor shows what a change would do to the requests now waiting, before it is proposed', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const address = (): string => `0x${randomBytes(20).toString('hex')}`;
  const small = (await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '30', toAddress: address(), as: DEMO_ADMIN })).withdrawal;
  const large = (await desk.value('withdrawals/request', { currency: 'eth.usdt', amount: '1250.5', toAddress: address(), as: DEMO_ADMIN })).withdrawal;
  await desk.value('withdrawals/approve', { id: large.id, as: DEMO_APPROVER });
  const before = (await desk.value('policies/list', {})).find((policy) => policy.currency === 'eth.usdt');
  const row = (before?.thresholds.length ?? 0) + 1;

  await go(page, 'settings');
  await page.getByRole('button', { name: 'Edit the USDT on Ethereum policy' }).click();
  const editor = page.getByTestId('@settings/policy-editor');
  const summary = editor.getByTestId('@settings/policy-preview-summary');
  // The policy as it is changes nothing.
  await expect(summary).toHaveText('2 requests wait for approval or sending; this change affects 0.');

  // Amounts above 1,000 need two approvals: the approved large request would be held at send.
  await editor.getByRole('button', { name: 'Add a threshold' }).click();
  await editor.getByLabel(`Above amount #${row}`).fill('1000');
  await editor.getByLabel('Approvals').nth(row - 1).selectOption('2');
  await expect(summary).toHaveText('2 requests wait for approval or sending; this change affects 1.');
  const line = editor.getByTestId(`@settings/policy-preview-${large.id}`);
  await expect(line).toContainText(`#${large.id} ${large.fingerprint ?? ''}`);
  await expect(line).toContainText('1,250.5');
  await expect(line).toContainText('1 → 2 (1 given)');
  await expect(line).toContainText('it has 1 counted approval and would need 2');
  await expect(editor.getByTestId(`@settings/policy-preview-${small.id}`)).toHaveCount(0);

  // A daily limit of 100 would hold both (the day's signed requests total 1,280.5).
  await editor.getByLabel('Daily limit (empty for none)').fill('100');
  await expect(summary).toHaveText('2 requests wait for approval or sending; this change affects 2.');
  await expect(editor.getByTestId(`@settings/policy-preview-${small.id}`)).toContainText('the daily limit is 100');
  await expectAccessible(page, 'the policy editor with its preview');

  // The unusual-amount rule (issue 21) with first payments: both destinations were never paid, so each needs one approval more.
  await editor.getByLabel(/^Unusual amount/).fill('3');
  await editor.getByLabel(/^With the unusual-amount rule/).check();
  await expect(editor.getByTestId(`@settings/policy-preview-${small.id}`)).toContainText('1 → 2 (0 given)');
  await expect(line).toContainText('1 → 3 (1 given)');
  // The factor is read like an amount, in the person's locale: what cannot be read is refused at the field.
  await editor.getByLabel(/^Unusual amount/).fill('lots');
  await expect(editor.getByTestId('@settings/policy-unusual-factor-error')).toHaveText('lots: an amount is digits only, without letters or exponents. Type it in full, as in 1250.5.');
  await expect(summary).toHaveText('Not previewed: a field above says what to type first.');
  await editor.getByLabel(/^Unusual amount/).fill('');

  // A draft that is not usable says why instead.
  await editor.getByLabel(`Above amount #${row}`).fill('ten');
  await expect(editor.getByTestId(`@settings/policy-above-${row - 1}-error`)).toHaveText('ten: an amount is digits only, without letters or exponents. Type it in full, as in 1250.5.');
  await expect(summary).toHaveText('Not previewed: a field above says what to type first.');
  // An amount is read in the person's locale, and the field says what it read before anything is previewed or signed.
  await editor.getByLabel(`Above amount #${row}`).fill('12,500');
  await expect(editor.getByTestId(`@settings/policy-above-${row - 1}-error`)).toHaveText('12,500 could mean 12500 or 12,5: type 12500 or 12.5.');
  await editor.getByLabel(`Above amount #${row}`).fill('1,250.5');
  await expect(editor.getByTestId(`@settings/policy-above-${row - 1}-reading`)).toHaveText('Reads as 1,250.5 USDT.');
  await expect(summary).toHaveText('2 requests wait for approval or sending; this change affects 2.');

  // Cancelling proposes nothing.
  await editor.getByRole('button', { name: 'Cancel' }).click();
  expect((await desk.value('policies/list', {})).find((policy) => policy.currency === 'eth.usdt')).toEqual(before);
  expect((await desk.value('operators/list', {})).proposals.filter((proposal) => proposal.kind === 'policy')).toEqual([]);
});
