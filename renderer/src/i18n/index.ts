// The window's language: which one is in force (Settings' choice, else the system's), the locale numbers and dates follow,
// and t(), the one way the window puts words on the screen (react-intl over the catalogue in catalog.ts). Main keeps the
// choice (desktop/preferences, through saved-language.ts); this module only holds the one in force. Invariant: the whole tree re-renders under a
// new language (App keys its provider by locale), so a text already drawn never stays in the old one.
import type { ReactNode } from 'react';
import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import { create } from 'zustand';
import type { LanguageChoice } from '../../../electron/contract/desktop';
import { CATALOGUES, LANGUAGES, type Language, type MessageId } from './catalog';

export type { Language, MessageId } from './catalog';
export { LANGUAGES } from './catalog';

export type { LanguageChoice } from '../../../electron/contract/desktop';

const FALLBACK_LOCALE: Readonly<Record<Language, string>> = { en: 'en-US', de: 'de-DE' };

function supportedLocale(tag: string): string | null {
  try {
    return Intl.NumberFormat.supportedLocalesOf([tag])[0] ?? null;
  } catch {
    return null;
  }
}

function primaryLanguage(locale: string): string {
  return locale.toLowerCase().split(/[-_]/)[0] ?? '';
}

/** The desk's language for a BCP 47 locale: German for any German locale, English for everything else. */
export function languageOfLocale(locale: string): Language {
  return primaryLanguage(locale) === 'de' ? 'de' : 'en';
}

/**
 * The language words follow, and the locale numbers and dates follow. "System" keeps the system's own locale for numbers
 * and dates, whatever its language (a fr-FR desk reads English words and types "1 250,5"); a chosen language keeps the
 * system's locale when it speaks that language (de-CH keeps its apostrophe grouping, en-GB its day-month order), else
 * takes that language's main locale.
 */
export function localeFor(choice: LanguageChoice, systemLocale: string): { readonly language: Language; readonly locale: string } {
  const system = supportedLocale(systemLocale);
  if (choice === 'system') return { language: languageOfLocale(system ?? 'en'), locale: system ?? FALLBACK_LOCALE.en };
  return { language: choice, locale: system !== null && primaryLanguage(system) === choice ? system : FALLBACK_LOCALE[choice] };
}

function systemLocale(): string {
  return typeof navigator === 'undefined' || navigator.language === '' ? 'en-US' : navigator.language;
}

const cache = createIntlCache();
const intls = new Map<string, IntlShape>();

/** The react-intl object for `locale` (its language's catalogue), made once per locale. */
export function intlFor(locale: string): IntlShape {
  let intl = intls.get(locale);
  if (intl === undefined) {
    const language = languageOfLocale(locale);
    intl = createIntl(
      {
        locale,
        defaultLocale: 'en-US',
        messages: CATALOGUES[language],
        onError: (error) => {
          // Missing ids are a type error, so this is a message the catalogue test let through: say so, keep going.
          console.error(`i18n: ${error.message}`);
        },
      },
      cache,
    );
    intls.set(locale, intl);
  }
  return intl;
}

interface LanguageStore {
  readonly choice: LanguageChoice;
  readonly language: Language;
  /** The locale of numbers and dates (format.ts reads it through currentLocale). */
  readonly locale: string;
  /** Speaks `choice` at once without saving it (saved-language.ts loads and keeps the choice; tests set one with it). */
  apply(choice: LanguageChoice): void;
}

export const useLanguageStore = create<LanguageStore>()((set) => ({
  choice: 'system',
  ...localeFor('system', systemLocale()),
  apply(choice) {
    set({ choice, ...localeFor(choice, systemLocale()) });
  },
}));

/** The locale numbers and dates are formatted for now. */
export function currentLocale(): string {
  return useLanguageStore.getState().locale;
}

/** The language the window speaks now. */
export function currentLanguage(): Language {
  return useLanguageStore.getState().language;
}

/** Values a plain message takes. */
export type MessageValues = Readonly<Record<string, string | number | Date | boolean | null | undefined>>;

/** A message in the window's language, as text. */
export function t(id: MessageId, values?: MessageValues): string {
  return intlFor(currentLocale()).formatMessage({ id }, values as Record<string, string | number | Date | boolean | null | undefined>);
}

/** Values a rich message takes: elements, and tags as functions (`<b>…</b>` → `b: (chunks) => <strong>{chunks}</strong>`). */
export type RichMessageValues = Readonly<Record<string, ReactNode | ((chunks: ReactNode[]) => ReactNode)>>;

/** A message in the window's language with elements in it (a link, a bold word, a component). */
export function tRich(id: MessageId, values: RichMessageValues): ReactNode {
  return intlFor(currentLocale()).formatMessage({ id }, values as never) as ReactNode;
}

/** Checks that a language tag from outside (a preference file, a deep link) is one the desk speaks. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
