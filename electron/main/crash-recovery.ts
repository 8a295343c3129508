// What the app does when something fails that nobody expected (house rule 14): an uncaught exception or unhandled
// rejection in main, a window's page that stopped (render-process-gone), a helper process that stopped
// (child-process-gone). Each is recorded in the application log (redacted) and the person is told what happened and
// what to do: restart after an exception in main, reload a stopped window (up to a limit, then export diagnostics),
// carry on after a background failure. Each also leaves a crash report in the data folder (core/crash-reports.ts;
// a background failure at most as often as its notice). Invariant: a dialog never carries a secret (its text is redacted and escaped),
// and a flood of failures never opens a flood of dialogs (one at a time, background notices rate-limited).
import type { App, BrowserWindow, MessageBoxOptions, RenderProcessGoneDetails, WebContents } from 'electron';
import { escapeUnsafeText } from '../contract';
import type { CrashReports } from '../core/crash-reports';
import { secretRedactor, type Logger } from '../core/log';

/** Reloads of a stopped window offered within RENDERER_CRASH_WINDOW_MS before the person is told to export diagnostics. */
export const MAX_RENDERER_RELOADS = 3;
export const RENDERER_CRASH_WINDOW_MS = 10 * 60_000;
/** At most one "something failed in the background" notice this often (every failure is still logged). */
export const BACKGROUND_NOTICE_INTERVAL_MS = 10 * 60_000;
const SUMMARY_MAX_CHARS = 300;

const DIAGNOSTICS_ADVICE =
  'If this happens again, export diagnostics (Settings, "Export diagnostics", or "treasury-desk diagnostics --out FILE" in a terminal) and send the file to your support contact.';
const SAVED_WORK =
  'Everything the desk had saved is kept: requests, approvals and the audit log are stored as each step completes. A form you were filling in may need to be entered again.';

/** What a message box needs; answered with the index of the button pressed. */
export type CrashDialogBox = Pick<MessageBoxOptions, 'type' | 'title' | 'message' | 'detail' | 'buttons' | 'defaultId' | 'cancelId' | 'noLink'>;

export interface CrashRecoveryDeps {
  /** The process (uncaughtException, unhandledRejection). */
  readonly process: Pick<NodeJS.Process, 'on' | 'off'>;
  readonly app: Pick<App, 'on' | 'off' | 'quit' | 'relaunch' | 'isReady'>;
  readonly log: Logger;
  /** Where a crash report of each failure is kept (bounded, redacted). */
  readonly reports: Pick<CrashReports, 'record'>;
  /** Shows a message box (on `window` when given) and answers the index of the button pressed. */
  readonly ask: (window: BrowserWindow | null, box: CrashDialogBox) => Promise<number>;
  /** The last-resort box before the app is ready (Electron's dialog.showErrorBox). */
  readonly showErrorBox: (title: string, content: string) => void;
  /** The window showing `contents`, if it is still there. */
  readonly windowOf: (contents: WebContents) => BrowserWindow | null;
  /** Opens a new main window (when the stopped one is gone). */
  readonly openWindow: () => void;
  readonly now?: () => number;
}

/** "Error: the message", redacted, escaped and short: what a dialog may show of a failure. */
export function failureSummary(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : typeof error === 'string' ? error : (() => {
    try {
      return JSON.stringify(error) ?? String(error);
    } catch {
      return String(error);
    }
  })();
  const safe = escapeUnsafeText(secretRedactor.redactText(text).replace(/\s+/g, ' ').trim());
  return safe.length > SUMMARY_MAX_CHARS ? `${safe.slice(0, SUMMARY_MAX_CHARS)}…` : safe;
}

/** Why a window's page stopped, in words (Electron's render-process-gone reasons). */
export function rendererGoneReason(reason: RenderProcessGoneDetails['reason']): string {
  switch (reason) {
    case 'crashed':
      return 'it crashed';
    case 'oom':
      return 'it ran out of memory';
    case 'killed':
      return 'it was ended by the system or another program';
    case 'launch-failed':
      return 'it could not start';
    case 'integrity-failure':
      return "Treasury Desk's own files failed an integrity check (reinstall Treasury Desk)";
    case 'memory-eviction':
      return 'the system reclaimed its memory';
    case 'abnormal-exit':
      return 'it ended abnormally';
    case 'clean-exit':
      return 'it closed';
    default:
      // A reason this version does not know: shown as Electron said it, made safe like any failure text.
      return `it stopped (${failureSummary(reason)})`;
  }
}

