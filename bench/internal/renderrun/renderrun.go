// Package renderrun drives the isolate pool for the render benchmarks (bench/ssrbench and
// bench/ssrpool): n renders of the home page shared out to some concurrent callers, each
// timed, with the whole process's CPU time over the run (the figure that holds on a busy
// machine, where wall-clock throughput does not).
package renderrun

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	v8 "rogchap.com/v8go"

	"meritmark/ssr"
)

// HomeProps are a visitor's props for the home page.
const HomeProps = `{"shell":{"user":null,"path":"/","origin":"http://localhost:8080","supportEmail":"support@meritmark.example"},"page":{}}`

// Result is one run's figures.
type Result struct {
	PerSec   float64       // renders per second of wall-clock time
	P50, P99 time.Duration // render latency as the caller saw it
	CPUMs    float64       // process CPU (every thread, user+system) per render, in ms
}

// CPUTime is the process's user+system CPU time so far.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Run renders the home page n times from callers goroutines; it panics on a render error
// (a benchmark of a broken bundle measures nothing).
func Run(p *ssr.Pool, n, callers int) Result {
	lat := make([]time.Duration, n)
	var next atomic.Int64
	start, cpu0 := time.Now(), CPUTime()
	var wg sync.WaitGroup
	for g := 0; g < callers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				t0 := time.Now()
				if _, _, err := p.Render(context.Background(), "HomePage", []byte(HomeProps)); err != nil {
					panic(err)
				}
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	el, cpu := time.Since(start), CPUTime()-cpu0
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return Result{PerSec: float64(n) / el.Seconds(), P50: lat[n/2], P99: lat[n*99/100], CPUMs: float64(cpu.Microseconds()) / 1000 / float64(n)}
}

// MS is d in milliseconds.
func MS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// engineLoop is the JS loop of renders that bench/ssr-node.mjs also runs in Node.
//
//go:embed engine-loop.js
var engineLoop string

// InEngine runs engineLoop in a fresh isolate of its own with the server bundle: what the
// engine alone does, to set against Node running the same loop.
func InEngine(warm, n int) (float64, error) {
	src, err := ssr.Bundle()
	if err != nil {
		return 0, err
	}
	iso := v8.NewIsolate()
	defer iso.Dispose()
	ctx := v8.NewContext(iso)
	defer ctx.Close()
	if _, err := ctx.RunScript(src, "server.js"); err != nil {
		return 0, err
	}
	props, _ := json.Marshal(HomeProps)
	v, err := ctx.RunScript(fmt.Sprintf("%s(%d, %d, %s)", engineLoop, warm, n, props), "loop.js")
	if err != nil {
		return 0, err
	}
	return v.Number(), nil
}
