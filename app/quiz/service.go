package quiz

import (
	"context"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/ratelimit"
	"meritmark/app/web"
	"meritmark/db"
)

// StartLimit is how many new attempts one user may start per StartWindow (reloads resume
// the same attempt and are not counted).
const (
	StartLimit  = 30
	StartWindow = time.Hour
)

// Service runs quizzes: start or resume an attempt, save answers, submit and grade.
type Service struct {
	DB      *bun.DB
	Limiter *ratelimit.Limiter // nil: no limit
	Now     func() time.Time   // nil: model.Now
	Perm    func(n int) []int  // nil: math/rand/v2 Perm
	st      store
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return model.Now()
}

// BadgeRef names the quiz's badge.
type BadgeRef struct {
	ID   string `json:"_id"`
	Name string `json:"name"`
}

// QuestionView is a question as the quiz screen gets it: no answer, no explanation.
type QuestionView struct {
	ID      string   `json:"_id"`
	Text    string   `json:"text"`
	Options []string `json:"options"`
}

// AttemptView is the running attempt: the server's deadline and clock, and the answers
// saved so far (question id -> shown option index).
type AttemptView struct {
	ID        string         `json:"_id"`
	StartedAt time.Time      `json:"startedAt"`
	Deadline  time.Time      `json:"deadline"`
	ServerNow time.Time      `json:"serverNow"`
	Answers   map[string]int `json:"answers"`
}

// QuizView answers GET /quiz/badge/{badgeId} (the start screen: nothing changes) and
// POST /quiz/badge/{badgeId}/start (starts or resumes the attempt). Questions and Attempt
// are set only while an attempt runs. No field ever says which option is correct.
type QuizView struct {
	ID                  string         `json:"_id"`
	Title               string         `json:"title"`
	Description         string         `json:"description"`
	PassingScore        int            `json:"passingScore"`
	TimeLimit           int            `json:"timeLimit"`
	QuestionsPerAttempt int            `json:"questionsPerAttempt"`
	PoolSize            int            `json:"poolSize"`
	RetakeRule          RuleView       `json:"retakeRule"`
	Eligibility         Eligibility    `json:"eligibility"`
	Badge               BadgeRef       `json:"badge"`
	Questions           []QuestionView `json:"questions"`
	Attempt             *AttemptView   `json:"attempt"`
	LastAttempt         *AttemptRef    `json:"lastAttempt"`
}

// RuleView is a quiz's retake rule with its wording.
type RuleView struct {
	WaitHours   int    `json:"waitHours"`
	MaxAttempts int    `json:"maxAttempts"`
	PeriodDays  int    `json:"periodDays"`
	Text        string `json:"text"`
}

// AttemptRef is the member's latest submitted attempt (for the start screen).
type AttemptRef struct {
	ID          string    `json:"_id"`
	Score       float64   `json:"score"`
	Passed      bool      `json:"passed"`
	SubmittedAt time.Time `json:"submittedAt"`
}

// Result is a submitted attempt: the figures only, never which options were right. Late
// means the submission came after the deadline plus Grace, so only the answers saved
// before the deadline were graded. Eligibility says when the next attempt may start.
type Result struct {
	AttemptID      string       `json:"attemptId"`
	QuizID         string       `json:"quizId"`
	Title          string       `json:"title"`
	Badge          BadgeRef     `json:"badge"`
	Score          float64      `json:"score"`
	Passed         bool         `json:"passed"`
	CorrectAnswers int          `json:"correctAnswers"`
	Total          int          `json:"total"`
	Answered       int          `json:"answered"`
	TimeSpent      int          `json:"timeSpent"`
	PassingScore   int          `json:"passingScore"`
	StartedAt      time.Time    `json:"startedAt"`
	SubmittedAt    time.Time    `json:"submittedAt"`
	Late           bool         `json:"late"`
	Topics         []TopicScore `json:"topics"`
	Eligibility    *Eligibility `json:"eligibility"`
}

// RetakeRefused is a start the retake rule refuses until Eligibility.NextAttemptAt.
type RetakeRefused struct{ Eligibility Eligibility }

func (e *RetakeRefused) Error() string { return RefusalMsg(e.Eligibility) }

