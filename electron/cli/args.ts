// Parsers for option values typed on the command line (whole numbers, ISO times, ports, repeated options): a bad
// value is a usage error (exit 2) that names the option. Amounts are never parsed here: they go to the engine as text.
import { InvalidArgumentError } from 'commander';
import { zonedTimeToMs, type WallClock } from '../contract';
import { UsageError } from './errors';

/** Commander argParser for a whole number in [min, max]. */
export function wholeNumber(min: number, max: number) {
  return (text: string): number => {
    if (!/^[0-9]{1,9}$/.test(text) || Number(text) < min || Number(text) > max) {
      throw new InvalidArgumentError(`a whole number from ${min} to ${max} is expected.`);
    }
    return Number(text);
  };
}

export const parsePort = wholeNumber(0, 65535);

/** Commander argParser collecting a repeatable option's values in order. */
export function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

const DURATION = /^(?:(\d{1,3})d)?(?:(\d{1,4})h)?(?:(\d{1,6})m(?:in)?)?$/;

/**
 * A duration typed on the command line, such as 30m, 2h, 1h30m or 1d, as milliseconds (exit 2 when it is not one). The
 * engine checks the range of what it is used for.
 */
export function parseDuration(text: string, option: string): number {
  const trimmed = text.trim().toLowerCase();
  const match = DURATION.exec(trimmed);
  if (match === null || trimmed === '') throw new UsageError(`${option} must be a duration such as 30m, 2h, 1h30m or 1d; got ${JSON.stringify(text.slice(0, 40))}.`);
  const [days = 0, hours = 0, minutes = 0] = match.slice(1, 4).map((part) => Number(part ?? 0)) as [number, number, number];
  return ((days * 24 + hours) * 60 + minutes) * 60_000;
}

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A date or time typed on the command line, checked; without an offset it still needs the reporting zone. */
export interface TypedTime {
  readonly clock: WallClock;
  readonly milliseconds: number;
  /** Minutes east of UTC when the text carried an offset or Z; null when it is read in the reporting zone. */
  readonly offsetMinutes: number | null;
}

/**
 * Checks an ISO 8601 date or time (before any desk is opened: a bad value is a usage error, exit 2). A date alone is
 * midnight; see typedTimeToMs for the zone it is read in.
 */
export function parseIsoTime(text: string, option: string): TypedTime {
  const trimmed = text.trim();
  const match = ISO_TIME.exec(trimmed);
  if (match === null) throw new UsageError(`${option} must be an ISO 8601 date or time such as 2024-05-01 or 2024-05-01T12:00:00Z; got ${JSON.stringify(text.slice(0, 40))}.`);
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw new UsageError(`${option}: ${JSON.stringify(text.slice(0, 40))} is not a real date.`);
  }
  const offset = match[8];
  return {
    clock: { year, month, day, hour, minute, second },
    milliseconds: Number((match[7] ?? '0').padEnd(3, '0')),
    offsetMinutes: offset === undefined ? null : offset === 'Z' ? 0 : (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(-2))),
  };
}

/**
 * A calendar month typed as YYYY-MM: its first day, and the first day of the next month (the period's exclusive end),
 * each read like a typed date (typedTimeToMs: in the reporting zone).
 */
export function parseMonth(text: string, option: string): { readonly from: TypedTime; readonly to: TypedTime } {
  const match = /^(\d{4})-(\d{2})$/.exec(text.trim());
  const month = match === null ? 0 : Number(match[2]);
  if (match === null || month < 1 || month > 12) throw new UsageError(`${option} must be a calendar month such as 2026-10 (YYYY-MM); got ${JSON.stringify(text.slice(0, 40))}.`);
  const year = Number(match[1]);
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  const first = (at: { year: number; month: number }): TypedTime => ({ clock: { ...at, day: 1, hour: 0, minute: 0, second: 0 }, milliseconds: 0, offsetMinutes: null });
  return { from: first({ year, month }), to: first(next) };
}

/**
 * The instant a typed time denotes: with its own offset as written, otherwise in the desk's reporting time zone (the
 * zone every time is shown in), so `--from 2024-05-01` means the start of that day where the desk reports.
 */
export function typedTimeToMs(time: TypedTime, timeZone: string): number {
  const { clock } = time;
  const base = time.offsetMinutes === null
    ? zonedTimeToMs(clock, timeZone)
    : Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second) - time.offsetMinutes * 60_000;
  return base + time.milliseconds;
}
