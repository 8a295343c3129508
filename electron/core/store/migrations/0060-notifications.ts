// Migration 0060: notifications (issue 12). Each operator's notification preferences per profile (their own choice;
// no row means their role's defaults), the occurrences the desk has raised a notice for (what keeps a notice from
// being raised twice, across restarts and between processes sharing the desk), how far the notices have looked in the
// deposit and withdrawal streams, and an index to find requests changed since then.
import type { Migration } from './runner';

export const SCHEMA_0060 = `
CREATE TABLE notification_preferences (
  profile          TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  operator         TEXT NOT NULL COLLATE NOCASE CHECK (length(operator) BETWEEN 1 AND 64),
  preferences_json TEXT NOT NULL CHECK (json_valid(preferences_json) AND json_type(preferences_json) = 'object'),
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (profile, operator)
) STRICT, WITHOUT ROWID;

CREATE TABLE notifications_raised (
  profile    TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  occurrence TEXT NOT NULL CHECK (length(occurrence) BETWEEN 1 AND 200),
  kind       TEXT NOT NULL CHECK (kind <> ''),
  -- 1: a notice was raised; 0: found when the desk first looked (history from before notifications), never raised.
  raised     INTEGER NOT NULL CHECK (raised IN (0, 1)),
  at         INTEGER NOT NULL,
  PRIMARY KEY (profile, occurrence)
) STRICT, WITHOUT ROWID;

CREATE TABLE notification_cursors (
  profile    TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  stream     TEXT NOT NULL CHECK (stream <> ''),
  position   INTEGER NOT NULL CHECK (position >= 0),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (profile, stream)
) STRICT, WITHOUT ROWID;

CREATE INDEX withdrawal_requests_by_updated ON withdrawal_requests (profile, updated_at, id);
`;

export const migration0060: Migration = {
  version: 60,
  name: 'notifications',
  up(db) {
    db.exec(SCHEMA_0060);
  },
};
