package badgeadmin

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// QuizSummary is a badge's quiz as the badge list shows it.
type QuizSummary struct {
	ID            string `json:"_id"`
	Title         string `json:"title"`
	PassingScore  int    `json:"passingScore"`
	TimeLimit     int    `json:"timeLimit"`
	IsActive      bool   `json:"isActive"`
	QuestionCount int    `json:"questionCount"`
}

// Creator is who created a badge.
type Creator struct {
	ID   string `json:"_id"`
	Name string `json:"name"`
}

// View is a badge as the admin API answers it (spec section 3, plus usage counts so the
// screen can say why a badge cannot be deleted).
type View struct {
	ID                   string       `json:"_id"`
	Name                 string       `json:"name"`
	Description          string       `json:"description"`
	Category             string       `json:"category"`
	Type                 string       `json:"type"`
	Level                string       `json:"level"`
	Price                float64      `json:"price"`
	Icon                 string       `json:"icon"`
	Color                string       `json:"color"`
	Criteria             string       `json:"criteria"`
	RequiresResume       bool         `json:"requiresResume"`
	IsActive             bool         `json:"isActive"`
	ValidDays            *int         `json:"validDays"`
	ValidMonths          *int         `json:"validMonths"`
	CreatedBy            *Creator     `json:"createdBy"`
	CreatedAt            time.Time    `json:"createdAt"`
	UpdatedAt            time.Time    `json:"updatedAt"`
	Quiz                 *QuizSummary `json:"quiz"`
	GrantCount           int          `json:"grantCount"`
	ApplicationCount     int          `json:"applicationCount"`
	OpenApplicationCount int          `json:"openApplicationCount"`
}

// Stats are the badge counts of the Badge Management cards.
type Stats struct {
	TotalBadges  int `json:"totalBadges"`
	ActiveBadges int `json:"activeBadges"`
	SkillBadges  int `json:"skillBadges"`
	ProofBadges  int `json:"proofBadges"`
}

type countRow struct {
	Key  string `bun:"k"`
	N    int    `bun:"n"`
	Open int    `bun:"open"`
}

// views loads badges (all when ids is nil, newest first) with their quiz, creator and
// usage counts, in a fixed number of queries.
func views(ctx context.Context, db bun.IDB, ids []string) ([]View, error) {
	var badges []model.Badge
	q := db.NewSelect().Model(&badges).Order("created_at DESC", "name ASC")
	if ids != nil {
		if len(ids) == 0 {
			return []View{}, nil
		}
		q = q.Where("id IN (?)", bun.List(ids))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	out := make([]View, 0, len(badges))
	if len(badges) == 0 {
		return out, nil
	}
	badgeIDs := make([]string, len(badges))
	var creatorIDs []string
	for i, b := range badges {
		badgeIDs[i] = b.ID
		if b.CreatedBy != nil {
			creatorIDs = append(creatorIDs, *b.CreatedBy)
		}
	}
	names := map[string]string{}
	if len(creatorIDs) > 0 {
		var users []model.User
		if err := db.NewSelect().Model(&users).Column("id", "name").Where("id IN (?)", bun.List(creatorIDs)).Scan(ctx); err != nil {
			return nil, err
		}
		for _, u := range users {
			names[u.ID] = u.Name
		}
	}
	var quizzes []model.Quiz
	if err := db.NewSelect().Model(&quizzes).Where("badge_id IN (?)", bun.List(badgeIDs)).Scan(ctx); err != nil {
		return nil, err
	}
	quizByBadge := map[string]*QuizSummary{}
	var quizIDs []string
	for _, qz := range quizzes {
		quizByBadge[qz.BadgeID] = &QuizSummary{ID: qz.ID, Title: qz.Title, PassingScore: qz.PassingScore, TimeLimit: qz.TimeLimit, IsActive: qz.IsActive}
		quizIDs = append(quizIDs, qz.ID)
	}
	questionCounts := map[string]int{}
	if len(quizIDs) > 0 {
		var rows []countRow
		if err := db.NewRaw("SELECT quiz_id AS k, COUNT(*) AS n, 0 AS open FROM quiz_questions WHERE quiz_id IN (?) GROUP BY quiz_id", bun.List(quizIDs)).Scan(ctx, &rows); err != nil {
			return nil, err
		}
		for _, r := range rows {
			questionCounts[r.Key] = r.N
		}
	}
	var grants, apps []countRow
	if err := db.NewRaw("SELECT badge_id AS k, COUNT(*) AS n, 0 AS open FROM badge_grants WHERE badge_id IN (?) GROUP BY badge_id", bun.List(badgeIDs)).Scan(ctx, &grants); err != nil {
		return nil, err
	}
	if err := db.NewRaw("SELECT badge_id AS k, COUNT(*) AS n, SUM(CASE WHEN status IN (?, ?) THEN 1 ELSE 0 END) AS open FROM applications WHERE badge_id IN (?) GROUP BY badge_id",
		model.StatusAwaitingPayment, model.StatusPending, bun.List(badgeIDs)).Scan(ctx, &apps); err != nil {
		return nil, err
	}
	grantN := map[string]int{}
	for _, r := range grants {
		grantN[r.Key] = r.N
	}
	appN := map[string]countRow{}
	for _, r := range apps {
		appN[r.Key] = r
	}
	for _, b := range badges {
		v := toView(b)
		if b.CreatedBy != nil {
			if n, ok := names[*b.CreatedBy]; ok {
				v.CreatedBy = &Creator{ID: *b.CreatedBy, Name: n}
			}
		}
		if qz := quizByBadge[b.ID]; qz != nil {
			qz.QuestionCount = questionCounts[qz.ID]
			v.Quiz = qz
		}
		v.GrantCount = grantN[b.ID]
		v.ApplicationCount = appN[b.ID].N
		v.OpenApplicationCount = appN[b.ID].Open
		out = append(out, v)
	}
	return out, nil
}

func toView(b model.Badge) View {
	return View{
		ID: b.ID, Name: b.Name, Description: b.Description, Category: b.Category, Type: b.Type, Level: b.Level,
		Price: float64(b.PriceCents) / 100, Icon: b.Icon, Color: b.Color, Criteria: b.Criteria,
		RequiresResume: b.RequiresResume, IsActive: b.IsActive, ValidDays: b.ValidDays, ValidMonths: b.ValidMonths,
		CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt,
	}
}

// view loads one badge's view.
func view(ctx context.Context, db bun.IDB, id string) (*View, error) {
	vs, err := views(ctx, db, []string{id})
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, sql.ErrNoRows
	}
	return &vs[0], nil
}

