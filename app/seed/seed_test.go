package seed_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/seed"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func TestSeedIsCompleteAndIdempotent(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	res, err := seed.Run(ctx, d, "demo-password")
	if err != nil || !res.Seeded {
		t.Fatalf("%v %+v", err, res)
	}
	var badges []model.Badge
	if err := d.NewSelect().Model(&badges).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if len(badges) < 12 {
		t.Fatalf("%d badges, want at least 12", len(badges))
	}
	cats, free, proof := map[string]bool{}, 0, 0
	for _, b := range badges {
		cats[b.Category] = true
		if b.PriceCents == 0 {
			free++
		}
		if b.Type == model.TypeProof {
			proof++
		}
		if b.Type == model.TypeSkill {
			n, err := d.NewSelect().Table("quiz_questions").Join("JOIN quizzes q ON q.id = quiz_questions.quiz_id").Where("q.badge_id = ?", b.ID).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n < 5 || n > 10 {
				t.Errorf("%s: quiz has %d questions, want 5-10", b.Name, n)
			}
			var qz model.Quiz
			if err := d.NewSelect().Model(&qz).Where("badge_id = ?", b.ID).Scan(ctx); err != nil {
				t.Fatal(err)
			}
			if qz.QuestionsPerAttempt < 3 || int64(qz.QuestionsPerAttempt) >= int64(n) || qz.RetakeWaitHours != 24 || qz.MaxAttempts != 3 || qz.AttemptPeriodDays != 30 {
				t.Errorf("%s: draw %d of a pool of %d, rule %d h / %d in %d days", b.Name, qz.QuestionsPerAttempt, n, qz.RetakeWaitHours, qz.MaxAttempts, qz.AttemptPeriodDays)
			}
		}
	}
	if len(cats) != 6 || free < 1 || proof < 1 {
		t.Fatalf("categories %d, free %d, proof %d", len(cats), free, proof)
	}
	coupons, _ := d.NewSelect().Model((*model.Coupon)(nil)).Count(ctx)
	if coupons < 3 {
		t.Fatalf("%d coupons", coupons)
	}
	var admin model.User
	if err := d.NewSelect().Model(&admin).Where("email = ?", seed.DemoAdminEmail).Scan(ctx); err != nil || admin.Role != model.RoleAdmin {
		t.Fatalf("demo admin: %v %+v", err, admin)
	}
	if ok, _ := auth.CheckPassword(admin.PasswordHash, "demo-password"); !ok {
		t.Fatal("demo admin password does not match")
	}

	res, err = seed.Run(ctx, d, "demo-password")
	if err != nil || res.Seeded {
		t.Fatalf("second run: %v %+v", err, res)
	}
	if n, _ := d.NewSelect().Model((*model.Badge)(nil)).Count(ctx); n != int64(len(badges)) {
		t.Fatalf("second run changed the badge count to %d", n)
	}
}

func TestCreateAdminResetsAnExistingAccount(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	if err := seed.EnsureAdmin(ctx, d, "boss@example.com", "first-password", "Boss", true); err != nil {
		t.Fatal(err)
	}
	if err := seed.EnsureAdmin(ctx, d, "boss@example.com", "second-password", "Boss Two", true); err != nil {
		t.Fatal(err)
	}
	var u model.User
	if err := d.NewSelect().Model(&u).Where("email = ?", "boss@example.com").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if ok, _ := auth.CheckPassword(u.PasswordHash, "second-password"); !ok || u.Name != "Boss Two" || u.Role != model.RoleAdmin {
		t.Fatalf("%+v", u)
	}
}

// TestSeededCriteriaMatchTheQuiz: a skill badge's criteria text names the score its quiz
// really passes at (the Go Backend Engineer once said 75 % while its quiz passed at 70 %).
func TestSeededCriteriaMatchTheQuiz(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	if _, err := seed.Run(ctx, d, "demo-password"); err != nil {
		t.Fatal(err)
	}
	var quizzes []model.Quiz
	if err := d.NewSelect().Model(&quizzes).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	percent := regexp.MustCompile(`(\d+)\s*(?:percent|%)`)
	checked := 0
	for _, q := range quizzes {
		var b model.Badge
		if err := d.NewSelect().Model(&b).Where("id = ?", q.BadgeID).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		for _, m := range percent.FindAllStringSubmatch(b.Criteria+" "+q.Description, -1) {
			checked++
			if n, _ := strconv.Atoi(m[1]); n != q.PassingScore {
				t.Errorf("%s: the text says %s%% but the quiz passes at %d%%", b.Name, m[1], q.PassingScore)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("only %d scores named in the seeded criteria", checked)
	}
}

// TestSeededBlueprintQuizDrawsBalancedForms: the SQL Data Analyst quiz demonstrates
// balanced forms: two topics with a blueprint, a family, a pool of 10 for 3 per attempt,
// and its pool can draw forms meeting every rule.
func TestSeededBlueprintQuizDrawsBalancedForms(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	if _, err := seed.Run(ctx, d, "demo-password"); err != nil {
		t.Fatal(err)
	}
	var qz model.Quiz
	if err := d.NewSelect().Model(&qz).Join("JOIN badges b ON b.id = quiz.badge_id").Where("b.name = ?", "SQL Data Analyst").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	p, err := quiz.LoadPool(ctx, d, &qz)
	if err != nil {
		t.Fatal(err)
	}
	fams := map[string]int{}
	for _, f := range p.Family {
		fams[f]++
	}
	linked := 0
	for _, n := range fams {
		if n > 1 {
			linked++
		}
	}
	apptest.Expect(t, "SQL quiz", qz,
		apptest.Eq("Blueprint", fmt.Sprint(qz.Blueprint), "[{Aggregation 2} {Joins & filtering 1}]"),
		apptest.Eq("QuestionsPerAttempt", qz.QuestionsPerAttempt, 3),
		apptest.Eq("ExposureRate", quiz.ExposureRate(&qz), 40),
		apptest.Eq("active pool", len(p.Active), 10),
		apptest.Eq("families of two or more", linked, 1))
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 200; i++ {
		f, err := quiz.Draw(p.Items, quiz.Spec{Blueprint: qz.Blueprint, Target: p.Target, Cap: quiz.CapCount(40)}, r)
		if err != nil || len(f.Items) != 3 || !quiz.InBand(f.Mean, p.Target) {
			t.Fatalf("draw %d: %v %+v", i, err, f)
		}
	}
}
