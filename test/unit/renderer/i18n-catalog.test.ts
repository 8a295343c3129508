// The message catalogue is complete and consistent: every area's German table has exactly its English ids, no id is
// defined by two areas, every message on both sides parses as ICU with the same arguments and tags, and each formats
// with values without an error (an apostrophe before a brace, a stray "<" or a misspelt argument fails here, not on screen).
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { intlFor, localeFor } from '../../../renderer/src/i18n';
import { AREAS, ENGLISH, GERMAN, type MessageId } from '../../../renderer/src/i18n/catalog';

/** The names a message needs filled, each with its kind: argument, plural, select, date, number or tag. */
function slotsOf(elements: readonly MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        into.add(`${element.value}`);
        break;
      case TYPE.plural:
      case TYPE.select:
        into.add(`${element.value}`);
        for (const option of Object.values(element.options)) slotsOf(option.value, into);
        break;
      case TYPE.tag:
        into.add(`<${element.value}>`);
        slotsOf(element.children, into);
        break;
      default:
        break;
    }
  }
  return into;
}

const ids = Object.keys(ENGLISH) as MessageId[];

describe('the message catalogue', () => {
  it('has German for exactly the English ids of each area, and no id in two areas', () => {
    const seen = new Map<string, string>();
    for (const [area, { en, de }] of Object.entries(AREAS)) {
      expect(Object.keys(de).sort(), area).toEqual(Object.keys(en).sort());
      for (const id of Object.keys(en)) {
        expect(seen.get(id), `${id} is in ${seen.get(id)} and ${area}`).toBeUndefined();
        seen.set(id, area);
      }
    }
    expect(seen.size).toBe(ids.length);
  });

  it('names ids area.place.meaning', () => {
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*(\.[a-z0-9][A-Za-z0-9]*)+$/);
  });

  it.each(ids)('%s parses in both languages with the same arguments and tags, and is not empty', (id) => {
    const english = ENGLISH[id];
    const german = GERMAN[id];
    expect(english.trim()).not.toBe('');
    expect(german.trim()).not.toBe('');
    // A straight apostrophe before a brace or a tag starts ICU quoting and would show the brace as text.
    expect(english).not.toMatch(/'[{}<#]/);
    expect(german).not.toMatch(/'[{}<#]/);
    const englishSlots = [...slotsOf(parse(english))].sort();
    const germanSlots = [...slotsOf(parse(german))].sort();
    expect(germanSlots).toEqual(englishSlots);
  });

  it.each(['en-US', 'de-DE'])('formats every message in %s with its values filled', (locale) => {
    const intl = intlFor(locale);
    const errors: string[] = [];
    for (const id of ids) {
      const values: Record<string, unknown> = {};
      for (const slot of slotsOf(parse(ENGLISH[id]))) {
        if (slot.startsWith('<')) values[slot.slice(1, -1)] = (chunks: unknown[]) => chunks.join('');
        else values[slot] = 2;
      }
      try {
        const text = intl.formatMessage({ id }, values as never);
        if (typeof text !== 'string' || text === '' || text === id) errors.push(`${id}: ${String(text)}`);
      } catch (error) {
        errors.push(`${id}: ${(error as Error).message}`);
      }
    }
    expect(errors).toEqual([]);
  });
});

describe('the language in force', () => {
  it.each([
    ['system', 'de-AT', 'de', 'de-AT'],
    ['system', 'fr-FR', 'en', 'fr-FR'],
    ['en', 'fr-FR', 'en', 'en-US'],
    ['system', 'en-GB', 'en', 'en-GB'],
    ['de', 'en-GB', 'de', 'de-DE'],
    ['en', 'de-CH', 'en', 'en-US'],
    ['de', 'de-CH', 'de', 'de-CH'],
    ['system', 'not a locale', 'en', 'en-US'],
  ] as const)('%s on a %s system speaks %s with %s numbers and dates', (choice, system, language, locale) => {
    expect(localeFor(choice, system)).toEqual({ language, locale });
  });
});
