// The treasury engine: opens the desk's database, wires context, sync, withdrawal desk, callback listener and
// session lock, and exposes the contract's handlers plus an event stream. Plain Node: used by the Electron main
// process, the CLI and the browser test harness alike.
import type { ContractEvent, TreasuryHandlers } from '../contract';
import { DeskContext, type NetworkOptions } from './context';
import { AuditTrail } from './audit/trail';
import { DeskIdentity } from './audit/desk-identity';
import { moveDeskSecrets, openDeskSecrets, type MovableDeskSecrets } from './audit/anchor-store';
import { CallbackListener } from './callbacks/listener';
import { DeskNotifications, type NotificationOptions } from './notifications/center';
import { KeychainVault } from './secrets';
import { createHandlers, startDemo, type DemoSandboxStarter, type ServiceParts } from './service';
import { SessionLock } from './session';
import { TeamMode, type SharedStoreOpener } from './team/mode';
import { openPostgresDeskStore } from './team/postgres-store';
import { appLog } from './log';
import { closeDatabase, openDatabase } from './store/database';
import { defaultDatabasePath } from './store/paths';
import { getProfile } from './store/profiles';
import { AutoSync, type AutoSyncOptions } from './sync/auto-sync';
import { finishDepositIntake } from './sync/records';
import { SyncService } from './sync/sync';
import { WATCHDOG_INTERVAL_MS, WithdrawalWatchdog } from './withdrawals/watchdog';
import { sendingNow } from './withdrawals/desk';

export interface EngineOptions {
  /** The desk database; default: the OS app-data folder (defaultDatabasePath). */
  readonly dbPath?: string;
  /** The keychain; tests pass a vault with their own service name. */
  readonly vault?: KeychainVault;
  /** Headless: read the four credentials from this file instead of the keychain (less safe; see README). */
  readonly credentialsFile?: string;
  /** Profile to act on instead of the desk's active one. */
  readonly profile?: string;
  /** Milliseconds since the epoch; tests inject one. */
  readonly clock?: () => number;
  /** An Electron-ABI better-sqlite3 binary (npm start), see docs/desktop.md. */
  readonly sqliteNativeBinding?: string;
  /** Starts the embedded sandbox for demo mode (main and harness pass it; core never imports the sandbox). */
  readonly startDemoSandbox?: DemoSandboxStarter;
  /** True for the desktop app: the idle lock applies. The CLI authenticates each command instead. */
  readonly lockable?: boolean;
  readonly cryptoThreads?: number;
  readonly network?: NetworkOptions;
  /**
   * Sync in the background (the desktop app): on start, then every minute, every 15 s while a withdrawal is
   * unsettled, backing off while offline. `true` for the defaults; off unless given (the CLI syncs when asked).
   */
  readonly autoSync?: boolean | Partial<AutoSyncOptions>;
  /**
   * Raise notifications (`notification/raised` events) and run the withdrawal watchdog: the desktop app, whose engine
   * alone may claim what it shows (a CLI command claiming an occurrence would keep the app from showing it). `true` for
   * the defaults; off unless given.
   */
  readonly notifications?: boolean | Partial<NotificationOptions & { readonly watchdogIntervalMs: number }>;
  /** The application's version (package.json), for diagnostics; the face knows it (app.getVersion() in Electron). */
  readonly appVersion?: string;
  /** Opens a team database by URL (team mode); PostgreSQL by default, tests may pass store options. */
  readonly openSharedStore?: SharedStoreOpener;
}

export interface Engine {
  readonly handlers: TreasuryHandlers;
  onEvent(listener: (event: ContractEvent) => void): () => void;
  /** Warnings a face should show once (e.g. a credentials file readable by others). */
  readonly warnings: readonly string[];
  /** Whether a withdrawal is being sent from this process now (an update never restarts the app meanwhile). */
  sendInFlight(): boolean;
  close(): Promise<void>;
}

