// Package seed fills an empty database with demo content: badges over the six
// categories, skill badges with quizzes, proof badges, a free badge, coupons, the demo
// administrator, and simulated attempts at one quiz by demo candidates (attempts.go).
// Running it again changes nothing.
package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/auth"
	"meritmark/app/model"
	quizpkg "meritmark/app/quiz"
)

// Result says what seeding did.
type Result struct {
	Seeded     bool
	Badges     int
	AdminEmail string
}

// DemoAdminEmail is the demo administrator's address.
const DemoAdminEmail = "admin@meritmark.local"

// Run seeds when no badge exists yet; adminPassword is the demo administrator's.
func Run(ctx context.Context, d *bun.DB, adminPassword string) (Result, error) {
	res := Result{AdminEmail: DemoAdminEmail}
	n, err := d.NewSelect().Model((*model.Badge)(nil)).Count(ctx)
	if err != nil {
		return res, err
	}
	if n > 0 {
		return res, EnsureAdmin(ctx, d, DemoAdminEmail, adminPassword, "Demo Admin", false)
	}
	if err := EnsureAdmin(ctx, d, DemoAdminEmail, adminPassword, "Demo Admin", false); err != nil {
		return res, err
	}
	var adminID string
	if err := d.NewSelect().Model((*model.User)(nil)).Column("id").Where("email = ?", DemoAdminEmail).Scan(ctx, &adminID); err != nil {
		return res, err
	}
	err = d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		now := model.Now()
		for i, b := range badges {
			created := now.Add(-time.Duration(len(badges)-i) * time.Hour)
			badge := &model.Badge{
				ID: model.NewID(), Name: b.name, Description: b.description, Category: b.category, Type: b.typ,
				Level: b.level, PriceCents: b.price, Icon: b.icon, Color: b.color, Criteria: b.criteria,
				RequiresResume: b.requiresResume, IsActive: true, CreatedBy: &adminID, CreatedAt: created, UpdatedAt: created,
			}
			if _, err := tx.NewInsert().Model(badge).Exec(ctx); err != nil {
				return fmt.Errorf("seed badge %s: %w", b.name, err)
			}
			if b.typ != model.TypeSkill {
				continue
			}
			quiz := &model.Quiz{
				ID: model.NewID(), BadgeID: badge.ID, Title: b.name + " Assessment",
				Description:  "Answer each question to show your " + b.name + " skills. You need 70% to pass.",
				PassingScore: 70, TimeLimit: 15, IsActive: true, CreatedAt: created,
				// each attempt draws from a pool larger than the draw; the usual retake rule
				QuestionsPerAttempt: len(b.questions) + len(b.multiple) - 1, RetakeWaitHours: 24, MaxAttempts: 3, AttemptPeriodDays: 30,
				MaxExposure: quizpkg.DefaultMaxExposure, Blueprint: b.blueprint,
			}
			if len(b.blueprint) > 0 {
				quiz.QuestionsPerAttempt = quizpkg.BlueprintTotal(b.blueprint)
			}
			ids := make([]string, len(b.questions)+len(b.multiple))
			pool := make([]*model.Question, len(b.questions)+len(b.multiple))
			if _, err := tx.NewInsert().Model(quiz).Exec(ctx); err != nil {
				return err
			}
			for pos, qq := range b.questions {
				question := &model.Question{
					ID: model.NewID(), Text: qq.text, Options: qq.options, CorrectIndex: qq.correct, Type: model.QuestionSingle, Difficulty: qq.difficulty,
					Explanation: qq.explanation, Topic: qq.topic, Category: b.category, CreatedAt: created,
				}
				ids[pos] = question.ID
				pool[pos] = question
				if of, ok := b.families[pos]; ok {
					question.FamilyOf = &ids[of]
				}
				if _, err := tx.NewInsert().Model(question).Exec(ctx); err != nil {
					return err
				}
				if _, err := tx.NewInsert().Model(&model.QuizQuestion{QuizID: quiz.ID, QuestionID: question.ID, Position: pos}).Exec(ctx); err != nil {
					return err
				}
			}
			for i, m := range b.multiple {
				pos := len(b.questions) + i
				question := &model.Question{
					ID: model.NewID(), Text: m.text, Options: m.options, CorrectIndex: m.correct[0], Type: model.QuestionMultiple,
					CorrectIndexes: m.correct, ShowCount: m.showCount, Difficulty: m.difficulty,
					Explanation: m.explanation, Topic: m.topic, Category: b.category, CreatedAt: created,
				}
				ids[pos] = question.ID
				pool[pos] = question
				if _, err := tx.NewInsert().Model(question).Exec(ctx); err != nil {
					return err
				}
				if _, err := tx.NewInsert().Model(&model.QuizQuestion{QuizID: quiz.ID, QuestionID: question.ID, Position: pos}).Exec(ctx); err != nil {
					return err
				}
			}
			if b.name == DemoAttemptsBadge {
				if err := seedAttempts(ctx, tx, quiz, pool, now); err != nil {
					return err
				}
			}
		}
		for _, c := range coupons(now, adminID) {
			if _, err := tx.NewInsert().Model(c).Exec(ctx); err != nil {
				return fmt.Errorf("seed coupon %s: %w", c.Code, err)
			}
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	res.Seeded = true
	res.Badges = len(badges)
	return res, nil
}

func coupons(now time.Time, adminID string) []*model.Coupon {
	limit := func(n int) *int { return &n }
	max := func(c int64) *int64 { return &c }
	return []*model.Coupon{
		{ID: model.NewID(), Code: "WELCOME10", Name: "Welcome discount", Description: "10% off your first badge",
			DiscountType: "percentage", DiscountValue: 1000, ValidFrom: now.Add(-time.Hour), ValidUntil: now.AddDate(1, 0, 0),
			IsActive: true, ApplicableBadges: []string{}, ApplicableCategories: []string{}, CreatedBy: &adminID, CreatedAt: now, UpdatedAt: now},
		{ID: model.NewID(), Code: "DEV20", Name: "Developers save $20", Description: "$20 off development badges over $40",
			DiscountType: "fixed", DiscountValue: 2000, MinimumCents: 4000, ValidFrom: now.Add(-time.Hour), ValidUntil: now.AddDate(0, 6, 0),
			IsActive: true, ApplicableBadges: []string{}, ApplicableCategories: []string{"Development"}, CreatedBy: &adminID, CreatedAt: now, UpdatedAt: now},
		{ID: model.NewID(), Code: "HALFOFF", Name: "Half price", Description: "50% off, at most $30", DiscountType: "percentage",
			DiscountValue: 5000, MaximumDiscountCents: max(3000), UsageLimit: limit(100), ValidFrom: now.Add(-time.Hour), ValidUntil: now.AddDate(0, 3, 0),
			IsActive: true, ApplicableBadges: []string{}, ApplicableCategories: []string{}, CreatedBy: &adminID, CreatedAt: now, UpdatedAt: now},
		{ID: model.NewID(), Code: "FREEGRANT", Name: "Free grant", Description: "100% off for scholarship recipients", DiscountType: "percentage",
			DiscountValue: 10000, UsageLimit: limit(25), ValidFrom: now.Add(-time.Hour), ValidUntil: now.AddDate(0, 1, 0),
			IsActive: true, ApplicableBadges: []string{}, ApplicableCategories: []string{}, CreatedBy: &adminID, CreatedAt: now, UpdatedAt: now},
	}
}

// EnsureAdmin creates an administrator, or (when reset is true) resets the password and
// role of an existing account with that email.
func EnsureAdmin(ctx context.Context, d *bun.DB, email, password, name string, reset bool) error {
	var existing model.User
	err := d.NewSelect().Model(&existing).Where("email = ?", email).Scan(ctx)
	if err == nil && !reset {
		return nil
	}
	hash, herr := auth.HashPassword(password)
	if herr != nil {
		return herr
	}
	now := model.Now()
	if err == nil {
		_, err = d.NewUpdate().Model((*model.User)(nil)).Set("password_hash = ?", hash).Set("role = ?", model.RoleAdmin).
			Set("must_change_password = ?", false).Set("email_verified_at = COALESCE(email_verified_at, ?)", now).
			Set("name = ?", name).Set("updated_at = ?", now).Where("id = ?", existing.ID).Exec(ctx)
		return err
	}
	_, err = d.NewInsert().Model(&model.User{
		ID: model.NewID(), Name: name, Email: email, PasswordHash: hash, Role: model.RoleAdmin, Skills: []string{},
		Position: "Platform Administrator", CreatedAt: now, UpdatedAt: now, EmailVerifiedAt: &now,
		// the seeded demo admin's password is known: it must be changed at first sign-in;
		// an admin made by create-admin (reset) chose theirs
		MustChangePassword: !reset,
	}).Exec(ctx)
	return err
}
