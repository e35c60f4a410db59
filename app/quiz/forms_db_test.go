package quiz_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"meritmark/app/model"
	"meritmark/app/quiz"
)

// blueprintFx is the fixture's quiz with a pool of two topics: A (8 questions: A0-A2 one
// family through chained links, A3 an enemy of B0, A7 retired) and B (8 questions), and
// the blueprint A:3, B:2; no retake wait or cap.
func blueprintFx(t testing.TB) (*fx, map[string]model.Question) {
	t.Helper()
	f := newFx(t, 0)
	f.setRules(t, 0, 0, 0, 30)
	now := model.Now()
	labels := []string{"easy", "medium", "hard", "medium"}
	byName := map[string]model.Question{}
	pos := 0
	for _, topic := range []string{"A", "B"} {
		for i := 0; i < 8; i++ {
			name := fmt.Sprintf("%s%d", topic, i)
			q := model.Question{ID: model.NewID(), Text: "Question " + name + "?", Options: []string{name + "-1", name + "-2", name + "-3"},
				CorrectIndex: 0, Difficulty: labels[i%4], Topic: topic, Category: "General", CreatedAt: now}
			switch name {
			case "A1":
				q.FamilyOf = ptr(byName["A0"].ID)
			case "A2":
				q.FamilyOf = ptr(byName["A1"].ID)
			case "B0":
				q.FamilyOf = ptr(byName["A3"].ID)
			case "A7":
				q.RetiredAt = &now
			}
			if _, err := f.env.DB.NewInsert().Model(&q).Exec(f.env.Ctx()); err != nil {
				t.Fatal(err)
			}
			if _, err := f.env.DB.NewInsert().Model(&model.QuizQuestion{QuizID: f.quiz.ID, QuestionID: q.ID, Position: pos}).Exec(f.env.Ctx()); err != nil {
				t.Fatal(err)
			}
			pos++
			byName[name] = q
			f.byID[q.ID] = q
		}
	}
	if _, err := f.env.DB.NewUpdate().Model((*model.Quiz)(nil)).Set("blueprint = ?", `[{"topic":"A","count":3},{"topic":"B","count":2}]`).
		Where("id = ?", f.quiz.ID).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	return f, byName
}

func ptr(s string) *string { return &s }

// checkForm fails unless the layout meets the blueprint A:3 B:2, holds no two of one
// family, no retired question, and its expected difficulty is within the band.
func checkForm(t *testing.T, what string, layout []model.AttemptItem, p *quiz.Pool, byName map[string]model.Question) {
	t.Helper()
	topics := map[string]int{}
	fams := map[string]bool{}
	sum := 0.0
	for _, it := range layout {
		if it.QuestionID == byName["A7"].ID {
			t.Fatalf("%s: the retired question was drawn", what)
		}
		var q *model.Question
		for i := range p.Questions {
			if p.Questions[i].ID == it.QuestionID {
				q = &p.Questions[i]
			}
		}
		if q == nil {
			t.Fatalf("%s: %s is not in the pool", what, it.QuestionID)
		}
		topics[q.Topic]++
		if fams[p.Family[q.ID]] {
			t.Fatalf("%s: two questions of family %s", what, p.Family[q.ID])
		}
		fams[p.Family[q.ID]] = true
		sum += p.P[q.ID]
		if len(it.OptionOrder) != 3 {
			t.Fatalf("%s: option order %v", what, it.OptionOrder)
		}
	}
	if topics["A"] != 3 || topics["B"] != 2 || len(layout) != 5 {
		t.Fatalf("%s: topics %v", what, topics)
	}
	if mean := sum / 5; !quiz.InBand(mean, p.Target) {
		t.Fatalf("%s: expected difficulty %.3f, target %.3f", what, mean, p.Target)
	}
}

