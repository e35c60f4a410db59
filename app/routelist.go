package app

import (
	"strings"

	"meritmark/app/web"
)

// RouteRow is one row of the route table as `meritmark routes` prints it (no handler).
type RouteRow struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Access string `json:"access"`
	Kind   string `json:"kind"`
	// Cache names the scopes of a page-cached row ("-" for a cached page that shows no
	// data; empty when the row is not cached), with its TTL when it has one.
	Cache string `json:"cache,omitempty"`
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
		out = append(out, RouteRow{Method: r.Method, Path: r.Path, Access: r.Access.String(), Kind: kind, Cache: cacheLabel(r.Cache)})
	}
	return out
}

func cacheLabel(c *web.Cache) string {
	if c == nil {
		return ""
	}
	names := make([]string, len(c.Scopes))
	for i, s := range c.Scopes {
		names[i] = s.String()
	}
	l := strings.Join(names, ",")
	if l == "" {
		l = "-"
	}
	if c.TTL > 0 {
		l += " (" + c.TTL.String() + ")"
	}
	return l
}
