package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Modified-Angoff standard setting (issue 35 item 2; app/angoff):
//   - angoff_panels: a panel an administrator opens for a quiz; closed_at is set when a
//     newer panel replaces it or its decision is taken (adopted_at when its cut was
//     adopted as the pass mark);
//   - angoff_raters: one expert of a panel, reached by a single-use link (only the
//     token's SHA-256 is stored); submitted_at spends the link;
//   - angoff_ratings: a rater's estimate, 0 to 100, that a minimally competent candidate
//     answers a question right (value NULL: the rater skipped the item);
//   - quizzes.pass_mark_method: how the pass mark was set ("modified Angoff, 6 raters,
//     2026-12-01"; empty: a fixed percentage set by the administrator).
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`CREATE TABLE angoff_panels (
	id TEXT PRIMARY KEY,
	quiz_id TEXT NOT NULL REFERENCES quizzes(id) ON DELETE CASCADE,
	created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
	created_at {ts} NOT NULL,
	closed_at {ts},
	adopted_at {ts}
)`,
			`CREATE INDEX angoff_panels_quiz_idx ON angoff_panels (quiz_id, created_at)`,
			`CREATE TABLE angoff_raters (
	id TEXT PRIMARY KEY,
	panel_id TEXT NOT NULL REFERENCES angoff_panels(id) ON DELETE CASCADE,
	position INTEGER NOT NULL,
	name TEXT NOT NULL,
	email TEXT,
	token_hash TEXT NOT NULL UNIQUE,
	started_at {ts},
	submitted_at {ts}
)`,
			`CREATE INDEX angoff_raters_panel_idx ON angoff_raters (panel_id, position)`,
			`CREATE TABLE angoff_ratings (
	rater_id TEXT NOT NULL REFERENCES angoff_raters(id) ON DELETE CASCADE,
	question_id TEXT NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
	value DOUBLE PRECISION,
	updated_at {ts} NOT NULL,
	PRIMARY KEY (rater_id, question_id)
)`,
			`ALTER TABLE quizzes ADD COLUMN pass_mark_method TEXT NOT NULL DEFAULT ''`,
		)
	}, noDown)
}
