// Prints the closing lines CI reads: each failure by file and name with the first lines of its error, then
// "N passed, N failed", from vitest's and Playwright's JSON reports plus the gates.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [vitestReportPath, playwrightReportPath, passedGatesText, failedGatesText] = process.argv.slice(2);
let passed = Number(passedGatesText ?? 0);
let failed = Number(failedGatesText ?? 0);
let skipped = 0;
/** One line per failure, printed last so that the tail of a long log still names them. */
const failures = [];

function readReport(path, name) {
  if (path && existsSync(path)) return JSON.parse(readFileSync(path, 'utf8'));
  failed += 1;
  failures.push(`no ${name} report was written (${path})`);
  return undefined;
}

/** The first lines of an error, without terminal colours, indented under its test. */
function firstLines(text, count = 4) {
  return String(text ?? '')
    // eslint-disable-next-line no-control-regex -- strips the terminal's colour escapes from reporters' messages
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(0, count)
    .map((line) => `      ${line}`)
    .join('\n');
}

// Vitest's reports: one per project run (scripts/vitest-projects.sh), comma-separated.
for (const path of (vitestReportPath ?? '').split(',')) {
  const vitest = readReport(path, 'vitest');
  if (!vitest) continue;
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
  for (const suite of vitest.testResults ?? []) {
    const file = relative(process.cwd(), suite.name);
    for (const test of suite.assertionResults) {
      if (test.status === 'failed') failures.push(`  ${file} › ${test.fullName}\n${firstLines(test.failureMessages?.join('\n'))}`);
    }
    // A file that failed outside its tests (it did not load, a hook threw, a worker died) counts once.
    if (suite.status === 'failed' && !suite.assertionResults.some((test) => test.status === 'failed')) {
      failed += 1;
      failures.push(`  ${file} (the file, outside its tests)\n${firstLines(suite.message)}`);
    }
  }
  // Errors outside any file (an unhandled rejection after a test ended) make vitest fail without a failed test.
  const anyFileFailed = (vitest.testResults ?? []).some((suite) => suite.status === 'failed');
  if (vitest.success === false && vitest.numFailedTests === 0 && !anyFileFailed) {
    failed += 1;
    failures.push(`  ${path}: vitest reported an error outside every test (an unhandled error); its log says which`);
  }
}

const playwright = readReport(playwrightReportPath, 'Playwright');
if (playwright) {
  // Retries are off, so "flaky" cannot occur; count it as failed if it ever does.
  passed += playwright.stats.expected;
  failed += playwright.stats.unexpected + playwright.stats.flaky;
  skipped += playwright.stats.skipped;
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const error = test.results?.flatMap((result) => result.errors ?? []).map((e) => e.message).join('\n');
          failures.push(`  ${spec.file}:${spec.line} › ${spec.title}\n${firstLines(error)}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of playwright.suites ?? []) walk(suite);
  // An error outside any test (global setup, a spec that fails to load) leaves no test counted.
  for (const error of playwright.errors ?? []) {
    failed += 1;
    failures.push(`  Playwright, outside every test\n${firstLines(error.message)}`);
  }
}

if (failures.length > 0) console.log(`=== failures:\n${failures.join('\n')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed === 0 ? 0 : 1;
