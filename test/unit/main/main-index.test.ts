// The main process entry with Electron stubbed: single-instance lock, sandbox, hardened window and session, one IPC
// handler per method answered through the engine adapter (stubbed here), events broadcast, engine closed on quit; the
// app menu, the window's place restored and kept, the OS theme followed, `--version` answered before anything, the
// notifier, tray and keep-running-in-tray wired; the application log started and crash recovery installed before
// anything else (both recorded here).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNEL, METHOD_NAMES, ok, WINDOW_METHOD_NAMES, type ContractEvent, type Result, type TreasuryHandlers } from '../../../electron/contract';
import { CONTENT_SECURITY_POLICY, secureWebPreferences } from '../../../electron/main/security';
import { MAIN_WINDOW_FRAME, WINDOW_BACKGROUND } from '../../../electron/main/windows';
import { NO_SANDBOX_REFUSAL } from '../../../electron/main/command-line';
import type * as CoreLog from '../../../electron/core/log';
import {
  FakeApp,
  FakeIpcMain,
  FakeMenu,
  FakeNativeTheme,
  FakePowerMonitor,
  FakeScreen,
  FakeSession,
  FakeWebContents,
  fakeShell,
  mainFrame,
  type FakeNotification,
  type FakeTray,
} from './electron-fakes';

const state = vi.hoisted(() => ({
  fakes: null as null | {
    app: FakeApp;
    ipcMain: FakeIpcMain;
    powerMonitor: FakePowerMonitor;
    session: FakeSession;
    shell: { openExternal: unknown };
    nativeTheme: FakeNativeTheme;
    screen: FakeScreen;
    windows: FakeWindow[];
    trays: FakeTray[];
    notifications: FakeNotification[];
    /** The data folder main keeps the workstation's preferences in. */
    dataDir: string;
  },
  engine: null as null | { start: (paths: unknown) => Promise<unknown> },
  /** A data folder a test chose (else the fakes' own). */
  dataFolder: null as string | null,
  /** What was logged through appLog (the application log, recorded instead of written). */
  logged: [] as Array<{ level: string; message: string; details: Record<string, unknown> | undefined }>,
  logStarts: 0,
  crashRecovery: [] as Array<Record<string, unknown>>,
  /** Electron's crashReporter: what it was started with. */
  crashReporter: { starts: [] as unknown[], start(options: unknown) {
    this.starts.push(options);
  } },
}));

interface FakeWindow {
  options: Record<string, unknown>;
  webContents: FakeWebContents;
  loaded: string[];
  focus: ReturnType<typeof vi.fn>;
  show: ReturnType<typeof vi.fn>;
  restore: ReturnType<typeof vi.fn>;
  maximize: ReturnType<typeof vi.fn>;
  setBackgroundColor: ReturnType<typeof vi.fn>;
  normalBounds: { x: number; y: number; width: number; height: number };
  maximized: boolean;
  minimized: boolean;
  emit(event: string, ...args: unknown[]): boolean;
}

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  const fakes = await import('./electron-fakes');
  class BrowserWindow extends EventEmitter {
    readonly webContents = new fakes.FakeWebContents();
    readonly loaded: string[] = [];
    readonly focus = vi.fn();
    readonly show = vi.fn();
    readonly restore = vi.fn();
    readonly maximize = vi.fn();
    readonly setBackgroundColor = vi.fn();
    normalBounds: { x: number; y: number; width: number; height: number };
    maximized = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      this.normalBounds = { x: Number(options['x'] ?? 10), y: Number(options['y'] ?? 10), width: Number(options['width']), height: Number(options['height']) };
      state.fakes?.windows.push(this as unknown as FakeWindow);
    }
    getNormalBounds(): { x: number; y: number; width: number; height: number } {
      return this.normalBounds;
    }
    isMaximized(): boolean {
      return this.maximized;
    }
    isFullScreen(): boolean {
      return false;
    }
    isDestroyed(): boolean {
      return false;
    }
    /** Minimized until a test says otherwise (a second instance then restores it). */
    minimized = true;
    isMinimized(): boolean {
      return this.minimized;
    }
    async loadFile(path: string): Promise<void> {
      this.loaded.push(path);
    }
    async loadURL(url: string): Promise<void> {
      this.loaded.push(url);
    }
    static getFocusedWindow(): null {
      return null;
    }
  }
  // Getters: each test (after vi.resetModules) re-imports main/index.ts against that test's fresh fakes.
  return {
    get app() {
      return state.fakes?.app;
    },
    BrowserWindow,
    get ipcMain() {
      return state.fakes?.ipcMain;
    },
    Menu: fakes.FakeMenu,
    crashReporter: state.crashReporter,
    get nativeTheme() {
      return state.fakes?.nativeTheme;
    },
    get screen() {
      return state.fakes?.screen;
    },
    get powerMonitor() {
      return state.fakes?.powerMonitor;
    },
    get session() {
      return { defaultSession: state.fakes?.session };
    },
    get shell() {
      return state.fakes?.shell;
    },
    Tray: class extends fakes.FakeTray {
      constructor(icon: string) {
        super(icon);
        state.fakes?.trays.push(this);
      }
    },
    Notification: class extends fakes.FakeNotification {
      constructor(options: { title?: string; body?: string }) {
        super(options);
        state.fakes?.notifications.push(this);
      }
    },
    clipboard: { writeText: vi.fn() },
    dialog: { showSaveDialog: vi.fn(), showOpenDialog: vi.fn(), showErrorBox: vi.fn() },
  };
});

