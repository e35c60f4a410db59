package quiz

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/grant"
	"meritmark/app/model"
	"meritmark/db"
)

// store holds the quiz feature's queries. Every attempt query names its owner.
//
// The reads a quiz page or an answer makes on every request are prepared (db.Prepared:
// parsed once per connection, not per call), in one set for the package: a store is
// stateless, so any store (a Service's, a package function's) uses them.
type store struct{}

// prepared holds the store's prepared reads, for one database at a time (tests open
// several: a read on another database prepares it there).
var prepared struct {
	stmts [nStmts]db.Prepared
	in    [maxPreparedIn]db.Prepared // questions: [n-1] reads n questions
}

// maxPreparedIn is the longest attempt whose questions are read prepared (an attempt's
// layout is its form's length: one statement per length in use).
const maxPreparedIn = 100

// the store's prepared reads
const (
	sBadge = iota
	sQuizOfBadge
	sQuiz
	sQuizQuestions
	sOwnsBadge
	sOpenApplication
	sOpenAttempt
	sAttempt
	sAttemptForUpdate
	sPastAttempts
	sLastSubmitted
	sUnusedGrants
	sResponses
	sPoolSize
	sAttemptCounts
	sHolders
	nStmts
)

// arg stands for one argument in SQL bun's builder writes for a prepared read.
var arg = bun.Safe("?")

// scan runs the read n, whose SQL build writes, with args into dest.
func (store) scan(ctx context.Context, d bun.IDB, n int, dest any, build func(bun.IDB) string, args ...any) error {
	return prepared.stmts[n].ScanBuilt(ctx, d, dest, build, args...)
}

func (st store) badge(ctx context.Context, d bun.IDB, id string) (*model.Badge, error) {
	b := new(model.Badge)
	err := st.scan(ctx, d, sBadge, b, func(d bun.IDB) string {
		return d.NewSelect().Model(b).Where("id = ?", arg).Limit(1).String()
	}, id)
	return b, notFound(err)
}

func (st store) quizOfBadge(ctx context.Context, d bun.IDB, badgeID string) (*model.Quiz, error) {
	q := new(model.Quiz)
	err := st.scan(ctx, d, sQuizOfBadge, q, func(d bun.IDB) string {
		return d.NewSelect().Model(q).Where("badge_id = ?", arg).Limit(1).String()
	}, badgeID)
	return q, notFound(err)
}

func (st store) quiz(ctx context.Context, d bun.IDB, id string) (*model.Quiz, error) {
	q := new(model.Quiz)
	err := st.scan(ctx, d, sQuiz, q, func(d bun.IDB) string {
		return d.NewSelect().Model(q).Where("id = ?", arg).Limit(1).String()
	}, id)
	return q, notFound(err)
}

// quizQuestions is the quiz's questions in their position order.
func (st store) quizQuestions(ctx context.Context, d bun.IDB, quizID string) ([]model.Question, error) {
	var qs []model.Question
	err := st.scan(ctx, d, sQuizQuestions, &qs, func(d bun.IDB) string {
		return d.NewSelect().Model(&qs).
			Join("JOIN quiz_questions AS qq ON qq.question_id = question.id").
			Where("qq.quiz_id = ?", arg).
			OrderExpr("qq.position ASC, question.id ASC").String()
	}, quizID)
	return qs, err
}

// questions loads the attempt's questions by id (a deleted question is simply absent).
func (st store) questions(ctx context.Context, d bun.IDB, layout []model.AttemptItem) (map[string]*model.Question, error) {
	out := map[string]*model.Question{}
	if len(layout) == 0 {
		return out, nil
	}
	ids := make([]any, len(layout))
	for i, it := range layout {
		ids[i] = it.QuestionID
	}
	var qs []model.Question
	build := func(d bun.IDB) string {
		return d.NewSelect().Model(&qs).Where("id IN (?)", bun.Safe(strings.Repeat("?, ", len(ids)-1)+"?")).String()
	}
	var err error
	if len(ids) > maxPreparedIn {
		err = d.NewRaw(build(d), ids...).Scan(ctx, &qs)
	} else {
		err = prepared.in[len(ids)-1].ScanBuilt(ctx, d, &qs, build, ids...)
	}
	if err != nil {
		return nil, err
	}
	for i := range qs {
		out[qs[i].ID] = &qs[i]
	}
	return out, nil
}

// ownsBadge reports a grant of the badge to the user that is neither revoked nor expired
// nor in its renewal window (then a new attempt renews it).
func (st store) ownsBadge(ctx context.Context, d bun.IDB, userID, badgeID string, now time.Time) (bool, error) {
	var ok bool
	err := st.scan(ctx, d, sOwnsBadge, &ok, func(d bun.IDB) string {
		return "SELECT EXISTS (" + d.NewSelect().Model((*model.BadgeGrant)(nil)).ColumnExpr("1").
			Where("user_id = ? AND badge_id = ?", arg, arg).
			Where("revoked_at IS NULL").
			Where("(expires_at IS NULL OR expires_at > ?)", arg).String() + ")"
	}, userID, badgeID, db.TimeArg(d, grant.HeldUntil(now)))
	return ok, err
}

