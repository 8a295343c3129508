// The shell's words in both languages: every contract error code has a headline (a new code without one fails here and
// does not compile), ErrorNotice shows an English window exactly the engine's message and a German one a German headline
// with the English message beneath, marked lang="en", and the screens' titles read as contract/screens.ts names them in
// English and have German of their own.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACT_ERROR_CODES, SCREEN_SHORT_NAMES, SCREEN_TITLES, SCREENS, type ContractError } from '../../../electron/contract';
import type { WindowError } from '../../../renderer/src/api';
import { ErrorNotice } from '../../../renderer/src/components/ErrorNotice';
import { ERROR_HEADLINES, ERROR_NEXT_STEPS, errorHeadline } from '../../../renderer/src/error-words';
import { useLanguageStore } from '../../../renderer/src/i18n';
import { ENGLISH, GERMAN } from '../../../renderer/src/i18n/catalog';
import { screenShortName, screenTitle } from '../../../renderer/src/stores/navigation';

afterEach(() => {
  useLanguageStore.getState().apply('system');
});

function notice(error: ContractError, title?: string): string {
  return renderToStaticMarkup(createElement(ErrorNotice, { error, ...(title === undefined ? {} : { title }) }));
}

describe('error headlines', () => {
  it.each(CONTRACT_ERROR_CODES)('%s has a headline of its own in English and German', (code) => {
    const id = ERROR_HEADLINES[code];
    expect(id).toBeDefined();
    expect(ENGLISH[id].trim()).not.toBe('');
    expect(GERMAN[id].trim()).not.toBe('');
    expect(GERMAN[id]).not.toBe(ENGLISH[id]);
  });

  it('gives no two codes the same headline, and a next step only to codes there are', () => {
    const headlines = CONTRACT_ERROR_CODES.map((code) => ERROR_HEADLINES[code]);
    expect(new Set(headlines).size).toBe(CONTRACT_ERROR_CODES.length);
    expect(Object.keys(ERROR_HEADLINES).sort()).toEqual([...CONTRACT_ERROR_CODES].sort());
    for (const code of Object.keys(ERROR_NEXT_STEPS)) expect(CONTRACT_ERROR_CODES).toContain(code);
  });

  it('speaks the language in force', () => {
    useLanguageStore.getState().apply('de');
    expect(errorHeadline('locked')).toBe('Der Desk ist gesperrt.');
    useLanguageStore.getState().apply('en');
    expect(errorHeadline('locked')).toBe('The desk is locked.');
  });
});

describe('ErrorNotice', () => {
  const locked: ContractError = { code: 'locked', message: 'the desk is locked: unlock it with an operator passphrase' };
  const refused: ContractError = { code: 'service', message: 'the service refused the withdrawal', serviceReason: 'amount below minimum' };

  it('shows an English window the engine message, the service reason and the next step as before', () => {
    useLanguageStore.getState().apply('en');
    expect(notice(locked)).toBe(
      '<div class="notice notice--error" role="alert" data-testid="@error" data-code="locked">' +
        '<p>the desk is locked: unlock it with an operator passphrase</p>' +
        '<p class="notice__detail">Unlock the desk with your operator name and passphrase, then try again.</p></div>',
    );
    expect(notice(refused, 'Sending failed')).toBe(
      '<div class="notice notice--error" role="alert" data-testid="@error" data-code="service">' +
        '<p class="notice__title">Sending failed</p>' +
        '<p>the service refused the withdrawal</p>' +
        '<p class="notice__detail">The service said: <code>amount below minimum</code></p></div>',
    );
  });

  it('leads a German window with a German headline and the next step, the English message beneath marked lang="en"', () => {
    useLanguageStore.getState().apply('de');
    expect(notice(locked)).toBe(
      '<div class="notice notice--error" role="alert" data-testid="@error" data-code="locked">' +
        '<p>Der Desk ist gesperrt.</p>' +
        '<p>Entsperren Sie den Desk mit Ihrem Operatornamen und Ihrer Passphrase und versuchen Sie es dann erneut.</p>' +
        '<p class="notice__detail" lang="en">the desk is locked: unlock it with an operator passphrase</p></div>',
    );
    const html = notice(refused);
    expect(html).toContain('<p>Der Dienst hat die Anfrage abgelehnt.');
    expect(html).toContain('<p class="notice__detail" lang="en">the service refused the withdrawal</p>');
    expect(html).toContain('<p class="notice__detail">Der Dienst meldete: <code>amount below minimum</code></p>');
  });

  it('shows an error the window made in its own language as it is, without a headline or a lang mark', () => {
    useLanguageStore.getState().apply('de');
    const own: WindowError = { code: 'internal', message: 'Dieses Fenster ist nicht mit der Treasury-Engine verbunden.', language: 'de' };
    expect(notice(own)).toBe(
      '<div class="notice notice--error" role="alert" data-testid="@error" data-code="internal"><p>Dieses Fenster ist nicht mit der Treasury-Engine verbunden.</p></div>',
    );
  });
});

describe('screen titles', () => {
  it.each(SCREENS)('%s reads in English as contract/screens.ts names it, and in German in its own words', (screen) => {
    useLanguageStore.getState().apply('en');
    expect(screenTitle(screen)).toBe(SCREEN_TITLES[screen]);
    expect(screenShortName(screen)).toBe(SCREEN_SHORT_NAMES[screen]);
    useLanguageStore.getState().apply('de');
    expect(screenTitle(screen)).not.toBe('');
    expect(screenTitle(screen)).not.toBe(SCREEN_TITLES[screen]);
  });

  it('names the German screens', () => {
    useLanguageStore.getState().apply('de');
    expect(screenTitle('addresses')).toBe('Einzahlungsadressen');
    expect(screenShortName('addresses')).toBe('Adressen');
    expect(screenTitle('audit')).toBe('Prüfprotokoll');
  });
});
