package app

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/events"
	"meritmark/app/metrics"
	"meritmark/app/pagecache"
	"meritmark/app/session"
	"meritmark/app/web"
)

// cachedPages names the visitor routes served through the page cache and the data each
// shows (a write bumping one of these scopes invalidates the route's pages at once).
var cachedPages = map[string][]pagecache.Scope{
	"/":                        nil,
	"/about":                   nil,
	"/services":                nil,
	"/contact":                 nil,
	"/shippingpolicy":          nil,
	"/termsandconditions":      nil,
	"/cancellationsandrefunds": nil,
	"/privacypolicy":           nil,
	"/badges":                  {pagecache.Badges},
	"/badges/:id":              {pagecache.Badges},
	"/badges/:id/assessment":   {pagecache.Badges},
	"/hall-of-fame":            {pagecache.Badges, pagecache.Grants, pagecache.Profiles},
	"/profile/:id":             {pagecache.Badges, pagecache.Grants, pagecache.Profiles},
	"/verify/:verificationId":  {pagecache.Badges, pagecache.Grants, pagecache.Profiles},
	"/verify-badge":            {pagecache.Badges, pagecache.Grants, pagecache.Profiles},
	"/sitemap.xml":             {pagecache.Badges},

	web.APIBase + "/badges/with-ownership": {pagecache.Badges},
	web.APIBase + "/badges/:id":            {pagecache.Badges},
	web.APIBase + "/hall-of-fame":          {pagecache.Badges, pagecache.Grants, pagecache.Profiles},
}

// shortLived are the cached pages that also show data no scope follows, with the most
// their copies may lag behind it: the technical report counts quiz attempts, and a
// submission records no event (it would otherwise flush every badge page).
var shortLived = map[string]time.Duration{
	"/badges/:id/assessment": 5 * time.Minute,
}

// cachePages puts the routes of cachedPages behind the page cache (Config.PageCache).
func (a *App) cachePages() {
	if a.Deps.Config == nil || !a.Deps.Config.PageCache || a.Deps.DB == nil {
		return
	}
	a.PageCache = pagecache.New(a.Deps.DB, a.Deps.Site.Origin)
	// the versions in memory: a LISTEN connection on PostgreSQL, PRAGMA data_version on
	// SQLite (pagecache/versions.go); stopped with the server
	a.PageCache.Watch(a.Deps.Config.DatabaseURL)
	pc := a.PageCache
	if a.Deps.Metrics != nil {
		pc.EarlyHit = func(c fiber.Ctx, r *fiber.Route) { metrics.AnswerFor(c, r) }
	}
	a.pageHit = pc.Early(session.CookieName, session.SecureCookieName)
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
		if r.Method != "GET" || r.Access != web.Public {
			continue
		}
		if scopes, ok := cachedPages[r.Path]; ok {
			a.Routes[i].Handler = a.PageCache.WrapTTL(scopes, shortLived[r.Path], r.Handler)
		}
	}
}

// cacheHit serves a held visitor's page (pagecache.Cache.Early) when the cache is on.
func (a *App) cacheHit(c fiber.Ctx) error {
	if a.pageHit == nil {
		return c.Next()
	}
	return a.pageHit(c)
}
