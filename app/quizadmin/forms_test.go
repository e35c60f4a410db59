package quizadmin_test

import (
	"fmt"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/quizadmin"
)

type formQuizJSON struct {
	ID               string               `json:"_id"`
	Title            string               `json:"title"`
	DrawSize         int                  `json:"drawSize"`
	Blueprint        []model.BlueprintRow `json:"blueprint"`
	TargetDifficulty *float64             `json:"targetDifficulty"`
	Target           float64              `json:"target"`
	PoolMean         float64              `json:"poolMean"`
	MaxExposure      int                  `json:"maxExposure"`
	MinItemSeconds   int                  `json:"minItemSeconds"`
	ExposureForms    int                  `json:"exposureForms"`
	ActiveCount      int                  `json:"activeCount"`
	DrawProblem      string               `json:"drawProblem"`
	Topics           []quizadmin.TopicView
	Questions        []struct {
		ID       string              `json:"_id"`
		Family   string              `json:"family"`
		FamilyOf *string             `json:"familyOf"`
		Retired  bool                `json:"retired"`
		Form     *quizadmin.ItemForm `json:"form"`
	} `json:"questions"`
}

// topicQuiz makes an active skill badge whose quiz has, per topic, n medium questions
// (named "<topic><i>"); it answers the quiz id and question ids by name.
func topicQuiz(t *testing.T, e *apptest.Env, c *apptest.Client, topics map[string]int) (*model.Badge, string, map[string]string) {
	t.Helper()
	b := newBadge(t, e, "Forms "+model.NewID()[20:], model.TypeSkill, "Development")
	qz := createQuiz(t, c, b.ID, map[string]any{})
	ids := map[string]string{}
	for _, topic := range []string{"A", "B", "C"} {
		for i := 0; i < topics[topic]; i++ {
			name := fmt.Sprintf("%s%d", topic, i)
			q := createQuestion(t, c, map[string]any{"text": "Question " + name + "?", "options": []string{"x", "y"}, "correctIndex": 0,
				"topic": topic, "quizId": qz.ID})
			ids[name] = q.ID
		}
	}
	if _, err := e.DB.NewUpdate().Model((*model.Badge)(nil)).Set("is_active = ?", true).Where("id = ?", b.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return b, qz.ID, ids
}

func quizForms(t *testing.T, c *apptest.Client, id string) formQuizJSON {
	t.Helper()
	var all []formQuizJSON
	c.Get("/admin/quizzes").Expect(200).JSON(&all)
	for _, q := range all {
		if q.ID == id {
			return q
		}
	}
	t.Fatalf("quiz %s not listed", id)
	return formQuizJSON{}
}

func TestBlueprintIsValidatedAndNothingHalfSaved(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	_, qid, _ := topicQuiz(t, e, c, map[string]int{"A": 4, "B": 3})
	put := func(body map[string]any) *apptest.Resp { return c.Put("/admin/quizzes/"+qid, body) }
	cases := []struct {
		status int
		body   map[string]any
		msg    string
	}{
		{400, map[string]any{"blueprint": []map[string]any{{"topic": "Z", "count": 1}}}, `The blueprint names the topic "Z", which no question in this quiz's pool has.`},
		{400, map[string]any{"blueprint": []map[string]any{{"topic": "A", "count": 0}}}, `The count for topic "A" must be a whole number of at least 1.`},
		{400, map[string]any{"blueprint": []map[string]any{{"topic": "A", "count": 1.5}}}, `The count for topic "A" must be a whole number of at least 1.`},
		{400, map[string]any{"blueprint": []map[string]any{{"topic": " ", "count": 1}}}, quizadmin.MsgBlueprintTopic},
		{400, map[string]any{"blueprint": []map[string]any{{"topic": "A", "count": 1}, {"topic": "a", "count": 1}}}, `The blueprint names the topic "a" twice.`},
		{400, map[string]any{"blueprint": "A"}, quizadmin.MsgBlueprintShape},
		{422, map[string]any{"title": "Changed", "blueprint": []map[string]any{{"topic": "A", "count": 5}, {"topic": "B", "count": 1}}},
			`The pool cannot fill the blueprint: topic "A" needs 5 questions but has only 4 active (1 short).`},
		{400, map[string]any{"targetDifficulty": 1.5}, quizadmin.MsgTarget},
		{400, map[string]any{"targetDifficulty": "x"}, quizadmin.MsgTarget},
		{400, map[string]any{"maxExposure": 0}, quizadmin.MsgMaxExposure},
		{400, map[string]any{"maxExposure": 101}, quizadmin.MsgMaxExposure},
		// every item is medium (0.6): a target of 0.8 cannot be met by any form
		{422, map[string]any{"blueprint": []map[string]any{{"topic": "A", "count": 2}}, "targetDifficulty": 0.8},
			fmt.Sprintf(quiz.MsgBand, 0.8)},
	}
	for _, tc := range cases {
		put(tc.body).ExpectMsg(tc.status, tc.msg)
	}
	row := quizRow(t, e, qid)
	apptest.Expect(t, "quiz after refusals", row,
		apptest.True("Title not Changed", row.Title != "Changed"),
		apptest.Eq("len(Blueprint)", len(row.Blueprint), 0),
		apptest.True("TargetDifficulty nil", row.TargetDifficulty == nil),
		apptest.Eq("MaxExposure", quiz.ExposureRate(row), 40))

	// saved: topics matched in any case and spelled as the pool does
	put(map[string]any{"blueprint": []map[string]any{{"topic": "a", "count": 2}, {"topic": "B", "count": 1}}, "maxExposure": 35}).Expect(200)
	v := quizForms(t, c, qid)
	apptest.Expect(t, "quiz view", v,
		apptest.Eq("Blueprint", fmt.Sprint(v.Blueprint), "[{A 2} {B 1}]"),
		apptest.Eq("DrawSize", v.DrawSize, 3),
		apptest.Eq("MaxExposure", v.MaxExposure, 35),
		apptest.Eq("Target", v.Target, 0.6),
		apptest.Eq("DrawProblem", v.DrawProblem, ""),
		apptest.Eq("Topics", fmt.Sprint(v.Topics), "[{A 4 0 4 2 0} {B 3 0 3 1 0}]"))
	row = quizRow(t, e, qid)
	if len(row.Blueprint) != 2 || row.Blueprint[0].Topic != "A" || row.MaxExposure != 35 {
		t.Fatalf("stored %+v", row)
	}
	// a target can be set and cleared; other fields keep the blueprint
	put(map[string]any{"targetDifficulty": 0.62}).Expect(200)
	if row = quizRow(t, e, qid); row.TargetDifficulty == nil || *row.TargetDifficulty != 0.62 || len(row.Blueprint) != 2 {
		t.Fatalf("stored %+v", row)
	}
	put(map[string]any{"targetDifficulty": nil, "title": "Kept"}).Expect(200)
	if row = quizRow(t, e, qid); row.TargetDifficulty != nil || len(row.Blueprint) != 2 || row.Title != "Kept" {
		t.Fatalf("stored %+v", row)
	}
	// an empty blueprint goes back to the questions-per-attempt draw
	put(map[string]any{"blueprint": []any{}, "questionsPerAttempt": 4}).Expect(200)
	if v = quizForms(t, c, qid); len(v.Blueprint) != 0 || v.DrawSize != 4 {
		t.Fatalf("view %+v", v)
	}
}

func TestFamiliesAreEditedInTheBankAndKeepTheBlueprintFillable(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	_, qid, ids := topicQuiz(t, e, c, map[string]int{"A": 3, "B": 2})
	put := func(id string, body map[string]any) *apptest.Resp {
		body["text"], body["options"], body["correctIndex"] = "Edited "+id+"?", []string{"x", "y"}, 0
		if _, ok := body["topic"]; !ok {
			body["topic"] = "A"
		}
		return c.Put("/admin/questions/"+id, body)
	}
	a0, a1, a2 := ids["A0"], ids["A1"], ids["A2"]
	put(a1, map[string]any{"familyOf": a0}).Expect(200)
	put(a2, map[string]any{"familyOf": a1}).Expect(200)
	put(a0, map[string]any{"familyOf": a2}).ExpectMsg(400, quizadmin.MsgFamilyLoop)
	put(a0, map[string]any{"familyOf": a0}).ExpectMsg(400, quizadmin.MsgFamilySelf)
	put(a0, map[string]any{"familyOf": model.NewID()}).ExpectMsg(400, quizadmin.MsgFamilyNotFound)
	put(a0, map[string]any{"familyOf": "nope"}).ExpectMsg(400, quizadmin.MsgFamilyNotFound)
	v := quizForms(t, c, qid)
	fam := map[string]string{}
	for _, q := range v.Questions {
		fam[q.ID] = q.Family
	}
	if fam[a0] != a0 || fam[a1] != a0 || fam[a2] != a0 || fam[ids["B0"]] != "" {
		t.Fatalf("families %v", fam)
	}
	// the bank shows them too; an edit without familyOf keeps the link
	put(a1, map[string]any{}).Expect(200)
	var bank []struct {
		ID       string  `json:"_id"`
		Family   string  `json:"family"`
		FamilyOf *string `json:"familyOf"`
	}
	c.Get("/admin/questions").Expect(200).JSON(&bank)
	for _, q := range bank {
		if q.ID == a1 && (q.FamilyOf == nil || *q.FamilyOf != a0 || q.Family != a0) {
			t.Fatalf("bank row %+v", q)
		}
	}
	// A has one family of three: a blueprint of two A is refused at save
	c.Put("/admin/quizzes/"+qid, map[string]any{"blueprint": []map[string]any{{"topic": "A", "count": 2}}}).
		ExpectMsg(422, `The pool cannot fill the blueprint: topic "A" needs 2 questions from different families but has only 1 families (1 short).`)
	// untie A2: the blueprint saves; tying it again is refused and not saved
	put(a2, map[string]any{"familyOf": nil}).Expect(200)
	c.Put("/admin/quizzes/"+qid, map[string]any{"blueprint": []map[string]any{{"topic": "A", "count": 2}}}).Expect(200)
	put(a2, map[string]any{"familyOf": a0}).ExpectMsg(409, fmt.Sprintf(quizadmin.MsgPoolBreaks, v.Title,
		`The pool cannot fill the blueprint: topic "A" needs 2 questions from different families but has only 1 families (1 short).`))
	q := new(model.Question)
	if err := e.DB.NewSelect().Model(q).Where("id = ?", a2).Scan(e.Ctx()); err != nil || q.FamilyOf != nil {
		t.Fatalf("A2 after the refused link: %v %+v", err, q.FamilyOf)
	}
	// moving A2 to topic B also breaks A:2 and is refused; removing, deleting or retiring it too
	// (A0 and A1 are one family)
	short := fmt.Sprintf(quizadmin.MsgPoolBreaks, v.Title,
		`The pool cannot fill the blueprint: topic "A" needs 2 questions from different families but has only 1 families (1 short).`)
	put(a2, map[string]any{"topic": "B"}).ExpectMsg(409, short)
	c.Delete("/admin/quizzes/"+qid+"/questions/"+a2).ExpectMsg(409, short)
	c.Put("/admin/questions/"+a2+"/retired", map[string]any{"retired": true}).ExpectMsg(409, short)
	c.Delete("/admin/questions/" + a2).Expect(409)
	if n := count(t, e, (*model.QuizQuestion)(nil), "quiz_id = ? AND question_id = ?", qid, a2); n != 1 {
		t.Fatalf("A2 links %d", n)
	}
}

func TestRetiredQuestionsAreNeverDrawnAndRunningAttemptsKeepTheirForms(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	b, qid, ids := topicQuiz(t, e, c, map[string]int{"A": 4, "B": 3})
	if _, err := e.DB.NewUpdate().Model((*model.Quiz)(nil)).Set("retake_wait_hours = 0").Set("max_attempts = 0").Where("id = ?", qid).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	c.Put("/admin/quizzes/"+qid, map[string]any{"blueprint": []map[string]any{{"topic": "A", "count": 2}, {"topic": "B", "count": 2}}}).Expect(200)
	// a member starts; the admin then retires one of the form's questions and edits the
	// blueprint: the running attempt keeps its form
	_, m := e.Member("runner@x.io")
	var started struct {
		Attempt struct {
			ID string `json:"_id"`
		} `json:"attempt"`
		Questions []struct {
			ID string `json:"_id"`
		} `json:"questions"`
	}
	m.Post("/quiz/badge/"+b.ID+"/start", nil).Expect(200).JSON(&started)
	if len(started.Questions) != 4 {
		t.Fatalf("%d questions", len(started.Questions))
	}
	var retiredID string
	for _, q := range started.Questions {
		if q.ID == ids["A0"] || q.ID == ids["A1"] || q.ID == ids["A2"] || q.ID == ids["A3"] {
			retiredID = q.ID
			break
		}
	}
	var out struct {
		Msg      string `json:"msg"`
		Question struct {
			Retired bool `json:"retired"`
		} `json:"question"`
	}
	c.Put("/admin/questions/"+retiredID+"/retired", map[string]any{"retired": true}).Expect(200).JSON(&out)
	if out.Msg != "Question retired" || !out.Question.Retired {
		t.Fatalf("%+v", out)
	}
	c.Put("/admin/quizzes/"+qid, map[string]any{"blueprint": []map[string]any{{"topic": "A", "count": 1}, {"topic": "B", "count": 1}}}).Expect(200)
	var resumed struct {
		Questions []struct {
			ID string `json:"_id"`
		} `json:"questions"`
	}
	m.Post("/quiz/badge/"+b.ID+"/start", nil).Expect(200).JSON(&resumed)
	if fmt.Sprint(resumed.Questions) != fmt.Sprint(started.Questions) {
		t.Fatalf("resumed %v, started %v", resumed.Questions, started.Questions)
	}
	// retiring B items until B:1 cannot be met is refused, nothing saved
	c.Put("/admin/questions/"+ids["B0"]+"/retired", map[string]any{"retired": true}).Expect(200)
	c.Put("/admin/questions/"+ids["B1"]+"/retired", map[string]any{"retired": true}).Expect(200)
	c.Put("/admin/questions/"+ids["B2"]+"/retired", map[string]any{"retired": true}).Expect(409)
	c.Put("/admin/questions/"+ids["B2"]+"/retired", map[string]any{}).ExpectMsg(400, quizadmin.MsgRetiredRequired)
	if n := count(t, e, (*model.Question)(nil), "id = ? AND retired_at IS NULL", ids["B2"]); n != 1 {
		t.Fatal("B2 retired although refused")
	}
	// new forms never hold a retired question (60 forms by members in turn)
	retired := map[string]bool{retiredID: true, ids["B0"]: true, ids["B1"]: true}
	for i := 0; i < 60; i++ {
		_, mc := e.Member(fmt.Sprintf("m%d@x.io", i))
		var v struct {
			Questions []struct {
				ID string `json:"_id"`
			} `json:"questions"`
		}
		mc.Post("/quiz/badge/"+b.ID+"/start", nil).Expect(200).JSON(&v)
		if len(v.Questions) != 2 {
			t.Fatalf("form %d has %d questions", i, len(v.Questions))
		}
		for _, q := range v.Questions {
			if retired[q.ID] {
				t.Fatalf("form %d holds retired %s", i, q.ID)
			}
		}
	}
	// Quiz Management shows each item's exposure over the forms counted; retired items
	// stay in the pool's history
	v := quizForms(t, c, qid)
	if v.ExposureForms != 61 || v.ActiveCount != 4 {
		t.Fatalf("view: %d forms, %d active", v.ExposureForms, v.ActiveCount)
	}
	sum := 0
	for _, q := range v.Questions {
		sum += q.Form.Exposure
		if q.ID == ids["B2"] && (q.Form.Exposure < 60 || q.Form.ExposureRate < 98.3 || q.Form.AtCap) {
			t.Fatalf("B2 (the only B left) %+v", q.Form)
		}
	}
	if sum != 4+60*2 {
		t.Fatalf("exposures sum to %d", sum)
	}
	// a retired question comes back
	c.Put("/admin/questions/"+ids["B0"]+"/retired", map[string]any{"retired": false}).ExpectMsg(200, "Question back in use")
	if acts := actions(t, e); acts[len(acts)-1] != "question.restore question" {
		t.Fatalf("audit %v", acts[len(acts)-3:])
	}
}

// The integrity check's speed floor (issue 35): validated, saved, shown; 0 turns it off.
func TestMinItemSecondsIsValidatedAndSaved(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	_, qid, _ := topicQuiz(t, e, c, map[string]int{"A": 3})
	for _, bad := range []any{-1, 601, 2.5, "x"} {
		c.Put("/admin/quizzes/"+qid, map[string]any{"minItemSeconds": bad, "title": "Changed"}).ExpectMsg(400, quizadmin.MsgMinItemSeconds)
	}
	if row := quizRow(t, e, qid); row.MinItemSeconds != 0 || row.Title == "Changed" {
		t.Fatalf("half saved: %+v", row)
	}
	c.Put("/admin/quizzes/"+qid, map[string]any{"minItemSeconds": 4}).Expect(200)
	if row := quizRow(t, e, qid); row.MinItemSeconds != 4 || quizForms(t, c, qid).MinItemSeconds != 4 {
		t.Fatalf("stored %d", row.MinItemSeconds)
	}
	c.Put("/admin/quizzes/"+qid, map[string]any{"title": "Other"}).Expect(200)
	if row := quizRow(t, e, qid); row.MinItemSeconds != 4 {
		t.Fatalf("an update without the field changed it: %d", row.MinItemSeconds)
	}
	c.Put("/admin/quizzes/"+qid, map[string]any{"minItemSeconds": 0}).Expect(200)
	if row := quizRow(t, e, qid); row.MinItemSeconds != 0 {
		t.Fatalf("not turned off: %d", row.MinItemSeconds)
	}
}
