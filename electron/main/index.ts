// Electron main process entry: single instance, sandbox everywhere, hardened window and session (CSP, permissions,
// navigation), the contract over IPC (engine methods, and the desktop methods answered here with Electron's clipboard,
// dialogs and shell), the desk locked with the OS (screen lock, suspend), and the engine started
// through electron/main/engine.ts.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, clipboard, dialog, ipcMain, powerMonitor, session, shell } from 'electron';
import { deferredHandlers, startFailureMessage } from './deferred-handlers';
import { createDesktopHandlers } from './desktop-handlers';
import { desktopPreferencesIn } from './desktop-preferences';
import { electronDesktopShell } from './desktop-shell';
import { dataFolder, startEngine, type DesktopEngine } from './engine';
import { broadcastEvent, registerContractIpc } from './ipc';
import { decideSqliteBinding } from './native';
import { lockDeskWithOs } from './os-lock';
import { devServerOrigin, hardenSession, installWebContentsHardening, secureWebPreferences, type TrustedRenderer } from './security';
import { MAIN_WINDOW_FRAME, WindowRegistry } from './windows';

const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, '../renderer');
const preloadPath = join(here, '../preload/index.cjs');
const devUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
const trusted: TrustedRenderer = { fileRoot: rendererDir, devOrigin: devServerOrigin(devUrl) };
const windows = new WindowRegistry();
const ENGINE_CLOSE_TIMEOUT_MS = 5_000;

function createMainWindow(): BrowserWindow {
  const mainWindow = new BrowserWindow({
    ...MAIN_WINDOW_FRAME,
    webPreferences: {
      ...secureWebPreferences(preloadPath),
      // The decisive flags again, literally, so the security gate (Electronegativity) can check them where the window
      // is created; same values as secureWebPreferences (a unit test compares the window's options with it).
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      disableBlinkFeatures: 'Auxclick',
      devTools: !app.isPackaged, // DevTools only from a checkout, never in the packaged app
    },
  });
  const window = windows.add(mainWindow);
  window.once('ready-to-show', () => window.show());
  if (trusted.devOrigin !== null && devUrl !== undefined) void window.loadURL(devUrl);
  else void window.loadFile(join(rendererDir, 'index.html'));
  return window;
}

function focusMainWindow(): void {
  const window = windows.first();
  if (window === undefined) {
    if (app.isReady()) createMainWindow();
    return;
  }
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

async function startDesktopEngine(): Promise<DesktopEngine> {
  const sqlite = decideSqliteBinding({
    isPackaged: app.isPackaged,
    appRoot: app.getAppPath(),
    electronVersion: process.versions.electron ?? 'unknown',
    env: process.env,
    exists: existsSync,
  });
  if (sqlite.note !== null) console.warn(sqlite.note);
  return startEngine({ legacyDataDir: app.getPath('userData'), sqliteNativeBinding: sqlite.binding });
}

function run(): void {
  hardenSession(session.defaultSession);

  const engine = startDesktopEngine();
  engine.then(
    (started) => started.onEvent((event) => broadcastEvent(windows.all(), event, trusted)),
    (error: unknown) => console.error(`Treasury Desk: the engine did not start: ${startFailureMessage(error)}`),
  );
  const handlers = deferredHandlers(engine.then((started) => started.handlers));
  const desktop = createDesktopHandlers({
    shell: electronDesktopShell({
      clipboard,
      dialog,
      shell,
      parentWindow: () => BrowserWindow.getFocusedWindow() ?? windows.first(),
      startFolder: () => app.getPath('documents'),
    }),
    engine: handlers,
    preferences: desktopPreferencesIn(dataFolder()),
  });
  registerContractIpc(ipcMain, { ...handlers, ...desktop }, {
    trusted,
    isOwnWebContents: (contents) => windows.owns(contents),
  });
  // A locked screen or a sleeping machine locks the desk too (powerMonitor is usable once the app is ready).
  lockDeskWithOs(powerMonitor, () => handlers['session/lock']({}));
  createMainWindow();

  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closed = true;
    // Close the engine (database, timers) before exiting, but never let a stuck engine keep the app from quitting.
    const closing = engine.then((started) => started.close());
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, ENGINE_CLOSE_TIMEOUT_MS));
    void Promise.race([closing, deadline])
      .catch(() => undefined)
      .finally(() => app.quit());
  });
}

app.enableSandbox();
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  installWebContentsHardening(app, trusted, shell);
  app.on('second-instance', focusMainWindow);
  app.on('activate', focusMainWindow);
  app.on('window-all-closed', () => app.quit());
  void app.whenReady().then(run);
}
