package quiz

import (
	"context"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// Result is the stored result of the user's attempt; an attempt whose time ran out
// unsubmitted is graded first. A running attempt answers 409.
func (s *Service) Result(ctx context.Context, userID, attemptID string) (*Result, error) {
	if !model.ValidID(attemptID) {
		return nil, web.NotFound(MsgAttemptNotFound)
	}
	a, err := s.st.attempt(ctx, s.DB, userID, attemptID, false)
	if errors.Is(err, db.ErrNotFound) {
		return nil, web.NotFound(MsgAttemptNotFound)
	} else if err != nil {
		return nil, err
	}
	if a.SubmittedAt == nil {
		if !Expired(a, s.now()) {
			return nil, web.Conflict(MsgInProgress)
		}
		if a, err = s.closeExpired(ctx, userID, a.ID); err != nil {
			return nil, err
		}
	}
	return s.result(ctx, a)
}

// grade grades the attempt from its response rows (each row's correct flag is set) and
// records the result; the attempts' JSON keeps the single-choice answers.
func (s *Service) grade(ctx context.Context, tx bun.Tx, a *model.QuizAttempt, qmap map[string]*model.Question, rows map[string]*model.QuizResponse, now time.Time) error {
	answers := chosenOf(rows)
	g := GradeAnswers(a.Layout, qmap, answers, a.PassingScore)
	single := map[string]int{}
	for id, c := range answers {
		if q, ok := qmap[id]; ok && !q.Multiple() && len(c) == 1 {
			single[id] = c[0]
		}
	}
	a.Answers = single
	a.SubmittedAt = &now
	a.CorrectCount, a.Total, a.Score, a.Passed = g.Correct, g.Total, g.Score, g.Passed
	ok, err := s.st.finish(ctx, tx, a)
	if err != nil {
		return err
	}
	if !ok { // graded elsewhere in the meantime: use what was stored
		stored, err := s.st.attempt(ctx, tx, a.UserID, a.ID, false)
		if err != nil {
			return err
		}
		*a = *stored
		return nil
	}
	for id, r := range rows {
		q, ok := qmap[id]
		right := ok && Right(q, r.Chosen)
		if right != r.Correct {
			r.Correct = right
			if err := s.st.saveResponse(ctx, tx, r); err != nil {
				return err
			}
		}
	}
	return s.checkIntegrity(ctx, tx, a, rows, now)
}

// result builds the answer for a submitted attempt: the figures, a per-topic breakdown and
// when the next attempt may start. Which option was right never leaves the server.
func (s *Service) result(ctx context.Context, a *model.QuizAttempt) (*Result, error) {
	qmap, err := s.st.questions(ctx, s.DB, a.Layout)
	if err != nil {
		return nil, err
	}
	r := &Result{AttemptID: a.ID, QuizID: a.QuizID, Score: a.Score, Passed: a.Passed, CorrectAnswers: a.CorrectCount,
		Total: a.Total, TimeSpent: TimeSpent(a), PassingScore: a.PassingScore, StartedAt: a.StartedAt.UTC()}
	if a.SubmittedAt != nil {
		r.SubmittedAt = a.SubmittedAt.UTC()
		r.Late = a.SubmittedAt.After(a.Deadline.Add(Grace))
	}
	if qz, err := s.st.quiz(ctx, s.DB, a.QuizID); err == nil {
		r.Title = qz.Title
		e, err := s.st.eligible(ctx, s.DB, qz, a.UserID, s.now())
		if err != nil {
			return nil, err
		}
		r.Eligibility = &e
	}
	r.Badge.ID = a.BadgeID
	if b, err := s.st.badge(ctx, s.DB, a.BadgeID); err == nil {
		r.Badge.Name = b.Name
	}
	rows, err := s.st.responses(ctx, s.DB, a.ID)
	if err != nil {
		return nil, err
	}
	answers := chosenOf(rows)
	for _, it := range a.Layout {
		if _, ok := answers[it.QuestionID]; ok {
			if _, ok := qmap[it.QuestionID]; ok {
				r.Answered++
			}
		}
	}
	r.Topics = Topics(a.Layout, qmap, answers)
	r.Integrity = integrityView(a)
	return r, nil
}

// find is the attempt's item for question id, the question (nil if it was deleted since
// the attempt started) and whether the attempt has it at all.
func find(layout []model.AttemptItem, qmap map[string]*model.Question, id string) (model.AttemptItem, *model.Question, bool) {
	for _, it := range layout {
		if it.QuestionID == id {
			return it, qmap[id], true
		}
	}
	return model.AttemptItem{}, nil, false
}

// shownAnswers is the attempt's saved answers as the runner shows them.
func shownAnswers(a *model.QuizAttempt, qmap map[string]*model.Question, rows map[string]*model.QuizResponse) map[string]any {
	out := map[string]any{}
	for _, it := range a.Layout {
		q, ok := qmap[it.QuestionID]
		if !ok {
			continue
		}
		if r, ok := rows[q.ID]; ok && len(r.Chosen) > 0 {
			if v := shownAnswer(q, VisibleOrder(it, q), r.Chosen); v != nil {
				out[q.ID] = v
			}
		}
	}
	return out
}

// ErrNoPassingAttempt means the user has no passed attempt at the badge's quiz that an
// application has not already used.
var ErrNoPassingAttempt = errors.New("quiz: no unused passing attempt")

// ErrAttemptUsed means the attempt is not a passed attempt free to be used.
var ErrAttemptUsed = errors.New("quiz: attempt already used or not passed")

// PassingAttempt is the user's latest passed, submitted attempt at the badge's quiz that
// no application has used yet (ErrNoPassingAttempt when there is none). The score and
// pass flag come from the server's grading only; call it inside the application's
// transaction and then UseAttempt.
func PassingAttempt(ctx context.Context, d bun.IDB, userID, badgeID string) (*model.QuizAttempt, error) {
	a := new(model.QuizAttempt)
	err := d.NewSelect().Model(a).
		Where("user_id = ? AND badge_id = ?", userID, badgeID).
		Where("submitted_at IS NOT NULL AND passed = ? AND application_id IS NULL", true).
		OrderExpr("submitted_at DESC, id DESC").Limit(1).Scan(ctx)
	if errors.Is(notFound(err), db.ErrNotFound) {
		return nil, ErrNoPassingAttempt
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// UseAttempt ties a passed attempt to the application it was used for, once
// (ErrAttemptUsed if it was used already or did not pass).
func UseAttempt(ctx context.Context, d bun.IDB, userID, attemptID, applicationID string) error {
	res, err := d.NewUpdate().Model((*model.QuizAttempt)(nil)).
		Set("application_id = ?", applicationID).
		Where("id = ? AND user_id = ?", attemptID, userID).
		Where("submitted_at IS NOT NULL AND passed = ? AND application_id IS NULL", true).
		Exec(ctx)
	ok, err := affected(res, err)
	if err != nil {
		return err
	}
	if !ok {
		return ErrAttemptUsed
	}
	return nil
}
