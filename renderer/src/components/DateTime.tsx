// Times on screen: in the desk's reporting time zone (session/state, one setting for the app, the CLI and CSV) and the
// person's locale, the zone always named; a <time> element carries the exact instant with the zone's offset.
import { useCallback } from 'react';
import { DEFAULT_REPORTING_TIME_ZONE, isoInZone } from '../../../electron/contract/time-zone';
import { formatDateTime, formatTime } from '../format';
import { useSessionStore } from '../stores/session';

/** The zone times are shown in; screens re-render when an admin changes it. */
export function useReportingTimeZone(): string {
  return useSessionStore((state) => state.session?.reportingTimeZone ?? DEFAULT_REPORTING_TIME_ZONE);
}

/** For text that is not an element (a title, a dialog's description): date and time in the reporting zone. */
export function useDateTimeText(): (ms: number) => string {
  const timeZone = useReportingTimeZone();
  return useCallback((ms: number) => formatDateTime(ms, timeZone), [timeZone]);
}

interface DateTimeProps {
  readonly at: number;
  /** Only the clock time (today's events in a banner); the full date and time otherwise. */
  readonly timeOnly?: boolean;
  readonly testId?: string;
}

export function DateTime({ at, timeOnly = false, testId }: DateTimeProps): React.JSX.Element {
  const timeZone = useReportingTimeZone();
  return (
    <time dateTime={isoInZone(at, timeZone)} data-testid={testId}>
      {timeOnly ? formatTime(at, timeZone) : formatDateTime(at, timeZone)}
    </time>
  );
}
