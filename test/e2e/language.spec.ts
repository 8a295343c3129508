// E2E: the window's language (issue 22). On an English system Settings offers "System (English)", "English" and
// "Deutsch", each language named in itself; choosing Deutsch re-renders the window in German at once (headings, the
// Language section, dates in the German way), main keeps the choice (desktop/setPreferences) so a reload still speaks
// German, and choosing English brings every word back. Passes axe in German (the English screen is checked by the other
// Settings specs).
import { test, expect, type Desk } from './support/desk';
import { go, startDemo } from './support/flows';
import { expectAccessible, saveScreenshot } from './support/page-checks';

test.use({ locale: 'en-US' });

/** What main keeps for this workstation (the harness's desktop handlers are main's). */
const kept = async (desk: Desk): Promise<unknown> => desk.harness.desktopHandlers['desktop/preferences']({});

test('Settings speaks German once Deutsch is chosen, keeps it across a reload, and English again once chosen', async ({ page, desk }) => {
  // One desk through a choice, a reload and back, with an axe pass over the longest screen: more than the default time.
  test.slow();
  await startDemo(page, desk.url);
  await go(page, 'settings');
  const section = page.getByTestId('@settings/language');
  const choice = section.getByTestId('@settings/language-choice');
  const now = page.getByTestId('@settings/time-zone-now');

  // English to begin with: the system's language, each choice named in itself.
  await expect(section.getByRole('heading', { level: 2 })).toHaveText('Language');
  await expect(choice).toHaveValue('system');
  await expect(choice.locator('option')).toHaveText(['System (English)', 'English', 'Deutsch']);
  await expect(choice.locator('option[value="de"]')).toHaveAttribute('lang', 'de');
  await expect(now).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2} [AP]M UTC$/);

  // Deutsch: the whole window re-renders in German at once, and main keeps the choice.
  await choice.selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  await expect(section.getByRole('heading', { level: 2 })).toHaveText('Sprache');
  await expect(section.getByText('Die Sprache dieses Fensters an diesem Arbeitsplatz.', { exact: false })).toBeVisible();
  await expect(section.getByLabel('Sprache', { exact: true })).toHaveValue('de');
  await expect(choice.locator('option')).toHaveText(['System (English)', 'English', 'Deutsch']);
  await expect(page.getByRole('heading', { name: 'Auszahlungsrichtlinien' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Berichtszeitzone' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Withdrawal policies' })).toHaveCount(0);
  // A date the German way ("29. Nov. 2026, 09:05:00 UTC") and a duration in German words.
  await expect(now).toHaveText(/^\d{1,2}\. \p{L}+\.? \d{4}, \d{2}:\d{2}:\d{2} UTC$/u);
  await expect(page.getByText(/^Derzeit: sperrt (nie von selbst|nach \d+ (Min\.|Std\.) Inaktivität)\.$/)).toBeVisible();
  await expect.poll(() => kept(desk)).toEqual({ ok: true, value: { keepRunningInTray: false, language: 'de' } });
  await expectAccessible(page, 'settings in German');
  await saveScreenshot(page, 'settings-german');

  // A reload asks main again: still German.
  await page.reload();
  await go(page, 'settings');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  await expect(section.getByRole('heading', { level: 2 })).toHaveText('Sprache');
  await expect(choice).toHaveValue('de');
  await expect(now).toHaveText(/^\d{1,2}\. \p{L}+\.? \d{4}, \d{2}:\d{2}:\d{2} UTC$/u);

  // English again: every word is back, and main keeps that.
  await choice.selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await expect(section.getByRole('heading', { level: 2 })).toHaveText('Language');
  await expect(page.getByRole('heading', { name: 'Withdrawal policies' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Auszahlungsrichtlinien' })).toHaveCount(0);
  await expect(now).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2} [AP]M UTC$/);
  await expect(choice).toHaveValue('en');
  await expect.poll(() => kept(desk)).toEqual({ ok: true, value: { keepRunningInTray: false, language: 'en' } });

  // Back to the system's language: English here, and main forgets the explicit choice.
  await choice.selectOption('system');
  await expect(choice).toHaveValue('system');
  await expect(section.getByRole('heading', { level: 2 })).toHaveText('Language');
  await expect.poll(() => kept(desk)).toEqual({ ok: true, value: { keepRunningInTray: false, language: 'system' } });
});
