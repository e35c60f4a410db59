package quiz_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quiz"
)

// ---- fixtures ----

type fx struct {
	env   *apptest.Env
	badge *model.Badge
	quiz  *model.Quiz
	qs    []model.Question // in quiz position order
	byID  map[string]model.Question
}

func mkBadge(t testing.TB, env *apptest.Env, typ string, active bool) *model.Badge {
	t.Helper()
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: "Badge " + model.NewID()[18:], Description: "d", Category: "Development", Type: typ,
		Level: "beginner", PriceCents: 4900, Icon: "Award", Color: "blue", Criteria: "c", IsActive: active, CreatedAt: now, UpdatedAt: now}
	if _, err := env.DB.NewInsert().Model(b).Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	return b
}

func mkQuiz(t testing.TB, env *apptest.Env, b *model.Badge, active bool, passing, n int) (*model.Quiz, []model.Question) {
	t.Helper()
	now := model.Now()
	qz := &model.Quiz{ID: model.NewID(), BadgeID: b.ID, Title: b.Name + " Assessment", Description: "Show what you know.",
		PassingScore: passing, TimeLimit: 15, IsActive: active, CreatedAt: now}
	if _, err := env.DB.NewInsert().Model(qz).Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	var qs []model.Question
	for i := 0; i < n; i++ {
		q := model.Question{ID: model.NewID(), Text: fmt.Sprintf("Question %d?", i+1),
			Options:      []string{fmt.Sprintf("q%d-opt-A", i), fmt.Sprintf("q%d-opt-B", i), fmt.Sprintf("q%d-opt-C", i), fmt.Sprintf("q%d-opt-D", i)},
			CorrectIndex: i % 4, Difficulty: "medium", Explanation: fmt.Sprintf("SECRET-EXPLANATION-%d", i), Topic: "t", Category: "General", CreatedAt: now}
		if _, err := env.DB.NewInsert().Model(&q).Exec(env.Ctx()); err != nil {
			t.Fatal(err)
		}
		if _, err := env.DB.NewInsert().Model(&model.QuizQuestion{QuizID: qz.ID, QuestionID: q.ID, Position: i}).Exec(env.Ctx()); err != nil {
			t.Fatal(err)
		}
		qs = append(qs, q)
	}
	return qz, qs
}

// newFx makes an active skill badge whose active quiz has n questions (passing 70%).
func newFx(t testing.TB, n int) *fx {
	t.Helper()
	env := apptest.New(t)
	b := mkBadge(t, env, model.TypeSkill, true)
	qz, qs := mkQuiz(t, env, b, true, 70, n)
	f := &fx{env: env, badge: b, quiz: qz, qs: qs, byID: map[string]model.Question{}}
	for _, q := range qs {
		f.byID[q.ID] = q
	}
	return f
}

type quizResp struct {
	ID           string `json:"_id"`
	Title        string `json:"title"`
	Description  string `json:"description"`
	PassingScore int    `json:"passingScore"`
	TimeLimit    int    `json:"timeLimit"`
	Badge        struct {
		ID   string `json:"_id"`
		Name string `json:"name"`
	} `json:"badge"`
	Questions []struct {
		ID      string   `json:"_id"`
		Text    string   `json:"text"`
		Options []string `json:"options"`
	} `json:"questions"`
	Attempt *struct {
		ID        string         `json:"_id"`
		StartedAt time.Time      `json:"startedAt"`
		Deadline  time.Time      `json:"deadline"`
		ServerNow time.Time      `json:"serverNow"`
		Answers   map[string]int `json:"answers"`
	} `json:"attempt"`
}

type resultResp struct {
	AttemptID      string  `json:"attemptId"`
	Score          float64 `json:"score"`
	Passed         bool    `json:"passed"`
	CorrectAnswers int     `json:"correctAnswers"`
	Total          int     `json:"total"`
	TimeSpent      int     `json:"timeSpent"`
	PassingScore   int     `json:"passingScore"`
	Late           bool    `json:"late"`
	Title          string  `json:"title"`
	Badge          struct {
		ID   string `json:"_id"`
		Name string `json:"name"`
	} `json:"badge"`
	Answered int `json:"answered"`
	Topics   []struct {
		Topic   string `json:"topic"`
		Correct int    `json:"correct"`
		Total   int    `json:"total"`
	} `json:"topics"`
	Eligibility *struct {
		CanStart      bool       `json:"canStart"`
		NextAttemptAt *time.Time `json:"nextAttemptAt"`
	} `json:"eligibility"`
}

func start(t *testing.T, c *apptest.Client, badgeID string) quizResp {
	t.Helper()
	var v quizResp
	c.Post("/quiz/badge/"+badgeID+"/start", nil).Expect(http.StatusOK).JSON(&v)
	return v
}

// shownIndex is where the attempt shows the option with this text.
func shownIndex(t *testing.T, v quizResp, qid, text string) int {
	t.Helper()
	for _, q := range v.Questions {
		if q.ID == qid {
			for i, o := range q.Options {
				if o == text {
					return i
				}
			}
		}
	}
	t.Fatalf("option %q of %s not shown", text, qid)
	return -1
}

// answers builds a submission: the correct option for the first `right` questions as
// shown, a wrong one for the rest.
func (f *fx) answers(t *testing.T, v quizResp, right int) map[string]int {
	t.Helper()
	out := map[string]int{}
	for i, sq := range v.Questions {
		q := f.byID[sq.ID]
		idx := q.CorrectIndex
		if i >= right {
			idx = (q.CorrectIndex + 1) % len(q.Options)
		}
		out[sq.ID] = shownIndex(t, v, sq.ID, q.Options[idx])
	}
	return out
}

