// Command ssrab compares two V8 configurations of the isolate pool in one process,
// alternating them in rounds (the machine's load drifts): an isolate made with the
// default flags and one made after -flags were set. CPU per render (the whole process)
// is the robust figure on a busy machine.
package main

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"
	"syscall"
	"time"

	"meritmark/ssr"
)

const props = `{"shell":{"user":null,"path":"/","origin":"http://localhost:8080","supportEmail":"support@meritmark.example"},"page":{}}`

func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func run(p *ssr.Pool, n int) (cpuMs, p50 float64) {
	lat := make([]float64, n)
	c0 := cpu()
	for i := 0; i < n; i++ {
		t0 := time.Now()
		if _, _, err := p.Render(context.Background(), "HomePage", []byte(props)); err != nil {
			panic(err)
		}
		lat[i] = float64(time.Since(t0).Microseconds()) / 1000
	}
	sort.Float64s(lat)
	return float64((cpu() - c0).Microseconds()) / 1000 / float64(n), lat[n/2]
}

func main() {
	flags := flag.String("flags", "--max-semi-space-size=16", "V8 flags for configuration B")
	n := flag.Int("n", 2000, "renders per round")
	rounds := flag.Int("rounds", 6, "rounds")
	flag.Parse()
	a, err := ssr.New(ssr.Options{Workers: 1, MaxRenders: 1 << 30})
	if err != nil {
		panic(err)
	}
	ssr.SetFlags(strings.Fields(*flags)...)
	b, err := ssr.New(ssr.Options{Workers: 1, MaxRenders: 1 << 30})
	if err != nil {
		panic(err)
	}
	run(a, 500)
	run(b, 500)
	var ratios []float64
	for r := 0; r < *rounds; r++ {
		ca, pa := run(a, *n)
		cb, pb := run(b, *n)
		ratios = append(ratios, ca/cb)
		fmt.Printf("round %d: default CPU %.3f ms p50 %.3f ms | %s CPU %.3f ms p50 %.3f ms | speed-up %.2fx\n", r+1, ca, pa, *flags, cb, pb, ca/cb)
	}
	sort.Float64s(ratios)
	fmt.Printf("median speed-up of [%s] by CPU per render: %.2fx\n", *flags, ratios[len(ratios)/2])
}
