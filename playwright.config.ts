// Playwright configuration for the renderer's end-to-end tests: Debian's Chromium (Playwright's own browser download
// is impossible here), one harness + real engine per test, screenshots of every screen under test-results/screenshots.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './test/harness/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  // The Node project's settings: the root tsconfig references the web one, whose `paths` map a module to types only.
  tsconfig: './tsconfig.node.json',
  // Not test-results/ itself: Playwright empties its outputDir, and other tools keep files there.
  outputDir: 'test-results/e2e-artifacts',
  globalSetup: './test/e2e/global-setup.ts',
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // Files run side by side, one per core (each test has its own harness, engine, data folder and keychain service; the
  // only spec on the shared PostgreSQL, team.spec.ts, runs its tests one after the other in one worker).
  fullyParallel: false,
  workers: '100%',
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] },
    viewport: { width: 1400, height: 900 },
    testIdAttribute: 'data-testid',
    // A failing test's screenshots come from the desk fixture (support/desk.ts, failureScreenshots): Playwright's
    // 'only-on-failure' also shoots every page as its context closes, passing tests included (0.3-0.5 s each).
    screenshot: 'off',
    trace: 'off',
    actionTimeout: 20_000,
  },
});
