// Command ssrpool measures the isolate pool as the server uses it: one isolate per core
// and many callers (-callers goroutines, like concurrent requests), printing renders/s
// and CPU per render (the whole process: the robust figure on a busy machine) for
// -rounds rounds. It uses only the pool's public API, so the same source builds against
// an older ssr package: build it at two commits and alternate the binaries for an A/B,
// e.g. `for i in 1 2 3; do /tmp/ssrpool-old; /tmp/ssrpool-new; done`.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"meritmark/ssr"
)

const props = `{"shell":{"user":null,"path":"/","origin":"http://localhost:8080","supportEmail":"support@meritmark.example"},"page":{}}`

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func run(p *ssr.Pool, n, callers int) (perSec, cpuMs, p99 float64) {
	var next atomic.Int64
	lat := make([]time.Duration, n)
	start, c0 := time.Now(), cpuTime()
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
				if _, _, err := p.Render(context.Background(), "HomePage", []byte(props)); err != nil {
					panic(err)
				}
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	el, cpu := time.Since(start), cpuTime()-c0
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return float64(n) / el.Seconds(), float64(cpu.Microseconds()) / 1000 / float64(n), float64(lat[n*99/100].Microseconds()) / 1000
}

func main() {
	n := flag.Int("n", 4000, "renders per round")
	rounds := flag.Int("rounds", 3, "rounds")
	callers := flag.Int("callers", 32, "concurrent callers")
	workers := flag.Int("workers", runtime.NumCPU(), "isolates")
	label := flag.String("label", "", "label printed on each line")
	maxRenders := flag.Int("max-renders", 0, "Options.MaxRenders (0: the pool's default)")
	warm := flag.Int("warm", 500, "renders before the first round (0: measure a cold isolate's warm-up)")
	v8flags := flag.String("v8flags", "", "V8 flags, space separated, set before the first isolate")
	flag.Parse()
	if *v8flags != "" {
		ssr.SetFlags(strings.Fields(*v8flags)...)
	}
	p, err := ssr.New(ssr.Options{Workers: *workers, MaxRenders: *maxRenders})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer p.Close()
	if *warm > 0 {
		run(p, *warm, *callers)
	}
	for r := 0; r < *rounds; r++ {
		rps, cpu, p99 := run(p, *n, *callers)
		fmt.Printf("%-12s %d isolates, %d callers: %6.0f renders/s  CPU %.3f ms/render  p99 %.2f ms\n", *label, *workers, *callers, rps, cpu, p99)
	}
}
