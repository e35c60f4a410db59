package migrations

import (
	"context"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"
)

// Item types and recorded responses (app/quiz, app/quizadmin; docs/assessment.md):
//   - questions.type: 'single' (one correct option, correct_index) or 'multiple' ("select
//     all that apply": correct_indexes, a JSON list of the correct options' indexes);
//   - questions.show_count: a multiple-response question tells how many to pick;
//   - quiz_responses: one row per question of an attempt (its quiz, its position, the options in
//     the order shown, the chosen original option indexes as a JSON list or NULL, whether
//     that was right, the first and last answer times, how often the answer changed and
//     the time on the item the runner reported, bounded by the server's timestamps).
//
// Attempts made before this migration get their rows from the attempts' JSON (answer
// times and changes unknown: NULL and 0).
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		if err := Exec(ctx, d,
			`ALTER TABLE questions ADD COLUMN type TEXT NOT NULL DEFAULT 'single'`,
			`ALTER TABLE questions ADD COLUMN correct_indexes TEXT`,
			`ALTER TABLE questions ADD COLUMN show_count {bool} NOT NULL DEFAULT FALSE`,
			`CREATE TABLE quiz_responses (
	attempt_id TEXT NOT NULL REFERENCES quiz_attempts(id) ON DELETE CASCADE,
	question_id TEXT NOT NULL,
	quiz_id TEXT NOT NULL,
	position INTEGER NOT NULL,
	option_order TEXT NOT NULL,
	options TEXT NOT NULL,
	chosen TEXT,
	correct {bool} NOT NULL DEFAULT FALSE,
	first_answered_at {ts},
	last_answered_at {ts},
	changes INTEGER NOT NULL DEFAULT 0,
	time_ms BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (attempt_id, question_id)
)`,
			`CREATE INDEX quiz_responses_question_idx ON quiz_responses (question_id)`,
			// the item analysis reads a quiz's responses from this index alone
			`CREATE INDEX quiz_responses_quiz_idx ON quiz_responses (quiz_id, attempt_id, question_id, correct)`); err != nil {
			return err
		}
		return backfillResponses(ctx, d)
	}, noDown)
}

type bfAttempt struct {
	ID          string     `bun:"id"`
	QuizID      string     `bun:"quiz_id"`
	Layout      string     `bun:"layout"`
	Answers     string     `bun:"answers"`
	SubmittedAt *time.Time `bun:"submitted_at"`
}

type bfQuestion struct {
	ID           string `bun:"id"`
	Options      string `bun:"options"`
	CorrectIndex int    `bun:"correct_index"`
}

// backfillResponses writes the rows of the attempts stored so far.
func backfillResponses(ctx context.Context, d *bun.DB) error {
	return d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var qs []bfQuestion
		if err := tx.NewRaw(`SELECT id, COALESCE(options, '') AS options, correct_index FROM questions`).Scan(ctx, &qs); err != nil {
			return err
		}
		type question struct {
			options []string
			correct int
		}
		byID := map[string]question{}
		for _, q := range qs {
			var opts []string
			_ = json.Unmarshal([]byte(q.Options), &opts)
			byID[q.ID] = question{opts, q.CorrectIndex}
		}
		var as []bfAttempt
		if err := tx.NewRaw(`SELECT id, quiz_id, layout, COALESCE(answers, '') AS answers, submitted_at FROM quiz_attempts`).Scan(ctx, &as); err != nil {
			return err
		}
		for _, a := range as {
			var layout []struct {
				Q string `json:"q"`
				O []int  `json:"o"`
			}
			var answers map[string]int
			_ = json.Unmarshal([]byte(a.Layout), &layout)
			_ = json.Unmarshal([]byte(a.Answers), &answers)
			for pos, it := range layout {
				q, ok := byID[it.Q]
				if !ok {
					continue
				}
				order := []int{}
				shown := []string{}
				for _, o := range it.O {
					if o >= 0 && o < len(q.options) {
						order = append(order, o)
						shown = append(shown, q.options[o])
					}
				}
				ob, _ := json.Marshal(order)
				sb, _ := json.Marshal(shown)
				var chosen *string
				correct := false
				if v, ok := answers[it.Q]; ok {
					c := "[" + itoa(v) + "]"
					chosen = &c
					correct = a.SubmittedAt != nil && v == q.correct
				}
				if _, err := tx.NewRaw(`INSERT INTO quiz_responses (attempt_id, question_id, quiz_id, position, option_order, options, chosen, correct)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, a.ID, it.Q, a.QuizID, pos, string(ob), string(sb), chosen, correct).Exec(ctx); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
