// Migration 0090: when a deposit was first seen by each way the desk learns of deposits, the callback receiver and a
// getDeposits query (issue 11, reconciliation). Before it a deposit kept only the way it was first seen (`source`), so
// a deposit called back and later listed looked like one seen by callback alone. Existing rows are backfilled from
// `source`: what the desk knew then is all it can know now. A partial index finds the desk's first callback at once.
import type { Migration } from './runner';

export const SCHEMA_0090 = `
ALTER TABLE deposits ADD COLUMN callback_seen_at INTEGER;
ALTER TABLE deposits ADD COLUMN query_seen_at INTEGER;
UPDATE deposits SET callback_seen_at = first_seen_at WHERE source = 'callback';
UPDATE deposits SET query_seen_at = first_seen_at WHERE source = 'query';
CREATE INDEX deposits_called_back ON deposits (profile, callback_seen_at) WHERE callback_seen_at IS NOT NULL;
`;

export const migration0090: Migration = {
  version: 90,
  name: 'deposit-sightings',
  up(db) {
    db.exec(SCHEMA_0090);
  },
};
