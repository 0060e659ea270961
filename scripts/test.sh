#!/usr/bin/env bash
# Runs every test suite — Go (unit, store on SQLite and PostgreSQL, API),
# web unit tests and browser tests — and ends with one line
# "tests: N passed, N failed, N skipped" summed over all of them.
# `make test` calls this after building the binary with the web app in it.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports
rm -f reports/go.json reports/vitest.json reports/playwright.json

status=0
step() { echo; echo "==> $*"; }

step "go vet"
go vet ./... || status=1

step "go test (race detector on)"
go test -race -json -count=1 ./... > reports/go.json || status=1

step "web unit tests (vitest)"
(cd web && npx vitest run --reporter=default --reporter=json --outputFile=../reports/vitest.json) || status=1

step "browser tests (playwright, Debian chromium)"
(cd web && PLAYWRIGHT_JSON_OUTPUT_NAME=../reports/playwright.json npx playwright test --reporter=list,json) || status=1

step "summary"
go run ./tools/testsum -go reports/go.json -vitest reports/vitest.json -playwright reports/playwright.json || status=1
exit $status
