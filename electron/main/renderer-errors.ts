// Errors a window reports (desktop/reportError: React's error boundary, window `error` and `unhandledrejection`):
// recorded in the application log, redacted like every record, at most REPORTS_PER_MINUTE a minute so a window stuck
// in a failing loop cannot flood the log; reports over the limit are counted, and the count goes with the next one.
// Each one recorded also leaves a crash report in the data folder (core/crash-reports.ts, bounded).
import type { RendererErrorKind } from '../contract/limits';
import type { CrashReports } from '../core/crash-reports';
import type { Logger } from '../core/log';

export const RENDERER_REPORTS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;

export interface RendererErrorReport {
  readonly kind: RendererErrorKind;
  readonly message: string;
  readonly stack?: string | undefined;
  readonly componentStack?: string | undefined;
}

export class RendererErrorLog {
  readonly #log: Pick<Logger, 'error'>;
  readonly #now: () => number;
  readonly #reports: Pick<CrashReports, 'record'> | null;
  readonly #recordedAt: number[] = [];
  #suppressed = 0;

  constructor(log: Pick<Logger, 'error'>, now: () => number = Date.now, reports: Pick<CrashReports, 'record'> | null = null) {
    this.#log = log;
    this.#now = now;
    this.#reports = reports;
  }

  /** Records `report` unless the window has reported too many in the last minute; answers whether it was recorded. */
  record(report: RendererErrorReport): boolean {
    const now = this.#now();
    while (this.#recordedAt.length > 0 && (this.#recordedAt[0] ?? 0) <= now - MINUTE_MS) this.#recordedAt.shift();
    if (this.#recordedAt.length >= RENDERER_REPORTS_PER_MINUTE) {
      this.#suppressed += 1;
      return false;
    }
    this.#recordedAt.push(now);
    const suppressed = this.#suppressed;
    this.#suppressed = 0;
    const what = `renderer: ${report.kind === 'render' ? 'a screen failed to draw' : report.kind === 'error' ? 'uncaught error' : 'unhandled rejection'}`;
    const details = {
      kind: report.kind,
      message: report.message,
      ...(report.stack === undefined ? {} : { stack: report.stack }),
      ...(report.componentStack === undefined ? {} : { componentStack: report.componentStack }),
      ...(suppressed > 0 ? { suppressedBefore: suppressed } : {}),
    };
    this.#log.error(what, details);
    this.#reports?.record({ source: 'window', kind: report.kind, message: report.message, details });
    return true;
  }
}
