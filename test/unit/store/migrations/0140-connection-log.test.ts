// Migration 0140 (connection log): a schema-120 desk gains the clock drift readings and the last whitelist refusal per
// profile; the readings stay bounded (newest kept), a source other than selfcheck/response is refused, and both go
// with their profile.
import { describe, expect, it } from 'vitest';
import { CLOCK_DRIFT_READINGS_KEPT, clockDriftHistory, lastWhitelistRefusal, recordClockDrift, recordWhitelistRefusal } from '../../../../electron/core/connection/connection-log-table';
import { userVersion } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { getProfile } from '../../../../electron/core/profiles/profiles-table';
import { migration0140 } from '../../../../electron/core/store/migrations/0140-connection-log';
import { useTempDir } from '../helpers';
import { insertProfileRow, migrationsUpTo } from './helpers';

const temp = useTempDir();

describe('migration 0140-connection-log', () => {
  it('upgrades a version 120 database, keeping its profiles, with nothing measured yet', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(120) });
    insertProfileRow(old, 'p');
    old.close();
    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(140) });
    expect(userVersion(db)).toBe(140);
    expect(MIGRATIONS.find((migration) => migration.version === 140)).toBe(migration0140);
    expect(getProfile(db, 'p')).toMatchObject({ name: 'p', merchantId: 'M-1' });
    expect(clockDriftHistory(db, 'p')).toEqual([]);
    expect(lastWhitelistRefusal(db, 'p')).toBeUndefined();
  });

  it('keeps the newest 500 drift readings per profile, oldest first, and leaves other profiles alone', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(140) });
    insertProfileRow(db, 'p');
    insertProfileRow(db, 'q');
    recordClockDrift(db, 'q', { measuredAt: 1, driftSeconds: -3, source: 'selfcheck' });
    for (let index = 0; index < CLOCK_DRIFT_READINGS_KEPT + 20; index += 1) {
      recordClockDrift(db, 'p', { measuredAt: 1000 + index, driftSeconds: index % 7, source: index % 2 === 0 ? 'response' : 'selfcheck' });
    }
    const history = clockDriftHistory(db, 'p');
    expect(history).toHaveLength(CLOCK_DRIFT_READINGS_KEPT);
    expect(history[0]).toEqual({ measuredAt: 1020, driftSeconds: 20 % 7, source: 'response' });
    expect(history.at(-1)).toEqual({ measuredAt: 1000 + CLOCK_DRIFT_READINGS_KEPT + 19, driftSeconds: (CLOCK_DRIFT_READINGS_KEPT + 19) % 7, source: 'selfcheck' });
    expect(db.prepare("SELECT count(*) FROM clock_drift_readings WHERE profile = 'p'").pluck().get()).toBe(CLOCK_DRIFT_READINGS_KEPT);
    expect(clockDriftHistory(db, 'q')).toEqual([{ measuredAt: 1, driftSeconds: -3, source: 'selfcheck' }]);
    expect(clockDriftHistory(db, 'p', 2).map((reading) => reading.measuredAt)).toEqual([1518, 1519]);
    expect(() => recordClockDrift(db, 'p', { measuredAt: 5, driftSeconds: 1.5, source: 'selfcheck' })).toThrow(/whole seconds/);
    expect(() => db.prepare("INSERT INTO clock_drift_readings (profile, measured_at, drift_seconds, source) VALUES ('p', 1, 1, 'guess')").run()).toThrow(/CHECK/);
  });

  it('keeps the last whitelist refusal, replaced by the next, and both tables go with their profile', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(140) });
    insertProfileRow(db, 'gone');
    recordWhitelistRefusal(db, 'gone', { refusedAt: 5, endpoint: 'getToken' });
    recordWhitelistRefusal(db, 'gone', { refusedAt: 9, endpoint: 'merchantInfo' });
    expect(lastWhitelistRefusal(db, 'gone')).toEqual({ refusedAt: 9, endpoint: 'merchantInfo' });
    recordClockDrift(db, 'gone', { measuredAt: 1, driftSeconds: 2, source: 'response' });
    expect(() => recordWhitelistRefusal(db, 'nobody', { refusedAt: 1, endpoint: 'getToken' })).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM profiles WHERE name = 'gone'").run();
    expect(lastWhitelistRefusal(db, 'gone')).toBeUndefined();
    expect(clockDriftHistory(db, 'gone')).toEqual([]);
  });
});
