package quiz_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quiz"
)

// setRules gives the fixture's quiz a draw size and a retake rule.
func (f *fx) setRules(t testing.TB, draw, waitHours, maxAttempts, periodDays int) {
	t.Helper()
	_, err := f.env.DB.NewUpdate().Model((*model.Quiz)(nil)).
		Set("questions_per_attempt = ?", draw).Set("retake_wait_hours = ?", waitHours).
		Set("max_attempts = ?", maxAttempts).Set("attempt_period_days = ?", periodDays).
		Where("id = ?", f.quiz.ID).Exec(f.env.Ctx())
	if err != nil {
		t.Fatal(err)
	}
}

// ageAttempt moves a submitted attempt's times `ago` into the past.
func (f *fx) ageAttempt(t *testing.T, id string, ago time.Duration) {
	t.Helper()
	a := f.attemptRow(t, id)
	_, err := f.env.DB.NewUpdate().Model((*model.QuizAttempt)(nil)).
		Set("started_at = ?", a.StartedAt.Add(-ago)).Set("deadline = ?", a.Deadline.Add(-ago)).
		Set("submitted_at = ?", a.SubmittedAt.Add(-ago)).Where("id = ?", id).Exec(f.env.Ctx())
	if err != nil {
		t.Fatal(err)
	}
}

func (f *fx) countAttempts(t *testing.T) int {
	t.Helper()
	n, err := f.env.DB.NewSelect().Model((*model.QuizAttempt)(nil)).Where("quiz_id = ?", f.quiz.ID).Count(f.env.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// leaks reports the first piece of the answer key found in body: a key field name, an
// explanation (the fixture's are distinctive strings) or a per-question verdict.
func (f *fx) leaks(body string) string {
	for _, k := range []string{"correctIndex", "correct_index", "explanation", "SECRET-EXPLANATION", "\"review\"", "chosenIndex", "isCorrect"} {
		if strings.Contains(body, k) {
			return k
		}
	}
	for _, q := range f.qs {
		if strings.Contains(body, q.Explanation) {
			return q.Explanation
		}
	}
	return ""
}

// TestNoResponseEverCarriesTheKey takes a quiz through every call (start screen, start,
// save, resume, a failed submit, the result, a refused retake, a late submit and the
// page) and searches the raw bytes of each answer for the key and the explanations; the
// result's JSON has exactly the figures' fields.
func TestNoResponseEverCarriesTheKey(t *testing.T) {
	f := newFx(t, 8)
	f.setRules(t, 5, 24, 3, 30)
	_, c := f.env.Member("keyless@x.io")
	var bodies []string
	keep := func(name string, r *apptest.Resp) *apptest.Resp {
		bodies = append(bodies, name+": "+r.Text())
		return r
	}
	keep("GET start screen", c.Get("/quiz/badge/"+f.badge.ID).Expect(http.StatusOK))
	var v quizResp
	keep("POST start", c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).Expect(http.StatusOK)).JSON(&v)
	keep("PUT answer", c.Put("/quiz/attempts/"+v.Attempt.ID+"/answers", map[string]any{"questionId": v.Questions[0].ID, "optionIndex": 1}).Expect(http.StatusOK))
	keep("GET resume", c.Get("/quiz/badge/"+f.badge.ID).Expect(http.StatusOK))
	keep("POST start again (resume)", c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).Expect(http.StatusOK))
	submitted := keep("POST submit", submit(c, v.Attempt.ID, f.answers(t, v, 1)).Expect(http.StatusOK))
	keep("POST submit twice", submit(c, v.Attempt.ID, f.answers(t, v, 5)).Expect(http.StatusOK))
	keep("GET result", c.Get("/quiz/attempts/"+v.Attempt.ID).Expect(http.StatusOK))
	keep("GET after a fail", c.Get("/quiz/badge/"+f.badge.ID).Expect(http.StatusOK))
	keep("POST refused retake", c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).Expect(http.StatusTooManyRequests))
	// a pass, and a late submission, by another member
	_, c2 := f.env.Member("keyless2@x.io")
	v2 := start(t, c2, f.badge.ID)
	keep("POST submit pass", submit(c2, v2.Attempt.ID, f.answers(t, v2, 5)).Expect(http.StatusOK))
	keep("GET result pass", c2.Get("/quiz/attempts/"+v2.Attempt.ID).Expect(http.StatusOK))
	_, c3 := f.env.Member("keyless3@x.io")
	v3 := start(t, c3, f.badge.ID)
	f.shiftTimes(t, v3.Attempt.ID, time.Minute)
	keep("POST late submit", submit(c3, v3.Attempt.ID, f.answers(t, v3, 5)).Expect(http.StatusConflict))
	keep("GET late result", c3.Get("/quiz/attempts/"+v3.Attempt.ID).Expect(http.StatusOK))
	for _, path := range []string{"/quiz/" + f.badge.ID, "/quiz/" + f.badge.ID + "?attempt=" + v.Attempt.ID} {
		r, props := c.Page(path)
		r.Expect(http.StatusOK)
		keep("page "+path, r)
		bodies = append(bodies, fmt.Sprintf("props %s: %v", path, props))
	}
	if len(bodies) != 18 {
		t.Fatalf("%d bodies", len(bodies))
	}
	for _, b := range bodies {
		if k := f.leaks(b); k != "" {
			t.Fatalf("%q leaks the key (%s)", b, k)
		}
	}

	// the result has exactly these fields: figures, no per-question verdicts
	keys := map[string]bool{}
	collectKeys(submitted.Map(), "", keys)
	want := []string{".attemptId", ".quizId", ".title", ".badge", ".badge._id", ".badge.name", ".score", ".passed", ".correctAnswers",
		".total", ".answered", ".timeSpent", ".passingScore", ".startedAt", ".submittedAt", ".late", ".topics", ".topics[].topic",
		".topics[].correct", ".topics[].total", ".eligibility", ".eligibility.canStart", ".eligibility.nextAttemptAt",
		".eligibility.reason", ".eligibility.attemptsUsed", ".eligibility.maxAttempts", ".eligibility.periodDays",
		".eligibility.extraAttempts", ".eligibility.usesExtra",
		".integrity"} // null: not under integrity review (integrity_test.go)
	for _, k := range want {
		if !keys[k] {
			t.Errorf("result lacks %s", k)
		}
		delete(keys, k)
	}
	if len(keys) > 0 {
		t.Fatalf("result has unexpected fields %v", keys)
	}
	var res resultResp
	submitted.JSON(&res)
	apptest.Expect(t, "result", res,
		apptest.Eq("res.CorrectAnswers", res.CorrectAnswers, 1),
		apptest.Eq("res.Total", res.Total, 5),
		apptest.Eq("res.Score", res.Score, 20),
		apptest.True("!res.Passed", !res.Passed),
		apptest.Eq("res.PassingScore", res.PassingScore, 70),
		apptest.Eq("res.Answered", res.Answered, 5))
}

