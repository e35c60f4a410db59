// Package metrics exposes the server's Prometheus metrics (docs/observability.md): HTTP
// requests by route pattern, the render pool, the page cache, the mail outbox, the
// database pool and sign-in failures and lockouts, plus the Go runtime and the process.
//
// A Metrics holds a registry of its own (never the client library's global one), made by
// main when MERITMARK_METRICS_ADDR is set and handed explicitly to what records into it;
// every method works on a nil *Metrics and then does nothing, so the features record
// unconditionally and metrics that are off cost nothing. The registry is served on its
// own address by Serve, never by the public application.
package metrics

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes the application's own metrics.
const Namespace = "meritmark"

// Metrics is one process's metrics.
type Metrics struct {
	reg *prometheus.Registry

	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	// routes caches each fiber route's series (requests.go)
	routes    sync.Map
	unmatched [len(knownMethods) + 1]routeCell

	renderWait prometheus.Histogram
	renderTime prometheus.Histogram

	mailFailures *prometheus.CounterVec
	mailRetry    prometheus.Counter
	mailGaveUp   prometheus.Counter

	signinFailures *prometheus.CounterVec
	signinLockouts *prometheus.CounterVec
}

// durationBuckets are the request latency buckets, in seconds: 1 ms to 10 s.
var durationBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// renderBuckets are the render pool's buckets, in seconds: 100 µs to 2.5 s (the default
// render timeout is 2 s).
var renderBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}

// New makes the metrics of a process running version, on a registry of their own that
// already holds the Go runtime and process collectors.
func New(version string) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{reg: reg}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Subsystem: "http", Name: "requests_total",
		Help: "HTTP requests answered, by route pattern (\"unmatched\" when no route answered), method and status code.",
	}, []string{"route", "method", "code"})
	m.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: Namespace, Subsystem: "http", Name: "request_duration_seconds",
		Help:    "Time to answer a request (the access log's dur_ms, before response compression), by route pattern, method and status class (2xx…5xx).",
		Buckets: durationBuckets,
	}, []string{"route", "method", "status"})
	m.renderWait = prometheus.NewHistogram(prometheus.HistogramOpts{
		Namespace: Namespace, Subsystem: "render", Name: "queue_wait_seconds",
		Help:    "Time a page render waited for a free V8 isolate of the render pool.",
		Buckets: renderBuckets,
	})
	m.renderTime = prometheus.NewHistogram(prometheus.HistogramOpts{
		Namespace: Namespace, Subsystem: "render", Name: "duration_seconds",
		Help:    "Time a page render ran on its isolate (timed-out and failed renders included).",
		Buckets: renderBuckets,
	})
	m.mailFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Subsystem: "outbox", Name: "send_failures_total",
		Help: "Failed attempts to deliver an outbox message: outcome=\"retry\" (tried again later) or \"failed\" (its last attempt; the message is left failed).",
	}, []string{"outcome"})
	m.mailRetry = m.mailFailures.WithLabelValues("retry")
	m.mailGaveUp = m.mailFailures.WithLabelValues("failed")
	m.signinFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Subsystem: "signin", Name: "failures_total",
		Help: "Failed sign-ins: reason=\"password\" (unknown e-mail or wrong password), \"two_factor\" (wrong code), \"throttled\" (refused while a throttle wait runs).",
	}, []string{"reason"})
	m.signinLockouts = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Subsystem: "signin", Name: "lockouts_total",
		Help: "Sign-in throttle counts that passed their threshold, so that the next attempt under them must wait, by count.",
	}, []string{"count"})
	// present at 0 from the start: rate() and alerts need a first sample
	for _, r := range []string{ReasonPassword, ReasonTwoFactor, ReasonThrottled} {
		m.signinFailures.WithLabelValues(r)
	}
	for _, k := range []string{CountClient, CountAccountClient, CountAccount, CountTrusted, CountTwoFactor, CountPasswordCheck} {
		m.signinLockouts.WithLabelValues(k)
	}
	m.mailRetry.Add(0)
	m.mailGaveUp.Add(0)
	build := prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: Namespace, Name: "build_info", Help: "Always 1; its label is the running version.",
		ConstLabels: prometheus.Labels{"version": version},
	})
	build.Set(1)
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		build, m.requests, m.duration, m.renderWait, m.renderTime, m.mailFailures, m.signinFailures, m.signinLockouts,
	)
	return m
}

// Handler answers the registry in the Prometheus exposition format. A collector that
// fails (the outbox count when the database does not answer) is logged and left out; the
// other metrics are still served.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorLog:            slogPrinter{},
		ErrorHandling:       promhttp.ContinueOnError,
		Registry:            m.reg, // promhttp_metric_handler_errors_total
		MaxRequestsInFlight: 4,
		Timeout:             10 * time.Second,
	})
}

// register adds c to the registry; a collector registered twice (an App built twice on one
// Metrics) is logged, not fatal.
func (m *Metrics) register(c prometheus.Collector) {
	if err := m.reg.Register(c); err != nil {
		slog.Warn("metrics: collector not registered", "err", err)
	}
}

type slogPrinter struct{}

func (slogPrinter) Println(v ...any) { slog.Warn("metrics: scrape", "err", fmtArgs(v)) }

func fmtArgs(v []any) any {
	if len(v) == 1 {
		return v[0]
	}
	return v
}

// RenderObserver is ObserveRender for ssr.Options.Observe; nil when m is (the pool then
// times nothing).
func (m *Metrics) RenderObserver() func(wait, run time.Duration) {
	if m == nil {
		return nil
	}
	return m.ObserveRender
}

// ObserveRender records one page render: how long it waited for an isolate and how long
// it ran (ssr.Options.Observe).
func (m *Metrics) ObserveRender(wait, run time.Duration) {
	if m == nil {
		return
	}
	m.renderWait.Observe(wait.Seconds())
	m.renderTime.Observe(run.Seconds())
}

// MailFailed records a failed delivery attempt; last is true when it was the message's
// last attempt (it is left failed).
func (m *Metrics) MailFailed(last bool) {
	if m == nil {
		return
	}
	if last {
		m.mailGaveUp.Inc()
	} else {
		m.mailRetry.Inc()
	}
}

// Sign-in failure reasons (meritmark_signin_failures_total's reason label).
const (
	ReasonPassword  = "password"   // unknown e-mail or wrong password
	ReasonTwoFactor = "two_factor" // wrong TOTP or recovery code
	ReasonThrottled = "throttled"  // refused while a throttle wait runs (429)
)

// SignInFailed records a failed sign-in for reason (Reason…).
func (m *Metrics) SignInFailed(reason string) {
	if m == nil {
		return
	}
	m.signinFailures.WithLabelValues(reason).Inc()
}

// Kinds of sign-in throttle count (meritmark_signin_lockouts_total's count label; see
// app/auth/throttle.go).
const (
	CountClient        = "client"         // every sign-in from one client address
	CountAccountClient = "account_client" // one account from one client address
	CountAccount       = "account"        // one account from untrusted clients
	CountTrusted       = "trusted"        // one account from a device or network it signed in from before
	CountTwoFactor     = "two_factor"     // second-step codes of one account
	CountPasswordCheck = "password_check" // the current password asked before an account change
)

// SignInLockout records that the sign-in throttle count named count passed its
// threshold: the next attempt under it must wait.
func (m *Metrics) SignInLockout(count string) {
	if m == nil {
		return
	}
	m.signinLockouts.WithLabelValues(count).Inc()
}