func (f *fx) attemptRow(t *testing.T, id string) *model.QuizAttempt {
	t.Helper()
	a := new(model.QuizAttempt)
	if err := f.env.DB.NewSelect().Model(a).Where("id = ?", id).Scan(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	return a
}

// shiftTimes moves an attempt's start and deadline so that the deadline is `ago` in the past.
func (f *fx) shiftTimes(t *testing.T, id string, ago time.Duration) {
	t.Helper()
	now := model.Now()
	_, err := f.env.DB.NewUpdate().Model((*model.QuizAttempt)(nil)).
		Set("deadline = ?", now.Add(-ago)).Set("started_at = ?", now.Add(-ago-15*time.Minute)).
		Where("id = ?", id).Exec(f.env.Ctx())
	if err != nil {
		t.Fatal(err)
	}
}

func submit(c *apptest.Client, attemptID string, answers map[string]int) *apptest.Resp {
	return c.Post("/quiz/attempts/"+attemptID+"/submit", map[string]any{"answers": answers})
}

// ---- tests ----

// ruleKeys are the start screen's rule and eligibility fields.
var ruleKeys = []string{".retakeRule", ".retakeRule.waitHours", ".retakeRule.maxAttempts", ".retakeRule.periodDays", ".retakeRule.text",
	".eligibility", ".eligibility.canStart", ".eligibility.nextAttemptAt", ".eligibility.reason", ".eligibility.attemptsUsed",
	".eligibility.maxAttempts", ".eligibility.periodDays", ".eligibility.extraAttempts", ".eligibility.usesExtra"}

// collectKeys lists every object key in a decoded JSON value, with its path.
func collectKeys(v any, path string, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := path + "." + k
			if strings.HasSuffix(path, ".answers") {
				p = path + ".<qid>"
			}
			out[p] = true
			collectKeys(e, p, out)
		}
	case []any:
		for _, e := range x {
			collectKeys(e, path+"[]", out)
		}
	}
}

func TestQuizNeverRevealsAnswersBeforeSubmission(t *testing.T) {
	f := newFx(t, 5)
	_, c := f.env.Member("taker@x.io")
	r := c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).Expect(http.StatusOK)

	keys := map[string]bool{}
	collectKeys(r.Map(), "", keys)
	var got []string
	for k := range keys {
		got = append(got, k)
	}
	sort.Strings(got)
	want := append([]string{".attempt", ".attempt._id", ".attempt.answers", ".attempt.deadline", ".attempt.serverNow", ".attempt.startedAt",
		".badge", ".badge._id", ".badge.name", ".description", "._id", ".passingScore", ".questions", ".questions[]._id",
		".questions[].options", ".questions[].text", ".questions[].type", ".timeLimit", ".title", ".lastAttempt", ".poolSize", ".questionsPerAttempt"}, ruleKeys...)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the quiz JSON has fields %v, want exactly %v", got, want)
	}
	body := strings.ToLower(r.Text())
	for _, leak := range []string{"correct", "explanation", "secret-explanation", "difficulty", "\"score\"", "passed"} {
		if strings.Contains(body, leak) {
			t.Fatalf("the quiz JSON contains %q: %s", leak, r.Text())
		}
	}
	// after answering, the saved answers are the user's own choices only
	var v quizResp
	r.JSON(&v)
	c.Put("/quiz/attempts/"+v.Attempt.ID+"/answers", map[string]any{"questionId": v.Questions[0].ID, "optionIndex": 2}).Expect(http.StatusOK)
	r2 := c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).Expect(http.StatusOK)
	if b := strings.ToLower(r2.Text()); strings.Contains(b, "correct") || strings.Contains(b, "explanation") {
		t.Fatalf("resumed quiz leaks: %s", r2.Text())
	}
	// the result of a running attempt is not readable
	c.Get("/quiz/attempts/"+v.Attempt.ID).ExpectMsg(http.StatusConflict, quiz.MsgInProgress)
	// nor does the quiz page carry anything about the answers
	_, props := c.Page("/quiz/" + f.badge.ID)
	page := fmt.Sprint(props)
	if strings.Contains(page, "SECRET") || strings.Contains(strings.ToLower(page), "correct") {
		t.Fatalf("page props leak: %s", page)
	}
}

func TestQuizShowsEveryQuestionWithShuffledOptionsPerAttempt(t *testing.T) {
	f := newFx(t, 6)
	sameOrder := 0
	for i := 0; i < 4; i++ {
		_, c := f.env.Member(fmt.Sprintf("u%d@x.io", i))
		v := start(t, c, f.badge.ID)
		apptest.Expect(t, "quiz header", v,
			apptest.Eq("v.ID", v.ID, f.quiz.ID),
			apptest.Eq("v.Title", v.Title, f.quiz.Title),
			apptest.Eq("v.PassingScore", v.PassingScore, 70),
			apptest.Eq("v.TimeLimit", v.TimeLimit, 15),
			apptest.Eq("v.Badge.ID", v.Badge.ID, f.badge.ID),
			apptest.Eq("v.Badge.Name", v.Badge.Name, f.badge.Name))
		if len(v.Questions) != 6 {
			t.Fatalf("%d questions, want 6", len(v.Questions))
		}
		seen := map[string]bool{}
		identical := true
		for j, sq := range v.Questions {
			q, ok := f.byID[sq.ID]
			apptest.Expect(t, "question is not one of the quiz's, or repeated", sq,
				apptest.True("ok", ok))
			apptest.Expect(t, "question is not one of the quiz's, or repeated", sq,
				apptest.True("!seen[sq.ID]", !seen[sq.ID]),
				apptest.Eq("sq.Text", sq.Text, q.Text))
			seen[sq.ID] = true
			a, b := append([]string{}, sq.Options...), append([]string{}, q.Options...)
			sort.Strings(a)
			sort.Strings(b)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("options %v are not a permutation of %v", sq.Options, q.Options)
			}
			if sq.ID != f.qs[j].ID || !reflect.DeepEqual(sq.Options, q.Options) {
				identical = false
			}
		}
		if identical {
			sameOrder++
		}
		// the deadline is the server's: start + time limit
		if d := v.Attempt.Deadline.Sub(v.Attempt.StartedAt); d != 15*time.Minute {
			t.Fatalf("deadline is %v after the start, want 15m", d)
		}
		skew := time.Until(v.Attempt.ServerNow)
		apptest.Expect(t, "serverNow is not now", v.Attempt.ServerNow,
			apptest.True("skew <= 5*time.Second", skew <= 5*time.Second),
			apptest.True("skew >= -5*time.Second", skew >= -5*time.Second))
	}
	if sameOrder == 4 {
		t.Fatal("four attempts all kept the original question and option order: nothing is shuffled")
	}
}

