#!/usr/bin/env bash
# A `go test -exec` program: runs one package's test binary, built and linked once by go
# test, on each database of MERITMARK_TEST_DBS in turn ("sqlite postgres" unless set), and
# fails when any run fails. `make test-go` uses it, so the ~40 race-instrumented test
# binaries are linked once for both passes instead of once per pass.
# Each run's seconds go to the file MERITMARK_TEST_TIMES when set (make test-go sums them
# to compare the two databases).
set -uo pipefail
rc=0
for db in ${MERITMARK_TEST_DBS:-sqlite postgres}; do
	# go test shows a package's output only when it fails: this says which run it was
	echo "=== MERITMARK_TEST_DB=$db"
	start=$(date +%s%N)
	MERITMARK_TEST_DB=$db "$@"
	r=$?
	if [ -n "${MERITMARK_TEST_TIMES:-}" ]; then
		echo "$db $r $(( ($(date +%s%N) - start) / 1000000 )) $PWD" >>"$MERITMARK_TEST_TIMES"
	fi
	[ "$r" -eq 0 ] || rc=$r
done
exit "$rc"