func TestPoolLoadsFamiliesEstimatesExposureAndLeavesRetiredOut(t *testing.T) {
	f, byName := blueprintFx(t)
	u, _ := f.env.Member("history@x.io")
	b5 := byName["B5"]
	// B5 answered 30 times, right every time: its estimate is its proportion correct (1.0)
	// rather than its label (medium, 0.6); B6 (hard) answered 29 times, right every time, keeps its label (0.4)
	for i := 0; i < 30; i++ {
		now := model.Now().Add(-time.Duration(100-i) * time.Minute)
		layout := []model.AttemptItem{{QuestionID: b5.ID, OptionOrder: []int{0, 1, 2}}}
		answers := map[string]int{b5.ID: 0}
		if i < 29 {
			layout = append(layout, model.AttemptItem{QuestionID: byName["B6"].ID, OptionOrder: []int{0, 1, 2}})
			answers[byName["B6"].ID] = 0
		}
		a := &model.QuizAttempt{ID: model.NewID(), UserID: u.ID, QuizID: f.quiz.ID, BadgeID: f.badge.ID, Layout: layout, Answers: answers,
			StartedAt: now, Deadline: now.Add(time.Minute), SubmittedAt: &now, Total: 1, PassingScore: 70}
		if _, err := f.env.DB.NewInsert().Model(a).Exec(f.env.Ctx()); err != nil {
			t.Fatal(err)
		}
		b6 := byName["B6"]
		qmap := map[string]*model.Question{b5.ID: &b5, b6.ID: &b6}
		if err := quiz.WriteResponses(f.env.Ctx(), f.env.DB, a, qmap); err != nil {
			t.Fatal(err)
		}
	}
	qz := new(model.Quiz)
	if err := f.env.DB.NewSelect().Model(qz).Where("id = ?", f.quiz.ID).Scan(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	p, err := quiz.LoadPool(f.env.Ctx(), f.env.DB, qz)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Questions) != 16 || len(p.Active) != 15 || len(p.Items) != 15 || p.Forms != 30 || p.Exposure[b5.ID] != 30 || p.Exposure[byName["B6"].ID] != 29 {
		t.Fatalf("pool: %d questions, %d active, %d forms, B5 exposure %d", len(p.Questions), len(p.Active), p.Forms, p.Exposure[b5.ID])
	}
	if p.P[b5.ID] != 1.0 || p.P[byName["B6"].ID] != 0.4 || p.P[byName["A2"].ID] != 0.4 {
		t.Fatalf("estimates B5 %.2f B6 %.2f A2 %.2f", p.P[b5.ID], p.P[byName["B6"].ID], p.P[byName["A2"].ID])
	}
	a0 := byName["A0"].ID
	if p.Family[byName["A2"].ID] != a0 || p.Family[byName["A1"].ID] != a0 || p.Family[byName["B0"].ID] != byName["A3"].ID || p.Family[byName["B1"].ID] != byName["B1"].ID {
		t.Fatalf("families %v", p.Family)
	}
	// 500 draws from the pool as loaded all meet the rules
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 500; n++ {
		form, err := quiz.Draw(p.Items, quiz.Spec{Blueprint: qz.Blueprint, Target: p.Target, Cap: quiz.CapCount(40)}, r)
		if err != nil {
			t.Fatalf("draw %d: %v", n, err)
		}
		checkForm(t, fmt.Sprintf("draw %d", n), quiz.FormLayout(form, map[string]int{}, func(int) []int { return []int{0, 1, 2} }), p, byName)
	}
}

