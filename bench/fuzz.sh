#!/usr/bin/env bash
# Runs every `go test -fuzz` target of the repository (func FuzzXxx in a *_fuzz_test.go),
# one after the other (a fuzzing run takes one target), each for FUZZTIME; each package's
# instrumented test binary is built once.
# `make test` runs it with FUZZTIME=2s; `make fuzz` with 30s (FUZZTIME=5m make fuzz for a
# long run). A failing input is saved by Go under the package's testdata/fuzz/FuzzXxx/
# (commit it: it becomes a regression case of the ordinary test run).
# Usage: bench/fuzz.sh [package-or-target-filter]
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-2s}
GO=${GO:-go}
filter=${1:-}
# the fuzz targets that start the application use SQLite, whatever the caller's setting
export MERITMARK_TEST_DB=sqlite
targets=()
while IFS= read -r f; do
	dir=$(dirname "$f")
	while IFS= read -r name; do
		[[ -z $filter || $dir == *"$filter"* || $name == *"$filter"* ]] && targets+=("$dir $name")
	done < <(grep -oE '^func (Fuzz[A-Za-z0-9_]+)\(' "$f" | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/')
done < <(find app db -name '*_fuzz_test.go' 2>/dev/null | sort)
[ ${#targets[@]} -gt 0 ] || { echo "no fuzz targets match '$filter'" >&2; exit 1; }
echo "fuzzing ${#targets[@]} targets for $FUZZTIME each"
passed=0 failed=0 start=$(date +%s)
bins=$(mktemp -d)
trap 'rm -rf "$bins"' EXIT
module=$($GO list -m)
fuzzcache="$($GO env GOCACHE)/fuzz"
# each package's instrumented test binary is built once (go test -c -fuzz=.) and runs each
# of its targets (go test -fuzz would build and link it again for every target); the
# builds run one per core (linking is mostly one thread)
declare -A built
dirs=()
for t in "${targets[@]}"; do
	read -r dir _ <<<"$t"
	[ -n "${built[$dir]:-}" ] || { built[$dir]=pending; dirs+=("$dir"); }
done
jobs=$(nproc 2>/dev/null || echo 2)
for dir in "${dirs[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
	( $GO test -c -fuzz=. -o "$bins/${dir//\//_}.test" "./$dir" >"$bins/${dir//\//_}.build" 2>&1 && touch "$bins/${dir//\//_}.ok" ) &
done
wait
echo "built ${#dirs[@]} instrumented test binaries in $(( $(date +%s) - start )) s"
for t in "${targets[@]}"; do
	read -r dir name <<<"$t"
	bin="$bins/${dir//\//_}.test"
	log=$(mktemp)
	ok=0
	if [ ! -e "$bins/${dir//\//_}.ok" ]; then
		cp "$bins/${dir//\//_}.build" "$log"
	# the same flags go test -fuzz passes, and its corpus cache (GOCACHE/fuzz/<import path>)
	elif (cd "$dir" && "$bin" -test.run='^$' -test.fuzz="^${name}\$" -test.fuzztime="$FUZZTIME" \
		-test.fuzzcachedir="$fuzzcache/$module/$dir" -test.timeout=10m -test.paniconexit0) >"$log" 2>&1; then
		ok=1
	elif grep -q 'context deadline exceeded' "$log" && ! grep -qE 'Failing input written|failure while testing seed corpus|panic:|_test\.go:[0-9]+:' "$log"; then
		# Go 1.26's fuzz coordinator can report its own -fuzztime deadline as a failure
		# (go.dev/issue/75804, fixed in Go 1.27): no input failed, so it is not one
		ok=2
	fi
	if [ "$ok" -gt 0 ]; then
		execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
		note=""
		[ "$ok" -eq 2 ] && note=" (stopped by go.dev/issue/75804, no failing input)"
		printf '  ok    %-28s %-22s %8s execs%s\n' "$name" "$dir" "$execs" "$note"
		passed=$((passed + 1))
	else
		printf '  FAIL  %-28s %s\n' "$name" "$dir"
		grep -vE '^fuzz: elapsed' "$log" | sed 's/^/        /' | head -40
		failed=$((failed + 1))
	fi
	rm -f "$log"
done
echo "fuzz: $passed passed, $failed failed in $(( $(date +%s) - start )) s"
[ "$failed" -eq 0 ]
