// Migration 0020: substring search over deposits (txid, address, fromAddress, userOrder, apiOrder) with an FTS5
// trigram index kept in sync by triggers, and backfilled from existing rows. Skipped, leaving the store on its
// slower scan fallback, when this SQLite build lacks FTS5 or the trigram tokenizer (SQLite < 3.34).
import { trigramAvailable, type Migration } from './runner';

const DEPOSIT_SEARCH_TABLE = 'deposits_search';
const DEPOSIT_SEARCH_INSERT_TRIGGER = 'deposits_search_insert';

const COLUMNS = 'txid, address, from_address, user_order, api_order';

export const SCHEMA_0020 = `
-- External content: the text lives once, in deposits; the index holds trigrams only. detail=none: no positions
-- (half the size; a search ANDs the fragment's trigrams and then tests the rows for the exact substring).
-- columnsize=0: no ranking needed.
CREATE VIRTUAL TABLE ${DEPOSIT_SEARCH_TABLE} USING fts5(
  ${COLUMNS},
  content = 'deposits', content_rowid = 'id', tokenize = 'trigram', detail = none, columnsize = 0
);
CREATE TRIGGER ${DEPOSIT_SEARCH_INSERT_TRIGGER} AFTER INSERT ON deposits BEGIN
  INSERT INTO ${DEPOSIT_SEARCH_TABLE} (rowid, ${COLUMNS})
  VALUES (new.id, new.txid, new.address, new.from_address, new.user_order, new.api_order);
END;
CREATE TRIGGER deposits_search_delete AFTER DELETE ON deposits BEGIN
  INSERT INTO ${DEPOSIT_SEARCH_TABLE} (${DEPOSIT_SEARCH_TABLE}, rowid, ${COLUMNS})
  VALUES ('delete', old.id, old.txid, old.address, old.from_address, old.user_order, old.api_order);
END;
CREATE TRIGGER deposits_search_update AFTER UPDATE OF id, ${COLUMNS} ON deposits BEGIN
  INSERT INTO ${DEPOSIT_SEARCH_TABLE} (${DEPOSIT_SEARCH_TABLE}, rowid, ${COLUMNS})
  VALUES ('delete', old.id, old.txid, old.address, old.from_address, old.user_order, old.api_order);
  INSERT INTO ${DEPOSIT_SEARCH_TABLE} (rowid, ${COLUMNS})
  VALUES (new.id, new.txid, new.address, new.from_address, new.user_order, new.api_order);
END;
INSERT INTO ${DEPOSIT_SEARCH_TABLE} (${DEPOSIT_SEARCH_TABLE}) VALUES ('rebuild');
`;

export const migration0020: Migration = {
  version: 20,
  name: 'deposit-search',
  up(db) {
    if (!trigramAvailable(db)) return;
    db.exec(SCHEMA_0020);
  },
};
