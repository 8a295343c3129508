// Migration 0140: what the connection panel shows over time, per profile: the clock drift measurements (selfcheck and
// verified answers' timestamps; the repository keeps the newest 500) and the last whitelist refusal (`Oops`, §5.3).
import type { Migration } from './runner';

export const SCHEMA_0140 = `
CREATE TABLE clock_drift_readings (
  id            INTEGER PRIMARY KEY,
  profile       TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  measured_at   INTEGER NOT NULL,
  drift_seconds INTEGER NOT NULL,
  source        TEXT NOT NULL CHECK (source IN ('selfcheck', 'response'))
) STRICT;
CREATE INDEX clock_drift_readings_by_profile ON clock_drift_readings (profile, id);

CREATE TABLE whitelist_refusals (
  profile    TEXT PRIMARY KEY REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  refused_at INTEGER NOT NULL,
  endpoint   TEXT NOT NULL
) STRICT;
`;

export const migration0140: Migration = {
  version: 140,
  name: 'connection-log',
  up(db) {
    db.exec(SCHEMA_0140);
  },
};
