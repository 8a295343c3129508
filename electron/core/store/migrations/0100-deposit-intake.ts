// Migration 0100: deposits are taken in by batches of pages (issue 11, item 10). A verified getDeposits page is first
// staged, one row of JSON committed with the walk's position (so a verified page is kept, crash or not), and the
// staged pages are moved into deposits a few thousand rows at a time: a commit per 100-row page rewrote the same
// index pages of deposits over and over. The search index (0020) is likewise brought up to date in batches instead
// of by a trigger per row: it covers every deposit up to `indexed_through`, and searches test the backlog above it
// row by row. The delete and update triggers touch the index only for rows it holds, and lower the mark when deleting
// the newest rows would let SQLite hand their ids to new, unindexed deposits. Without the search index (SQLite
// without FTS5 trigram, see 0020) only the staging table is created.
import type { Migration } from './runner';

// The search index and its insert trigger as migration 0020 made them (written out: a migration imports only its runner).
const DEPOSIT_SEARCH_TABLE = 'deposits_search';
const DEPOSIT_SEARCH_INSERT_TRIGGER = 'deposits_search_insert';
const DEPOSIT_INTAKE_TABLE = 'deposit_intake';
const DEPOSIT_SEARCH_STATE_TABLE = 'deposit_search_state';

const COLUMNS = 'txid, address, from_address, user_order, api_order';
const INDEXED_THROUGH = `(SELECT indexed_through FROM ${DEPOSIT_SEARCH_STATE_TABLE})`;
const NEWEST_ID = '(SELECT coalesce(max(id), 0) FROM deposits)';

export const SCHEMA_0100_INTAKE = `
-- Verified deposit records not yet moved into deposits, one row per page (or callback), in the order received.
CREATE TABLE ${DEPOSIT_INTAKE_TABLE} (
  id           INTEGER PRIMARY KEY,
  profile      TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  source       TEXT NOT NULL CHECK (source IN ('callback', 'query')),
  observed_at  INTEGER NOT NULL,
  records      INTEGER NOT NULL CHECK (records > 0),
  records_json TEXT NOT NULL CHECK (json_valid(records_json))
) STRICT;
`;

export const SCHEMA_0100_SEARCH = `
DROP TRIGGER ${DEPOSIT_SEARCH_INSERT_TRIGGER};
DROP TRIGGER deposits_search_delete;
DROP TRIGGER deposits_search_update;
-- One row: every deposit with id <= indexed_through is in the index, none above it is.
CREATE TABLE ${DEPOSIT_SEARCH_STATE_TABLE} (
  singleton       INTEGER PRIMARY KEY CHECK (singleton = 1),
  indexed_through INTEGER NOT NULL CHECK (indexed_through >= 0)
) STRICT;
INSERT INTO ${DEPOSIT_SEARCH_STATE_TABLE} (singleton, indexed_through) VALUES (1, ${NEWEST_ID});
CREATE TRIGGER deposits_search_delete AFTER DELETE ON deposits WHEN old.id <= ${INDEXED_THROUGH} BEGIN
  INSERT INTO ${DEPOSIT_SEARCH_TABLE} (${DEPOSIT_SEARCH_TABLE}, rowid, ${COLUMNS})
  VALUES ('delete', old.id, old.txid, old.address, old.from_address, old.user_order, old.api_order);
  -- Deleting the newest rows makes their ids free again: keep the mark at or below the newest id left.
  UPDATE ${DEPOSIT_SEARCH_STATE_TABLE} SET indexed_through = ${NEWEST_ID} WHERE indexed_through > ${NEWEST_ID};
END;
CREATE TRIGGER deposits_search_update AFTER UPDATE OF id, ${COLUMNS} ON deposits BEGIN
  INSERT INTO ${DEPOSIT_SEARCH_TABLE} (${DEPOSIT_SEARCH_TABLE}, rowid, ${COLUMNS})
  SELECT 'delete', old.id, old.txid, old.address, old.from_address, old.user_order, old.api_order WHERE old.id <= ${INDEXED_THROUGH};
  INSERT INTO ${DEPOSIT_SEARCH_TABLE} (rowid, ${COLUMNS})
  SELECT new.id, new.txid, new.address, new.from_address, new.user_order, new.api_order WHERE new.id <= ${INDEXED_THROUGH};
  UPDATE ${DEPOSIT_SEARCH_STATE_TABLE} SET indexed_through = ${NEWEST_ID} WHERE indexed_through > ${NEWEST_ID};
END;
INSERT INTO ${DEPOSIT_SEARCH_TABLE} (${DEPOSIT_SEARCH_TABLE}, rank) VALUES ('automerge', 8);
`;

export const migration0100: Migration = {
  version: 100,
  name: 'deposit-intake',
  up(db) {
    db.exec(SCHEMA_0100_INTAKE);
    const searchIndexed = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(DEPOSIT_SEARCH_TABLE);
    if (searchIndexed === 1) db.exec(SCHEMA_0100_SEARCH);
  },
};
