// The idle lock of a desktop desk: after the configured idle time without a person's input (session/activity, an
// unlock, a decision carrying a passphrase) the engine refuses every method but session/* until an operator unlocks it
// with their passphrase. Background work (auto sync, the renderer's refreshes) never counts as activity. The CLI runs
// unlocked (each command authenticates itself). The unlocking operator's key is held for the session (SessionKey:
// labels and notes without the passphrase each time) and dropped at every lock.
import { usableTimeZone, type SessionState } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import { getProfile, getSetting, type ProfileSelection, SETTING_KEYS } from '../profiles';
import { DeskError } from '../kernel/errors';
import { SessionKey, type SessionSigner, unsealOperator, type OperatorCredentials } from '../operators';

export const DEFAULT_LOCK_TIMEOUT_SECONDS = 900;
/** How often the idle time is compared with the lock timeout. */
const IDLE_CHECK_MS = 5_000;

export class SessionLock implements SessionSigner {
  #locked: boolean;
  #operator: string | null = null;
  #key: SessionKey | null = null;
  #lastActivity: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly context: Kernel & AuditRecorder & ProfileSelection,
    private readonly lockable: boolean,
  ) {
    this.#lastActivity = context.now();
    this.#locked = lockable && this.#hasOperators();
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

  /** The desk's reporting time zone (UTC until an admin sets one). */
  reportingTimeZone(): string {
    return usableTimeZone(getSetting(this.context.db, SETTING_KEYS.reportingTimeZone));
  }

  /** A person used the desk (input, an unlock, a passphrase typed for a decision): postpones the idle lock. */
  touch(): void {
    this.#lastActivity = this.context.now();
  }

  state(): SessionState {
    const profile = this.context.activeProfileName() ?? null;
    const demo = profile === null ? false : this.#isDemo(profile);
    return {
      locked: this.#locked,
      operator: this.#operator,
      lockTimeoutSeconds: this.timeoutSeconds(),
      reportingTimeZone: this.reportingTimeZone(),
      profile,
      isDemo: demo,
      signsLabelsUntil: this.#key === null || this.#key.profile !== profile ? null : this.#key.until,
    };
  }

  sessionKey(): SessionKey | null {
    return this.#locked ? null : this.#key;
  }

  async unlock(acting: OperatorCredentials): Promise<SessionState> {
    const operator = await unsealOperator(this.context, acting);
    if (operator.snapshot.status !== 'active') throw new DeskError('forbidden', `operator ${operator.name} is disabled`);
    this.#locked = false;
    this.#operator = operator.name;
    this.#key = new SessionKey(operator, this.context.now());
    this.touch();
    this.context.audit({ profile: operator.profile, action: 'session/unlock', subject: operator.name });
    return this.#changed();
  }

  /** Whether the active profile has anyone who could unlock the desk (an unfounded desk is never locked). */
  #hasOperators(): boolean {
    const profile = this.context.activeProfileName();
    return profile !== undefined && this.context.trail.roster(profile, { cached: true }).active().length > 0;
  }

  lock(): SessionState {
    // Locking always ends the session's signing, even where the desk cannot lock (the held key goes first).
    const held = this.#key !== null;
    this.#key = null;
    if (!this.lockable || !this.#hasOperators()) return held ? this.#changed() : this.state();
    this.#locked = true;
    this.#operator = null;
    return this.#changed();
  }

  /** Re-reads settings (lock timeout, reporting time zone) and tells the faces. */
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
