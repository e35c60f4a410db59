// Command load is Meritmark's load generator: for each database it starts
// `bin/meritmark serve` on a fresh data directory (SQLite) or a fresh PostgreSQL database,
// seeds it (the demo content, a pool of members with sessions, badges granted through the
// real API for the verify pages and the Hall of Fame), then runs a realistic mix for a
// while and reports requests/s, p50/p99 latency and the answers by status:
//
//	70 % public: home, catalogue, badge detail, verify, Hall of Fame (pages, a fifth of
//	     them by signed-in members, and the public API behind them)
//	20 % signed-in reads: /auth/me, /badges/with-ownership, /users/badges, quiz
//	     resume, payment quotes, /applications/mine, and the members' own pages
//	     (/profile, a quiz's start page)
//	10 % writes: quiz attempts (start, answer saves, submit), applications with a small
//	     PDF, profile saves, sign-ups
//
// Requests look like a browser's: the session cookie, Origin and Sec-Fetch-Site on the
// API, Accept by kind. The server counts sign-ups per client address and trusts no
// forwarded header, so each sign-up comes from its own loopback address (127.10.x.y), at
// most 5 per address; every other limit is kept by the mix itself (quiz starts and
// applications per member stay under the server's hourly limits).
//
// Any 5xx makes it exit non-zero; with -strict, so does a missed budget (SQLite: at least
// -min-rps requests/s with p99 under -max-p99). `make bench` runs it for 15 s per
// database, `make soak` for 10 minutes.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"
)

type options struct {
	databases    []string
	bin          string
	duration     time.Duration
	warmup       time.Duration
	conc         int
	rate         int
	members      int
	grants       int
	pageSignedIn float64
	visitorAddrs int
	pgAdmin      string
	strict       bool
	minRPS       float64
	maxP99       time.Duration
	keep         bool
	jsonOut      string
	pprof        string
	serverEnv    []string
}

