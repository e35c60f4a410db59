package main

import (
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
	"runtime/debug"
	"time"
)

// procsFor sets GOMAXPROCS to the cores plus one per isolate of the render pool, unless
// the environment sets GOMAXPROCS. A render keeps its OS thread inside V8 for about a
// millisecond, a cgo call that holds its P all along. With as many Ps as cores, every P
// sits in such a call under load, so sysmon polls every 20 µs to take them back and hands
// each to a new thread: 6 % of the server's CPU in a profile of /badges with the caches
// off. One more P per isolate leaves the cores' worth for the Go side of requests (bench
// figures in docs/performance.md, "The Go runtime"). It returns the value in effect.
func procsFor(workers int) int {
	if os.Getenv("GOMAXPROCS") != "" || workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	n := runtime.GOMAXPROCS(0) + workers
	runtime.GOMAXPROCS(n)
	return n
}

// Garbage collection of the server (gcFor). What lives for the whole process is ~12 MB,
// half of it the password checker's frequency lists (maps of strings the collector walks
// on every cycle), while a page request allocates ~200 KB that dies with it (the HTML
// twice: as V8 hands it over, then in the document). With GOGC at its default of 100 the
// heap's goal was 23 MB, so a cycle came every ~50 requests, ~6 ms of CPU each (gctrace,
// /badges with the caches off). At 400 the goal is five times what lives, so a cycle
// comes a quarter as often (docs/performance.md, "The Go runtime"). The limit keeps a heap full of cached pages
// (the page cache holds 64 MiB at most) from growing to five times that:
// near it the collector runs as often as needed. It counts Go's memory only, not V8's.
const (
	serverGCPercent = 400
	serverHeapLimit = 384 << 20
)

// gcFor sets the collector's pace (serverGCPercent, serverHeapLimit) unless the
// environment sets GOGC or GOMEMLIMIT, and returns the percent in effect (-1 when off).
func gcFor() int {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	debug.SetGCPercent(serverGCPercent)
	debug.SetMemoryLimit(serverHeapLimit)
	return serverGCPercent
}

// startPprof serves net/http/pprof on addr (MERITMARK_PPROF, off by default) for
// profiling under load: `go tool pprof http://ADDR/debug/pprof/profile?seconds=30`.
// Keep addr on a loopback or private interface: profiles reveal internals.
func startPprof(addr string) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	slog.Warn("profiling endpoint enabled (MERITMARK_PPROF)", "addr", addr)
	go func() {
		if err := srv.ListenAndServe(); err != nil {
			slog.Error("pprof server stopped", "err", err)
		}
	}()
}
