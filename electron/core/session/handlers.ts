// The session feature: lock, unlock and the idle lock's activity (session/*).
import type { TreasuryHandlers } from '../../contract';
import type { SessionLock } from './lock';
import type { Handle } from '../kernel/handle';

export interface SessionFeatureDeps {
  readonly session: SessionLock;
}

export function sessionHandlers({ session }: SessionFeatureDeps, handle: Handle): Pick<TreasuryHandlers, 'session/state' | 'session/unlock' | 'session/lock' | 'session/activity'> {
  return {
    'session/state': handle('session/state', () => session.state()),
    'session/unlock': handle('session/unlock', (request) => session.unlock(request)),
    'session/lock': handle('session/lock', () => session.lock()),
    'session/activity': handle('session/activity', () => {
      session.touch();
      return { locked: session.locked };
    }),
  };
}
