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
