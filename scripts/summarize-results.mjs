// Prints the closing line CI reads, "N passed, N failed", from vitest's JSON report plus the static gates.
import { existsSync, readFileSync } from 'node:fs';

const [reportPath, passedGatesText, failedGatesText] = process.argv.slice(2);
let passed = Number(passedGatesText ?? 0);
let failed = Number(failedGatesText ?? 0);
let skipped = 0;
if (reportPath && existsSync(reportPath)) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  // A suite that failed to load has no tests counted: count it as a failure.
  failed += (report.testResults ?? []).filter((suite) => suite.status === 'failed' && suite.assertionResults.length === 0).length;
} else {
  failed += 1;
  console.log('no test report was written');
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed === 0 ? 0 : 1;
