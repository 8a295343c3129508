// Migration 0030: the append-only audit log. Rows are hash-chained (audit.ts computes the hashes); triggers refuse
// UPDATE and DELETE, and refuse an INSERT that does not extend the chain (seq = last + 1, prev_hash = last hash).
import type { Migration } from './runner';

export const AUDIT_GENESIS_HASH = '0'.repeat(64);

export const SCHEMA_0030 = `
CREATE TABLE audit_log (
  seq          INTEGER PRIMARY KEY CHECK (seq >= 1),
  at           INTEGER NOT NULL,
  profile      TEXT,
  operator     TEXT,
  action       TEXT NOT NULL CHECK (action <> ''),
  subject      TEXT,
  details_json TEXT NOT NULL CHECK (json_valid(details_json)),
  prev_hash    TEXT NOT NULL CHECK (length(prev_hash) = 64 AND prev_hash NOT GLOB '*[^0-9a-f]*'),
  hash         TEXT NOT NULL UNIQUE CHECK (length(hash) = 64 AND hash NOT GLOB '*[^0-9a-f]*')
) STRICT;
CREATE INDEX audit_log_by_profile ON audit_log (profile, seq);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: rows cannot be changed');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: rows cannot be deleted');
END;
CREATE TRIGGER audit_log_extends_chain BEFORE INSERT ON audit_log
WHEN NEW.seq IS NOT COALESCE((SELECT MAX(seq) FROM audit_log), 0) + 1
  OR NEW.prev_hash IS NOT COALESCE((SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1), '${AUDIT_GENESIS_HASH}')
BEGIN
  SELECT RAISE(ABORT, 'audit_log: a new row must extend the chain (seq = last seq + 1, prev_hash = last hash)');
END;
`;

export const migration0030: Migration = {
  version: 30,
  name: 'audit-log',
  up(db) {
    db.exec(SCHEMA_0030);
  },
};
