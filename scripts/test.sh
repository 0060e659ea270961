#!/usr/bin/env bash
# Runs every test suite — Go (unit, store on SQLite and PostgreSQL, API),
# web unit tests and browser tests — and the linters of both halves
# (scripts/lint.sh), and ends with one line "tests: N passed, N failed,
# N skipped" summed over all of them. A lint failure fails the run as a
# failed test does: the script exits non-zero. `make test` calls this after
# building the binary with the web app in it.
#
# The browser tests start first, in the background; the other suites run
# one after another beside them. On two cores the run is CPU-bound
# throughout (docs/testing.md, "How the run is kept fast").
#
# With an argument, only that suite runs: go, web or e2e (make test-go,
# test-web, test-e2e), still ending with its summary line.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports
only=${1:-all}
case "$only" in all | go | web | e2e) ;; *)
	echo "usage: scripts/test.sh [go|web|e2e]" >&2
	exit 2
	;;
esac
want() { [ "$only" = all ] || [ "$only" = "$1" ]; }
rm -f reports/go.json reports/go-binary.json reports/go.status reports/vitest.json reports/vitest.log reports/playwright.json reports/playwright.log

status=0
step() { echo; echo "==> $*"; }
# What runs beside the browser tests yields the CPU to them: run at the
# same priority, Vitest's and the browser tests' own time-outs were met
# on a loaded machine (docs/testing.md).
beside=
if want e2e; then beside="nice -n 10"; fi

if want e2e; then
	step "browser tests (playwright, Debian chromium), in the background: reports/playwright.log"
	(cd web && PLAYWRIGHT_JSON_OUTPUT_NAME=../reports/playwright.json npx playwright test --reporter=list,json) > reports/playwright.log 2>&1 &
	e2e_pid=$!
fi

if want go; then
	# This module's packages: ./... would also take in Go code that an npm
	# package ships under web/node_modules. Every package's tests run
	# without the race detector, several times faster. The detector then
	# watches the tests that make callers race: those of the packages whose
	# own code shares state between goroutines (the journey's claims, the
	# store, the office's loops, the lenders) that start goroutines
	# themselves, listed by tools/racetests (docs/testing.md, "How the run
	# is kept fast"). The binary's tests never take it: their concurrency
	# is between processes, where it sees nothing.
	go_status=0
	mapfile -t pkgs < <(go list ./... | grep -v /node_modules/)
	racy_dirs=(flow store store/storetest office lender/httplender lender/lendersim lender/sandbox)
	race_run=$(go run ./tools/racetests "${racy_dirs[@]}") || go_status=1
	step "go test: every package, then the race detector on the tests of ${#racy_dirs[@]} packages that start goroutines"
	# -trimpath keeps the checkout's folder out of what is compiled, so a
	# fresh clone elsewhere finds its unchanged packages in Go's build
	# cache instead of compiling them again.
	# go test stops a package after 10 minutes by default; beside the
	# browser tests on a busy machine a package has come near that, and a
	# stopped package loses its results. CI allows 90 minutes for the
	# whole run.
	# The binary's tests mostly wait (servers started and killed, leases
	# running out): they start at once beside the others instead of last,
	# so their waiting overlaps the others' work.
	# go vet runs once over the module in lint (scripts/lint.sh), so the
	# test runs leave it off (-vet=off) rather than vet every package again.
	mapfile -t plain < <(printf '%s\n' "${pkgs[@]}" | grep -v '/cmd/chairside$')
	$beside go test -trimpath -vet=off -timeout 30m -json -count=1 ./cmd/chairside > reports/go-binary.json &
	binary_pid=$!
	$beside go test -trimpath -vet=off -timeout 30m -json -count=1 "${plain[@]}" > reports/go.json || go_status=1
	$beside go test -trimpath -vet=off -race -timeout 30m -json -count=1 -run "$race_run" "${racy_dirs[@]/#/./}" >> reports/go.json || go_status=1
	wait "$binary_pid" || go_status=1
	cat reports/go-binary.json >> reports/go.json
	[ $go_status = 0 ] || status=1
fi

if want web; then
	step "web unit tests (vitest)"
	(cd web && $beside npx vitest run --reporter=default --reporter=json --outputFile=../reports/vitest.json) | tee reports/vitest.log || status=1
fi

lint=0
if [ "$only" = all ]; then
	step "lint (gofmt, go vet, staticcheck, function length, generated files, web)"
	# The Go tests just run include the generated files' freshness checks.
	GENERATED_CHECKED=1 $beside ./scripts/lint.sh || lint=1
	# make test has just built the app: the first route's JavaScript stays
	# within its budget (docs/performance.md, "The first route's budget").
	step "the first route's JavaScript (web/scripts/js-size.mjs)"
	(cd web && node scripts/js-size.mjs) || lint=1
fi

if want e2e; then
	wait "$e2e_pid" || status=1
	step "browser tests (playwright): the log"
	cat reports/playwright.log
fi

step "summary"
sum=()
want go && sum+=(-go reports/go.json)
want web && sum+=(-vitest reports/vitest.json)
want e2e && sum+=(-playwright reports/playwright.json)
go run ./tools/testsum "${sum[@]}" || status=1
if [ "$only" = all ]; then
	# Both validators ran the same conformance cases (validate/testdata).
	go_cases=$(grep -o 'conformance: [0-9]* cases' reports/go.json | grep -o '[0-9]\+' | head -1)
	web_cases=$(grep -o 'conformance: [0-9]* cases' reports/vitest.log | grep -o '[0-9]\+' | head -1)
	echo "conformance: Go ${go_cases:-no} cases, browser ${web_cases:-no} cases"
	if [ -z "$go_cases" ] || [ "$go_cases" != "$web_cases" ]; then
		echo "conformance: the two validators did not run the same cases"
		status=1
	fi
fi
if [ $lint -ne 0 ]; then
	echo "lint: failed (see the lint steps above)"
	status=1
fi
exit $status
