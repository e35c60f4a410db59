package seed_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
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
			// a small pool each; the demo exam bank (a blueprint over three topics) is larger
			var lo, hi = int64(5), int64(10)
			if b.Name == seed.DemoAttemptsBadge {
				lo, hi = 20, 30
			}
			if n < lo || n > hi {
				t.Errorf("%s: quiz has %d questions, want %d-%d", b.Name, n, lo, hi)
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

// TestSeededBlueprintQuizDrawsBalancedForms: the SQL Data Analyst quiz demonstrates a
// real exam's bank: three topics with a blueprint, three families, both item types, a pool
// of 24 for 7 per form; its pool draws forms meeting every rule, and over 1,000 draws the
// exposure cap is what keeps the most used items at 40 % of the forms.
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
		apptest.Eq("Blueprint", fmt.Sprint(qz.Blueprint), "[{Aggregation 3} {Joins & filtering 2} {Query design 2}]"),
		apptest.Eq("QuestionsPerAttempt", qz.QuestionsPerAttempt, 7),
		apptest.Eq("ExposureRate", quiz.ExposureRate(&qz), 40),
		apptest.Eq("active pool", len(p.Active), 24),
		apptest.Eq("multiple-response items", countMultiple(p.Active), 3),
		apptest.Eq("families of two or more", linked, 3))
	// 1,000 draws in a row, each item's exposure counted over the last forms as the quiz
	// counts it: with the cap no item is on more than 40 % of any 200 consecutive forms;
	// without it the draw's difficulty band would put some item over (the cap matters)
	run := func(capCount int) (worst int, id string) {
		r := rand.New(rand.NewPCG(5, 6))
		var forms [][]string
		for n := 0; n < 1000; n++ {
			items := append([]quiz.Item(nil), p.Items...)
			recent := map[string]int{}
			for _, f := range forms[max(0, len(forms)-(quiz.ExposureWindow-1)):] {
				for _, x := range f {
					recent[x]++
				}
			}
			for i := range items {
				items[i].Exposure = recent[items[i].ID]
			}
			f, err := quiz.Draw(items, quiz.Spec{Blueprint: qz.Blueprint, Target: p.Target, Cap: capCount}, r)
			if err != nil || len(f.Items) != 7 || !quiz.InBand(f.Mean, p.Target) {
				t.Fatalf("draw %d: %v %+v", n, err, f)
			}
			var ids []string
			for _, it := range f.Items {
				ids = append(ids, it.ID)
			}
			forms = append(forms, ids)
			if n >= quiz.ExposureWindow-1 {
				counts := map[string]int{}
				for _, f := range forms[n-quiz.ExposureWindow+1:] {
					for _, x := range f {
						counts[x]++
					}
				}
				for x, c := range counts {
					if c > worst {
						worst, id = c, x
					}
				}
			}
		}
		return worst, id
	}
	text := map[string]string{}
	for _, q := range p.Active {
		text[q.ID] = q.Text
	}
	capCount := quiz.CapCount(quiz.ExposureRate(&qz))
	worst, id := run(capCount)
	if worst > capCount {
		t.Fatalf("with the cap, %s was on %d of %d consecutive forms (cap %d)", text[id], worst, quiz.ExposureWindow, capCount)
	}
	uncapped, uid := run(quiz.ExposureWindow + 1)
	t.Logf("most used item: %d of %d forms with the cap, %d without (%q)", worst, quiz.ExposureWindow, uncapped, text[uid])
	if uncapped <= capCount {
		t.Fatalf("without the cap the most used item is on only %d of %d forms: the seeded pool does not show exposure control", uncapped, quiz.ExposureWindow)
	}
}

func countMultiple(qs []model.Question) int {
	n := 0
	for _, q := range qs {
		if q.Multiple() {
			n++
		}
	}
	return n
}