vi.mock('../../../electron/main/engine', () => ({
  dataFolder: () => state.dataFolder ?? state.fakes?.dataDir ?? '/nonexistent/treasury-desk-data',
  startDesktopLog: (version: string) => {
    state.logStarts += 1;
    return `/nonexistent/treasury-desk-data/crash-reports/minidumps-of-${version}`;
  },
  startEngine: (paths: unknown) => state.engine?.start(paths) ?? Promise.reject(new Error('no engine in this test')),
}));

vi.mock('../../../electron/core/log', async (importOriginal) => {
  const actual = await importOriginal<typeof CoreLog>();
  const record = (level: string) => (message: string, details?: Record<string, unknown>) => state.logged.push({ level, message, details });
  return { ...actual, appLog: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error'), fatal: record('fatal') } };
});

// The process's own uncaughtException handlers stay vitest's: the deps main passes are recorded (crash-recovery.test.ts covers them).
vi.mock('../../../electron/main/crash-recovery', () => ({
  installCrashRecovery: (deps: Record<string, unknown>) => {
    state.crashRecovery.push(deps);
    return () => undefined;
  },
}));

function fakes() {
  if (state.fakes === null) throw new Error('electron was not mocked');
  return state.fakes;
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
}

function echoEngine() {
  const listeners = new Set<(event: ContractEvent) => void>();
  const handlers = Object.fromEntries(METHOD_NAMES.map((method) => [method, async () => ok({ method })])) as unknown as TreasuryHandlers;
  const close = vi.fn(async () => undefined);
  return {
    engine: {
      handlers,
      onEvent: (listener: (event: ContractEvent) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close,
    },
    emit: (event: ContractEvent) => listeners.forEach((listener) => listener(event)),
    close,
  };
}

beforeEach(() => {
  const app = new FakeApp();
  state.fakes = {
    app,
    ipcMain: new FakeIpcMain(),
    powerMonitor: new FakePowerMonitor(),
    session: new FakeSession(),
    shell: fakeShell(),
    nativeTheme: new FakeNativeTheme(),
    screen: new FakeScreen(),
    windows: [],
    trays: [],
    notifications: [],
    dataDir: mkdtempSync(join(tmpdir(), 'td-main-')),
  };
  FakeMenu.applicationMenu = null;
});

afterEach(() => {
  vi.resetModules();
  if (state.fakes !== null) rmSync(state.fakes.dataDir, { recursive: true, force: true });
  state.fakes = null;
  state.engine = null;
  state.dataFolder = null;
  state.logged = [];
  state.logStarts = 0;
  state.crashRecovery = [];
  state.crashReporter.starts = [];
});

function logged(level: string): string[] {
  return state.logged.filter((entry) => entry.level === level).map((entry) => entry.message);
}

describe('main process entry', () => {
  it('quits at once when another instance holds the lock', async () => {
    fakes().app.gotLock = false;
    await import('../../../electron/main/index');
    const { app, ipcMain } = fakes();
    expect(app.quit).toHaveBeenCalledTimes(1);
    // The second instance leaves the log and crash handling to the first.
    expect(state.logStarts).toBe(0);
    expect(state.crashRecovery).toHaveLength(0);
    expect(app.listenerCount('web-contents-created')).toBe(0);
    expect(app.listenerCount('second-instance')).toBe(0);
    expect(ipcMain.handlers.size).toBe(0);
  });

  it('wires the hardened shell: sandbox, session, window, IPC, events and quit', async () => {
    const engine = echoEngine();
    const start = vi.fn(async () => engine.engine);
    state.engine = { start };
    await import('../../../electron/main/index');
    const { app, ipcMain, session, windows } = fakes();

    // The log and crash recovery come first, before the app is ready.
    expect(state.logStarts).toBe(1);
    expect(logged('info')).toEqual(['app: starting']);
    expect(state.crashRecovery).toHaveLength(1);
    expect(state.crashRecovery[0]).toMatchObject({ process, app, reports: expect.objectContaining({ record: expect.any(Function) }) });
    // Minidumps stay in the data folder's crash-reports, never uploaded.
    expect(app.setPath).toHaveBeenCalledWith('crashDumps', '/nonexistent/treasury-desk-data/crash-reports/minidumps-of-9.8.7');
    expect(state.crashReporter.starts).toEqual([{ uploadToServer: false }]);
    expect(app.enableSandbox).toHaveBeenCalledTimes(1);
    expect(app.requestSingleInstanceLock).toHaveBeenCalledTimes(1);
    expect(app.listenerCount('web-contents-created')).toBe(1);
    expect(windows).toHaveLength(0);

    app.becomeReady();
    await settle();

    // Session: CSP header and permission denials installed.
    let headers: unknown;
    session.headersListener?.({ responseHeaders: {} }, (response) => (headers = response));
    expect(headers).toEqual({ responseHeaders: { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    const granted: boolean[] = [];
    session.permissionRequestHandler?.({}, 'media', (answer) => granted.push(answer), {});
    expect(granted).toEqual([false]);

    // The window: hardened preferences, DevTools only from a checkout, our page loaded.
    expect(windows).toHaveLength(1);
    const window = windows[0] as FakeWindow;
    const preload = resolve(import.meta.dirname, '../../../electron/preload/index.cjs');
    expect(window.options['webPreferences']).toEqual({ ...secureWebPreferences(preload), devTools: true });
    expect(window.options).toMatchObject({ ...MAIN_WINDOW_FRAME, show: false });
    const page = resolve(import.meta.dirname, '../../../electron/renderer/index.html');
    expect(window.loaded).toEqual([page]);

    // IPC: one handler per method (engine and desktop); our window's main frame is answered by the engine, a stranger
    // is refused, and a path named by the window is refused before the engine sees it.
    expect(ipcMain.handlers.size).toBe(WINDOW_METHOD_NAMES.length);
    expect(start).toHaveBeenCalledWith({ legacyDataDir: '/nonexistent/user-data/userData', appVersion: '9.8.7' });
    expect(logged('warn')).toEqual([]);
    const ours = { sender: window.webContents, senderFrame: mainFrame(pathToFileURL(page).href) };
    expect(await ipcMain.invoke('balances/list', ours, {})).toEqual(ok({ method: 'balances/list' }));
    const stranger = { sender: new FakeWebContents(), senderFrame: mainFrame(pathToFileURL(page).href) };
    expect(await ipcMain.invoke('balances/list', stranger, {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await ipcMain.invoke('audit/export', ours, { path: '/tmp/x.jsonl' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await ipcMain.invoke('desktop/preferences', ours, {})).toEqual(ok({ keepRunningInTray: false, language: 'system' }));

    // Events reach our window on the event channel.
    window.webContents.url = pathToFileURL(page).href;
    engine.emit({ type: 'balances/changed' });
    expect(window.webContents.sent).toEqual([{ channel: EVENT_CHANNEL, payload: { type: 'balances/changed' } }]);

    // A second instance focuses the existing window instead of opening another.
    app.emit('second-instance', {}, [], '/');
    expect(window.restore).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
    expect(windows).toHaveLength(1);

    // treasury-desk:// links: the scheme is registered; a second instance's link (argv) reaches the first one's window
    // as a "show this" intent once the page has loaded, macOS's open-url too, and a malformed link arrives as refused.
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('treasury-desk');
    window.webContents.sent.length = 0;
    app.emit('second-instance', {}, ['/opt/treasury-desk', 'treasury-desk://withdrawal/12'], '/');
    expect(window.webContents.sent).toEqual([]); // the page has not said it loaded yet: the link waits
    window.webContents.emit('did-finish-load');
    app.emit('open-url', { preventDefault: vi.fn() }, 'treasury-desk://approve/12');
    expect(window.webContents.sent).toEqual([
      { channel: EVENT_CHANNEL, payload: { type: 'desktop/openLink', link: { outcome: 'open', target: { kind: 'withdrawal', id: '12' } } } },
      { channel: EVENT_CHANNEL, payload: { type: 'desktop/openLink', link: expect.objectContaining({ outcome: 'refused', problem: 'unknownKind' }) } },
    ]);
    expect(windows).toHaveLength(1);

    // Navigation away from our page is refused on the window's contents (installed by web-contents-created).
    app.emit('web-contents-created', {}, window.webContents);
    expect(window.webContents.navigate('will-navigate', 'https://evil.example/')).toBe(true);

    // Quit waits for the engine to close, then quits.
    const quitEvent = { preventDefault: vi.fn() };
    app.emit('will-quit', quitEvent);
    expect(quitEvent.preventDefault).toHaveBeenCalledTimes(1);
    await settle();
    expect(engine.close).toHaveBeenCalledTimes(1);
    expect(app.quit).toHaveBeenCalledTimes(1);
    app.emit('will-quit', { preventDefault: vi.fn() });
    expect(engine.close).toHaveBeenCalledTimes(1);
  });

  it('shows the notices for the operator signed in here, counts their approvals on the tray and the badge, and keeps running in the tray when asked', async () => {
    const engine = echoEngine();
    const calls: string[] = [];
    const handlers = engine.engine.handlers as unknown as Record<string, (request: unknown) => Promise<Result<unknown>>>;
    handlers['session/state'] = async () => ok({ locked: false, operator: 'bob', lockTimeoutSeconds: 900, profile: 'main', isDemo: false });
    handlers['notifications/waiting'] = async (request) => ok({ operator: (request as { operator: string }).operator, approvals: 2 });
    for (const method of ['session/lock', 'sync/run'] as const) {
      handlers[method] = async () => {
        calls.push(method);
        return ok({});
      };
    }
    state.engine = { start: async () => engine.engine };
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await import('../../../electron/main/index');
    const { app, ipcMain, windows, trays, notifications } = fakes();
    app.becomeReady();
    await settle();

    // The tray, with its icon from resources/, and the badge: two approvals wait for bob.
    expect(trays).toHaveLength(1);
    const tray = trays[0] as FakeTray;
    expect(tray.icon).toBe(join(app.getAppPath(), 'resources', 'tray.png'));
    expect(tray.tooltip).toBe('Treasury Desk: 2 approvals waiting for bob');
    expect(app.setBadgeCount).toHaveBeenLastCalledWith(2);

    // A notice for bob is shown; one for alice only is not. Clicking it brings the window to the withdrawal.
    const window = windows[0] as FakeWindow;
    const page = pathToFileURL(resolve(import.meta.dirname, '../../../electron/renderer/index.html')).href;
    window.webContents.url = page;
    const notice = { id: 'main:approval:7', kind: 'approvalWaiting', profile: 'main', title: 'A withdrawal is waiting for your approval', body: 'carol requests 5 TRX', discreetBody: 'A withdrawal request is waiting', at: 1, target: { kind: 'withdrawal', id: '7' } } as const;
    engine.emit({ type: 'notification/raised', notification: { ...notice, recipients: ['alice'] } });
    engine.emit({ type: 'notification/raised', notification: { ...notice, id: 'main:approval:8', recipients: ['bob', 'alice'] } });
    expect(notifications.map((shown) => [shown.options, shown.shown])).toEqual([[{ title: notice.title, body: notice.body }, true]]);
    window.show.mockClear();
    notifications[0]?.click();
    expect(window.show).toHaveBeenCalledTimes(1);
    expect(window.focus).toHaveBeenCalled();
    expect(window.webContents.sent.at(-1)).toEqual({ channel: EVENT_CHANNEL, payload: { type: 'desktop/openItem', target: { kind: 'withdrawal', id: '7' } } });

    // The tray's menu: Lock and Sync now go to the engine, Open shows the window, Quit quits.
    tray.clickItem('lock');
    tray.clickItem('sync');
    await settle();
    expect(calls).toEqual(['session/lock', 'sync/run']);
    window.show.mockClear();
    tray.clickItem('open');
    expect(window.show).toHaveBeenCalledTimes(1);

    // Closing the last window quits by default; once the workstation keeps the desk in the tray, it does not.
    app.emit('window-all-closed');
    expect(app.quit).toHaveBeenCalledTimes(1);
    const ours = { sender: window.webContents, senderFrame: mainFrame(page) };
    expect(await ipcMain.invoke('desktop/setPreferences', ours, { keepRunningInTray: true })).toEqual(ok({ keepRunningInTray: true, language: 'system' }));
    app.emit('window-all-closed');
    expect(app.quit).toHaveBeenCalledTimes(1);
    tray.clickItem('quit');
    expect(app.quit).toHaveBeenCalledTimes(2);
    consoleWarn.mockRestore();
  });

  it('locks the desk when the OS locks the screen or suspends, and only then', async () => {
    const engine = echoEngine();
    const lockCalls: unknown[] = [];
    const handlers = engine.engine.handlers as unknown as Record<string, (request: unknown) => Promise<Result<unknown>>>;
    handlers['session/lock'] = async (request) => {
      lockCalls.push(request);
      return ok({ locked: true });
    };
    state.engine = { start: async () => engine.engine };
    await import('../../../electron/main/index');
    const { app, powerMonitor } = fakes();
    // Nothing listens before the app is ready (powerMonitor is not usable earlier).
    expect(powerMonitor.listenerCount('lock-screen')).toBe(0);
    app.becomeReady();
    await settle();
    expect(lockCalls).toEqual([]);

    powerMonitor.emit('lock-screen');
    await settle();
    expect(lockCalls).toEqual([{}]);
    powerMonitor.emit('suspend');
    await settle();
    expect(lockCalls).toEqual([{}, {}]);
    // Coming back (unlock, resume) or other power events never lock or unlock anything.
    powerMonitor.emit('unlock-screen');
    powerMonitor.emit('resume');
    powerMonitor.emit('on-battery');
    await settle();
    expect(lockCalls).toHaveLength(2);
  });

  it('says so when the OS locked but the desk could not be locked (the engine did not start)', async () => {
    state.engine = { start: async () => Promise.reject(new Error('engine not wired yet')) };
    await import('../../../electron/main/index');
    const { app, powerMonitor } = fakes();
    app.becomeReady();
    await settle();
    powerMonitor.emit('suspend');
    await settle();
    expect(state.logged).toContainEqual({
      level: 'warn',
      message: 'os-lock: could not lock the desk when the OS locked',
      details: { code: 'internal', message: 'session/lock: engine not wired yet' },
    });
  });

  it('quits after a deadline when the engine never finishes closing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const engine = echoEngine();
    engine.close.mockImplementation(() => new Promise<undefined>(() => undefined));
    state.engine = { start: async () => engine.engine };
    await import('../../../electron/main/index');
    const { app } = fakes();
    app.becomeReady();
    await settle();
    app.emit('will-quit', { preventDefault: vi.fn() });
    await settle();
    expect(engine.close).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(app.quit).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });

  it('opens the window and answers every call with the reason when the engine does not start', async () => {
    state.engine = { start: async () => Promise.reject(new Error('engine not wired yet')) };
    await import('../../../electron/main/index');
    const { app, ipcMain, windows } = fakes();
    app.becomeReady();
    await settle();
    expect(windows).toHaveLength(1);
    const window = windows[0] as FakeWindow;
    const page = pathToFileURL(join(resolve(import.meta.dirname, '../../../electron/renderer'), 'index.html')).href;
    const answer = (await ipcMain.invoke('session/state', { sender: window.webContents, senderFrame: mainFrame(page) }, {})) as Result<unknown>;
    expect(answer).toEqual({ ok: false, error: { code: 'internal', message: 'session/state: engine not wired yet' } });
    // The log keeps the whole error.
    const failure = state.logged.find((entry) => entry.level === 'error');
    expect(failure?.message).toBe('app: the engine did not start: engine not wired yet');
    expect(failure?.details?.['error']).toBeInstanceOf(Error);
    // Quitting still works when there is no engine to close.
    app.emit('will-quit', { preventDefault: vi.fn() });
    await settle();
    expect(app.quit).toHaveBeenCalledTimes(1);
  });

  it('answers --version and exits before anything starts (no lock, no sandbox switch, no window)', async () => {
    const argv = process.argv;
    process.argv = [argv[0] ?? 'electron', '.', '--version'];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await import('../../../electron/main/index');
    } finally {
      process.argv = argv;
    }
    const { app, windows } = fakes();
    expect(write).toHaveBeenCalledWith(expect.stringMatching(/^Treasury Desk 9\.8\.7 \(Electron [^,]+, Chromium [^,]+, Node [^)]+\)\n$/));
    write.mockRestore();
    expect(app.exit).toHaveBeenCalledWith(0);
    expect(app.requestSingleInstanceLock).not.toHaveBeenCalled();
    expect(app.enableSandbox).not.toHaveBeenCalled();
    app.becomeReady();
    await settle();
    expect(windows).toHaveLength(0);
  });

  it('refuses --no-sandbox before anything starts: says why on stderr and in a box, exits 1 (no lock, no log, no window)', async () => {
    const argv = process.argv;
    process.argv = [argv[0] ?? 'electron', '.', '--no-sandbox'];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await import('../../../electron/main/index');
    } finally {
      process.argv = argv;
    }
    const { app, windows } = fakes();
    const electron = await import('electron');
    expect(write).toHaveBeenCalledWith(`${NO_SANDBOX_REFUSAL}\n`);
    write.mockRestore();
    expect(electron.dialog.showErrorBox).toHaveBeenCalledWith('Treasury Desk', NO_SANDBOX_REFUSAL);
    expect(app.exit).toHaveBeenCalledWith(1);
    expect(app.requestSingleInstanceLock).not.toHaveBeenCalled();
    expect(state.logStarts).toBe(0);
    app.becomeReady();
    await settle();
    expect(windows).toHaveLength(0);
  });

  it('sets its own app menu: no web link; Go shows a screen in the window; Sync now and Lock go to the engine; About has the version', async () => {
    const engine = echoEngine();
    const calls: string[] = [];
    const handlers = engine.engine.handlers as unknown as Record<string, (request: unknown) => Promise<Result<unknown>>>;
    for (const method of ['session/lock', 'sync/run']) {
      handlers[method] = async () => {
        calls.push(method);
        return ok({});
      };
    }
    state.engine = { start: async () => engine.engine };
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await import('../../../electron/main/index');
    const { app, windows } = fakes();
    app.becomeReady();
    await settle();
    consoleWarn.mockRestore();
    const menu = FakeMenu.applicationMenu;
    if (menu === null) throw new Error('no application menu was set');
    expect(JSON.stringify(menu.template)).not.toMatch(/electronjs|https?:/);
    type Item = { label?: string; role?: string; submenu?: Item[]; click?: () => void };
    const items = menu.template as Item[];
    const find = (menuLabel: string, itemLabel: string): Item => {
      const found = items.find((entry) => entry.label === menuLabel)?.submenu?.find((entry) => entry.label === itemLabel);
      if (found?.click === undefined) throw new Error(`no ${menuLabel} > ${itemLabel}`);
      return found;
    };
    const window = windows[0] as FakeWindow;
    window.webContents.url = pathToFileURL(resolve(import.meta.dirname, '../../../electron/renderer/index.html')).href;
    find('Go', 'Deposits').click?.();
    find('Edit', 'Search').click?.();
    expect(window.webContents.sent).toEqual([
      { channel: EVENT_CHANNEL, payload: { type: 'desktop/navigate', screen: 'deposits' } },
      { channel: EVENT_CHANNEL, payload: { type: 'desktop/focusSearch' } },
    ]);
    expect(window.focus).toHaveBeenCalled();
    find('File', 'Sync now').click?.();
    find('File', 'Lock the desk').click?.();
    await settle();
    expect(calls).toEqual(['sync/run', 'session/lock']);
    expect(app.setAboutPanelOptions).toHaveBeenCalledWith(expect.objectContaining({ applicationName: 'Treasury Desk', applicationVersion: '9.8.7' }));
  });

  it('follows the OS theme: system source, the window background of the theme, changed when the OS changes', async () => {
    state.engine = { start: async () => echoEngine().engine };
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await import('../../../electron/main/index');
    const { app, nativeTheme, windows } = fakes();
    app.becomeReady();
    await settle();
    consoleWarn.mockRestore();
    expect(nativeTheme.themeSource).toBe('system');
    const window = windows[0] as FakeWindow;
    expect(window.options['backgroundColor']).toBe(WINDOW_BACKGROUND.light);
    nativeTheme.shouldUseDarkColors = true;
    nativeTheme.emit('updated');
    expect(window.setBackgroundColor).toHaveBeenCalledWith(WINDOW_BACKGROUND.dark);
  });

  it('opens the window where it was (maximized again) and keeps its place: after moving stops, and on close', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const folder = mkdtempSync(join(tmpdir(), 'td-window-'));
    state.dataFolder = folder;
    const file = join(folder, 'desktop-preferences.json');
    writeFileSync(file, JSON.stringify({ keepRunningInTray: true, window: { x: 2000, y: 40, width: 1100, height: 700, maximized: true } }));
    state.engine = { start: async () => echoEngine().engine };
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await import('../../../electron/main/index');
      const { app, screen, windows } = fakes();
      screen.workAreas = [
        { x: 0, y: 0, width: 1920, height: 1080 },
        { x: 1920, y: 0, width: 1280, height: 1024 },
      ];
      app.becomeReady();
      await settle();
      const window = windows[0] as FakeWindow;
      expect(window.options).toMatchObject({ x: 2000, y: 40, width: 1100, height: 700 });
      window.emit('ready-to-show');
      expect(window.maximize).toHaveBeenCalledTimes(1);
      expect(window.show).toHaveBeenCalled();

      const saved = (): unknown => (JSON.parse(readFileSync(file, 'utf8')) as { window: unknown }).window;
      window.minimized = false;
      window.maximized = false;
      window.normalBounds = { x: 100, y: 80, width: 1200, height: 760 };
      window.emit('move');
      window.emit('resize');
      expect(saved()).toEqual({ x: 2000, y: 40, width: 1100, height: 700, maximized: true });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(saved()).toEqual({ x: 100, y: 80, width: 1200, height: 760, maximized: false });
      expect((JSON.parse(readFileSync(file, 'utf8')) as { keepRunningInTray: boolean }).keepRunningInTray).toBe(true);

      window.normalBounds = { x: 120, y: 90, width: 1000, height: 700 };
      window.emit('close');
      expect(saved()).toEqual({ x: 120, y: 90, width: 1000, height: 700, maximized: false });
    } finally {
      vi.useRealTimers();
      consoleWarn.mockRestore();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