// TestStartIsAnExplicitPost: reading the start screen never starts the clock; the start is
// a POST refused from another site; concurrent starts make one attempt.
func TestStartIsAnExplicitPost(t *testing.T) {
	f := newFx(t, 4)
	_, c := f.env.Member("explicit@x.io")
	for i := 0; i < 3; i++ {
		var v quizResp
		c.Get("/quiz/badge/" + f.badge.ID).Expect(http.StatusOK).JSON(&v)
		apptest.Expect(t, "the start screen shows a running attempt", v,
			apptest.True("v.Attempt == nil", v.Attempt == nil),
			apptest.Eq("len(v.Questions)", len(v.Questions), 0))
	}
	c.Page("/quiz/" + f.badge.ID)
	if n := f.countAttempts(t); n != 0 {
		t.Fatalf("reading the start screen made %d attempts", n)
	}
	// a cross-site POST (a link or form on another site) is refused
	c.Raw("POST", "/backend/api/v1/quiz/badge/"+f.badge.ID+"/start", nil, map[string]string{"Origin": "https://evil.example"}).
		ExpectMsg(http.StatusForbidden, "Cross-site request refused.")
	c.Raw("POST", "/backend/api/v1/quiz/badge/"+f.badge.ID+"/start", nil, map[string]string{"Sec-Fetch-Site": "cross-site"}).
		ExpectMsg(http.StatusForbidden, "Cross-site request refused.")
	f.env.Client().Post("/quiz/badge/"+f.badge.ID+"/start", nil).ExpectMsg(http.StatusUnauthorized, "Please log in to continue.")
	if n := f.countAttempts(t); n != 0 {
		t.Fatalf("refused starts made %d attempts", n)
	}

	// eight starts at once: one attempt, everyone gets it
	ids := make([]string, 8)
	statuses := make([]int, 8)
	apptest.Parallel(8, func(i int) {
		r := c.Post("/quiz/badge/"+f.badge.ID+"/start", nil)
		statuses[i] = r.Status
		var v quizResp
		if r.Status == http.StatusOK {
			r.JSON(&v)
			ids[i] = v.Attempt.ID
		}
	})
	for i := range ids {
		if statuses[i] != http.StatusOK || ids[i] == "" || ids[i] != ids[0] {
			t.Fatalf("concurrent starts answered %v with attempts %v", statuses, ids)
		}
	}
	if n := f.countAttempts(t); n != 1 {
		t.Fatalf("concurrent starts made %d attempts, want 1", n)
	}
	// the start screen now shows the running attempt to resume (still starting nothing)
	var v quizResp
	c.Get("/quiz/badge/" + f.badge.ID).Expect(http.StatusOK).JSON(&v)
	apptest.Expect(t, "start screen", v,
		apptest.True("v.Attempt != nil", v.Attempt != nil))
	apptest.Expect(t, "start screen", v,
		apptest.Eq("v.Attempt.ID", v.Attempt.ID, ids[0]),
		apptest.Eq("len(v.Questions)", len(v.Questions), 4))
}