func TestGradingAllCorrectAllWrongAndPartial(t *testing.T) {
	f := newFx(t, 5)
	cases := []struct {
		right   int
		score   float64
		passed  bool
		correct int
	}{
		{5, 100, true, 5},
		{0, 0, false, 0},
		{4, 80, true, 4},
		{3, 60, false, 3},
	}
	for i, tc := range cases {
		u, c := f.env.Member(fmt.Sprintf("g%d@x.io", i))
		v := start(t, c, f.badge.ID)
		ans := f.answers(t, v, tc.right)
		var res resultResp
		submit(c, v.Attempt.ID, ans).Expect(http.StatusOK).JSON(&res)
		if res.Score != tc.score || res.Passed != tc.passed || res.CorrectAnswers != tc.correct || res.Total != 5 || res.PassingScore != 70 || res.Late {
			t.Fatalf("right=%d: result %+v", tc.right, res)
		}
		apptest.Expect(t, "result names", res,
			apptest.Eq("res.AttemptID", res.AttemptID, v.Attempt.ID),
			apptest.Eq("res.Badge.ID", res.Badge.ID, f.badge.ID),
			apptest.Eq("res.Badge.Name", res.Badge.Name, f.badge.Name),
			apptest.Eq("res.Title", res.Title, f.quiz.Title))
		if res.TimeSpent < 0 || res.TimeSpent > 5 {
			t.Fatalf("time spent %d s for an immediate submission", res.TimeSpent)
		}
		// the result has the figures only: no review, no key
		if res.Answered != 5 || len(res.Topics) != 1 || res.Topics[0].Topic != "t" || res.Topics[0].Correct != tc.correct || res.Topics[0].Total != 5 {
			t.Fatalf("answered %d, topics %+v", res.Answered, res.Topics)
		}
		// the database holds the result, with answers as original option indices
		a := f.attemptRow(t, v.Attempt.ID)
		apptest.Expect(t, "stored attempt", a,
			apptest.True("a.SubmittedAt != nil", a.SubmittedAt != nil),
			apptest.Eq("a.CorrectCount", a.CorrectCount, tc.correct),
			apptest.Eq("a.Total", a.Total, 5),
			apptest.Eq("a.Score", a.Score, tc.score),
			apptest.Eq("a.Passed", a.Passed, tc.passed),
			apptest.Eq("a.UserID", a.UserID, u.ID))
		for j, sq := range v.Questions {
			q := f.byID[sq.ID]
			want := q.CorrectIndex
			if j >= tc.right {
				want = (q.CorrectIndex + 1) % 4
			}
			if a.Answers[sq.ID] != want {
				t.Fatalf("stored answer for %s is %d, want original index %d", sq.ID, a.Answers[sq.ID], want)
			}
		}
		// the stored result reads back the same
		var again resultResp
		c.Get("/quiz/attempts/" + v.Attempt.ID).Expect(http.StatusOK).JSON(&again)
		if !reflect.DeepEqual(again, res) {
			t.Fatalf("GET result %+v differs from the submit answer %+v", again, res)
		}
	}
}

func TestUnansweredQuestionsCountAsWrongAndClientScoreIsIgnored(t *testing.T) {
	f := newFx(t, 5)
	_, c := f.env.Member("cheat@x.io")
	v := start(t, c, f.badge.ID)
	ans := f.answers(t, v, 5)
	delete(ans, v.Questions[4].ID)
	delete(ans, v.Questions[3].ID)
	body := map[string]any{"answers": ans, "score": 100, "passed": true, "correctAnswers": 5, "timeSpent": 1}
	var res resultResp
	c.Post("/quiz/attempts/"+v.Attempt.ID+"/submit", body).Expect(http.StatusOK).JSON(&res)
	apptest.Expect(t, "result", res,
		apptest.Eq("res.Score", res.Score, 60),
		apptest.True("!res.Passed", !res.Passed),
		apptest.Eq("res.CorrectAnswers", res.CorrectAnswers, 3))
	if res.Answered != 3 {
		t.Fatalf("answered %d, want 3", res.Answered)
	}
	if _, err := quiz.PassingAttempt(f.env.Ctx(), f.env.DB, f.attemptRow(t, v.Attempt.ID).UserID, f.badge.ID); !errors.Is(err, quiz.ErrNoPassingAttempt) {
		t.Fatalf("a failed attempt counts as passing: %v", err)
	}
}

