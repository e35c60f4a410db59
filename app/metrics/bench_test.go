package metrics_test

import (
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"

	"meritmark/app/metrics"
)

// BenchmarkRequestsMiddleware: the cost the request metrics add to one request, on a
// bare fiber app (one route with a parameter, nothing else), without and with them (the
// "on" middleware reads the clock itself; in the app the access log's reading is shared).
func BenchmarkRequestsMiddleware(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "off"
		f := fiber.New()
		if on {
			name = "on"
			m := metrics.New("bench")
			f.Use(func(c fiber.Ctx) error { // as the access log does (middleware.AccessLog)
				start := time.Now()
				err := c.Next()
				m.ObserveRequest(c, c.Response().StatusCode(), time.Since(start))
				return err
			})
		}
		f.Get("/badges/:id", func(c fiber.Ctx) error { return c.SendStatus(fiber.StatusNoContent) })
		h := f.Handler()
		addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}
		b.Run(name, func(b *testing.B) {
			var req fasthttp.Request
			req.SetRequestURI("/badges/6b05b392497c83e9dd82d917")
			req.Header.SetHost("127.0.0.1")
			var fc fasthttp.RequestCtx
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				fc.Init(&req, addr, nil)
				h(&fc)
				if fc.Response.StatusCode() != fiber.StatusNoContent {
					b.Fatal(fc.Response.StatusCode())
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the CPU time the process has used (user and system): on a machine shared
// with other work, cpu-ns/op is steadier than the wall time of ns/op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
