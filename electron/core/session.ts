// The idle lock of a desktop desk: after the configured idle time the engine refuses every method but session/*
// until an operator unlocks it with their passphrase. The CLI runs unlocked (each command authenticates itself).
import type { SessionState } from '../contract';
import type { DeskContext } from './context';
import { authenticate, type ActingOperator } from './operators';
import { getProfile, getSetting, listOperators, SETTING_KEYS } from './store';

export const DEFAULT_LOCK_TIMEOUT_SECONDS = 900;
const IDLE_CHECK_MS = 5_000;

export class SessionLock {
  #locked: boolean;
  #operator: string | null = null;
  #lastActivity: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly context: DeskContext,
    private readonly lockable: boolean,
  ) {
    this.#lastActivity = context.now();
    this.#locked = lockable && listOperators(context.db).length > 0;
    if (lockable) {
      this.#timer = setInterval(() => this.#checkIdle(), IDLE_CHECK_MS);
      this.#timer.unref();
    }
  }

  get locked(): boolean {
    return this.#locked;
  }

  timeoutSeconds(): number {
    const stored = getSetting(this.context.db, SETTING_KEYS.lockTimeoutSeconds);
    return typeof stored === 'number' && Number.isInteger(stored) && stored >= 0 ? stored : DEFAULT_LOCK_TIMEOUT_SECONDS;
  }

  /** An operator did something: postpones the idle lock. */
  touch(): void {
    this.#lastActivity = this.context.now();
  }

  state(): SessionState {
    const profile = this.context.activeProfileName() ?? null;
    const demo = profile === null ? false : this.#isDemo(profile);
    return { locked: this.#locked, operator: this.#operator, lockTimeoutSeconds: this.timeoutSeconds(), profile, isDemo: demo };
  }

  async unlock(acting: ActingOperator): Promise<SessionState> {
    const operator = await authenticate(this.context, acting);
    this.#locked = false;
    this.#operator = operator.name;
    this.touch();
    this.context.audit({ operator: operator.name, action: 'session/unlock' });
    return this.#changed();
  }

  lock(): SessionState {
    if (!this.lockable || listOperators(this.context.db).length === 0) return this.state();
    this.#locked = true;
    this.#operator = null;
    return this.#changed();
  }

  /** Re-reads settings (lock timeout) and tells the faces. */
  changed(): SessionState {
    return this.#changed();
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
  }

  #isDemo(profile: string): boolean {
    return getProfile(this.context.db, profile)?.demo === true;
  }

  #changed(): SessionState {
    const session = this.state();
    this.context.emit({ type: 'session/changed', session });
    return session;
  }

  #checkIdle(): void {
    const timeout = this.timeoutSeconds();
    if (this.#locked || timeout === 0) return;
    if (this.context.now() - this.#lastActivity >= timeout * 1000) this.lock();
  }
}
