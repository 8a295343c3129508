// Migration 0150: this workstation's side of a team desk (issue 10). The team database's URL without its password
// (the password is kept in the keychain), this workstation's name in the team, the last shared row it verified (seq
// and hash: a shared chain that no longer holds it was rewritten or truncated), whether the team database answers
// (since when, why), the projection rows it refused (naming them), and its desk-signed events waiting to be
// published (kept with the local change they describe, so an outage loses none of them).
import type { Migration } from './runner';

export const SCHEMA_0150 = `
CREATE TABLE team_settings (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  database_url TEXT NOT NULL,
  workstation TEXT NOT NULL,
  desk_id TEXT NOT NULL,
  joined_at INTEGER NOT NULL,
  verified_seq INTEGER NOT NULL DEFAULT 0,
  verified_hash TEXT,
  verified_at INTEGER,
  connected INTEGER NOT NULL DEFAULT 0,
  connection_since INTEGER NOT NULL,
  connection_reason TEXT
) STRICT;

CREATE TABLE team_refusals (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  source TEXT NOT NULL,
  row_name TEXT NOT NULL,
  reason TEXT NOT NULL,
  UNIQUE (source, row_name, reason)
) STRICT;

CREATE TABLE team_outbox (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  event_json TEXT NOT NULL
) STRICT;
`;

export const migration0150: Migration = {
  version: 150,
  name: 'team-mode',
  up(db) {
    db.exec(SCHEMA_0150);
  },
};
