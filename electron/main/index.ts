// Electron main process entry: `--version` answered before anything starts, single instance, sandbox everywhere,
// hardened window and session (CSP, permissions, navigation), the contract over IPC (engine methods, and the desktop
// methods answered here with Electron's clipboard, dialogs and shell), the app menu (standard roles, the desk's
// commands), the window's place kept across restarts, the OS's light or dark theme, the desk locked with the OS
// (screen lock, suspend), the engine's notifications shown to the operator signed in here, the tray and the badge
// with their approvals count, running on in the tray when the workstation's preference says so, the application log
// crash recovery (crash-recovery.ts) and crash reports kept locally (core/crash-reports.ts) from the first moment, and the engine started through electron/main/engine.ts;
// treasury-desk:// links shown by the window (deep-links.ts) and signed updates when a feed is set (updates/).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, clipboard, crashReporter, dialog, ipcMain, Menu, nativeTheme, Notification, powerMonitor, screen, session, shell, Tray } from 'electron';
import type { ContractEvent } from '../contract';
import { crashReports } from '../core/crash-reports';
import { appLog } from '../core/log';
import { aboutPanelOptions, appMenuTemplate, deskMenuActions } from './app-menu';
import { showApprovalsOnBadge } from './badge';
import { appLaunchOf, versionText } from './command-line';
import { installCrashRecovery } from './crash-recovery';
import { deferredHandlers, startFailureMessage } from './deferred-handlers';
import { installDeepLinks, type DeepLinks } from './deep-links';
import { createDesktopHandlers } from './desktop-handlers';
import { desktopPreferencesIn, type DesktopPreferencesStore } from './desktop-preferences';
import { electronDesktopShell } from './desktop-shell';
import { PRINT_WINDOW_OPTIONS } from './print-to-pdf';
import { dataFolder, startDesktopLog, startEngine, type DesktopEngine } from './engine';
import { broadcastEvent, registerContractIpc } from './ipc';
import { startNotifier } from './notifier';
import { lockDeskWithOs } from './os-lock';
import { devServerOrigin, hardenSession, installWebContentsHardening, secureWebPreferences, type TrustedRenderer } from './security';
import { createDeskTray, quitsWhenLastWindowCloses, trayIconPath, type DeskTray } from './tray';
import { startDesktopUpdates, UPDATE_FEED_ENV, UPDATE_FEED_URL } from './updates/desktop-updates';
import { keepWindowState, restoreWindowPlacement } from './window-state';
import { MAIN_WINDOW_FRAME, windowBackground, windowIconPath, WindowRegistry } from './windows';

const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, '../renderer');
const preloadPath = join(here, '../preload/index.cjs');
const devUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
const trusted: TrustedRenderer = { fileRoot: rendererDir, devOrigin: devServerOrigin(devUrl) };
const windows = new WindowRegistry();
const ENGINE_CLOSE_TIMEOUT_MS = 5_000;
const APP_NAME = MAIN_WINDOW_FRAME.title;
let preferencesStore: DesktopPreferencesStore | undefined;
let tray: DeskTray | null = null;
let deepLinks: DeepLinks | null = null;

/** This workstation's desktop preferences (desktop-preferences.json in the data folder), opened on first use. */
function preferences(): DesktopPreferencesStore {
  preferencesStore ??= desktopPreferencesIn(dataFolder());
  return preferencesStore;
}

function iconPath(): string | undefined {
  return windowIconPath({ platform: process.platform, isPackaged: app.isPackaged, resourcesPath: process.resourcesPath, appPath: app.getAppPath() });
}

