package badge

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/db"
)

// badgeRow is a badge with its active quiz (and question count) and its creator's name,
// read in one query.
type badgeRow struct {
	ID             string    `bun:"id"`
	Name           string    `bun:"name"`
	Description    string    `bun:"description"`
	Category       string    `bun:"category"`
	Type           string    `bun:"type"`
	Level          string    `bun:"level"`
	PriceCents     int64     `bun:"price_cents"`
	Icon           string    `bun:"icon"`
	Color          string    `bun:"color"`
	Criteria       string    `bun:"criteria"`
	RequiresResume bool      `bun:"requires_resume"`
	IsActive       bool      `bun:"is_active"`
	ValidDays      *int      `bun:"valid_days"`
	CreatedAt      time.Time `bun:"created_at"`

	QuizID        *string `bun:"quiz_id"`
	QuizTitle     *string `bun:"quiz_title"`
	QuizPassing   *int    `bun:"quiz_passing_score"`
	QuizTimeLimit *int    `bun:"quiz_time_limit"`
	QuestionCount int     `bun:"question_count"`
	CreatorName   *string `bun:"creator_name"`
}

func (r *badgeRow) view() Badge {
	var q *Quiz
	if r.QuizID != nil {
		q = &Quiz{ID: *r.QuizID, QuestionCount: r.QuestionCount}
		if r.QuizTitle != nil {
			q.Title = *r.QuizTitle
		}
		if r.QuizPassing != nil {
			q.PassingScore = *r.QuizPassing
		}
		if r.QuizTimeLimit != nil {
			q.TimeLimit = *r.QuizTimeLimit
		}
	}
	return View(&model.Badge{
		ID: r.ID, Name: r.Name, Description: r.Description, Category: r.Category, Type: r.Type, Level: r.Level,
		PriceCents: r.PriceCents, Icon: r.Icon, Color: r.Color, Criteria: r.Criteria, RequiresResume: r.RequiresResume,
		IsActive: r.IsActive, ValidDays: r.ValidDays, CreatedAt: r.CreatedAt,
	}, q, r.CreatorName)
}

const badgeSelect = `
SELECT b.id, b.name, b.description, b.category, b.type, b.level, b.price_cents, b.icon, b.color,
	b.criteria, b.requires_resume, b.is_active, b.valid_days, b.created_at,
	q.id AS quiz_id, q.title AS quiz_title, q.passing_score AS quiz_passing_score, q.time_limit AS quiz_time_limit,
	(SELECT COUNT(*) FROM quiz_questions qq WHERE qq.quiz_id = q.id) AS question_count,
	u.name AS creator_name
FROM badges b
LEFT JOIN quizzes q ON q.badge_id = b.id AND q.is_active
LEFT JOIN users u ON u.id = b.created_by`

const activeBadgesSQL = badgeSelect + `
WHERE b.is_active
ORDER BY b.created_at, b.id`

// activeBadges is every active badge, oldest first: one query (the catalogue's, on every
// visit, so prepared).
func activeBadges(ctx context.Context, d bun.IDB, stmt *db.Prepared) ([]Badge, error) {
	var rows []badgeRow
	if err := stmt.Scan(ctx, d, &rows, activeBadgesSQL); err != nil {
		return nil, err
	}
	out := make([]Badge, len(rows))
	for i := range rows {
		out[i] = rows[i].view()
	}
	return out, nil
}

// cardsSQL reads the active badges' cards in the catalogue's order (activeBadgesSQL's):
// one table, no join and no per-row count.
const cardsSQL = `
SELECT b.id, b.name, b.description, b.category, b.type, b.level, b.price_cents, b.icon, b.color, b.criteria
FROM badges b
WHERE b.is_active
ORDER BY b.created_at, b.id`

// activeCards is every active badge's card, oldest first: one query, on every visit of
// the catalogue page, so prepared.
// The rows are badges with only the card's columns read.
func activeCards(ctx context.Context, d bun.IDB, stmt *db.Prepared) ([]Card, error) {
	var rows []model.Badge
	if err := stmt.Scan(ctx, d, &rows, cardsSQL); err != nil {
		return nil, err
	}
	out := make([]Card, len(rows))
	for i := range rows {
		r := &rows[i]
		out[i] = Card{ID: r.ID, Name: r.Name, Description: r.Description, Category: r.Category, Type: r.Type, Level: r.Level,
			Price: Dollars(r.PriceCents), Icon: r.Icon, Color: r.Color, Criteria: r.Criteria}
	}
	return out, nil
}

// badgeByID is one badge, active or not (nil when there is none): one query.
func badgeByID(ctx context.Context, d bun.IDB, id string) (*Badge, error) {
	var rows []badgeRow
	if err := d.NewRaw(badgeSelect+`
WHERE b.id = ?`, id).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, nil
	}
	b := rows[0].view()
	return &b, nil
}

// userRecordsSQL reads a user's applications and grants (revoked ones too: their state): [0] of every badge,
// [1] of one badge.
var userRecordsSQL = [2]string{recordsSQL("", ""), recordsSQL(" AND a.badge_id = ?", " AND g.badge_id = ?")}

func recordsSQL(appBadge, grantBadge string) string {
	return `
SELECT 'a' AS kind, a.id, a.badge_id, a.status, a.created_at AS at, a.reviewed_at AS at2,
	a.rejection_reason AS reason, NULL AS at3, FALSE AS prev, '' AS vid, '' AS pvid,
	COALESCE((SELECT p.status FROM payments p WHERE p.application_id = a.id ORDER BY p.created_at DESC, p.id DESC LIMIT 1), '') AS pay
FROM applications a WHERE a.user_id = ?` + appBadge + `
UNION ALL
SELECT 'g' AS kind, g.id, g.badge_id, '' AS status, g.granted_at AS at, g.expires_at AS at2,
	'' AS reason, g.revoked_at AS at3, g.previous_grant_id IS NOT NULL AS prev,
	g.verification_id AS vid, g.public_verification_id AS pvid, '' AS pay
FROM badge_grants g WHERE g.user_id = ?` + grantBadge
}

// userRecords is the user's applications and unrevoked grants (for one badge, or all
// when badgeID is ""): one query, on every signed-in catalogue or badge page, so kept
// prepared in stmts (one for each form).
func userRecords(ctx context.Context, d bun.IDB, stmts *[2]db.Prepared, userID, badgeID string) ([]record, error) {
	var recs []record
	var err error
	if badgeID == "" {
		err = stmts[0].Scan(ctx, d, &recs, userRecordsSQL[0], userID, userID)
	} else {
		err = stmts[1].Scan(ctx, d, &recs, userRecordsSQL[1], userID, badgeID, userID, badgeID)
	}
	return recs, err
}
