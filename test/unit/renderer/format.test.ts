// The renderer's display formatting: amounts grouped in the person's locale with every digit kept (18 decimals,
// integers far beyond 2^53, the decimal string formatted and never a JavaScript number), a runtime that would round
// falling back to the plain string, and times in the reporting zone with the zone named.
// Amounts typed in the browser locale are read back exactly (readTypedAmount), and stored ones written so they read as themselves.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dateInputToMs, displayLocale, formatDateTime, formatDuration, formatTime, groupAmount, readTypedAmount, timeAgo, timeFromNow, typedAmountText } from '../../../renderer/src/format';
import { useLanguageStore } from '../../../renderer/src/i18n';

/** The window on a system whose locale is `locale`, speaking its language (Settings: "System"). */
function systemLocaleIs(locale: string): void {
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(locale);
  useLanguageStore.getState().apply('system');
}

const NARROW_NBSP = '\u202f';
const WEI = '0.000000000000000001';
const BEYOND_2_53 = '9007199254740993'; // Number('9007199254740993') === 9007199254740992
const HUGE = '123456789012345678901234.123456789012345678';

afterEach(() => {
  vi.restoreAllMocks();
  useLanguageStore.getState().apply('system');
});

describe('groupAmount', () => {
  it.each([
    ['en-US', '1234567.000001', '1,234,567.000001'],
    ['de-DE', '1234567.000001', '1.234.567,000001'],
    ['fr-FR', '1234567.000001', `1${NARROW_NBSP}234${NARROW_NBSP}567,000001`],
    ['en-IN', '1234567.000001', '12,34,567.000001'],
    ['en-US', BEYOND_2_53, '9,007,199,254,740,993'],
    ['de-DE', BEYOND_2_53, '9.007.199.254.740.993'],
    ['en-IN', BEYOND_2_53, '9,00,71,99,25,47,40,993'],
    ['en-US', WEI, WEI],
    ['de-DE', WEI, '0,000000000000000001'],
    ['en-US', HUGE, '123,456,789,012,345,678,901,234.123456789012345678'],
    ['de-DE', HUGE, '123.456.789.012.345.678.901.234,123456789012345678'],
    ['fr-FR', HUGE, `123${NARROW_NBSP}456${NARROW_NBSP}789${NARROW_NBSP}012${NARROW_NBSP}345${NARROW_NBSP}678${NARROW_NBSP}901${NARROW_NBSP}234,123456789012345678`],
    ['en-IN', HUGE, '1,23,45,67,89,01,23,45,67,89,01,234.123456789012345678'],
    ['en-US', '5000', '5,000'],
    ['en-US', '12.500000', '12.500000'],
    ['de-DE', '-1234.50', '-1.234,50'],
    ['en-US', '0', '0'],
  ])('%s: %s → %s', (locale, amount, shown) => {
    expect(groupAmount(amount, locale)).toBe(shown);
  });

  it('keeps every digit of 18-decimal amounts beyond 2^53 in every locale (digits read back equal the input)', () => {
    for (const locale of ['en-US', 'de-DE', 'fr-FR', 'en-IN', 'de-CH', 'ja-JP', 'pt-BR']) {
      for (const amount of [HUGE, `${BEYOND_2_53}.999999999999999999`, WEI, '18446744073709551616.000000000000000001']) {
        const shown = groupAmount(amount, locale);
        const decimalSeparator = new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
        const [integer = '', fraction = ''] = shown.split(decimalSeparator);
        expect(`${integer.replace(/\D/g, '')}.${fraction}`, `${locale} ${amount}`).toBe(amount);
      }
    }
  });

  it('formats in the locale\'s own digits where it has them, still exactly', () => {
    expect(groupAmount('1234.05', 'ar-EG')).toBe('١٬٢٣٤٫٠٥');
  });

  it('leaves anything that is not a plain decimal string as it is', () => {
    for (const text of ['', 'abc', '1e21', '1,000.5', '.5', '5.', '+5', ' 5', 'NaN']) expect(groupAmount(text, 'en-US')).toBe(text);
  });

  it('never hands the amount to Intl as a number', () => {
    const formatToParts = vi.spyOn(Intl.NumberFormat.prototype, 'formatToParts');
    groupAmount(HUGE, 'en-US');
    expect(formatToParts).toHaveBeenCalled();
    for (const [value] of formatToParts.mock.calls) expect(typeof value).toBe('string');
  });

  it('shows the plain string when a runtime would round it (formatting through a number)', () => {
    const original = Intl.NumberFormat.prototype.formatToParts;
    vi.spyOn(Intl.NumberFormat.prototype, 'formatToParts').mockImplementation(function (this: Intl.NumberFormat, value) {
      return original.call(this, Number(value));
    });
    expect(groupAmount(BEYOND_2_53, 'en-US')).toBe(BEYOND_2_53);
    expect(groupAmount('1.000000000000000001', 'en-US')).toBe('1.000000000000000001');
    expect(groupAmount('1234.5', 'en-US')).toBe('1,234.5');
  });

  it('uses the browser locale by default, and en-US when it has none Intl knows', () => {
    systemLocaleIs('de-DE');
    expect(displayLocale()).toBe('de-DE');
    expect(groupAmount('1234.5')).toBe('1.234,5');
    systemLocaleIs('');
    expect(displayLocale()).toBe('en-US');
  });

  it('follows the language chosen in Settings: the system locale when it speaks it, else that language\'s main locale', () => {
    systemLocaleIs('de-CH');
    expect(displayLocale()).toBe('de-CH');
    useLanguageStore.getState().apply('en');
    expect(displayLocale()).toBe('en-US');
    expect(groupAmount('1234.5')).toBe('1,234.5');
    systemLocaleIs('en-GB');
    useLanguageStore.getState().apply('de');
    expect(displayLocale()).toBe('de-DE');
    expect(groupAmount('1234.5')).toBe('1.234,5');
    useLanguageStore.getState().apply('en');
    expect(displayLocale()).toBe('en-GB');
  });
});

