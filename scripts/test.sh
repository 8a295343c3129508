#!/usr/bin/env bash
# The whole test suite (README's test command): typecheck, lint, build, security gate, unit + integration tests,
# and the renderer's end-to-end tests in Chromium through the harness (both beside a private PostgreSQL cluster).
# Every gate runs even after a failure so one run shows everything, and says how long it took ("=== NAME: ok in N s");
# the slowest test files of each vitest project follow (scripts/slowest-files.mjs); ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
# Every gate runs on the pinned Node LTS of .node-version: when called on another Node (e.g. `npm test` with the
# system's), start again through scripts/with-node.sh, which puts that Node first on PATH and sets npm_config_nodedir.
if [ "$(node --version 2>/dev/null)" != "v$(tr -d ' \r\n' <.node-version)" ]; then
  exec bash scripts/with-node.sh bash scripts/test.sh "$@"
fi
echo "=== node $(node --version) ($(command -v node)), npm $(npm --version 2>/dev/null), modules ABI $(node -p process.versions.modules)"
mkdir -p test-results

failed_gates=0
passed_gates=0
gate() {
  local name=$1; shift
  local started=$SECONDS
  echo "=== $name: $*"
  if "$@"; then passed_gates=$((passed_gates + 1)); echo "=== $name: ok in $((SECONDS - started)) s"
  else failed_gates=$((failed_gates + 1)); echo "=== $name: FAILED in $((SECONDS - started)) s"; fi
}

gate typecheck npx --no-install tsc -b --noEmit
gate lint npx --no-install eslint --max-warnings 0 .
gate build npx --no-install electron-vite build
gate security node scripts/security-gate.mjs
rm -f test-results/vitest.json test-results/vitest-suite.json test-results/vitest-team.json test-results/playwright.json
# Both run beside a throwaway PostgreSQL cluster (scripts/with-postgres.sh sets TREASURY_DESK_DATABASE_URL): the team
# desk's tests run against it, and fail rather than skip without it.
# Vitest's two projects run side by side (scripts/vitest-projects.sh), each with its own report and its own private
# Secret Service (scripts/with-keyring.sh).
gate tests bash scripts/with-postgres.sh bash scripts/vitest-projects.sh
PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json \
  gate e2e bash scripts/with-keyring.sh bash scripts/with-postgres.sh npx --no-install playwright test --reporter=list,json

# Where the vitest gate's time went (each project's wall time and slowest files); informative, never fails the run.
node scripts/slowest-files.mjs test-results/vitest-suite.json test-results/vitest-team.json || true
node scripts/summarize-results.mjs test-results/vitest-suite.json,test-results/vitest-team.json test-results/playwright.json "$passed_gates" "$failed_gates"
