// Migration 0050: approvals you can prove (issue 9, APPROVALS.md). Operators now belong to a desk profile and hold an
// Ed25519 key sealed by their own passphrase; every decision and event is a signed statement carried by the audit
// log, whose rows chain through signed `prev` hashes; a withdrawal request keeps the canonical intent its approvers
// sign. The unsigned tables of before (operators, approvals, the unkeyed audit log) are kept read-only under
// `legacy_` names so nothing is lost; a legacy request carries no signed intent and so can never be submitted.
import type { Migration } from './runner';

const HEX64 = (column: string): string => `length(${column}) = 64 AND ${column} NOT GLOB '*[^0-9a-f]*'`;

/** Columns copied from the 0010/0040 withdrawal_requests into the rebuilt table. */
const KEPT_REQUEST_COLUMNS =
  'id, profile, currency, amount, to_address, withdraw_type, memo, user_order, state, created_at, updated_at, ' +
  'api_order, order_status, order_status_at, fee, txid, raw_json, required_approvals, last_error';

export const SCHEMA_0050 = `
-- The unsigned past, kept for reading.
DROP TRIGGER audit_log_no_update;
DROP TRIGGER audit_log_no_delete;
DROP TRIGGER audit_log_extends_chain;
ALTER TABLE audit_log RENAME TO legacy_audit_log;
DROP INDEX audit_log_by_profile;
CREATE INDEX legacy_audit_log_by_profile ON legacy_audit_log (profile, seq);
CREATE TRIGGER legacy_audit_log_no_insert BEFORE INSERT ON legacy_audit_log BEGIN
  SELECT RAISE(ABORT, 'legacy_audit_log is closed: the signed audit_log continues it');
END;
CREATE TRIGGER legacy_audit_log_no_update BEFORE UPDATE ON legacy_audit_log BEGIN
  SELECT RAISE(ABORT, 'legacy_audit_log is append-only: rows cannot be changed');
END;
CREATE TRIGGER legacy_audit_log_no_delete BEFORE DELETE ON legacy_audit_log BEGIN
  SELECT RAISE(ABORT, 'legacy_audit_log is append-only: rows cannot be deleted');
END;
ALTER TABLE operators RENAME TO legacy_operators;
ALTER TABLE approvals RENAME TO legacy_approvals;

-- Requests: the initiator by name, and the signed intent.
CREATE TABLE withdrawal_requests_0050 (
  id                  INTEGER PRIMARY KEY AUTOINCREMENT,
  profile             TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE,
  currency            TEXT NOT NULL,
  amount              ANY NOT NULL CHECK (typeof(amount) = 'text' AND amount <> '' AND amount NOT GLOB '*[^0-9.]*'
                        AND amount NOT GLOB '*.*.*' AND amount NOT GLOB '.*' AND amount NOT GLOB '*.'),
  to_address          TEXT NOT NULL CHECK (to_address <> ''),
  withdraw_type       TEXT NOT NULL CHECK (withdraw_type <> ''),
  memo                TEXT CHECK (memo IS NULL OR length(memo) <= 255),
  user_order          TEXT NOT NULL UNIQUE
                      CHECK (length(user_order) BETWEEN 1 AND 64 AND user_order NOT GLOB '*[^A-Za-z0-9_-]*'),
  initiator           TEXT NOT NULL CHECK (initiator <> ''),
  legacy_initiator_id INTEGER,
  state               TEXT NOT NULL,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  api_order           TEXT,
  order_status        TEXT,
  order_status_at     INTEGER,
  fee                 ANY CHECK (fee IS NULL OR (typeof(fee) = 'text' AND fee <> '' AND fee NOT GLOB '*[^0-9.]*'
                        AND fee NOT GLOB '*.*.*' AND fee NOT GLOB '.*' AND fee NOT GLOB '*.')),
  txid                TEXT,
  raw_json            TEXT CHECK (raw_json IS NULL OR json_valid(raw_json)),
  required_approvals  INTEGER NOT NULL DEFAULT 1 CHECK (required_approvals BETWEEN 1 AND 5),
  last_error          TEXT,
  intent_json         TEXT CHECK (intent_json IS NULL OR json_valid(intent_json)),
  intent_hash         TEXT UNIQUE CHECK (intent_hash IS NULL OR (${HEX64('intent_hash')})),
  fingerprint         TEXT,
  request_seq         INTEGER
) STRICT;
INSERT INTO withdrawal_requests_0050 (${KEPT_REQUEST_COLUMNS}, initiator, legacy_initiator_id)
  SELECT ${KEPT_REQUEST_COLUMNS.split(', ').map((column) => `r.${column}`).join(', ')},
         COALESCE((SELECT o.name FROM legacy_operators o WHERE o.id = r.initiator_id), 'operator ' || r.initiator_id),
         r.initiator_id
  FROM withdrawal_requests r;
DROP TABLE withdrawal_requests;
ALTER TABLE withdrawal_requests_0050 RENAME TO withdrawal_requests;
CREATE INDEX withdrawal_requests_by_created ON withdrawal_requests (profile, created_at, id);
CREATE INDEX withdrawal_requests_by_state ON withdrawal_requests (profile, state, created_at, id);

-- Operators of a profile: who may try a passphrase (with the lockout) and their sealed keys. Roles, status and
-- parties are NOT here: they come from the signed roster statements in audit_log.
CREATE TABLE operators (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  profile         TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  name            TEXT NOT NULL COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 64),
  failed_attempts INTEGER NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
  locked_until    INTEGER,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  UNIQUE (profile, name)
) STRICT;

CREATE TABLE operator_keys (
  operator_id     INTEGER NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  key_id          TEXT NOT NULL CHECK (key_id <> ''),
  public_key      TEXT NOT NULL CHECK (public_key <> ''),
  sealed_key_json TEXT NOT NULL CHECK (json_valid(sealed_key_json)),
  created_at      INTEGER NOT NULL,
  PRIMARY KEY (operator_id, key_id)
) STRICT, WITHOUT ROWID;

-- The signed audit log: one statement per row, signed by an operator or by the desk key; the statement's own
-- seq and prev (inside the signature) chain the rows. The other columns repeat statement fields for queries, and
-- verification checks they still agree with the statement.
CREATE TABLE audit_log (
  seq        INTEGER PRIMARY KEY CHECK (seq >= 1),
  at         INTEGER NOT NULL,
  profile    TEXT,
  kind       TEXT NOT NULL CHECK (kind <> ''),
  action     TEXT NOT NULL CHECK (action <> ''),
  operator   TEXT,
  subject    TEXT NOT NULL,
  key_id     TEXT NOT NULL CHECK (key_id <> ''),
  statement  TEXT NOT NULL CHECK (json_valid(statement)),
  signature  TEXT NOT NULL CHECK (signature <> ''),
  prev_hash  TEXT NOT NULL CHECK (${HEX64('prev_hash')}),
  hash       TEXT NOT NULL UNIQUE CHECK (${HEX64('hash')})
) STRICT;
CREATE INDEX audit_log_by_subject ON audit_log (profile, subject, seq);
CREATE INDEX audit_log_by_kind ON audit_log (profile, kind, seq);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: rows cannot be changed');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: rows cannot be deleted');
END;
CREATE TRIGGER audit_log_extends_chain BEFORE INSERT ON audit_log
WHEN NEW.seq IS NOT COALESCE((SELECT MAX(seq) FROM audit_log), 0) + 1
  OR NEW.prev_hash IS NOT COALESCE((SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1), '${'0'.repeat(64)}')
BEGIN
  SELECT RAISE(ABORT, 'audit_log: a new row must extend the chain (seq = last seq + 1, prev_hash = last hash)');
END;

-- This database's identity: the key under which this workstation's keychain anchors its audit head.
INSERT INTO settings (key, value_json, updated_at) VALUES ('desk.id', json_quote(lower(hex(randomblob(16)))), 0)
  ON CONFLICT (key) DO NOTHING;
`;

export const migration0050: Migration = {
  version: 50,
  name: 'signed-approvals',
  rebuildsReferencedTables: true,
  up(db) {
    db.exec(SCHEMA_0050);
  },
};