func TestSubmitValidatesAnswers(t *testing.T) {
	f := newFx(t, 3)
	_, c := f.env.Member("v@x.io")
	v := start(t, c, f.badge.ID)
	id := v.Attempt.ID
	qid := v.Questions[0].ID
	submit(c, id, map[string]int{model.NewID(): 0}).ExpectMsg(http.StatusBadRequest, quiz.MsgUnknownQuestion)
	submit(c, id, map[string]int{qid: 4}).ExpectMsg(http.StatusBadRequest, quiz.MsgBadOption)
	submit(c, id, map[string]int{qid: -1}).ExpectMsg(http.StatusBadRequest, quiz.MsgBadOption)
	c.Post("/quiz/attempts/"+id+"/submit", `{"answers":{"`+qid+`":"1"}}`).ExpectMsg(http.StatusBadRequest, quiz.MsgBadOption)
	c.Post("/quiz/attempts/"+id+"/submit", `{"answers":`).ExpectMsg(http.StatusBadRequest, "The request body is not valid JSON.")
	if a := f.attemptRow(t, id); a.SubmittedAt != nil {
		t.Fatal("a refused submission was recorded")
	}
	// answers saved one by one are validated too
	put := func(body any) *apptest.Resp { return c.Put("/quiz/attempts/"+id+"/answers", body) }
	put(map[string]any{"questionId": model.NewID(), "optionIndex": 0}).ExpectMsg(http.StatusBadRequest, quiz.MsgUnknownQuestion)
	put(map[string]any{"questionId": qid, "optionIndex": 4}).ExpectMsg(http.StatusBadRequest, quiz.MsgBadOption)
	put(map[string]any{"questionId": qid}).ExpectMsg(http.StatusBadRequest, quiz.MsgBadOption)
	put(map[string]any{"questionId": qid, "optionIndex": 1.5}).ExpectMsg(http.StatusBadRequest, quiz.MsgBadOption)
	put(map[string]any{"optionIndex": 1}).ExpectMsg(http.StatusBadRequest, "Question ID is missing.")
	put("").ExpectMsg(http.StatusBadRequest, "The request body is empty; expected JSON.")
	if a := f.attemptRow(t, id); len(a.Answers) != 0 {
		t.Fatalf("refused answers were saved: %v", a.Answers)
	}
	// malformed and unknown attempt ids
	submit(c, "nope", nil).ExpectMsg(http.StatusNotFound, quiz.MsgAttemptNotFound)
	submit(c, model.NewID(), nil).ExpectMsg(http.StatusNotFound, quiz.MsgAttemptNotFound)
	c.Get("/quiz/attempts/nope").ExpectMsg(http.StatusNotFound, quiz.MsgAttemptNotFound)
	// a visitor is not signed in
	f.env.Client().Post("/quiz/attempts/"+id+"/submit", map[string]any{}).ExpectMsg(http.StatusUnauthorized, "Please log in to continue.")
	f.env.Client().Get("/quiz/badge/"+f.badge.ID).ExpectMsg(http.StatusUnauthorized, "Please log in to continue.")
}

func TestResumeKeepsAttemptDeadlineOrderAndAnswers(t *testing.T) {
	f := newFx(t, 4)
	_, c := f.env.Member("resume@x.io")
	v1 := start(t, c, f.badge.ID)
	// save two answers (shown indices)
	q0, q2 := v1.Questions[0].ID, v1.Questions[2].ID
	var saved struct {
		Msg     string         `json:"msg"`
		Answers map[string]int `json:"answers"`
	}
	c.Put("/quiz/attempts/"+v1.Attempt.ID+"/answers", map[string]any{"questionId": q0, "optionIndex": 3}).Expect(http.StatusOK)
	c.Put("/quiz/attempts/"+v1.Attempt.ID+"/answers", map[string]any{"questionId": q2, "optionIndex": 0}).Expect(http.StatusOK)
	c.Put("/quiz/attempts/"+v1.Attempt.ID+"/answers", map[string]any{"questionId": q2, "optionIndex": 1}).Expect(http.StatusOK).JSON(&saved)
	apptest.Expect(t, "saved", saved,
		apptest.Eq("saved.Msg", saved.Msg, "Answer saved"),
		apptest.True("reflect.DeepEqual(saved.Answers, map[string]int{q0: 3, q2: 1})", reflect.DeepEqual(saved.Answers, map[string]int{q0: 3, q2: 1})))
	// the database keeps original indices
	a := f.attemptRow(t, v1.Attempt.ID)
	apptest.Expect(t, "stored answers are not original indices", a.Answers,
		apptest.Eq("a.Answers[q0]", a.Answers[q0], indexOf(f.byID[q0], v1.Questions[0].Options[3])),
		apptest.Eq("a.Answers[q2]", a.Answers[q2], indexOf(f.byID[q2], v1.Questions[2].Options[1])))

	time.Sleep(20 * time.Millisecond)
	v2 := start(t, c, f.badge.ID) // a reload
	if v2.Attempt.ID != v1.Attempt.ID || !v2.Attempt.Deadline.Equal(v1.Attempt.Deadline) || !v2.Attempt.StartedAt.Equal(v1.Attempt.StartedAt) {
		t.Fatalf("reload started a new attempt or moved the deadline: %+v vs %+v", v2.Attempt, v1.Attempt)
	}
	if !v2.Attempt.ServerNow.After(v1.Attempt.ServerNow) {
		t.Fatal("serverNow did not advance")
	}
	if !reflect.DeepEqual(v2.Questions, v1.Questions) {
		t.Fatal("reload changed the question or option order")
	}
	if !reflect.DeepEqual(v2.Attempt.Answers, map[string]int{q0: 3, q2: 1}) {
		t.Fatalf("reload answers %v", v2.Attempt.Answers)
	}
	n, err := f.env.DB.NewSelect().Model((*model.QuizAttempt)(nil)).Where("quiz_id = ?", f.quiz.ID).Count(f.env.Ctx())
	if err != nil || n != 1 {
		t.Fatalf("%d attempts exist, want 1 (%v)", n, err)
	}
	// many reloads at once still share one attempt
	ids := make([]string, 6)
	apptest.Parallel(6, func(i int) {
		var v quizResp
		c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).JSON(&v)
		if v.Attempt != nil {
			ids[i] = v.Attempt.ID
		}
	})
	for _, id := range ids {
		if id != v1.Attempt.ID {
			t.Fatalf("a concurrent reload got attempt %q, want %s", id, v1.Attempt.ID)
		}
	}
	// submitting an empty set grades the saved answers; a new start is a fresh attempt
	var res resultResp
	c.Post("/quiz/attempts/"+v1.Attempt.ID+"/submit", map[string]any{}).Expect(http.StatusOK).JSON(&res)
	apptest.Expect(t, "saved answers not graded", res,
		apptest.Eq("res.Answered", res.Answered, 2),
		apptest.Eq("res.Total", res.Total, 4))
	if g := f.attemptRow(t, v1.Attempt.ID); g.Answers[q0] != a.Answers[q0] || g.Answers[q2] != a.Answers[q2] || len(g.Answers) != 2 {
		t.Fatalf("graded answers %v, saved %v", g.Answers, a.Answers)
	}
	v3 := start(t, c, f.badge.ID)
	apptest.Expect(t, "retake resumed the submitted attempt", v3.Attempt,
		apptest.True("v3.Attempt.ID != v1.Attempt.ID", v3.Attempt.ID != v1.Attempt.ID),
		apptest.Eq("len(v3.Attempt.Answers)", len(v3.Attempt.Answers), 0))
	// saving into a submitted attempt is refused
	c.Put("/quiz/attempts/"+v1.Attempt.ID+"/answers", map[string]any{"questionId": q0, "optionIndex": 0}).ExpectMsg(http.StatusConflict, quiz.MsgAlreadySubmitted)
}

