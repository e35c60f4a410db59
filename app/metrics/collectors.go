package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/uptrace/bun"
)

// WatchDB adds the database's connection pool statistics (go_sql_*, db_name="main")
// and the outbox backlog, counted on each scrape.
func (m *Metrics) WatchDB(d *bun.DB) {
	if m == nil || d == nil {
		return
	}
	m.register(collectors.NewDBStatsCollector(d.DB, "main"))
	m.register(&outboxCollector{db: d, timeout: OutboxCountTimeout, desc: prometheus.NewDesc(
		prometheus.BuildFQName(Namespace, "outbox", "messages"),
		"Outbox messages not delivered, by status: pending (waiting for a send or a retry), sending (claimed by a worker), failed (gave up after the last attempt).",
		[]string{"status"}, nil)})
}

// OutboxCountTimeout bounds the outbox count of one scrape.
const OutboxCountTimeout = 2 * time.Second

// outboxStatuses are the statuses of messages not delivered (sent ones are not counted).
var outboxStatuses = [...]string{"pending", "sending", "failed"}

// outboxCollector counts the outbox's undelivered messages when scraped: one small
// grouped count over the (status, created_at) index, bounded by timeout.
type outboxCollector struct {
	db      *bun.DB
	timeout time.Duration
	desc    *prometheus.Desc
}

func (o *outboxCollector) Describe(ch chan<- *prometheus.Desc) { ch <- o.desc }

func (o *outboxCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	var rows []struct {
		Status string `bun:"status"`
		N      int64  `bun:"n"`
	}
	if err := o.db.NewRaw(`SELECT status, COUNT(*) AS n FROM outbox WHERE status IN (?) GROUP BY status`,
		bun.List(outboxStatuses[:])).Scan(ctx, &rows); err != nil {
		ch <- prometheus.NewInvalidMetric(o.desc, err)
		return
	}
	for _, s := range outboxStatuses {
		var n int64
		for _, r := range rows {
			if r.Status == s {
				n = r.N
			}
		}
		ch <- prometheus.MustNewConstMetric(o.desc, prometheus.GaugeValue, float64(n), s)
	}
}

// PageCacheStats is what the page cache reports (pagecache.Cache.Stats, MembersServed).
type PageCacheStats interface {
	Stats() (hits, misses, stores int64, entries int)
	MembersServed() int64
}

// WatchPageCache adds the page cache's hits, misses, stores and entries, read from its
// own counters on each scrape (nothing is added to the request path).
func (m *Metrics) WatchPageCache(pc PageCacheStats) {
	if m == nil || pc == nil {
		return
	}
	lookups := func(hit bool) func() float64 {
		return func() float64 {
			h, ms, _, _ := pc.Stats()
			if hit {
				return float64(h)
			}
			return float64(ms)
		}
	}
	const help = "Visitor requests to cached routes: result=\"hit\" (served from memory) or \"miss\" (the handler ran)."
	m.register(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: Namespace, Subsystem: "pagecache", Name: "requests_total",
		Help: help, ConstLabels: prometheus.Labels{"result": "hit"}}, lookups(true)))
	m.register(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: Namespace, Subsystem: "pagecache", Name: "requests_total",
		Help: help, ConstLabels: prometheus.Labels{"result": "miss"}}, lookups(false)))
	m.register(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: Namespace, Subsystem: "pagecache", Name: "stores_total",
		Help: "Answers stored in the page cache."}, func() float64 { _, _, s, _ := pc.Stats(); return float64(s) }))
	m.register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Subsystem: "pagecache", Name: "entries",
		Help: "Pages held in the page cache."}, func() float64 { _, _, _, n := pc.Stats(); return float64(n) }))
	m.register(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: Namespace, Subsystem: "pagecache", Name: "member_pages_total",
		Help: "Signed-in members' pages made from a visitor's held copy with the member's header (no whole render)."},
		func() float64 { return float64(pc.MembersServed()) }))
}

// RenderPool is what the render pool reports (ssr.Pool).
type RenderPool interface {
	Size() int                        // isolates in the pool
	Idle() int                        // isolates free now
	Waiting() int                     // renders waiting for an isolate
	Stats() (renders, recycled int64) // renders done, isolates recycled
}

// WatchRenderPool adds the render pool's busy and idle isolates, its queue and its
// recycled isolates, read on each scrape. The queue wait and render time histograms are
// recorded by the pool itself (ObserveRender).
func (m *Metrics) WatchRenderPool(p RenderPool) {
	if m == nil || p == nil {
		return
	}
	const workersHelp = "V8 isolates of the render pool: state=\"busy\" (rendering) or \"idle\"."
	m.register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Subsystem: "render", Name: "workers",
		Help: workersHelp, ConstLabels: prometheus.Labels{"state": "idle"}}, func() float64 { return float64(p.Idle()) }))
	m.register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Subsystem: "render", Name: "workers",
		Help: workersHelp, ConstLabels: prometheus.Labels{"state": "busy"}}, func() float64 { return float64(max(p.Size()-p.Idle(), 0)) }))
	m.register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Subsystem: "render", Name: "queue_length",
		Help: "Renders waiting for a free isolate now."}, func() float64 { return float64(p.Waiting()) }))
	m.register(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: Namespace, Subsystem: "render", Name: "isolates_recycled_total",
		Help: "Isolates replaced (after their render limit, past their heap limit, or after a timed-out render)."},
		func() float64 { _, r := p.Stats(); return float64(r) }))
}
