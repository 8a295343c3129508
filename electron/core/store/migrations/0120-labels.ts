// Migration 0120: labels and notes people put on deposits, withdrawals and deposit addresses (one table, keyed like a
// BIP-329 line: type and ref), and a note beside the label the address book already had (its label stays the one
// place a book entry's label lives). Labels are hints for people, never inputs to decisions.
import type { Migration } from './runner';

export const SCHEMA_0120 = `
CREATE TABLE labels (
  profile    TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  type       TEXT NOT NULL CHECK (type IN ('deposit', 'withdrawal', 'addr')),
  ref        TEXT NOT NULL CHECK (length(ref) BETWEEN 1 AND 200),
  label      TEXT NOT NULL CHECK (length(label) <= 200),
  note       TEXT CHECK (note IS NULL OR length(note) <= 1000),
  updated_at INTEGER NOT NULL,
  updated_by TEXT NOT NULL CHECK (updated_by <> ''),
  PRIMARY KEY (profile, type, ref)
) STRICT;
CREATE INDEX labels_by_text ON labels (profile, label COLLATE NOCASE);
ALTER TABLE address_book ADD COLUMN note TEXT CHECK (note IS NULL OR length(note) <= 1000);
`;

export const migration0120: Migration = {
  version: 120,
  name: 'labels',
  up(db) {
    db.exec(SCHEMA_0120);
  },
};
