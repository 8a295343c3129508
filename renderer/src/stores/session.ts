// useSessionStore: the desk's session (locked or not, who unlocked it, the active profile, demo flag), from
// session/state, session/unlock, session/lock and the session/changed event.
import { create } from 'zustand';
import type { SessionState } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';

interface SessionStore {
  readonly session: SessionState | null;
  readonly loaded: boolean;
  readonly error: ContractError | null;
  load(): Promise<void>;
  unlock(operator: string, passphrase: string): Promise<Result<SessionState>>;
  lock(): Promise<void>;
  apply(session: SessionState): void;
  /** A method answered `locked`: show the lock screen at once (session/state confirms). */
  markLocked(): void;
}

export const useSessionStore = create<SessionStore>()((set, get) => ({
  session: null,
  loaded: false,
  error: null,
  async load() {
    const result = await call('session/state', {});
    if (result.ok) set({ session: result.value, loaded: true, error: null });
    else set({ loaded: true, error: result.error });
  },
  async unlock(operator, passphrase) {
    const result = await call('session/unlock', { operator, passphrase });
    if (result.ok) set({ session: result.value, error: null });
    return result;
  },
  async lock() {
    const result = await call('session/lock', {});
    if (result.ok) set({ session: result.value });
  },
  apply(session) {
    set({ session, loaded: true });
  },
  markLocked() {
    const current = get().session;
    if (current !== null && !current.locked) set({ session: { ...current, locked: true, operator: null } });
    void get().load();
  },
}));
