package quiz_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quiz"
)

// addMultiple adds a multiple-response question to the fixture's quiz through the
// admin API: options A-E, A C E correct.
func (f *fx) addMultiple(t *testing.T, showCount bool) model.Question {
	t.Helper()
	_, admin := f.env.Admin("boss@x.io")
	var out struct {
		Question struct {
			ID string `json:"_id"`
		} `json:"question"`
	}
	r := admin.Post("/admin/questions", map[string]any{"text": "Which are prime?", "type": "multiple",
		"options": []string{"m-2", "m-4", "m-5", "m-9", "m-11"}, "correctIndexes": []int{4, 0, 2}, "showCount": showCount,
		"explanation": "SECRET-EXPLANATION-M", "quizId": f.quiz.ID}).Expect(http.StatusCreated)
	r.JSON(&out)
	q := new(model.Question)
	id := out.Question.ID
	if err := f.env.DB.NewSelect().Model(q).Where("id = ?", id).Scan(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	apptest.Expect(t, "stored question", q,
		apptest.Eq("Type", q.Type, model.QuestionMultiple),
		apptest.True("CorrectIndexes [0 2 4]", slices.Equal(q.CorrectIndexes, []int{0, 2, 4})),
		apptest.Eq("ShowCount", q.ShowCount, showCount))
	f.byID[q.ID] = *q
	return *q
}

// shownOf is where the attempt shows the options with these texts.
func shownOf(t *testing.T, v quizResp, qid string, texts ...string) []int {
	out := []int{}
	for _, s := range texts {
		out = append(out, shownIndex(t, v, qid, s))
	}
	return out
}

func TestMultipleResponseIsRightOnlyForTheExactSet(t *testing.T) {
	f := newFx(t, 1)
	mq := f.addMultiple(t, false)
	single := f.qs[0]
	cases := []struct {
		name  string
		texts []string
		right bool
	}{
		{"exact set", []string{"m-11", "m-2", "m-5"}, true},
		{"subset", []string{"m-2", "m-5"}, false},
		{"superset", []string{"m-2", "m-5", "m-11", "m-9"}, false},
		{"one wrong swapped in", []string{"m-2", "m-5", "m-4"}, false},
	}
	for i, tc := range cases {
		_, c := f.env.Member("multi" + string(rune('a'+i)) + "@x.io")
		v := start(t, c, f.badge.ID)
		var pickSeen bool
		for _, q := range v.Questions {
			if q.ID == mq.ID {
				pickSeen = true
			}
		}
		if !pickSeen || len(v.Questions) != 2 {
			t.Fatalf("%s: the attempt does not ask the multiple-response question: %+v", tc.name, v.Questions)
		}
		ans := map[string]any{
			single.ID: shownIndex(t, v, single.ID, single.Options[single.CorrectIndex]),
			mq.ID:     shownOf(t, v, mq.ID, tc.texts...),
		}
		var res resultResp
		c.Post("/quiz/attempts/"+v.Attempt.ID+"/submit", map[string]any{"answers": ans}).Expect(http.StatusOK).JSON(&res)
		want := 1
		if tc.right {
			want = 2
		}
		apptest.Expect(t, tc.name, res,
			apptest.Eq("CorrectAnswers", res.CorrectAnswers, want),
			apptest.Eq("Total", res.Total, 2),
			apptest.Eq("Answered", res.Answered, 2))
		var row model.QuizResponse
		if err := f.env.DB.NewSelect().Model(&row).Where("attempt_id = ? AND question_id = ?", v.Attempt.ID, mq.ID).Scan(f.env.Ctx()); err != nil {
			t.Fatal(err)
		}
		apptest.Expect(t, tc.name+" row", row, apptest.Eq("Correct", row.Correct, tc.right),
			apptest.Eq("len(Chosen)", len(row.Chosen), len(tc.texts)))
	}
}

func TestMultipleResponseSavedMidAttemptIsGraded(t *testing.T) {
	f := newFx(t, 1)
	mq := f.addMultiple(t, true)
	_, c := f.env.Member("saver@x.io")
	v := start(t, c, f.badge.ID)
	path := "/quiz/attempts/" + v.Attempt.ID + "/answers"
	// a list for a single-choice question with two entries, a repeated option, one out of range
	c.Put(path, map[string]any{"questionId": f.qs[0].ID, "optionIndex": []int{0, 1}}).ExpectMsg(http.StatusBadRequest, quiz.MsgBadOption)
	c.Put(path, map[string]any{"questionId": mq.ID, "optionIndex": []int{1, 1}}).ExpectMsg(http.StatusBadRequest, quiz.MsgBadOption)
	c.Put(path, map[string]any{"questionId": mq.ID, "optionIndex": []int{0, 5}}).ExpectMsg(http.StatusBadRequest, quiz.MsgBadOption)
	c.Put(path, map[string]any{"questionId": mq.ID, "optionIndex": []int{0}, "timeMs": -1}).ExpectMsg(http.StatusBadRequest, quiz.MsgBadTime)
	exact := shownOf(t, v, mq.ID, "m-2", "m-5", "m-11")
	slices.Sort(exact)
	var saved struct {
		Answers map[string]any `json:"answers"`
	}
	c.Put(path, map[string]any{"questionId": mq.ID, "optionIndex": exact, "timeMs": 1200}).Expect(http.StatusOK).JSON(&saved)
	got, _ := saved.Answers[mq.ID].([]any)
	if len(got) != 3 {
		t.Fatalf("saved answers %v, want the three shown indexes %v", saved.Answers, exact)
	}
	// a reload shows the saved set and, as the administrator chose, how many to pick
	r := c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).Expect(http.StatusOK)
	m := r.Map()
	for _, q := range m["questions"].([]any) {
		q := q.(map[string]any)
		if q["_id"] == mq.ID && (q["type"] != "multiple" || q["pick"] != float64(3)) {
			t.Fatalf("multiple-response question as the runner gets it: %v", q)
		}
		if q["_id"] == f.qs[0].ID && (q["type"] != "single" || q["pick"] != nil) {
			t.Fatalf("single-choice question as the runner gets it: %v", q)
		}
	}
	if l, _ := m["attempt"].(map[string]any)["answers"].(map[string]any)[mq.ID].([]any); len(l) != 3 {
		t.Fatalf("resumed answers %v", m["attempt"])
	}
	// submitted without the question: graded on the saved set
	var res resultResp
	c.Post("/quiz/attempts/"+v.Attempt.ID+"/submit", map[string]any{"answers": map[string]any{}}).Expect(http.StatusOK).JSON(&res)
	apptest.Expect(t, "result", res, apptest.Eq("CorrectAnswers", res.CorrectAnswers, 1), apptest.Eq("Answered", res.Answered, 1))
}