type refusal struct {
	Msg           string    `json:"msg"`
	NextAttemptAt time.Time `json:"nextAttemptAt"`
}

type screen struct {
	PoolSize            int `json:"poolSize"`
	QuestionsPerAttempt int `json:"questionsPerAttempt"`
	RetakeRule          struct {
		WaitHours, MaxAttempts, PeriodDays int
		Text                               string
	} `json:"retakeRule"`
	Eligibility struct {
		CanStart      bool       `json:"canStart"`
		NextAttemptAt *time.Time `json:"nextAttemptAt"`
		Reason        string     `json:"reason"`
		AttemptsUsed  int        `json:"attemptsUsed"`
		ExtraAttempts int        `json:"extraAttempts"`
		UsesExtra     bool       `json:"usesExtra"`
	} `json:"eligibility"`
}

// TestRetakeWaitsAfterAFailAndCapsAttempts: a fail closes the quiz for 24 hours (the refusal
// and the start screen say until when); three attempts in 30 days are the most.
func TestRetakeWaitsAfterAFailAndCapsAttempts(t *testing.T) {
	f := newFx(t, 5)
	f.setRules(t, 0, 24, 3, 30)
	_, c := f.env.Member("retake@x.io")
	v := start(t, c, f.badge.ID)
	var res resultResp
	submit(c, v.Attempt.ID, f.answers(t, v, 1)).Expect(http.StatusOK).JSON(&res)
	a := f.attemptRow(t, v.Attempt.ID)
	opens := a.SubmittedAt.Add(24 * time.Hour)
	if res.Eligibility == nil || res.Eligibility.CanStart || res.Eligibility.NextAttemptAt == nil ||
		res.Eligibility.NextAttemptAt.Before(opens) || res.Eligibility.NextAttemptAt.After(opens.Add(2*time.Second)) {
		t.Fatalf("result eligibility %+v, want next at %v", res.Eligibility, opens)
	}
	var ref refusal
	r := c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).Expect(http.StatusTooManyRequests)
	r.JSON(&ref)
	apptest.Expect(t, "refusal", ref,
		apptest.True("ref.NextAttemptAt.Equal(*res.Eligibility.NextAttemptAt)", ref.NextAttemptAt.Equal(*res.Eligibility.NextAttemptAt)),
		apptest.Eq("ref.Msg", ref.Msg, "You can retake this quiz at "+quiz.WhenText(ref.NextAttemptAt)+"."))
	if ra := r.Header.Get("Retry-After"); ra == "" {
		t.Fatal("no Retry-After")
	}
	var s screen
	c.Get("/quiz/badge/" + f.badge.ID).Expect(http.StatusOK).JSON(&s)
	apptest.Expect(t, "start screen", s,
		apptest.True("!s.Eligibility.CanStart", !s.Eligibility.CanStart),
		apptest.True("s.Eligibility.NextAttemptAt != nil", s.Eligibility.NextAttemptAt != nil))
	apptest.Expect(t, "start screen", s,
		apptest.True("s.Eligibility.NextAttemptAt.Equal(ref.NextAttemptAt)", s.Eligibility.NextAttemptAt.Equal(ref.NextAttemptAt)),
		apptest.Eq("s.Eligibility.Reason", s.Eligibility.Reason, quiz.ReasonWait),
		apptest.Eq("s.RetakeRule.Text", s.RetakeRule.Text, "Retake 1 day after a failed attempt; at most 3 attempts in 30 days"),
		apptest.Eq("s.Eligibility.AttemptsUsed", s.Eligibility.AttemptsUsed, 1))
	if n := f.countAttempts(t); n != 1 {
		t.Fatalf("%d attempts after a refused retake", n)
	}
	// the submitted attempt cannot be graded again
	submit(c, v.Attempt.ID, f.answers(t, v, 5)).Expect(http.StatusOK)
	g := f.attemptRow(t, v.Attempt.ID)
	apptest.Expect(t, "regraded", g,
		apptest.Eq("g.Score", g.Score, 20),
		apptest.True("!g.Passed", !g.Passed))

	// 25 hours later the retake opens; two more fails use up the three attempts in 30 days
	f.ageAttempt(t, v.Attempt.ID, 25*time.Hour)
	for i := 0; i < 2; i++ {
		v := start(t, c, f.badge.ID)
		submit(c, v.Attempt.ID, f.answers(t, v, 0)).Expect(http.StatusOK)
		f.ageAttempt(t, v.Attempt.ID, 25*time.Hour)
	}
	c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).Expect(http.StatusTooManyRequests).JSON(&ref)
	first := f.attemptRow(t, v.Attempt.ID)
	if want := first.StartedAt.Add(30 * 24 * time.Hour); ref.NextAttemptAt.Before(want) || ref.NextAttemptAt.After(want.Add(2*time.Second)) ||
		ref.Msg != "You have used all 3 attempts allowed in 30 days. Your next attempt opens at "+quiz.WhenText(ref.NextAttemptAt)+"." {
		t.Fatalf("cap refusal %+v (first started %v)", ref, first.StartedAt)
	}
	if n := f.countAttempts(t); n != 3 {
		t.Fatalf("%d attempts", n)
	}
}

