// The treasury engine: opens the desk's database, builds its running parts as modules in one list (audit trail,
// merchant session, sync, session lock, callback listener, team mode, demo sandbox, watchdog, notifications, auto-sync), started
// in dependency order and stopped in the reverse, and exposes the contract's handlers plus an event stream. Plain
// Node: used by the Electron main process, the CLI and the browser test harness alike.
import type { ContractEvent, TreasuryHandlers } from '../contract';
import { type AuditRecorder, auditRecorder, AuditTrail, DeskIdentity, type MovableDeskSecrets, moveDeskSecrets, openDeskSecrets } from './audit';
import { MerchantSession, type NetworkOptions } from './connection';
import { CallbackListener } from './callbacks';
import { DeskNotifications, type NotificationOptions } from './notifications';
import { webhookDeskSecretNames, WebhookSeal, WebhookSecrets, WebhookSender, type WebhookSenderOptions } from './webhooks';
import { KeychainVault } from './secrets';
import { createHandlers, startDemo, type DemoSandboxStarter, type ServiceParts } from './service';
import { createKernel, type Kernel } from './kernel/kernel';
import { startModules, type ModuleDefinition } from './kernel/modules';
import { SessionLock } from './session';
import { openPostgresDeskStore, type SharedStoreOpener, teamDeskSecretNames, TeamMode } from './team';
import { appLog } from './log';
import { closeDatabase, openDatabase } from './store/database';
import { defaultDatabasePath } from './store/paths';
import { getProfile, ProfileChoice } from './profiles';
import { AutoSync, type AutoSyncOptions, finishDepositIntake, SyncService } from './sync';
import { sendingNow, WATCHDOG_INTERVAL_MS, WithdrawalWatchdog } from './withdrawals';

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
  /**
   * Send the queued webhook deliveries in the background (the desktop app; its notifications center queues them).
   * On with notifications unless given; tests inject short retry delays.
   */
  readonly webhooks?: boolean | Partial<WebhookSenderOptions>;
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
  });
  const vault = options.vault ?? new KeychainVault();
  const clock = options.clock ?? Date.now;
  const notifying = options.notifications === true ? {} : options.notifications || undefined;
  // The parts each module builds, for the modules after it (the list below orders them).
  let trail!: AuditTrail;
  let deskSecrets!: MovableDeskSecrets;
  const kernel = createKernel(db, clock);
  let merchantSession!: MerchantSession;
  let desk!: DeskParts;
  let sync!: SyncService;
  let session!: SessionLock;
  let callbacks!: CallbackListener;
  let team!: TeamMode;
  let watchdog!: WithdrawalWatchdog;
  let webhooks!: { readonly secrets: WebhookSecrets; readonly seal: WebhookSeal; readonly sender: WebhookSender };
  const sendingWebhooks = options.webhooks ?? notifying !== undefined;
  const demoSandboxes: { close(): Promise<void> }[] = [];
  // Built once, when first asked (by the demo module's start at the latest): every module they draw on exists by then.
  let handlers: TreasuryHandlers | undefined;
  const engineHandlers = (): TreasuryHandlers => (handlers ??= createHandlers(serviceParts()));
  const serviceParts = (): ServiceParts => ({
    context: desk,
    sync,
    session,
    callbacks,
    startDemoSandbox: options.startDemoSandbox,
    adoptDemoSandbox: (sandbox: { close(): Promise<void> }) => demoSandboxes.push(sandbox),
    handlers: engineHandlers,
    appVersion: options.appVersion ?? 'unknown',
    team,
    webhooks,
    moveAnchor: (to, signMove) =>
      moveDeskSecrets({ db, vault, dbPath, trail, secrets: deskSecrets, now: clock, carried: () => [...teamDeskSecretNames(db), ...webhookDeskSecretNames(db, trail.deskId)] }, to, signMove),
  });
  // The engine's modules in one list: built and started in dependency order, stopped in the reverse (kernel/modules.ts).
  const modules: ModuleDefinition[] = [
    { name: 'database', dependsOn: [], create: () => ({ stop: () => closeDatabase(db) }) },
    {
      name: 'audit',
      dependsOn: ['database'],
      async create() {
        // The desk key signs system events; headless runs without a keychain keep it in a private file beside the
        // database. Which of the two is recorded once and never switched by itself (audit/anchor-store.ts).
        deskSecrets = await openDeskSecrets(db, vault, dbPath, options.credentialsFile !== undefined, clock());
        trail = new AuditTrail(db, await DeskIdentity.load(deskSecrets), deskSecrets, clock);
        trail.sealLegacyLog();
        return { stop: () => trail.flush() };
      },
    },
    {
      name: 'merchantSession',
      dependsOn: ['audit'],
      create() {
        const profiles = new ProfileChoice(db, options.profile);
        merchantSession = new MerchantSession({
          db,
          vault,
          clock,
          profiles,
          ...(options.credentialsFile !== undefined ? { credentialsFile: options.credentialsFile } : {}),
          ...(options.cryptoThreads !== undefined ? { cryptoThreads: options.cryptoThreads } : {}),
          ...(options.network ? { network: options.network } : {}),
        });
        desk = deskParts(kernel, auditRecorder(trail), profiles, merchantSession, vault);
        return {
          async start() {
            await merchantSession.loadCredentialsFile();
            finishDepositIntake(desk); // deposit pages verified before a crash join the history
          },
          stop: () => merchantSession.close(),
        };
      },
    },
    {
      name: 'sync',
      dependsOn: ['merchantSession'],
      create() {
        sync = new SyncService(desk);
        return {};
      },
    },
    {
      name: 'session',
      dependsOn: ['merchantSession'],
      create() {
        session = new SessionLock(desk, options.lockable === true);
        return { stop: () => session.close() };
      },
    },
    {
      name: 'callbacks',
      dependsOn: ['merchantSession'],
      create() {
        callbacks = new CallbackListener(desk);
        return { stop: () => callbacks.stop().then(() => undefined) };
      },
    },
    {
      name: 'team',
      dependsOn: ['merchantSession'],
      create() {
        team = new TeamMode(desk, deskSecrets, options.openSharedStore ?? openPostgresDeskStore);
        return {
          async start() {
            try {
              await team.resume();
            } catch (error) {
              // The team database did not open (a bad saved URL, no password): the desk serves its local copy and says so.
              appLog.warn('team: team mode could not resume', { error });
            }
          },
          stop: () => team.stop(),
        };
      },
    },
    {
      name: 'webhooks',
      dependsOn: ['team'],
      async create() {
        const secrets = new WebhookSecrets(deskSecrets, trail.deskId);
        const seal = await WebhookSeal.load(deskSecrets, trail.deskId);
        const sender = new WebhookSender(desk, secrets, seal, typeof sendingWebhooks === 'object' ? sendingWebhooks : {});
        webhooks = { secrets, seal, sender };
        return sendingWebhooks === false ? { stop: () => sender.stop() } : { start: () => sender.start(), stop: () => sender.stop() };
      },
    },
    {
      name: 'demo',
      dependsOn: ['sync', 'session', 'callbacks', 'team', 'webhooks'],
      create: () => ({
        async start() {
          // A demo desk's sandbox runs inside the app: start it again (new port) so the demo keeps working after a restart.
          const active = desk.activeProfileName();
          if (active !== undefined && options.startDemoSandbox && getProfile(db, active)?.demo === true) await startDemo(serviceParts());
        },
        stop: () => Promise.all(demoSandboxes.map((sandbox) => sandbox.close().catch(() => undefined))).then(() => undefined),
      }),
    },
    ...(notifying
      ? [
          {
            name: 'watchdog',
            dependsOn: ['merchantSession'],
            create() {
              watchdog = new WithdrawalWatchdog(desk, notifying.watchdogIntervalMs ?? WATCHDOG_INTERVAL_MS);
              return { start: () => watchdog.start(), stop: () => watchdog.stop() };
            },
          },
          {
            name: 'notifications',
            dependsOn: ['watchdog', 'webhooks'],
            create() {
              const notifications = new DeskNotifications(desk, watchdog, notifying, webhooks.seal);
              return { start: () => notifications.start(), stop: () => notifications.stop() };
            },
          },
        ]
      : []),
    ...(options.autoSync
      ? [
          {
            name: 'autoSync',
            dependsOn: ['sync', 'demo'],
            create() {
              const autoSync = new AutoSync(desk, sync, options.autoSync === true ? {} : options.autoSync || {});
              return { start: () => autoSync.start(), stop: () => autoSync.stop() };
            },
          },
        ]
      : []),
  ];
  // When a module fails to start, those started before it are stopped (the database first in the list, so closed last).
  const started = await startModules(modules);
  return {
    handlers: engineHandlers(),
    onEvent: (listener) => kernel.onEvent(listener),
    warnings: merchantSession.credentialsFileWarnings,
    sendInFlight: () => sendingNow(desk),
    close: () => started.stop(),
  };
}