function createMainWindow(): BrowserWindow {
  const placement = restoreWindowPlacement(
    preferences().read().window,
    screen.getAllDisplays().map((display) => display.workArea),
    MAIN_WINDOW_FRAME,
  );
  const icon = iconPath();
  const mainWindow = new BrowserWindow({
    ...MAIN_WINDOW_FRAME,
    ...(placement.x === undefined || placement.y === undefined ? {} : { x: placement.x, y: placement.y }),
    width: placement.width,
    height: placement.height,
    backgroundColor: windowBackground(nativeTheme.shouldUseDarkColors),
    ...(icon === undefined ? {} : { icon }),
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
  // Links that arrived before the page could listen are sent once it has loaded.
  window.webContents.on('did-finish-load', () => deepLinks?.windowReady());
  window.once('closed', () => deepLinks?.windowGone());
  window.once('ready-to-show', () => {
    if (placement.maximized) window.maximize();
    window.show();
  });
  keepWindowState(window, { save: (state) => preferences().update({ window: state }) });
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
  return startEngine({ legacyDataDir: app.getPath('userData'), appVersion: app.getVersion() });
}

function run(): void {
  hardenSession(session.defaultSession);
  // Light or dark as the OS is set (the page follows prefers-color-scheme); the window's own background too.
  nativeTheme.themeSource = 'system';
  nativeTheme.on('updated', () => {
    for (const window of windows.all()) window.setBackgroundColor(windowBackground(nativeTheme.shouldUseDarkColors));
  });

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
    createPrintWindow: () =>
      new BrowserWindow({
        ...PRINT_WINDOW_OPTIONS,
        webPreferences: {
          ...PRINT_WINDOW_OPTIONS.webPreferences,
          // The decisive flags again, literally, so the security gate (Electronegativity) sees them where the window is
          // created; same values as PRINT_WINDOW_OPTIONS (its unit test checks them).
          sandbox: true,
          contextIsolation: true,
          nodeIntegration: false,
          disableBlinkFeatures: 'Auxclick',
        },
      }),
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
    // Every call is answered with why (deferred-handlers.ts); the log keeps the whole error.
    (error: unknown) => appLog.error(`app: the engine did not start: ${startFailureMessage(error)}`, { error }),
  );
  let started: DesktopEngine | null = null;
  void engine.then((ready) => (started = ready)).catch(() => undefined);
  // Signed updates only in the packaged app and only when a feed is set (docs/desktop.md, "Signed updates").
  const feedUrl = process.env[UPDATE_FEED_ENV] ?? UPDATE_FEED_URL;
  const updates =
    app.isPackaged && feedUrl !== null && feedUrl !== ''
      ? startDesktopUpdates({
          feedUrl,
          currentVersion: app.getVersion(),
          platform: process.platform,
          downloadFolder: join(dataFolder(), 'updates'),
          sendInFlight: () => started?.sendInFlight() ?? false,
          send: tellWindows,
          log: appLog,
        })
      : undefined;
  const desktop = createDesktopHandlers({ shell: desktopShell, engine: handlers, preferences: preferences(), ...(updates === undefined ? {} : { updates }) });
  registerContractIpc(ipcMain, { ...handlers, ...desktop }, {
    trusted,
    isOwnWebContents: (contents) => windows.owns(contents),
  });
  // A locked screen or a sleeping machine locks the desk too (powerMonitor is usable once the app is ready).
  lockDeskWithOs(powerMonitor, () => handlers['session/lock']({}));
  app.setAboutPanelOptions(aboutPanelOptions(APP_NAME, app.getVersion(), process.versions, iconPath()));
  const actions = deskMenuActions({ send: tellWindows, showWindow: focusMainWindow, engine: handlers });
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate({ platform: process.platform, isPackaged: app.isPackaged, appName: APP_NAME, actions })));
  createMainWindow();

  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closed = true;
    appLog.info('app: quitting');
    // Close the engine (database, timers) before exiting, but never let a stuck engine keep the app from quitting.
    const closing = engine.then((started) => started.close());
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, ENGINE_CLOSE_TIMEOUT_MS));
    void Promise.race([closing, deadline])
      .catch(() => undefined)
      .finally(() => app.quit());
  });
}

function start(): void {
  app.enableSandbox();
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  const minidumps = startDesktopLog(app.getVersion());
  // Crash reports stay on this workstation (docs/desktop.md "Crash reports"): Crashpad writes its minidumps into the
  // data folder's crash-reports/minidumps, and nothing is ever uploaded.
  if (minidumps !== undefined) app.setPath('crashDumps', minidumps);
  crashReporter.start({ uploadToServer: false });
  appLog.info('app: starting', {
    version: app.getVersion(),
    electron: process.versions.electron,
    chrome: process.versions.chrome,
    node: process.versions.node,
    platform: process.platform,
    arch: process.arch,
  });
  installCrashRecovery({
    process,
    app,
    log: appLog,
    reports: crashReports,
    ask: async (window, box) => (window === null ? await dialog.showMessageBox(box) : await dialog.showMessageBox(window, box)).response,
    showErrorBox: (title, content) => dialog.showErrorBox(title, content),
    windowOf: (contents) => BrowserWindow.fromWebContents(contents),
    openWindow: () => {
      if (app.isReady()) createMainWindow();
    },
  });
  installWebContentsHardening(app, trusted, shell);
  // A second instance hands its link (or just the focus) to this one; open-url brings macOS's links.
  deepLinks = installDeepLinks({
    app,
    send: (event) => void broadcastEvent(windows.all(), event, trusted),
    focus: focusMainWindow,
    log: appLog,
    argv: process.argv,
    defaultApp: process.defaultApp === true,
    execPath: process.execPath,
  });
  app.on('activate', focusMainWindow);
  // Closing the last window quits, unless this workstation keeps Treasury Desk running in the tray (notices keep coming).
  app.on('window-all-closed', () => {
    if (quitsWhenLastWindowCloses(preferences().read(), tray !== null)) app.quit();
  });
  void app.whenReady().then(run);
}

const launch = appLaunchOf(process.argv, app.commandLine.hasSwitch('no-sandbox'));
if (launch.kind === 'version') {
  // Before the single-instance lock: `--version` must not focus a running desk (or hand it the switch).
  process.stdout.write(versionText(APP_NAME, app.getVersion(), process.versions));
  app.exit(0);
} else if (launch.kind === 'unsandboxed') {
  // Before anything starts: no window, no engine, no keychain without the sandbox.
  process.stderr.write(`${launch.message}\n`);
  dialog.showErrorBox(APP_NAME, launch.message);
  app.exit(1);
} else {
  start();
}
