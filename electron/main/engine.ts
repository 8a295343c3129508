// The engine's one door into the desktop shell: starts the treasury engine (electron/core) for the Electron app. The
// only file of electron/main that imports the engine; everything else sees DesktopEngine.
import type { ContractEvent, TreasuryHandlers } from '../contract';

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

export class EngineNotWiredError extends Error {
  override readonly name = 'EngineNotWiredError';
}

/** Starts the engine for the desktop app. */
export async function startEngine(_paths: EnginePaths): Promise<DesktopEngine> {
  throw new EngineNotWiredError(
    'The treasury engine is not wired into the desktop app yet: electron/core/service.ts (TreasuryService) does not exist in this build, so every request is refused.',
  );
}