// TestEachAttemptDrawsFromThePool: questions per attempt below the pool draws that many
// distinct pool questions, a different set across attempts; the start screen tells both.
func TestEachAttemptDrawsFromThePool(t *testing.T) {
	f := newFx(t, 9)
	f.setRules(t, 4, 0, 0, 0)
	seen := map[string]bool{}
	for i := 0; i < 6; i++ {
		_, c := f.env.Member(fmt.Sprintf("pool%d@x.io", i))
		var s screen
		c.Get("/quiz/badge/" + f.badge.ID).Expect(http.StatusOK).JSON(&s)
		apptest.Expect(t, "screen", s,
			apptest.Eq("s.PoolSize", s.PoolSize, 9),
			apptest.Eq("s.QuestionsPerAttempt", s.QuestionsPerAttempt, 4),
			apptest.True("s.Eligibility.CanStart", s.Eligibility.CanStart))
		v := start(t, c, f.badge.ID)
		if len(v.Questions) != 4 {
			t.Fatalf("%d questions drawn, want 4", len(v.Questions))
		}
		mine := map[string]bool{}
		for _, q := range v.Questions {
			if _, ok := f.byID[q.ID]; !ok || mine[q.ID] {
				t.Fatalf("question %s is not from the pool or repeated", q.ID)
			}
			mine[q.ID] = true
			seen[q.ID] = true
		}
		var res resultResp
		submit(c, v.Attempt.ID, f.answers(t, v, 4)).Expect(http.StatusOK).JSON(&res)
		apptest.Expect(t, "result", res,
			apptest.Eq("res.Total", res.Total, 4),
			apptest.Eq("res.CorrectAnswers", res.CorrectAnswers, 4),
			apptest.Eq("res.Score", res.Score, 100))
		if a := f.attemptRow(t, v.Attempt.ID); a.Total != 4 || len(a.Layout) != 4 {
			t.Fatalf("stored attempt total %d layout %d", a.Total, len(a.Layout))
		}
	}
	if len(seen) <= 4 {
		t.Fatalf("six attempts drew only %d distinct questions from a pool of 9", len(seen))
	}
}

