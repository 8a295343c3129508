// Prints where a test run's time went, from vitest's JSON reports (test-results/vitest-*.json): per project its wall
// time, the sum of its files' test time, and its slowest files (default 15). Reads the reports only; never fails a run.
//
//   node scripts/slowest-files.mjs [--top N] [test-results/vitest-suite.json test-results/vitest-team.json ...]
//
// Vitest's report times a file from its first test's start to its last test's end: the file's set-up (a worker
// started, modules imported, beforeAll hooks such as opening a desk or starting workstations) is outside that span.
// So each file is also charged the idle span before its first test since the previous file of its project ended
// ("with set-up"); with several workers at once the spans overlap and that column is only an estimate.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const args = process.argv.slice(2);
let top = 15;
const paths = [];
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--top') top = Number(args[(i += 1)]);
  else paths.push(args[i]);
}
if (!Number.isInteger(top) || top < 1) {
  console.error('slowest-files: --top needs a whole number of files, at least 1 (e.g. --top 15)');
  process.exit(2);
}
if (paths.length === 0) paths.push('test-results/vitest-suite.json', 'test-results/vitest-team.json');

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

for (const path of paths) {
  if (!existsSync(path)) {
    console.log(`=== slowest files: no report at ${path} (run the tests first)`);
    continue;
  }
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const files = (report.testResults ?? [])
    .filter((file) => Number.isFinite(file.startTime) && Number.isFinite(file.endTime))
    .map((file) => ({ name: relative(process.cwd(), file.name), start: file.startTime, end: file.endTime, tests: file.assertionResults?.length ?? 0 }))
    .sort((x, y) => x.start - y.start);
  if (files.length === 0) {
    console.log(`=== slowest files: ${path} holds no timed file`);
    continue;
  }
  // The idle span before a file's first test (since the last file that had ended by then, or the run's start).
  let runStart = Number(report.startTime);
  if (!Number.isFinite(runStart) || runStart > files[0].start) runStart = files[0].start;
  const ends = [];
  for (const file of files) {
    const before = ends.filter((end) => end <= file.start);
    file.withSetup = file.end - (before.length > 0 ? Math.max(...before) : runStart);
    ends.push(file.end);
  }
  const wall = Math.max(...files.map((file) => file.end)) - runStart;
  const sum = files.reduce((total, file) => total + (file.end - file.start), 0);
  const tests = files.reduce((total, file) => total + file.tests, 0);
  console.log(`=== slowest files of ${path}: ${files.length} files, ${tests} tests, wall ${seconds(wall)}, sum of files' test time ${seconds(sum)}`);
  for (const file of [...files].sort((x, y) => y.withSetup - x.withSetup).slice(0, top)) {
    console.log(`  ${seconds(file.withSetup).padStart(9)} with set-up  ${seconds(file.end - file.start).padStart(9)} tests  ${file.name} (${file.tests})`);
  }
}
