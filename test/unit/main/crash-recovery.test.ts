// Crash recovery in main (electron/main/crash-recovery.ts) with Electron stubbed: an uncaught exception, an unhandled
// rejection, a window's page that stopped and a helper process that stopped are each logged (redacted, with what
// Electron said) and explained in a dialog with what to do; reload is offered up to a limit, then diagnostics.
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { App, BrowserWindow, RenderProcessGoneDetails, WebContents } from 'electron';
import type { CrashInput } from '../../../electron/core/crash-reports';
import { registerSecret } from '../../../electron/core/log';
import {
  BACKGROUND_NOTICE_INTERVAL_MS,
  failureSummary,
  installCrashRecovery,
  MAX_RENDERER_RELOADS,
  RENDERER_CRASH_WINDOW_MS,
  type CrashDialogBox,
} from '../../../electron/main/crash-recovery';
import { FakeApp, FakeWebContents } from './electron-fakes';

interface Logged {
  readonly level: string;
  readonly message: string;
  readonly details: Record<string, unknown> | undefined;
}

class FakeContents extends FakeWebContents {
  readonly reload = vi.fn();
}

let app: FakeApp;
let proc: EventEmitter;
let logged: Logged[];
let reported: CrashInput[];
let boxes: Array<{ window: unknown; box: CrashDialogBox }>;
let answers: number[];
let errorBoxes: Array<{ title: string; content: string }>;
let opened: number;
let clock: number;
let window: { isDestroyed: () => boolean; destroyed: boolean };
let uninstall: () => void;

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

function record(level: string) {
  return (message: string, details?: Readonly<Record<string, unknown>>) => logged.push({ level, message, details: details as Record<string, unknown> | undefined });
}

beforeEach(() => {
  app = new FakeApp();
  app.becomeReady();
  proc = new EventEmitter();
  logged = [];
  reported = [];
  boxes = [];
  answers = [];
  errorBoxes = [];
  opened = 0;
  clock = 1_000_000;
  window = {
    destroyed: false,
    isDestroyed() {
      return this.destroyed;
    },
  };
  uninstall = installCrashRecovery({
    process: proc as unknown as NodeJS.Process,
    app: app as unknown as App,
    log: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error'), fatal: record('fatal') },
    reports: { record: (input) => (reported.push(input), 'crash.json') },
    ask: async (target, box) => {
      boxes.push({ window: target, box });
      return answers.shift() ?? box.cancelId ?? 0;
    },
    showErrorBox: (title, content) => errorBoxes.push({ title, content }),
    windowOf: () => window as unknown as BrowserWindow,
    openWindow: () => {
      opened += 1;
    },
    now: () => clock,
  });
});

afterEach(() => uninstall());

function rendererGone(contents: FakeContents, reason: RenderProcessGoneDetails['reason'], exitCode = 139): void {
  app.emit('render-process-gone', {}, contents as unknown as WebContents, { reason, exitCode } satisfies RenderProcessGoneDetails);
}

