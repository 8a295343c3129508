// The reporting time zone's pure helpers: IANA names checked with Intl (case corrected, offsets and unknown names
// refused), instants written as ISO 8601 with the zone's offset (DST both ways, half- and quarter-hour zones, dates
// that roll over), and calendar times read back in a zone (skipped and repeated hours), round-tripping for any instant.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  dateToMs,
  DEFAULT_REPORTING_TIME_ZONE,
  isoInZone,
  offsetMinutes,
  timeZoneProblem,
  usableTimeZone,
  workstationTimeZone,
  zonedTimeToMs,
} from '../../../electron/contract/time-zone';

describe('zone names', () => {
  it('accepts IANA names, correcting letter case and keeping an alias as written', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone(' europe/berlin ')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('AMERICA/PORT_OF_SPAIN')).toBe('America/Port_of_Spain');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('etc/gmt+5')).toBe('Etc/GMT+5');
    // Aliases keep their own name, whatever this runtime's ICU calls the zone (Kolkata/Calcutta, Kyiv/Kiev).
    for (const alias of ['Asia/Kolkata', 'Europe/Kyiv', 'America/Argentina/Buenos_Aires']) {
      expect(canonicalTimeZone(alias)).toBe(alias);
      expect(canonicalTimeZone(alias.toLowerCase())).toBe(alias);
    }
  });

  it('refuses fixed offsets, unknown names and anything that is not a zone name', () => {
    for (const bad of ['+01:00', '-0500', 'Mars/Olympus', '', ' ', 'Europe/Berlin\u202E', 'Europe/../Berlin', 'x'.repeat(65), '東京']) {
      expect(canonicalTimeZone(bad), bad).toBeNull();
      expect(timeZoneProblem(bad), bad).toMatch(/is not an IANA time zone name/);
    }
  });

  it('has no problem with any spelling of a zone', () => {
    expect(timeZoneProblem('Europe/Berlin')).toBeNull();
    expect(timeZoneProblem('europe/berlin')).toBeNull();
  });

  it('defaults to UTC, and a stored value this runtime does not know falls back to it', () => {
    expect(DEFAULT_REPORTING_TIME_ZONE).toBe('UTC');
    expect(usableTimeZone(undefined)).toBe('UTC');
    expect(usableTimeZone('Atlantis/Capital')).toBe('UTC');
    expect(usableTimeZone(42)).toBe('UTC');
    expect(usableTimeZone('America/New_York')).toBe('America/New_York');
    expect(usableTimeZone('Europe/Kyiv')).toBe('Europe/Kyiv');
    // Stored values are in their usual spelling; anything else was not written by the desk.
    expect(usableTimeZone('america/new_york')).toBe('UTC');
    expect(canonicalTimeZone(workstationTimeZone())).toBe(workstationTimeZone());
  });
});