func main() {
	o := options{}
	dbs := flag.String("db", "sqlite,postgres", "databases to run against, comma-separated: sqlite, postgres")
	flag.StringVar(&o.bin, "bin", "bin/meritmark", "the server binary (built by make build)")
	flag.DurationVar(&o.duration, "duration", 60*time.Second, "measured duration per database")
	flag.DurationVar(&o.warmup, "warmup", 5*time.Second, "load before the measurement starts (not counted)")
	flag.IntVar(&o.conc, "c", 32, "concurrent virtual users (closed loop: each sends its next request when the last answered)")
	flag.IntVar(&o.rate, "rate", 0, "open loop: send this many requests/s whatever the latency (latency counts from when each was due); 0 = closed loop")
	flag.IntVar(&o.members, "members", 1000, "members with a session created before the run")
	flag.IntVar(&o.grants, "grants", 40, "members given badges through the API before the run (verify pages, Hall of Fame)")
	flag.IntVar(&o.visitorAddrs, "visitors", 512, "client addresses visitors' requests come from (127.20.x.y); 0 = all from 127.0.0.1")
	flag.Float64Var(&o.pageSignedIn, "page-signed-in", 0.2, "share of public page views made by signed-in members")
	flag.StringVar(&o.pgAdmin, "pg", envOr("MERITMARK_LOAD_PG", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"), "PostgreSQL maintenance database URL (a fresh database is created and dropped next to it)")
	flag.BoolVar(&o.strict, "strict", false, "exit non-zero when a budget is missed (not only on 5xx)")
	flag.Float64Var(&o.minRPS, "min-rps", 2000, "budget on SQLite: mixed requests/s at least")
	flag.DurationVar(&o.maxP99, "max-p99", 100*time.Millisecond, "budget on SQLite: p99 latency under")
	flag.BoolVar(&o.keep, "keep", false, "keep the data directories and databases")
	flag.StringVar(&o.jsonOut, "json", "", "also write the results as JSON to this file")
	flag.StringVar(&o.pprof, "pprof", "", "write a CPU profile of the server during the measurement to this file (NAME-<db>.pprof)")
	env := flag.String("server-env", "", "extra environment for the server, comma-separated KEY=VALUE (it logs at its default level, info, to a file)")
	flag.Parse()
	for _, d := range strings.Split(*dbs, ",") {
		if d = strings.TrimSpace(d); d != "" {
			if d != "sqlite" && d != "postgres" {
				fatalf("-db: unknown database %q (sqlite, postgres)", d)
			}
			o.databases = append(o.databases, d)
		}
	}
	for _, kv := range strings.Split(*env, ",") {
		if kv = strings.TrimSpace(kv); kv != "" {
			o.serverEnv = append(o.serverEnv, kv)
		}
	}
	if o.conc < 1 || o.duration <= 0 || o.members < 10 {
		fatalf("-c must be at least 1, -duration positive, -members at least 10")
	}
	if _, err := os.Stat(o.bin); err != nil {
		fatalf("%s not found: run make build first (%v)", o.bin, err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var results []*Result
	failed := false
	for _, engine := range o.databases {
		res, err := runOne(ctx, engine, o)
		if err != nil {
			fmt.Fprintf(os.Stderr, "load %s: %v\n", engine, err)
			failed = true
			continue
		}
		results = append(results, res)
		res.print(os.Stdout)
		if res.Status5xx > 0 || res.Transport > 0 || res.Total.Count == 0 {
			failed = true
		}
		if o.strict && res.Budget != nil && !res.Budget.Met {
			failed = true
		}
		if ctx.Err() != nil {
			break
		}
	}
	if len(results) > 0 {
		printSummary(os.Stdout, results)
	}
	if o.jsonOut != "" {
		b, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(o.jsonOut, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "write -json:", err)
			failed = true
		}
	}
	if failed {
		fmt.Println("\nload: FAILED")
		os.Exit(1)
	}
	fmt.Println("\nload: ok")
}

func runOne(ctx context.Context, engine string, o options) (*Result, error) {
	extra := append([]string(nil), o.serverEnv...)
	pprofAddr := ""
	if o.pprof != "" {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		pprofAddr = fmt.Sprintf("127.0.0.1:%d", port)
		extra = append(extra, "MERITMARK_PPROF="+pprofAddr)
	}
	t, err := newTarget(ctx, engine, o.bin, o.pgAdmin, o.keep, extra)
	if err != nil {
		return nil, err
	}
	defer t.cleanup()
	step := func(what string) func() {
		start := time.Now()
		fmt.Fprintf(os.Stderr, "[%s] %s…", engine, what)
		return func() { fmt.Fprintf(os.Stderr, " %.1f s\n", time.Since(start).Seconds()) }
	}

	done := step("migrate and seed the demo content")
	if err := t.seed(ctx); err != nil {
		return nil, err
	}
	done()
	done = step(fmt.Sprintf("create %d members with sessions", o.members))
	members, err := createMembers(ctx, t, o.members)
	if err != nil {
		return nil, err
	}
	done()
	done = step("start the server")
	if err := t.start(ctx); err != nil {
		return nil, err
	}
	done()
	b := newBrowser(t.base, o.conc, nil)
	defer b.close()
	w := &world{members: members}
	done = step(fmt.Sprintf("grant badges to %d members through the API", o.grants))
	if err := prepare(ctx, b, t, w, o.grants); err != nil {
		return nil, err
	}
	done()

	r := newRunner(w, b, o.pageSignedIn, o.visitorAddrs)
	defer r.close()
	mode := fmt.Sprintf("closed loop, %d virtual users", o.conc)
	if o.rate > 0 {
		mode = fmt.Sprintf("open loop at %d req/s (up to %d in flight)", o.rate, o.conc)
	}
	fmt.Fprintf(os.Stderr, "[%s] %s: %s warm-up, then %s measured\n", engine, mode, o.warmup, o.duration)

	start := time.Now()
	r.from = start.Add(o.warmup)
	r.to = r.from.Add(o.duration)
	res := &Result{Database: engine, Mode: mode, Seconds: o.duration.Seconds(), Skipped: r.skipped}

	// CPU, load average and (optionally) a server profile over the measured window
	var srvCPU0, ldCPU0 float64
	var wgAux sync.WaitGroup
	wgAux.Add(1)
	go func() {
		defer wgAux.Done()
		if !sleepUntil(ctx, r.from) {
			return
		}
		res.LoadAvg = loadAvg()
		srvCPU0, ldCPU0 = t.cpuSeconds(), selfCPU()
		if pprofAddr != "" {
			secs := int(o.duration.Seconds())
			if secs < 1 {
				secs = 1
			}
			// the load generator's own profile beside it: it shares the machine's CPU
			stopSelf := profileSelf(profileName(o.pprof, engine+"-load"))
			if err := fetchProfile(pprofAddr, secs, profileName(o.pprof, engine)); err != nil {
				fmt.Fprintln(os.Stderr, "pprof:", err)
			}
			stopSelf()
		}
	}()

	recs := generate(ctx, r, o)
	wgAux.Wait()
	res.LoadAvgEnd = loadAvg()
	res.ServerCPU = t.cpuSeconds() - srvCPU0
	res.LoaderCPU = selfCPU() - ldCPU0
	if ctx.Err() != nil {
		return nil, errors.New("interrupted")
	}

	res.Total, res.Classes, res.MemberPage, res.Ops, res.Errors, res.Status5xx, res.Transport = summarize(recs, o.duration)
	res.Notes = append(res.Notes,
		fmt.Sprintf("%d members before the run, %d signed up during it from %d client addresses; %d verification ids",
			len(w.members), r.signupN.Load(), r.signups.addresses(), len(w.verify)))
	if res.Status5xx > 0 {
		for _, l := range t.logLines(10, "level=ERROR", "panic") {
			res.Notes = append(res.Notes, "server log: "+truncate(l, 400))
		}
	}
	if engine == "sqlite" {
		bc := &BudgetCheck{MinRPS: o.minRPS, MaxP99: ms(o.maxP99), Met: true}
		if res.Total.PerSec < o.minRPS {
			bc.Met = false
			bc.Reasons = append(bc.Reasons, fmt.Sprintf("%.0f req/s < %.0f", res.Total.PerSec, o.minRPS))
		}
		if res.Total.P99ms >= ms(o.maxP99) {
			bc.Met = false
			bc.Reasons = append(bc.Reasons, fmt.Sprintf("p99 %.1f ms >= %.0f ms", res.Total.P99ms, ms(o.maxP99)))
		}
		if res.Status5xx > 0 || res.Transport > 0 {
			bc.Met = false
			bc.Reasons = append(bc.Reasons, fmt.Sprintf("%d answers with 5xx, %d requests without an answer", res.Status5xx, res.Transport))
		}
		res.Budget = bc
	}
	return res, nil
}

// generate runs the workers until the end of the measured window.
func generate(ctx context.Context, r *runner, o options) []*recorder {
	recs := make([]*recorder, o.conc)
	var wg sync.WaitGroup
	var tokens chan time.Time
	if o.rate > 0 {
		tokens = make(chan time.Time, o.rate)
		go func() {
			interval := time.Second / time.Duration(o.rate)
			start := time.Now()
			for i := 0; ; i++ {
				due := start.Add(time.Duration(i) * interval)
				if !due.Before(r.to) || ctx.Err() != nil {
					close(tokens)
					return
				}
				if d := time.Until(due); d > 0 {
					time.Sleep(d)
				}
				tokens <- due // blocks when every worker is busy and a second is queued: latency grows, as it should
			}
		}()
	}
	for i := range recs {
		recs[i] = newRecorder()
		wk := &worker{r: r, rng: rand.New(rand.NewPCG(rand.Uint64(), uint64(i))), rec: recs[i], ctx: ctx}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if tokens != nil {
					due, ok := <-tokens
					if !ok {
						return
					}
					wk.sched = due
				} else if !time.Now().Before(r.to) {
					return
				}
				wk.step()
			}
		}()
	}
	wg.Wait()
	return recs
}

func sleepUntil(ctx context.Context, t time.Time) bool {
	select {
	case <-time.After(time.Until(t)):
		return true
	case <-ctx.Done():
		return false
	}
}

func selfCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

func profileName(base, engine string) string {
	ext := filepath.Ext(base)
	return strings.TrimSuffix(base, ext) + "-" + engine + ext
}

// profileSelf starts a CPU profile of this process into path; the answer stops it.
func profileSelf(path string) func() {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pprof:", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "pprof:", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		fmt.Fprintf(os.Stderr, "load generator CPU profile written to %s\n", path)
	}
}

func fetchProfile(addr string, secs int, path string) error {
	c := &http.Client{Timeout: time.Duration(secs+30) * time.Second}
	resp, err := c.Get(fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", addr, secs))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d (is MERITMARK_PPROF supported by this binary?)", resp.StatusCode)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := io.Copy(f, resp.Body); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "server CPU profile written to %s\n", path)
	return nil
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func fatalf(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "load: "+format+"\n", a...)
	os.Exit(2)
}
