// The desktop methods of this part (electron/main/desktop-handlers.ts, renderer-errors.ts): Export diagnostics asks
// with a save dialog and hands the chosen path to the engine (the window learns the file name only); a window's error
// report is logged, at most RENDERER_REPORTS_PER_MINUTE a minute; a desktop primitive that fails is logged too.
import { describe, expect, it, vi } from 'vitest';
import { fail, ok, type Result, type TreasuryHandlers } from '../../../electron/contract';
import { createDesktopHandlers, type DesktopShell, type SaveDialogRequest } from '../../../electron/main/desktop-handlers';
import { DEFAULT_PREFERENCES_STORE, silentDesktopShell } from '../../support/desktop-shell';
import { RENDERER_REPORTS_PER_MINUTE, RendererErrorLog } from '../../../electron/main/renderer-errors';

function recordingLog() {
  const entries: Array<{ level: string; message: string; details?: Record<string, unknown> }> = [];
  const at = (level: string) => (message: string, details?: Readonly<Record<string, unknown>>) => entries.push({ level, message, ...(details ? { details: { ...details } } : {}) });
  return { entries, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), fatal: at('fatal') } };
}

function handlersWith(shell: Partial<DesktopShell>, engine: Partial<Record<string, (request: unknown) => Promise<Result<unknown>>>>) {
  const { entries, log } = recordingLog();
  const handlers = createDesktopHandlers({
    shell: silentDesktopShell(shell),
    engine: engine as unknown as TreasuryHandlers,
    preferences: DEFAULT_PREFERENCES_STORE,
    now: () => new Date('2026-03-04T10:00:00Z'),
    log,
  });
  return { handlers, entries };
}

describe('desktop/exportDiagnostics', () => {
  it('asks where to save, then has the engine write there; the window gets the file name and size only', async () => {
    const asked: SaveDialogRequest[] = [];
    const exportDiagnostics = vi.fn(async (request: unknown) => ok({ path: (request as { path: string }).path, bytes: 1234 }));
    const { handlers } = handlersWith(
      {
        showSaveDialog: async (request) => {
          asked.push(request);
          return '/home/ann/Documents/diag.json';
        },
      },
      { 'diagnostics/export': exportDiagnostics },
    );
    expect(await handlers['desktop/exportDiagnostics']({})).toEqual(ok({ cancelled: false, fileName: 'diag.json', value: { bytes: 1234 } }));
    expect(asked).toEqual([{ purpose: 'diagnostics', title: 'Export diagnostics', defaultName: 'treasury-desk-diagnostics-2026-03-04.json', filters: [{ name: 'JSON', extensions: ['json'] }] }]);
    expect(exportDiagnostics).toHaveBeenCalledWith({ path: '/home/ann/Documents/diag.json' });
  });

  it('writes nothing when the person cancels, and answers an engine refusal without the folder', async () => {
    const exportDiagnostics = vi.fn(async () => fail('internal', 'could not write /home/ann/Documents/diag.json: the disk is full'));
    const cancelled = handlersWith({ showSaveDialog: async () => null }, { 'diagnostics/export': exportDiagnostics });
    expect(await cancelled.handlers['desktop/exportDiagnostics']({})).toEqual(ok({ cancelled: true }));
    expect(exportDiagnostics).not.toHaveBeenCalled();
    const refused = handlersWith({ showSaveDialog: async () => '/home/ann/Documents/diag.json' }, { 'diagnostics/export': exportDiagnostics });
    expect(await refused.handlers['desktop/exportDiagnostics']({})).toEqual(fail('internal', 'could not write diag.json: the disk is full'));
  });

  it('logs a dialog that failed and says where the log is', async () => {
    const { handlers, entries } = handlersWith({ showSaveDialog: async () => Promise.reject(new Error('no display')) }, {});
    const answer = await handlers['desktop/exportDiagnostics']({});
    expect(answer).toMatchObject({ ok: false, error: { code: 'internal' } });
    if (!answer.ok) expect(answer.error.message).toContain('logs/treasury-desk.log in the Treasury Desk data folder');
    expect(entries).toEqual([{ level: 'error', message: 'desktop: desktop/exportDiagnostics failed unexpectedly', details: { method: 'desktop/exportDiagnostics', error: expect.any(Error) } }]);
  });
});

describe('desktop/reportError', () => {
  it('leaves a crash report of each error it records (the window is the source)', async () => {
    const reported: unknown[] = [];
    const { log } = recordingLog();
    const handlers = createDesktopHandlers({
      shell: silentDesktopShell({}),
      engine: {} as unknown as TreasuryHandlers,
      preferences: DEFAULT_PREFERENCES_STORE,
      log,
      reports: { record: (input) => (reported.push(input), 'crash.json') },
    });
    await handlers['desktop/reportError']({ kind: 'unhandledRejection', message: 'Error: fetch failed', stack: 'at B' });
    expect(reported).toEqual([{ source: 'window', kind: 'unhandledRejection', message: 'Error: fetch failed', details: { kind: 'unhandledRejection', message: 'Error: fetch failed', stack: 'at B' } }]);
  });

  it('logs what the window reports, with its kind, message and stacks', async () => {
    const { handlers, entries } = handlersWith({}, {});
    expect(await handlers['desktop/reportError']({ kind: 'render', message: 'TypeError: x is undefined', stack: 'at A', componentStack: 'in Shell' })).toEqual(ok({ recorded: true }));
    expect(entries).toEqual([
      { level: 'error', message: 'renderer: a screen failed to draw', details: { kind: 'render', message: 'TypeError: x is undefined', stack: 'at A', componentStack: 'in Shell' } },
    ]);
  });

  it(`records at most ${RENDERER_REPORTS_PER_MINUTE} a minute and says how many it dropped with the next one`, () => {
    let now = 0;
    const { entries, log } = recordingLog();
    const reports = new RendererErrorLog(log, () => now);
    const recorded = Array.from({ length: RENDERER_REPORTS_PER_MINUTE + 5 }, () => reports.record({ kind: 'error', message: 'loop' }));
    expect(recorded.filter(Boolean)).toHaveLength(RENDERER_REPORTS_PER_MINUTE);
    expect(entries).toHaveLength(RENDERER_REPORTS_PER_MINUTE);
    now += 60_000;
    expect(reports.record({ kind: 'unhandledRejection', message: 'later' })).toBe(true);
    expect(entries.at(-1)).toEqual({ level: 'error', message: 'renderer: unhandled rejection', details: { kind: 'unhandledRejection', message: 'later', suppressedBefore: 5 } });
  });
});
