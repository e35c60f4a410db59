// Command ssrpool measures the isolate pool as the server uses it: one isolate per core
// and many callers (-callers goroutines, like concurrent requests), printing renders/s
// and CPU per render (the whole process: the robust figure on a busy machine) for
// -rounds rounds. It uses only the pool's public API, so the same source builds against
// an older ssr package: build it at two commits and alternate the binaries for an A/B,
// e.g. `for i in 1 2 3; do /tmp/ssrpool-old; /tmp/ssrpool-new; done`. V8 flags are the
// process's, so an A/B of flags alternates processes too:
// `for i in 1 2 3; do ssrpool -label base; ssrpool -label maglev -v8flags --maglev; done`.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"

	"meritmark/bench/internal/renderrun"
	"meritmark/ssr"
)

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
		renderrun.Run(p, *warm, *callers)
	}
	for r := 0; r < *rounds; r++ {
		res := renderrun.Run(p, *n, *callers)
		fmt.Printf("%-12s %d isolates, %d callers: %6.0f renders/s  CPU %.3f ms/render  p99 %.2f ms\n", *label, *workers, *callers, res.PerSec, res.CPUMs, renderrun.MS(res.P99))
	}
}
