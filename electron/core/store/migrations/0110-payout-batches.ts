// Migration 0110: batch payouts (issue 13). A batch is one signed intent over many withdrawals: its row caches the
// signed batch intent and its fingerprint; each of its lines is an ordinary withdrawal request (so it is submitted,
// resumed and tracked by the same code as a single withdrawal) that names its batch by `batch_hash`, and
// `payout_lines` keeps each line's number in the imported file. The columns are caches: every decision is checked
// from the batch's signed statements (APPROVALS.md), never from these rows.
import type { Migration } from './runner';

const HEX64 = (column: string): string => `length(${column}) = 64 AND ${column} NOT GLOB '*[^0-9a-f]*'`;

export const SCHEMA_0110 = `
ALTER TABLE withdrawal_requests ADD COLUMN batch_hash TEXT CHECK (batch_hash IS NULL OR (${HEX64('batch_hash')}));
CREATE INDEX withdrawal_requests_by_batch ON withdrawal_requests (batch_hash) WHERE batch_hash IS NOT NULL;

CREATE TABLE payout_batches (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  profile      TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE,
  batch_hash   TEXT NOT NULL UNIQUE CHECK (${HEX64('batch_hash')}),
  fingerprint  TEXT NOT NULL,
  batch_json   TEXT NOT NULL CHECK (json_valid(batch_json)),
  source_name  TEXT NOT NULL CHECK (length(source_name) BETWEEN 1 AND 255),
  initiator    TEXT NOT NULL CHECK (initiator <> ''),
  line_count   INTEGER NOT NULL CHECK (line_count > 0),
  request_seq  INTEGER NOT NULL,
  created_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX payout_batches_by_created ON payout_batches (profile, created_at, id);

CREATE TABLE payout_lines (
  batch_id    INTEGER NOT NULL REFERENCES payout_batches(id),
  line        INTEGER NOT NULL CHECK (line > 0),
  request_id  INTEGER NOT NULL UNIQUE REFERENCES withdrawal_requests(id),
  PRIMARY KEY (batch_id, line)
) STRICT, WITHOUT ROWID;
`;

export const migration0110: Migration = {
  version: 110,
  name: 'payout-batches',
  up(db) {
    db.exec(SCHEMA_0110);
  },
};
