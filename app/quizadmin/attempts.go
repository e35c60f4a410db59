package quizadmin

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/web"
)

// AnalysisView answers GET /admin/quizzes/{quizId}/analysis.
type AnalysisView struct {
	Quiz  QuizRef   `json:"quiz"`
	Stats QuizStats `json:"stats"`
}

// Analysis is the item analysis of a quiz over its submitted attempts. Questions are the
// pool in its order, then questions asked earlier that have left the pool.
func (s *Service) Analysis(ctx context.Context, quizID string) (*AnalysisView, error) {
	qv, err := analysisQuiz(ctx, s.DB, quizID)
	if isNoRows(err) {
		return nil, web.NotFound(MsgQuizNotFound)
	}
	if err != nil {
		return nil, err
	}
	pool := make([]model.Question, len(qv.Questions))
	for i, q := range qv.Questions {
		pool[i] = model.Question{ID: q.ID, Text: q.Text}
	}
	rec, err := quiz.ReadRecord(ctx, s.DB, quizID, pool)
	if err != nil {
		return nil, err
	}
	return &AnalysisView{Quiz: QuizRef{ID: qv.ID, Title: qv.Title, BadgeName: qv.Badge.Name}, Stats: Analyze(rec.Sittings, rec.IDs, rec.Texts)}, nil
}

// AttemptRow is one attempt in a member's history.
type AttemptRow struct {
	ID             string     `json:"_id"`
	StartedAt      time.Time  `json:"startedAt"`
	SubmittedAt    *time.Time `json:"submittedAt"`
	Score          float64    `json:"score"`
	Passed         bool       `json:"passed"`
	CorrectAnswers int        `json:"correctAnswers"`
	Total          int        `json:"total"`
	TimeSpent      int        `json:"timeSpent"`
	Late           bool       `json:"late"`
	ApplicationID  *string    `json:"applicationId"`
	ExtraAttempt   bool       `json:"extraAttempt"` // started with an extra attempt an admin granted
}

// HistoryView answers GET /admin/quiz-attempts?userId=&badgeId=.
type HistoryView struct {
	Quiz        *QuizRef          `json:"quiz"`
	RetakeRule  string            `json:"retakeRule"`
	Attempts    []AttemptRow      `json:"attempts"`
	Eligibility *quiz.Eligibility `json:"eligibility"`
}

// History is a member's attempts at the badge's quiz, newest first, and whether they may
// start another now.
func (s *Service) History(ctx context.Context, userID, badgeID string) (*HistoryView, error) {
	out := &HistoryView{Attempts: []AttemptRow{}}
	if ok, err := s.DB.NewSelect().Model((*model.User)(nil)).Where("id = ?", userID).Exists(ctx); err != nil {
		return nil, err
	} else if !ok {
		return nil, web.NotFound(MsgUserNotFound)
	}
	qz := new(model.Quiz)
	if err := s.DB.NewSelect().Model(qz).Where("badge_id = ?", badgeID).Limit(1).Scan(ctx); isNoRows(err) {
		if ok, err := s.DB.NewSelect().Model((*model.Badge)(nil)).Where("id = ?", badgeID).Exists(ctx); err != nil {
			return nil, err
		} else if !ok {
			return nil, web.NotFound(MsgBadgeNotFound)
		}
		return out, nil // a badge without a quiz: no attempts
	} else if err != nil {
		return nil, err
	}
	b := new(model.Badge)
	if err := s.DB.NewSelect().Model(b).Column("name").Where("id = ?", badgeID).Scan(ctx); err != nil {
		return nil, err
	}
	out.Quiz = &QuizRef{ID: qz.ID, Title: qz.Title, BadgeName: b.Name}
	out.RetakeRule = quiz.RuleText(quiz.RuleOf(qz))
	var rows []model.QuizAttempt
	if err := s.DB.NewSelect().Model(&rows).Where("user_id = ? AND quiz_id = ?", userID, qz.ID).
		Order("started_at DESC", "id DESC").Scan(ctx); err != nil {
		return nil, err
	}
	var used []string
	if err := s.DB.NewSelect().Model((*model.QuizAttemptGrant)(nil)).Column("attempt_id").
		Where("user_id = ? AND quiz_id = ? AND attempt_id IS NOT NULL", userID, qz.ID).Scan(ctx, &used); err != nil {
		return nil, err
	}
	extra := map[string]bool{}
	for _, id := range used {
		extra[id] = true
	}
	for i := range rows {
		a := &rows[i]
		r := AttemptRow{ID: a.ID, StartedAt: a.StartedAt.UTC(), SubmittedAt: a.SubmittedAt, Score: a.Score, Passed: a.Passed,
			CorrectAnswers: a.CorrectCount, Total: a.Total, ApplicationID: a.ApplicationID, ExtraAttempt: extra[a.ID]}
		if a.SubmittedAt != nil {
			t := a.SubmittedAt.UTC()
			r.SubmittedAt = &t
			r.TimeSpent = quiz.TimeSpent(a)
			r.Late = a.SubmittedAt.After(a.Deadline.Add(quiz.Grace))
		}
		out.Attempts = append(out.Attempts, r)
	}
	e, err := quiz.Eligible(ctx, s.DB, qz, userID, model.Now())
	if err != nil {
		return nil, err
	}
	out.Eligibility = &e
	return out, nil
}

