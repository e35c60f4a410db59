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

// Start starts the member's attempt at the badge's quiz (POST), or resumes the one
// running. The retake rule may refuse it (*RetakeRefused); an extra attempt granted by an
// administrator is used when the rule would refuse. Concurrent starts make one attempt.
func (s *Service) Start(ctx context.Context, u *model.User, badgeID string) (*QuizView, error) {
	b, qz, err := s.open(ctx, u, badgeID)
	if err != nil {
		return nil, err
	}
	a, err := s.currentAttempt(ctx, u.ID, qz)
	if err != nil {
		return nil, err
	}
	view, _, err := s.baseView(ctx, b, qz, u.ID)
	if err != nil {
		return nil, err
	}
	if err := s.fillAttempt(ctx, view, a); err != nil {
		return nil, err
	}
	return view, nil
}

// fillAttempt puts the running attempt's questions (in its order, options shuffled, no
// answers) and the member's saved choices into view.
func (s *Service) fillAttempt(ctx context.Context, view *QuizView, a *model.QuizAttempt) error {
	qmap, err := s.st.questions(ctx, s.DB, a.Layout)
	if err != nil {
		return err
	}
	rows, err := s.st.responses(ctx, s.DB, a.ID)
	if err != nil {
		return err
	}
	view.PassingScore = a.PassingScore
	av := &AttemptView{ID: a.ID, StartedAt: a.StartedAt.UTC(), Deadline: a.Deadline.UTC(), ServerNow: s.now(), Answers: map[string]any{}}
	for _, it := range a.Layout {
		q, ok := qmap[it.QuestionID]
		if !ok {
			continue
		}
		order := VisibleOrder(it, q)
		qv := QuestionView{ID: q.ID, Text: q.Text, Options: ShownOptions(order, q), Type: model.QuestionSingle}
		if q.Multiple() {
			qv.Type = model.QuestionMultiple
			if q.ShowCount {
				n := len(q.CorrectIndexes)
				qv.Pick = &n
			}
		}
		view.Questions = append(view.Questions, qv)
		chosen := []int(nil)
		if r, ok := rows[q.ID]; ok {
			chosen = r.Chosen
		} else if v, ok := a.Answers[q.ID]; ok {
			chosen = []int{v}
		}
		if len(chosen) > 0 {
			if v := shownAnswer(q, order, chosen); v != nil {
				av.Answers[q.ID] = v
			}
		}
	}
	view.Attempt = av
	return nil
}

// currentAttempt resumes the user's running attempt at qz; an attempt whose time (plus
// grace) ran out is graded on its saved answers and closed, and a new one starts if the
// retake rule allows it (checked, and any extra attempt used, in the insert's transaction).
func (s *Service) currentAttempt(ctx context.Context, userID string, qz *model.Quiz) (*model.QuizAttempt, error) {
	for try := 0; try < 5; try++ {
		a, err := s.st.openAttempt(ctx, s.DB, userID, qz.ID)
		switch {
		case err == nil && !Expired(a, s.now()):
			return a, nil
		case err == nil:
			if _, err := s.closeExpired(ctx, userID, a.ID); err != nil {
				return nil, err
			}
		case !errors.Is(err, db.ErrNotFound):
			return nil, err
		}
		if s.Limiter != nil {
			ok, err := s.Limiter.Allow(ctx, "quiz-start:"+userID, StartLimit, StartWindow)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, web.TooMany(MsgTooManyAttempts)
			}
		}
		// The form is drawn before the write transaction: reading the pool's statistics
		// and the recent forms is most of a start's work, and in the transaction it held
		// SQLite's one writer from every other write. The transaction draws again only if
		// the form it avoids (the user's last) is no longer the last. A start the retake
		// rule refuses draws nothing (the transaction checks the rule again).
		if e, err := s.st.eligible(ctx, s.DB, qz, userID, s.now()); err != nil {
			return nil, err
		} else if !e.CanStart {
			return nil, &RetakeRefused{Eligibility: e}
		}
		layout, after, drawErr := s.drawLayout(ctx, s.DB, qz, userID)
		err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			now := s.now()
			if _, err := s.st.openAttempt(ctx, tx, userID, qz.ID); err == nil {
				return errRace // started in the meantime: resume it
			} else if !errors.Is(err, db.ErrNotFound) {
				return err
			}
			e, err := s.st.eligible(ctx, tx, qz, userID, now)
			if err != nil {
				return err
			}
			if !e.CanStart {
				return &RetakeRefused{Eligibility: e}
			}
			if drawErr != nil {
				return drawErr
			}
			if len(qz.Blueprint) > 0 {
				last, err := s.st.lastAttempt(ctx, tx, userID, qz.ID, "id")
				if err != nil {
					return err
				}
				if last.ID != after {
					if layout, _, err = s.drawLayout(ctx, tx, qz, userID); err != nil {
						return err
					}
				}
			}
			a = &model.QuizAttempt{
				ID: model.NewID(), UserID: userID, QuizID: qz.ID, BadgeID: qz.BadgeID,
				Layout: layout, Answers: map[string]int{},
				StartedAt: now, Deadline: now.Add(time.Duration(qz.TimeLimit) * time.Minute),
				Total: len(layout), PassingScore: qz.PassingScore,
			}
			if err := s.st.insertAttempt(ctx, tx, a); err != nil {
				if db.IsUniqueViolation(err) {
					return errRace
				}
				return err
			}
			qmap, err := s.st.questions(ctx, tx, layout)
			if err != nil {
				return err
			}
			if err := WriteResponses(ctx, tx, a, qmap); err != nil {
				return err
			}
			if e.UsesExtra {
				if ok, err := s.st.useGrant(ctx, tx, userID, qz.ID, a.ID, now); err != nil {
					return err
				} else if !ok {
					return errRace // the extra attempt was used by a start at the same moment
				}
			}
			return nil
		})
		if err == nil {
			return a, nil
		}
		if !errors.Is(err, errRace) && !db.IsUniqueViolation(err) {
			return nil, err
		}
		// started at the same moment elsewhere (another tab, a double click): resume that one
	}
	return nil, errors.New("quiz: could not start an attempt")
}