// open checks that the member may take the badge's quiz at all and loads it.
func (s *Service) open(ctx context.Context, u *model.User, badgeID string) (*model.Badge, *model.Quiz, error) {
	if badgeID == "" {
		return nil, nil, web.BadRequest(MsgBadgeIDMissing)
	}
	if !model.ValidID(badgeID) {
		return nil, nil, web.NotFound(MsgBadgeNotFound)
	}
	now := s.now()
	b, err := s.st.badge(ctx, s.DB, badgeID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil, web.NotFound(MsgBadgeNotFound)
	} else if err != nil {
		return nil, nil, err
	}
	if !b.IsActive {
		return nil, nil, web.NotFound(MsgBadgeInactive)
	}
	if b.Type != model.TypeSkill {
		return nil, nil, web.Unprocessable(MsgNotSkillBadge)
	}
	if owned, err := s.st.ownsBadge(ctx, s.DB, u.ID, b.ID, now); err != nil {
		return nil, nil, err
	} else if owned {
		return nil, nil, web.Conflict(MsgAlreadyOwned)
	}
	if open, err := s.st.openApplication(ctx, s.DB, u.ID, b.ID); err != nil {
		return nil, nil, err
	} else if open {
		return nil, nil, web.Conflict(MsgApplicationOpen)
	}
	qz, err := s.st.quizOfBadge(ctx, s.DB, b.ID)
	if errors.Is(err, db.ErrNotFound) || (err == nil && !qz.IsActive) {
		return nil, nil, web.NotFound(MsgQuizNotFound)
	} else if err != nil {
		return nil, nil, err
	}
	return b, qz, nil
}

// Eligible is whether userID may start an attempt at qz now, by its retake rule and the
// extra attempts an administrator granted.
func Eligible(ctx context.Context, d bun.IDB, qz *model.Quiz, userID string, now time.Time) (Eligibility, error) {
	var st store
	past, err := st.pastAttempts(ctx, d, userID, qz.ID)
	if err != nil {
		return Eligibility{}, err
	}
	extra, err := st.unusedGrants(ctx, d, userID, qz.ID)
	if err != nil {
		return Eligibility{}, err
	}
	return Check(RuleOf(qz), past, extra, now), nil
}

func (s *Service) baseView(ctx context.Context, b *model.Badge, qz *model.Quiz, userID string) (*QuizView, []model.Question, error) {
	questions, err := s.st.quizQuestions(ctx, s.DB, qz.ID)
	if err != nil {
		return nil, nil, err
	}
	r := RuleOf(qz)
	view := &QuizView{ID: qz.ID, Title: qz.Title, Description: qz.Description, PassingScore: qz.PassingScore,
		TimeLimit: qz.TimeLimit, QuestionsPerAttempt: DrawSize(qz.QuestionsPerAttempt, len(questions)), PoolSize: len(questions),
		RetakeRule: RuleView{WaitHours: r.WaitHours, MaxAttempts: r.MaxAttempts, PeriodDays: r.PeriodDays, Text: RuleText(r)},
		Badge:      BadgeRef{ID: b.ID, Name: b.Name}, Questions: []QuestionView{}}
	if view.Eligibility, err = Eligible(ctx, s.DB, qz, userID, s.now()); err != nil {
		return nil, nil, err
	}
	if last, err := s.st.lastSubmitted(ctx, s.DB, userID, qz.ID); err == nil {
		view.LastAttempt = &AttemptRef{ID: last.ID, Score: last.Score, Passed: last.Passed, SubmittedAt: last.SubmittedAt.UTC()}
	} else if !errors.Is(err, db.ErrNotFound) {
		return nil, nil, err
	}
	return view, questions, nil
}

// View is the quiz start screen: the quiz, its rules, whether the member may start now
// (and when otherwise), and the running attempt if there is one. It starts nothing; an
// attempt whose time ran out is graded on its saved answers.
func (s *Service) View(ctx context.Context, u *model.User, badgeID string) (*QuizView, error) {
	b, qz, err := s.open(ctx, u, badgeID)
	if err != nil {
		return nil, err
	}
	a, err := s.st.openAttempt(ctx, s.DB, u.ID, qz.ID)
	switch {
	case err == nil && Expired(a, s.now()):
		if _, err := s.closeExpired(ctx, u.ID, a.ID); err != nil {
			return nil, err
		}
		a = nil
	case errors.Is(err, db.ErrNotFound):
		a = nil
	case err != nil:
		return nil, err
	}
	view, _, err := s.baseView(ctx, b, qz, u.ID)
	if err != nil {
		return nil, err
	}
	if a != nil {
		if err := s.fillAttempt(ctx, view, a); err != nil {
			return nil, err
		}
	}
	return view, nil
}

// Start starts the member's attempt at the badge's quiz (POST), or resumes the one
// running. The retake rule may refuse it (*RetakeRefused); an extra attempt granted by an
// administrator is used when the rule would refuse. Concurrent starts make one attempt.
func (s *Service) Start(ctx context.Context, u *model.User, badgeID string) (*QuizView, error) {
	b, qz, err := s.open(ctx, u, badgeID)
	if err != nil {
		return nil, err
	}
	questions, err := s.st.quizQuestions(ctx, s.DB, qz.ID)
	if err != nil {
		return nil, err
	}
	if len(questions) == 0 {
		return nil, web.Conflict(MsgNoQuestions)
	}
	a, err := s.currentAttempt(ctx, u.ID, qz, questions)
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
	view.PassingScore = a.PassingScore
	av := &AttemptView{ID: a.ID, StartedAt: a.StartedAt.UTC(), Deadline: a.Deadline.UTC(), ServerNow: s.now(), Answers: map[string]int{}}
	for _, it := range a.Layout {
		q, ok := qmap[it.QuestionID]
		if !ok {
			continue
		}
		order := VisibleOrder(it, q)
		view.Questions = append(view.Questions, QuestionView{ID: q.ID, Text: q.Text, Options: ShownOptions(order, q)})
		if orig, ok := a.Answers[q.ID]; ok {
			if shown, ok := ToShown(order, orig); ok {
				av.Answers[q.ID] = shown
			}
		}
	}
	view.Attempt = av
	return nil
}

