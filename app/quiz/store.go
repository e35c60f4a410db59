package quiz

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/grant"
	"meritmark/app/model"
	"meritmark/db"
)

// store holds the quiz feature's queries. Every attempt query names its owner.
type store struct{}

func (store) badge(ctx context.Context, d bun.IDB, id string) (*model.Badge, error) {
	b := new(model.Badge)
	err := d.NewSelect().Model(b).Where("id = ?", id).Limit(1).Scan(ctx)
	return b, notFound(err)
}

func (store) quizOfBadge(ctx context.Context, d bun.IDB, badgeID string) (*model.Quiz, error) {
	q := new(model.Quiz)
	err := d.NewSelect().Model(q).Where("badge_id = ?", badgeID).Limit(1).Scan(ctx)
	return q, notFound(err)
}

func (store) quiz(ctx context.Context, d bun.IDB, id string) (*model.Quiz, error) {
	q := new(model.Quiz)
	err := d.NewSelect().Model(q).Where("id = ?", id).Limit(1).Scan(ctx)
	return q, notFound(err)
}

// quizQuestions is the quiz's questions in their position order.
func (store) quizQuestions(ctx context.Context, d bun.IDB, quizID string) ([]model.Question, error) {
	var qs []model.Question
	err := d.NewSelect().Model(&qs).
		Join("JOIN quiz_questions AS qq ON qq.question_id = question.id").
		Where("qq.quiz_id = ?", quizID).
		OrderExpr("qq.position ASC, question.id ASC").
		Scan(ctx)
	return qs, err
}

// questions loads the attempt's questions by id (a deleted question is simply absent).
func (store) questions(ctx context.Context, d bun.IDB, layout []model.AttemptItem) (map[string]*model.Question, error) {
	out := map[string]*model.Question{}
	if len(layout) == 0 {
		return out, nil
	}
	ids := make([]string, len(layout))
	for i, it := range layout {
		ids[i] = it.QuestionID
	}
	var qs []model.Question
	if err := d.NewSelect().Model(&qs).Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	for i := range qs {
		out[qs[i].ID] = &qs[i]
	}
	return out, nil
}

// ownsBadge reports a grant of the badge to the user that is neither revoked nor expired
// nor in its renewal window (then a new attempt renews it).
func (store) ownsBadge(ctx context.Context, d bun.IDB, userID, badgeID string, now time.Time) (bool, error) {
	return d.NewSelect().Model((*model.BadgeGrant)(nil)).
		Where("user_id = ? AND badge_id = ?", userID, badgeID).
		Where("revoked_at IS NULL").
		Where("(expires_at IS NULL OR expires_at > ?)", grant.HeldUntil(now)).
		Exists(ctx)
}

// openApplication reports an application for the badge still pending or awaiting payment.
func (store) openApplication(ctx context.Context, d bun.IDB, userID, badgeID string) (bool, error) {
	return d.NewSelect().Model((*model.Application)(nil)).
		Where("user_id = ? AND badge_id = ?", userID, badgeID).
		Where("status IN (?)", bun.List([]string{model.StatusPending, model.StatusAwaitingPayment})).
		Exists(ctx)
}

// openAttempt is the user's unsubmitted attempt at the quiz (at most one: a unique index).
func (store) openAttempt(ctx context.Context, d bun.IDB, userID, quizID string) (*model.QuizAttempt, error) {
	a := new(model.QuizAttempt)
	err := d.NewSelect().Model(a).Where("user_id = ? AND quiz_id = ? AND submitted_at IS NULL", userID, quizID).Limit(1).Scan(ctx)
	return a, notFound(err)
}

// attempt is the user's attempt id; forUpdate locks the row on PostgreSQL (SQLite
// transactions here take the write lock when they begin).
func (store) attempt(ctx context.Context, d bun.IDB, userID, id string, forUpdate bool) (*model.QuizAttempt, error) {
	a := new(model.QuizAttempt)
	q := d.NewSelect().Model(a).Where("id = ? AND user_id = ?", id, userID).Limit(1)
	if forUpdate {
		q = db.ForUpdate(d, q)
	}
	return a, notFound(q.Scan(ctx))
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
func (store) pastAttempts(ctx context.Context, d bun.IDB, userID, quizID string) ([]Past, error) {
	var rows []model.QuizAttempt
	err := d.NewSelect().Model(&rows).Column("started_at", "submitted_at", "passed").
		Where("user_id = ? AND quiz_id = ?", userID, quizID).Scan(ctx)
	out := make([]Past, len(rows))
	for i, r := range rows {
		out[i] = Past{StartedAt: r.StartedAt, SubmittedAt: r.SubmittedAt, Passed: r.Passed}
	}
	return out, err
}

// lastSubmitted is the user's latest submitted attempt at the quiz.
func (store) lastSubmitted(ctx context.Context, d bun.IDB, userID, quizID string) (*model.QuizAttempt, error) {
	a := new(model.QuizAttempt)
	err := d.NewSelect().Model(a).Where("user_id = ? AND quiz_id = ? AND submitted_at IS NOT NULL", userID, quizID).
		OrderExpr("submitted_at DESC, id DESC").Limit(1).Scan(ctx)
	return a, notFound(err)
}

// unusedGrants counts the extra attempts granted to the user at the quiz not used yet.
func (store) unusedGrants(ctx context.Context, d bun.IDB, userID, quizID string) (int, error) {
	n, err := d.NewSelect().Model((*model.QuizAttemptGrant)(nil)).
		Where("user_id = ? AND quiz_id = ? AND used_at IS NULL", userID, quizID).Count(ctx)
	return int(n), err
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
