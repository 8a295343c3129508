// The main process entry with Electron stubbed: single-instance lock, sandbox, hardened window and session, one IPC
// handler per method answered through the engine adapter (stubbed here), events broadcast, engine closed on quit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNEL, METHOD_NAMES, ok, WINDOW_METHOD_NAMES, type ContractEvent, type Result, type TreasuryHandlers } from '../../../electron/contract';
import { CONTENT_SECURITY_POLICY, secureWebPreferences } from '../../../electron/main/security';
import { MAIN_WINDOW_FRAME } from '../../../electron/main/windows';
import { FakeApp, FakeIpcMain, FakePowerMonitor, FakeSession, FakeWebContents, fakeShell, mainFrame, type FakeNotification, type FakeTray } from './electron-fakes';

const state = vi.hoisted(() => ({
  fakes: null as null | {
    app: FakeApp;
    ipcMain: FakeIpcMain;
    powerMonitor: FakePowerMonitor;
    session: FakeSession;
    shell: { openExternal: unknown };
    windows: FakeWindow[];
    trays: FakeTray[];
    notifications: FakeNotification[];
    /** The data folder main keeps the workstation's preferences in. */
    dataDir: string;
  },
  engine: null as null | { start: (paths: unknown) => Promise<unknown> },
}));

interface FakeWindow {
  options: Record<string, unknown>;
  webContents: FakeWebContents;
  loaded: string[];
  focus: ReturnType<typeof vi.fn>;
  show: ReturnType<typeof vi.fn>;
  restore: ReturnType<typeof vi.fn>;
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
    constructor(readonly options: Record<string, unknown>) {
      super();
      state.fakes?.windows.push(this as unknown as FakeWindow);
    }
    isDestroyed(): boolean {
      return false;
    }
    isMinimized(): boolean {
      return true;
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
    Menu: { buildFromTemplate: (template: unknown) => template },
    Notification: class extends fakes.FakeNotification {
      constructor(options: { title?: string; body?: string }) {
        super(options);
        state.fakes?.notifications.push(this);
      }
    },
    clipboard: { writeText: vi.fn() },
    dialog: { showSaveDialog: vi.fn(), showOpenDialog: vi.fn() },
  };
});

vi.mock('../../../electron/main/engine', () => ({
  dataFolder: () => state.fakes?.dataDir ?? '/nonexistent/treasury-desk-data',
  startEngine: (paths: unknown) => state.engine?.start(paths) ?? Promise.reject(new Error('no engine in this test')),
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
    windows: [],
    trays: [],
    notifications: [],
    dataDir: mkdtempSync(join(tmpdir(), 'td-main-')),
  };
});

afterEach(() => {
  vi.resetModules();
  if (state.fakes !== null) rmSync(state.fakes.dataDir, { recursive: true, force: true });
  state.fakes = null;
  state.engine = null;
});

describe('main process entry', () => {
  it('quits at once when another instance holds the lock', async () => {
    fakes().app.gotLock = false;
    await import('../../../electron/main/index');
    const { app, ipcMain } = fakes();
    expect(app.quit).toHaveBeenCalledTimes(1);
    expect(app.listenerCount('web-contents-created')).toBe(0);
    expect(app.listenerCount('second-instance')).toBe(0);
    expect(ipcMain.handlers.size).toBe(0);
  });

  it('wires the hardened shell: sandbox, session, window, IPC, events and quit', async () => {
    const engine = echoEngine();
    const start = vi.fn(async () => engine.engine);
    state.engine = { start };
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await import('../../../electron/main/index');
    const { app, ipcMain, session, windows } = fakes();

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
    expect(start).toHaveBeenCalledWith({ legacyDataDir: '/nonexistent/user-data/userData', sqliteNativeBinding: undefined });
    expect(consoleWarn).toHaveBeenCalledWith(expect.stringContaining('node scripts/electron-native.mjs'));
    consoleWarn.mockRestore();
    const ours = { sender: window.webContents, senderFrame: mainFrame(pathToFileURL(page).href) };
    expect(await ipcMain.invoke('balances/list', ours, {})).toEqual(ok({ method: 'balances/list' }));
    const stranger = { sender: new FakeWebContents(), senderFrame: mainFrame(pathToFileURL(page).href) };
    expect(await ipcMain.invoke('balances/list', stranger, {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await ipcMain.invoke('audit/export', ours, { path: '/tmp/x.jsonl' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await ipcMain.invoke('desktop/preferences', ours, {})).toEqual(ok({ keepRunningInTray: false }));

    // Events reach our window on the event channel.
    window.webContents.url = pathToFileURL(page).href;
    engine.emit({ type: 'balances/changed' });
    expect(window.webContents.sent).toEqual([{ channel: EVENT_CHANNEL, payload: { type: 'balances/changed' } }]);

    // A second instance focuses the existing window instead of opening another.
    app.emit('second-instance', {}, [], '/');
    expect(window.restore).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
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
    expect(window.webContents.sent.at(-1)).toEqual({ channel: EVENT_CHANNEL, payload: { type: 'navigation/open', target: { kind: 'withdrawal', id: '7' } } });

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
    expect(await ipcMain.invoke('desktop/setPreferences', ours, { keepRunningInTray: true })).toEqual(ok({ keepRunningInTray: true }));
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
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
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
    consoleWarn.mockRestore();
  });

  it('says so when the OS locked but the desk could not be locked (the engine did not start)', async () => {
    state.engine = { start: async () => Promise.reject(new Error('engine not wired yet')) };
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await import('../../../electron/main/index');
    const { app, powerMonitor } = fakes();
    app.becomeReady();
    await settle();
    powerMonitor.emit('suspend');
    await settle();
    expect(consoleWarn).toHaveBeenCalledWith('Treasury Desk: could not lock the desk when the OS locked: session/lock: engine not wired yet');
    consoleError.mockRestore();
    consoleWarn.mockRestore();
  });

  it('quits after a deadline when the engine never finishes closing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const engine = echoEngine();
    engine.close.mockImplementation(() => new Promise<undefined>(() => undefined));
    state.engine = { start: async () => engine.engine };
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
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
    consoleWarn.mockRestore();
  });

  it('opens the window and answers every call with the reason when the engine does not start', async () => {
    state.engine = { start: async () => Promise.reject(new Error('engine not wired yet')) };
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await import('../../../electron/main/index');
    const { app, ipcMain, windows } = fakes();
    app.becomeReady();
    await settle();
    expect(windows).toHaveLength(1);
    const window = windows[0] as FakeWindow;
    const page = pathToFileURL(join(resolve(import.meta.dirname, '../../../electron/renderer'), 'index.html')).href;
    const answer = (await ipcMain.invoke('session/state', { sender: window.webContents, senderFrame: mainFrame(page) }, {})) as Result<unknown>;
    expect(answer).toEqual({ ok: false, error: { code: 'internal', message: 'session/state: engine not wired yet' } });
    expect(consoleError).toHaveBeenCalledWith('Treasury Desk: the engine did not start: engine not wired yet');
    // Quitting still works when there is no engine to close.
    app.emit('will-quit', { preventDefault: vi.fn() });
    await settle();
    expect(app.quit).toHaveBeenCalledTimes(1);
    consoleError.mockRestore();
    consoleWarn.mockRestore();
  });
});
