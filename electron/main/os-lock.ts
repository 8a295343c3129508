// Locks the desk when the workstation does: the OS locking the screen or suspending (Electron's powerMonitor) calls the
// engine's session/lock, so a desk left open behind a locked screen or a closed lid is locked when anyone comes back.
import type { Result, SessionState } from '../contract';
import { appLog } from '../core/log';

/** The OS events after which the desk must be locked. */
export const OS_LOCK_EVENTS = ['lock-screen', 'suspend'] as const;

/** The part of Electron's powerMonitor this needs (an event emitter). */
export interface OsLockSource {
  on(event: (typeof OS_LOCK_EVENTS)[number], listener: () => void): unknown;
  removeListener(event: (typeof OS_LOCK_EVENTS)[number], listener: () => void): unknown;
}

/** Calls `lockDesk` (the engine's session/lock) on every OS lock or suspend; returns the function that stops it. */
export function lockDeskWithOs(source: OsLockSource, lockDesk: () => Promise<Result<SessionState>>): () => void {
  const lock = (): void => {
    void lockDesk().then(
      (result) => {
        if (!result.ok) appLog.warn('os-lock: could not lock the desk when the OS locked', { code: result.error.code, message: result.error.message });
      },
      (error: unknown) => appLog.error('os-lock: could not lock the desk when the OS locked', { error }),
    );
  };
  for (const event of OS_LOCK_EVENTS) source.on(event, lock);
  return () => {
    for (const event of OS_LOCK_EVENTS) source.removeListener(event, lock);
  };
}