describe('isoInZone', () => {
  const at = Date.UTC(2026, 10, 23, 20, 5, 0, 7);

  it('writes the zone\'s wall clock with its offset, and Z for UTC itself', () => {
    expect(isoInZone(at, 'Europe/Berlin')).toBe('2026-11-23T21:05:00+01:00');
    expect(isoInZone(at, 'UTC')).toBe('2026-11-23T20:05:00Z');
    expect(isoInZone(at, 'Europe/London')).toBe('2026-11-23T20:05:00+00:00');
    expect(isoInZone(at, 'Asia/Kolkata')).toBe('2026-11-24T01:35:00+05:30');
    expect(isoInZone(at, 'Asia/Kathmandu')).toBe('2026-11-24T01:50:00+05:45');
    expect(isoInZone(at, 'America/St_Johns')).toBe('2026-11-23T16:35:00-03:30');
    expect(isoInZone(at, 'Pacific/Kiritimati')).toBe('2026-11-24T10:05:00+14:00');
    expect(isoInZone(at, 'Etc/GMT+12')).toBe('2026-11-23T08:05:00-12:00');
  });

  it('follows daylight saving time both ways', () => {
    expect(isoInZone(Date.UTC(2026, 2, 29, 0, 59, 59), 'Europe/Berlin')).toBe('2026-03-29T01:59:59+01:00');
    expect(isoInZone(Date.UTC(2026, 2, 29, 1, 0, 0), 'Europe/Berlin')).toBe('2026-03-29T03:00:00+02:00');
    expect(isoInZone(Date.UTC(2026, 9, 25, 0, 30), 'Europe/Berlin')).toBe('2026-10-25T02:30:00+02:00');
    expect(isoInZone(Date.UTC(2026, 9, 25, 1, 30), 'Europe/Berlin')).toBe('2026-10-25T02:30:00+01:00');
    expect(offsetMinutes(Date.UTC(2026, 6, 1), 'America/New_York')).toBe(-240);
    expect(offsetMinutes(Date.UTC(2026, 0, 1), 'America/New_York')).toBe(-300);
  });

  it('adds milliseconds and a space separator when asked', () => {
    expect(isoInZone(at, 'Europe/Berlin', { milliseconds: true })).toBe('2026-11-23T21:05:00.007+01:00');
    expect(isoInZone(at, 'UTC', { separator: ' ' })).toBe('2026-11-23 20:05:00Z');
    expect(isoInZone(0, 'America/Los_Angeles', { milliseconds: true })).toBe('1969-12-31T16:00:00.000-08:00');
  });

  it('is always the same instant, for any instant and zone', () => {
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/Santiago', 'Africa/Casablanca'];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }), fc.constantFrom(...zones), (ms, zone) => {
        expect(Date.parse(isoInZone(ms, zone, { milliseconds: true }))).toBe(ms);
      }),
      { numRuns: 400 },
    );
  });
});

describe('zonedTimeToMs and dateToMs', () => {
  const clock = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0) => ({ year, month, day, hour, minute, second });

  it('reads a wall-clock time in the zone', () => {
    expect(zonedTimeToMs(clock(2026, 11, 23, 21, 5), 'Europe/Berlin')).toBe(Date.UTC(2026, 10, 23, 20, 5));
    expect(zonedTimeToMs(clock(2026, 7, 1, 9, 15), 'Asia/Kolkata')).toBe(Date.UTC(2026, 6, 1, 3, 45));
    expect(zonedTimeToMs(clock(2026, 1, 1), 'UTC')).toBe(Date.UTC(2026, 0, 1));
  });

  it('a skipped time lands after the gap, a repeated time is its first occurrence', () => {
    // 02:30 does not exist in Berlin on 2026-03-29: read with the winter offset, it is 03:30 summer time.
    expect(zonedTimeToMs(clock(2026, 3, 29, 2, 30), 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 29, 1, 30));
    // 02:30 happens twice in Berlin on 2026-10-25: the first time is still summer time.
    expect(zonedTimeToMs(clock(2026, 10, 25, 2, 30), 'Europe/Berlin')).toBe(Date.UTC(2026, 9, 25, 0, 30));
  });

  it('round-trips with isoInZone for any whole-second instant outside a repeated hour', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), fc.constantFrom('Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'), (seconds, zone) => {
        const ms = seconds * 1000;
        const text = isoInZone(ms, zone);
        const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(text);
        if (match === null) throw new Error(text);
        const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
        const read = zonedTimeToMs({ year, month, day, hour, minute, second }, zone);
        // In a repeated hour the first occurrence is chosen: the same wall clock, at most the DST shift earlier.
        expect(isoInZone(read, zone).slice(0, 19)).toBe(text.slice(0, 19));
        expect(ms - read === 0 || (ms - read > 0 && ms - read <= 3_600_000)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('reads a calendar date as midnight in the zone, or the next midnight for the end of the day', () => {
    expect(dateToMs('2026-05-01', 'Europe/Berlin')).toBe(Date.UTC(2026, 3, 30, 22));
    expect(dateToMs('2026-05-01', 'Europe/Berlin', true)).toBe(Date.UTC(2026, 4, 1, 22));
    expect(dateToMs('2026-12-31', 'UTC', true)).toBe(Date.UTC(2027, 0, 1));
    for (const bad of ['', '2026-02-30', '2026-13-01', '26-05-01', '2026-5-1', 'yesterday']) expect(dateToMs(bad, 'UTC'), bad).toBeNull();
  });
});