// Every answer a member receives, from the start screen to the result, leaves the key of
// a multiple-response question out (and its count, unless the administrator shows it).
func TestMultipleResponseKeyNeverReachesTheMember(t *testing.T) {
	f := newFx(t, 1)
	mq := f.addMultiple(t, false)
	_, c := f.env.Member("peek@x.io")
	var bodies []*apptest.Resp
	bodies = append(bodies, c.Get("/quiz/badge/"+f.badge.ID).Expect(http.StatusOK))
	r := c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).Expect(http.StatusOK)
	bodies = append(bodies, r)
	var v quizResp
	r.JSON(&v)
	path := "/quiz/attempts/" + v.Attempt.ID
	bodies = append(bodies, c.Put(path+"/answers", map[string]any{"questionId": mq.ID, "optionIndex": []int{0, 1}}).Expect(http.StatusOK))
	bodies = append(bodies, c.Post("/quiz/badge/"+f.badge.ID+"/start", nil).Expect(http.StatusOK))
	bodies = append(bodies, c.Post(path+"/submit", map[string]any{"answers": map[string]any{mq.ID: []int{2}}}).Expect(http.StatusOK))
	bodies = append(bodies, c.Get(path).Expect(http.StatusOK))
	page, props := c.Page("/quiz/" + f.badge.ID + "?attempt=" + v.Attempt.ID)
	bodies = append(bodies, page)
	for i, b := range bodies {
		low := strings.ToLower(b.Text())
		for _, leak := range []string{"correctindex", "correctindexes", "explanation", "showcount", "\"pick\"", "\"key\""} {
			if strings.Contains(low, leak) {
				t.Fatalf("answer %d contains %q: %s", i, leak, b.Text())
			}
		}
	}
	if strings.Contains(strings.ToLower(fmt.Sprint(props)), "correctindex") {
		t.Fatalf("page props leak the key: %v", props)
	}
}

