// Reports a person's input (keyboard, pointer, wheel) to the engine as session/activity, at most once per
// ACTIVITY_REPORT_INTERVAL_MS: the idle lock counts only these, never the refreshes that engine events trigger.
import { call } from './api';

/** The shortest time between two session/activity calls; input in between is reported when it ends. */
export const ACTIVITY_REPORT_INTERVAL_MS = 15_000;
const PERSON_INPUT_EVENTS = ['keydown', 'pointerdown', 'wheel'] as const;

/** Starts listening on the document; returns the function that stops it. */
export function startActivityReporting(): () => void {
  let lastReportAt = Number.NEGATIVE_INFINITY;
  let pendingReport: number | undefined;

  const report = (): void => {
    pendingReport = undefined;
    lastReportAt = Date.now();
    void call('session/activity', {});
  };

  const onInput = (): void => {
    if (pendingReport !== undefined) return;
    const wait = lastReportAt + ACTIVITY_REPORT_INTERVAL_MS - Date.now();
    if (wait <= 0) report();
    else pendingReport = window.setTimeout(report, wait);
  };

  for (const type of PERSON_INPUT_EVENTS) document.addEventListener(type, onInput, { capture: true, passive: true });
  return () => {
    for (const type of PERSON_INPUT_EVENTS) document.removeEventListener(type, onInput, { capture: true });
    if (pendingReport !== undefined) window.clearTimeout(pendingReport);
  };
}
