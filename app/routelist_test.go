package app_test

import (
	"testing"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/web"
)

// `meritmark routes --pages` (the browser tests' list of pages to sweep) lists exactly the
// GET page rows of the route table the server registers, with their access.
func TestRouteRowsListThePageRoutes(t *testing.T) {
	e := apptest.New(t)
	rows := app.RouteRows(e.App.Deps, true)
	got := map[string]string{}
	for _, r := range rows {
		apptest.Want(t, "not a GET page", r,
			apptest.Eq("r.Method", r.Method, "GET"),
			apptest.Eq("r.Kind", r.Kind, "page"))
		got[r.Path] = r.Access
	}
	want := 0
	for _, r := range e.App.Routes {
		if r.Kind == web.Page && r.Method == "GET" {
			want++
			if got[r.Path] != r.Access.String() {
				t.Errorf("%s: listed as %q, registered as %s", r.Path, got[r.Path], r.Access)
			}
		}
	}
	if len(rows) != want || want < 25 {
		t.Fatalf("%d rows listed, %d page routes registered", len(rows), want)
	}
	for path, access := range map[string]string{"/": "public", "/badges/:id": "public", "/profile": "member", "/admin": "admin"} {
		if got[path] != access {
			t.Errorf("%s: %q, want %s", path, got[path], access)
		}
	}
	if all := app.RouteRows(e.App.Deps, false); len(all) <= len(rows) {
		t.Errorf("without --pages: %d rows, with: %d", len(all), len(rows))
	}
}

// The page cache serves exactly the visitor GET rows that say Cached, each naming the data
// it shows: a page that shows grants but forgets the scope would serve a revoked badge as
// valid until the TTL.
func TestCachedRowsNameTheirScopes(t *testing.T) {
	e := apptest.New(t)
	got := map[string]string{}
	for _, r := range app.RouteRows(e.App.Deps, false) {
		if r.Cache == "" {
			continue
		}
		if r.Method != "GET" || r.Access != "public" {
			t.Errorf("%s %s (%s) is cached", r.Method, r.Path, r.Access)
		}
		got[r.Path] = r.Cache
	}
	all := "badges,grants,profiles"
	want := map[string]string{
		"/": "-", "/about": "-", "/privacypolicy": "-",
		"/badges": "badges", "/badges/:id": "badges", "/badges/:id/assessment": "badges (5m0s)",
		"/sitemap.xml": "badges", web.APIBase + "/badges/with-ownership": "badges",
		"/hall-of-fame": all, web.APIBase + "/hall-of-fame": all, "/profile/:id": all,
		"/verify/:verificationId": all, "/verify-badge": all,
	}
	for path, cache := range want {
		if got[path] != cache {
			t.Errorf("%s: cache %q, want %q", path, got[path], cache)
		}
	}
	for _, private := range []string{"/profile", "/admin", web.APIBase + "/users/me"} {
		if c, ok := got[private]; ok {
			t.Errorf("%s is cached (%s)", private, c)
		}
	}
}
