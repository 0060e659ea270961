#!/usr/bin/env bash
# Runs every static check of both halves and exits non-zero when any
# fails, after running them all:
#   Go: gofmt, go vet, staticcheck (pinned in go.mod as a tool, so a clean
#       clone fetches the same version), flow not importing seal, and no
#       function over 80 lines outside tests (tools/funclen);
#   generated files: what `make generate` writes is what the sources give
#       (the API types are checked by the web's lint:api);
#   web: `npm run lint` in web/ (the one place the web app's types are
#       checked: the build leaves it to lint).
# `make lint` runs it, and so does scripts/test.sh.
set -uo pipefail
cd "$(dirname "$0")/.."

status=0
step() { echo; echo "==> lint: $*"; }
fail() { echo "lint: $* failed"; status=1; }

# This module's packages. ./... would also take in Go code that an npm
# package ships under web/node_modules.
mapfile -t pkgs < <(go list ./... | grep -v /node_modules/)
mapfile -t dirs < <(go list -f '{{.Dir}}' "${pkgs[@]}" | sed "s|^$PWD/||; s|^$PWD\$|.|")

step "gofmt"
unformatted=$(gofmt -l "${dirs[@]}")
if [ -n "$unformatted" ]; then
	echo "$unformatted"
	fail "gofmt (run gofmt -w on the files above)"
fi

step "go vet"
go vet "${pkgs[@]}" || fail "go vet"

step "staticcheck"
go tool staticcheck "${pkgs[@]}" || fail "staticcheck"

step "flow does not import seal"
# The application service speaks in blind indexes, never in keys: only the
# store and the binary's wiring hold the keyring.
if go list -deps ./flow | grep -qx 'github.com/chairside/chairside/seal'; then
	fail "flow imports seal"
fi

step "function length"
go run ./tools/funclen -max 80 "${dirs[@]}" || fail "function length"

# The freshness checks are Go tests: scripts/test.sh, which has just run
# every Go test, says so with GENERATED_CHECKED=1 rather than build and run
# them a second time.
if [ -z "${GENERATED_CHECKED:-}" ]; then
	step "generated files are fresh (make generate rewrites them)"
	go test -count=1 -run '^(TestBrowserCatalogue|TestBrowserTables|TestSettingsTable|TestBrowserClientLog)$' ./locale/ ./validate/ ./cmd/chairside/ ./flow/ || fail "generated files (run make generate)"
fi

step "web (npm run lint)"
(cd web && npm run lint) || fail "npm run lint"

exit $status
