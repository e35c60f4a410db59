# Meritmark — the two commands are `make run` and `make test` (see README.md).
SHELL := /bin/bash
.DEFAULT_GOAL := run

BIN      := bin/meritmark
GO       ?= go
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
export npm_config_fund := false
export npm_config_audit := false

GO_SOURCES := $(shell find app db ssr static -name '*.go' -not -name '*_test.go' 2>/dev/null) main.go go.mod go.sum
VIEW_SOURCES := $(shell find views -type f 2>/dev/null) app/model/badge-style.json esbuild.config.mjs package.json

.PHONY: run build assets deps test test-lint test-go test-sqlite test-postgres test-ts test-lint-js test-browser browser-deps bench-ssr bench bench-load islands soak soak-faults clean fmt vet

## deps: install the npm packages package-lock.json pins (npm ci: never rewrites the lock,
## so make run leaves a clone clean); again only when package.json or the lock changed
node_modules/.installed: package.json $(wildcard package-lock.json)
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@
deps: node_modules/.installed

## assets: build the server bundle, the client islands and the CSS
static/dist/manifest.json: node_modules/.installed $(VIEW_SOURCES)
	node esbuild.config.mjs
assets: static/dist/manifest.json

## build: one self-contained binary with every asset embedded
$(BIN): static/dist/manifest.json $(GO_SOURCES)
	@mkdir -p bin
	$(GO) build -o $(BIN) .
build: $(BIN)

## run: a fresh clone to a running site on http://localhost:8080 (SQLite, local files,
## PayPal sandbox simulator, log mail), with the demo content and admin
run: build
	@mkdir -p data
	@./$(BIN) seed
	./$(BIN) serve

## test: everything — go vet and staticcheck, ESLint, the type check, Go tests with -race on
## SQLite and PostgreSQL, and the browser tests in headless Chromium
TEST_STEPS := test-lint test-lint-js test-ts test-go test-fuzz test-credentials test-browser
test: assets
	@set -e; t0=$$(date +%s); times=""; \
	for step in $(TEST_STEPS); do \
		s=$$(date +%s); $(MAKE) --no-print-directory $$step; times="$$times $$step $$(( $$(date +%s) - s ))s"; \
	done; \
	echo "make test: passed in $$(( $$(date +%s) - t0 )) s (steps:$$times)"

## test-lint: go vet and staticcheck over every package, test files included (staticcheck
## is pinned here and fetched through the Go module proxy: no binary to install)
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
test-lint:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	@echo "lint: go vet and staticcheck passed"

test-ts: deps
	npx tsc --noEmit -p .
	@echo "typecheck: 1 passed, 0 failed"
	node --test tests/views/

## test-lint-js: ESLint over views/ (eslint.config.mjs: typescript-eslint and the React
## hooks rules); an eslint-disable comment must say why
test-lint-js: deps
	npm run --silent lint
	@echo "eslint: 1 passed, 0 failed"

## the storage suite's S3 server: versitygw (an S3 gateway over a POSIX folder), built from
## the Go module proxy once into .cache/bin; app/storage starts it on a free port per run
VERSITYGW_VERSION := v1.8.0
VERSITYGW := .cache/bin/versitygw
export MERITMARK_TEST_S3_SERVER := $(CURDIR)/$(VERSITYGW)
$(VERSITYGW):
	@mkdir -p $(@D)
	GOBIN=$(CURDIR)/$(@D) $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)

## packages tested at once: twice the cores. A package's tests spend about a third of their
## time waiting (on PostgreSQL, the disk, a server they started), so two per core kept the CPU
## busy: the Go step on both databases took 428 s against 581 s with go test's default of one
## per core (2 cores, warm build cache, 26 Nov 2026)
GO_TEST_JOBS ?= $(shell echo $$(( $$(nproc) * 2 )))
GO_TEST := $(GO) test -race -count=1 -timeout 20m -p $(GO_TEST_JOBS)
# sets pg=1 when PostgreSQL answers at 127.0.0.1:5432 (tests/pg-ensure.sh installs and
# starts it when it can), else pg=0 with a notice (under CI its absence is a failure)
PG_CHECK = if tests/pg-ensure.sh; then pg=1; \
	elif [ "$$CI" = "true" ]; then echo "PostgreSQL is not reachable at 127.0.0.1:5432: CI requires it" >&2; exit 1; \
	else echo "NOTICE: PostgreSQL is not reachable at 127.0.0.1:5432; skipping the PostgreSQL pass"; pg=0; fi

## test-go: every Go test with -race on SQLite and on PostgreSQL. go test builds and links
## each package's test binary once and tests/go-each-db.sh runs it on each database in
## turn (two go test runs would link the ~40 binaries twice); the summary sums each
## database's package run times
test-go: assets $(VERSITYGW)
	@$(PG_CHECK); dbs=sqlite; [ $$pg = 1 ] && dbs="sqlite postgres"; \
	times=$$(mktemp); trap 'rm -f $$times' EXIT; \
	MERITMARK_TEST_DBS="$$dbs" MERITMARK_TEST_TIMES=$$times $(GO_TEST) -exec $(CURDIR)/tests/go-each-db.sh ./... && rc=0 || rc=$$?; \
	awk '{ ms[$$1] += $$3; n[$$1]++; if ($$2 != 0) bad[$$1]++ } \
		END { for (db in ms) printf "go test on %s: %d package runs, %d failed, %.0f s summed\n", db, n[db], bad[db], ms[db] / 1000; \
			if (ms["sqlite"] > 0 && ms["postgres"] > 0) printf "go test: PostgreSQL/SQLite %.2fx\n", ms["postgres"] / ms["sqlite"] }' $$times; \
	exit $$rc

