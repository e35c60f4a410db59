package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// At most one unsubmitted quiz attempt per user and quiz: starting a quiz twice at once
// (two tabs, a double click) resumes the same attempt instead of creating two. Attempts
// whose time ran out are graded and closed before a new one starts (app/quiz).
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`CREATE UNIQUE INDEX quiz_attempts_open_uq ON quiz_attempts (user_id, quiz_id) WHERE submitted_at IS NULL`,
			`CREATE INDEX quiz_attempts_passed_idx ON quiz_attempts (user_id, badge_id, passed, submitted_at)`)
	}, noDown)
}
