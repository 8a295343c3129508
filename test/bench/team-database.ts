// Bench support: starts each team bench on an empty team schema of the throwaway PostgreSQL, dropped as its owner
// (the workstation role may not drop it; the next store's initialise migrates it again as that owner).
import pg from 'pg';
import { TEAM_SCHEMA } from '../../electron/core/team/pg-migrations';

export async function emptyTeamSchema(ownerUrl: string): Promise<void> {
  const owner = new pg.Client({ connectionString: ownerUrl });
  await owner.connect();
  try {
    await owner.query(`DROP SCHEMA IF EXISTS ${TEAM_SCHEMA} CASCADE`);
  } finally {
    await owner.end();
  }
}