export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const dbPath = options.dbPath ?? defaultDatabasePath();
  const db = openDatabase(dbPath, {
    ...(options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {}),
  });
  const vault = options.vault ?? new KeychainVault();
  const clock = options.clock ?? Date.now;
  let trail: AuditTrail;
  let deskSecrets: MovableDeskSecrets;
  try {
    // The desk key signs system events; headless runs without a keychain keep it in a private file beside the database.
    // Which of the two is recorded once and never switched by itself (audit/anchor-store.ts).
    const secrets = await openDeskSecrets(db, vault, dbPath, options.credentialsFile !== undefined, clock());
    trail = new AuditTrail(db, await DeskIdentity.load(secrets), secrets, clock);
    deskSecrets = secrets;
    trail.sealLegacyLog();
  } catch (error) {
    closeDatabase(db);
    throw error;
  }
  const context = new DeskContext({
    db,
    vault,
    trail,
    clock,
    ...(options.credentialsFile !== undefined ? { credentialsFile: options.credentialsFile } : {}),
    ...(options.profile !== undefined ? { profile: options.profile } : {}),
    ...(options.cryptoThreads !== undefined ? { cryptoThreads: options.cryptoThreads } : {}),
    ...(options.network ? { network: options.network } : {}),
  });
  try {
    await context.loadCredentialsFile();
    finishDepositIntake(context); // deposit pages verified before a crash join the history
  } catch (error) {
    closeDatabase(db);
    throw error;
  }
  const sync = new SyncService(context);
  const session = new SessionLock(context, options.lockable === true);
  const callbacks = new CallbackListener(context);
  const demoSandboxes: { close(): Promise<void> }[] = [];
  const team = new TeamMode(context, deskSecrets, options.openSharedStore ?? openPostgresDeskStore);
  try {
    await team.resume();
  } catch (error) {
    // The team database did not open (a bad saved URL, no password): the desk serves its local copy and says so.
    appLog.warn('team: team mode could not resume', { error });
  }
  const parts = {
    context,
    sync,
    session,
    callbacks,
    startDemoSandbox: options.startDemoSandbox,
    adoptDemoSandbox: (sandbox: { close(): Promise<void> }) => demoSandboxes.push(sandbox),
    appVersion: options.appVersion ?? 'unknown',
    team,
    moveAnchor: ((to, signMove) => moveDeskSecrets({ db, vault, dbPath, trail, secrets: deskSecrets, now: clock }, to, signMove)) satisfies ServiceParts['moveAnchor'],
  };
  const handlers = createHandlers(parts);
  // A demo desk's sandbox runs inside the app: start it again (new port) so the demo keeps working after a restart.
  const active = context.activeProfileName();
  if (active !== undefined && options.startDemoSandbox && getProfile(db, active)?.demo === true) {
    await startDemo(parts);
  }
  const notifying = options.notifications === true ? {} : options.notifications || undefined;
  const watchdog = notifying ? new WithdrawalWatchdog(context, notifying.watchdogIntervalMs ?? WATCHDOG_INTERVAL_MS) : undefined;
  const notifications = notifying && watchdog ? new DeskNotifications(context, watchdog, notifying) : undefined;
  watchdog?.start();
  notifications?.start();
  const autoSync = options.autoSync ? new AutoSync(context, sync, options.autoSync === true ? {} : options.autoSync) : undefined;
  autoSync?.start();
  let closed = false;
  return {
    handlers,
    onEvent: (listener) => context.onEvent(listener),
    warnings: context.credentialsFileWarnings,
    sendInFlight: () => sendingNow(context),
    async close() {
      if (closed) return;
      closed = true;
      autoSync?.stop();
      notifications?.stop();
      watchdog?.stop();
      session.close();
      await team.stop();
      await callbacks.stop();
      await context.close();
      await Promise.all(demoSandboxes.map((sandbox) => sandbox.close().catch(() => undefined)));
      await trail.flush();
      closeDatabase(db);
    },
  };
}