describe('an uncaught exception in main', () => {
  it('is logged as fatal with its error and origin; the dialog says what happened and restarts on Restart', async () => {
    const error = new Error('main broke');
    answers.push(0);
    proc.emit('uncaughtException', error, 'uncaughtException');
    await settle();
    expect(logged).toEqual([{ level: 'fatal', message: 'main: uncaught exception', details: { error, origin: 'uncaughtException' } }]);
    expect(boxes).toHaveLength(1);
    expect(boxes[0]?.box).toMatchObject({ type: 'error', message: 'Treasury Desk hit an unexpected error and has to restart.', buttons: ['Restart', 'Quit'] });
    expect(boxes[0]?.box.detail).toContain('Error: main broke');
    expect(boxes[0]?.box.detail).toContain('export diagnostics');
    expect(app.relaunch).toHaveBeenCalledTimes(1);
    expect(app.quit).toHaveBeenCalledTimes(1);
    expect(reported).toEqual([{ source: 'main', kind: 'uncaughtException', message: 'Error: main broke', error, details: { origin: 'uncaughtException' } }]);
  });

  it('quits without relaunching on Quit, and a second exception is only logged (one dialog)', async () => {
    answers.push(1);
    proc.emit('uncaughtException', new Error('first'), 'uncaughtException');
    proc.emit('uncaughtException', new Error('second'), 'uncaughtException');
    await settle();
    expect(logged.map((entry) => entry.level)).toEqual(['fatal', 'fatal']);
    expect(boxes).toHaveLength(1);
    expect(app.relaunch).not.toHaveBeenCalled();
    expect(app.quit).toHaveBeenCalledTimes(1);
  });

  it('before the app is ready, shows the error box (the only dialog Electron allows then) and quits', async () => {
    app.ready = false;
    proc.emit('uncaughtException', new Error('too early'), 'uncaughtException');
    await settle();
    expect(boxes).toHaveLength(0);
    expect(errorBoxes).toHaveLength(1);
    expect(errorBoxes[0]?.content).toContain('Error: too early');
    expect(app.quit).toHaveBeenCalledTimes(1);
  });

  it('never shows a registered secret in the dialog', async () => {
    registerSecret('crash-recovery merchant secret 42', 'merchantSecret');
    proc.emit('uncaughtException', new Error('failed with crash-recovery merchant secret 42 inside'), 'uncaughtException');
    await settle();
    expect(boxes[0]?.box.detail).not.toContain('crash-recovery merchant secret 42');
    expect(boxes[0]?.box.detail).toContain('[redacted merchantSecret]');
  });
});

describe('an unhandled rejection in main', () => {
  it('is logged; a notice says the app keeps running, at most once per interval', async () => {
    proc.emit('unhandledRejection', new Error('background job failed'), Promise.resolve());
    await settle();
    proc.emit('unhandledRejection', 'a string reason', Promise.resolve());
    await settle();
    expect(logged.map((entry) => [entry.level, entry.message])).toEqual([
      ['error', 'main: unhandled promise rejection'],
      ['error', 'main: unhandled promise rejection'],
    ]);
    expect(logged[1]?.details).toEqual({ reason: 'a string reason' });
    expect(boxes).toHaveLength(1);
    expect(boxes[0]?.box).toMatchObject({ type: 'warning', message: 'Something went wrong in the background.', buttons: ['OK', 'Restart now'] });
    expect(boxes[0]?.box.detail).toContain('keeps running');
    clock += BACKGROUND_NOTICE_INTERVAL_MS;
    answers.push(1);
    proc.emit('unhandledRejection', new Error('again later'), Promise.resolve());
    await settle();
    expect(boxes).toHaveLength(2);
    expect(app.relaunch).toHaveBeenCalledTimes(1);
    // A crash report as often as the notice: the first and the one after the interval, not the one in between.
    expect(reported.map((input) => [input.source, input.kind, input.message])).toEqual([
      ['main', 'unhandledRejection', 'Error: background job failed'],
      ['main', 'unhandledRejection', 'Error: again later'],
    ]);
  });
});