func TestStartDrawsBalancedFormsAndAvoidsThePreviousForm(t *testing.T) {
	f, byName := blueprintFx(t)
	qz := new(model.Quiz)
	if err := f.env.DB.NewSelect().Model(qz).Where("id = ?", f.quiz.ID).Scan(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	p, err := quiz.LoadPool(f.env.Ctx(), f.env.DB, qz)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 25; i++ {
		_, c := f.env.Member(fmt.Sprintf("m%d@x.io", i))
		v := start(t, c, f.badge.ID)
		a := f.attemptRow(t, v.Attempt.ID)
		checkForm(t, fmt.Sprintf("attempt %d", i), a.Layout, p, byName)
		if len(v.Questions) != 5 {
			t.Fatalf("attempt %d shows %d questions", i, len(v.Questions))
		}
	}
	// one member twice in a row: the second form shares as few items as the pool allows
	// (each topic has enough unseen items; the band may force one back)
	_, c := f.env.Member("again@x.io")
	v1 := start(t, c, f.badge.ID)
	submit(c, v1.Attempt.ID, map[string]int{}).Expect(200)
	v2 := start(t, c, f.badge.ID)
	first := map[string]bool{}
	for _, it := range f.attemptRow(t, v1.Attempt.ID).Layout {
		first[it.QuestionID] = true
	}
	shared := 0
	for _, it := range f.attemptRow(t, v2.Attempt.ID).Layout {
		if first[it.QuestionID] {
			shared++
		}
	}
	if shared > 1 {
		t.Fatalf("consecutive forms share %d items", shared)
	}
	// the start screen tells the form's size from the blueprint and the active pool
	var view struct {
		QuestionsPerAttempt int `json:"questionsPerAttempt"`
		PoolSize            int `json:"poolSize"`
	}
	_, c3 := f.env.Member("viewer@x.io")
	c3.Get("/quiz/badge/" + f.badge.ID).Expect(200).JSON(&view)
	if view.QuestionsPerAttempt != 5 || view.PoolSize != 15 {
		t.Fatalf("start screen %+v", view)
	}
}

func TestStartRefusesWhenThePoolCannotDraw(t *testing.T) {
	f, byName := blueprintFx(t)
	// B1-B7 retired behind the administrators' back (the admin API refuses this): B:2
	// cannot be filled, so a start is refused and nothing is stored
	for i := 1; i < 8; i++ {
		now := model.Now()
		if _, err := f.env.DB.NewUpdate().Model((*model.Question)(nil)).Set("retired_at = ?", now).Where("id = ?", byName[fmt.Sprintf("B%d", i)].ID).Exec(f.env.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	_, c := f.env.Member("late@x.io")
	c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).ExpectMsg(409, quiz.MsgNoForm)
	if n := f.countAttempts(t); n != 0 {
		t.Fatalf("%d attempts stored", n)
	}
}

// The form of a start is drawn before its write transaction. When the member's last
// attempt changes in between (another tab started and submitted one), the transaction
// draws again, so that the new form still avoids the last one.
func TestStartDrawsAgainWhenTheLastFormChangedDuringTheDraw(t *testing.T) {
	f, byName := blueprintFx(t)
	u, c := f.env.Member("tabs@x.io")
	v1 := start(t, c, f.badge.ID)
	submit(c, v1.Attempt.ID, map[string]int{}).Expect(200)
	seen := map[string]bool{}
	for _, it := range f.attemptRow(t, v1.Attempt.ID).Layout {
		seen[it.QuestionID] = true
	}
	// the other tab's attempt asks every active question the first did not
	var other []model.AttemptItem
	for _, q := range byName {
		if q.RetiredAt == nil && !seen[q.ID] {
			other = append(other, model.AttemptItem{QuestionID: q.ID})
		}
	}
	now := model.Now()
	meanwhile := &model.QuizAttempt{ID: model.NewID(), UserID: u.ID, QuizID: f.quiz.ID, BadgeID: f.badge.ID,
		Layout: other, Answers: map[string]int{}, StartedAt: now.Add(time.Second), Deadline: now.Add(time.Hour),
		SubmittedAt: &now, Total: len(other)}
	inserted := false
	svc := &quiz.Service{DB: f.env.DB, Perm: func(n int) []int {
		if !inserted { // the first shuffle happens in the draw before the transaction
			inserted = true
			if _, err := f.env.DB.NewInsert().Model(meanwhile).Exec(f.env.Ctx()); err != nil {
				t.Fatal(err)
			}
		}
		return rand.Perm(n)
	}}
	v2, err := svc.Start(f.env.Ctx(), u, f.badge.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !inserted {
		t.Fatal("the draw did not shuffle options")
	}
	shared := 0
	for _, q := range v2.Questions {
		for _, it := range other {
			if it.QuestionID == q.ID {
				shared++
			}
		}
	}
	if shared > 1 {
		t.Fatalf("the new form shares %d items with the attempt that became the last during its draw", shared)
	}
}

// BenchmarkLoadPool reads a blueprint quiz's pool as a start draws a form from it, with
// the history of a quiz in use: 2,000 submitted attempts of 5 responses each.
func BenchmarkLoadPool(b *testing.B) {
	f, byName := blueprintFx(b)
	ctx := f.env.Ctx()
	qz := new(model.Quiz)
	if err := f.env.DB.NewSelect().Model(qz).Where("id = ?", f.quiz.ID).Scan(ctx); err != nil {
		b.Fatal(err)
	}
	var ids []string
	for _, q := range byName {
		if q.RetiredAt == nil {
			ids = append(ids, q.ID)
		}
	}
	u := f.env.CreateUser("history@x.io", "password123", model.RoleUser)
	start := model.Now().Add(-2000 * time.Hour)
	for batch := 0; batch < 20; batch++ {
		var attempts []model.QuizAttempt
		var responses []model.QuizResponse
		for i := 0; i < 100; i++ {
			n := batch*100 + i
			at := start.Add(time.Duration(n) * time.Hour)
			a := model.QuizAttempt{ID: model.NewID(), UserID: u.ID, QuizID: qz.ID, BadgeID: f.badge.ID, Answers: map[string]int{},
				StartedAt: at, Deadline: at.Add(time.Hour), SubmittedAt: &at, Total: 5}
			for k := 0; k < 5; k++ {
				q := ids[(n+k*3)%len(ids)]
				a.Layout = append(a.Layout, model.AttemptItem{QuestionID: q, OptionOrder: []int{0, 1, 2}})
				responses = append(responses, model.QuizResponse{AttemptID: a.ID, QuestionID: q, QuizID: qz.ID, Position: k,
					OptionOrder: []int{0, 1, 2}, Options: []string{"a", "b", "c"}, Chosen: []int{n % 3}, Correct: n%3 == 0})
			}
			attempts = append(attempts, a)
		}
		if _, err := f.env.DB.NewInsert().Model(&attempts).Exec(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := f.env.DB.NewInsert().Model(&responses).Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := quiz.LoadPool(ctx, f.env.DB, qz); err != nil {
			b.Fatal(err)
		}
	}
}

// A start the retake rule refuses draws no form: it reads the rule first.
func TestARefusedStartDrawsNoForm(t *testing.T) {
	f, _ := blueprintFx(t)
	f.setRules(t, 0, 24, 3, 30) // a day between attempts
	u, c := f.env.Member("wait@x.io")
	v := start(t, c, f.badge.ID)
	submit(c, v.Attempt.ID, map[string]int{}).Expect(200)
	shuffles := 0
	svc := &quiz.Service{DB: f.env.DB, Perm: func(n int) []int { shuffles++; return rand.Perm(n) }}
	_, err := svc.Start(f.env.Ctx(), u, f.badge.ID)
	var refused *quiz.RetakeRefused
	if !errors.As(err, &refused) || refused.Eligibility.NextAttemptAt == nil {
		t.Fatalf("a start within the wait: %v", err)
	}
	if shuffles != 0 {
		t.Fatalf("a refused start drew a form (%d shuffles)", shuffles)
	}
}
