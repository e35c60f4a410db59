package quizadmin_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/measure"
	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/quizadmin"
)

// measureQuiz is a quiz of four questions (A B C D, correct option 0..3 mod 3) and a
// member whose submitted attempts the tests write directly.
type measureQuiz struct {
	e      *apptest.Env
	admin  *apptest.Client
	quiz   *model.Quiz
	qs     []model.Question
	member string
	base   time.Time
	n      int
}

func newMeasureQuiz(t *testing.T) *measureQuiz {
	t.Helper()
	e := apptest.New(t)
	_, admin := e.Admin("admin@x.io")
	u, _ := e.Member("taker@x.io")
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: "Measured", Category: "Development", Type: model.TypeSkill, Level: "beginner",
		Icon: "Award", Color: "blue", CreatedAt: now, UpdatedAt: now}
	q := &model.Quiz{ID: model.NewID(), BadgeID: b.ID, Title: "Measured quiz", PassingScore: 70, TimeLimit: 30, CreatedAt: now}
	m := &measureQuiz{e: e, admin: admin, quiz: q, member: u.ID, base: now.Add(-48 * time.Hour)}
	ctx := e.Ctx()
	if _, err := e.DB.NewInsert().Model(b).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.NewInsert().Model(q).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"A", "B", "C", "D"} {
		qq := model.Question{ID: model.NewID(), Text: "Question " + name + "?", Options: []string{"x", "y", "z"}, CorrectIndex: i % 3,
			Difficulty: "medium", Category: "Development", CreatedAt: now}
		if _, err := e.DB.NewInsert().Model(&qq).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := e.DB.NewInsert().Model(&model.QuizQuestion{QuizID: q.ID, QuestionID: qq.ID, Position: i}).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		m.qs = append(m.qs, qq)
	}
	return m
}

