package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Quiz pools and retake rules (app/quiz, app/quizadmin):
//   - questions_per_attempt: how many questions each attempt draws from the quiz's pool
//     (0 = the whole pool);
//   - retake_wait_hours: the wait after a failed attempt before the next may start;
//   - max_attempts per attempt_period_days (0 = no cap).
//
// quiz_attempt_grants are extra attempts an administrator gave a member: one unused grant
// lets the member start an attempt the rules would refuse; starting it uses the grant.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`ALTER TABLE quizzes ADD COLUMN questions_per_attempt INTEGER NOT NULL DEFAULT 0`,
			`ALTER TABLE quizzes ADD COLUMN retake_wait_hours INTEGER NOT NULL DEFAULT 24`,
			`ALTER TABLE quizzes ADD COLUMN max_attempts INTEGER NOT NULL DEFAULT 3`,
			`ALTER TABLE quizzes ADD COLUMN attempt_period_days INTEGER NOT NULL DEFAULT 30`, `
CREATE TABLE quiz_attempt_grants (
	id TEXT PRIMARY KEY,
	quiz_id TEXT NOT NULL REFERENCES quizzes(id) ON DELETE CASCADE,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	granted_by TEXT,
	created_at {ts} NOT NULL,
	used_at {ts},
	attempt_id TEXT
)`,
			`CREATE INDEX quiz_attempt_grants_user_idx ON quiz_attempt_grants (user_id, quiz_id, used_at)`,
			`CREATE INDEX quiz_attempts_quiz_idx ON quiz_attempts (quiz_id, submitted_at)`)
	}, noDown)
}