describe('typed amounts', () => {
  it('are read in the browser locale by default, refused in its language, and a stored amount is written back so it reads as itself', () => {
    systemLocaleIs('de-DE');
    expect(readTypedAmount('1.250,5')).toEqual({ ok: true, amount: '1250.5' });
    expect(readTypedAmount('12.500')).toEqual({ ok: false, problem: '12.500 kann 12500 oder 12.5 bedeuten: Geben Sie 12500 oder 12,5 ein.' });
    expect(typedAmountText('1250.5')).toBe('1250,5');
    expect(readTypedAmount(typedAmountText(`${BEYOND_2_53}.000000000000000001`))).toEqual({ ok: true, amount: `${BEYOND_2_53}.000000000000000001` });
    systemLocaleIs('en-US');
    expect(readTypedAmount('1,250.5')).toEqual({ ok: true, amount: '1250.5' });
    expect(readTypedAmount('12,500')).toEqual({ ok: false, problem: '12,500 could mean 12500 or 12,5: type 12500 or 12.5.' });
    expect(typedAmountText('1250.5')).toBe('1250.5');
  });
});

describe('times', () => {
  const at = Date.UTC(2026, 10, 23, 20, 5, 9);

  it('shows date and time in the reporting zone, in the locale, with the zone named', () => {
    expect(formatDateTime(at, 'UTC', 'en-US')).toBe('Nov 23, 2026, 08:05:09 PM UTC');
    expect(formatDateTime(at, 'Europe/Berlin', 'de-DE')).toBe('23. Nov. 2026, 21:05:09 MEZ');
    expect(formatDateTime(at, 'Asia/Kolkata', 'en-IN')).toBe('24 Nov 2026, 01:35:09 am IST');
    expect(formatDateTime(at, 'America/New_York', 'en-US')).toBe('Nov 23, 2026, 03:05:09 PM EST');
    expect(formatDateTime(at, 'Europe/Berlin', 'en-US', 'compact')).toBe('11/23/26, 09:05 PM GMT+1');
    expect(formatDateTime(at, 'UTC', 'de-DE', 'compact')).toBe('23.11.26, 20:05 UTC');
  });

  it('shows a clock time with its zone', () => {
    expect(formatTime(at, 'UTC', 'en-GB')).toBe('20:05 UTC');
    expect(formatTime(at, 'Europe/Berlin', 'en-GB')).toBe('21:05 CET');
  });

  it('says an instant relative to now: ahead as "in …", behind as "… ago"', () => {
    const now = at;
    expect(timeFromNow(now + 20_000, now)).toBe('in less than a minute');
    expect(timeFromNow(now + 5 * 60_000, now)).toBe('in 5 min');
    expect(timeFromNow(now + 24 * 3_600_000 - 60_000, now)).toBe('in 24 h');
    expect(timeFromNow(now + 23 * 3_600_000 + 10 * 60_000, now)).toBe('in 23 h');
    expect(timeFromNow(now + 72 * 3_600_000, now)).toBe('in 3 days');
    expect(timeFromNow(now - 2 * 3_600_000, now)).toBe('2 h ago');
    expect(timeFromNow(now, now)).toBe('just now');
  });

  it('says relative times and durations in German when the window speaks German', () => {
    const now = at;
    useLanguageStore.getState().apply('de');
    expect(timeFromNow(now + 20_000, now)).toBe('in weniger als einer Minute');
    expect(timeFromNow(now + 5 * 60_000, now)).toBe('in 5 Min.');
    expect(timeFromNow(now + 72 * 3_600_000, now)).toBe('in 3 Tagen');
    expect(timeAgo(now - 2 * 3_600_000, now)).toBe('vor 2 Std.');
    expect(timeAgo(now - 36 * 3_600_000, now)).toBe('vor 2 Tagen');
    expect(timeAgo(now, now)).toBe('gerade eben');
    expect(formatDuration(90 * 60)).toBe('1 Std. 30 Min.');
    expect(formatDuration(0)).toBe('aus');
    useLanguageStore.getState().apply('en');
    expect(timeAgo(now - 24 * 3_600_000 * 1.5, now)).toBe('2 days ago');
    expect(timeAgo(now - 24 * 3_600_000, now)).toBe('24 h ago');
    expect(formatDuration(90 * 60)).toBe('1 h 30 min');
  });

  it('reads a date input as a day in the reporting zone', () => {
    expect(dateInputToMs('2026-11-23', 'Europe/Berlin')).toBe(Date.UTC(2026, 10, 22, 23));
    expect(dateInputToMs('2026-11-23', 'Europe/Berlin', true)).toBe(Date.UTC(2026, 10, 23, 23));
    expect(dateInputToMs('2026-11-23', 'UTC')).toBe(Date.UTC(2026, 10, 23));
    expect(dateInputToMs('', 'UTC')).toBeNull();
  });
});
