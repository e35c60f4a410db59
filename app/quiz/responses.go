package quiz

import (
	"context"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// Responses: every question of an attempt has a row in quiz_responses from the start
// (model.QuizResponse). Saving an answer records it there (the chosen options, the
// answer times, a change count and the time on the item the runner reports); submission
// grades from these rows. The attempt's answers JSON keeps the single-choice answers too,
// for readers written before the table.

// MaxItemTime caps one report of time on an item (the runner's timeMs).
const MaxItemTime = 24 * time.Hour

// Right reports whether chosen (original option indexes, any order) is exactly q's key.
func Right(q *model.Question, chosen []int) bool {
	if len(chosen) == 0 {
		return false
	}
	c := slices.Clone(chosen)
	slices.Sort(c)
	k := slices.Clone(q.Key())
	slices.Sort(k)
	return slices.Equal(c, k)
}

// ChosenOriginal maps the options shown at positions shown to q's own indexes (ascending).
// A single-choice question takes exactly one; a multiple-response one any number of
// distinct options (none clears the answer). False for an index out of range, a
// repeated one, or several for a single-choice question.
func ChosenOriginal(order []int, q *model.Question, shown []int) ([]int, bool) {
	if !q.Multiple() && len(shown) != 1 {
		return nil, false
	}
	out := make([]int, 0, len(shown))
	for _, s := range shown {
		o, ok := ToOriginal(order, s)
		if !ok || slices.Contains(out, o) {
			return nil, false
		}
		out = append(out, o)
	}
	slices.Sort(out)
	return out, true
}

// ChosenShown maps chosen original indexes to where the attempt shows them (ascending);
// options no longer shown are left out.
func ChosenShown(order []int, chosen []int) []int {
	out := []int{}
	for _, o := range chosen {
		if s, ok := ToShown(order, o); ok {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// Record applies an answer saved at now to r: the chosen options (nil or empty: none),
// the first and last answer times, the change count (a different answer after one was
// saved) and the reported time on the item, bounded by the time since the attempt
// started. It reports whether anything changed.
func Record(r *model.QuizResponse, chosen []int, reported time.Duration, startedAt, now time.Time) bool {
	changed := false
	if !slices.Equal(r.Chosen, chosen) && !(len(r.Chosen) == 0 && len(chosen) == 0) {
		if len(r.Chosen) > 0 {
			r.Changes++
		}
		if len(chosen) == 0 {
			r.Chosen = nil
		} else {
			r.Chosen = chosen
		}
		t := now
		if r.FirstAnsweredAt == nil && len(chosen) > 0 {
			r.FirstAnsweredAt = &t
		}
		r.LastAnsweredAt = &t
		changed = true
	}
	if reported > 0 {
		limit := now.Sub(startedAt)
		if limit < 0 {
			limit = 0
		}
		total := time.Duration(r.TimeMs)*time.Millisecond + min(reported, MaxItemTime)
		if total > limit {
			total = limit
		}
		if ms := total.Milliseconds(); ms != r.TimeMs {
			r.TimeMs = ms
			changed = true
		}
	}
	return changed
}

// NewResponses is the attempt's rows as it starts: each question at its position with the
// options in the order shown, unanswered. Chosen answers already in a.Answers (attempts
// written by older code or by tests) are carried over, and graded when a is submitted.
func NewResponses(a *model.QuizAttempt, qmap map[string]*model.Question) []model.QuizResponse {
	out := make([]model.QuizResponse, 0, len(a.Layout))
	for pos, it := range a.Layout {
		q, ok := qmap[it.QuestionID]
		if !ok {
			continue
		}
		order := VisibleOrder(it, q)
		r := model.QuizResponse{AttemptID: a.ID, QuestionID: q.ID, QuizID: a.QuizID, Position: pos, OptionOrder: order, Options: ShownOptions(order, q)}
		if v, ok := a.Answers[q.ID]; ok {
			r.Chosen = []int{v}
			r.Correct = a.SubmittedAt != nil && Right(q, r.Chosen)
		}
		out = append(out, r)
	}
	return out
}

// WriteResponses inserts the rows NewResponses makes for a.
func WriteResponses(ctx context.Context, d bun.IDB, a *model.QuizAttempt, qmap map[string]*model.Question) error {
	rows := NewResponses(a, qmap)
	if len(rows) == 0 {
		return nil
	}
	_, err := d.NewInsert().Model(&rows).Exec(ctx)
	return err
}

// responses is the attempt's rows by question id.
func (st store) responses(ctx context.Context, d bun.IDB, attemptID string) (map[string]*model.QuizResponse, error) {
	var rows []model.QuizResponse
	if err := st.scan(ctx, d, sResponses, &rows, func(d bun.IDB) string {
		return d.NewSelect().Model(&rows).Where("attempt_id = ?", arg).String()
	}, attemptID); err != nil {
		return nil, err
	}
	out := make(map[string]*model.QuizResponse, len(rows))
	for i := range rows {
		out[rows[i].QuestionID] = &rows[i]
	}
	return out, nil
}

// saveResponse writes a row's answer fields (inserting it for an attempt that has none:
// started before the table, or a question added to its layout's map since).
func (store) saveResponse(ctx context.Context, d bun.IDB, r *model.QuizResponse) error {
	_, err := d.NewInsert().Model(r).
		On("CONFLICT (attempt_id, question_id) DO UPDATE").
		Set("chosen = EXCLUDED.chosen, correct = EXCLUDED.correct, first_answered_at = EXCLUDED.first_answered_at").
		Set("last_answered_at = EXCLUDED.last_answered_at, changes = EXCLUDED.changes, time_ms = EXCLUDED.time_ms").
		Exec(ctx)
	return err
}

// attemptResponses is the attempt's rows, made (and stored) for the questions that have
// none.
func (s *Service) attemptResponses(ctx context.Context, d bun.IDB, a *model.QuizAttempt, qmap map[string]*model.Question) (map[string]*model.QuizResponse, error) {
	rows, err := s.st.responses(ctx, d, a.ID)
	if err != nil {
		return nil, err
	}
	for _, r := range NewResponses(a, qmap) {
		if _, ok := rows[r.QuestionID]; ok {
			continue
		}
		r := r
		if err := s.st.saveResponse(ctx, d, &r); err != nil {
			return nil, err
		}
		rows[r.QuestionID] = &r
	}
	return rows, nil
}

// chosenOf is the attempt's chosen original options by question id (answered only).
func chosenOf(rows map[string]*model.QuizResponse) map[string][]int {
	out := map[string][]int{}
	for id, r := range rows {
		if len(r.Chosen) > 0 {
			out[id] = r.Chosen
		}
	}
	return out
}

// shownAnswer is an answer as the runner gets it: the shown index for a single-choice
// question, the list of shown indexes for a multiple-response one.
func shownAnswer(q *model.Question, order []int, chosen []int) any {
	shown := ChosenShown(order, chosen)
	if q.Multiple() {
		return shown
	}
	if len(shown) == 0 {
		return nil
	}
	return shown[0]
}