// The demo quiz's simulated attempts: enough that every figure of the public technical
// report shows, by demo candidates only, on balanced forms, graded as the quiz grades,
// the same on every install (fixed seed). How long seeding takes is BenchmarkSeed's.
func TestSeededDemoAttemptsShowEveryFigure(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	if _, err := seed.Run(ctx, d, "demo-password"); err != nil {
		t.Fatal(err)
	}
	var qz model.Quiz
	if err := d.NewSelect().Model(&qz).Join("JOIN badges AS b ON b.id = quiz.badge_id").Where("b.name = ?", seed.DemoAttemptsBadge).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	rep, err := quiz.PublicReport(ctx, d, qz.BadgeID, model.Now())
	if err != nil || rep == nil {
		t.Fatalf("report: %v %v", rep, err)
	}
	f := rep.Figures
	apptest.Expect(t, "figures", f,
		apptest.Eq("N", f.N, seed.DemoCandidates),
		apptest.Eq("DemoAttempts", f.DemoAttempts, seed.DemoCandidates),
		apptest.True("Enough", f.Enough),
		apptest.Eq("FormLength", f.FormLength, 7),
		apptest.True("Reliability", f.Reliability != nil && *f.Reliability > 0 && *f.Reliability < 1),
		apptest.True("SEM", f.SEM != nil && *f.SEM > 0),
		apptest.True("DecisionConsistency", f.DecisionConsistency != nil && *f.DecisionConsistency > 50),
		apptest.True("Kappa", f.Kappa != nil),
		apptest.True("PassRate", f.PassRate != nil && *f.PassRate > 10 && *f.PassRate < 90),
		apptest.True("Until", f.Until != nil && f.Until.Before(model.Now())),
		apptest.Eq("Distribution", len(f.Distribution), 10))
	t.Logf("demo figures: n %d, KR-20 %v, SEM %v, P0 %v, kappa %v, pass rate %v", f.N, *f.Reliability, *f.SEM, *f.DecisionConsistency, *f.Kappa, *f.PassRate)

	var attempts []model.QuizAttempt
	if err := d.NewSelect().Model(&attempts).Where("quiz_id = ?", qz.ID).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	var questions []model.Question
	if err := d.NewSelect().Model(&questions).Join("JOIN quiz_questions AS qq ON qq.question_id = question.id").Where("qq.quiz_id = ?", qz.ID).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	byID := map[string]*model.Question{}
	for i := range questions {
		byID[questions[i].ID] = &questions[i]
	}
	for _, a := range attempts {
		topics, families := map[string]int{}, map[string]bool{}
		for _, it := range a.Layout {
			q := byID[it.QuestionID]
			topics[q.Topic]++
			fam := q.ID
			if q.FamilyOf != nil {
				fam = *q.FamilyOf
			}
			if families[fam] {
				t.Fatalf("attempt %s holds two questions of one family", a.ID)
			}
			families[fam] = true
		}
		var rows []model.QuizResponse
		if err := d.NewSelect().Model(&rows).Where("attempt_id = ?", a.ID).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		chosen := map[string][]int{}
		for _, row := range rows {
			chosen[row.QuestionID] = row.Chosen
			if row.TimeMs <= 0 || row.FirstAnsweredAt == nil || row.LastAnsweredAt == nil || row.LastAnsweredAt.After(*a.SubmittedAt) {
				t.Fatalf("attempt %s: response %+v has no believable times", a.ID, row)
			}
		}
		g := quiz.GradeAnswers(a.Layout, byID, chosen, qz.PassingScore)
		if len(rows) != 7 || topics["Aggregation"] != 3 || topics["Joins & filtering"] != 2 || topics["Query design"] != 2 || g.Score != a.Score || g.Passed != a.Passed || a.SubmittedAt == nil {
			t.Fatalf("attempt %s: topics %v, graded %+v, stored score %v passed %v", a.ID, topics, g, a.Score, a.Passed)
		}
	}
	var emails []string
	if err := d.NewSelect().Table("users").Column("email").Where("id IN (SELECT user_id FROM quiz_attempts)").Scan(ctx, &emails); err != nil {
		t.Fatal(err)
	}
	for _, e := range emails {
		if !strings.HasSuffix(e, "@"+model.DemoEmailDomain) {
			t.Fatalf("an attempt by %s, not a demo candidate", e)
		}
	}

	// a second install draws the same attempts: the figures are stable
	d2 := apptest.OpenDB(t)
	if _, err := seed.Run(ctx, d2, "demo-password"); err != nil {
		t.Fatal(err)
	}
	var badgeID2 string
	if err := d2.NewSelect().Table("badges").Column("id").Where("name = ?", seed.DemoAttemptsBadge).Scan(ctx, &badgeID2); err != nil {
		t.Fatal(err)
	}
	rep2, err := quiz.PublicReport(ctx, d2, badgeID2, model.Now())
	if err != nil {
		t.Fatal(err)
	}
	if *rep2.Figures.Reliability != *f.Reliability || *rep2.Figures.PassRate != *f.PassRate {
		t.Fatalf("a second install's figures differ: %+v, then %+v", f, rep2.Figures)
	}
}

// BenchmarkSeed is how long `make run`'s first start spends seeding the demo content (a
// fresh database each time): go test -run '^$' -bench Seed -benchtime 5x ./app/seed/
func BenchmarkSeed(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		d := apptest.OpenDB(b)
		b.StartTimer()
		if _, err := seed.Run(context.Background(), d, "demo-password"); err != nil {
			b.Fatal(err)
		}
	}
}
