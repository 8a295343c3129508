// The settings area's German for words the contract also keeps in English for the CLI (callback refusal reasons, the
// stuck-order statuses' meanings, the time zone problem): the window's English stays exactly the contract's, so the two
// faces never drift apart, and every code has its words in both languages.
import { describe, expect, it } from 'vitest';
import { CALLBACK_REFUSAL_CODES, CALLBACK_REFUSAL_WORDS, WATCHED_ORDER_STATUSES, WATCHED_STATUS_TEXT } from '../../../electron/contract';
import { timeZoneProblem } from '../../../electron/contract/time-zone';
import { intlFor, type MessageId } from '../../../renderer/src/i18n';

const english = intlFor('en-US');
const german = intlFor('de-DE');

describe('the settings area against the contract’s words', () => {
  it.each(CALLBACK_REFUSAL_CODES)('a refused callback’s %s reads as the CLI says it, and in German', (code) => {
    const id = `settings.refusals.reason.${code}` as MessageId;
    const values = { envelope: '{code, data, message}' };
    expect(english.formatMessage({ id }, values)).toBe(CALLBACK_REFUSAL_WORDS[code]);
    expect(german.formatMessage({ id }, values)).not.toBe(CALLBACK_REFUSAL_WORDS[code]);
  });

  it.each(WATCHED_ORDER_STATUSES)('the watched status %s means what the contract says, and has German', (status) => {
    const id = `settings.stuck.status.${status}` as MessageId;
    expect(english.formatMessage({ id })).toBe(WATCHED_STATUS_TEXT[status]);
    expect(german.formatMessage({ id })).not.toBe(WATCHED_STATUS_TEXT[status]);
  });

  it('says what is wrong with a time zone name as the engine does', () => {
    const text = 'Mars/Olympus_Mons';
    expect(english.formatMessage({ id: 'settings.timeZone.problem' }, { text })).toBe(timeZoneProblem(text));
    expect(german.formatMessage({ id: 'settings.timeZone.problem' }, { text })).toBe('„Mars/Olympus_Mons“ ist kein IANA-Zeitzonenname wie Europe/Berlin, America/New_York oder UTC');
  });
});