func indexOf(q model.Question, text string) int {
	for i, o := range q.Options {
		if o == text {
			return i
		}
	}
	return -1
}

func TestLateSubmissionWithinGraceIsGradedInFull(t *testing.T) {
	f := newFx(t, 5)
	_, c := f.env.Member("grace@x.io")
	v := start(t, c, f.badge.ID)
	f.shiftTimes(t, v.Attempt.ID, 4*time.Second) // the deadline passed 4 s ago: within the 10 s grace
	// saving is closed at the deadline
	c.Put("/quiz/attempts/"+v.Attempt.ID+"/answers", map[string]any{"questionId": v.Questions[0].ID, "optionIndex": 0}).
		ExpectMsg(http.StatusConflict, quiz.MsgTimeUp)
	// a reload inside the grace resumes the attempt (the screen then auto-submits)
	if v2 := start(t, c, f.badge.ID); v2.Attempt.ID != v.Attempt.ID {
		t.Fatal("a reload inside the grace period started a new attempt")
	}
	var res resultResp
	submit(c, v.Attempt.ID, f.answers(t, v, 5)).Expect(http.StatusOK).JSON(&res)
	apptest.Expect(t, "in-grace result", res,
		apptest.Eq("res.Score", res.Score, 100),
		apptest.True("res.Passed", res.Passed),
		apptest.True("!res.Late", !res.Late),
		apptest.Eq("res.TimeSpent", res.TimeSpent, 900))
}

func TestLateSubmissionAfterGraceGradesOnlyAnswersSavedBeforeTheDeadline(t *testing.T) {
	f := newFx(t, 5)
	_, c := f.env.Member("late@x.io")
	v := start(t, c, f.badge.ID)
	right := f.answers(t, v, 5)
	// two correct answers saved in time
	for _, sq := range v.Questions[:2] {
		c.Put("/quiz/attempts/"+v.Attempt.ID+"/answers", map[string]any{"questionId": sq.ID, "optionIndex": right[sq.ID]}).Expect(http.StatusOK)
	}
	f.shiftTimes(t, v.Attempt.ID, 30*time.Second) // deadline 30 s ago: past deadline + grace
	// the submission is refused with a clear 409; the saved answers were graded, once
	var late struct {
		Msg       string `json:"msg"`
		AttemptID string `json:"attemptId"`
	}
	submit(c, v.Attempt.ID, right).Expect(http.StatusConflict).JSON(&late)
	apptest.Expect(t, "late submission answered", late,
		apptest.Eq("late.Msg", late.Msg, quiz.MsgLate),
		apptest.Eq("late.AttemptID", late.AttemptID, v.Attempt.ID))
	var res resultResp
	c.Get("/quiz/attempts/" + v.Attempt.ID).Expect(http.StatusOK).JSON(&res)
	apptest.Expect(t, "late result", res,
		apptest.True("res.Late", res.Late),
		apptest.Eq("res.CorrectAnswers", res.CorrectAnswers, 2),
		apptest.Eq("res.Total", res.Total, 5),
		apptest.Eq("res.Score", res.Score, 40),
		apptest.True("!res.Passed", !res.Passed),
		apptest.Eq("res.TimeSpent", res.TimeSpent, 900))
	a := f.attemptRow(t, v.Attempt.ID)
	apptest.Expect(t, "stored late attempt", a,
		apptest.Eq("len(a.Answers)", len(a.Answers), 2),
		apptest.True("a.SubmittedAt != nil", a.SubmittedAt != nil),
		apptest.True("!a.Passed", !a.Passed))
	// and the late submission is now the stored result
	var again resultResp
	submit(c, v.Attempt.ID, right).Expect(http.StatusOK).JSON(&again)
	if !reflect.DeepEqual(again, res) {
		t.Fatal("a second late submission changed the result")
	}
}

