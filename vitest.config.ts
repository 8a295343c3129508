// Vitest configuration: unit and integration tests under test/, run in Node. The team desk's tests share one
// PostgreSQL cluster (scripts/with-postgres.sh) and some stop and restart it, so they run one file at a time in their
// own project. The test command runs the two projects as two processes side by side (scripts/vitest-projects.sh): in
// one process vitest runs such a project only after the others.
import { defineConfig } from 'vitest/config';

const TEAM_TESTS = 'test/integration/team/**/*.test.ts';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Operator keys are sealed at a test cost in test processes (test/support/fast-seals.ts says why).
    setupFiles: ['test/support/fast-seals.ts'],
    projects: [
      // The suite's files share each worker's module graph (isolate: false): importing the engine afresh for each of
      // its ~250 files was the largest cost after the tests themselves (test/unit: 213 CPU-seconds isolated, 112
      // shared, same 3,509 tests passing). A file that changes process-wide state restores it in its own hooks.
      {
        extends: true,
        test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**', 'node_modules/**', TEAM_TESTS], isolate: false },
      },
      { extends: true, test: { name: 'team', include: [TEAM_TESTS], fileParallelism: false } },
    ],
  },
});
