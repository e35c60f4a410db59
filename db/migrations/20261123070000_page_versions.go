package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// The page cache's version counters (app/pagecache): one row per data scope, bumped in
// the transaction of every write that changes a public page. The index serves the
// cache's "next grant expiry" lookup.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `
CREATE TABLE page_versions (
	scope TEXT PRIMARY KEY,
	version BIGINT NOT NULL
)`,
			`INSERT INTO page_versions (scope, version) VALUES ('badges', 1), ('grants', 1), ('profiles', 1)`,
			`CREATE INDEX badge_grants_expires_idx ON badge_grants (expires_at)`)
	}, noDown)
}
