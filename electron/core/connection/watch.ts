// Keeps what the connection panel shows over time: every selfcheck's clock drift, the drift read from verified answers
// (at most one a minute per profile, so a long sync does not write one row per request), and each whitelist refusal.
// Invariant: a failure to record is logged and never breaks the request that was being observed.
import { appLog } from '../log';
import { recordClockDrift, recordWhitelistRefusal, type ClockDriftSource } from './connection-log-table';
import { type StoreDatabase } from '../store/database';

/** At most one drift reading from answers per profile in this interval; selfcheck readings are always kept. */
export const RESPONSE_DRIFT_INTERVAL_MS = 60_000;

export class ConnectionWatch {
  readonly #lastResponseReading = new Map<string, number>();

  constructor(
    private readonly db: StoreDatabase,
    private readonly now: () => number,
  ) {}

  /** A drift measurement (server minus local, whole seconds) for `profile`. */
  clockDrift(profile: string, driftSeconds: number, source: ClockDriftSource): void {
    const at = this.now();
    if (source === 'response') {
      const last = this.#lastResponseReading.get(profile);
      if (last !== undefined && at - last < RESPONSE_DRIFT_INTERVAL_MS) return;
      this.#lastResponseReading.set(profile, at);
    }
    this.#record('a clock drift reading', () => recordClockDrift(this.db, profile, { measuredAt: at, driftSeconds, source }));
  }

  /** The service answered `Oops` to `endpoint` for `profile` (PROTOCOL §5.3). */
  notWhitelisted(profile: string, endpoint: string): void {
    this.#record('a whitelist refusal', () => recordWhitelistRefusal(this.db, profile, { refusedAt: this.now(), endpoint }));
  }

  #record(what: string, write: () => void): void {
    try {
      write();
    } catch (error) {
      appLog.error(`engine: could not record ${what}`, { error });
    }
  }
}