describe("a window's page that stopped", () => {
  it('is logged with the reason and exit code; Reload reloads the page', async () => {
    const contents = new FakeContents();
    answers.push(0);
    rendererGone(contents, 'crashed', 139);
    await settle();
    expect(logged[0]).toEqual({ level: 'error', message: "renderer: the window's page stopped", details: { reason: 'crashed', exitCode: 139, recentStops: 1 } });
    expect(boxes[0]?.window).toBe(window);
    expect(boxes[0]?.box).toMatchObject({ message: 'The Treasury Desk window stopped: it crashed.', buttons: ['Reload', 'Quit'] });
    expect(contents.reload).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();
    expect(reported).toEqual([{ source: 'window', kind: 'pageStopped', message: "the window's page stopped: it crashed", details: { reason: 'crashed', exitCode: 139, recentStops: 1 } }]);
  });

  it('opens a new window when the old one is gone, and quits on Quit', async () => {
    const contents = new FakeContents();
    window.destroyed = true;
    answers.push(0);
    rendererGone(contents, 'oom');
    await settle();
    expect(boxes[0]?.box.message).toBe('The Treasury Desk window stopped: it ran out of memory.');
    expect(contents.reload).not.toHaveBeenCalled();
    expect(opened).toBe(1);
    answers.push(1);
    rendererGone(contents, 'killed');
    await settle();
    expect(app.quit).toHaveBeenCalledTimes(1);
  });

  it(`offers reload ${MAX_RENDERER_RELOADS} times within the window, then says to export diagnostics`, async () => {
    const contents = new FakeContents();
    for (let n = 0; n < MAX_RENDERER_RELOADS; n += 1) {
      answers.push(0);
      rendererGone(contents, 'crashed');
      await settle();
      clock += 1_000;
    }
    expect(contents.reload).toHaveBeenCalledTimes(MAX_RENDERER_RELOADS);
    rendererGone(contents, 'crashed');
    await settle();
    const last = boxes.at(-1)?.box;
    expect(last).toMatchObject({ message: `The Treasury Desk window has stopped ${MAX_RENDERER_RELOADS + 1} times in a few minutes (last: it crashed).`, buttons: ['Quit', 'Reload anyway'] });
    expect(last?.detail).toContain('treasury-desk diagnostics --out FILE');
    expect(app.quit).toHaveBeenCalledTimes(1);
    // Later, after the window of time, reload is offered again.
    clock += RENDERER_CRASH_WINDOW_MS;
    answers.push(0);
    rendererGone(contents, 'crashed');
    await settle();
    expect(boxes.at(-1)?.box.buttons).toEqual(['Reload', 'Quit']);
  });

  it('ignores a page that closed normally', async () => {
    rendererGone(new FakeContents(), 'clean-exit', 0);
    await settle();
    expect(logged).toEqual([]);
    expect(boxes).toEqual([]);
  });

  it('shows one dialog at a time: a second stop waits for the first answer', async () => {
    let release: (button: number) => void = () => undefined;
    uninstall();
    const shown: string[] = [];
    uninstall = installCrashRecovery({
      process: proc as unknown as NodeJS.Process,
      app: app as unknown as App,
      log: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error'), fatal: record('fatal') },
    reports: { record: (input) => (reported.push(input), 'crash.json') },
      ask: (_target, box) => {
        shown.push(box.message ?? '');
        return new Promise<number>((resolve) => (release = resolve));
      },
      showErrorBox: () => undefined,
      windowOf: () => window as unknown as BrowserWindow,
      openWindow: () => undefined,
      now: () => clock,
    });
    const contents = new FakeContents();
    rendererGone(contents, 'crashed');
    rendererGone(contents, 'killed');
    await settle();
    expect(shown).toHaveLength(1);
    release(0);
    await settle();
    expect(shown).toHaveLength(2);
    release(0);
    await settle();
    expect(contents.reload).toHaveBeenCalledTimes(2);
  });
});

describe('a helper process that stopped', () => {
  it('is logged with what Electron said; no dialog (Chromium starts it again)', async () => {
    app.emit('child-process-gone', {}, { type: 'GPU', reason: 'crashed', exitCode: 9, name: 'GPU' });
    app.emit('child-process-gone', {}, { type: 'Utility', reason: 'clean-exit', exitCode: 0 });
    await settle();
    expect(logged).toEqual([{ level: 'warn', message: 'app: a helper process stopped', details: { type: 'GPU', reason: 'crashed', exitCode: 9, name: 'GPU' } }]);
    expect(boxes).toEqual([]);
  });
});

describe('uninstalling', () => {
  it('removes every handler it added', () => {
    uninstall();
    expect(proc.listenerCount('uncaughtException')).toBe(0);
    expect(proc.listenerCount('unhandledRejection')).toBe(0);
    expect(app.listenerCount('render-process-gone')).toBe(0);
    expect(app.listenerCount('child-process-gone')).toBe(0);
    uninstall = () => undefined;
  });
});

describe('failureSummary', () => {
  it('is one short, escaped line', () => {
    expect(failureSummary(new TypeError('bad\nthing\u001b[31m'))).toBe('TypeError: bad thing⟨U+001B⟩[31m');
    expect(failureSummary({ reason: 'x' })).toBe('{"reason":"x"}');
    expect(failureSummary(new Error('y'.repeat(1000))).length).toBeLessThanOrEqual(301);
  });
});
