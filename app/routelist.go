package app

import "meritmark/app/web"

// RouteRow is one row of the route table as `meritmark routes` prints it (no handler).
type RouteRow struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Access string `json:"access"`
	Kind   string `json:"kind"`
}

// RouteRows lists the route table built from d without serving it: the browser tests
// read the page rows from it (tests/browser/a11y.test.mjs), so a new page cannot escape
// the accessibility sweep. The features' constructors open what they need (signing keys),
// so d needs a Config, a Site and a migrated database. pagesOnly keeps the pages a browser asks for (GET rows
// of kind Page; not the POST fallbacks of the sign-in forms).
func RouteRows(d *Deps, pagesOnly bool) []RouteRow {
	a := &App{Deps: d}
	var out []RouteRow
	for _, r := range a.routeTable() {
		if pagesOnly && (r.Kind != web.Page || r.Method != "GET") {
			continue
		}
		kind := [...]string{"api", "page", "asset"}[r.Kind]
		out = append(out, RouteRow{Method: r.Method, Path: r.Path, Access: r.Access.String(), Kind: kind})
	}
	return out
}
