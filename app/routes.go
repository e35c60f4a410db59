package app

import (
	"net/url"

	"meritmark/app/pages"
	"meritmark/app/web"
)

// routeTable is the one route table: every route the application serves, with its access.
// Each feature declares its rows beside its handlers (Routes()); this is where they are
// assembled, registered by New and walked by the permission tests.
func (a *App) routeTable() []web.Route {
	d := a.Deps
	var rs []web.Route
	rs = append(rs, pages.New(d.Site).Routes()...)
	return rs
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }
