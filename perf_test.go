package main

import (
	"runtime"
	"testing"
)

func TestProcsForAddsAPPerIsolateUnlessTheEnvironmentSetsIt(t *testing.T) {
	base := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(base) })

	t.Setenv("GOMAXPROCS", "")
	if got := procsFor(2); got != base+2 || runtime.GOMAXPROCS(0) != base+2 {
		t.Fatalf("procsFor(2) = %d, GOMAXPROCS %d; want %d", got, runtime.GOMAXPROCS(0), base+2)
	}
	runtime.GOMAXPROCS(base)

	t.Setenv("GOMAXPROCS", "1")
	if got := procsFor(2); got != base || runtime.GOMAXPROCS(0) != base {
		t.Fatalf("with GOMAXPROCS set, procsFor(2) = %d, GOMAXPROCS %d; want %d unchanged", got, runtime.GOMAXPROCS(0), base)
	}
}
