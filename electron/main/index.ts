// Electron main process entry: single instance, sandbox everywhere, hardened window and session (CSP, permissions,
// navigation), the contract over IPC (engine methods, and the desktop methods answered here with Electron's clipboard,
// dialogs and shell), the desk locked with the OS (screen lock, suspend), the engine's notifications shown to the
// operator signed in here, the tray and the badge with their approvals count, running on in the tray when the
// workstation's preference says so, and the engine started through electron/main/engine.ts.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContractEvent } from '../contract';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, Notification, powerMonitor, session, shell, Tray } from 'electron';
import { showApprovalsOnBadge } from './badge';
import { deferredHandlers, startFailureMessage } from './deferred-handlers';
import { createDesktopHandlers } from './desktop-handlers';
import { desktopPreferencesIn, type DesktopPreferencesStore } from './desktop-preferences';
import { electronDesktopShell } from './desktop-shell';
import { dataFolder, startEngine, type DesktopEngine } from './engine';
import { broadcastEvent, registerContractIpc } from './ipc';
import { decideSqliteBinding } from './native';
import { startNotifier } from './notifier';
import { lockDeskWithOs } from './os-lock';
import { devServerOrigin, hardenSession, installWebContentsHardening, secureWebPreferences, type TrustedRenderer } from './security';
import { createDeskTray, quitsWhenLastWindowCloses, trayIconPath, type DeskTray } from './tray';
import { MAIN_WINDOW_FRAME, WindowRegistry } from './windows';

const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, '../renderer');
const preloadPath = join(here, '../preload/index.cjs');
const devUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
const trusted: TrustedRenderer = { fileRoot: rendererDir, devOrigin: devServerOrigin(devUrl) };
const windows = new WindowRegistry();
const ENGINE_CLOSE_TIMEOUT_MS = 5_000;
let preferences: DesktopPreferencesStore | undefined;
/** This workstation's desktop preferences (the data folder is known before the app is ready). */
function desktopPreferences(): DesktopPreferencesStore {
  preferences ??= desktopPreferencesIn(dataFolder());
  return preferences;
}
let tray: DeskTray | null = null;

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
  const handlers = deferredHandlers(engine.then((started) => started.handlers));
  const desktopShell = electronDesktopShell({
    clipboard,
    dialog,
    shell,
    parentWindow: () => BrowserWindow.getFocusedWindow() ?? windows.first(),
    startFolder: () => app.getPath('documents'),
    createNotification: (options) => new Notification(options),
    showMainWindow: focusMainWindow,
    platform: process.platform,
  });
  const tellWindows = (event: ContractEvent): void => void broadcastEvent(windows.all(), event, trusted);
  tray = createDeskTray(
    { createTray: (iconPath) => new Tray(iconPath), buildMenu: (template) => Menu.buildFromTemplate(template) },
    {
      open: focusMainWindow,
      lock: () => void handlers['session/lock']({}),
      syncNow: () => void handlers['sync/run']({}),
      quit: () => app.quit(),
    },
    trayIconPath({ isPackaged: app.isPackaged, resourcesPath: process.resourcesPath, appPath: app.getAppPath() }),
  );
  engine.then(
    (started) => {
      started.onEvent(tellWindows);
      // Notices for the operator signed in here; the tray and the badge count what waits for their approval.
      startNotifier({
        engine: started,
        shell: desktopShell,
        tellWindows,
        onApprovalsWaiting: (count, operator) => {
          tray?.showApprovals(count, operator);
          showApprovalsOnBadge(app, count);
        },
      });
    },
    (error: unknown) => console.error(`Treasury Desk: the engine did not start: ${startFailureMessage(error)}`),
  );
  const desktop = createDesktopHandlers({ shell: desktopShell, engine: handlers, preferences: desktopPreferences() });
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
  // Closing the last window quits, unless this workstation keeps Treasury Desk running in the tray (notices keep coming).
  app.on('window-all-closed', () => {
    if (quitsWhenLastWindowCloses(desktopPreferences().read(), tray !== null)) app.quit();
  });
  void app.whenReady().then(run);
}
