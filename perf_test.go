package main

import (
	"runtime"
	"runtime/debug"
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

func TestGCForPacesTheCollectorUnlessTheEnvironmentSetsIt(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	if got := gcFor(); got != serverGCPercent || debug.SetGCPercent(serverGCPercent) != serverGCPercent ||
		debug.SetMemoryLimit(-1) != serverHeapLimit {
		t.Fatalf("gcFor() = %d; want GOGC %d with a %d-byte limit", got, serverGCPercent, serverHeapLimit)
	}

	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		debug.SetGCPercent(150)
		debug.SetMemoryLimit(1 << 40)
		t.Setenv(env, "150")
		if got := gcFor(); got != 150 || debug.SetMemoryLimit(-1) != 1<<40 {
			t.Fatalf("with %s set, gcFor() = %d; want the runtime's pace and limit (150, 1 TiB) unchanged", env, got)
		}
		t.Setenv(env, "")
	}
}
