// Amounts typed in a locale read into the engine's canonical decimal string (contract/amount-input): the documented
// de-DE cases and their en-US mirrors, fr-FR's spaces, de-CH's apostrophes, refusals that say what to type, and a
// property that every canonical amount grouped by groupAmount reads back to itself, except exactly the lone dot or comma
// group the parser refuses as ambiguous. The refusals' words are the window's (renderer/src/i18n/amounts.ts): English
// here, and the documented de-DE cases once more in German.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupAmount, localeNumberSymbols } from '../../../electron/contract/amount-text';
import { amountInputText, parseAmountInput as parseIn, type AmountInput } from '../../../electron/contract/amount-input';
import { useLanguageStore } from '../../../renderer/src/i18n';
import { amountWords } from '../../../renderer/src/i18n/amounts';

beforeAll(() => useLanguageStore.getState().apply('en'));
afterAll(() => useLanguageStore.getState().apply('system'));

/** The parser with the words of the window's language in force. */
function parseAmountInput(text: string, locale: string): AmountInput {
  return parseIn(text, locale, amountWords());
}

function amountOf(text: string, locale: string): string {
  const read = parseAmountInput(text, locale);
  if (!read.ok) throw new Error(`${locale} ${text} refused: ${read.problem}`);
  return read.amount;
}

function problemOf(text: string, locale: string): string {
  const read = parseAmountInput(text, locale);
  if (read.ok) throw new Error(`${locale} ${text} read as ${read.amount}`);
  return read.problem;
}

describe('parseAmountInput in German (de-DE)', () => {
  it('reads the comma as decimals and dots grouping thousands', () => {
    expect(amountOf('1.250,5', 'de-DE')).toBe('1250.5');
    expect(amountOf('12,500', 'de-DE')).toBe('12.5');
    expect(amountOf('1250,5', 'de-DE')).toBe('1250.5');
    expect(amountOf('1.250.000', 'de-DE')).toBe('1250000');
    expect(amountOf('  007,50  ', 'de-DE')).toBe('7.5');
    expect(amountOf('0,000000000000000001', 'de-DE')).toBe('0.000000000000000001');
  });

  it('refuses a lone dot before three digits, giving both readings and what to type', () => {
    expect(problemOf('12.500', 'de-DE')).toBe('12.500 could mean 12500 or 12.5: type 12500 or 12,5.');
    expect(problemOf('1.250', 'de-DE')).toBe('1.250 could mean 1250 or 1.25: type 1250 or 1,25.');
  });

  it('refuses separators the English way round, offering the German spelling', () => {
    expect(problemOf('1,250.5', 'de-DE')).toBe('1,250.5: in German the comma marks decimals and the dot groups thousands. Type 1250,5.');
    expect(problemOf('1,250,000', 'de-DE')).toContain('in German the comma marks decimals and the dot groups thousands. Type 1250000.');
  });

  it('refuses malformed grouping, naming it', () => {
    expect(problemOf('1.25.000', 'de-DE')).toBe('1.25.000 is not grouped in thousands: the dot must group the digits in threes, as in 1.250.000. Type 125000.');
    expect(problemOf('1..250', 'de-DE')).toContain('is not grouped in thousands');
    expect(problemOf('1250.00,5', 'de-DE')).toContain('is not grouped in thousands');
  });

  it('refuses signs, exponents, letters, a lone separator and anything else, saying what to type', () => {
    expect(problemOf('-5', 'de-DE')).toBe('-5: an amount has no sign. Type it without + or -, as in 1250,5.');
    expect(problemOf('+5', 'de-DE')).toContain('no sign');
    expect(problemOf('1e5', 'de-DE')).toContain('without letters or exponents');
    expect(problemOf('5 USDT', 'de-DE')).toContain('the space is neither');
    expect(problemOf(',5', 'de-DE')).toBe(',5 has no digits before the comma. Type 0,5.');
    expect(problemOf('5,', 'de-DE')).toBe('5, ends with the decimal comma. Type the decimals after it, or 5.');
    expect(problemOf('5%', 'de-DE')).toContain('"%" is not part of an amount');
    expect(problemOf('   ', 'de-DE')).toBe('Type an amount, as in 1250,5.');
    expect(problemOf('1'.repeat(101), 'de-DE')).toContain('at most 100 characters');
  });

  it('shows a control or direction character typed into the field escaped, never raw', () => {
    expect(problemOf('5\u202e0', 'de-DE')).toContain('⟨U+202E⟩');
  });
});

describe('parseAmountInput in US English (en-US), the mirror', () => {
  it('reads the dot as decimals and commas grouping thousands', () => {
    expect(amountOf('1,250.5', 'en-US')).toBe('1250.5');
    expect(amountOf('12.500', 'en-US')).toBe('12.5');
    expect(amountOf('1250.5', 'en-US')).toBe('1250.5');
    expect(amountOf('1,250,000', 'en-US')).toBe('1250000');
  });

  it('refuses the ambiguous lone comma, the German way round and malformed grouping', () => {
    expect(problemOf('12,500', 'en-US')).toBe('12,500 could mean 12500 or 12,5: type 12500 or 12.5.');
    expect(problemOf('1.250,5', 'en-US')).toBe('1.250,5: in English the dot marks decimals and the comma groups thousands. Type 1250.5.');
    expect(problemOf('12,50,000', 'en-US')).toContain('is not grouped in thousands');
  });
});

