// The engine's one door into the desktop shell: starts the treasury engine (electron/core) for the Electron app,
// with the idle lock on and demo mode backed by the embedded sandbox. The only file of electron/main that
// imports the engine; everything else sees DesktopEngine.
import { join } from 'node:path';
import type { ContractEvent, TreasuryHandlers } from '../contract';
import { createEngine } from '../core/engine';
import { demoSandboxStarter } from '../sandbox';

export interface EnginePaths {
  /** Folder of the database and settings: Electron's userData folder. */
  readonly dataDir: string;
  /**
   * better-sqlite3 binary built for Electron's ABI (`npm start` from a checkout), or undefined to use the module's
   * own build (the packaged app, whose native modules electron-builder rebuilt for Electron).
   */
  readonly sqliteNativeBinding: string | undefined;
}

export interface DesktopEngine {
  readonly handlers: TreasuryHandlers;
  /** Subscribes to engine events; returns the unsubscribe function. */
  onEvent(listener: (event: ContractEvent) => void): () => void;
  /** Stops timers and listeners and closes the database. */
  close(): Promise<void>;
}

/** Starts the engine for the desktop app. */
export async function startEngine(paths: EnginePaths): Promise<DesktopEngine> {
  return createEngine({
    dbPath: join(paths.dataDir, 'treasury.sqlite'),
    lockable: true,
    // Balances, deposits and submitted withdrawals stay current without "Sync now" (core/sync/auto-sync.ts).
    autoSync: true,
    startDemoSandbox: demoSandboxStarter(join(paths.dataDir, 'demo-sandbox')),
    ...(paths.sqliteNativeBinding ? { sqliteNativeBinding: paths.sqliteNativeBinding } : {}),
  });
}
