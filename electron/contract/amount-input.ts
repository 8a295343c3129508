// Amounts as a person types them in their locale ("1.250,5" in German) read into the engine's canonical decimal string
// ("1250.5"), or refused with a reason in plain words that says what to type: string processing only, never a JavaScript
// number, so what is signed is exactly what was read. Pure; the renderer's amount fields use it (the CLI takes canonical
// strings), and the renderer gives it the words of the window's language (AmountWords: renderer/src/i18n/amounts.ts).
// The rules (docs/approvals.md, "Typing amounts"):
// - The locale's decimal separator (Intl's) marks decimals: de-DE `12,500` → "12.5", `1250,5` → "1250.5".
// - The locale's group separator is accepted only in well-formed groups: a first group of 1 to 3 digits and then groups
//   of exactly 3 (or exactly the locale's own grouping, e.g. en-IN's 12,34,567): de-DE `1.250,5` → "1250.5",
//   `1.250.000` → "1250000"; anything else (`1.25.000`, `1..250`) is refused, naming the grouping.
// - A lone group separator that is a dot or a comma, followed by exactly three digits and no decimal separator, is read
//   one way in one locale and the other way in another: refused, with both readings and what to type (de-DE `12.500`:
//   "12.500 could mean 12500 or 12.5: type 12500 or 12,5"; en-US `12,500` likewise). A space or apostrophe group
//   separator marks decimals nowhere, so `12 500` (fr-FR) and `12’500` (de-CH) are simply 12500.
// - Separators the other way round for the locale are refused (de-DE `1,250.5`: "in German the comma marks decimals and
//   the dot groups thousands"), as is a second decimal separator.
// - Where the locale groups with a space (fr-FR's narrow no-break space, nb-NO's no-break space), a space, a no-break
//   space and a narrow no-break space are all accepted as that separator; where it groups with an apostrophe (de-CH),
//   both ' and ’. The locale's own digits (e.g. Arabic-Indic) are read as well as 0-9.
// - Leading and trailing whitespace is trimmed; signs, exponents, letters and any other character are refused.
// - The answer is canonical: no leading zeros (one before the decimal point), no trailing fraction zeros, no point
//   without decimals. How many decimals a currency allows is the engine's check, not this one.
import { groupAmount, localeNumberSymbols, type LocaleNumberSymbols } from './amount-text';
import { escapeUnsafeText } from './display-text';

/** A typed amount read: the canonical decimal string, or why it was refused and what to type instead. */
export type AmountInput = { readonly ok: true; readonly amount: string } | { readonly ok: false; readonly problem: string };

/**
 * The words a refusal is made of, in one language. `shown` is the typed text (escaped), `example` an amount typed the
 * locale's way ("1250,5"); the separator's and the language's names come from separatorName and languageName.
 */
export interface AmountWords {
  /** "dot", "comma", "space", "apostrophe", or null for a character without a name (it is then shown quoted). */
  separatorName(separator: 'dot' | 'comma' | 'space' | 'apostrophe' | 'arabicDecimal' | 'arabicGroup'): string;
  /** The name of `locale`'s language in the words' language ("German"). */
  languageName(locale: string): string;
  /** "a quoted character": how a character without a name is shown. */
  quoted(character: string): string;
  /** "in German the comma marks decimals and the dot groups thousands". */
  conventions(language: string, decimalName: string, groupName: string): string;
  /** "as in 1250,5": what to type when there is no better proposal. */
  asIn(example: string): string;
  empty(example: string): string;
  tooLong(max: number, example: string): string;
  noSign(shown: string, example: string): string;
  noLetters(shown: string, example: string): string;
  /** A separator the locale does not use. */
  neither(shown: string, conventions: string, separatorName: string, example: string): string;
  notPartOfAmount(shown: string, character: string, decimalName: string, example: string): string;
  /** Separators the other way round for the locale; `instead` is the proposal (a typed amount, or asIn). */
  reversed(shown: string, conventions: string, instead: string): string;
  noDigitsBefore(shown: string, decimalName: string): string;
  endsWithDecimal(shown: string, decimalName: string, whole: string): string;
  ambiguous(shown: string, asInteger: string, asDecimalShown: string, asDecimalTyped: string): string;
  notGrouped(shown: string, groupName: string, groupedExample: string, typed: string): string;
}

/** The contract's amount text is at most 100 characters (methods.ts amountText). */
const MAX_AMOUNT_TEXT = 100;

