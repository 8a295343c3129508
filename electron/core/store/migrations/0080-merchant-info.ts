// Migration 0080: the last verified merchantInfo answer per profile, kept whole (PROTOCOL §8: fields the desk does not
// know are kept, not dropped): the merchant's name, API version, allowed withdrawal types and auditor messenger, which
// the desk checks a withdrawal against before anyone approves it.
import type { Migration } from './runner';

export const SCHEMA_0080 = `
CREATE TABLE merchant_info (
  profile     TEXT PRIMARY KEY REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  record_json TEXT NOT NULL CHECK (json_valid(record_json) AND json_type(record_json) = 'object'),
  fetched_at  INTEGER NOT NULL
) STRICT;
`;

export const migration0080: Migration = {
  version: 80,
  name: 'merchant-info',
  up(db) {
    db.exec(SCHEMA_0080);
  },
};