// TestBadgePageShowsTheAssessment: the public badge page tells pass mark, draw and pool,
// time limit, retake rule, pass rate and holders; a member who failed sees when the next
// attempt opens. Nothing of the key is in the props.
func TestBadgePageShowsTheAssessment(t *testing.T) {
	f := newFx(t, 8)
	f.setRules(t, 5, 24, 3, 30)
	_, passer := f.env.Member("passer@x.io")
	v := start(t, passer, f.badge.ID)
	submit(passer, v.Attempt.ID, f.answers(t, v, 5)).Expect(http.StatusOK)
	_, failer := f.env.Member("failer@x.io")
	v = start(t, failer, f.badge.ID)
	submit(failer, v.Attempt.ID, f.answers(t, v, 0)).Expect(http.StatusOK)
	holder, _ := f.env.Member("holder@x.io")
	now := model.Now()
	for i, revoked := range []bool{false, true} {
		g := &model.BadgeGrant{ID: model.NewID(), UserID: holder.ID, BadgeID: f.badge.ID, VerificationID: model.NewID(), PublicVerificationID: model.NewID(), GrantedAt: now}
		if revoked {
			g.RevokedAt = &now
		}
		if i == 1 {
			other, _ := f.env.Member("revoked@x.io")
			g.UserID = other.ID
		}
		if _, err := f.env.DB.NewInsert().Model(g).Exec(f.env.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	type assessment struct {
		PassingScore        int      `json:"passingScore"`
		QuestionsPerAttempt int      `json:"questionsPerAttempt"`
		PoolSize            int      `json:"poolSize"`
		TimeLimit           int      `json:"timeLimit"`
		Attempts            int      `json:"attempts"`
		PassRate            *float64 `json:"passRate"`
		Holders             int      `json:"holders"`
		AnswersShown        bool     `json:"answersShown"`
		RetakeRule          struct {
			Text string `json:"text"`
		} `json:"retakeRule"`
		Viewer *struct {
			CanStart      bool       `json:"canStart"`
			NextAttemptAt *time.Time `json:"nextAttemptAt"`
		} `json:"viewerEligibility"`
	}
	read := func(c *apptest.Client) assessment {
		t.Helper()
		r, props := c.Page("/badges/" + f.badge.ID)
		r.Expect(http.StatusOK)
		if k := f.leaks(r.Text()); k != "" {
			t.Fatalf("badge page leaks %s", k)
		}
		raw, _ := json.Marshal(props["page"].(map[string]any)["assessment"])
		var a assessment
		if err := json.Unmarshal(raw, &a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	a := read(f.env.Client())
	apptest.Expect(t, "visitor sees", a,
		apptest.Eq("a.PassingScore", a.PassingScore, 70),
		apptest.Eq("a.QuestionsPerAttempt", a.QuestionsPerAttempt, 5),
		apptest.Eq("a.PoolSize", a.PoolSize, 8),
		apptest.Eq("a.TimeLimit", a.TimeLimit, 15),
		apptest.Eq("a.Attempts", a.Attempts, 2),
		apptest.True("a.PassRate != nil", a.PassRate != nil))
	apptest.Expect(t, "visitor sees", a,
		apptest.Eq("*a.PassRate", *a.PassRate, 50),
		apptest.Eq("a.Holders", a.Holders, 1),
		apptest.True("!a.AnswersShown", !a.AnswersShown),
		apptest.True("a.Viewer == nil", a.Viewer == nil),
		apptest.Eq("a.RetakeRule.Text", a.RetakeRule.Text, "Retake 1 day after a failed attempt; at most 3 attempts in 30 days"))
	a = read(failer)
	apptest.Expect(t, "failer sees", a.Viewer,
		apptest.True("a.Viewer != nil", a.Viewer != nil))
	apptest.Expect(t, "failer sees", a.Viewer,
		apptest.True("!a.Viewer.CanStart", !a.Viewer.CanStart),
		apptest.True("a.Viewer.NextAttemptAt != nil", a.Viewer.NextAttemptAt != nil))
	apptest.Expect(t, "failer sees", a.Viewer,
		apptest.True("time.Until(*a.Viewer.NextAttemptAt) >= 23*time.Hour", time.Until(*a.Viewer.NextAttemptAt) >= 23*time.Hour))
	if a = read(passer); a.Viewer == nil || !a.Viewer.CanStart {
		t.Fatalf("passer sees %+v", a.Viewer)
	}
	// a proof badge has no assessment
	proof := mkBadge(t, f.env, model.TypeProof, true)
	_, props := f.env.Client().Page("/badges/" + proof.ID)
	if props["page"].(map[string]any)["assessment"] != nil {
		t.Fatal("proof badge has an assessment")
	}
}