func TestAbandonedAttemptIsGradedAndANewOneStarts(t *testing.T) {
	f := newFx(t, 5)
	_, c := f.env.Member("gone@x.io")
	v := start(t, c, f.badge.ID)
	right := f.answers(t, v, 5)
	for _, sq := range v.Questions {
		c.Put("/quiz/attempts/"+v.Attempt.ID+"/answers", map[string]any{"questionId": sq.ID, "optionIndex": right[sq.ID]}).Expect(http.StatusOK)
	}
	f.shiftTimes(t, v.Attempt.ID, time.Hour) // the tab was closed; the time ran out long ago
	v2 := start(t, c, f.badge.ID)
	apptest.Expect(t, "an expired attempt was resumed", v2.Attempt,
		apptest.True("v2.Attempt != nil", v2.Attempt != nil))
	apptest.Expect(t, "an expired attempt was resumed", v2.Attempt,
		apptest.True("v2.Attempt.ID != v.Attempt.ID", v2.Attempt.ID != v.Attempt.ID),
		apptest.Eq("len(v2.Attempt.Answers)", len(v2.Attempt.Answers), 0))
	d := time.Until(v2.Attempt.Deadline)
	apptest.Expect(t, "new attempt deadline in", d,
		apptest.True("d >= 14*time.Minute", d >= 14*time.Minute),
		apptest.True("d <= 15*time.Minute+5*time.Second", d <= 15*time.Minute+5*time.Second))
	old := f.attemptRow(t, v.Attempt.ID)
	apptest.Expect(t, "the abandoned attempt was not graded on its saved answers", old,
		apptest.True("old.SubmittedAt != nil", old.SubmittedAt != nil),
		apptest.Eq("old.CorrectCount", old.CorrectCount, 5),
		apptest.True("old.Passed", old.Passed),
		apptest.Eq("old.Score", old.Score, 100))
	var res resultResp
	c.Get("/quiz/attempts/" + v.Attempt.ID).Expect(http.StatusOK).JSON(&res)
	apptest.Expect(t, "abandoned attempt result", res,
		apptest.True("res.Late", res.Late),
		apptest.Eq("res.Score", res.Score, 100),
		apptest.True("res.Passed", res.Passed))
	// an expired attempt read by id is closed on the spot too
	f.shiftTimes(t, v2.Attempt.ID, time.Minute)
	c.Get("/quiz/attempts/" + v2.Attempt.ID).Expect(http.StatusOK).JSON(&res)
	apptest.Expect(t, "expired attempt result", res,
		apptest.Eq("res.Score", res.Score, 0),
		apptest.True("!res.Passed", !res.Passed),
		apptest.Eq("res.Total", res.Total, 5))
}

func TestDoubleSubmitReturnsTheStoredResult(t *testing.T) {
	f := newFx(t, 5)
	_, c := f.env.Member("twice@x.io")
	v := start(t, c, f.badge.ID)
	var first, second resultResp
	submit(c, v.Attempt.ID, f.answers(t, v, 4)).Expect(http.StatusOK).JSON(&first)
	before := f.attemptRow(t, v.Attempt.ID)
	time.Sleep(10 * time.Millisecond)
	submit(c, v.Attempt.ID, f.answers(t, v, 5)).Expect(http.StatusOK).JSON(&second)
	if !reflect.DeepEqual(first, second) || first.Score != 80 {
		t.Fatalf("second submit %+v differs from the first %+v", second, first)
	}
	after := f.attemptRow(t, v.Attempt.ID)
	if !after.SubmittedAt.Equal(*before.SubmittedAt) || after.Score != 80 || !reflect.DeepEqual(after.Answers, before.Answers) {
		t.Fatalf("the stored result changed: %+v -> %+v", before, after)
	}

	// concurrent submissions record one result, and all answer it
	_, c2 := f.env.Member("race@x.io")
	v2 := start(t, c2, f.badge.ID)
	results := make([]resultResp, 8)
	apptest.Parallel(8, func(i int) {
		r := submit(c2, v2.Attempt.ID, f.answers(t, v2, i%6))
		if r.Status == http.StatusOK {
			r.JSON(&results[i])
		}
	})
	stored := f.attemptRow(t, v2.Attempt.ID)
	for i, r := range results {
		if r.AttemptID != v2.Attempt.ID || r.CorrectAnswers != stored.CorrectCount || r.Score != stored.Score {
			t.Fatalf("submission %d answered %+v, stored %d correct", i, r, stored.CorrectCount)
		}
	}
}

func TestAnotherUsersAttemptIsNotFound(t *testing.T) {
	f := newFx(t, 3)
	_, owner := f.env.Member("owner@x.io")
	_, other := f.env.Member("other@x.io")
	_, admin := f.env.Admin("boss@x.io")
	v := start(t, owner, f.badge.ID)
	id := v.Attempt.ID
	for _, c := range []*apptest.Client{other, admin} {
		c.Put("/quiz/attempts/"+id+"/answers", map[string]any{"questionId": v.Questions[0].ID, "optionIndex": 0}).ExpectMsg(http.StatusNotFound, quiz.MsgAttemptNotFound)
		submit(c, id, f.answers(t, v, 3)).ExpectMsg(http.StatusNotFound, quiz.MsgAttemptNotFound)
		c.Get("/quiz/attempts/"+id).ExpectMsg(http.StatusNotFound, quiz.MsgAttemptNotFound)
	}
	a := f.attemptRow(t, id)
	apptest.Expect(t, "another user changed the attempt", a,
		apptest.True("a.SubmittedAt == nil", a.SubmittedAt == nil),
		apptest.Eq("len(a.Answers)", len(a.Answers), 0))
	// after the owner submits, the result is still the owner's only
	submit(owner, id, f.answers(t, v, 3)).Expect(http.StatusOK)
	other.Get("/quiz/attempts/"+id).ExpectMsg(http.StatusNotFound, quiz.MsgAttemptNotFound)
	submit(other, id, nil).ExpectMsg(http.StatusNotFound, quiz.MsgAttemptNotFound)
}

