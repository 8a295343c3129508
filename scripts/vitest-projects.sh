#!/usr/bin/env bash
# Runs vitest's projects (vitest.config.ts) as two processes side by side, each writing its JSON report under
# test-results/: "long" then "team" (a few long integration files, then the team desk's files one at a time on the
# shared PostgreSQL cluster, which some stop and restart) and the suite, "unit", "integration" and
# "integration-shared" together (everything else; no file of it uses PostgreSQL). The long files even out the two processes' wall times. In one
# process vitest 4 runs a project whose files may not overlap only after all the others, and on a 2-core machine gives
# the others one worker, so a run used one core. The suite keeps vitest's default of one worker per core but one: with two suite workers beside the team
# project on 2 cores the suite's wall time stayed the same (1,107 s against 1,123 s) while each file took twice as
# long, so its files are CPU-bound, not waiting. The team project's output goes to test-results/vitest-team.log and is
# printed after the suite's.
# Each project has a private Secret Service of its own (scripts/with-keyring.sh): gnome-keyring-daemon can abort when
# many clients open sessions at once, and one daemon serving both projects did (exit 133) in a CI run, failing
# keychain calls in both. Exits non-zero when either project fails. Usage (inside the PostgreSQL harness, as
# scripts/test.sh does):
#   bash scripts/with-postgres.sh bash scripts/vitest-projects.sh
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
rm -f test-results/vitest-suite.json test-results/vitest-team.json test-results/vitest-team.log
bash scripts/with-keyring.sh npx --no-install vitest run --project long --project team --reporter=default --reporter=json --outputFile=test-results/vitest-team.json >test-results/vitest-team.log 2>&1 &
team_pid=$!
# A run stopped from outside (Ctrl-C, a CI timeout) stops the team project too.
trap 'kill "$team_pid" 2>/dev/null' INT TERM
bash scripts/with-keyring.sh npx --no-install vitest run --project unit --project integration --project integration-shared --reporter=default --reporter=json --outputFile=test-results/vitest-suite.json
suite_status=$?
wait "$team_pid"
team_status=$?
echo "=== vitest projects long and team (test/integration/team), run beside the suite:"
cat test-results/vitest-team.log
echo "=== vitest: suite exited $suite_status, team exited $team_status"
[ "$suite_status" -eq 0 ] && [ "$team_status" -eq 0 ]
