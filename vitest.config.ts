// Vitest configuration: unit and integration tests under test/, run in Node. The team desk's tests share one
// PostgreSQL cluster (scripts/with-postgres.sh) and some stop and restart it, so they run one file at a time in their
// own project. The test command runs "unit", "integration" and "integration-shared" in one process and "long" then
// "team" in another, side by side (scripts/vitest-projects.sh): in one process vitest runs such a project only after
// the others.
import { defineConfig } from 'vitest/config';

const TEAM_TESTS = 'test/integration/team/**/*.test.ts';
/**
 * Integration files long enough to even out the two processes of the test command: they run isolated as the other
 * integration files do, but in the team project's process, before it. Chosen from the CI's "slowest files" table
 * (scripts/slowest-files.mjs): with them in the suite's process it ran ~850 s while the team's ran ~580 s, one core
 * idle for the difference.
 */
const LONG_TESTS = [
  'test/integration/approvals/crash.test.ts',
  'test/integration/engine/faults-kill.test.ts',
  'test/integration/engine/history.test.ts',
  'test/integration/engine/sync-kill.test.ts',
];

/**
 * Integration files that open no keychain connection, mock nothing process-wide and change no environment (the
 * sandbox's and the protocol client's own, the roster's rules, the update check): they share a worker's module graph
 * as unit files do (project 'integration-shared'), each saving a process start and the imports of the sandbox and
 * the protocol. A file that opens a desk (engine/, approvals/, cli/ support) or the keychain stays isolated.
 */
const SHARED_INTEGRATION_TESTS = [
  'test/integration/sandbox/**/*.test.ts',
  'test/integration/protocol/**/*.test.ts',
  'test/integration/approvals/parties.test.ts',
  'test/integration/release-updates.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Operator keys are sealed at a test cost in test processes (test/support/fast-seals.ts says why).
    setupFiles: ['test/support/fast-seals.ts'],
    // The run's folder of child-process bundles: each script is bundled once per run, not once per isolated file.
    globalSetup: ['test/support/child-bundles-setup.ts'],
    projects: [
      // Unit tests share each worker's module graph (isolate: false, vitest's recipe for unit suites): importing the
      // engine afresh for each of ~150 files was their largest cost after the tests (213 CPU-seconds isolated, 112
      // shared, the same 3,509 tests passing). Integration files stay isolated, each in a process of its own: shared,
      // one process ran them all and kept every file's keychain connections open, and past 1,024 descriptors the
      // keychain binding's select() spun for good (a CI run hung there).
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**', 'test/e2e/**', 'node_modules/**', TEAM_TESTS, ...LONG_TESTS, ...SHARED_INTEGRATION_TESTS],
        },
      },
      { extends: true, test: { name: 'integration-shared', include: SHARED_INTEGRATION_TESTS, isolate: false } },
      { extends: true, test: { name: 'long', include: LONG_TESTS } },
      { extends: true, test: { name: 'team', include: [TEAM_TESTS], fileParallelism: false } },
    ],
  },
});
