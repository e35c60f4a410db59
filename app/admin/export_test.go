package admin

import (
	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// ExplainList is the SQL a list page runs (for the benchmark's query plans).
func ExplainList(d bun.IDB, kind, status, search string, pg Page) string {
	if kind == "grants" {
		var rows []grantListRow
		return grantsQuery(d, &rows, status, search, nil, model.Now(), pg).String()
	}
	statuses, _ := ParseStatuses(status)
	var apps []model.Application
	return applicationsQuery(d, &apps, statuses, search, pg, true).String()
}
