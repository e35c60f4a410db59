package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"
)

// Classes of the mix: what share of the requests each should be.
const (
	ClassPublic = "public" // pages and public API a visitor's browser asks for
	ClassRead   = "read"   // signed-in reads: the API and the members' own pages
	ClassWrite  = "write"  // sign-ups, quiz attempts, applications, profile saves
)

var classes = []string{ClassPublic, ClassRead, ClassWrite}

// sample is one measured request.
type sample struct {
	op    string
	class string
	// memberPage: a signed-in member's page (its own line: those are never cached)
	memberPage bool
	status     int // 0: transport error
	dur        time.Duration
}

// recorder keeps one worker's samples (no locking: merged after the run).
type recorder struct {
	samples []sample
	errs    map[string]int // transport errors and wrong bodies, by a short reason
	warm5xx int            // 5xx answers during the warm-up (not in the samples)
}

func newRecorder() *recorder { return &recorder{errs: map[string]int{}} }

// opStats summarises the samples of one op, one class or the whole run.
type opStats struct {
	Name     string         `json:"name"`
	Count    int            `json:"count"`
	PerSec   float64        `json:"perSec"`
	Share    float64        `json:"share"` // of all requests, percent
	P50ms    float64        `json:"p50ms"`
	P90ms    float64        `json:"p90ms"`
	P99ms    float64        `json:"p99ms"`
	MaxMs    float64        `json:"maxMs"`
	Statuses map[string]int `json:"statuses"`
	durs     []time.Duration
}

func (s *opStats) add(x sample) {
	s.Count++
	s.durs = append(s.durs, x.dur)
	k := "transport-error"
	if x.status > 0 {
		k = fmt.Sprint(x.status)
	}
	if s.Statuses == nil {
		s.Statuses = map[string]int{}
	}
	s.Statuses[k]++
}

func (s *opStats) finish(elapsed time.Duration, total int) {
	sort.Slice(s.durs, func(i, j int) bool { return s.durs[i] < s.durs[j] })
	s.P50ms = ms(percentile(s.durs, 50))
	s.P90ms = ms(percentile(s.durs, 90))
	s.P99ms = ms(percentile(s.durs, 99))
	if n := len(s.durs); n > 0 {
		s.MaxMs = ms(s.durs[n-1])
	}
	if elapsed > 0 {
		s.PerSec = float64(s.Count) / elapsed.Seconds()
	}
	if total > 0 {
		s.Share = 100 * float64(s.Count) / float64(total)
	}
	s.durs = nil
}

// percentile of sorted durations (nearest rank).
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	if rank < 1 {
		rank = 1
	}
	if rank > len(sorted) {
		rank = len(sorted)
	}
	return sorted[rank-1]
}

func ms(d time.Duration) float64 { return math.Round(float64(d.Microseconds())/10) / 100 }

// Result is one database's run.
type Result struct {
	Database   string             `json:"database"`
	Mode       string             `json:"mode"`
	Seconds    float64            `json:"seconds"`
	LoadAvg    string             `json:"loadAvg"` // /proc/loadavg when the measurement started
	LoadAvgEnd string             `json:"loadAvgEnd"`
	Total      opStats            `json:"total"`
	Classes    []opStats          `json:"classes"`
	MemberPage *opStats           `json:"memberPages,omitempty"` // every page a signed-in member asked for
	Ops        []opStats          `json:"ops"`
	Errors     map[string]int     `json:"errors"` // transport errors and unexpected bodies
	Status5xx  int                `json:"status5xx"`
	Transport  int                `json:"transportErrors"`   // requests that got no answer
	Skipped    map[string]string  `json:"skipped,omitempty"` // ops left out of the mix, and why
	Notes      []string           `json:"notes,omitempty"`
	ServerCPU  float64            `json:"serverCpuSeconds"`
	LoaderCPU  float64            `json:"loaderCpuSeconds"`
	Budget     *BudgetCheck       `json:"budget,omitempty"`
	Extra      map[string]float64 `json:"extra,omitempty"`
}

// BudgetCheck is the verdict on the budgets for this database.
type BudgetCheck struct {
	MinRPS  float64  `json:"minRps"`
	MaxP99  float64  `json:"maxP99ms"`
	Met     bool     `json:"met"`
	Reasons []string `json:"reasons,omitempty"`
}

func summarize(recs []*recorder, elapsed time.Duration) (total opStats, byClass []opStats, memberPages *opStats, byOp []opStats, errs map[string]int, n5xx, nTransport int) {
	ops := map[string]*opStats{}
	mp := &opStats{Name: "member pages"}
	cls := map[string]*opStats{}
	errs = map[string]int{}
	total.Name = "all"
	for _, r := range recs {
		for k, v := range r.errs {
			errs[k] += v
		}
		n5xx += r.warm5xx
		for _, x := range r.samples {
			total.add(x)
			o := ops[x.op]
			if o == nil {
				o = &opStats{Name: x.op}
				ops[x.op] = o
			}
			o.add(x)
			c := cls[x.class]
			if c == nil {
				c = &opStats{Name: x.class}
				cls[x.class] = c
			}
			c.add(x)
			if x.memberPage {
				mp.add(x)
			}
			if x.status >= 500 {
				n5xx++
			}
			if x.status == 0 {
				nTransport++
			}
		}
	}
	all := total.Count
	total.finish(elapsed, all)
	for _, name := range classes {
		if c := cls[name]; c != nil {
			c.finish(elapsed, all)
			byClass = append(byClass, *c)
		}
	}
	if mp.Count > 0 {
		mp.finish(elapsed, all)
		memberPages = mp
	}
	for _, o := range ops {
		o.finish(elapsed, all)
		byOp = append(byOp, *o)
	}
	sort.Slice(byOp, func(i, j int) bool { return byOp[i].Count > byOp[j].Count })
	return
}

func statusLine(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s:%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

// print writes the human report of one database's run.
func (r *Result) print(w io.Writer) {
	fmt.Fprintf(w, "\n== %s — %s, %.0f s measured (load average at start %s, at end %s)\n", r.Database, r.Mode, r.Seconds, r.LoadAvg, r.LoadAvgEnd)
	fmt.Fprintf(w, "   %-34s %8s %9s %6s %8s %8s %8s %8s  %s\n", "", "requests", "req/s", "share", "p50 ms", "p90 ms", "p99 ms", "max ms", "statuses")
	line := func(s opStats, indent string) {
		fmt.Fprintf(w, "   %-34s %8d %9.1f %5.1f%% %8.2f %8.2f %8.2f %8.1f  %s\n", indent+s.Name, s.Count, s.PerSec, s.Share, s.P50ms, s.P90ms, s.P99ms, s.MaxMs, statusLine(s.Statuses))
	}
	line(r.Total, "")
	for _, c := range r.Classes {
		line(c, "  ")
	}
	if r.MemberPage != nil {
		line(*r.MemberPage, "  ")
	}
	fmt.Fprintln(w, "   by operation:")
	for _, o := range r.Ops {
		line(o, "    ")
	}
	if len(r.Errors) > 0 {
		fmt.Fprintf(w, "   errors: %s\n", statusLine(r.Errors))
	}
	for op, why := range r.Skipped {
		fmt.Fprintf(w, "   not in the mix: %s (%s)\n", op, why)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "   note: %s\n", n)
	}
	if r.ServerCPU > 0 || r.LoaderCPU > 0 {
		fmt.Fprintf(w, "   CPU during the measurement: server %.1f s (%.2f cores), load generator %.1f s (%.2f cores)\n",
			r.ServerCPU, r.ServerCPU/r.Seconds, r.LoaderCPU, r.LoaderCPU/r.Seconds)
	}
	fmt.Fprintf(w, "   5xx: %d, requests without an answer: %d\n", r.Status5xx, r.Transport)
	if b := r.Budget; b != nil {
		verdict := "MET"
		if !b.Met {
			verdict = "MISSED: " + strings.Join(b.Reasons, "; ")
		}
		fmt.Fprintf(w, "   budget (>= %.0f req/s, p99 < %.0f ms): %s\n", b.MinRPS, b.MaxP99, verdict)
	}
}

// printSummary writes one line per database.
func printSummary(w io.Writer, results []*Result) {
	fmt.Fprintf(w, "\n== summary\n   %-9s %10s %9s %8s %8s %7s %10s  %s\n", "database", "requests", "req/s", "p50 ms", "p99 ms", "5xx", "no answer", "other non-2xx")
	for _, r := range results {
		other := map[string]int{}
		for k, v := range r.Total.Statuses {
			if !strings.HasPrefix(k, "2") && !strings.HasPrefix(k, "5") && k != "transport-error" {
				other[k] = v
			}
		}
		o := statusLine(other)
		if o == "" {
			o = "none"
		}
		fmt.Fprintf(w, "   %-9s %10d %9.1f %8.2f %8.2f %7d %10d  %s\n", r.Database, r.Total.Count, r.Total.PerSec, r.Total.P50ms, r.Total.P99ms, r.Status5xx, r.Transport, o)
	}
}
