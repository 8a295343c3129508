// The words typed-amount refusals are made of (contract/amount-input.ts AmountWords), from the catalogue in the window's
// language: what format.ts readTypedAmount hands the parser, so "12.500 could mean 12500 or 12.5" reads German on a
// German desk.
import type { AmountWords } from '../../../electron/contract/amount-input';
import { currentLanguage, t } from './index';

const languageNames = new Map<string, Intl.DisplayNames>();

function languageNameIn(uiLanguage: string, locale: string): string {
  let names = languageNames.get(uiLanguage);
  if (names === undefined) {
    names = new Intl.DisplayNames([uiLanguage], { type: 'language' });
    languageNames.set(uiLanguage, names);
  }
  try {
    return names.of(new Intl.Locale(locale).language) ?? locale;
  } catch {
    return locale;
  }
}

/** AmountWords in the window's language. Numbers in them are already text (typed forms), so none is regrouped. */
export function amountWords(): AmountWords {
  return {
    separatorName: (separator) => t(`amounts.separator.${separator}`),
    languageName: (locale) => languageNameIn(currentLanguage(), locale),
    quoted: (character) => t('amounts.quoted', { character }),
    conventions: (language, decimal, group) => t('amounts.conventions', { language, decimal, group }),
    asIn: (example) => t('amounts.asIn', { example }),
    empty: (example) => t('amounts.empty', { example }),
    tooLong: (max, example) => t('amounts.tooLong', { max: String(max), example }),
    noSign: (shown, example) => t('amounts.noSign', { shown, example }),
    noLetters: (shown, example) => t('amounts.noLetters', { shown, example }),
    neither: (shown, conventions, separator, example) => t('amounts.neither', { shown, conventions, separator, example }),
    notPartOfAmount: (shown, character, decimal, example) => t('amounts.notPartOfAmount', { shown, character: t('amounts.quoted', { character }), decimal, example }),
    reversed: (shown, conventions, instead) => t('amounts.reversed', { shown, conventions, instead }),
    noDigitsBefore: (shown, decimal) => t('amounts.noDigitsBefore', { shown, decimal }),
    endsWithDecimal: (shown, decimal, whole) => t('amounts.endsWithDecimal', { shown, decimal, whole }),
    ambiguous: (shown, asInteger, asDecimalShown, asDecimalTyped) => t('amounts.ambiguous', { shown, asInteger, asDecimalShown, asDecimalTyped }),
    notGrouped: (shown, group, groupedExample, typed) => t('amounts.notGrouped', { shown, group, groupedExample, typed }),
  };
}
