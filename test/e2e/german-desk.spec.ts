// E2E: a German system gets a German desk (issue 22, part 1). With the browser's locale de-DE and the language left on
// "System", every screen speaks German: its title, its words, its numbers grouped the German way and its relative times
// ("vor 2 Min."); no English sentence is left on any screen (engine messages, which stay English, are marked lang="en");
// the page says lang="de-DE"; and each screen passes axe in German. The desk's status speaks German too: selfcheck's
// steps and advice, a resource the service fails (its error's German headline, the engine's English beneath) and the
// offline banner's cause, only the transport's own words marked English.
import type { Page } from '@playwright/test';
import { test, expect } from './support/desk';
import { go, startDemo, type ScreenName } from './support/flows';
import { saveScreenshot, seriousA11yViolations } from './support/page-checks';
import { sandboxAdmin } from './support/sandbox-admin';

test.use({ locale: 'de-DE' });

/**
 * Visible text on the screen that reads as English: words German never uses, outside anything marked lang="en" and
 * outside code (addresses, ids). An expression string: this project's Node tsconfig has no DOM types.
 */
async function englishLeftOn(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const english = /\\b(the|and|of|with|from|this|your|you|not|is|are|has|have|been|by|which|when|what|who|there|their|before|after|only|each|every|none|than|should|would|could|must|does|for|to|on|or|no|yet|shown|seen|loading)\\b/i;
    const found = new Set();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const element = node.parentElement;
      if (element === null || element.closest('[lang="en"], code, pre, script, style, [data-i18n="data"]') !== null) continue;
      if (element.closest('[hidden], [aria-hidden="true"]') !== null) continue;
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const text = (node.textContent ?? '').trim();
      if (text !== '' && english.test(text)) found.add(text.slice(0, 120));
    }
    return [...found];
  })()`);
}

const GERMAN_TITLES: Readonly<Record<ScreenName, RegExp>> = {
  dashboard: /Übersicht/,
  deposits: /Einzahlungen/,
  addresses: /Einzahlungsadressen/,
  withdrawals: /Auszahlungen/,
  addressBook: /Adressbuch/,
  reconciliation: /Abstimmung/,
  tools: /Werkzeuge/,
  audit: /Prüfprotokoll/,
  operators: /Operatoren/,
  settings: /Einstellungen/,
  profiles: /Profile und Verbindung/,
};

test('on a German system every screen speaks German, with German numbers and times, and passes axe', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  // Every screen is looked at before anything is asserted, so one run names every problem.
  const left: string[] = [];
  const inaccessible: string[] = [];
  const titles: string[] = [];
  for (const screen of Object.keys(GERMAN_TITLES) as ScreenName[]) {
    await go(page, screen);
    const title = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
    if (!GERMAN_TITLES[screen].test(title)) titles.push(`${screen}: ${title}`);
    if (screen === 'deposits') await expect(page.getByTestId('@deposits/row').first()).toBeVisible();
    for (const text of await englishLeftOn(page)) left.push(`${screen}: ${text}`);
    for (const violation of await seriousA11yViolations(page)) inaccessible.push(`${screen}: ${violation}`);
  }
  expect(titles, 'screen titles not in German').toEqual([]);
  expect(left, 'English left on a German desk').toEqual([]);
  expect(inaccessible, 'axe-core in German').toEqual([]);

  // Numbers grouped the German way, and the time since the last sync said in German.
  await go(page, 'dashboard');
  const balances = await desk.value('balances/list', {});
  const large = balances.find((balance) => balance.available.split('.')[0]!.length > 3) ?? balances[0];
  if (large === undefined) throw new Error('the demo has no balances');
  const [integer = ''] = large.available.split('.');
  await expect(page.getByTestId(`@dashboard/available-${large.currency}`).locator('.amount__digits')).toContainText(integer.replace(/\B(?=(\d{3})+(?!\d))/g, '.'));
  await expect(page.getByTestId('@screen/dashboard')).toContainText(/gerade eben|vor \d+ (Min\.|Std\.)/);
  await saveScreenshot(page, 'german-dashboard');
});

test("on a German system the desk's status speaks German: selfcheck, a failing service and the offline banner", async ({ page, desk }) => {
  await startDemo(page, desk.url);
  const [profile] = (await desk.value('profiles/list', {})).filter((candidate) => candidate.active);
  if (profile === undefined) throw new Error('no active profile after demo/start');
  const admin = sandboxAdmin(desk.demoSandbox().baseUrl);

  // The service's clock 200 s ahead: every step passes, the clock with a warning and advice.
  await admin.setClock(200);
  await go(page, 'profiles');
  await page.getByTestId('@selfcheck/run-button').click();
  await expect(page.getByTestId('@selfcheck/result')).toHaveText(/Selbsttest bestanden/);
  await expect(page.getByTestId('@selfcheck/step-clock')).toContainText('Die Uhr des Dienstes geht gegenüber diesem Computer 200 s vor');
  await expect(page.getByTestId('@selfcheck/step-token')).toContainText('getToken hat mit einem geprüften, entschlüsselten Token geantwortet');
  await expect(page.getByTestId('@selfcheck/guidance')).toContainText('Prüfen Sie die Zeitsynchronisierung dieses Computers');
  expect(await englishLeftOn(page), 'English left on the selfcheck').toEqual([]);
  await admin.setClock(0);

  // The service fails getDeposits (HTTP 503): the banner says what kind of problem in German, the engine's English beneath.
  await admin.addFault({ endpoint: 'getDeposits', merchantId: profile.merchantId, answer: { httpStatus: 503 } });
  await go(page, 'dashboard');
  await page.getByTestId('@dashboard/sync-button').click();
  const trouble = page.getByTestId('@banner/service-trouble-deposits');
  await expect(trouble).toContainText('Einzahlungen: Der Dienst hat die Anfrage abgelehnt.', { timeout: 30_000 });
  await expect(trouble.locator('[lang="en"]')).toHaveText(/^the service answered HTTP 503 to getDeposits: it is reachable but failing/);
  expect(await englishLeftOn(page), 'English left beside a failing service').toEqual([]);
  await admin.clearFaults();

  // The sandbox stops: the offline banner says why in German; only the transport's own words are marked English.
  await desk.demoSandbox().close();
  await page.getByTestId('@dashboard/sync-button').click();
  const banner = page.getByTestId('@banner/offline');
  await expect(banner).toHaveAttribute('data-reason', 'network');
  await expect(banner).toContainText('Der Dienst ist nicht erreichbar:');
  await expect(banner).toContainText('Prüfen Sie die Netzwerkverbindung.');
  expect(await englishLeftOn(page), 'English left on the offline banner').toEqual([]);
  await saveScreenshot(page, 'german-dashboard-offline');
});
