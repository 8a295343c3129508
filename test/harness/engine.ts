// Test harness only: starts the real treasury engine for the browser harness on a data folder of its own, with a
// keychain service name of its own (never the desk's real entries), the embedded sandbox for demo mode (whose handles
// the harness keeps so tests can reach its admin interface or stop it; it starts from a copy of the process's seeded
// demo folder, seeded-demo.ts), and the app's desktop methods over a
// recording double (desktop-double.ts), and the app's notifier showing the engine's notifications through it.
import '../support/fast-seals';
import type { SharedStoreOpener } from '../../electron/core/team/mode';
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fail, ok, type DesktopHandlers, type UpdateReadyView } from '../../electron/contract';
import { createEngine, type Engine } from '../../electron/core/engine';
import { appLog, logFolderFor } from '../../electron/core/log';
import { installDeepLinks, type DeepLinkApp } from '../../electron/main/deep-links';
import { createDesktopHandlers, type DesktopUpdates } from '../../electron/main/desktop-handlers';
import { desktopPreferencesIn } from '../../electron/main/desktop-preferences';
import { startNotifier, type Notifier } from '../../electron/main/notifier';
import { createDesktopDouble, type DesktopDouble } from './desktop-double';
import { placeSeededDemo } from './seeded-demo';
import { KeychainVault } from '../../electron/core/secrets';
import type { AutoSyncOptions } from '../../electron/core/sync/auto-sync';
import { DEMO_SEED, type LiveDepositTiming, startSandbox, type SandboxHandle } from '../../electron/sandbox';

export interface HarnessEngineOptions {
  /** Folder for the desk database and the demo sandbox's state. */
  readonly dataDir: string;
  /** Keychain service; default a fresh `treasury-desk-harness-…` per start. */
  readonly keychainService?: string;
  /** The idle lock applies (as in the desktop app). Default true. */
  readonly lockable?: boolean;
  /** Headless: the four credentials from this file instead of the keychain (the benchmark, which runs without one). */
  readonly credentialsFile?: string;
  /** Demo sandbox: advance normal withdrawals on timers (default true) and how much faster than real time. */
  readonly demoAuto?: boolean;
  readonly demoTimeScale?: number;
  /**
   * Live deposits in the demo sandbox, as demo mode has them (dev:browser passes DEMO_LIVE_DEPOSITS); off unless given,
   * so e2e flows see only the deposits they make.
   */
  readonly demoLiveDeposits?: LiveDepositTiming;
  /**
   * Background sync as in the desktop app (dev:browser; `true` for the app's timings, or shorter ones for a test);
   * off for most e2e flows, which sync when they mean to.
   */
  readonly autoSync?: boolean | Partial<AutoSyncOptions>;
  /** Opens the team database (the engine's option; the witness benchmark passes one that times the witness step). */
  readonly openSharedStore?: SharedStoreOpener;
}

export interface HarnessEngine {
  readonly engine: Engine;
  readonly vault: KeychainVault;
  readonly dbPath: string;
  /** The desktop double (clipboard, dialogs, links) the desktop methods use; tests read its records. */
  readonly desktop: DesktopDouble;
  /** The app's desktop methods over that double, with preferences in the data folder. */
  readonly desktopHandlers: DesktopHandlers;
  /** The app's notifier over that double: who is signed in here, and their approvals count. */
  readonly notifier: Notifier;
  /**
   * The app's deep-link handling (electron/main/deep-links.ts) over a stand-in for Electron's app: a test starts "a
   * second instance" with a link on its command line (or macOS's open-url), and the link reaches this window.
   */
  readonly links: { secondInstance(argv: readonly string[]): void; openUrl(url: string): void };
  /**
   * The update channel's stand-in behind desktop/updateReady and desktop/restartToUpdate: a test offers a verified
   * update (and tells the window, as main does); a restart is refused while the engine is sending, else recorded.
   */
  readonly updates: { offer(update: UpdateReadyView): void; readonly restarts: readonly string[] };
  /** The embedded demo sandboxes started so far (demo/start), newest last. */
  readonly demoSandboxes: readonly SandboxHandle[];
  /**
   * Moves the engine's clock ahead (tests of time: stuck orders); move the sandbox's clock along with it (its admin
   * `/clock`) or signatures leave their ±300 s window.
   */
  moveClock(byMs: number): void;
  /** Closes the engine (which stops its demo sandboxes) and removes the keychain entries it made. */
  close(): Promise<void>;
}

