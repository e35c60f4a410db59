package quizadmin_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"syscall"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quizadmin"
)

type typedQuestion struct {
	ID             string   `json:"_id"`
	Type           string   `json:"type"`
	Options        []string `json:"options"`
	CorrectIndex   int      `json:"correctIndex"`
	CorrectIndexes []int    `json:"correctIndexes"`
	ShowCount      bool     `json:"showCount"`
}

func countQuestions(t *testing.T, e *apptest.Env) int {
	t.Helper()
	n, err := e.DB.NewSelect().Model((*model.Question)(nil)).Count(e.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func TestQuestionTypesAreValidatedAndStored(t *testing.T) {
	e := apptest.New(t)
	_, admin := e.Admin("admin@x.io")
	six := []string{"a", "b", "c", "d", "e", "f"}
	bad := []struct {
		name string
		body map[string]any
		msg  string
	}{
		{"unknown type", map[string]any{"type": "essay", "options": []string{"a", "b"}, "correctIndex": 0}, quizadmin.MsgQuestionType},
		{"no correct choice", map[string]any{"type": "multiple", "options": []string{"a", "b", "c"}, "correctIndexes": []int{}},
			fmt.Sprintf(quizadmin.MsgCorrectCount, 2, 3)},
		{"every option correct", map[string]any{"type": "multiple", "options": []string{"a", "b", "c"}, "correctIndexes": []int{0, 1, 2}},
			fmt.Sprintf(quizadmin.MsgCorrectCount, 2, 3)},
		{"correctIndexes missing", map[string]any{"type": "multiple", "options": []string{"a", "b", "c"}, "correctIndex": 1}, quizadmin.MsgCorrectIndexes},
		{"correct choice twice", map[string]any{"type": "multiple", "options": []string{"a", "b", "c"}, "correctIndexes": []int{1, 1}}, quizadmin.MsgCorrectIndexes},
		{"correct choice out of range", map[string]any{"type": "multiple", "options": []string{"a", "b", "c"}, "correctIndexes": []int{3}}, quizadmin.MsgCorrectIndexes},
		{"correct choice on an empty option", map[string]any{"type": "multiple", "options": []string{"a", " ", "c"}, "correctIndexes": []int{1}}, quizadmin.MsgCorrectIndexes},
		{"duplicate options", map[string]any{"type": "multiple", "options": []string{"a", "B", "b"}, "correctIndexes": []int{0}}, quizadmin.MsgDuplicateOpts},
		{"seven options", map[string]any{"type": "multiple", "options": append(slices.Clone(six), "g"), "correctIndexes": []int{0}}, quizadmin.MsgMaxMultiOpts},
		{"one option", map[string]any{"type": "multiple", "options": []string{"a"}, "correctIndexes": []int{0}}, quizadmin.MsgMinOptions},
		{"showCount not a boolean", map[string]any{"type": "multiple", "options": []string{"a", "b", "c"}, "correctIndexes": []int{0}, "showCount": "yes"}, quizadmin.MsgShowCount},
		{"single with five options", map[string]any{"options": []string{"a", "b", "c", "d", "e"}, "correctIndex": 0}, quizadmin.MsgMaxOptions},
	}
	before := countQuestions(t, e)
	for _, tc := range bad {
		tc.body["text"] = "Pick?"
		if r := admin.Post("/admin/questions", tc.body); r.Status != http.StatusBadRequest || r.Msg() != tc.msg {
			t.Fatalf("%s: %d %q, want 400 %q", tc.name, r.Status, r.Msg(), tc.msg)
		}
	}
	if n := countQuestions(t, e); n != before {
		t.Fatalf("refused questions were saved: %d rows, %d before", n, before)
	}
	// six options, four correct, sent out of order and around an empty option
	var out struct {
		Question typedQuestion `json:"question"`
	}
	admin.Post("/admin/questions", map[string]any{"text": "Which are verbs?", "type": "Multiple",
		"options": []string{"run", "", "blue", "jump", "see", "table", "go"}, "correctIndexes": []int{6, 0, 3, 4}, "showCount": true}).
		Expect(http.StatusCreated).JSON(&out)
	q := out.Question
	apptest.Expect(t, "multiple-response question", q,
		apptest.Eq("Type", q.Type, "multiple"),
		apptest.True("Options without the empty one", slices.Equal(q.Options, []string{"run", "blue", "jump", "see", "table", "go"})),
		apptest.True("CorrectIndexes mapped onto the kept options", slices.Equal(q.CorrectIndexes, []int{0, 2, 3, 5})),
		apptest.Eq("ShowCount", q.ShowCount, true))
	// a single-choice question keeps correctIndex, and reports its key as a list too
	admin.Post("/admin/questions", map[string]any{"text": "One?", "options": []string{"x", "y"}, "correctIndex": 1}).Expect(http.StatusCreated).JSON(&out)
	apptest.Expect(t, "single-choice question", out.Question, apptest.Eq("Type", out.Question.Type, "single"),
		apptest.Eq("CorrectIndex", out.Question.CorrectIndex, 1), apptest.True("CorrectIndexes [1]", slices.Equal(out.Question.CorrectIndexes, []int{1})))
	// an edit may turn it into a multiple-response question; a bad edit changes nothing
	admin.Put("/admin/questions/"+out.Question.ID, map[string]any{"text": "One?", "type": "multiple", "options": []string{"x", "y"}, "correctIndexes": []int{0, 1}}).
		ExpectMsg(http.StatusBadRequest, fmt.Sprintf(quizadmin.MsgCorrectCount, 1, 2))
	var edited struct {
		Question typedQuestion `json:"question"`
	}
	admin.Put("/admin/questions/"+out.Question.ID, map[string]any{"text": "Two?", "type": "multiple", "options": []string{"x", "y", "z"}, "correctIndexes": []int{2, 0}}).
		Expect(http.StatusOK).JSON(&edited)
	stored := new(model.Question)
	if err := e.DB.NewSelect().Model(stored).Where("id = ?", out.Question.ID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	apptest.Expect(t, "edited question", stored, apptest.Eq("Type", stored.Type, model.QuestionMultiple),
		apptest.True("CorrectIndexes [0 2]", slices.Equal(stored.CorrectIndexes, []int{0, 2})), apptest.Eq("Text", stored.Text, "Two?"))
	// the bank lists both types with their keys
	var bank []typedQuestion
	admin.Get("/admin/questions").Expect(http.StatusOK).JSON(&bank)
	types := map[string]int{}
	for _, bq := range bank {
		types[bq.Type]++
	}
	if types["multiple"] != 2 || len(bank) != 2 {
		t.Fatalf("bank types %v", types)
	}
}

// Item analysis reads the recorded responses: a multiple-response question answered with
// its exact set counts as right, and an answer only in the attempts' JSON counts for
// nothing.
func TestAnalysisReadsTheResponsesTable(t *testing.T) {
	m := newMeasureQuiz(t)
	for i := 0; i < 3; i++ {
		m.submit(t, "1100")
	}
	// the table says A was answered wrong in the first attempt, whatever the JSON says
	if _, err := m.e.DB.NewUpdate().Model((*model.QuizResponse)(nil)).Set("correct = ?", false).
		Where("question_id = ?", m.qs[0].ID).Where("attempt_id = (SELECT MIN(id) FROM quiz_attempts WHERE quiz_id = ?)", m.quiz.ID).
		Exec(m.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	out := m.analysis(t)
	byID := map[string]float64{}
	for _, q := range out.Stats.Questions {
		byID[q.QuestionID] = q.PercentCorrect
	}
	if byID[m.qs[0].ID] != 66.7 || byID[m.qs[1].ID] != 100 || byID[m.qs[2].ID] != 0 {
		t.Fatalf("percent correct %v, want A 66.7 (from the table), B 100, C 0", byID)
	}
}

// BenchmarkAnalysis100k times the item analysis of a quiz with 100,000 recorded
// responses (10,000 submitted attempts of 10 questions drawn from a pool of 40), seeded
// once.
func BenchmarkAnalysis100k(b *testing.B) {
	e := apptest.New(b)
	_, admin := e.Admin("admin@x.io")
	u, _ := e.Member("taker@x.io")
	ctx := e.Ctx()
	now := model.Now()
	badge := &model.Badge{ID: model.NewID(), Name: "Bench", Category: "Development", Type: model.TypeSkill, Level: "beginner",
		Icon: "Award", Color: "blue", CreatedAt: now, UpdatedAt: now}
	qz := &model.Quiz{ID: model.NewID(), BadgeID: badge.ID, Title: "Bench quiz", PassingScore: 70, TimeLimit: 30, CreatedAt: now}
	for _, v := range []any{badge, qz} {
		if _, err := e.DB.NewInsert().Model(v).Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
	var qs []model.Question
	for i := 0; i < 40; i++ {
		q := model.Question{ID: model.NewID(), Text: fmt.Sprintf("Q%d?", i), Options: []string{"w", "x", "y", "z"}, CorrectIndex: i % 4,
			Type: model.QuestionSingle, Difficulty: "medium", Category: "Development", CreatedAt: now}
		if i%5 == 0 {
			q.Type, q.CorrectIndexes = model.QuestionMultiple, []int{0, 2}
		}
		qs = append(qs, q)
	}
	if _, err := e.DB.NewInsert().Model(&qs).Exec(ctx); err != nil {
		b.Fatal(err)
	}
	links := make([]model.QuizQuestion, len(qs))
	for i, q := range qs {
		links[i] = model.QuizQuestion{QuizID: qz.ID, QuestionID: q.ID, Position: i}
	}
	if _, err := e.DB.NewInsert().Model(&links).Exec(ctx); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const attempts, perForm = 10000, 10
	for start := 0; start < attempts; start += 500 {
		var as []model.QuizAttempt
		var rs []model.QuizResponse
		for i := start; i < start+500; i++ {
			at := now.Add(-time.Duration(attempts-i) * time.Minute)
			sub := at.Add(5 * time.Minute)
			a := model.QuizAttempt{ID: model.NewID(), UserID: u.ID, QuizID: qz.ID, BadgeID: badge.ID, Answers: map[string]int{},
				StartedAt: at, Deadline: at.Add(30 * time.Minute), SubmittedAt: &sub, Total: perForm, PassingScore: 70}
			for pos, qi := range rng.Perm(len(qs))[:perForm] {
				q := qs[qi]
				a.Layout = append(a.Layout, model.AttemptItem{QuestionID: q.ID, OptionOrder: []int{0, 1, 2, 3}})
				right := rng.Float64() < 0.3+0.6*float64(i%10)/10
				if right {
					a.CorrectCount++
				}
				rs = append(rs, model.QuizResponse{AttemptID: a.ID, QuestionID: q.ID, QuizID: qz.ID, Position: pos, OptionOrder: []int{0, 1, 2, 3},
					Options: q.Options, Chosen: []int{q.CorrectIndex}, Correct: right, FirstAnsweredAt: &at, LastAnsweredAt: &at, TimeMs: 20000})
			}
			a.Score = float64(a.CorrectCount) * 10
			a.Passed = a.CorrectCount >= 7
			as = append(as, a)
		}
		if _, err := e.DB.NewInsert().Model(&as).Exec(ctx); err != nil {
			b.Fatal(err)
		}
		for k := 0; k < len(rs); k += 1000 {
			chunk := rs[k:min(k+1000, len(rs))]
			if _, err := e.DB.NewInsert().Model(&chunk).Exec(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
	// the machine is shared: the CPU time the process spent per analysis is reported
	// beside the wall time
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	b.ResetTimer()
	c0 := cpu()
	defer func() { b.ReportMetric(float64((cpu()-c0).Milliseconds())/float64(b.N), "cpu-ms/op") }()
	for i := 0; i < b.N; i++ {
		var out struct {
			Stats struct {
				Attempts int `json:"attempts"`
			} `json:"stats"`
		}
		admin.Get("/admin/quizzes/" + qz.ID + "/analysis").Expect(http.StatusOK).JSON(&out)
		if out.Stats.Attempts != attempts {
			b.Fatalf("%d attempts analysed, want %d", out.Stats.Attempts, attempts)
		}
	}
}
