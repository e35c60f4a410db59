package quiz

import (
	"context"
	"errors"
	"math/rand/v2"
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
	Rand    *rand.Rand         // the forms' draw (blueprint quizzes); nil: a fresh source per draw
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
	// Type is "single" or "multiple" (select all that apply); Pick is how many options to
	// choose, given only when the administrator lets the question say so.
	Type string `json:"type"`
	Pick *int   `json:"pick,omitempty"`
}

// AttemptView is the running attempt: the server's deadline and clock, and the answers
// saved so far (question id -> shown option index, or the list of shown indexes for a
// multiple-response question).
type AttemptView struct {
	ID        string         `json:"_id"`
	StartedAt time.Time      `json:"startedAt"`
	Deadline  time.Time      `json:"deadline"`
	ServerNow time.Time      `json:"serverNow"`
	Answers   map[string]any `json:"answers"`
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
	// Integrity: the attempt's integrity review, if it was held (its state only).
	Integrity *IntegrityView `json:"integrity"`
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
	return store{}.eligible(ctx, d, qz, userID, now)
}

// eligible is Eligible with the store's reads.
func (st store) eligible(ctx context.Context, d bun.IDB, qz *model.Quiz, userID string, now time.Time) (Eligibility, error) {
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
	active := 0
	for _, q := range questions {
		if q.RetiredAt == nil {
			active++
		}
	}
	view := &QuizView{ID: qz.ID, Title: qz.Title, Description: qz.Description, PassingScore: qz.PassingScore,
		TimeLimit: qz.TimeLimit, QuestionsPerAttempt: FormSize(qz, active), PoolSize: active,
		RetakeRule: RuleView{WaitHours: r.WaitHours, MaxAttempts: r.MaxAttempts, PeriodDays: r.PeriodDays, Text: RuleText(r)},
		Badge:      BadgeRef{ID: b.ID, Name: b.Name}, Questions: []QuestionView{}}
	if view.Eligibility, err = s.st.eligible(ctx, s.DB, qz, userID, s.now()); err != nil {
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