func TestStartRefusals(t *testing.T) {
	env := apptest.New(t)
	ctx := env.Ctx()
	u, c := env.Member("r@x.io")
	skill := mkBadge(t, env, model.TypeSkill, true)
	mkQuiz(t, env, skill, true, 70, 3)

	// owned: a live grant
	owned := mkBadge(t, env, model.TypeSkill, true)
	mkQuiz(t, env, owned, true, 70, 3)
	grant := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: owned.ID, VerificationID: model.NewID(), PublicVerificationID: model.NewID(), GrantedAt: model.Now()}
	if _, err := env.DB.NewInsert().Model(grant).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	// every refusal answers the start screen (GET) and the start (POST) alike
	both := func(id string, status int, msg string) {
		t.Helper()
		c.Get("/quiz/badge/"+id).ExpectMsg(status, msg)
		c.Post("/quiz/badge/"+id+"/start", nil).ExpectMsg(status, msg)
	}
	both(owned.ID, http.StatusConflict, "You already own this badge!")
	// a revoked grant no longer counts as owning it
	if _, err := env.DB.NewUpdate().Model(grant).Set("revoked_at = ?", model.Now()).WherePK().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	start(t, c, owned.ID)

	// open applications: pending and awaiting payment refuse; rejected allows a retake
	for _, st := range []string{model.StatusPending, model.StatusAwaitingPayment, model.StatusRejected} {
		b := mkBadge(t, env, model.TypeSkill, true)
		mkQuiz(t, env, b, true, 70, 3)
		now := model.Now()
		app := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: model.TypeSkill, Status: st, PaymentStatus: model.PaymentPending, CreatedAt: now, UpdatedAt: now}
		if _, err := env.DB.NewInsert().Model(app).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if st == model.StatusRejected {
			c.Get("/quiz/badge/" + b.ID).Expect(http.StatusOK)
			start(t, c, b.ID)
		} else {
			both(b.ID, http.StatusConflict, "Your application is still being reviewed.")
		}
	}

	proof := mkBadge(t, env, model.TypeProof, true)
	both(proof.ID, http.StatusUnprocessableEntity, quiz.MsgNotSkillBadge)

	inactive := mkBadge(t, env, model.TypeSkill, false)
	mkQuiz(t, env, inactive, true, 70, 3)
	both(inactive.ID, http.StatusNotFound, quiz.MsgBadgeInactive)

	noQuiz := mkBadge(t, env, model.TypeSkill, true)
	both(noQuiz.ID, http.StatusNotFound, quiz.MsgQuizNotFound)

	offQuiz := mkBadge(t, env, model.TypeSkill, true)
	mkQuiz(t, env, offQuiz, false, 70, 3)
	both(offQuiz.ID, http.StatusNotFound, quiz.MsgQuizNotFound)

	both(model.NewID(), http.StatusNotFound, "Badge not found")
	both("not-an-id", http.StatusNotFound, "Badge not found")
	c.Get("/quiz/badge/").ExpectMsg(http.StatusBadRequest, "Badge ID is missing")
	c.Get("/quiz/badge").ExpectMsg(http.StatusBadRequest, "Badge ID is missing")

	// none of the refusals created an attempt
	n, err := env.DB.NewSelect().Model((*model.QuizAttempt)(nil)).Where("user_id = ?", u.ID).Count(ctx)
	if err != nil || n != 2 { // the revoked-grant badge and the rejected-application badge
		t.Fatalf("%d attempts, want 2 (%v)", n, err)
	}
	start(t, c, skill.ID)
}

func TestQuizWithoutQuestions(t *testing.T) {
	env := apptest.New(t)
	b := mkBadge(t, env, model.TypeSkill, true)
	qz, _ := mkQuiz(t, env, b, true, 70, 0)
	_, c := env.Member("empty@x.io")
	r := c.Get("/quiz/badge/" + b.ID).Expect(http.StatusOK)
	m := r.Map()
	apptest.Expect(t, "empty quiz", m,
		apptest.Eq[any]("m[\"_id\"]", m["_id"], qz.ID),
		apptest.True("m[\"attempt\"] == nil", m["attempt"] == nil))
	apptest.Expect(t, "empty quiz", m,
		apptest.Eq("len(m[\"questions\"].([]any))", len(m["questions"].([]any)), 0),
		apptest.Eq[any]("m[\"poolSize\"]", m["poolSize"], float64(0)))
	c.Post("/quiz/badge/"+b.ID+"/start", nil).ExpectMsg(http.StatusConflict, quiz.MsgNoQuestions)
	n, _ := env.DB.NewSelect().Model((*model.QuizAttempt)(nil)).Count(env.Ctx())
	if n != 0 {
		t.Fatal("an attempt was started for a quiz without questions")
	}
}

