package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Indexes of the dashboard's dense tables (issue 37, item 1; app/admin/tables.go): every
// sort the applications, grants and users tables offer walks an index, and the grants
// table's revoked filter and count read one (benchmarks in docs/performance.md).
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`CREATE INDEX IF NOT EXISTS applications_created_id_idx ON applications (created_at, id)`,
			`CREATE INDEX IF NOT EXISTS applications_status_created_idx ON applications (status, created_at, id)`,
			`CREATE INDEX IF NOT EXISTS applications_updated_idx ON applications (updated_at, id)`,
			`CREATE INDEX IF NOT EXISTS applications_name_idx ON applications (full_name, id)`,
			`CREATE INDEX IF NOT EXISTS applications_email_idx ON applications (email, id)`,
			`CREATE INDEX IF NOT EXISTS applications_price_idx ON applications (price_cents, id)`,
			`CREATE INDEX IF NOT EXISTS badge_grants_granted_idx ON badge_grants (granted_at, id)`,
			`CREATE INDEX IF NOT EXISTS badge_grants_revoked_idx ON badge_grants (revoked_at)`,
			`CREATE INDEX IF NOT EXISTS users_name_idx ON users (name, id)`,
		)
	}, noDown)
}
