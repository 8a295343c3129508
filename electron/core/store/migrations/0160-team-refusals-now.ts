// Migration 0160: a team refusal says whether it still holds (issue 18, finding 8). `cleared_at` is set when a later
// check (team verify, or a pull after a halt) no longer finds the problem: team status and team verify report the
// refusals that hold now, while every refusal stays in the table (and the log) as the history.
import type { Migration } from './runner';

export const SCHEMA_0160 = `
ALTER TABLE team_refusals ADD COLUMN cleared_at INTEGER;
CREATE INDEX team_refusals_holding ON team_refusals (cleared_at, id);
`;

export const migration0160: Migration = {
  version: 160,
  name: 'team-refusals-now',
  up(db) {
    db.exec(SCHEMA_0160);
  },
};
