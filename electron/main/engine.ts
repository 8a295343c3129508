// The engine's one door into the desktop shell: starts the treasury engine (electron/core) for the Electron app,
// with the idle lock on and demo mode backed by the embedded sandbox, and the application log in the data folder. The
// only file of electron/main that starts the engine; everything else sees DesktopEngine (and logs through core/log).
import { dirname, join } from 'node:path';
import type { ContractEvent, TreasuryHandlers } from '../contract';
import { createEngine } from '../core/engine';
import { crashReportFolderFor, crashReports } from '../core/crash-reports';
import { appLog, logFolderFor } from '../core/log';
import { moveLegacyDesk } from '../core/store/data-folder';
import { defaultDatabasePath } from '../core/store/paths';
import { demoSandboxStarter } from '../sandbox';

export interface EnginePaths {
  /**
   * Electron's userData folder, where the app kept its desk before it shared the CLI's data folder: a desk found
   * there is moved once to defaultDatabasePath() (core/store/data-folder.ts).
   */
  readonly legacyDataDir: string;
  /** The app's version (app.getVersion()), for diagnostics. */
  readonly appVersion: string;
}

export interface DesktopEngine {
  readonly handlers: TreasuryHandlers;
  /** Subscribes to engine events; returns the unsubscribe function. */
  onEvent(listener: (event: ContractEvent) => void): () => void;
  /** Whether a withdrawal is being sent from this workstation now (a ready update waits for it). */
  sendInFlight(): boolean;
  /** Stops timers and listeners and closes the database. */
  close(): Promise<void>;
}

/** The data folder the app and the CLI share (the default database's folder): logs, preferences, the demo sandbox. */
export function dataFolder(): string {
  return dirname(defaultDatabasePath());
}

/**
 * Starts the application log in the data folder (logs/treasury-desk.log) and the crash reports beside it
 * (crash-reports/), first thing, so nothing goes unrecorded; answers the minidump folder for Electron's crashReporter.
 */
export function startDesktopLog(appVersion: string): string | undefined {
  appLog.configure({ folder: logFolderFor(defaultDatabasePath()), face: 'app' });
  crashReports.configure(crashReportFolderFor(defaultDatabasePath()), appVersion);
  crashReports.pruneMinidumps();
  return crashReports.minidumpFolder();
}

/** Starts the engine for the desktop app on the same desk the CLI opens by default. */
export async function startEngine(paths: EnginePaths): Promise<DesktopEngine> {
  const dbPath = defaultDatabasePath();
  const move = moveLegacyDesk(paths.legacyDataDir, dbPath);
  if (move.moved) appLog.warn('app: moved the desk to the data folder the CLI shares', { from: paths.legacyDataDir, to: dirname(dbPath), parts: move.parts });
  else if (move.reason === 'targetExists') appLog.warn("app: a desk is left in the old folder; the data folder's desk (the CLI's) is used", { left: paths.legacyDataDir, used: dirname(dbPath) });
  return createEngine({
    dbPath,
    lockable: true,
    // Balances, deposits and submitted withdrawals stay current without "Sync now" (core/sync/auto-sync.ts).
    autoSync: true,
    // Notices for the operators (main's notifier shows them to the one signed in here) and the withdrawal watchdog.
    notifications: true,
    startDemoSandbox: demoSandboxStarter(join(dirname(dbPath), 'demo-sandbox')),
    appVersion: paths.appVersion,
  });
}