func TestResponsesAreRecordedWithTimesAndChanges(t *testing.T) {
	f := newFx(t, 2)
	mq := f.addMultiple(t, false)
	_, c := f.env.Member("recorded@x.io")
	v := start(t, c, f.badge.ID)
	var rows []model.QuizResponse
	if err := f.env.DB.NewSelect().Model(&rows).Where("attempt_id = ?", v.Attempt.ID).Order("position").Scan(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows at the start, want one per question (3)", len(rows))
	}
	for i, r := range rows {
		shown := v.Questions[i]
		apptest.Expect(t, "row at start", r,
			apptest.Eq("QuestionID", r.QuestionID, shown.ID),
			apptest.Eq("Position", r.Position, i),
			apptest.True("Options as shown", slices.Equal(r.Options, shown.Options)),
			apptest.True("unanswered", r.Chosen == nil && r.FirstAnsweredAt == nil && r.Changes == 0 && r.TimeMs == 0))
	}
	q0 := f.qs[0]
	path := "/quiz/attempts/" + v.Attempt.ID + "/answers"
	// the attempt started 10 minutes ago: the time on an item can be at most that
	if _, err := f.env.DB.NewUpdate().Model((*model.QuizAttempt)(nil)).Set("started_at = ?", model.Now().Add(-10*time.Minute)).
		Where("id = ?", v.Attempt.ID).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	// answer, answer the same again (no change), change it, then change the multiple-response one
	c.Put(path, map[string]any{"questionId": q0.ID, "optionIndex": 0, "timeMs": 400}).Expect(http.StatusOK)
	time.Sleep(20 * time.Millisecond)
	c.Put(path, map[string]any{"questionId": q0.ID, "optionIndex": 0, "timeMs": 100}).Expect(http.StatusOK)
	c.Put(path, map[string]any{"questionId": q0.ID, "optionIndex": 1, "timeMs": 3600000}).Expect(http.StatusOK)
	c.Put(path, map[string]any{"questionId": mq.ID, "optionIndex": []int{0, 1}}).Expect(http.StatusOK)
	c.Put(path, map[string]any{"questionId": mq.ID, "optionIndex": []int{0, 1, 2}}).Expect(http.StatusOK)
	c.Put(path, map[string]any{"questionId": mq.ID, "optionIndex": []int{}}).Expect(http.StatusOK)
	row := func(qid string) model.QuizResponse {
		var r model.QuizResponse
		if err := f.env.DB.NewSelect().Model(&r).Where("attempt_id = ? AND question_id = ?", v.Attempt.ID, qid).Scan(f.env.Ctx()); err != nil {
			t.Fatal(err)
		}
		return r
	}
	a := f.attemptRow(t, v.Attempt.ID)
	r0 := row(q0.ID)
	bound := time.Since(a.StartedAt).Milliseconds()
	apptest.Expect(t, "single-choice row", r0,
		apptest.True("Chosen is option shown at 1", slices.Equal(r0.Chosen, []int{v0orig(t, v, f, q0.ID, 1)})),
		apptest.Eq("Changes", r0.Changes, 1),
		apptest.True("FirstAnsweredAt set", r0.FirstAnsweredAt != nil),
		apptest.True("LastAnsweredAt after FirstAnsweredAt", r0.LastAnsweredAt != nil && r0.FirstAnsweredAt != nil && r0.LastAnsweredAt.After(*r0.FirstAnsweredAt)),
		apptest.True("TimeMs over the 500 ms reported first", r0.TimeMs > 500),
		apptest.True("TimeMs bounded by the time since the start (an hour more was reported)", r0.TimeMs <= bound && r0.TimeMs >= 10*60*1000-5000))
	rm := row(mq.ID)
	apptest.Expect(t, "multiple-response row", rm,
		apptest.Eq("Changes", rm.Changes, 2),
		apptest.True("cleared", len(rm.Chosen) == 0),
		apptest.True("FirstAnsweredAt kept", rm.FirstAnsweredAt != nil))
	var res resultResp
	c.Post("/quiz/attempts/"+v.Attempt.ID+"/submit", map[string]any{"answers": map[string]any{mq.ID: shownOf(t, v, mq.ID, "m-2", "m-5", "m-11")}}).
		Expect(http.StatusOK).JSON(&res)
	rm = row(mq.ID)
	apptest.Expect(t, "after submission", rm, apptest.Eq("Correct", rm.Correct, true), apptest.Eq("Changes", rm.Changes, 2),
		apptest.True("answered again", rm.LastAnsweredAt != nil && len(rm.Chosen) == 3))
	wantQ0 := v0orig(t, v, f, q0.ID, 1) == q0.CorrectIndex
	if r := row(q0.ID); r.Correct != wantQ0 {
		t.Fatalf("single-choice row correct = %v, want %v", r.Correct, wantQ0)
	}
}

// v0orig is the original index of the option the attempt shows at shown.
func v0orig(t *testing.T, v quizResp, f *fx, qid string, shown int) int {
	t.Helper()
	for _, q := range v.Questions {
		if q.ID == qid {
			return indexOf(f.byID[qid], q.Options[shown])
		}
	}
	t.Fatalf("question %s not in the attempt", qid)
	return -1
}