// currentAttempt resumes the user's running attempt at qz; an attempt whose time (plus
// grace) ran out is graded on its saved answers and closed, and a new one starts if the
// retake rule allows it (checked, and any extra attempt used, in the insert's transaction).
func (s *Service) currentAttempt(ctx context.Context, userID string, qz *model.Quiz, questions []model.Question) (*model.QuizAttempt, error) {
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
		err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			now := s.now()
			if _, err := s.st.openAttempt(ctx, tx, userID, qz.ID); err == nil {
				return errRace // started in the meantime: resume it
			} else if !errors.Is(err, db.ErrNotFound) {
				return err
			}
			e, err := Eligible(ctx, tx, qz, userID, now)
			if err != nil {
				return err
			}
			if !e.CanStart {
				return &RetakeRefused{Eligibility: e}
			}
			layout := NewLayout(questions, qz.QuestionsPerAttempt, s.Perm)
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

// SaveAnswer records the option shown at index shown as the answer to questionID and
// returns the saved answers (shown indices). Refused once submitted or past the deadline.
func (s *Service) SaveAnswer(ctx context.Context, userID, attemptID, questionID string, shown int) (map[string]int, error) {
	if !model.ValidID(attemptID) {
		return nil, web.NotFound(MsgAttemptNotFound)
	}
	var out map[string]int
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
		if !Open(a, s.now()) {
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
		orig, ok := ToOriginal(VisibleOrder(it, q), shown)
		if !ok {
			return web.BadRequest(MsgBadOption)
		}
		if a.Answers == nil {
			a.Answers = map[string]int{}
		}
		a.Answers[questionID] = orig
		if ok, err := s.st.saveAnswers(ctx, tx, a); err != nil {
			return err
		} else if !ok {
			return web.Conflict(MsgAlreadySubmitted)
		}
		out = shownAnswers(a, qmap)
		return nil
	})
	return out, err
}

// Submit grades the attempt with answers (question id -> shown index; nil = unanswered)
// and records the result once. A second submission returns the stored result.
func (s *Service) Submit(ctx context.Context, userID, attemptID string, answers map[string]*int) (*Result, error) {
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
		chosen := map[string]int{}
		for qid, shown := range answers {
			it, q, ok := find(a.Layout, qmap, qid)
			if !ok {
				return web.BadRequest(MsgUnknownQuestion)
			}
			if shown == nil || q == nil {
				continue // unanswered, or the question was deleted during the attempt
			}
			orig, ok := ToOriginal(VisibleOrder(it, q), *shown)
			if !ok {
				return web.BadRequest(MsgBadOption)
			}
			chosen[qid] = orig
		}
		now := s.now()
		final := map[string]int{}
		for k, v := range a.Answers {
			final[k] = v
		}
		if AcceptsSubmission(a, now) {
			for k, v := range chosen {
				final[k] = v
			}
		} else {
			late = true
		}
		return s.grade(ctx, tx, a, qmap, final, now)
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
		return s.grade(ctx, tx, a, qmap, a.Answers, s.now())
	})
	return a, err
}

func (s *Service) grade(ctx context.Context, tx bun.Tx, a *model.QuizAttempt, qmap map[string]*model.Question, answers map[string]int, now time.Time) error {
	if answers == nil {
		answers = map[string]int{}
	}
	g := GradeAnswers(a.Layout, qmap, answers, a.PassingScore)
	a.Answers = answers
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
	}
	return nil
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
		e, err := Eligible(ctx, s.DB, qz, a.UserID, s.now())
		if err != nil {
			return nil, err
		}
		r.Eligibility = &e
	}
	r.Badge.ID = a.BadgeID
	if b, err := s.st.badge(ctx, s.DB, a.BadgeID); err == nil {
		r.Badge.Name = b.Name
	}
	for _, it := range a.Layout {
		if _, ok := a.Answers[it.QuestionID]; ok {
			if _, ok := qmap[it.QuestionID]; ok {
				r.Answered++
			}
		}
	}
	r.Topics = Topics(a.Layout, qmap, a.Answers)
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

func shownAnswers(a *model.QuizAttempt, qmap map[string]*model.Question) map[string]int {
	out := map[string]int{}
	for _, it := range a.Layout {
		q, ok := qmap[it.QuestionID]
		if !ok {
			continue
		}
		if orig, ok := a.Answers[q.ID]; ok {
			if shown, ok := ToShown(VisibleOrder(it, q), orig); ok {
				out[q.ID] = shown
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