var errRace = errors.New("quiz: attempt started concurrently")

// SaveAnswer records the options shown at positions shown as the answer to questionID
// (one for a single-choice question; any number for a multiple-response one, none
// clearing it) with the time on the item the runner reports, and returns the saved
// answers as the runner shows them. Refused once submitted or past the deadline.
func (s *Service) SaveAnswer(ctx context.Context, userID, attemptID, questionID string, shown []int, spent time.Duration) (map[string]any, error) {
	if !model.ValidID(attemptID) {
		return nil, web.NotFound(MsgAttemptNotFound)
	}
	var out map[string]any
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		a, err := s.st.attempt(ctx, tx, userID, attemptID, true)
		if errors.Is(err, db.ErrNotFound) {
			return web.NotFound(MsgAttemptNotFound)
		} else if err != nil {
			return err
		}
		if a.SubmittedAt != nil {
			return web.Conflict(MsgAlreadySubmitted)
		}
		now := s.now()
		if !Open(a, now) {
			return web.Conflict(MsgTimeUp)
		}
		qmap, err := s.st.questions(ctx, tx, a.Layout)
		if err != nil {
			return err
		}
		it, q, _ := find(a.Layout, qmap, questionID)
		if q == nil {
			return web.BadRequest(MsgUnknownQuestion)
		}
		chosen, ok := ChosenOriginal(VisibleOrder(it, q), q, shown)
		if !ok {
			return web.BadRequest(MsgBadOption)
		}
		rows, err := s.attemptResponses(ctx, tx, a, qmap)
		if err != nil {
			return err
		}
		r := rows[questionID]
		if Record(r, chosen, spent, a.StartedAt, now) {
			if err := s.st.saveResponse(ctx, tx, r); err != nil {
				return err
			}
		}
		if !q.Multiple() {
			if a.Answers == nil {
				a.Answers = map[string]int{}
			}
			a.Answers[questionID] = chosen[0]
			if ok, err := s.st.saveAnswers(ctx, tx, a); err != nil {
				return err
			} else if !ok {
				return web.Conflict(MsgAlreadySubmitted)
			}
		}
		out = shownAnswers(a, qmap, rows)
		return nil
	})
	return out, err
}

// Submit grades the attempt with answers (question id -> shown indexes; nil = unanswered)
// and records the result once. A second submission returns the stored result.
func (s *Service) Submit(ctx context.Context, userID, attemptID string, answers map[string][]int) (*Result, error) {
	if !model.ValidID(attemptID) {
		return nil, web.NotFound(MsgAttemptNotFound)
	}
	var a *model.QuizAttempt
	late := false
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		late = false
		a, err = s.st.attempt(ctx, tx, userID, attemptID, true)
		if errors.Is(err, db.ErrNotFound) {
			return web.NotFound(MsgAttemptNotFound)
		} else if err != nil {
			return err
		}
		if a.SubmittedAt != nil {
			return nil // already graded: answer the stored result
		}
		qmap, err := s.st.questions(ctx, tx, a.Layout)
		if err != nil {
			return err
		}
		chosen := map[string][]int{}
		for qid, shown := range answers {
			it, q, ok := find(a.Layout, qmap, qid)
			if !ok {
				return web.BadRequest(MsgUnknownQuestion)
			}
			if shown == nil || q == nil {
				continue // unanswered, or the question was deleted during the attempt
			}
			c, ok := ChosenOriginal(VisibleOrder(it, q), q, shown)
			if !ok {
				return web.BadRequest(MsgBadOption)
			}
			chosen[qid] = c
		}
		now := s.now()
		rows, err := s.attemptResponses(ctx, tx, a, qmap)
		if err != nil {
			return err
		}
		if AcceptsSubmission(a, now) {
			for qid, c := range chosen {
				if r := rows[qid]; r != nil && Record(r, c, 0, a.StartedAt, now) {
					if err := s.st.saveResponse(ctx, tx, r); err != nil {
						return err
					}
				}
			}
		} else {
			late = true
		}
		return s.grade(ctx, tx, a, qmap, rows, now)
	})
	if err != nil {
		return nil, err
	}
	if late {
		return nil, &LateSubmission{AttemptID: a.ID}
	}
	return s.result(ctx, a)
}

// LateSubmission is a submission after the deadline plus Grace: the answers it carried were
// ignored and the attempt was graded on the answers saved before the deadline.
type LateSubmission struct{ AttemptID string }

func (e *LateSubmission) Error() string { return MsgLate }

// closeExpired grades an attempt whose time ran out on the answers saved before the
// deadline, and returns it as stored.
func (s *Service) closeExpired(ctx context.Context, userID, attemptID string) (*model.QuizAttempt, error) {
	var a *model.QuizAttempt
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		a, err = s.st.attempt(ctx, tx, userID, attemptID, true)
		if err != nil || a.SubmittedAt != nil {
			return err
		}
		qmap, err := s.st.questions(ctx, tx, a.Layout)
		if err != nil {
			return err
		}
		rows, err := s.attemptResponses(ctx, tx, a, qmap)
		if err != nil {
			return err
		}
		return s.grade(ctx, tx, a, qmap, rows, s.now())
	})
	return a, err
}
