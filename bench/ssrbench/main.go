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
	"sync"
	"syscall"
	"time"

	"meritmark/ssr"
)

const props = `{"shell":{"user":null,"path":"/","origin":"http://localhost:8080","supportEmail":"support@meritmark.example"},"page":{}}`

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

type result struct {
	perSec   float64
	p50, p99 time.Duration
	cpuMs    float64 // CPU per render (every thread of the process): robust to a busy machine
}

// cpuTime is the process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func run(p *ssr.Pool, n, workers int) result {
	lat := make([]time.Duration, n)
	var next int64 = -1
	var mu sync.Mutex
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		next++
		return int(next)
	}
	start, cpu0 := time.Now(), cpuTime()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := take()
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
	el := time.Since(start)
	cpu := cpuTime() - cpu0
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return result{perSec: float64(n) / el.Seconds(), p50: lat[n/2], p99: lat[n*99/100], cpuMs: float64(cpu.Microseconds()) / 1000 / float64(n)}
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
	html, _, _ := one.Render(context.Background(), "HomePage", []byte(props))
	fmt.Printf("home page: %d bytes of HTML\n", len(html))
	run(one, 500, 1) // warm up
	r1 := run(one, *n, 1)
	fmt.Printf("v8go, 1 isolate:        %7.0f renders/s  p50 %6.3f ms  p99 %6.3f ms\n", r1.perSec, ms(r1.p50), ms(r1.p99))
	if *node {
		var ratios, cpuRatios []float64
		for i := 0; i < *rounds; i++ {
			a := run(one, *n, 1)
			nr, err := nodeRun(*n)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			ratios = append(ratios, a.perSec/nr.PerSec)
			cpuRatios = append(cpuRatios, nr.CPUMs/a.cpuMs)
			fmt.Printf("round %d: v8go %6.0f/s (p50 %.3f ms, p99 %.3f ms, CPU %.3f ms/render)  node %6.0f/s (p50 %.3f ms, p99 %.3f ms, CPU %.3f ms/render)  ratio %.2fx, by CPU %.2fx\n",
				i+1, a.perSec, ms(a.p50), ms(a.p99), a.cpuMs, nr.PerSec, nr.P50, nr.P99, nr.CPUMs, a.perSec/nr.PerSec, nr.CPUMs/a.cpuMs)
		}
		sort.Float64s(ratios)
		sort.Float64s(cpuRatios)
		if len(ratios) > 0 {
			fmt.Printf("median ratio (one isolate / node, one thread, alternated): %.2fx by throughput, %.2fx by CPU per render   budget >= 0.90x\n",
				ratios[len(ratios)/2], cpuRatios[len(cpuRatios)/2])
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
	run(all, 500, cores)
	rN := run(all, *n, cores)
	fmt.Printf("v8go, %d isolates:       %7.0f renders/s  p50 %6.3f ms  p99 %6.3f ms\n", cores, rN.perSec, ms(rN.p50), ms(rN.p99))

	runtime.GC()
	before := rssMB()
	rs := run(all, *soak, cores)
	runtime.GC()
	after := rssMB()
	renders, recycled := all.Stats()
	fmt.Printf("memory over %d renders: RSS %.0f MB -> %.0f MB (isolates recycled: %d of %d renders; p99 %.3f ms)\n",
		*soak, before, after, recycled, renders, ms(rs.p99))
	all.Close()

}

type nodeResult struct {
	PerSec float64 `json:"perSec"`
	P50    float64 `json:"p50"`
	P99    float64 `json:"p99"`
	Bytes  int     `json:"bytes"`
	CPUMs  float64 `json:"cpuMs"`
}

func nodeRun(n int) (nodeResult, error) {
	var nr nodeResult
	out, err := exec.Command("node", "bench/ssr-node.mjs", strconv.Itoa(n)).Output()
	if err != nil {
		return nr, fmt.Errorf("node benchmark failed: %w", err)
	}
	if err := json.Unmarshal(out, &nr); err != nil {
		return nr, fmt.Errorf("node output %q: %w", out, err)
	}
	return nr, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