describe('parseAmountInput where groups are spaces or apostrophes', () => {
  it('fr-FR: a space, a no-break space or a narrow no-break space groups; never ambiguous', () => {
    expect(localeNumberSymbols('fr-FR').group).toBe('\u202f');
    expect(amountOf('1 250,5', 'fr-FR')).toBe('1250.5');
    expect(amountOf('1\u00a0250,5', 'fr-FR')).toBe('1250.5');
    expect(amountOf('1\u202f250\u202f000', 'fr-FR')).toBe('1250000');
    expect(amountOf('12 500', 'fr-FR')).toBe('12500');
    expect(amountOf('12,500', 'fr-FR')).toBe('12.5');
    expect(problemOf('1.5', 'fr-FR')).toBe('1.5: in French the comma marks decimals and the space groups thousands; the dot is neither. Type the amount as in 1250,5.');
    expect(problemOf('1 25 000', 'fr-FR')).toContain('is not grouped in thousands');
  });

  it("de-CH: both apostrophes group, the dot marks decimals", () => {
    expect(amountOf("12'500.25", 'de-CH')).toBe('12500.25');
    expect(amountOf('12\u2019500.25', 'de-CH')).toBe('12500.25');
    expect(amountOf('12.500', 'de-CH')).toBe('12.5');
  });

  it("en-IN: its own lakh grouping is read as well as groups of three", () => {
    expect(amountOf('12,34,567.5', 'en-IN')).toBe('1234567.5');
    expect(amountOf('1,234,567.5', 'en-IN')).toBe('1234567.5');
  });

  it('ar-EG: the locale\'s own digits and separators', () => {
    expect(amountOf('١٬٢٣٤٫٠٥', 'ar-EG')).toBe('1234.05');
  });
});

const PROPERTY_LOCALES = ['en-US', 'de-DE', 'fr-FR', 'de-CH', 'en-IN', 'es-ES', 'it-IT', 'pt-BR', 'ja-JP', 'pl-PL', 'nb-NO', 'ar-EG'] as const;
/** Canonical amounts: no leading zeros, no trailing fraction zeros, up to 18 decimals, far beyond 2^53. */
const canonicalAmount = fc.stringMatching(/^(0|[1-9][0-9]{0,24})(\.[0-9]{0,17}[1-9])?$/);

describe('parseAmountInput reads back what groupAmount shows', () => {
  it('every canonical amount grouped for a locale reads back to itself, except a lone dot or comma group without decimals, which is refused as ambiguous', () => {
    fc.assert(
      fc.property(canonicalAmount, fc.constantFrom(...PROPERTY_LOCALES), (amount, locale) => {
        const shown = groupAmount(amount, locale);
        const { group, decimal } = localeNumberSymbols(locale);
        const groupSeparators = [...shown].filter((character) => character === group).length;
        const ambiguous = (group === '.' || group === ',') && groupSeparators === 1 && !shown.includes(decimal);
        const read = parseAmountInput(shown, locale);
        if (ambiguous) {
          expect(read.ok, `${locale} ${shown}`).toBe(false);
          if (!read.ok) expect(read.problem).toMatch(/ could mean .* or .*: type /);
        } else expect(read, `${locale} ${shown}`).toEqual({ ok: true, amount });
      }),
      { numRuns: 2000 },
    );
  });

  it('the same amounts written for a field without grouping (amountInputText) read back in every locale', () => {
    fc.assert(
      fc.property(canonicalAmount, fc.constantFrom(...PROPERTY_LOCALES), (amount, locale) => {
        expect(parseAmountInput(amountInputText(amount, locale), locale)).toEqual({ ok: true, amount });
      }),
      { numRuns: 500 },
    );
  });
});

describe('refusals on a German desk', () => {
  beforeAll(() => useLanguageStore.getState().apply('de'));
  afterAll(() => useLanguageStore.getState().apply('en'));

  it('say the documented de-DE cases in German, with the same readings and proposals', () => {
    expect(amountOf('1.250,5', 'de-DE')).toBe('1250.5');
    expect(amountOf('12,500', 'de-DE')).toBe('12.5');
    expect(problemOf('12.500', 'de-DE')).toBe('12.500 kann 12500 oder 12.5 bedeuten: Geben Sie 12500 oder 12,5 ein.');
    expect(problemOf('1,250.5', 'de-DE')).toBe('1,250.5: auf Deutsch ist „,“ (Komma) das Dezimalzeichen und „.“ (Punkt) das Tausendertrennzeichen. Geben Sie 1250,5 ein.');
    expect(problemOf('-5', 'de-DE')).toBe('-5: Ein Betrag hat kein Vorzeichen. Geben Sie ihn ohne + oder - ein, etwa als 1250,5.');
    expect(problemOf('5%', 'de-DE')).toContain('„%“ gehört nicht zu einem Betrag');
    expect(problemOf('1.5', 'fr-FR')).toBe('1.5: auf Französisch ist „,“ (Komma) das Dezimalzeichen und „ “ (Leerzeichen) das Tausendertrennzeichen; „.“ (Punkt) ist keines von beiden. Geben Sie den Betrag etwa als 1250,5 ein.');
  });
});
