// Parsers for option values typed on the command line (whole numbers, ISO times, ports, repeated options): a bad
// value is a usage error (exit 2) that names the option. Amounts are never parsed here: they go to the engine as text.
import { InvalidArgumentError } from 'commander';
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

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO 8601 date or time as epoch milliseconds. A date alone is midnight UTC; a time without a zone is UTC too
 * (a desk shared across offices should not depend on the workstation's zone).
 */
export function parseIsoTime(text: string, option: string): number {
  const trimmed = text.trim();
  if (!ISO_TIME.test(trimmed)) throw new UsageError(`${option} must be an ISO 8601 date or time such as 2024-05-01 or 2024-05-01T12:00:00Z; got ${JSON.stringify(text.slice(0, 40))}.`);
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(trimmed) && trimmed.length > 10;
  const normalized = trimmed.replace(' ', 'T');
  const ms = Date.parse(trimmed.length === 10 ? `${normalized}T00:00:00Z` : hasZone ? normalized : `${normalized}Z`);
  if (!Number.isFinite(ms) || ms < 0) throw new UsageError(`${option}: ${JSON.stringify(text.slice(0, 40))} is not a real date.`);
  return ms;
}
