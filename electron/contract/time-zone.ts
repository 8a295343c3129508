// The desk's reporting time zone: an IANA name checked with Intl, instants written as ISO 8601 with that zone's
// offset (CLI, CSV), and calendar times read in that zone. Pure (Intl only), shared by the engine, the CLI and the UI.

/** Until an admin chooses one, reports use UTC: the same on every workstation and server, whatever its own zone. */
export const DEFAULT_REPORTING_TIME_ZONE = 'UTC';

/** Zone names are short ASCII; fixed offsets such as "+01:00" are not IANA names and are refused. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

function resolvedZone(timeZone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

let knownZones: ReadonlyMap<string, string> | undefined;

/** The zone names this runtime lists, by lower-case spelling. */
function listedZones(): ReadonlyMap<string, string> {
  knownZones ??= new Map(['UTC', ...(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [])].map((zone) => [zone.toLowerCase(), zone]));
  return knownZones;
}

/** "europe/kyiv" → "Europe/Kyiv": IANA's usual capitals, for a lower-case alias this runtime does not list. */
function capitalised(name: string): string {
  return name.replace(/(^|[/_-])([a-z])/g, (_, before: string, letter: string) => `${before}${letter.toUpperCase()}`);
}

/**
 * The zone name to store for what someone typed, or null when it is not an IANA time zone Intl knows. Letter case is
 * corrected ("europe/berlin" → "Europe/Berlin"); an alias keeps its own name ("Europe/Kyiv" stays, though older ICU
 * data calls it Europe/Kiev), so nobody's zone is renamed behind their back.
 */
export function canonicalTimeZone(text: string): string | null {
  const name = text.trim();
  if (!ZONE_NAME.test(name)) return null;
  const resolved = resolvedZone(name);
  if (resolved === null) return null;
  const lower = name.toLowerCase();
  const listed = listedZones().get(lower);
  if (listed !== undefined) return listed;
  if (resolved.toLowerCase() === lower) return resolved;
  return name === lower ? capitalised(name) : name;
}

/** A problem sentence for a zone name, or null when it names a zone (canonicalTimeZone gives its stored spelling). */
export function timeZoneProblem(text: string): string | null {
  return canonicalTimeZone(text) === null ? `"${text.slice(0, 64)}" is not an IANA time zone name such as Europe/Berlin, America/New_York or UTC` : null;
}

/** The workstation's own zone (the OS setting), or UTC when the runtime does not know it. */
export function workstationTimeZone(): string {
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return canonicalTimeZone(zone) ?? DEFAULT_REPORTING_TIME_ZONE;
}

/** A stored value as a usable zone (a name this runtime no longer knows falls back to the default). */
export function usableTimeZone(stored: unknown): string {
  return typeof stored === 'string' && canonicalTimeZone(stored) === stored ? stored : DEFAULT_REPORTING_TIME_ZONE;
}

interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const wallClockFormatters = new Map<string, Intl.DateTimeFormat>();

function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallClockFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClockFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The calendar date and clock time of instant `ms` in `timeZone` (whole seconds). */
function wallClock(ms: number, timeZone: string): WallClock {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of wallClockFormatter(timeZone).formatToParts(ms)) parts[part.type] = part.value;
  const yearOfEra = Number(parts.year);
  return {
    year: parts.era === 'BC' ? 1 - yearOfEra : yearOfEra,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

function utcOf(clock: WallClock): number {
  const date = new Date(0);
  date.setUTCFullYear(clock.year, clock.month - 1, clock.day);
  date.setUTCHours(clock.hour, clock.minute, clock.second, 0);
  return date.getTime();
}

/** The zone's offset from UTC at instant `ms`, in minutes (Europe/Berlin in winter: 60). */
export function offsetMinutes(ms: number, timeZone: string): number {
  const wholeSecond = Math.floor(ms / 1000) * 1000;
  return Math.round((utcOf(wallClock(wholeSecond, timeZone)) - wholeSecond) / 60_000);
}

function pad(value: number, width = 2): string {
  return String(Math.abs(value)).padStart(width, '0');
}

function yearText(year: number): string {
  if (year >= 0 && year <= 9999) return pad(year, 4);
  return `${year < 0 ? '-' : '+'}${pad(year, 6)}`;
}

/** "+01:00", "-05:30"; "Z" only for the UTC zone itself (a zone that happens to be at +00:00 says so). */
function offsetText(minutes: number, timeZone: string): string {
  if (minutes === 0 && canonicalTimeZone(timeZone) === 'UTC') return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.trunc(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

export interface IsoOptions {
  /** Between date and time: "T" (ISO 8601, CSV) or " " (easier to read in a terminal). */
  readonly separator?: 'T' | ' ';
  /** Add ".sss" (an export keeps the instant exact to the millisecond). */
  readonly milliseconds?: boolean;
}

/**
 * Instant `ms` as ISO 8601 in `timeZone`, with that zone's offset so it stays one unambiguous instant:
 * `2026-11-23T21:05:00+01:00` (Europe/Berlin), `2026-11-23T20:05:00Z` (UTC).
 */
export function isoInZone(ms: number, timeZone: string, options: IsoOptions = {}): string {
  const clock = wallClock(ms, timeZone);
  const offset = Math.round((utcOf(clock) - Math.floor(ms / 1000) * 1000) / 60_000);
  const millis = options.milliseconds === true ? `.${pad(((ms % 1000) + 1000) % 1000, 3)}` : '';
  return (
    `${yearText(clock.year)}-${pad(clock.month)}-${pad(clock.day)}${options.separator ?? 'T'}` +
    `${pad(clock.hour)}:${pad(clock.minute)}:${pad(clock.second)}${millis}${offsetText(offset, timeZone)}`
  );
}

/**
 * The instant a calendar date and clock time denote in `timeZone`. A repeated clock time (an autumn night) is its
 * first occurrence; a clock time skipped by a spring-forward change (02:30) is read with the offset in force before
 * the change, so it lands after the gap (03:30) — Temporal's "compatible" choice.
 */
export function zonedTimeToMs(clock: WallClock, timeZone: string): number {
  const asUtc = utcOf(clock);
  const withOffsetBefore = asUtc - offsetMinutes(asUtc - 86_400_000, timeZone) * 60_000;
  const withOffsetAfter = asUtc - offsetMinutes(asUtc + 86_400_000, timeZone) * 60_000;
  const readings = [withOffsetBefore, withOffsetAfter].filter((candidate) => utcOf(wallClock(candidate, timeZone)) === asUtc);
  return readings.length > 0 ? Math.min(...readings) : withOffsetBefore;
}

/** Midnight at the start of calendar date `YYYY-MM-DD` in `timeZone` (the next day's with endOfDay); null if malformed. */
export function dateToMs(date: string, timeZone: string, endOfDay = false): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  const next = new Date(Date.UTC(year, month - 1, day + (endOfDay ? 1 : 0)));
  return zonedTimeToMs({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0, second: 0 }, timeZone);
}

/** Calendar date and clock time fields for zonedTimeToMs (exported for parsers that read them from text). */
export type { WallClock };

/** A moment as "2026-11-28 07:26 UTC": the minute in UTC, for messages that must read the same on every workstation. */
export function utcMinuteText(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}
