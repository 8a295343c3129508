// Migration 0070: the nonces of verified responses and callbacks (PROTOCOL §4.4: remembered for 600 s, a repeat
// refused), kept in the database instead of one process's memory, so a replay is refused across restarts and between
// the app and CLI runs on the same desk. Rows expire; the index on the expiry keeps pruning and the check cheap.
import type { Migration } from './runner';

export const SCHEMA_0070 = `
CREATE TABLE seen_nonces (
  nonce      TEXT NOT NULL PRIMARY KEY CHECK (length(nonce) BETWEEN 16 AND 64),
  -- The last Unix second (inclusive) the nonce is still remembered.
  expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX seen_nonces_by_expiry ON seen_nonces (expires_at);
`;

export const migration0070: Migration = {
  version: 70,
  name: 'seen-nonces',
  up(db) {
    db.exec(SCHEMA_0070);
  },
};
