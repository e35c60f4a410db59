package quizadmin_test

import (
	"fmt"
	"math"
	"net/http"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quizadmin"
)

type rulesJSON struct {
	ID                  string `json:"_id"`
	QuestionCount       int    `json:"questionCount"`
	QuestionsPerAttempt int    `json:"questionsPerAttempt"`
	DrawSize            int    `json:"drawSize"`
	RetakeWaitHours     int    `json:"retakeWaitHours"`
	MaxAttempts         int    `json:"maxAttempts"`
	AttemptPeriodDays   int    `json:"attemptPeriodDays"`
	RetakeRule          string `json:"retakeRule"`
	IsActive            bool   `json:"isActive"`
	PassingScore        int    `json:"passingScore"`
}

// quizWithPool makes a skill badge (active or not) whose quiz has n questions.
func quizWithPool(t *testing.T, e *apptest.Env, c *apptest.Client, name string, n int, active bool) (*model.Badge, quizJSON) {
	t.Helper()
	b := newBadge(t, e, name, model.TypeSkill, "Development")
	qz := createQuiz(t, c, b.ID, map[string]any{})
	for i := 0; i < n; i++ {
		createQuestion(t, c, map[string]any{"text": fmt.Sprintf("%s Q%d?", name, i), "options": []string{"a", "b", "c"}, "correctIndex": i % 3, "quizId": qz.ID})
	}
	if active {
		if _, err := e.DB.NewUpdate().Model((*model.Badge)(nil)).Set("is_active = ?", true).Where("id = ?", b.ID).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	return b, qz
}

func quizRow(t *testing.T, e *apptest.Env, id string) *model.Quiz {
	t.Helper()
	q := new(model.Quiz)
	if err := e.DB.NewSelect().Model(q).Where("id = ?", id).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return q
}

func TestQuizPoolAndRetakeSettings(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	b := newBadge(t, e, "Pool Badge", model.TypeSkill, "Development")
	// a new quiz gets the default rule and draws the whole (empty) pool
	var created struct {
		Quiz rulesJSON `json:"quiz"`
	}
	c.Post("/admin/badges/"+b.ID+"/quiz", map[string]any{}).Expect(201).JSON(&created)
	q := created.Quiz
	apptest.Expect(t, "new quiz", q,
		apptest.Eq("q.QuestionsPerAttempt", q.QuestionsPerAttempt, 0),
		apptest.Eq("q.DrawSize", q.DrawSize, 0),
		apptest.Eq("q.RetakeWaitHours", q.RetakeWaitHours, 24),
		apptest.Eq("q.MaxAttempts", q.MaxAttempts, 3),
		apptest.Eq("q.AttemptPeriodDays", q.AttemptPeriodDays, 30),
		apptest.Eq("q.RetakeRule", q.RetakeRule, "Retake 1 day after a failed attempt; at most 3 attempts in 30 days"))
	for i := 0; i < 6; i++ {
		createQuestion(t, c, map[string]any{"text": fmt.Sprintf("P%d?", i), "options": []string{"a", "b"}, "correctIndex": 0, "quizId": q.ID})
	}
	put := func(body any) *apptest.Resp { return c.Put("/admin/quizzes/"+q.ID, body) }
	cases := []struct {
		body map[string]any
		msg  string
	}{
		{map[string]any{"questionsPerAttempt": 7}, fmt.Sprintf(quizadmin.MsgDrawOverPool, 7, 6)},
		{map[string]any{"questionsPerAttempt": -1}, quizadmin.MsgDraw},
		{map[string]any{"questionsPerAttempt": 2.5}, quizadmin.MsgDraw},
		{map[string]any{"retakeWaitHours": -1}, quizadmin.MsgRetakeWait},
		{map[string]any{"retakeWaitHours": 8761}, quizadmin.MsgRetakeWait},
		{map[string]any{"maxAttempts": 101}, quizadmin.MsgMaxAttempts},
		{map[string]any{"attemptPeriodDays": 0}, quizadmin.MsgAttemptPeriod},
		{map[string]any{"passingScore": 0}, quizadmin.MsgPassingScore},
		{map[string]any{"timeLimit": 301}, quizadmin.MsgTimeLimitMax},
		{map[string]any{"title": "  "}, quizadmin.MsgTitleRequired},
	}
	for _, tc := range cases {
		put(tc.body).ExpectMsg(http.StatusBadRequest, tc.msg)
	}
	if r := quizRow(t, e, q.ID); r.QuestionsPerAttempt != 0 || r.RetakeWaitHours != 24 || r.PassingScore != 70 {
		t.Fatalf("a refused edit changed the quiz: %+v", r)
	}
	var out struct {
		Msg  string    `json:"msg"`
		Quiz rulesJSON `json:"quiz"`
	}
	put(map[string]any{"questionsPerAttempt": 4, "retakeWaitHours": 48, "maxAttempts": 0, "passingScore": 80}).Expect(200).JSON(&out)
	apptest.Expect(t, "updated", out,
		apptest.Eq("out.Msg", out.Msg, "Quiz updated successfully"),
		apptest.Eq("out.Quiz.QuestionsPerAttempt", out.Quiz.QuestionsPerAttempt, 4),
		apptest.Eq("out.Quiz.DrawSize", out.Quiz.DrawSize, 4),
		apptest.Eq("out.Quiz.QuestionCount", out.Quiz.QuestionCount, 6),
		apptest.Eq("out.Quiz.RetakeWaitHours", out.Quiz.RetakeWaitHours, 48),
		apptest.Eq("out.Quiz.MaxAttempts", out.Quiz.MaxAttempts, 0),
		apptest.Eq("out.Quiz.PassingScore", out.Quiz.PassingScore, 80),
		apptest.Eq("out.Quiz.AttemptPeriodDays", out.Quiz.AttemptPeriodDays, 30),
		apptest.Eq("out.Quiz.RetakeRule", out.Quiz.RetakeRule, "Retake 2 days after a failed attempt"))
	if r := quizRow(t, e, q.ID); r.QuestionsPerAttempt != 4 || r.RetakeWaitHours != 48 || r.MaxAttempts != 0 || r.PassingScore != 80 {
		t.Fatalf("stored %+v", r)
	}
	// the admin list shows pool and draw
	var list []rulesJSON
	c.Get("/admin/quizzes").Expect(200).JSON(&list)
	apptest.Expect(t, "list", list,
		apptest.Eq("len(list)", len(list), 1))
	apptest.Expect(t, "list", list,
		apptest.Eq("list[0].QuestionCount", list[0].QuestionCount, 6),
		apptest.Eq("list[0].DrawSize", list[0].DrawSize, 4))
	c.Put("/admin/quizzes/"+model.NewID(), map[string]any{}).ExpectMsg(http.StatusNotFound, quizadmin.MsgQuizNotFound)
	c.Put("/admin/quizzes/x", map[string]any{}).ExpectMsg(http.StatusNotFound, quizadmin.MsgQuizNotFound)
	// a draw on a new quiz with no questions is more than its pool
	b2 := newBadge(t, e, "Pool Badge 2", model.TypeSkill, "Development")
	c.Post("/admin/badges/"+b2.ID+"/quiz", map[string]any{"questionsPerAttempt": 3}).ExpectMsg(http.StatusBadRequest, fmt.Sprintf(quizadmin.MsgDrawOverPool, 3, 0))
}

// TestActiveSkillBadgeKeepsAUsableQuiz: the pool cannot fall below the draw, an active
// badge's quiz keeps a question and cannot be switched off.
func TestActiveSkillBadgeKeepsAUsableQuiz(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	b, q := quizWithPool(t, e, c, "Usable", 4, true)
	c.Put("/admin/quizzes/"+q.ID, map[string]any{"questionsPerAttempt": 3}).Expect(200)
	var full struct {
		Questions []questionJSON `json:"questions"`
	}
	var list []struct {
		ID        string         `json:"_id"`
		Questions []questionJSON `json:"questions"`
	}
	c.Get("/admin/quizzes").Expect(200).JSON(&list)
	full.Questions = list[0].Questions
	c.Delete("/admin/quizzes/" + q.ID + "/questions/" + full.Questions[0].ID).Expect(200)
	below := fmt.Sprintf(quizadmin.MsgBelowDraw, 3)
	c.Delete("/admin/quizzes/"+q.ID+"/questions/"+full.Questions[1].ID).ExpectMsg(http.StatusConflict, below)
	c.Delete("/admin/questions/"+full.Questions[1].ID).ExpectMsg(http.StatusConflict, below)
	if n := count(t, e, (*model.QuizQuestion)(nil), "quiz_id = ?", q.ID); n != 3 {
		t.Fatalf("%d questions left, want 3", n)
	}
	if n := count(t, e, (*model.Question)(nil), "id = ?", full.Questions[1].ID); n != 1 {
		t.Fatal("the refused delete removed the question")
	}
	// draw the whole pool again; the last question of an active badge's quiz stays
	c.Put("/admin/quizzes/"+q.ID, map[string]any{"questionsPerAttempt": 0}).Expect(200)
	c.Delete("/admin/quizzes/" + q.ID + "/questions/" + full.Questions[1].ID).Expect(200)
	c.Delete("/admin/questions/" + full.Questions[2].ID).Expect(200)
	last := fmt.Sprintf(quizadmin.MsgLastQuestion, b.Name)
	c.Delete("/admin/quizzes/"+q.ID+"/questions/"+full.Questions[3].ID).ExpectMsg(http.StatusConflict, last)
	c.Delete("/admin/questions/"+full.Questions[3].ID).ExpectMsg(http.StatusConflict, last)
	c.Patch("/admin/quizzes/"+q.ID+"/toggle", nil).ExpectMsg(http.StatusConflict, fmt.Sprintf(quizadmin.MsgQuizOffActive, b.Name))
	if !quizRow(t, e, q.ID).IsActive {
		t.Fatal("the refused toggle switched the quiz off")
	}
	// once the badge is inactive both are allowed
	if _, err := e.DB.NewUpdate().Model((*model.Badge)(nil)).Set("is_active = ?", false).Where("id = ?", b.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	c.Patch("/admin/quizzes/"+q.ID+"/toggle", nil).Expect(200)
	c.Delete("/admin/quizzes/" + q.ID + "/questions/" + full.Questions[3].ID).Expect(200)
}

// TestGrantAnExtraAttemptAndHistory: while a failed member waits, an admin grants one
// extra attempt; the member starts at once, using it; the history shows the attempts.
func TestGrantAnExtraAttemptAndHistory(t *testing.T) {
	e := apptest.New(t)
	_, admin := e.Admin("admin@x.io")
	b, q := quizWithPool(t, e, admin, "Grantable", 3, true)
	m, mc := e.Member("member@x.io")
	var v struct {
		Attempt struct {
			ID string `json:"_id"`
		} `json:"attempt"`
	}
	mc.Post("/quiz/badge/"+b.ID+"/start", nil).Expect(200).JSON(&v)
	mc.Post("/quiz/attempts/"+v.Attempt.ID+"/submit", map[string]any{}).Expect(200) // nothing answered: 0%
	mc.Post("/quiz/badge/"+b.ID+"/start", nil).Expect(http.StatusTooManyRequests)

	type hist struct {
		Quiz *struct {
			ID string `json:"_id"`
		} `json:"quiz"`
		RetakeRule string `json:"retakeRule"`
		Attempts   []struct {
			ID           string  `json:"_id"`
			Score        float64 `json:"score"`
			Passed       bool    `json:"passed"`
			Total        int     `json:"total"`
			ExtraAttempt bool    `json:"extraAttempt"`
		} `json:"attempts"`
		Eligibility struct {
			CanStart      bool       `json:"canStart"`
			NextAttemptAt *time.Time `json:"nextAttemptAt"`
			ExtraAttempts int        `json:"extraAttempts"`
			UsesExtra     bool       `json:"usesExtra"`
		} `json:"eligibility"`
	}
	path := "/admin/quiz-attempts?userId=" + m.ID + "&badgeId=" + b.ID
	var h hist
	admin.Get(path).Expect(200).JSON(&h)
	apptest.Expect(t, "history", h,
		apptest.True("h.Quiz != nil", h.Quiz != nil))
	apptest.Expect(t, "history", h,
		apptest.Eq("h.Quiz.ID", h.Quiz.ID, q.ID),
		apptest.Eq("len(h.Attempts)", len(h.Attempts), 1))
	apptest.Expect(t, "history", h,
		apptest.Eq("h.Attempts[0].ID", h.Attempts[0].ID, v.Attempt.ID),
		apptest.Eq("h.Attempts[0].Score", h.Attempts[0].Score, 0),
		apptest.True("!h.Eligibility.CanStart", !h.Eligibility.CanStart),
		apptest.True("h.Eligibility.NextAttemptAt != nil", h.Eligibility.NextAttemptAt != nil),
		apptest.True("h.RetakeRule != \"\"", h.RetakeRule != ""))

	// Quiz Management's member list shows the member waiting
	var ms struct {
		Members []struct {
			User struct {
				ID    string `json:"_id"`
				Email string `json:"email"`
			} `json:"user"`
			Attempts    int      `json:"attempts"`
			LastScore   *float64 `json:"lastScore"`
			EverPassed  bool     `json:"everPassed"`
			Eligibility struct {
				CanStart      bool       `json:"canStart"`
				NextAttemptAt *time.Time `json:"nextAttemptAt"`
			} `json:"eligibility"`
		} `json:"members"`
	}
	admin.Get("/admin/quizzes/" + q.ID + "/members").Expect(200).JSON(&ms)
	apptest.Expect(t, "members", ms,
		apptest.Eq("len(ms.Members)", len(ms.Members), 1))
	apptest.Expect(t, "members", ms,
		apptest.Eq("ms.Members[0].User.ID", ms.Members[0].User.ID, m.ID),
		apptest.Eq("ms.Members[0].User.Email", ms.Members[0].User.Email, "member@x.io"),
		apptest.Eq("ms.Members[0].Attempts", ms.Members[0].Attempts, 1),
		apptest.True("ms.Members[0].LastScore != nil", ms.Members[0].LastScore != nil))
	apptest.Expect(t, "members", ms,
		apptest.Eq("*ms.Members[0].LastScore", *ms.Members[0].LastScore, 0),
		apptest.True("!ms.Members[0].EverPassed", !ms.Members[0].EverPassed),
		apptest.True("!ms.Members[0].Eligibility.CanStart", !ms.Members[0].Eligibility.CanStart),
		apptest.True("ms.Members[0].Eligibility.NextAttemptAt != nil", ms.Members[0].Eligibility.NextAttemptAt != nil))
	admin.Get("/admin/quizzes/"+model.NewID()+"/members").ExpectMsg(http.StatusNotFound, quizadmin.MsgQuizNotFound)

	grant := func(body any) *apptest.Resp { return admin.Post("/admin/quizzes/"+q.ID+"/attempt-grants", body) }
	grant(map[string]any{}).ExpectMsg(http.StatusBadRequest, quizadmin.MsgUserIDRequired)
	grant(map[string]any{"userId": model.NewID()}).ExpectMsg(http.StatusNotFound, quizadmin.MsgUserNotFound)
	admin.Post("/admin/quizzes/"+model.NewID()+"/attempt-grants", map[string]any{"userId": m.ID}).ExpectMsg(http.StatusNotFound, quizadmin.MsgQuizNotFound)
	mc.Post("/admin/quizzes/"+q.ID+"/attempt-grants", map[string]any{"userId": m.ID}).Expect(http.StatusForbidden)
	var granted struct {
		Msg         string `json:"msg"`
		Eligibility struct {
			CanStart  bool `json:"canStart"`
			UsesExtra bool `json:"usesExtra"`
		} `json:"eligibility"`
	}
	grant(map[string]any{"userId": m.ID}).Expect(201).JSON(&granted)
	apptest.Expect(t, "grant", granted,
		apptest.Eq("granted.Msg", granted.Msg, "Extra attempt granted"),
		apptest.True("granted.Eligibility.CanStart", granted.Eligibility.CanStart),
		apptest.True("granted.Eligibility.UsesExtra", granted.Eligibility.UsesExtra))
	grant(map[string]any{"userId": m.ID}).ExpectMsg(http.StatusConflict, quizadmin.MsgGrantWaiting)

	// the member starts at once (the start screen says so), using the grant
	var screen struct {
		Eligibility struct {
			CanStart  bool `json:"canStart"`
			UsesExtra bool `json:"usesExtra"`
		} `json:"eligibility"`
	}
	mc.Get("/quiz/badge/" + b.ID).Expect(200).JSON(&screen)
	apptest.Expect(t, "screen", screen,
		apptest.True("screen.Eligibility.CanStart", screen.Eligibility.CanStart),
		apptest.True("screen.Eligibility.UsesExtra", screen.Eligibility.UsesExtra))
	var v2 struct {
		Attempt struct {
			ID string `json:"_id"`
		} `json:"attempt"`
	}
	mc.Post("/quiz/badge/"+b.ID+"/start", nil).Expect(200).JSON(&v2)
	g := new(model.QuizAttemptGrant)
	if err := e.DB.NewSelect().Model(g).Where("user_id = ?", m.ID).Scan(e.Ctx()); err != nil || g.UsedAt == nil || g.AttemptID == nil || *g.AttemptID != v2.Attempt.ID {
		t.Fatalf("grant row %+v %v", g, err)
	}
	mc.Post("/quiz/attempts/"+v2.Attempt.ID+"/submit", map[string]any{}).Expect(200)
	mc.Post("/quiz/badge/"+b.ID+"/start", nil).Expect(http.StatusTooManyRequests) // used up
	admin.Get(path).Expect(200).JSON(&h)
	apptest.Expect(t, "history after", h,
		apptest.Eq("len(h.Attempts)", len(h.Attempts), 2))
	apptest.Expect(t, "history after", h,
		apptest.Eq("h.Attempts[0].ID", h.Attempts[0].ID, v2.Attempt.ID),
		apptest.True("h.Attempts[0].ExtraAttempt", h.Attempts[0].ExtraAttempt),
		apptest.True("!h.Attempts[1].ExtraAttempt", !h.Attempts[1].ExtraAttempt),
		apptest.True("!h.Eligibility.CanStart", !h.Eligibility.CanStart))
	if acts := actions(t, e); acts[len(acts)-1] != "quiz.grant_attempt quiz" {
		t.Fatalf("audit %v", acts)
	}
	// a member who may start anyway needs no grant
	other, _ := e.Member("other@x.io")
	grant(map[string]any{"userId": other.ID}).ExpectMsg(http.StatusConflict, quizadmin.MsgGrantNotNeeded)
	admin.Get("/admin/quiz-attempts?userId="+other.ID).ExpectMsg(http.StatusBadRequest, "Badge ID is required.")
	admin.Get("/admin/quiz-attempts?badgeId="+b.ID).ExpectMsg(http.StatusBadRequest, quizadmin.MsgUserIDRequired)
	admin.Get("/admin/quiz-attempts?userId="+other.ID+"&badgeId="+model.NewID()).ExpectMsg(http.StatusNotFound, quizadmin.MsgBadgeNotFound)
	if n := count(t, e, (*model.QuizAttemptGrant)(nil), "1 = 1"); n != 1 {
		t.Fatalf("%d grants", n)
	}
}

// TestPointBiserialAndMedianByHand checks the statistics against a worked example.
//
// Five attempts with scores 100, 80, 60, 40, 20 (mean 60; deviations 40, 20, 0, -20, -40;
// squares sum 4000; population SD sqrt(800) = 28.2843). Question A was answered right by
// the 100, 80 and 60 attempts: M1 = 80, M0 = 30, p = 0.6, sqrt(pq) = sqrt(0.24) = 0.489898,
// r = 50 / 28.2843 * 0.489898 = 0.866025. Question B right by 80 and 20: M1 = 50,
// M0 = (100 + 60 + 40) / 3 = 66.667, p = 0.4, r = -16.667 / 28.2843 * 0.489898 = -0.288675.
// Question C right by all five: p = 1, r undefined, flagged too easy. Question D was asked
// only of the first four and answered wrong by all: p = 0, fewer than 5 answers, no flag.
func TestPointBiserialAndMedianByHand(t *testing.T) {
	scores := []float64{100, 80, 60, 40, 20}
	a := []bool{true, true, true, false, false}
	b := []bool{false, true, false, false, true}
	var sittings []quizadmin.Sitting
	for i, s := range scores {
		items := map[string]bool{"A": a[i], "B": b[i], "C": true}
		if i < 4 {
			items["D"] = false
		}
		sittings = append(sittings, quizadmin.Sitting{Score: s, Passed: s >= 70, TimeSpent: []int{300, 100, 200, 500, 400}[i], Items: items})
	}
	st := quizadmin.Analyze(sittings, []string{"A", "B", "C", "D", "E"}, map[string]string{"A": "a?"})
	apptest.Expect(t, "quiz stats", st,
		apptest.Eq("st.Attempts", st.Attempts, 5),
		apptest.Eq("st.Passed", st.Passed, 2),
		apptest.Eq("st.PassRate", st.PassRate, 40),
		apptest.Eq("st.MedianScore", st.MedianScore, 60),
		apptest.Eq("st.MedianTime", st.MedianTime, 300))
	want := []struct {
		asked, correct int
		pct            float64
		r              *float64
		flags          []string
	}{
		{5, 3, 60, f(0.866), nil},
		{5, 2, 40, f(-0.289), []string{quizadmin.FlagWeak}},
		{5, 5, 100, nil, []string{quizadmin.FlagTooEasy}},
		{4, 0, 0, nil, nil},
		{0, 0, 0, nil, nil},
	}
	for i, w := range want {
		got := st.Questions[i]
		if got.TimesAsked != w.asked || got.Correct != w.correct || got.PercentCorrect != w.pct || fmt.Sprint(got.Flags) != fmt.Sprint(nonNil(w.flags)) {
			t.Errorf("question %s: %+v, want %+v", got.QuestionID, got, w)
		}
		if (got.Discrimination == nil) != (w.r == nil) || (w.r != nil && math.Abs(*got.Discrimination-*w.r) > 0.0005) {
			t.Errorf("question %s: discrimination %v, want %v", got.QuestionID, ptr(got.Discrimination), ptr(w.r))
		}
	}
	if st.Questions[0].Text != "a?" {
		t.Fatal("text")
	}
	if r, ok := quizadmin.PointBiserial([]float64{100, 80, 60}, []float64{40, 20}); !ok || math.Abs(r-0.8660254) > 1e-6 {
		t.Fatalf("r = %v", r)
	}
	if quizadmin.Median([]float64{3, 1, 2, 10}) != 2.5 || quizadmin.Median(nil) != 0 {
		t.Fatal("median")
	}
	e := quizadmin.Analyze(nil, nil, nil)
	apptest.Expect(t, "empty", e,
		apptest.Eq("e.Attempts", e.Attempts, 0),
		apptest.Eq("e.PassRate", e.PassRate, 0),
		apptest.Eq("len(e.Questions)", len(e.Questions), 0))
}

func f(x float64) *float64 { return &x }

func ptr(x *float64) string {
	if x == nil {
		return "nil"
	}
	return fmt.Sprint(*x)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TestItemAnalysisEndpoint runs the analysis over real attempts.
func TestItemAnalysisEndpoint(t *testing.T) {
	e := apptest.New(t)
	_, admin := e.Admin("admin@x.io")
	b, q := quizWithPool(t, e, admin, "Analysed", 3, true)
	var questions []model.Question
	if err := e.DB.NewSelect().Model(&questions).Join("JOIN quiz_questions qq ON qq.question_id = question.id").
		Where("qq.quiz_id = ?", q.ID).OrderExpr("qq.position").Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	// member i answers the first i questions right (by option text)
	for i := 0; i <= 3; i++ {
		_, mc := e.Member(fmt.Sprintf("m%d@x.io", i))
		var v struct {
			Questions []struct {
				ID      string   `json:"_id"`
				Options []string `json:"options"`
			} `json:"questions"`
			Attempt struct {
				ID string `json:"_id"`
			} `json:"attempt"`
		}
		mc.Post("/quiz/badge/"+b.ID+"/start", nil).Expect(200).JSON(&v)
		answers := map[string]int{}
		for _, sq := range v.Questions {
			for k, qq := range questions {
				if qq.ID != sq.ID {
					continue
				}
				want := qq.Options[qq.CorrectIndex]
				if k >= i {
					want = qq.Options[(qq.CorrectIndex+1)%3]
				}
				for j, o := range sq.Options {
					if o == want {
						answers[sq.ID] = j
					}
				}
			}
		}
		mc.Post("/quiz/attempts/"+v.Attempt.ID+"/submit", map[string]any{"answers": answers}).Expect(200)
	}
	var out struct {
		Quiz struct {
			ID string `json:"_id"`
		} `json:"quiz"`
		Stats struct {
			Attempts    int     `json:"attempts"`
			Passed      int     `json:"passed"`
			PassRate    float64 `json:"passRate"`
			MedianScore float64 `json:"medianScore"`
			Questions   []struct {
				QuestionID     string   `json:"questionId"`
				TimesAsked     int      `json:"timesAsked"`
				Correct        int      `json:"correct"`
				Discrimination *float64 `json:"discrimination"`
			} `json:"questions"`
		} `json:"stats"`
	}
	admin.Get("/admin/quizzes/" + q.ID + "/analysis").Expect(200).JSON(&out)
	// scores 0, 33.33, 66.67, 100: one pass (70%), median 50
	apptest.Expect(t, "analysis", out,
		apptest.Eq("out.Quiz.ID", out.Quiz.ID, q.ID),
		apptest.Eq("out.Stats.Attempts", out.Stats.Attempts, 4),
		apptest.Eq("out.Stats.Passed", out.Stats.Passed, 1),
		apptest.Eq("out.Stats.PassRate", out.Stats.PassRate, 25),
		apptest.Eq("out.Stats.MedianScore", out.Stats.MedianScore, 50),
		apptest.Eq("len(out.Stats.Questions)", len(out.Stats.Questions), 3))
	for k, it := range out.Stats.Questions {
		if it.QuestionID != questions[k].ID || it.TimesAsked != 4 || it.Correct != 3-k || it.Discrimination == nil || *it.Discrimination <= 0 {
			t.Fatalf("question %d: %+v", k, it)
		}
	}
	admin.Get("/admin/quizzes/"+model.NewID()+"/analysis").ExpectMsg(http.StatusNotFound, quizadmin.MsgQuizNotFound)
	e.Client().Get("/admin/quizzes/" + q.ID + "/analysis").Expect(http.StatusUnauthorized)
}