func TestPassingAttemptIsTheServersLatestUnusedPass(t *testing.T) {
	f := newFx(t, 5)
	ctx := f.env.Ctx()
	u, c := f.env.Member("pass@x.io")
	if _, err := quiz.PassingAttempt(ctx, f.env.DB, u.ID, f.badge.ID); !errors.Is(err, quiz.ErrNoPassingAttempt) {
		t.Fatalf("no attempt yet: %v", err)
	}
	// a running attempt is not a pass, whatever its answers
	v := start(t, c, f.badge.ID)
	right := f.answers(t, v, 5)
	for qid, idx := range right {
		c.Put("/quiz/attempts/"+v.Attempt.ID+"/answers", map[string]any{"questionId": qid, "optionIndex": idx}).Expect(http.StatusOK)
	}
	if _, err := quiz.PassingAttempt(ctx, f.env.DB, u.ID, f.badge.ID); !errors.Is(err, quiz.ErrNoPassingAttempt) {
		t.Fatalf("an unsubmitted attempt counted: %v", err)
	}
	submit(c, v.Attempt.ID, right).Expect(http.StatusOK)
	// a later failed attempt does not hide the pass
	v2 := start(t, c, f.badge.ID)
	submit(c, v2.Attempt.ID, f.answers(t, v2, 1)).Expect(http.StatusOK)
	a, err := quiz.PassingAttempt(ctx, f.env.DB, u.ID, f.badge.ID)
	if err != nil || a.ID != v.Attempt.ID || !a.Passed || a.Score != 100 {
		t.Fatalf("passing attempt %+v, %v", a, err)
	}
	// another user's pass is not this user's
	other := f.env.CreateUser("o@x.io", "password123", model.RoleUser)
	if _, err := quiz.PassingAttempt(ctx, f.env.DB, other.ID, f.badge.ID); !errors.Is(err, quiz.ErrNoPassingAttempt) {
		t.Fatalf("other user: %v", err)
	}
	// used once by an application
	now := model.Now()
	app := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: f.badge.ID, Type: model.TypeSkill, Status: model.StatusAwaitingPayment, PaymentStatus: model.PaymentPending, CreatedAt: now, UpdatedAt: now}
	if _, err := f.env.DB.NewInsert().Model(app).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := quiz.UseAttempt(ctx, f.env.DB, other.ID, a.ID, app.ID); !errors.Is(err, quiz.ErrAttemptUsed) {
		t.Fatalf("another user used the attempt: %v", err)
	}
	if err := quiz.UseAttempt(ctx, f.env.DB, u.ID, v2.Attempt.ID, app.ID); !errors.Is(err, quiz.ErrAttemptUsed) {
		t.Fatalf("a failed attempt was used: %v", err)
	}
	if err := quiz.UseAttempt(ctx, f.env.DB, u.ID, a.ID, app.ID); err != nil {
		t.Fatal(err)
	}
	if err := quiz.UseAttempt(ctx, f.env.DB, u.ID, a.ID, app.ID); !errors.Is(err, quiz.ErrAttemptUsed) {
		t.Fatalf("used twice: %v", err)
	}
	if _, err := quiz.PassingAttempt(ctx, f.env.DB, u.ID, f.badge.ID); !errors.Is(err, quiz.ErrNoPassingAttempt) {
		t.Fatalf("a used attempt is still offered: %v", err)
	}
	got := f.attemptRow(t, a.ID)
	apptest.Expect(t, "application id not stored", got,
		apptest.True("got.ApplicationID != nil", got.ApplicationID != nil))
	apptest.Expect(t, "application id not stored", got,
		apptest.Eq("*got.ApplicationID", *got.ApplicationID, app.ID))
}

func TestTooManyNewAttemptsAreRateLimited(t *testing.T) {
	f := newFx(t, 2)
	_, c := f.env.Member("spam@x.io")
	for i := 0; i < quiz.StartLimit; i++ {
		v := start(t, c, f.badge.ID)
		submit(c, v.Attempt.ID, nil).Expect(http.StatusOK)
	}
	c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).ExpectMsg(http.StatusTooManyRequests, quiz.MsgTooManyAttempts)
}

func TestQuizPage(t *testing.T) {
	f := newFx(t, 3)
	// visitors are sent to log in
	r := f.env.Client().Abs("GET", "/quiz/"+f.badge.ID, nil)
	if r.Status != http.StatusSeeOther && r.Status != http.StatusFound {
		t.Fatalf("visitor status %d", r.Status)
	}
	if loc := r.Header.Get("Location"); loc != "/login?next=%2Fquiz%2F"+f.badge.ID {
		t.Fatalf("redirect to %q", loc)
	}
	_, c := f.env.Member("page@x.io")
	r, props := c.Page("/quiz/" + f.badge.ID + "?attempt=" + strings.Repeat("a", 24))
	r.Expect(http.StatusOK)
	if apptest.PageName(r) != "QuizPage" {
		t.Fatalf("page %q", apptest.PageName(r))
	}
	page := props["page"].(map[string]any)
	apptest.Expect(t, "props", page,
		apptest.Eq[any]("page[\"badgeId\"]", page["badgeId"], f.badge.ID),
		apptest.Eq[any]("page[\"badgeName\"]", page["badgeName"], f.badge.Name),
		apptest.Eq[any]("page[\"attemptId\"]", page["attemptId"], strings.Repeat("a", 24)))
	if !strings.Contains(r.Text(), f.badge.Name+" Quiz | Meritmark") || !strings.Contains(r.Text(), `content="noindex"`) {
		t.Fatal("title or noindex missing")
	}
	// opening the page does not start an attempt (the screen does, when it runs)
	if n, _ := f.env.DB.NewSelect().Model((*model.QuizAttempt)(nil)).Count(context.Background()); n != 0 {
		t.Fatal("the page started an attempt")
	}
	// unknown badge and missing id still render the screen, which shows the API's message
	_, props = c.Page("/quiz/" + model.NewID() + "?attempt=<x>")
	if p := props["page"].(map[string]any); p["badgeName"] != "" || p["attemptId"] != "" {
		t.Fatalf("props %v", p)
	}
	r, props = c.Page("/quiz")
	r.Expect(http.StatusOK)
	if p := props["page"].(map[string]any); p["badgeId"] != "" {
		t.Fatalf("props %v", p)
	}
}

func TestQuestionDeletedDuringAnAttemptIsLeftOut(t *testing.T) {
	f := newFx(t, 5)
	_, c := f.env.Member("edit@x.io")
	v := start(t, c, f.badge.ID)
	ans := f.answers(t, v, 5)
	gone := v.Questions[1].ID
	if _, err := f.env.DB.NewDelete().Model((*model.Question)(nil)).Where("id = ?", gone).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	c.Put("/quiz/attempts/"+v.Attempt.ID+"/answers", map[string]any{"questionId": gone, "optionIndex": 0}).ExpectMsg(http.StatusBadRequest, quiz.MsgUnknownQuestion)
	var res resultResp
	submit(c, v.Attempt.ID, ans).Expect(http.StatusOK).JSON(&res) // still carries the deleted question's answer
	apptest.Expect(t, "result", res,
		apptest.Eq("res.Total", res.Total, 4),
		apptest.Eq("res.CorrectAnswers", res.CorrectAnswers, 4),
		apptest.Eq("res.Score", res.Score, 100),
		apptest.True("res.Passed", res.Passed),
		apptest.Eq("res.Answered", res.Answered, 4))
}
