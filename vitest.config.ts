// Vitest configuration: unit and integration tests under test/, run in Node. The team desk's tests share one
// PostgreSQL cluster (scripts/with-postgres.sh) and some stop and restart it, so they run one file at a time in their
// own project; everything else runs in parallel beside them.
import { defineConfig } from 'vitest/config';

const TEAM_TESTS = 'test/integration/team/**/*.test.ts';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**', 'node_modules/**', TEAM_TESTS] } },
      { extends: true, test: { name: 'team', include: [TEAM_TESTS], fileParallelism: false } },
    ],
  },
});
