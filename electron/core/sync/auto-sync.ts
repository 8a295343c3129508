// Background sync for the desktop app: runs the SyncService on a timer so balances, new deposits and submitted
// withdrawals stay current without anyone pressing "Sync now" (the service's callbacks usually go to the merchant's
// server, not to this workstation). Sooner while a withdrawal is unsettled; backing off while the service cannot be
// reached. The CLI does not use it: each command syncs when asked.
import type { Kernel } from '../kernel/kernel';
import type { ProfileSelection } from '../profiles';
import { listUnsettledWithdrawalRequests } from '../withdrawals';
import type { SyncService } from './sync';

export interface AutoSyncOptions {
  /** Between runs when nothing is pending. */
  readonly intervalMs: number;
  /** Between runs while a submitted withdrawal has not reached a final state. */
  readonly unsettledIntervalMs: number;
  /** The longest wait after repeated failures (the wait doubles from `intervalMs`). */
  readonly maxBackoffMs: number;
}

export const DEFAULT_AUTO_SYNC: AutoSyncOptions = Object.freeze({ intervalMs: 60_000, unsettledIntervalMs: 15_000, maxBackoffMs: 600_000 });

/** How long to wait after a run: `failures` in a row so far (0 after a success), whether a withdrawal is unsettled. */
export function autoSyncDelayMs(state: { readonly failures: number; readonly unsettled: boolean }, options: AutoSyncOptions = DEFAULT_AUTO_SYNC): number {
  if (state.failures > 0) return Math.min(options.intervalMs * 2 ** Math.min(state.failures - 1, 30), options.maxBackoffMs);
  return state.unsettled ? Math.min(options.unsettledIntervalMs, options.intervalMs) : options.intervalMs;
}

export class AutoSync {
  #timer: NodeJS.Timeout | undefined;
  #failures = 0;
  #running = false;
  #stopped = true;
  readonly #options: AutoSyncOptions;

  constructor(
    private readonly context: Kernel & ProfileSelection,
    private readonly sync: SyncService,
    options: Partial<AutoSyncOptions> = {},
  ) {
    this.#options = { ...DEFAULT_AUTO_SYNC, ...options };
  }

  /** Starts the timer; the first run comes after `firstDelayMs` (0: right away). */
  start(firstDelayMs = 0): void {
    this.#stopped = false;
    this.#schedule(firstDelayMs);
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick(), delayMs);
    // Never the reason a process stays alive.
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    this.#timer = undefined;
    if (this.#running || this.#stopped) return;
    const profile = this.context.activeProfileName();
    if (profile === undefined) {
      this.#schedule(this.#options.intervalMs);
      return;
    }
    this.#running = true;
    try {
      // Joins a sync someone started by hand rather than running a second one; failures are recorded by the
      // SyncService (sync state, connection and its reason), so here they only lengthen the wait.
      await this.sync.run();
      this.#failures = 0;
    } catch {
      this.#failures += 1;
    } finally {
      this.#running = false;
    }
    if (this.#stopped) return;
    const active = this.context.activeProfileName();
    const unsettled = active !== undefined && listUnsettledWithdrawalRequests(this.context.db, active).length > 0;
    this.#schedule(autoSyncDelayMs({ failures: this.#failures, unsettled }, this.#options));
  }
}