/** What the engine's modules take: each part built by its own module, passed by the interfaces they declare. */
type DeskParts = ServiceParts['context'];

/**
 * One object holding the parts, for the modules that take several (each names only the interfaces it uses): every
 * member delegates to the module that owns it, so no state lives here.
 */
function deskParts(kernel: Kernel, recorder: AuditRecorder, profiles: ProfileChoice, session: MerchantSession, vault: KeychainVault): DeskParts {
  return {
    db: kernel.db,
    now: kernel.now,
    emit: (event) => kernel.emit(event),
    onEvent: (listener) => kernel.onEvent(listener),
    trail: recorder.trail,
    audit: (entry) => recorder.audit(entry),
    activeProfileName: () => profiles.activeProfileName(),
    activeProfile: () => profiles.activeProfile(),
    selectProfile: (name) => session.selectProfile(name),
    keys: () => session.keys(),
    merchantClient: () => session.merchantClient(),
    publicClient: () => session.publicClient(),
    tokenLifetime: () => session.tokenLifetime(),
    connection: session.connection,
    connectionWatch: session.connectionWatch,
    nonces: session.nonces,
    get clockDriftSeconds() {
      return session.clockDriftSeconds;
    },
    set clockDriftSeconds(seconds) {
      session.clockDriftSeconds = seconds;
    },
    usesCredentialsFile: session.usesCredentialsFile,
    dropClients: () => session.dropClients(),
    vault,
  };
}
