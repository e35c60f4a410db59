package quiz_test

import (
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quiz"
)

// FuzzAnswerIndex: an answer is an option position on the screen; whatever position a
// client sends, and whatever became of the question since the attempt started (options
// removed), it maps to one of the question's real options or is refused, and grading
// never counts more correct answers than questions.
func FuzzAnswerIndex(f *testing.F) {
	f.Add([]byte{2, 0, 1, 3}, uint8(4), 1, 2)
	f.Add([]byte{7, 0, 255}, uint8(2), 2, 0)
	f.Add([]byte{}, uint8(0), 0, -1)
	f.Add([]byte{0, 0, 0}, uint8(1), -5, 99)
	f.Fuzz(func(t *testing.T, orderBytes []byte, nOptions uint8, shown int, correct int) {
		n := int(nOptions % 8)
		q := &model.Question{ID: "q", Options: make([]string, n), CorrectIndex: correct}
		for i := range q.Options {
			q.Options[i] = string(rune('A' + i))
		}
		order := make([]int, len(orderBytes))
		for i, b := range orderBytes {
			order[i] = int(int8(b)) // negatives and out-of-range indexes included
		}
		it := model.AttemptItem{QuestionID: q.ID, OptionOrder: order}
		vis := quiz.VisibleOrder(it, q)
		for _, o := range vis {
			if o < 0 || o >= n {
				t.Fatalf("visible order %v for %d options", vis, n)
			}
		}
		opts := quiz.ShownOptions(vis, q) // must not panic
		if len(opts) != len(vis) {
			t.Fatalf("%d options shown for %d positions", len(opts), len(vis))
		}
		if orig, ok := quiz.ToOriginal(vis, shown); ok {
			if orig < 0 || orig >= n || shown < 0 || shown >= len(vis) || opts[shown] != q.Options[orig] {
				t.Fatalf("position %d -> option %d of %d (order %v)", shown, orig, n, vis)
			}
		}
		answers := map[string][]int{q.ID: {shown}}
		g := quiz.GradeAnswers([]model.AttemptItem{it, it}, map[string]*model.Question{q.ID: q}, answers, 70)
		apptest.Expect(t, "grade", g,
			apptest.True("g.Correct <= g.Total", g.Correct <= g.Total),
			apptest.True("g.Score >= 0", g.Score >= 0),
			apptest.True("g.Score <= 100", g.Score <= 100),
			apptest.True("!(g.Passed && g.Score < 70)", !(g.Passed && g.Score < 70)))
	})
}
