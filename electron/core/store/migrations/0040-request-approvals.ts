// Migration 0040: a withdrawal request keeps the number of approvals its policy required when it was made (a later
// policy change never lowers the bar for a pending request) and the reason its last submission failed.
import type { Migration } from './runner';

export const SCHEMA_0040 = `
ALTER TABLE withdrawal_requests ADD COLUMN required_approvals INTEGER NOT NULL DEFAULT 1
  CHECK (required_approvals BETWEEN 1 AND 5);
ALTER TABLE withdrawal_requests ADD COLUMN last_error TEXT;
`;

export const migration0040: Migration = {
  version: 40,
  name: 'request-approvals',
  up(db) {
    db.exec(SCHEMA_0040);
  },
};
