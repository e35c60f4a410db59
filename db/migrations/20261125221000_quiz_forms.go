package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Balanced random forms (app/quiz, form.go; app/quizadmin):
//   - quizzes.blueprint: JSON [{"topic": "...", "count": n}] (NULL or [] = draw
//     questions_per_attempt from the whole pool, as before);
//   - quizzes.target_difficulty: the target mean proportion correct of a form (NULL = the
//     pool's mean);
//   - quizzes.max_exposure: the most forms, in percent of the last 200 drawn, one item may
//     appear in while the pool can do without it;
//   - questions.family_of: the question this one is a variant or an enemy of (a family is
//     every question linked through these; never two on one form);
//   - questions.retired_at: set when the question is retired (never drawn again, kept for
//     history and statistics).
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`ALTER TABLE quizzes ADD COLUMN blueprint TEXT`,
			`ALTER TABLE quizzes ADD COLUMN target_difficulty DOUBLE PRECISION`,
			`ALTER TABLE quizzes ADD COLUMN max_exposure INTEGER NOT NULL DEFAULT 40`,
			`ALTER TABLE questions ADD COLUMN family_of TEXT REFERENCES questions(id) ON DELETE SET NULL`,
			`ALTER TABLE questions ADD COLUMN retired_at {ts}`,
			`CREATE INDEX quiz_attempts_quiz_started_idx ON quiz_attempts (quiz_id, started_at)`)
	}, noDown)
}
