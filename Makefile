# Chairside — the two front doors are `make run` and `make test`.
# Both install what they need on a fresh Debian machine (npm packages, and
# Debian's Chromium and its headless shell for the browser tests), build the web app, embed it in
# the Go binary and go from there.

GO      ?= go
BIN     := bin/chairside
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/chairside/chairside.Version=$(VERSION)
CHROMIUM := /usr/bin/chromium
# The browser tests run the same Chromium's headless shell (web/e2e/chromium.mjs).
CHROMIUM_SHELL := /usr/bin/chromium-headless-shell

.PHONY: run run-sim build web deps test test-go test-web test-e2e generate bench bench-decision lint perf clean

## run: build everything and start the server with the sandbox lenders and demo data
run: build
	./$(BIN) serve -env dev -sandbox-latency 1s -sandbox-funding-day 20s -messaging-standins

## run-sim: like run, with Synchrony and Vive reached over HTTP through the lender simulator (extra arguments: SIM="-fault vive_standard=slow:30s")
run-sim: build
	./scripts/run-sim.sh $(SIM)

## build: the web app, then the Go binary with it embedded
build: web
	$(GO) build -trimpath -tags webdist -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/chairside

web: web/node_modules/.package-lock.json
	cd web && npm run build

# npm ci only when the lock file changed since the last install. An npm
# package ships Go code (flatted); a go.mod marks node_modules as another
# module, so ./... means this module's packages only.
web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	printf 'module chairside.invalid/node_modules\n' > web/node_modules/go.mod
	@touch $@

$(CHROMIUM) $(CHROMIUM_SHELL):
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium chromium-headless-shell

deps: web/node_modules/.package-lock.json $(CHROMIUM) $(CHROMIUM_SHELL)

## test: every suite and the linters, beside each other (docs/testing.md), ending with one summary line
test: deps build
	./scripts/test.sh

## test-go: the Go tests alone (then the race detector on the concurrent packages' racing tests; PostgreSQL at 127.0.0.1:5432)
test-go:
	./scripts/test.sh go

## test-web: the web unit tests alone (Vitest)
test-web: web/node_modules/.package-lock.json
	./scripts/test.sh web

## test-e2e: the browser tests alone (Playwright, Debian's Chromium, the built binary)
test-e2e: deps build
	./scripts/test.sh e2e

## generate: rewrite what is generated from a source of truth — the web app's API types, the browser's copies of the Go catalogue, validation tables and log codes and routes, the settings table of docs/running.md
generate: web/node_modules/.package-lock.json
	cd web && npm run gen:api
	$(GO) run ./tools/generate

## bench: the whole journey over real HTTP at 32 sessions, SQLite and PostgreSQL, beside hello-world; the client on a core of its own
bench: build
	$(GO) build -o bin/chairside-bench ./cmd/chairside-bench
	mkdir -p reports
	./bin/chairside-bench -bin bin/chairside -journeys 2000 -profile reports/bench-sqlite.pprof
	@echo "Where the SQLite server's CPU time went (closed and paced runs together):"
	$(GO) tool pprof -top -nodecount 30 bin/chairside reports/bench-sqlite.pprof 2>/dev/null | sed -n '4,36p'

## bench-decision: how long a patient waits for a decision, one lender and a cascade of three, with the sandbox lenders taking 1 s and 200 ms, 32 patients at once, SQLite and PostgreSQL
bench-decision: build
	$(GO) build -o bin/chairside-bench ./cmd/chairside-bench
	./bin/chairside-bench decision -bin bin/chairside

## lint: static checks for both halves (gofmt, go vet, staticcheck, function length; the web app's npm run lint)
lint: web/node_modules/.package-lock.json
	./scripts/lint.sh

## perf: Lighthouse's command line (mobile, a fresh browser a run, three runs) on the idle screen and both offices' links, the journey's screens, and the first route's JS size
perf: build $(CHROMIUM)
	cd web && npm run perf

clean:
	rm -rf bin reports web/dist