// openApplication reports an application for the badge still pending or awaiting payment.
func (st store) openApplication(ctx context.Context, d bun.IDB, userID, badgeID string) (bool, error) {
	var ok bool
	err := st.scan(ctx, d, sOpenApplication, &ok, func(d bun.IDB) string {
		return "SELECT EXISTS (" + d.NewSelect().Model((*model.Application)(nil)).ColumnExpr("1").
			Where("user_id = ? AND badge_id = ?", arg, arg).
			Where("status IN (?)", bun.List([]string{model.StatusPending, model.StatusAwaitingPayment})).String() + ")"
	}, userID, badgeID)
	return ok, err
}

// openAttempt is the user's unsubmitted attempt at the quiz (at most one: a unique index).
func (st store) openAttempt(ctx context.Context, d bun.IDB, userID, quizID string) (*model.QuizAttempt, error) {
	a := new(model.QuizAttempt)
	err := st.scan(ctx, d, sOpenAttempt, a, func(d bun.IDB) string {
		return d.NewSelect().Model(a).Where("user_id = ? AND quiz_id = ? AND submitted_at IS NULL", arg, arg).Limit(1).String()
	}, userID, quizID)
	return a, notFound(err)
}

// attempt is the user's attempt id; forUpdate locks the row on PostgreSQL (SQLite
// transactions here take the write lock when they begin).
func (st store) attempt(ctx context.Context, d bun.IDB, userID, id string, forUpdate bool) (*model.QuizAttempt, error) {
	a := new(model.QuizAttempt)
	n := sAttempt
	if forUpdate {
		n = sAttemptForUpdate
	}
	err := st.scan(ctx, d, n, a, func(d bun.IDB) string {
		q := d.NewSelect().Model(a).Where("id = ? AND user_id = ?", arg, arg).Limit(1)
		if forUpdate {
			q = db.ForUpdate(d, q)
		}
		return q.String()
	}, id, userID)
	return a, notFound(err)
}

func (store) insertAttempt(ctx context.Context, d bun.IDB, a *model.QuizAttempt) error {
	_, err := d.NewInsert().Model(a).Exec(ctx)
	return err
}

func (store) saveAnswers(ctx context.Context, d bun.IDB, a *model.QuizAttempt) (bool, error) {
	res, err := d.NewUpdate().Model(a).Column("answers").
		Where("id = ? AND user_id = ? AND submitted_at IS NULL", a.ID, a.UserID).Exec(ctx)
	return affected(res, err)
}

// finish records the result once: the guard on submitted_at makes a second write a no-op.
func (store) finish(ctx context.Context, d bun.IDB, a *model.QuizAttempt) (bool, error) {
	res, err := d.NewUpdate().Model(a).
		Column("answers", "submitted_at", "correct_count", "total", "score", "passed").
		Where("id = ? AND user_id = ? AND submitted_at IS NULL", a.ID, a.UserID).Exec(ctx)
	return affected(res, err)
}

// pastAttempts is every attempt of the user at the quiz, as the retake rule sees them.
func (st store) pastAttempts(ctx context.Context, d bun.IDB, userID, quizID string) ([]Past, error) {
	var rows []model.QuizAttempt
	err := st.scan(ctx, d, sPastAttempts, &rows, func(d bun.IDB) string {
		return d.NewSelect().Model(&rows).Column("started_at", "submitted_at", "passed").
			Where("user_id = ? AND quiz_id = ?", arg, arg).String()
	}, userID, quizID)
	out := make([]Past, len(rows))
	for i, r := range rows {
		out[i] = Past{StartedAt: r.StartedAt, SubmittedAt: r.SubmittedAt, Passed: r.Passed}
	}
	return out, err
}

// lastSubmitted is the user's latest submitted attempt at the quiz.
func (st store) lastSubmitted(ctx context.Context, d bun.IDB, userID, quizID string) (*model.QuizAttempt, error) {
	a := new(model.QuizAttempt)
	err := st.scan(ctx, d, sLastSubmitted, a, func(d bun.IDB) string {
		return d.NewSelect().Model(a).Where("user_id = ? AND quiz_id = ? AND submitted_at IS NOT NULL", arg, arg).
			OrderExpr("submitted_at DESC, id DESC").Limit(1).String()
	}, userID, quizID)
	return a, notFound(err)
}

// unusedGrants counts the extra attempts granted to the user at the quiz not used yet.
func (st store) unusedGrants(ctx context.Context, d bun.IDB, userID, quizID string) (int, error) {
	var n int
	err := st.scan(ctx, d, sUnusedGrants, &n, func(d bun.IDB) string {
		return d.NewSelect().Model((*model.QuizAttemptGrant)(nil)).ColumnExpr("count(*)").
			Where("user_id = ? AND quiz_id = ? AND used_at IS NULL", arg, arg).String()
	}, userID, quizID)
	return n, err
}

// useGrant marks the oldest unused extra attempt as used by attemptID (false: none left).
func (store) useGrant(ctx context.Context, d bun.IDB, userID, quizID, attemptID string, now time.Time) (bool, error) {
	var id string
	err := d.NewSelect().Model((*model.QuizAttemptGrant)(nil)).Column("id").
		Where("user_id = ? AND quiz_id = ? AND used_at IS NULL", userID, quizID).
		OrderExpr("created_at ASC, id ASC").Limit(1).Scan(ctx, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	res, err := d.NewUpdate().Model((*model.QuizAttemptGrant)(nil)).Set("used_at = ?", now).Set("attempt_id = ?", attemptID).
		Where("id = ? AND used_at IS NULL", id).Exec(ctx)
	return affected(res, err)
}

func affected(res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return db.ErrNotFound
	}
	return err
}
