// Command ssrbench measures the home page rendered through the V8 isolate pool: renders/s
// on one isolate and on one per core, p50 and p99, RSS before and after many renders; then
// renders the same bundle with Node's renderToString (bench/ssr-node.mjs) and prints the
// ratio. Run it with `make bench-ssr`.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"meritmark/bench/internal/renderrun"
	"meritmark/ssr"
)

func rssMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

func main() {
	n := flag.Int("n", 5000, "renders per throughput run")
	soak := flag.Int("soak", 50000, "renders for the memory check")
	node := flag.Bool("node", true, "also run Node's renderToString for the ratio")
	rounds := flag.Int("rounds", 3, "rounds alternating one isolate and Node (the ratio of each round counts: the machine's load drifts)")
	v8flags := flag.String("v8flags", "", "extra V8 flags, space separated (experiments; the pool's own are always set)")
	flag.Parse()
	cores := runtime.NumCPU()
	if *v8flags != "" {
		ssr.SetFlags(strings.Fields(*v8flags)...)
	}

	one, err := ssr.New(ssr.Options{Workers: 1})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	html, _, _ := one.Render(context.Background(), "HomePage", []byte(renderrun.HomeProps))
	fmt.Printf("home page: %d bytes of HTML\n", len(html))
	renderrun.Run(one, 500, 1) // warm up
	r1 := renderrun.Run(one, *n, 1)
	fmt.Printf("v8go, 1 isolate:        %7.0f renders/s  p50 %6.3f ms  p99 %6.3f ms\n", r1.PerSec, renderrun.MS(r1.P50), renderrun.MS(r1.P99))
	if *node {
		// each round: the isolate, Node's renderToString string as it is, and Node with
		// each render's HTML encoded to bytes (what its http server does before sending;
		// the pool's Render already hands Go the bytes)
		var ratios, cpuRatios, byteRatios, byteCPURatios []float64
		for i := 0; i < *rounds; i++ {
			a := renderrun.Run(one, *n, 1)
			nr, err := nodeRun(*n)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			nb, err := nodeRun(*n, "bytes")
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			ratios = append(ratios, a.PerSec/nr.PerSec)
			cpuRatios = append(cpuRatios, nr.CPUMs/a.CPUMs)
			byteRatios = append(byteRatios, a.PerSec/nb.PerSec)
			byteCPURatios = append(byteCPURatios, nb.CPUMs/a.CPUMs)
			fmt.Printf("round %d: v8go %6.0f/s (p50 %.3f ms, p99 %.3f ms, CPU %.3f ms/render)  node %6.0f/s (p50 %.3f ms, p99 %.3f ms, CPU %.3f ms/render)  ratio %.2fx, by CPU %.2fx\n",
				i+1, a.PerSec, renderrun.MS(a.P50), renderrun.MS(a.P99), a.CPUMs, nr.PerSec, nr.P50, nr.P99, nr.CPUMs, a.PerSec/nr.PerSec, nr.CPUMs/a.CPUMs)
			fmt.Printf("         node, HTML encoded to bytes %6.0f/s (p50 %.3f ms, p99 %.3f ms, CPU %.3f ms/render)  ratio %.2fx, by CPU %.2fx\n",
				nb.PerSec, nb.P50, nb.P99, nb.CPUMs, a.PerSec/nb.PerSec, nb.CPUMs/a.CPUMs)
		}
		med := func(xs []float64) float64 { sort.Float64s(xs); return xs[len(xs)/2] }
		// the engines alone: the same JS loop of renders in a fresh isolate and in Node, both
		// warmed 3,000 renders (no Go crossing, no HTML brought out)
		var engine []float64
		for i := 0; i < *rounds; i++ {
			v, err := renderrun.InEngine(3000, *n)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			nl, err := nodeRun(*n, "loop", "3000")
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			engine = append(engine, v/nl.PerSec)
			fmt.Printf("engine round %d: a JS loop of renders, v8go %6.0f/s  node %6.0f/s  ratio %.2fx\n", i+1, v, nl.PerSec, v/nl.PerSec)
		}
		if len(ratios) > 0 {
			fmt.Printf("median ratio (one isolate / node, one thread, alternated): %.2fx by throughput, %.2fx by CPU per render   budget >= 0.90x\n",
				med(ratios), med(cpuRatios))
			fmt.Printf("median ratio against node with its HTML encoded to bytes: %.2fx by throughput, %.2fx by CPU per render\n",
				med(byteRatios), med(byteCPURatios))
			fmt.Printf("median ratio of the engines alone (the JS loop): %.2fx (what the ratio above loses against it is bringing the HTML out of the isolate)\n", med(engine))
		}
	}
	one.Close()

	if *soak == 0 {
		return
	}
	all, err := ssr.New(ssr.Options{Workers: cores})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	renderrun.Run(all, 500, cores)
	rN := renderrun.Run(all, *n, cores)
	fmt.Printf("v8go, %d isolates:       %7.0f renders/s  p50 %6.3f ms  p99 %6.3f ms\n", cores, rN.PerSec, renderrun.MS(rN.P50), renderrun.MS(rN.P99))

	runtime.GC()
	before := rssMB()
	rs := renderrun.Run(all, *soak, cores)
	runtime.GC()
	after := rssMB()
	renders, recycled := all.Stats()
	fmt.Printf("memory over %d renders: RSS %.0f MB -> %.0f MB (isolates recycled: %d of %d renders; p99 %.3f ms)\n",
		*soak, before, after, recycled, renders, renderrun.MS(rs.P99))
	all.Close()

}

type nodeResult struct {
	PerSec float64 `json:"perSec"`
	P50    float64 `json:"p50"`
	P99    float64 `json:"p99"`
	Bytes  int     `json:"bytes"`
	CPUMs  float64 `json:"cpuMs"`
}

func nodeRun(n int, mode ...string) (nodeResult, error) {
	var nr nodeResult
	out, err := exec.Command("node", append([]string{"bench/ssr-node.mjs", strconv.Itoa(n)}, mode...)...).Output()
	if err != nil {
		return nr, fmt.Errorf("node benchmark failed: %w", err)
	}
	if err := json.Unmarshal(out, &nr); err != nil {
		return nr, fmt.Errorf("node output %q: %w", out, err)
	}
	return nr, nil
}
