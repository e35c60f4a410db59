package app

import (
	"time"

	"meritmark/app/pagecache"
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
	for i, r := range a.Routes {
		if r.Method != "GET" || r.Access != web.Public {
			continue
		}
		if scopes, ok := cachedPages[r.Path]; ok {
			a.Routes[i].Handler = a.PageCache.WrapTTL(scopes, shortLived[r.Path], r.Handler)
		}
	}
}