/** Installs the handlers; returns the function that removes them (tests). */
export function installCrashRecovery(deps: CrashRecoveryDeps): () => void {
  const now = deps.now ?? Date.now;
  let dialogs: Promise<unknown> = Promise.resolve();
  let dialogOpen = false;
  let fatal = false;
  let lastBackgroundNotice = Number.NEGATIVE_INFINITY;
  const crashes: number[] = [];

  /** Shows boxes one after another, never two at once; a failing dialog is logged and counts as the cancel button. */
  function show(window: BrowserWindow | null, box: CrashDialogBox): Promise<number> {
    const next = dialogs.then(async () => {
      dialogOpen = true;
      try {
        if (!deps.app.isReady()) {
          deps.showErrorBox(box.title ?? 'Treasury Desk', `${box.message}\n\n${box.detail ?? ''}`);
          return box.cancelId ?? 0;
        }
        return await deps.ask(window, box);
      } catch (error) {
        deps.log.error('crash-recovery: a dialog could not be shown', { error });
        return box.cancelId ?? 0;
      } finally {
        dialogOpen = false;
      }
    });
    dialogs = next.catch(() => undefined);
    return next;
  }

  function restart(): void {
    deps.app.relaunch();
    deps.app.quit();
  }

  const onUncaughtException = (error: Error, origin: string): void => {
    deps.log.fatal('main: uncaught exception', { error, origin });
    deps.reports.record({ source: 'main', kind: 'uncaughtException', message: failureSummary(error), error, details: { origin } });
    if (fatal) return;
    fatal = true;
    void show(null, {
      type: 'error',
      title: 'Treasury Desk',
      message: 'Treasury Desk hit an unexpected error and has to restart.',
      detail: `${failureSummary(error)}\n\n${SAVED_WORK}\n\n${DIAGNOSTICS_ADVICE}`,
      buttons: ['Restart', 'Quit'],
      defaultId: 0,
      cancelId: 1,
      noLink: true,
    }).then((button) => (button === 0 ? restart() : deps.app.quit()));
  };

  const onUnhandledRejection = (reason: unknown): void => {
    deps.log.error('main: unhandled promise rejection', { reason });
    if (fatal || dialogOpen || now() - lastBackgroundNotice < BACKGROUND_NOTICE_INTERVAL_MS) return;
    lastBackgroundNotice = now();
    deps.reports.record({ source: 'main', kind: 'unhandledRejection', message: failureSummary(reason), error: reason });
    void show(null, {
      type: 'warning',
      title: 'Treasury Desk',
      message: 'Something went wrong in the background.',
      detail: `${failureSummary(reason)}\n\nTreasury Desk keeps running. If something looks wrong or out of date, restart it. ${DIAGNOSTICS_ADVICE}`,
      buttons: ['OK', 'Restart now'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    }).then((button) => {
      if (button === 1) restart();
    });
  };

  const onRenderProcessGone = (_event: unknown, contents: WebContents, details: RenderProcessGoneDetails): void => {
    if (details.reason === 'clean-exit') return;
    const at = now();
    while (crashes.length > 0 && (crashes[0] ?? 0) <= at - RENDERER_CRASH_WINDOW_MS) crashes.shift();
    crashes.push(at);
    deps.log.error("renderer: the window's page stopped", { reason: details.reason, exitCode: details.exitCode, recentStops: crashes.length });
    deps.reports.record({ source: 'window', kind: 'pageStopped', message: `the window's page stopped: ${rendererGoneReason(details.reason)}`, details: { reason: details.reason, exitCode: details.exitCode, recentStops: crashes.length } });
    const window = deps.windowOf(contents);
    const why = rendererGoneReason(details.reason);
    const reload = (): void => {
      deps.log.info('crash-recovery: reloading the window', { recentStops: crashes.length });
      if (window !== null && !window.isDestroyed() && !contents.isDestroyed()) contents.reload();
      else deps.openWindow();
    };
    if (crashes.length <= MAX_RENDERER_RELOADS) {
      void show(window, {
        type: 'error',
        title: 'Treasury Desk',
        message: `The Treasury Desk window stopped: ${why}.`,
        detail: `${SAVED_WORK}\n\nReload the window to carry on, or quit. ${DIAGNOSTICS_ADVICE}`,
        buttons: ['Reload', 'Quit'],
        defaultId: 0,
        cancelId: 1,
        noLink: true,
      }).then((button) => (button === 0 ? reload() : deps.app.quit()));
      return;
    }
    void show(window, {
      type: 'error',
      title: 'Treasury Desk',
      message: `The Treasury Desk window has stopped ${crashes.length} times in a few minutes (last: ${why}).`,
      detail:
        'Export diagnostics in a terminal ("treasury-desk diagnostics --out FILE") and send the file to your support contact; then quit and start Treasury Desk again. ' +
        SAVED_WORK,
      buttons: ['Quit', 'Reload anyway'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    }).then((button) => (button === 1 ? reload() : deps.app.quit()));
  };

  const onChildProcessGone = (_event: unknown, details: Electron.Details): void => {
    if (details.reason === 'clean-exit') return;
    // Chromium starts the GPU and utility processes again by itself: recorded, nothing to ask.
    deps.log.warn('app: a helper process stopped', {
      type: details.type,
      reason: details.reason,
      exitCode: details.exitCode,
      ...(details.serviceName === undefined ? {} : { serviceName: details.serviceName }),
      ...(details.name === undefined ? {} : { name: details.name }),
    });
  };

  deps.process.on('uncaughtException', onUncaughtException);
  deps.process.on('unhandledRejection', onUnhandledRejection);
  deps.app.on('render-process-gone', onRenderProcessGone);
  deps.app.on('child-process-gone', onChildProcessGone);
  return () => {
    deps.process.off('uncaughtException', onUncaughtException);
    deps.process.off('unhandledRejection', onUnhandledRejection);
    deps.app.off('render-process-gone', onRenderProcessGone);
    deps.app.off('child-process-gone', onChildProcessGone);
  };
}