const SPACE_SEPARATORS: readonly string[] = [' ', '\u00a0', '\u202f'];
const APOSTROPHE_SEPARATORS: readonly string[] = ["'", '\u2019'];
/** Group separators that are a decimal separator in some other locale: a lone one before three digits reads two ways. */
const SEPARATORS_THAT_MARK_DECIMALS_ELSEWHERE: ReadonlySet<string> = new Set(['.', ',']);

const SEPARATOR_NAMES: Readonly<Record<string, Parameters<AmountWords['separatorName']>[0]>> = {
  '.': 'dot',
  ',': 'comma',
  ' ': 'space',
  '\u00a0': 'space',
  '\u202f': 'space',
  "'": 'apostrophe',
  '\u2019': 'apostrophe',
  '\u066b': 'arabicDecimal',
  '\u066c': 'arabicGroup',
};

const SIGNS: ReadonlySet<string> = new Set(['+', '-', '\u2212']);

/** In the normalised text: a decimal separator and a group separator (digits are ASCII). */
const DECIMAL_MARK = '.';
const GROUP_MARK = '_';

function separatorName(separator: string, words: AmountWords): string {
  const name = SEPARATOR_NAMES[separator];
  return name === undefined ? words.quoted(escapeUnsafeText(separator)) : words.separatorName(name);
}

/** The characters accepted as the locale's group separator. */
function groupSeparatorsOf(group: string): readonly string[] {
  if (SPACE_SEPARATORS.includes(group)) return SPACE_SEPARATORS;
  if (APOSTROPHE_SEPARATORS.includes(group)) return APOSTROPHE_SEPARATORS;
  return [group];
}

/** "in German the comma marks decimals and the dot groups thousands". */
function conventions(locale: string, symbols: LocaleNumberSymbols, words: AmountWords): string {
  return words.conventions(words.languageName(locale), separatorName(symbols.decimal, words), separatorName(symbols.group, words));
}

/** A canonical amount as the person types it, ungrouped: "1250.5" → "1250,5" in de-DE. */
function typedForm(canonical: string, symbols: LocaleNumberSymbols): string {
  return canonical.replace('.', symbols.decimal);
}

/**
 * A canonical amount as text to put in an amount field for the locale, ungrouped so it reads back to itself:
 * "1250.5" → "1250,5" in de-DE (a field showing a stored policy limit, say).
 */
export function amountInputText(canonical: string, locale: string): string {
  return typedForm(canonical, localeNumberSymbols(locale));
}

/** Digits (and at most one point) without leading or trailing zeros that carry nothing: "007.50" → "7.5". */
function canonicalOf(integer: string, fraction: string): string {
  const whole = integer.replace(/^0+(?=\d)/, '');
  const decimals = fraction.replace(/0+$/, '');
  return decimals === '' ? whole : `${whole}.${decimals}`;
}

type Normalised = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem: string };

/** Each character as a digit 0-9, DECIMAL_MARK or GROUP_MARK; the first character that is none of them refuses the text. */
function normalise(text: string, shown: string, locale: string, symbols: LocaleNumberSymbols, words: AmountWords): Normalised {
  const groups = groupSeparatorsOf(symbols.group);
  const example = typedForm('1250.5', symbols);
  let normalised = '';
  for (const character of text) {
    const localDigit = symbols.digits.indexOf(character);
    if (/^[0-9]$/.test(character)) normalised += character;
    else if (localDigit >= 0) normalised += String(localDigit);
    else if (character === symbols.decimal) normalised += DECIMAL_MARK;
    else if (groups.includes(character)) normalised += GROUP_MARK;
    else if (SIGNS.has(character)) return { ok: false, problem: words.noSign(shown, example) };
    else if (/\p{L}/u.test(character)) return { ok: false, problem: words.noLetters(shown, example) };
    else if (character in SEPARATOR_NAMES || /\s/u.test(character)) {
      return { ok: false, problem: words.neither(shown, conventions(locale, symbols, words), separatorName(character, words), example) };
    } else return { ok: false, problem: words.notPartOfAmount(shown, escapeUnsafeText(character), separatorName(symbols.decimal, words), example) };
  }
  return { ok: true, text: normalised };
}