// getBadge loads a badge row; sql.ErrNoRows when there is none.
func getBadge(ctx context.Context, db bun.IDB, id string) (*model.Badge, error) {
	b := new(model.Badge)
	if err := db.NewSelect().Model(b).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// nameTaken reports whether another badge has this name, ignoring case.
func nameTaken(ctx context.Context, db bun.IDB, name, exceptID string) (bool, error) {
	q := db.NewSelect().Model((*model.Badge)(nil)).Where("LOWER(name) = ?", strings.ToLower(name))
	if exceptID != "" {
		q = q.Where("id <> ?", exceptID)
	}
	return q.Exists(ctx)
}

// usage counts a badge's grants and applications (any status).
func usage(ctx context.Context, db bun.IDB, id string) (grants, applications int64, err error) {
	grants, err = db.NewSelect().Model((*model.BadgeGrant)(nil)).Where("badge_id = ?", id).Count(ctx)
	if err != nil {
		return
	}
	applications, err = db.NewSelect().Model((*model.Application)(nil)).Where("badge_id = ?", id).Count(ctx)
	return
}

// QuizReady reports whether a badge has an active quiz with at least one question (a
// skill badge without one is a draft: it cannot be activated or awarded).
func QuizReady(ctx context.Context, db bun.IDB, badgeID string) (bool, error) {
	return db.NewSelect().TableExpr("quizzes AS q").
		Join("JOIN quiz_questions AS qq ON qq.quiz_id = q.id").
		Where("q.badge_id = ?", badgeID).Where("q.is_active = ?", true).Exists(ctx)
}

func stats(ctx context.Context, db bun.IDB) (Stats, error) {
	var s Stats
	err := db.NewRaw(`SELECT COUNT(*) AS total_badges,
		COALESCE(SUM(CASE WHEN is_active = ? THEN 1 ELSE 0 END), 0) AS active_badges,
		COALESCE(SUM(CASE WHEN type = ? THEN 1 ELSE 0 END), 0) AS skill_badges,
		COALESCE(SUM(CASE WHEN type = ? THEN 1 ELSE 0 END), 0) AS proof_badges
		FROM badges`, true, model.TypeSkill, model.TypeProof).Scan(ctx, &s.TotalBadges, &s.ActiveBadges, &s.SkillBadges, &s.ProofBadges)
	return s, err
}

// isNoRows reports sql.ErrNoRows.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
