package app

import (
	"context"
	"net/netip"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"

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

// firstHandler wraps the server's handler (the framework's) with hitRaw when the page
// cache is on.
func (a *App) firstHandler(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	if a.PageCache == nil {
		return next
	}
	trusted := trustedPrefixes(a.Deps.Config)
	proxied := len(trusted) > 0
	origin := func(ctx *fasthttp.RequestCtx) (string, bool) { return a.Deps.Site.OriginRaw(ctx, proxied) }
	return func(ctx *fasthttp.RequestCtx) {
		if !a.hitRaw(ctx, origin, trusted) {
			next(ctx)
		}
	}
}

// hitRaw serves a visitor's page the cache holds as the server's first handler, before
// the framework makes a context of the request or routes it: what cacheHit does, and
// what the layers before it do for a hit (the request id; the client's address, for the
// log). Under wrk on a held page, the framework's context, routing and those layers were
// 5-8 % of a hit's CPU. Whatever it cannot answer (a request from behind trusted proxies
// without a base URL, whose origin the framework resolves) goes on to cacheHit.
func (a *App) hitRaw(ctx *fasthttp.RequestCtx, origin func(*fasthttp.RequestCtx) (string, bool), trusted []netip.Prefix) bool {
	start := time.Now()
	var rid string
	route, ok := a.PageCache.HitRaw(ctx, origin, func(ctx *fasthttp.RequestCtx, _ *fiber.Route) {
		rid = middleware.RequestIDRaw(ctx)
		a.headers.SetOn(&ctx.Response.Header)
	}, session.CookieName, session.SecureCookieName)
	if !ok {
		return false
	}
	if a.Deps.Metrics != nil {
		a.Deps.Metrics.ObserveRoute(route, ctx.Response.StatusCode(), time.Since(start))
	}
	middleware.LoggedRaw(ctx, start, func() string { return middleware.ClientIP(ctx, trusted) }, rid)
	return true
}

// beforeHit readies a held page's answer: the security headers the chain after the hit
// would have set, and the route metrics count it for.
func (a *App) beforeHit(c fiber.Ctx, route *fiber.Route) {
	a.headers.Set(c)
	if a.Deps.Metrics != nil {
		metrics.AnswerFor(c, route)
	}
}
