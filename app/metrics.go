package app

import (
	"time"

	"github.com/gofiber/fiber/v3"
)

// observeRequest is what the access log hands each request's status and duration to: the
// request metrics, or nothing when they are off.
func (a *App) observeRequest() func(fiber.Ctx, int, time.Duration) {
	if a.Deps.Metrics == nil {
		return nil
	}
	return a.Deps.Metrics.ObserveRequest
}

// watch adds what the metrics read on each scrape: the page cache's counters, the
// database pool's statistics and the outbox backlog. Requests are counted by the access
// log (observeRequest), sign-ins by app/auth (routes.go); main hands the metrics to the
// render pool and the mail worker, which count renders and failed deliveries.
func (a *App) watch() {
	m := a.Deps.Metrics
	if m == nil {
		return
	}
	if a.PageCache != nil {
		m.WatchPageCache(a.PageCache)
	}
	m.WatchDB(a.Deps.DB)
}
