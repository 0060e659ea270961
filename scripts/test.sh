#!/usr/bin/env bash
# Runs the linters of both halves (scripts/lint.sh) and every test suite —
# Go (unit, store on SQLite and PostgreSQL, API), web unit tests and browser
# tests — and ends with one line "tests: N passed, N failed, N skipped"
# summed over all of them. A lint failure fails the run as a failed test
# does: the script exits non-zero. `make test` calls this after building
# the binary with the web app in it.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports
rm -f reports/go.json reports/go.status reports/vitest.json reports/vitest.log reports/playwright.json

status=0
step() { echo; echo "==> $*"; }

step "lint (gofmt, go vet, staticcheck, function length, web)"
lint=0
./scripts/lint.sh || lint=1

step "web unit tests (vitest)"
(cd web && npx vitest run --reporter=default --reporter=json --outputFile=../reports/vitest.json) | tee reports/vitest.log || status=1

# The Go tests (CPU-bound) run beside the browser tests (which mostly wait
# on the browser and the server), so the two together take about as long
# as the longer one. Their output goes to reports/go.json and is summed
# below.
step "go test (race detector on), beside the browser tests"
# This module's packages: ./... would also take in Go code that an npm
# package ships under web/node_modules.
mapfile -t pkgs < <(go list ./... | grep -v /node_modules/)
(go test -race -json -count=1 "${pkgs[@]}" > reports/go.json; echo $? > reports/go.status) &
go_pid=$!

step "browser tests (playwright, Debian chromium)"
(cd web && PLAYWRIGHT_JSON_OUTPUT_NAME=../reports/playwright.json npx playwright test --reporter=list,json) || status=1

wait "$go_pid"
[ "$(cat reports/go.status 2>/dev/null)" = 0 ] || status=1

step "summary"
go run ./tools/testsum -go reports/go.json -vitest reports/vitest.json -playwright reports/playwright.json || status=1
# Both validators ran the same conformance cases (validate/testdata).
go_cases=$(grep -o 'conformance: [0-9]* cases' reports/go.json | grep -o '[0-9]\+' | head -1)
web_cases=$(grep -o 'conformance: [0-9]* cases' reports/vitest.log | grep -o '[0-9]\+' | head -1)
echo "conformance: Go ${go_cases:-no} cases, browser ${web_cases:-no} cases"
if [ -z "$go_cases" ] || [ "$go_cases" != "$web_cases" ]; then
	echo "conformance: the two validators did not run the same cases"
	status=1
fi
if [ $lint -ne 0 ]; then
	echo "lint: failed (see the lint steps above)"
	status=1
fi
exit $status