// submit writes a submitted attempt answering A B C D right where marks has a 1; each
// one is submitted a minute after the previous.
func (m *measureQuiz) submit(t *testing.T, marks string) {
	t.Helper()
	a := model.QuizAttempt{ID: model.NewID(), UserID: m.member, QuizID: m.quiz.ID, BadgeID: m.quiz.BadgeID, Answers: map[string]int{},
		Total: len(m.qs), PassingScore: m.quiz.PassingScore}
	for i, q := range m.qs {
		a.Layout = append(a.Layout, model.AttemptItem{QuestionID: q.ID, OptionOrder: []int{0, 1, 2}})
		a.Answers[q.ID] = (q.CorrectIndex + 1) % 3
		if marks[i] == '1' {
			a.Answers[q.ID] = q.CorrectIndex
			a.CorrectCount++
		}
	}
	a.Score = math.Round(float64(a.CorrectCount)*10000/float64(a.Total)) / 100
	a.Passed = a.CorrectCount*100 >= m.quiz.PassingScore*a.Total
	a.StartedAt = m.base.Add(time.Duration(m.n) * time.Minute)
	a.Deadline = a.StartedAt.Add(30 * time.Minute)
	sub := a.StartedAt.Add(10 * time.Minute)
	a.SubmittedAt = &sub
	m.n++
	if _, err := m.e.DB.NewInsert().Model(&a).Exec(m.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	qmap := map[string]*model.Question{}
	for i := range m.qs {
		qmap[m.qs[i].ID] = &m.qs[i]
	}
	if err := quiz.WriteResponses(m.e.Ctx(), m.e.DB, &a, qmap); err != nil {
		t.Fatal(err)
	}
}

type measuredJSON struct {
	Stats struct {
		Attempts    int     `json:"attempts"`
		PassRate    float64 `json:"passRate"`
		Enough      *bool   `json:"enough"`
		Message     *string `json:"message"`
		MinAttempts int     `json:"minAttempts"`
		Reliability struct {
			KR20       *float64 `json:"kr20"`
			SEM        *float64 `json:"sem"`
			SEMItems   *float64 `json:"semItems"`
			FormLength int      `json:"formLength"`
			N          *int     `json:"n"`
		} `json:"reliability"`
		DecisionConsistency struct {
			P0    *float64 `json:"p0"`
			Kappa *float64 `json:"kappa"`
		} `json:"decisionConsistency"`
		Questions []struct {
			QuestionID     string   `json:"questionId"`
			TimesAsked     int      `json:"timesAsked"`
			PercentCorrect float64  `json:"percentCorrect"`
			Discrimination *float64 `json:"discrimination"`
			PointBiserial  *float64 `json:"pointBiserial"`
			Drift          *bool    `json:"drift"`
		} `json:"questions"`
	} `json:"stats"`
}

func (m *measureQuiz) analysis(t *testing.T) measuredJSON {
	t.Helper()
	var out measuredJSON
	m.admin.Get("/admin/quizzes/" + m.quiz.ID + "/analysis").Expect(200).JSON(&out)
	return out
}

// handRows is the 5 x 4 matrix worked by hand in app/measure (KR-20 = 8/11).
var handRows = []string{"1111", "1110", "1100", "1010", "0000"}

func fp(x *float64) string {
	if x == nil {
		return "null"
	}
	return fmt.Sprint(*x)
}

// 29 attempts: the existing figures are there, the new ones null with the message.
func TestAnalysisMeasurementBelowMinimum(t *testing.T) {
	m := newMeasureQuiz(t)
	for i := 0; i < measure.MinAttempts-1; i++ {
		m.submit(t, handRows[i%5])
	}
	out := m.analysis(t)
	s := out.Stats
	apptest.Expect(t, "stats", s,
		apptest.Eq("attempts", s.Attempts, 29),
		apptest.True("enough is false", s.Enough != nil && !*s.Enough),
		apptest.True("message", s.Message != nil && *s.Message == "not enough attempts yet"),
		apptest.Eq("minAttempts", s.MinAttempts, 30),
		apptest.True("reliability.n is 29", s.Reliability.N != nil && *s.Reliability.N == 29),
		apptest.True("kr20 null", s.Reliability.KR20 == nil),
		apptest.True("sem null", s.Reliability.SEM == nil && s.Reliability.SEMItems == nil),
		apptest.True("p0 null", s.DecisionConsistency.P0 == nil),
		apptest.True("kappa null", s.DecisionConsistency.Kappa == nil),
		apptest.Eq("questions", len(s.Questions), 4))
	for _, q := range s.Questions {
		if q.TimesAsked != 29 || q.Discrimination == nil || q.PointBiserial != nil || q.Drift != nil {
			t.Errorf("question %s: asked %d, discrimination %s, pointBiserial %s, drift %v", q.QuestionID, q.TimesAsked,
				fp(q.Discrimination), fp(q.PointBiserial), q.Drift)
		}
	}
}

// 30 attempts: the hand matrix six times over. Replicating rows keeps p, σ² and every
// correlation, so KR-20 = 8/11 = 0.727, SEM = sqrt(.48) = 0.69 questions = 17.32 % and
// the corrected point-biserials of A and D are 0.686 and 0.456 (app/measure worked them).
// The pass mark 70 needs 3 of 4: pass rate 2/5 = 40 %.
//
// Subkoviak with r = 8/11, μ = 2.2/4 = .55, P_i = P(Bin(4, τ) >= 3) = 4τ³(1-τ) + τ⁴:
//
//	X 4: τ = 8/11 + 3/11·.55 = .877273, P = .923736
//	X 3: τ = 8/11·.75 + .15 = .695455, P = .643674
//	X 2: τ = .513636, P = .333228 (twice)
//	X 0: τ = .15, P = .011981
//
// P0 = mean of P² + (1-P)² = .697593; p̄ = .449169, Pc = .505167,
// kappa = (.697593 - .505167) / (1 - .505167) = .388869.
func TestAnalysisMeasurementByHand(t *testing.T) {
	m := newMeasureQuiz(t)
	for i := 0; i < 30; i++ {
		m.submit(t, handRows[i%5])
	}
	s := m.analysis(t).Stats
	apptest.Expect(t, "stats", s,
		apptest.Eq("attempts", s.Attempts, 30),
		apptest.Eq("passRate", s.PassRate, 40),
		apptest.True("enough", s.Enough != nil && *s.Enough),
		apptest.True("no message", s.Message == nil),
		apptest.True("reliability.n is 30", s.Reliability.N != nil && *s.Reliability.N == 30),
		apptest.Eq("kr20", fp(s.Reliability.KR20), "0.727"),
		apptest.Eq("sem", fp(s.Reliability.SEM), "17.32"),
		apptest.Eq("semItems", fp(s.Reliability.SEMItems), "0.69"),
		apptest.Eq("formLength", s.Reliability.FormLength, 4),
		apptest.Eq("p0", fp(s.DecisionConsistency.P0), "0.698"),
		apptest.Eq("kappa", fp(s.DecisionConsistency.Kappa), "0.389"))
	want := map[int]string{0: "0.686", 3: "0.456"}
	for i, q := range s.Questions {
		if q.QuestionID != m.qs[i].ID || q.TimesAsked != 30 || q.PointBiserial == nil || q.Drift != nil {
			t.Errorf("question %d: %+v (pointBiserial %s)", i, q, fp(q.PointBiserial))
		}
		if w, ok := want[i]; ok && fp(q.PointBiserial) != w {
			t.Errorf("question %d: pointBiserial %s, want %s", i, fp(q.PointBiserial), w)
		}
	}
}

// 60 attempts: the first 30 as above (D right 6 times in 30), the last 30 with D always
// right. D: pooled p = 36/60 = .6, z = (1 - .2) / sqrt(.24 · 2/30) = 6.32: drift. A, B
// and C keep their proportions in both windows (z = 0): no drift.
func TestAnalysisDrift(t *testing.T) {
	m := newMeasureQuiz(t)
	for i := 0; i < 30; i++ {
		m.submit(t, handRows[i%5])
	}
	for i := 0; i < 30; i++ {
		r := handRows[i%5]
		m.submit(t, r[:3]+"1")
	}
	s := m.analysis(t).Stats
	for i, q := range s.Questions {
		want := i == 3
		if q.Drift == nil || *q.Drift != want {
			t.Errorf("question %d: drift %v, want %v", i, q.Drift, want)
		}
	}
}

// Analyze with the pass mark each sitting carries, or without it (recovered from the
// results), gives the same decision figures; with everyone passing and no mark carried
// they are unknown, with the mark carried they are computed.
func TestAnalyzePassMark(t *testing.T) {
	ids := []string{"A", "B", "C", "D"}
	build := func(mark int, rows ...string) []quizadmin.Sitting {
		var out []quizadmin.Sitting
		for i := 0; i < 30; i++ {
			r := rows[i%len(rows)]
			items, x := map[string]bool{}, 0
			for j, id := range ids {
				items[id] = r[j] == '1'
				if r[j] == '1' {
					x++
				}
			}
			out = append(out, quizadmin.Sitting{Score: float64(x) * 25, Passed: x*100 >= 70*4, Items: items, PassingScore: mark})
		}
		return out
	}
	carried := quizadmin.Analyze(build(70, handRows...), ids, nil)
	inferred := quizadmin.Analyze(build(0, handRows...), ids, nil)
	if fp(carried.DecisionConsistency.P0) != "0.698" || fp(inferred.DecisionConsistency.P0) != "0.698" ||
		fp(carried.DecisionConsistency.Kappa) != "0.389" || fp(inferred.DecisionConsistency.Kappa) != "0.389" {
		t.Errorf("carried %s %s, inferred %s %s", fp(carried.DecisionConsistency.P0), fp(carried.DecisionConsistency.Kappa),
			fp(inferred.DecisionConsistency.P0), fp(inferred.DecisionConsistency.Kappa))
	}
	easy := []string{"1111", "1110", "1011", "0111"}
	if d := quizadmin.Analyze(build(0, easy...), ids, nil).DecisionConsistency; d.P0 != nil || d.Kappa != nil {
		t.Errorf("everyone passed, no mark: %s %s", fp(d.P0), fp(d.Kappa))
	}
	if d := quizadmin.Analyze(build(70, easy...), ids, nil).DecisionConsistency; d.P0 == nil {
		t.Error("everyone passed, mark carried: no P0")
	}
}
