package metrics

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/prometheus/client_golang/prometheus"
)

// Unmatched is the route label of a request no route of the table answered: a 404 that
// fell through every route, or a request a middleware refused before its route ran (a
// cross-site write, a body that is not JSON, control characters).
const Unmatched = "unmatched"

// knownMethods are the methods an unmatched request is labelled with; any other is
// "OTHER" (a matched request is labelled with its route's method).
var knownMethods = [...]string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"}

// routeSeries is the series of one route and method: one entry per status code seen,
// copied on write, so that the request path only loads a pointer and scans a few entries.
type routeSeries struct {
	m             *Metrics
	route, method string
	mu            sync.Mutex
	codes         atomic.Pointer[[]codeSeries]
}

type codeSeries struct {
	code  int
	count prometheus.Counter
	dur   prometheus.Observer
}

type routeCell struct {
	once sync.Once
	s    *routeSeries
}

// ObserveRequest counts and times one answered request (status is final) under its
// route pattern: fiber's matched route, such as /badges/:id, never the raw path, so the
// label values stay as few as the routes. The access log calls it (middleware.AccessLog).
func (m *Metrics) ObserveRequest(c fiber.Ctx, status int, d time.Duration) {
	if m == nil {
		return
	}
	m.series(c).observe(status, d)
}

// ObserveRoute counts an answer given for route r before the framework made a context of
// the request (the page cache's first handler), as ObserveRequest counts the others.
func (m *Metrics) ObserveRoute(r *fiber.Route, status int, d time.Duration) {
	if m == nil || r == nil {
		return
	}
	m.routeSeries(r).observe(status, d)
}

// routeSeries is route r's series, made on its first answer.
func (m *Metrics) routeSeries(r *fiber.Route) *routeSeries {
	if s, ok := m.routes.Load(r); ok {
		return s.(*routeSeries)
	}
	s, _ := m.routes.LoadOrStore(r, &routeSeries{m: m, route: r.Path, method: r.Method})
	return s.(*routeSeries)
}

// routeKey is where AnswerFor names the route a request was answered for.
type routeKey struct{}

// AnswerFor counts c's request for route r: a middleware that answers before routing
// does (the page cache's early hits), so that the answer counts where the route's do.
func AnswerFor(c fiber.Ctx, r *fiber.Route) {
	if r != nil {
		c.Locals(routeKey{}, r)
	}
}

func (m *Metrics) series(c fiber.Ctx) *routeSeries {
	r, answered := c.Locals(routeKey{}).(*fiber.Route)
	if answered || c.Matched() {
		if !answered {
			r = c.Route()
		}
		return m.routeSeries(r)
	}
	method, i := c.Method(), len(knownMethods)
	for j, k := range knownMethods {
		if k == method {
			i = j
			break
		}
	}
	cell := &m.unmatched[i]
	cell.once.Do(func() {
		name := "OTHER"
		if i < len(knownMethods) {
			name = knownMethods[i]
		}
		cell.s = &routeSeries{m: m, route: Unmatched, method: name}
	})
	return cell.s
}

func (s *routeSeries) observe(code int, d time.Duration) {
	cs := s.find(code)
	cs.count.Inc()
	cs.dur.Observe(d.Seconds())
}

func (s *routeSeries) find(code int) *codeSeries {
	if p := s.codes.Load(); p != nil {
		for i := range *p {
			if (*p)[i].code == code {
				return &(*p)[i]
			}
		}
	}
	return s.add(code)
}

// add makes the series of a status code this route has not answered before (rare: once
// per route and code), publishing a new copy of the list.
func (s *routeSeries) add(code int) *codeSeries {
	s.mu.Lock()
	defer s.mu.Unlock()
	var old []codeSeries
	if p := s.codes.Load(); p != nil {
		old = *p
		for i := range old {
			if old[i].code == code {
				return &old[i]
			}
		}
	}
	next := make([]codeSeries, len(old), len(old)+1)
	copy(next, old)
	next = append(next, codeSeries{
		code:  code,
		count: s.m.requests.WithLabelValues(s.route, s.method, strconv.Itoa(code)),
		dur:   s.m.duration.WithLabelValues(s.route, s.method, statusClass(code)),
	})
	s.codes.Store(&next)
	return &next[len(next)-1]
}

// statusClass is a status code's class: "2xx" for 200 to 299, and so on; "other"
// outside 100 to 599.
func statusClass(code int) string {
	if code < 100 || code > 599 {
		return "other"
	}
	return string(rune('0'+code/100)) + "xx"
}
