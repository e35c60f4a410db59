package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Admin review (app/admin): the dashboard's lists and the audit log's per-target history.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`CREATE INDEX applications_created_idx ON applications (created_at)`,
			`CREATE INDEX users_created_idx ON users (created_at)`,
			`CREATE INDEX users_role_idx ON users (role)`,
			`CREATE INDEX audit_log_target_idx ON audit_log (target_id, created_at)`,
			`CREATE INDEX audit_log_action_idx ON audit_log (action, created_at)`)
	}, noDown)
}
