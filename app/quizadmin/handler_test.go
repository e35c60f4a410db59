package quizadmin_test

import (
	"net/url"
	"reflect"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quizadmin"
)

func TestMain(m *testing.M) { apptest.Main(m) }

type questionJSON struct {
	ID           string   `json:"_id"`
	Text         string   `json:"text"`
	Options      []string `json:"options"`
	CorrectIndex int      `json:"correctIndex"`
	Difficulty   string   `json:"difficulty"`
	Explanation  string   `json:"explanation"`
	Topic        string   `json:"topic"`
	Category     string   `json:"category"`
	Quizzes      []struct {
		ID        string `json:"_id"`
		BadgeName string `json:"badgeName"`
	} `json:"quizzes"`
}

type quizJSON struct {
	ID           string `json:"_id"`
	Title        string `json:"title"`
	Description  string `json:"description"`
	PassingScore int    `json:"passingScore"`
	TimeLimit    int    `json:"timeLimit"`
	IsActive     bool   `json:"isActive"`
	Badge        struct {
		ID   string `json:"_id"`
		Name string `json:"name"`
	} `json:"badge"`
	Questions     []questionJSON `json:"questions"`
	QuestionCount int            `json:"questionCount"`
}

func newBadge(t *testing.T, e *apptest.Env, name, typ, category string) *model.Badge {
	t.Helper()
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: name, Category: category, Type: typ, Level: "beginner", Icon: "Award", Color: "blue",
		CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return b
}

func createQuiz(t *testing.T, c *apptest.Client, badgeID string, body any) quizJSON {
	t.Helper()
	var out struct {
		Msg  string   `json:"msg"`
		Quiz quizJSON `json:"quiz"`
	}
	c.Post("/admin/badges/"+badgeID+"/quiz", body).Expect(201).JSON(&out)
	if out.Msg != "Quiz created successfully" {
		t.Fatalf("msg %q", out.Msg)
	}
	return out.Quiz
}

func createQuestion(t *testing.T, c *apptest.Client, body map[string]any) questionJSON {
	t.Helper()
	var out struct {
		Msg      string       `json:"msg"`
		Question questionJSON `json:"question"`
	}
	c.Post("/admin/questions", body).Expect(201).JSON(&out)
	want := "Question created successfully"
	if body["quizId"] != nil {
		want = "Question created and added to quiz successfully"
	}
	if out.Msg != want {
		t.Fatalf("msg %q", out.Msg)
	}
	return out.Question
}