## test-sqlite, test-postgres: one database only
test-sqlite: assets $(VERSITYGW)
	MERITMARK_TEST_DB=sqlite $(GO_TEST) ./...

test-postgres: assets $(VERSITYGW)
	@$(PG_CHECK); [ $$pg = 0 ] || MERITMARK_TEST_DB=postgres $(GO_TEST) ./...

browser-deps: deps
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "installing Debian's chromium for the browser tests"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
		{ echo "could not install chromium" >&2; exit 1; }; \
	fi

## test-fuzz: every go test -fuzz target (parsers and validators of untrusted input) for a
## bounded 2 s each (the ordinary go test run already replays their seeds and testdata/fuzz)
.PHONY: test-fuzz fuzz
test-fuzz:
	FUZZTIME=2s bench/fuzz.sh

## fuzz: the same targets for longer (FUZZTIME=5m make fuzz; a filter: make fuzz FUZZ=coupon)
FUZZTIME ?= 30s
fuzz:
	FUZZTIME=$(FUZZTIME) bench/fuzz.sh $(FUZZ)

## test-credentials: our credentials through independent verifiers, offline (jose, the
## Digital Bazaar vc/data-integrity/eddsa-rdfc-2022/status-list libraries, Ajv with the
## official OB 3.0 schema in tests/credentials/testdata)
.PHONY: test-credentials
test-credentials: deps build
	node --test --test-concurrency=1 --test-timeout=300000 tests/credentials/

## test-browser: two test files at a time (each has its own server, data folder, SMTP sink
## and Chromium profile): on two cores one file at a time left ~40 % of the CPU idle
## waiting on the browser; BROWSER_JOBS=1 runs them one by one
BROWSER_JOBS ?= 2
## each file may run 15 minutes (a hang still fails): the a11y sweep, the longest file, took
## 228-232 s alone on a slow day (24 Nov), and past 600 s beside another file and the fuzz
## step on a loaded machine (26 Nov: its visitor sweep alone took 334 s)
test-browser: browser-deps build
	node --test --test-concurrency=$(BROWSER_JOBS) --test-timeout=900000 tests/browser/

## screenshots: the a11y sweep with a full-page screenshot of every page of the route table,
## as its role, at 1440 and 390 px (tests/browser/screenshots/page-*.png)
.PHONY: screenshots
screenshots: browser-deps build
	PAGE_SHOTS=1 node --test --test-concurrency=1 --test-timeout=1200000 tests/browser/a11y.test.mjs

## islands: what each island costs a visitor, gzipped (entry + chunks it imports statically),
## with the heaviest packages in it; budget 90 KiB (docs/performance.md)
islands:
	node esbuild.config.mjs
	node bench/islands.mjs $(ISLANDS_FLAGS)

## bench-ssr: the home page through the isolate pool vs Node's renderToString
bench-ssr: assets
	$(GO) run ./bench/ssrbench

## bench: every benchmark (SSR, HTTP end to end, the mixed load on both databases)
bench: bench-ssr build
	bench/http.sh
	$(MAKE) --no-print-directory bench-load

## bench-load: the realistic mix (70 % public pages, 20 % signed-in reads, 10 % writes)
## for 15 s on SQLite and on PostgreSQL; fails on any 5xx or a missed budget
## (SQLite >= 2,000 req/s, p99 < 100 ms). LOAD_FLAGS adds flags (bench/load -h).
LOAD_DURATION ?= 15s
bench-load: build
	$(GO) run ./bench/load -duration $(LOAD_DURATION) -strict $(LOAD_FLAGS)

## soak: the same mix for 10 minutes per database (fails on any 5xx), then soak-faults
soak: build
	$(GO) run ./bench/load -duration 10m -warmup 10s -members 3000 $(LOAD_FLAGS)
	$(MAKE) --no-print-directory soak-faults

## soak-faults: the fault tests of tests/system at length on SQLite and PostgreSQL: twelve
## kill -9 cycles over 1,200 applicants, a 30 s database outage, the two-instance journey
## (`make test` runs the short versions)
soak-faults: build
	MERITMARK_SOAK=1 MERITMARK_BIN=$(CURDIR)/$(BIN) MERITMARK_TEST_DB=sqlite $(GO) test -count=1 -timeout 30m -v ./tests/system/
	MERITMARK_SOAK=1 MERITMARK_BIN=$(CURDIR)/$(BIN) MERITMARK_TEST_DB=postgres $(GO) test -count=1 -timeout 30m -v ./tests/system/

fmt:
	gofmt -w app db ssr static main.go

vet:
	$(GO) vet ./...

clean:
	rm -rf bin static/dist/*.js static/dist/*.css static/dist/chunks static/dist/manifest.json ssr/dist/server.js
