package quiz_test

import (
	"reflect"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quiz"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func TestNewLayoutUsesThePermutationForQuestionsAndOptions(t *testing.T) {
	qs := []model.Question{
		{ID: "a", Options: []string{"a0", "a1", "a2"}},
		{ID: "b", Options: []string{"b0", "b1"}},
	}
	// reverse every list
	rev := func(n int) []int {
		p := make([]int, n)
		for i := range p {
			p[i] = n - 1 - i
		}
		return p
	}
	got := quiz.NewLayout(qs, 0, rev)
	want := []model.AttemptItem{{QuestionID: "b", OptionOrder: []int{1, 0}}, {QuestionID: "a", OptionOrder: []int{2, 1, 0}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("layout %+v, want %+v", got, want)
	}
	// the default is a real permutation of every index
	l := quiz.NewLayout(qs, 0, nil)
	if len(l) != 2 {
		t.Fatalf("layout has %d items", len(l))
	}
	for _, it := range l {
		n := 3
		if it.QuestionID == "b" {
			n = 2
		}
		seen := map[int]bool{}
		for _, o := range it.OptionOrder {
			seen[o] = true
		}
		if len(it.OptionOrder) != n || len(seen) != n {
			t.Fatalf("option order %v is not a permutation of %d", it.OptionOrder, n)
		}
	}
}

func TestShownAndOriginalIndicesMapBothWays(t *testing.T) {
	q := &model.Question{Options: []string{"w", "x", "y", "z"}, CorrectIndex: 2}
	it := model.AttemptItem{OptionOrder: []int{3, 0, 2, 1}}
	order := quiz.VisibleOrder(it, q)
	if got := quiz.ShownOptions(order, q); !reflect.DeepEqual(got, []string{"z", "w", "y", "x"}) {
		t.Fatalf("shown options %v", got)
	}
	for shown, orig := range []int{3, 0, 2, 1} {
		if o, ok := quiz.ToOriginal(order, shown); !ok || o != orig {
			t.Fatalf("ToOriginal(%d) = %d,%v want %d", shown, o, ok, orig)
		}
		if s, ok := quiz.ToShown(order, orig); !ok || s != shown {
			t.Fatalf("ToShown(%d) = %d,%v want %d", orig, s, ok, shown)
		}
	}
	for _, bad := range []int{-1, 4, 100} {
		if _, ok := quiz.ToOriginal(order, bad); ok {
			t.Fatalf("shown index %d accepted", bad)
		}
	}
	// an option removed after the attempt started is left out, and indices stay consistent
	q2 := &model.Question{Options: []string{"w", "x", "y"}}
	order2 := quiz.VisibleOrder(it, q2)
	if got := quiz.ShownOptions(order2, q2); !reflect.DeepEqual(got, []string{"w", "y", "x"}) {
		t.Fatalf("shown options after an edit %v", got)
	}
	if _, ok := quiz.ToOriginal(order2, 3); ok {
		t.Fatal("index past the remaining options accepted")
	}
}

func TestScoreAndPass(t *testing.T) {
	cases := []struct {
		correct, total, passing int
		score                   float64
		passed                  bool
	}{
		{5, 5, 70, 100, true},
		{0, 5, 70, 0, false},
		{4, 5, 70, 80, true},
		{3, 5, 70, 60, false},
		{7, 10, 70, 70, true}, // score == passingScore passes
		{2, 3, 67, 66.67, false},
		{2, 3, 66, 66.67, true},
		{5, 6, 70, 83.33, true},
		{0, 0, 70, 0, false}, // an empty quiz never passes
		{1, 1, 100, 100, true},
	}
	for _, c := range cases {
		if s := quiz.Score(c.correct, c.total); s != c.score {
			t.Errorf("Score(%d,%d) = %v want %v", c.correct, c.total, s, c.score)
		}
		if p := quiz.Passes(c.correct, c.total, c.passing); p != c.passed {
			t.Errorf("Passes(%d,%d,%d) = %v want %v", c.correct, c.total, c.passing, p, c.passed)
		}
	}
}

func TestGradeAnswersCountsOnlyExistingQuestions(t *testing.T) {
	layout := []model.AttemptItem{{QuestionID: "a"}, {QuestionID: "b"}, {QuestionID: "gone"}, {QuestionID: "c"}}
	qs := map[string]*model.Question{
		"a": {ID: "a", CorrectIndex: 1}, "b": {ID: "b", CorrectIndex: 0}, "c": {ID: "c", CorrectIndex: 3},
	}
	g := quiz.GradeAnswers(layout, qs, map[string][]int{"a": {1}, "b": {2}, "gone": {0}}, 60)
	apptest.Expect(t, "grade", g,
		apptest.Eq("g.Correct", g.Correct, 1),
		apptest.Eq("g.Total", g.Total, 3),
		apptest.Eq("g.Score", g.Score, 33.33),
		apptest.True("!g.Passed", !g.Passed))
	g = quiz.GradeAnswers(layout, qs, map[string][]int{"a": {1}, "b": {0}, "c": {3}}, 100)
	apptest.Expect(t, "grade", g,
		apptest.Eq("g.Correct", g.Correct, 3),
		apptest.Eq("g.Total", g.Total, 3),
		apptest.Eq("g.Score", g.Score, 100),
		apptest.True("g.Passed", g.Passed))
}

func TestTimeSpentAndLateness(t *testing.T) {
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	a := &model.QuizAttempt{StartedAt: start, Deadline: start.Add(15 * time.Minute)}
	sub := start.Add(3*time.Minute + 12*time.Second + 400*time.Millisecond)
	a.SubmittedAt = &sub
	if got := quiz.TimeSpent(a); got != 192 {
		t.Fatalf("time spent %d, want 192", got)
	}
	late := start.Add(20 * time.Minute)
	a.SubmittedAt = &late
	if got := quiz.TimeSpent(a); got != 900 {
		t.Fatalf("time spent capped at the limit: %d, want 900", got)
	}
	a.SubmittedAt = nil
	if !quiz.Open(a, a.Deadline.Add(-time.Millisecond)) || quiz.Open(a, a.Deadline) {
		t.Fatal("answers are saved until the deadline, not at it")
	}
	if !quiz.AcceptsSubmission(a, a.Deadline.Add(quiz.Grace)) || quiz.AcceptsSubmission(a, a.Deadline.Add(quiz.Grace+time.Millisecond)) {
		t.Fatal("a submission is accepted in full until deadline + grace")
	}
	if quiz.Expired(a, a.Deadline.Add(quiz.Grace)) || !quiz.Expired(a, a.Deadline.Add(quiz.Grace+time.Millisecond)) {
		t.Fatal("an attempt expires after deadline + grace")
	}
}

func TestRetakeRuleCheck(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	at := func(h float64) *time.Time { x := now.Add(time.Duration(h * float64(time.Hour))); return &x }
	r := quiz.Rule{WaitHours: 24, MaxAttempts: 3, PeriodDays: 30}
	// nothing yet: start
	if e := quiz.Check(r, nil, 0, now); !e.CanStart || e.NextAttemptAt != nil || e.AttemptsUsed != 0 {
		t.Fatalf("fresh %+v", e)
	}
	// failed 2 hours ago: wait 22 more hours; an extra attempt lets them start now
	failed := []quiz.Past{{StartedAt: *at(-2.2), SubmittedAt: at(-2)}}
	e := quiz.Check(r, failed, 0, now)
	apptest.Expect(t, "after a fail", e,
		apptest.True("!e.CanStart", !e.CanStart),
		apptest.Eq("e.Reason", e.Reason, quiz.ReasonWait),
		apptest.True("e.NextAttemptAt.Equal(now.Add(22*time.Hour).Add(time.Second))", e.NextAttemptAt.Equal(now.Add(22*time.Hour).Add(time.Second))),
		apptest.Eq("e.AttemptsUsed", e.AttemptsUsed, 1))
	if e := quiz.Check(r, failed, 1, now); !e.CanStart || !e.UsesExtra || e.NextAttemptAt == nil {
		t.Fatalf("with an extra attempt %+v", e)
	}
	// a pass needs no wait
	if e := quiz.Check(r, []quiz.Past{{StartedAt: *at(-2.2), SubmittedAt: at(-2), Passed: true}}, 0, now); !e.CanStart {
		t.Fatalf("after a pass %+v", e)
	}
	// three attempts in 30 days: the oldest leaves the window 30 days after it started
	three := []quiz.Past{{StartedAt: *at(-100), SubmittedAt: at(-99.9)}, {StartedAt: *at(-70), SubmittedAt: at(-69.9)}, {StartedAt: *at(-40), SubmittedAt: at(-39.9)}}
	e = quiz.Check(r, three, 0, now)
	apptest.Expect(t, "cap", e,
		apptest.True("!e.CanStart", !e.CanStart),
		apptest.Eq("e.Reason", e.Reason, quiz.ReasonCap),
		apptest.True("e.NextAttemptAt.Equal(now.Add(-100*time.Hour).Add(30*24*time.Hour).Add(time.Second))", e.NextAttemptAt.Equal(now.Add(-100*time.Hour).Add(30*24*time.Hour).Add(time.Second))))
	if got := quiz.RefusalMsg(e); got != "You have used all 3 attempts allowed in 30 days. Your next attempt opens at "+quiz.WhenText(*e.NextAttemptAt)+"." {
		t.Fatal(got)
	}
	// no rule: always
	if e := quiz.Check(quiz.Rule{}, three, 0, now); !e.CanStart {
		t.Fatalf("no rule %+v", e)
	}
	for _, c := range []struct {
		r    quiz.Rule
		want string
	}{
		{quiz.Rule{WaitHours: 24, MaxAttempts: 3, PeriodDays: 30}, "Retake 1 day after a failed attempt; at most 3 attempts in 30 days"},
		{quiz.Rule{WaitHours: 1}, "Retake 1 hour after a failed attempt"},
		{quiz.Rule{WaitHours: 0, MaxAttempts: 1, PeriodDays: 1}, "Retake at once after a failed attempt; at most 1 attempt in 1 day"},
	} {
		if got := quiz.RuleText(c.r); got != c.want {
			t.Errorf("RuleText(%+v) = %q", c.r, got)
		}
	}
}

func TestDrawSizeAndTopics(t *testing.T) {
	for _, c := range [][3]int{{0, 6, 6}, {4, 6, 4}, {9, 6, 6}, {-1, 6, 6}, {3, 0, 0}} {
		if got := quiz.DrawSize(c[0], c[1]); got != c[2] {
			t.Errorf("DrawSize(%d, %d) = %d", c[0], c[1], got)
		}
	}
	qs := make([]model.Question, 6)
	for i := range qs {
		qs[i] = model.Question{ID: string(rune('a' + i)), Options: []string{"x", "y"}, CorrectIndex: 0, Topic: []string{"Hooks", "Hooks", "SSR", "Hooks", "", ""}[i]}
	}
	layout := quiz.NewLayout(qs, 4, func(n int) []int {
		p := make([]int, n)
		for i := range p {
			p[i] = i
		}
		return p
	})
	if len(layout) != 4 {
		t.Fatalf("drew %d", len(layout))
	}
	qmap := map[string]*model.Question{}
	for i := range qs {
		qmap[qs[i].ID] = &qs[i]
	}
	// asked a, b, c, d: Hooks 3 (a right, b wrong, d right), SSR once (left out)
	got := quiz.Topics(layout, qmap, map[string][]int{"a": {0}, "b": {1}, "d": {0}, "c": {0}})
	apptest.Expect(t, "topics", got,
		apptest.Eq("len(got)", len(got), 1))
	apptest.Expect(t, "topics", got,
		apptest.Eq("got[0]", got[0], (quiz.TopicScore{Topic: "Hooks", Correct: 2, Total: 3})))
}