func count(t *testing.T, e *apptest.Env, m any, where string, args ...any) int {
	t.Helper()
	n, err := e.DB.NewSelect().Model(m).Where(where, args...).Count(e.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func actions(t *testing.T, e *apptest.Env) []string {
	t.Helper()
	var es []model.AuditEntry
	if err := e.DB.NewSelect().Model(&es).OrderExpr("created_at, id").Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(es))
	for i, a := range es {
		out[i] = a.Action + " " + a.TargetType
		if a.ActorEmail != "admin@x.io" {
			t.Fatalf("audit actor %q", a.ActorEmail)
		}
	}
	return out
}

func TestCreateQuizDefaultsAndRules(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	skill := newBadge(t, e, "Go Expert", model.TypeSkill, "Development")
	proof := newBadge(t, e, "Portfolio", model.TypeProof, "Design")

	// an empty form (and an empty body) takes every default
	q := createQuiz(t, c, skill.ID, map[string]any{"title": "", "description": "", "passingScore": "", "timeLimit": ""})
	apptest.Expect(t, "defaults", q,
		apptest.Eq("q.Title", q.Title, "Go Expert Assessment"),
		apptest.Eq("q.Description", q.Description, "Answer each question to show your Go Expert skills."),
		apptest.Eq("q.PassingScore", q.PassingScore, 70),
		apptest.Eq("q.TimeLimit", q.TimeLimit, 15),
		apptest.True("q.IsActive", q.IsActive),
		apptest.Eq("q.Badge.ID", q.Badge.ID, skill.ID),
		apptest.Eq("q.Badge.Name", q.Badge.Name, "Go Expert"),
		apptest.Eq("len(q.Questions)", len(q.Questions), 0))
	var row model.Quiz
	if err := e.DB.NewSelect().Model(&row).Where("badge_id = ?", skill.ID).Scan(e.Ctx()); err != nil || row.PassingScore != 70 || row.TimeLimit != 15 {
		t.Fatalf("row %+v %v", row, err)
	}
	c.Post("/admin/badges/"+skill.ID+"/quiz", map[string]any{}).ExpectMsg(409, "This badge already has a quiz.")
	c.Post("/admin/badges/"+proof.ID+"/quiz", map[string]any{}).ExpectMsg(422, "Quizzes can only be created for skill badges.")
	c.Post("/admin/badges/"+model.NewID()+"/quiz", map[string]any{}).ExpectMsg(404, "Badge not found")
	c.Post("/admin/badges/nope/quiz", map[string]any{}).ExpectMsg(404, "Badge not found")

	other := newBadge(t, e, "SQL", model.TypeSkill, "Data Science")
	for _, tc := range []struct {
		body map[string]any
		msg  string
	}{
		{map[string]any{"passingScore": 0}, "Passing score must be a whole number from 1 to 100."},
		{map[string]any{"passingScore": 101}, "Passing score must be a whole number from 1 to 100."},
		{map[string]any{"passingScore": "abc"}, "Passing score must be a whole number from 1 to 100."},
		{map[string]any{"timeLimit": 0}, "Time limit must be a whole number of minutes, at least 1."},
		{map[string]any{"timeLimit": 1.5}, "Time limit must be a whole number of minutes, at least 1."},
		{map[string]any{"timeLimit": 301}, "Time limit can be at most 300 minutes."},
	} {
		c.Post("/admin/badges/"+other.ID+"/quiz", tc.body).ExpectMsg(400, tc.msg)
	}
	if count(t, e, (*model.Quiz)(nil), "badge_id = ?", other.ID) != 0 {
		t.Fatal("a refused quiz was stored")
	}
	q2 := createQuiz(t, c, other.ID, map[string]any{"title": "SQL Check", "description": "Joins", "passingScore": "80", "timeLimit": 1})
	apptest.Expect(t, "given values", q2,
		apptest.Eq("q2.Title", q2.Title, "SQL Check"),
		apptest.Eq("q2.Description", q2.Description, "Joins"),
		apptest.Eq("q2.PassingScore", q2.PassingScore, 80),
		apptest.Eq("q2.TimeLimit", q2.TimeLimit, 1))
	// the spec's client may send no body at all
	third := newBadge(t, e, "Third", model.TypeSkill, "DevOps")
	c.Post("/admin/badges/"+third.ID+"/quiz", nil).Expect(201)

	// toggle
	var out struct {
		Msg  string   `json:"msg"`
		Quiz quizJSON `json:"quiz"`
	}
	c.Patch("/admin/quizzes/"+q.ID+"/toggle", nil).Expect(200).JSON(&out)
	apptest.Expect(t, "toggle", out,
		apptest.Eq("out.Msg", out.Msg, "Quiz status updated successfully"),
		apptest.True("!out.Quiz.IsActive", !out.Quiz.IsActive))
	c.Patch("/admin/quizzes/"+model.NewID()+"/toggle", nil).ExpectMsg(404, "Quiz not found")
	if got := actions(t, e); !reflect.DeepEqual(got, []string{"quiz.create quiz", "quiz.create quiz", "quiz.create quiz", "quiz.toggle quiz"}) {
		t.Fatalf("audit %v", got)
	}
}

func TestQuestionValidation(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	q := func(kv ...any) map[string]any {
		m := map[string]any{"text": "What is 2+2?", "options": []string{"3", "4", "5", "6"}, "correctIndex": 1}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		body map[string]any
		msg  string
	}{
		{q("text", ""), "Question text is required."},
		{q("text", "   "), "Question text is required."},
		{q("options", []string{"4"}), quizadmin.MsgMinOptions},
		{q("options", []string{"4", "", "  ", ""}), "Please provide at least 2 answer options"},
		{q("options", nil), "Please provide at least 2 answer options"},
		{q("options", []string{"a", "b", "c", "d", "e"}), "A question can have at most 4 answer options."},
		{q("options", []string{"Same", "same"}, "correctIndex", 0), "Answer options must all be different."},
		{q("correctIndex", nil), "Please select a valid correct answer"},
		{q("correctIndex", 4), "Please select a valid correct answer"},
		{q("correctIndex", -1), "Please select a valid correct answer"},
		{q("correctIndex", "x"), "Please select a valid correct answer"},
		{q("options", []string{"A", "", "B", ""}, "correctIndex", 1), "Please select a valid correct answer"},
		{q("difficulty", "extreme"), "Difficulty must be easy, medium or hard."},
	} {
		c.Post("/admin/questions", tc.body).ExpectMsg(400, tc.msg)
	}
	if count(t, e, (*model.Question)(nil), "1 = 1") != 0 {
		t.Fatal("a refused question was stored")
	}

	// defaults: medium, General, no topic
	got := createQuestion(t, c, q())
	apptest.Expect(t, "defaults", got,
		apptest.Eq("got.Difficulty", got.Difficulty, "medium"),
		apptest.Eq("got.Category", got.Category, "General"),
		apptest.Eq("got.Topic", got.Topic, ""),
		apptest.Eq("got.CorrectIndex", got.CorrectIndex, 1),
		apptest.Eq("len(got.Options)", len(got.Options), 4))
	// empty options are dropped and the correct index follows its option
	got = createQuestion(t, c, q("options", []string{"", " Paris ", "", "Rome"}, "correctIndex", 3, "difficulty", "HARD", "topic", "Geo", "category", "Trivia"))
	var row model.Question
	if err := e.DB.NewSelect().Model(&row).Where("id = ?", got.ID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	apptest.Expect(t, "remapped row", row,
		apptest.True("reflect.DeepEqual(row.Options, []string{\"Paris\", \"Rome\"})", reflect.DeepEqual(row.Options, []string{"Paris", "Rome"})),
		apptest.Eq("row.CorrectIndex", row.CorrectIndex, 1),
		apptest.Eq("row.Difficulty", row.Difficulty, "hard"),
		apptest.Eq("row.Topic", row.Topic, "Geo"),
		apptest.Eq("row.Category", row.Category, "Trivia"))
	// a string index (from a form) is accepted
	createQuestion(t, c, q("correctIndex", "0"))
}

func TestQuestionForQuizAndBankLinks(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	b := newBadge(t, e, "Docker Pro", model.TypeSkill, "DevOps")
	quiz := createQuiz(t, c, b.ID, map[string]any{})

	// created for the quiz: topic and category default to the badge's, added at the end
	q1 := createQuestion(t, c, map[string]any{"text": "Q1", "options": []string{"a", "b"}, "correctIndex": 0, "quizId": quiz.ID})
	apptest.Expect(t, "defaults from the badge", q1,
		apptest.Eq("q1.Topic", q1.Topic, "Docker Pro"),
		apptest.Eq("q1.Category", q1.Category, "DevOps"))
	q2 := createQuestion(t, c, map[string]any{"text": "Q2", "options": []string{"a", "b"}, "correctIndex": 1, "quizId": quiz.ID, "topic": "Images", "category": "Containers"})
	apptest.Expect(t, "given topic", q2,
		apptest.Eq("q2.Topic", q2.Topic, "Images"),
		apptest.Eq("q2.Category", q2.Category, "Containers"))
	// an unknown quiz: 404 and no question left behind
	c.Post("/admin/questions", map[string]any{"text": "Lost", "options": []string{"a", "b"}, "correctIndex": 0, "quizId": model.NewID()}).ExpectMsg(404, "Quiz not found")
	if count(t, e, (*model.Question)(nil), "text = ?", "Lost") != 0 {
		t.Fatal("half-written question")
	}

	bank := createQuestion(t, c, map[string]any{"text": "From the bank", "options": []string{"a", "b", "c"}, "correctIndex": 2})
	var out struct {
		Msg  string   `json:"msg"`
		Quiz quizJSON `json:"quiz"`
	}
	c.Post("/admin/quizzes/"+quiz.ID+"/questions/"+bank.ID, nil).Expect(201).JSON(&out)
	apptest.Expect(t, "add", out,
		apptest.Eq("out.Msg", out.Msg, "Question added to quiz"),
		apptest.Eq("out.Quiz.QuestionCount", out.Quiz.QuestionCount, 3))
	order := []string{}
	for _, q := range out.Quiz.Questions {
		order = append(order, q.Text)
	}
	if !reflect.DeepEqual(order, []string{"Q1", "Q2", "From the bank"}) {
		t.Fatalf("order %v", order)
	}
	c.Post("/admin/quizzes/"+quiz.ID+"/questions/"+bank.ID, nil).ExpectMsg(409, "This question is already in the quiz.")
	c.Post("/admin/quizzes/"+model.NewID()+"/questions/"+bank.ID, nil).ExpectMsg(404, "Quiz not found")
	c.Post("/admin/quizzes/"+quiz.ID+"/questions/"+model.NewID(), nil).ExpectMsg(404, "Question not found")

	// GET /admin/quizzes: the quiz with its badge and questions (with answers: admin only)
	var quizzes []quizJSON
	c.Get("/admin/quizzes").Expect(200).JSON(&quizzes)
	apptest.Expect(t, "quizzes", quizzes,
		apptest.Eq("len(quizzes)", len(quizzes), 1))
	apptest.Expect(t, "quizzes", quizzes,
		apptest.Eq("quizzes[0].Badge.Name", quizzes[0].Badge.Name, "Docker Pro"),
		apptest.Eq("len(quizzes[0].Questions)", len(quizzes[0].Questions), 3))
	apptest.Expect(t, "quizzes", quizzes,
		apptest.Eq("quizzes[0].Questions[2].CorrectIndex", quizzes[0].Questions[2].CorrectIndex, 2))

	// remove from the quiz: stays in the bank
	c.Delete("/admin/quizzes/" + quiz.ID + "/questions/" + q2.ID).Expect(200).JSON(&out)
	apptest.Expect(t, "remove", out,
		apptest.Eq("out.Msg", out.Msg, "Question removed from quiz"),
		apptest.Eq("out.Quiz.QuestionCount", out.Quiz.QuestionCount, 2))
	if count(t, e, (*model.Question)(nil), "id = ?", q2.ID) != 1 {
		t.Fatal("removing from a quiz deleted the question")
	}
	c.Delete("/admin/quizzes/"+quiz.ID+"/questions/"+q2.ID).ExpectMsg(404, "This question is not in the quiz.")

	// delete from the bank: its quiz links go too
	c.Delete("/admin/questions/" + q1.ID).Expect(200).JSON(&struct{}{})
	if count(t, e, (*model.Question)(nil), "id = ?", q1.ID) != 0 || count(t, e, (*model.QuizQuestion)(nil), "question_id = ?", q1.ID) != 0 {
		t.Fatal("question or its links left")
	}
	r := c.Delete("/admin/questions/" + bank.ID)
	if r.ExpectMsg(200, "Question deleted successfully").Map()["removedFromQuizzes"] != float64(1) {
		t.Fatalf("removedFromQuizzes: %s", r.Text())
	}
	c.Delete("/admin/questions/"+bank.ID).ExpectMsg(404, "Question not found")
	if count(t, e, (*model.QuizQuestion)(nil), "quiz_id = ?", quiz.ID) != 0 {
		t.Fatal("links left")
	}

	want := []string{"quiz.create quiz",
		"question.create question", "quiz.add_question quiz",
		"question.create question", "quiz.add_question quiz",
		"question.create question", "quiz.add_question quiz",
		"quiz.remove_question quiz", "question.delete question", "question.delete question"}
	if got := actions(t, e); !reflect.DeepEqual(got, want) {
		t.Fatalf("audit\n got %v\nwant %v", got, want)
	}
}

func TestEditQuestion(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	q := createQuestion(t, c, map[string]any{"text": "Old", "options": []string{"a", "b"}, "correctIndex": 0, "topic": "T", "category": "C"})
	var out struct {
		Msg      string       `json:"msg"`
		Question questionJSON `json:"question"`
	}
	c.Put("/admin/questions/"+q.ID, map[string]any{"text": "New", "options": []string{"x", "", "y", "z"}, "correctIndex": 3,
		"difficulty": "easy", "explanation": "because", "topic": "T2", "category": ""}).Expect(200).JSON(&out)
	apptest.Expect(t, "edit", out,
		apptest.Eq("out.Msg", out.Msg, "Question updated successfully"),
		apptest.Eq("out.Question.Text", out.Question.Text, "New"),
		apptest.True("reflect.DeepEqual(out.Question.Options, []string{\"x\", \"y\", \"z\"})", reflect.DeepEqual(out.Question.Options, []string{"x", "y", "z"})),
		apptest.Eq("out.Question.CorrectIndex", out.Question.CorrectIndex, 2),
		apptest.Eq("out.Question.Difficulty", out.Question.Difficulty, "easy"),
		apptest.Eq("out.Question.Explanation", out.Question.Explanation, "because"),
		apptest.Eq("out.Question.Category", out.Question.Category, "General"))
	c.Put("/admin/questions/"+q.ID, map[string]any{"text": "New", "options": []string{"x", ""}, "correctIndex": 0}).ExpectMsg(400, "Please provide at least 2 answer options")
	c.Put("/admin/questions/"+q.ID, map[string]any{"text": "New", "options": []string{"x", "y"}, "correctIndex": 2}).ExpectMsg(400, "Please select a valid correct answer")
	c.Put("/admin/questions/"+q.ID, map[string]any{"text": "", "options": []string{"x", "y"}, "correctIndex": 0}).ExpectMsg(400, "Question text is required.")
	c.Put("/admin/questions/"+model.NewID(), map[string]any{"text": "x", "options": []string{"x", "y"}, "correctIndex": 0}).ExpectMsg(404, "Question not found")
	var row model.Question
	e.DB.NewSelect().Model(&row).Where("id = ?", q.ID).Scan(e.Ctx())
	apptest.Expect(t, "row after refused edits", row,
		apptest.Eq("row.Text", row.Text, "New"),
		apptest.Eq("row.CorrectIndex", row.CorrectIndex, 2))
}

func TestQuestionBankSearch(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	createQuestion(t, c, map[string]any{"text": "What does a Dockerfile do?", "options": []string{"a", "b"}, "correctIndex": 0, "topic": "Images", "category": "DevOps"})
	createQuestion(t, c, map[string]any{"text": "Which hook runs after render?", "options": []string{"a", "b"}, "correctIndex": 0, "topic": "Hooks", "category": "Development"})
	createQuestion(t, c, map[string]any{"text": "100% of what?", "options": []string{"a", "b"}, "correctIndex": 0, "topic": "Percent_Things"})
	for search, want := range map[string]int{
		"":           3,
		"dockerfile": 1, // text, any case
		"HOOKS":      1, // topic
		"devops":     1, // category
		"general":    1, // default category
		"what":       2,
		"%":          1, // LIKE wildcards are literal
		"_things":    1,
		"nothing":    0,
	} {
		var list []questionJSON
		c.Get("/admin/questions?search=" + url.QueryEscape(search)).Expect(200).JSON(&list)
		if len(list) != want {
			t.Errorf("search %q: %d results, want %d", search, len(list), want)
		}
	}
}

func TestQuizAdminAccess(t *testing.T) {
	e := apptest.New(t)
	_, member := e.Member("m@x.io")
	visitor := e.Client()
	id, id2 := model.NewID(), model.NewID()
	for _, r := range []struct{ method, path string }{
		{"GET", "/admin/quizzes"}, {"GET", "/admin/questions"}, {"POST", "/admin/badges/" + id + "/quiz"},
		{"POST", "/admin/questions"}, {"PUT", "/admin/questions/" + id}, {"DELETE", "/admin/questions/" + id},
		{"POST", "/admin/quizzes/" + id + "/questions/" + id2}, {"DELETE", "/admin/quizzes/" + id + "/questions/" + id2},
		{"PATCH", "/admin/quizzes/" + id + "/toggle"},
	} {
		visitor.Do(r.method, r.path, map[string]any{}).ExpectMsg(401, "Please log in to continue.")
		member.Do(r.method, r.path, map[string]any{}).ExpectMsg(403, "Access Denied: You need admin privileges to access this page.")
	}
}
