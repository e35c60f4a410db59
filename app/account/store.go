package account

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/db"
)

// findUser loads a user by id (db.ErrNotFound when there is none).
func findUser(ctx context.Context, d bun.IDB, id string, lock bool) (*model.User, error) {
	var u model.User
	q := d.NewSelect().Model(&u).Where("id = ?", id)
	if lock {
		q = db.ForUpdate(d, q)
	}
	if err := q.Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, db.ErrNotFound
		}
		return nil, err
	}
	return &u, nil
}

// named is an id with its display name (a badge, a quiz).
type named struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type applicationRow struct {
	model.Application `bun:",extend"`
	BadgeName         string `bun:"badge_name"`
}

func applications(ctx context.Context, d bun.IDB, userID string) ([]applicationRow, error) {
	var rows []applicationRow
	err := d.NewSelect().Model(&rows).ColumnExpr("application.*").ColumnExpr("b.name AS badge_name").
		Join("JOIN badges AS b ON b.id = application.badge_id").
		Where("application.user_id = ?", userID).OrderExpr("application.created_at, application.id").Scan(ctx)
	return rows, err
}

// filesOf lists the stored files of userID's applications.
func filesOf(ctx context.Context, d bun.IDB, userID string) ([]model.ApplicationFile, error) {
	var rows []model.ApplicationFile
	err := d.NewSelect().Model(&rows).
		Where("application_id IN (SELECT id FROM applications WHERE user_id = ?)", userID).
		OrderExpr("created_at, id").Scan(ctx)
	return rows, err
}

type attemptRow struct {
	ID            string     `bun:"id"`
	QuizID        string     `bun:"quiz_id"`
	QuizTitle     string     `bun:"quiz_title"`
	BadgeID       string     `bun:"badge_id"`
	BadgeName     string     `bun:"badge_name"`
	StartedAt     time.Time  `bun:"started_at"`
	Deadline      time.Time  `bun:"deadline"`
	SubmittedAt   *time.Time `bun:"submitted_at"`
	CorrectCount  int        `bun:"correct_count"`
	Total         int        `bun:"total"`
	Score         float64    `bun:"score"`
	PassingScore  int        `bun:"passing_score"`
	Passed        bool       `bun:"passed"`
	ApplicationID *string    `bun:"application_id"`
}

// attempts lists userID's quiz attempts: scores and dates only (never the layout, the
// answers or anything of the questions).
func attempts(ctx context.Context, d bun.IDB, userID string) ([]attemptRow, error) {
	var rows []attemptRow
	err := d.NewSelect().TableExpr("quiz_attempts AS a").
		ColumnExpr("a.id, a.quiz_id, q.title AS quiz_title, a.badge_id, b.name AS badge_name, a.started_at, a.deadline").
		ColumnExpr("a.submitted_at, a.correct_count, a.total, a.score, a.passing_score, a.passed, a.application_id").
		Join("JOIN quizzes AS q ON q.id = a.quiz_id").Join("JOIN badges AS b ON b.id = a.badge_id").
		Where("a.user_id = ?", userID).OrderExpr("a.started_at, a.id").Scan(ctx, &rows)
	return rows, err
}

type paymentRow struct {
	model.Payment `bun:",extend"`
	BadgeName     string `bun:"badge_name"`
}

func payments(ctx context.Context, d bun.IDB, userID string) ([]paymentRow, error) {
	var rows []paymentRow
	err := d.NewSelect().Model(&rows).ColumnExpr("payment.*").ColumnExpr("b.name AS badge_name").
		Join("JOIN badges AS b ON b.id = payment.badge_id").
		Where("payment.user_id = ?", userID).OrderExpr("payment.created_at, payment.id").Scan(ctx)
	return rows, err
}

type orderRow struct {
	model.PaymentOrder `bun:",extend"`
	BadgeName          string `bun:"badge_name"`
}

func orders(ctx context.Context, d bun.IDB, userID string) ([]orderRow, error) {
	var rows []orderRow
	err := d.NewSelect().Model(&rows).ColumnExpr("payment_order.*").ColumnExpr("b.name AS badge_name").
		Join("JOIN badges AS b ON b.id = payment_order.badge_id").
		Where("payment_order.user_id = ?", userID).OrderExpr("payment_order.created_at, payment_order.order_id").Scan(ctx)
	return rows, err
}

type grantRow struct {
	model.BadgeGrant `bun:",extend"`
	BadgeName        string `bun:"badge_name"`
}

// grants lists every grant of userID, revoked ones too.
func grants(ctx context.Context, d bun.IDB, userID string) ([]grantRow, error) {
	var rows []grantRow
	err := d.NewSelect().Model(&rows).ColumnExpr("badge_grant.*").ColumnExpr("b.name AS badge_name").
		Join("JOIN badges AS b ON b.id = badge_grant.badge_id").
		Where("badge_grant.user_id = ?", userID).OrderExpr("badge_grant.granted_at, badge_grant.id").Scan(ctx)
	return rows, err
}

type sessionRow struct {
	IP         string    `bun:"ip" json:"ip"`
	UserAgent  string    `bun:"user_agent" json:"userAgent"`
	CreatedAt  time.Time `bun:"created_at" json:"createdAt"`
	LastSeenAt time.Time `bun:"last_seen_at" json:"lastSeenAt"`
	ExpiresAt  time.Time `bun:"expires_at" json:"expiresAt"`
}

// sessions lists userID's signed-in browsers without their ids (the ids are hashes of
// the cookies' tokens).
func sessions(ctx context.Context, d bun.IDB, userID string) ([]sessionRow, error) {
	var rows []sessionRow
	err := d.NewSelect().Table("sessions").Column("ip", "user_agent", "created_at", "last_seen_at", "expires_at").
		Where("user_id = ?", userID).OrderExpr("created_at").Scan(ctx, &rows)
	return rows, err
}

type consentRow struct {
	ClientName string     `bun:"name" json:"app"`
	ClientURI  string     `bun:"client_uri" json:"appUrl"`
	Scope      string     `bun:"scope" json:"scope"`
	GrantedAt  time.Time  `bun:"granted_at" json:"grantedAt"`
	LastUsedAt *time.Time `bun:"last_used_at" json:"lastUsedAt"`
}

// consents lists the apps userID allowed (never their tokens).
func consents(ctx context.Context, d bun.IDB, userID string) ([]consentRow, error) {
	var rows []consentRow
	err := d.NewRaw(`SELECT c.name, c.client_uri, o.scope, o.granted_at, o.last_used_at
FROM oauth_consents o JOIN oauth_clients c ON c.id = o.client_id WHERE o.user_id = ? ORDER BY o.granted_at, c.id`, userID).Scan(ctx, &rows)
	return rows, err
}
