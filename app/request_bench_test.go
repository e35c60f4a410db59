package app_test

import (
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/metrics"
	"meritmark/app/model"
	"meritmark/app/web"
)

// BenchmarkRequest: one request through the whole middleware stack and route table, in
// process (fiber's handler on a fasthttp.RequestCtx: no network, so the per-request cost
// of the app itself shows), with metrics off (MERITMARK_METRICS_ADDR unset) and on.
// /healthz touches no database, so any middleware cost is most visible there; the badge
// is a route with a parameter and a query (a missing badge: 404).
func BenchmarkRequest(b *testing.B) {
	paths := []struct {
		name, path string
		status     int
	}{
		{"healthz", "/healthz", 200},
		{"badge-404", web.APIBase + "/badges/" + model.NewID(), 404},
	}
	for _, mode := range []string{"metrics-off", "metrics-on"} {
		var opts []apptest.Option
		if mode == "metrics-on" {
			m := metrics.New("bench")
			opts = append(opts, func(d *app.Deps) { d.Metrics = m })
		}
		e := apptest.New(b, opts...)
		h := e.App.Handler()
		addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}
		for _, p := range paths {
			b.Run(mode+"/"+p.name, func(b *testing.B) {
				var req fasthttp.Request
				req.SetRequestURI(p.path)
				req.Header.SetHost("127.0.0.1")
				var fc fasthttp.RequestCtx
				b.ReportAllocs()
				b.ResetTimer()
				cpu := cpuTime()
				for i := 0; i < b.N; i++ {
					fc.Init(&req, addr, nil)
					h(&fc)
					if got := fc.Response.StatusCode(); got != p.status {
						b.Fatalf("%s: status %d, want %d", p.path, got, p.status)
					}
				}
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// cpuTime is the CPU time the process has used (user and system): on a machine shared
// with other work, cpu-ns/op is steadier than the wall time of ns/op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
