package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Integrity checks before a grant (issue 35, item 3; app/quiz integrity.go):
//   - quizzes.min_item_seconds: the speed floor the administrator sets (0 = no speed check);
//   - quiz_attempts.integrity_status: ” (not flagged), 'flagged' (a pass under review),
//     'cleared' or 'voided' (the administrator's decision); integrity_flags: the reasons, a
//     JSON list of {code, reason}; the member's statement (appeal) and when; who decided
//     and when;
//   - badge_grants.hide_score: the holder keeps the score off the public verify page (the
//     signed credential still carries it).
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`ALTER TABLE quizzes ADD COLUMN min_item_seconds INTEGER NOT NULL DEFAULT 0`,
			`ALTER TABLE quiz_attempts ADD COLUMN integrity_status TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE quiz_attempts ADD COLUMN integrity_flags TEXT`,
			`ALTER TABLE quiz_attempts ADD COLUMN appeal TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE quiz_attempts ADD COLUMN appeal_at {ts}`,
			`ALTER TABLE quiz_attempts ADD COLUMN integrity_decided_at {ts}`,
			`ALTER TABLE quiz_attempts ADD COLUMN integrity_decided_by TEXT`,
			`ALTER TABLE badge_grants ADD COLUMN hide_score {bool} NOT NULL DEFAULT FALSE`,
		)
	}, noDown)
}
