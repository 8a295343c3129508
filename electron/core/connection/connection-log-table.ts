// What the connection panel shows over time, per profile: the clock drift measurements, newest 500 kept (older ones
// are deleted in the same transaction as each insert, so the table stays bounded), and the last whitelist refusal.
import { perDatabase, writeTransaction, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument } from '../store/errors';

/** Where a drift measurement came from: the selfcheck's serverTime, or a verified answer's SVC-TIMESTAMP. */
export type ClockDriftSource = 'selfcheck' | 'response';

export interface ClockDriftReading {
  readonly measuredAt: number;
  /** Server time minus this computer's, whole seconds (positive: the local clock is behind). */
  readonly driftSeconds: number;
  readonly source: ClockDriftSource;
}

export interface WhitelistRefusal {
  readonly refusedAt: number;
  /** The operation the service refused (getToken, merchantInfo, …). */
  readonly endpoint: string;
}

/** How many drift measurements a profile keeps. */
export const CLOCK_DRIFT_READINGS_KEPT = 500;

interface DriftRow {
  measured_at: number;
  drift_seconds: number;
  source: ClockDriftSource;
}

const statements = perDatabase((db) => ({
  insertDrift: db.prepare('INSERT INTO clock_drift_readings (profile, measured_at, drift_seconds, source) VALUES (?, ?, ?, ?)'),
  trimDrift: db.prepare(
    `DELETE FROM clock_drift_readings WHERE profile = @profile AND id <= (
       SELECT id FROM clock_drift_readings WHERE profile = @profile ORDER BY id DESC LIMIT 1 OFFSET @keep)`,
  ),
  newestDrift: db.prepare(
    `SELECT measured_at, drift_seconds, source FROM (
       SELECT id, measured_at, drift_seconds, source FROM clock_drift_readings WHERE profile = ? ORDER BY id DESC LIMIT ?)
     ORDER BY id`,
  ),
  upsertRefusal: db.prepare(
    `INSERT INTO whitelist_refusals (profile, refused_at, endpoint) VALUES (@profile, @at, @endpoint)
     ON CONFLICT (profile) DO UPDATE SET refused_at = excluded.refused_at, endpoint = excluded.endpoint`,
  ),
  refusal: db.prepare('SELECT refused_at, endpoint FROM whitelist_refusals WHERE profile = ?'),
}));

/** Records one drift measurement and drops the profile's oldest beyond `keep`, together. */
export function recordClockDrift(db: WritableDB, profile: string, reading: ClockDriftReading, keep: number = CLOCK_DRIFT_READINGS_KEPT): void {
  if (!Number.isSafeInteger(reading.driftSeconds) || !Number.isSafeInteger(reading.measuredAt)) {
    throw invalidArgument('a clock drift reading is whole seconds measured at a whole millisecond');
  }
  // A measurement can be taken again: a power loss may drop the last one, never leave the table unbounded.
  writeTransaction(
    db,
    () => {
      const s = statements(db);
      s.insertDrift.run(profile, reading.measuredAt, reading.driftSeconds, reading.source);
      s.trimDrift.run({ profile, keep });
    },
    'processCrash',
  );
}

/** The profile's drift measurements, oldest first (at most `limit`, the newest ones). */
export function clockDriftHistory(db: ReadableDB, profile: string, limit: number = CLOCK_DRIFT_READINGS_KEPT): ClockDriftReading[] {
  return (statements(db).newestDrift.all(profile, limit) as DriftRow[]).map((row) => ({ measuredAt: row.measured_at, driftSeconds: row.drift_seconds, source: row.source }));
}

/** Keeps `refusal` as the profile's last whitelist refusal. */
export function recordWhitelistRefusal(db: WritableDB, profile: string, refusal: WhitelistRefusal): void {
  statements(db).upsertRefusal.run({ profile, at: refusal.refusedAt, endpoint: refusal.endpoint });
}

/** The profile's last whitelist refusal, or undefined when the service never refused this desk. */
export function lastWhitelistRefusal(db: ReadableDB, profile: string): WhitelistRefusal | undefined {
  const row = statements(db).refusal.get(profile) as { refused_at: number; endpoint: string } | undefined;
  return row === undefined ? undefined : { refusedAt: row.refused_at, endpoint: row.endpoint };
}