/** Digit groups as `groupAmount` writes this integer in the locale (segment lengths), normalised. */
function localeGrouping(integer: string, locale: string, symbols: LocaleNumberSymbols, words: AmountWords): string {
  const grouped = normalise(groupAmount(integer, locale), '', locale, symbols, words);
  return grouped.ok ? grouped.text : integer;
}

function groupedInThousands(segments: readonly string[]): boolean {
  const [first = '', ...rest] = segments;
  return first.length >= 1 && first.length <= 3 && rest.every((segment) => segment.length === 3);
}

/**
 * Text typed in `locale` as the canonical decimal string the engine takes, or a refusal saying what to type (the rules
 * are at the top of this file): de-DE "1.250,5" → "1250.5"; de-DE "12.500" → refused, it could mean 12500 or 12.5.
 */
export function parseAmountInput(text: string, locale: string, words: AmountWords): AmountInput {
  const symbols = localeNumberSymbols(locale);
  const typed = text.trim();
  const example = typedForm('1250.5', symbols);
  if (typed === '') return { ok: false, problem: words.empty(example) };
  const shown = escapeUnsafeText(typed);
  if (typed.length > MAX_AMOUNT_TEXT) return { ok: false, problem: words.tooLong(MAX_AMOUNT_TEXT, example) };
  const normalised = normalise(typed, shown, locale, symbols, words);
  if (!normalised.ok) return normalised;
  const { text: read } = normalised;
  const decimalName = separatorName(symbols.decimal, words);
  const groupName = separatorName(symbols.group, words);

  const decimalAt = read.indexOf(DECIMAL_MARK);
  const reversed = decimalAt >= 0 && (read.indexOf(DECIMAL_MARK, decimalAt + 1) >= 0 || read.indexOf(GROUP_MARK, decimalAt) >= 0);
  if (reversed) {
    // Read the other way round, the text may be a well-formed amount: offer it.
    const swapped = [...read].map((mark) => (mark === DECIMAL_MARK ? GROUP_MARK : mark === GROUP_MARK ? DECIMAL_MARK : mark)).join('');
    const meant = readStructure(swapped, locale, symbols, words);
    const instead = meant === null ? words.asIn(example) : typedForm(meant, symbols);
    return { ok: false, problem: words.reversed(shown, conventions(locale, symbols, words), instead) };
  }

  const [integerText = '', fraction = ''] = decimalAt >= 0 ? [read.slice(0, decimalAt), read.slice(decimalAt + 1)] : [read];
  const segments = integerText.split(GROUP_MARK);
  const digits = segments.join('');
  if (digits === '') return { ok: false, problem: words.noDigitsBefore(shown, decimalName) };
  if (decimalAt >= 0 && fraction === '') return { ok: false, problem: words.endsWithDecimal(shown, decimalName, canonicalOf(digits, '')) };
  if (segments.length === 2 && decimalAt < 0 && segments[1]?.length === 3 && segments[0] !== '' && SEPARATORS_THAT_MARK_DECIMALS_ELSEWHERE.has(symbols.group)) {
    const asInteger = canonicalOf(digits, '');
    const asDecimal = canonicalOf(segments[0] ?? '', segments[1]);
    return { ok: false, problem: words.ambiguous(shown, asInteger, asDecimal.replace('.', symbols.group), typedForm(asDecimal, symbols)) };
  }
  const amount = readStructure(read, locale, symbols, words);
  if (amount === null) {
    return { ok: false, problem: words.notGrouped(shown, groupName, groupAmount('1250000', locale), typedForm(canonicalOf(digits, fraction), symbols)) };
  }
  return { ok: true, amount };
}

/** The canonical amount of normalised text whose separators are in order (at most one decimal mark, groups before it), or null when its grouping is malformed. */
function readStructure(read: string, locale: string, symbols: LocaleNumberSymbols, words: AmountWords): string | null {
  const decimalAt = read.indexOf(DECIMAL_MARK);
  if (decimalAt >= 0 && read.slice(decimalAt + 1).search(/[._]/) >= 0) return null;
  const [integerText = '', fraction = ''] = decimalAt >= 0 ? [read.slice(0, decimalAt), read.slice(decimalAt + 1)] : [read];
  if (integerText === '' || (decimalAt >= 0 && fraction === '')) return null;
  const segments = integerText.split(GROUP_MARK);
  const digits = segments.join('');
  if (segments.length > 1 && !groupedInThousands(segments) && localeGrouping(digits, locale, symbols, words) !== integerText) return null;
  return canonicalOf(digits, fraction);
}
