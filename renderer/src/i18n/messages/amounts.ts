// Messages of typed amounts (contract/amount-input.ts AmountWords, supplied by ../amounts.ts), English and German. The
// English is the contract's documented wording (docs/approvals.md, "Typing amounts"); German avoids articles before a
// separator's name, which is shown as the character itself.
import type { Translation } from './translation';

export const en = {
  'amounts.separator.dot': 'dot',
  'amounts.separator.comma': 'comma',
  'amounts.separator.space': 'space',
  'amounts.separator.apostrophe': 'apostrophe',
  'amounts.separator.arabicDecimal': 'Arabic decimal separator (\u066b)',
  'amounts.separator.arabicGroup': 'Arabic thousands separator (\u066c)',
  'amounts.quoted': '"{character}"',
  'amounts.conventions': 'in {language} the {decimal} marks decimals and the {group} groups thousands',
  'amounts.asIn': 'as in {example}',
  'amounts.empty': 'Type an amount, as in {example}.',
  'amounts.tooLong': 'An amount has at most {max} characters. Type it as in {example}.',
  'amounts.noSign': '{shown}: an amount has no sign. Type it without + or -, as in {example}.',
  'amounts.noLetters': '{shown}: an amount is digits only, without letters or exponents. Type it in full, as in {example}.',
  'amounts.neither': '{shown}: {conventions}; the {separator} is neither. Type the amount as in {example}.',
  'amounts.notPartOfAmount': '{shown}: {character} is not part of an amount. Type digits and the {decimal} for decimals, as in {example}.',
  'amounts.reversed': '{shown}: {conventions}. Type {instead}.',
  'amounts.noDigitsBefore': '{shown} has no digits before the {decimal}. Type 0{shown}.',
  'amounts.endsWithDecimal': '{shown} ends with the decimal {decimal}. Type the decimals after it, or {whole}.',
  'amounts.ambiguous': '{shown} could mean {asInteger} or {asDecimalShown}: type {asInteger} or {asDecimalTyped}.',
  'amounts.notGrouped': '{shown} is not grouped in thousands: the {group} must group the digits in threes, as in {groupedExample}. Type {typed}.',
} as const;

export const de: Translation<typeof en> = {
  'amounts.separator.dot': '„.“ (Punkt)',
  'amounts.separator.comma': '„,“ (Komma)',
  'amounts.separator.space': '„ “ (Leerzeichen)',
  'amounts.separator.apostrophe': '„’“ (Apostroph)',
  'amounts.separator.arabicDecimal': '„\u066b“ (arabisches Dezimaltrennzeichen)',
  'amounts.separator.arabicGroup': '„\u066c“ (arabisches Tausendertrennzeichen)',
  'amounts.quoted': '„{character}“',
  'amounts.conventions': 'auf {language} ist {decimal} das Dezimalzeichen und {group} das Tausendertrennzeichen',
  'amounts.asIn': 'den Betrag etwa als {example}',
  'amounts.empty': 'Geben Sie einen Betrag ein, etwa {example}.',
  'amounts.tooLong': 'Ein Betrag hat höchstens {max} Zeichen. Geben Sie ihn etwa als {example} ein.',
  'amounts.noSign': '{shown}: Ein Betrag hat kein Vorzeichen. Geben Sie ihn ohne + oder - ein, etwa als {example}.',
  'amounts.noLetters': '{shown}: Ein Betrag besteht nur aus Ziffern, ohne Buchstaben oder Exponenten. Geben Sie ihn vollständig ein, etwa als {example}.',
  'amounts.neither': '{shown}: {conventions}; {separator} ist keines von beiden. Geben Sie den Betrag etwa als {example} ein.',
  'amounts.notPartOfAmount': '{shown}: {character} gehört nicht zu einem Betrag. Geben Sie Ziffern und {decimal} für die Nachkommastellen ein, etwa {example}.',
  'amounts.reversed': '{shown}: {conventions}. Geben Sie {instead} ein.',
  'amounts.noDigitsBefore': '{shown} hat keine Ziffern vor {decimal}. Geben Sie 0{shown} ein.',
  'amounts.endsWithDecimal': '{shown} endet mit dem Dezimalzeichen {decimal}. Geben Sie die Nachkommastellen dahinter ein, oder {whole}.',
  'amounts.ambiguous': '{shown} kann {asInteger} oder {asDecimalShown} bedeuten: Geben Sie {asInteger} oder {asDecimalTyped} ein.',
  'amounts.notGrouped': '{shown} ist nicht in Tausendern gruppiert: {group} muss die Ziffern in Dreiergruppen teilen, etwa {groupedExample}. Geben Sie {typed} ein.',
};
