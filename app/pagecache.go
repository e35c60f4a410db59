package app

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/events"
	"meritmark/app/metrics"
	"meritmark/app/middleware"
	"meritmark/app/pagecache"
	"meritmark/app/session"
	"meritmark/app/web"
)

// cachePages puts the visitor routes whose rows say Cached behind the page cache
// (Config.PageCache). A Cached row that is not a visitor GET is a mistake in the table and
// stops the start (TestCachedRowsAreVisitorGets).
func (a *App) cachePages() {
	if a.Deps.Config == nil || !a.Deps.Config.PageCache || a.Deps.DB == nil {
		return
	}
	a.PageCache = pagecache.New(a.Deps.DB, a.Deps.Site.Origin)
	// the versions in memory: a LISTEN connection on PostgreSQL, PRAGMA data_version on
	// SQLite (pagecache/versions.go); stopped with the server
	a.PageCache.Watch(a.Deps.Config.DatabaseURL)
	pc := a.PageCache
	// a member's view of a page that shows members what it shows visitors: the visitor's
	// copy with the member's header
	pc.Members = a.Deps.Site.ForViewer
	a.Hooks().OnPostShutdown(func(error) error { pc.Close(); return nil })
	// this instance's own writes show at once, before their notification arrives
	types := make([]string, 0, len(pageScopes))
	for t := range pageScopes {
		types = append(types, t)
	}
	a.Deps.Events.AfterCommit(func(*events.Event) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		pc.Advance(ctx)
	}, types...)
	for i, r := range a.Routes {
		if r.Cache == nil {
			continue
		}
		if r.Method != "GET" || r.Access != web.Public {
			panic("page cache: " + r.Method + " " + r.Path + " is Cached but not a visitor GET")
		}
		a.Routes[i].Handler = a.PageCache.WrapTTL(r.Cache.Scopes, r.Cache.TTL, r.Handler)
	}
}

// cacheHit serves a held visitor's page (pagecache.Cache.Hit) when the cache is on, with
// the security headers, counted and logged as the access log does for every answer.
func (a *App) cacheHit(c fiber.Ctx) error {
	if a.PageCache == nil {
		return c.Next()
	}
	start := time.Now()
	if !a.PageCache.Hit(c, a.beforeHit, session.CookieName, session.SecureCookieName) {
		return c.Next()
	}
	middleware.Logged(c, start, a.observe)
	return nil
}

// beforeHit readies a held page's answer: the security headers the chain after the hit
// would have set, and the route metrics count it for.
func (a *App) beforeHit(c fiber.Ctx, route *fiber.Route) {
	a.headers.Set(c)
	if a.Deps.Metrics != nil {
		metrics.AnswerFor(c, route)
	}
}