/** Electron's app as deep-links.ts sees it: the scheme "registered", second-instance and open-url emitted by tests. */
class HarnessLinkApp extends EventEmitter implements DeepLinkApp {
  setAsDefaultProtocolClient(): boolean {
    return true;
  }
}

export async function startHarnessEngine(options: HarnessEngineOptions): Promise<HarnessEngine> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const vault = new KeychainVault({ service: options.keychainService ?? `treasury-desk-harness-${randomBytes(6).toString('hex')}` });
  const demoSandboxes: SandboxHandle[] = [];
  const dbPath = join(dataDir, 'treasury.sqlite');
  let clockOffsetMs = 0;
  // The harness's log is the app's, in its own data folder: logs/treasury-desk.log beside the database.
  appLog.configure({ folder: logFolderFor(dbPath), face: 'harness' });
  const engine = await createEngine({
    dbPath,
    vault,
    lockable: options.lockable ?? true,
    cryptoThreads: 2,
    clock: () => Date.now() + clockOffsetMs,
    autoSync: options.autoSync ?? false,
    ...(options.openSharedStore === undefined ? {} : { openSharedStore: options.openSharedStore }),
    // As in the desktop app: the engine raises notifications and runs the withdrawal watchdog.
    notifications: true,
    ...(options.credentialsFile === undefined ? {} : { credentialsFile: options.credentialsFile }),
    startDemoSandbox: async () => {
      const sandboxDir = join(dataDir, `demo-sandbox-${demoSandboxes.length + 1}`);
      await placeSeededDemo(sandboxDir);
      const sandbox = await startSandbox({
        host: '127.0.0.1',
        port: 0,
        dataDir: sandboxDir,
        seed: DEMO_SEED,
        auto: options.demoAuto ?? true,
        timeScale: options.demoTimeScale ?? 1,
        ...(options.demoLiveDeposits === undefined ? {} : { liveDeposits: options.demoLiveDeposits }),
      });
      demoSandboxes.push(sandbox);
      return sandbox;
    },
  });
  const desktop = createDesktopDouble(join(dataDir, 'desktop-files'));
  let offered: UpdateReadyView | null = null;
  const restarts: string[] = [];
  const updates: DesktopUpdates = {
    ready: () => offered,
    restart: () => {
      if (offered === null) return fail('conflict', 'no verified update is ready');
      if (engine.sendInFlight()) return fail('conflict', `version ${offered.version} waits: a withdrawal is being sent from this workstation`);
      restarts.push(offered.version);
      return ok({ restarting: true as const, version: offered.version });
    },
  };
  const desktopHandlers = createDesktopHandlers({ shell: desktop.shell, engine: engine.handlers, preferences: desktopPreferencesIn(dataDir), updates });
  const notifier = startNotifier({
    engine,
    shell: desktop.shell,
    tellWindows: (event) => desktop.tellWindows(event),
    onApprovalsWaiting: (count, operator) => desktop.recordApprovalsWaiting(count, operator),
  });
  const linkApp = new HarnessLinkApp();
  const deepLinks = installDeepLinks({
    app: linkApp,
    send: (event) => desktop.tellWindows(event),
    focus: () => desktop.shell.showMainWindow(),
    log: appLog,
    argv: [],
    defaultApp: false,
    execPath: process.execPath,
  });
  deepLinks.windowReady(); // the harness forwards shell events to whichever page is open
  let closing: Promise<void> | undefined;
  return {
    updates: {
      offer(update) {
        offered = update;
        desktop.tellWindows({ type: 'desktop/updateReady', update });
      },
      restarts,
    },
    links: {
      secondInstance: (argv) => void linkApp.emit('second-instance', {}, [...argv], '/'),
      openUrl: (url) => void linkApp.emit('open-url', { preventDefault: () => undefined }, url),
    },
    engine,
    vault,
    dbPath,
    desktop,
    desktopHandlers,
    notifier,
    demoSandboxes,
    moveClock(byMs) {
      clockOffsetMs += byMs;
    },
    close() {
      closing ??= (async () => {
        notifier.stop();
        await engine.close();
        await Promise.all(demoSandboxes.map((sandbox) => sandbox.close().catch(() => undefined)));
        // The log stops writing into this data folder (the test removes it); later records wait for the next desk.
        if (appLog.folder === logFolderFor(dbPath)) appLog.close();
        if (options.credentialsFile !== undefined) return;
        for (const profile of await vault.listProfiles().catch(() => [] as string[])) await vault.remove(profile).catch(() => undefined);
      })();
      return closing;
    },
  };
}
