// Prints the closing line CI reads, "N passed, N failed", from vitest's and Playwright's JSON reports plus the gates.
import { existsSync, readFileSync } from 'node:fs';

const [vitestReportPath, playwrightReportPath, passedGatesText, failedGatesText] = process.argv.slice(2);
let passed = Number(passedGatesText ?? 0);
let failed = Number(failedGatesText ?? 0);
let skipped = 0;

function readReport(path, name) {
  if (path && existsSync(path)) return JSON.parse(readFileSync(path, 'utf8'));
  failed += 1;
  console.log(`no ${name} report was written (${path})`);
  return undefined;
}

// Vitest's reports: one per project run (scripts/vitest-projects.sh), comma-separated.
for (const path of (vitestReportPath ?? '').split(',')) {
  const vitest = readReport(path, 'vitest');
  if (!vitest) continue;
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
  // A suite that failed to load has no tests counted: count it as a failure.
  failed += (vitest.testResults ?? []).filter((suite) => suite.status === 'failed' && suite.assertionResults.length === 0).length;
}

const playwright = readReport(playwrightReportPath, 'Playwright');
if (playwright) {
  // Retries are off, so "flaky" cannot occur; count it as failed if it ever does.
  passed += playwright.stats.expected;
  failed += playwright.stats.unexpected + playwright.stats.flaky;
  skipped += playwright.stats.skipped;
  // An error outside any test (global setup, a spec that fails to load) leaves no test counted.
  failed += (playwright.errors ?? []).length;
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed === 0 ? 0 : 1;
