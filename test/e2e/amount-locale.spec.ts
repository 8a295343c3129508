// E2E: money typed in the person's locale (issue 22, the money half). In German the withdrawal amount field reads
// `1.250,5` as 1250.5 and `12,500` as 12.5, and refuses `12.500` (12500 or 12.5?) and `1,250.5` (separators the English
// way round) with what to type; the field shows what it read, and the preflight, the confirm dialog, the signed request
// and the queue all carry that same amount; the policy editor's unusual-amount factor is read the same way. In US
// English the mirror: `12,500` refused, `1,250.5` read. A German system gets a German desk, so there the refusals and
// labels read in German. Passes axe.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect } from './support/desk';
import { actAs, DEMO_ADMIN, DEMO_ADMIN_2, go, startDemo } from './support/flows';
import { expectAccessible } from './support/page-checks';

async function openRequestForm(page: Page): Promise<void> {
  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-request').click();
  // USDT on BNB Smart Chain: its minimum withdrawal (5) lets 12.5 through.
  await page.getByTestId('@withdrawals/currency').selectOption('bnb.usdt');
  await page.getByTestId('@withdrawals/to-address').fill(`0x${randomBytes(20).toString('hex')}`);
}

test.describe('in a German locale', () => {
  test.use({ locale: 'de-DE' });

  test('the withdrawal amount is read the German way, refused when ambiguous, and the same amount is preflighted, confirmed, signed and queued', async ({ page, desk }) => {
    await startDemo(page, desk.url);
    // The browser harness hands Playwright's locale to the renderer: the desk formats in German.
    expect(await page.evaluate(() => navigator.language)).toBe('de-DE');
    await openRequestForm(page);
    const amount = page.getByTestId('@withdrawals/amount');
    const reading = page.getByTestId('@withdrawals/amount-reading');
    const error = page.getByTestId('@withdrawals/amount-error');
    const received = page.getByTestId('@withdrawals/preflight-received');
    const requestButton = page.getByTestId('@withdrawals/request-button');

    // Dots group thousands, the comma marks decimals.
    await amount.fill('1.250,5');
    // A German system speaks German (i18n): the field says what it read in German words too.
    await expect(reading).toHaveText('Gelesen als 1.250,5 USDT.');
    await expect(error).toHaveCount(0);
    await expect(received.locator('.amount')).toHaveAttribute('data-value', '1250.5');
    await expect(received.locator('.amount__digits')).toHaveText('1.250,5');

    // A lone dot before three digits: 12500 to a German reader, 12.5 to an English one. Refused, and nothing is requested.
    await amount.fill('12.500');
    await expect(error).toHaveText('12.500 kann 12500 oder 12.5 bedeuten: Geben Sie 12500 oder 12,5 ein.');
    await expect(reading).toHaveCount(0);
    await expect(requestButton).toBeDisabled();
    await expectAccessible(page, 'withdrawal request refusing an ambiguous amount (de-DE)');

    // Separators the English way round.
    await amount.fill('1,250.5');
    await expect(error).toHaveText('1,250.5: auf Deutsch ist „,“ (Komma) das Dezimalzeichen und „.“ (Punkt) das Tausendertrennzeichen. Geben Sie 1250,5 ein.');
    await expect(reading).toHaveCount(0);
    await expect(requestButton).toBeDisabled();

    // The comma marks decimals: 12,500 is twelve and a half, everywhere from the preflight to the queue.
    await amount.fill('12,500');
    await expect(reading).toHaveText('Gelesen als 12,5 USDT.');
    await expect(error).toHaveCount(0);
    await expect(received.locator('.amount')).toHaveAttribute('data-value', '12.5');
    await expect(received.locator('.amount__digits')).toHaveText('12,5');
    await expect(page.getByTestId('@withdrawals/preflight-verdict')).toHaveText(/Bereit zum Beantragen/);
    await expectAccessible(page, 'withdrawal request with a German amount read');

    await requestButton.click();
    await expect(page.getByTestId('@operator-dialog/description')).toHaveText(/^12,5 USDT \(/);
    await actAs(page, DEMO_ADMIN);
    await expect(page.getByTestId('@withdrawals/request-created')).toBeVisible();
    const [request] = (await desk.value('withdrawals/list', { state: 'awaitingApproval' })).rows;
    if (request === undefined) throw new Error('the request is not awaiting approval');
    expect(request.amount).toBe('12.5');

    await page.getByTestId('@withdrawals/tab-queue').click();
    const item = page.locator(`[data-testid="@withdrawals/queue-item"][data-id="${request.id}"]`);
    await expect(item.locator('.amount').first()).toHaveAttribute('data-value', '12.5');
    await expect(item.locator('.amount__digits').first()).toHaveText('12,5');
  });

  test("the policy editor reads the unusual-amount factor the German way: 2,5 is proposed as 2.5, and shown as 2,5", async ({ page, desk }) => {
    await startDemo(page, desk.url);
    await go(page, 'settings');
    // The system speaks German, so Settings does too (the amount's own refusal is still English: contract/amount-input).
    await page.getByRole('button', { name: 'Richtlinie für USDT auf Ethereum ändern' }).click();
    const editor = page.getByTestId('@settings/policy-editor');
    await editor.getByLabel(/^Ungewöhnlicher Betrag/).fill('2.500');
    await expect(editor.getByTestId('@settings/policy-unusual-factor-error')).toHaveText('2.500 kann 2500 oder 2.5 bedeuten: Geben Sie 2500 oder 2,5 ein.');
    await editor.getByLabel(/^Ungewöhnlicher Betrag/).fill('2,5');
    await expect(editor.getByTestId('@settings/policy-unusual-factor-error')).toHaveCount(0);
    await editor.getByRole('button', { name: 'Richtlinie speichern' }).click();
    await actAs(page, DEMO_ADMIN);
    // Two independent admins: the change waits for the other one, who confirms it; what takes effect is the canonical factor.
    const [proposal] = (await desk.value('operators/list', {})).proposals.filter((candidate) => candidate.kind === 'policy');
    if (proposal === undefined) throw new Error('no policy proposal');
    await desk.value('operators/confirm', { proposal: proposal.id, as: DEMO_ADMIN_2 });
    const policy = (await desk.value('policies/list', {})).find((candidate) => candidate.currency === 'eth.usdt');
    expect(policy?.unusualAmount).toEqual({ factor: '2.5', firstPayment: false });
    await page.reload();
    await go(page, 'settings');
    await expect(page.getByTestId('@settings/policies')).toContainText('über 2,5 × Median');
  });
});

test.describe('in a US English locale', () => {
  test.use({ locale: 'en-US' });

  test('the mirror: a lone comma group is refused, commas grouping thousands are read', async ({ page, desk }) => {
    await startDemo(page, desk.url);
    await openRequestForm(page);
    const amount = page.getByTestId('@withdrawals/amount');
    await amount.fill('12,500');
    await expect(page.getByTestId('@withdrawals/amount-error')).toHaveText('12,500 could mean 12500 or 12,5: type 12500 or 12.5.');
    await expect(page.getByTestId('@withdrawals/request-button')).toBeDisabled();
    await amount.fill('1,250.5');
    await expect(page.getByTestId('@withdrawals/amount-reading')).toHaveText('Reads as 1,250.5 USDT.');
    await expect(page.getByTestId('@withdrawals/preflight-received').locator('.amount')).toHaveAttribute('data-value', '1250.5');
    await expectAccessible(page, 'withdrawal request with a US amount read');
  });
});