// GrantAttempt gives a member one extra attempt at the quiz: it lets them start while
// the retake rule would make them wait. Refused when they can start anyway or already
// have one waiting.
func (s *Service) GrantAttempt(ctx context.Context, actor *model.User, quizID, userID string) (*quiz.Eligibility, error) {
	var out quiz.Eligibility
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		qz := new(model.Quiz)
		if err := tx.NewSelect().Model(qz).Where("id = ?", quizID).Scan(ctx); isNoRows(err) {
			return web.NotFound(MsgQuizNotFound)
		} else if err != nil {
			return err
		}
		if ok, err := tx.NewSelect().Model((*model.User)(nil)).Where("id = ?", userID).Exists(ctx); err != nil {
			return err
		} else if !ok {
			return web.NotFound(MsgUserNotFound)
		}
		e, err := quiz.Eligible(ctx, tx, qz, userID, model.Now())
		if err != nil {
			return err
		}
		if e.ExtraAttempts > 0 {
			return web.Conflict(MsgGrantWaiting)
		}
		if e.CanStart {
			return web.Conflict(MsgGrantNotNeeded)
		}
		g := &model.QuizAttemptGrant{ID: model.NewID(), QuizID: qz.ID, UserID: userID, CreatedAt: model.Now()}
		if actor != nil {
			g.GrantedBy = &actor.ID
		}
		if _, err := tx.NewInsert().Model(g).Exec(ctx); err != nil {
			return err
		}
		if out, err = quiz.Eligible(ctx, tx, qz, userID, model.Now()); err != nil {
			return err
		}
		return audit.Write(ctx, tx, actor, "quiz.grant_attempt", "quiz", qz.ID, nil, map[string]string{"userId": userID, "grantId": g.ID})
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// MemberRow is one member's standing at a quiz (Quiz Management's member list).
type MemberRow struct {
	User struct {
		ID    string `json:"_id"`
		Name  string `json:"name"`
		Email string `json:"email"`
	} `json:"user"`
	Attempts    int              `json:"attempts"`
	LastScore   *float64         `json:"lastScore"`
	LastAt      time.Time        `json:"lastAt"`
	EverPassed  bool             `json:"everPassed"`
	Eligibility quiz.Eligibility `json:"eligibility"`
}

// MaxMembers is how many members (latest first) the quiz's member list shows.
const MaxMembers = 50

// Members lists the members who attempted the quiz, latest first, with whether and when
// they may start again (so an admin can grant an extra attempt).
func (s *Service) Members(ctx context.Context, quizID string) ([]MemberRow, error) {
	qz := new(model.Quiz)
	if err := s.DB.NewSelect().Model(qz).Where("id = ?", quizID).Scan(ctx); isNoRows(err) {
		return nil, web.NotFound(MsgQuizNotFound)
	} else if err != nil {
		return nil, err
	}
	var rows []model.QuizAttempt
	if err := s.DB.NewSelect().Model(&rows).Column("user_id", "started_at", "submitted_at", "score", "passed").
		Where("quiz_id = ?", quizID).Order("started_at DESC", "id DESC").Scan(ctx); err != nil {
		return nil, err
	}
	out := []MemberRow{}
	idx := map[string]int{}
	for i := range rows {
		a := &rows[i]
		j, ok := idx[a.UserID]
		if !ok {
			if len(out) == MaxMembers {
				continue
			}
			j = len(out)
			idx[a.UserID] = j
			out = append(out, MemberRow{LastAt: a.StartedAt.UTC()})
			out[j].User.ID = a.UserID
		}
		m := &out[j]
		m.Attempts++
		if a.SubmittedAt != nil && m.LastScore == nil {
			sc := a.Score
			m.LastScore = &sc
		}
		if a.Passed {
			m.EverPassed = true
		}
	}
	if len(out) == 0 {
		return out, nil
	}
	ids := make([]string, len(out))
	for i := range out {
		ids[i] = out[i].User.ID
	}
	var users []model.User
	if err := s.DB.NewSelect().Model(&users).Column("id", "name", "email").Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	for _, u := range users {
		m := &out[idx[u.ID]]
		m.User.Name, m.User.Email = u.Name, u.Email
	}
	now := model.Now()
	for i := range out {
		e, err := quiz.Eligible(ctx, s.DB, qz, out[i].User.ID, now)
		if err != nil {
			return nil, err
		}
		out[i].Eligibility = e
	}
	return out, nil
}
