package quizadmin

import (
	"encoding/json"
	"strings"
	"testing"

	"meritmark/app/input"
)

// FuzzQuestionForm: an accepted question has 2-4 distinct non-empty options, a correct
// index that points at one of them, a known difficulty and bounded texts.
func FuzzQuestionForm(f *testing.F) {
	for _, s := range []string{`{"text":"2+2?","options":["3","4"],"correctIndex":1}`,
		`{"text":"x","options":["","A","","B"],"correctIndex":3,"difficulty":"HARD"}`,
		`{"text":"<script>alert(1)</script>","options":["<img src=x onerror=alert(1)>","{{7*7}}"],"correctIndex":"0"}`,
		`{"text":"x","options":["a","A"],"correctIndex":0}`, `{"text":"x","options":["a","b"],"correctIndex":2}`, `{"text":"x","options":["a","b"],"correctIndex":-1}`,
		`{"text":"x","options":["a","b","c","d","e"],"correctIndex":0}`, `{"text":"x","options":["a","b"],"correctIndex":1e100}`, `{"text":" ","options":[]}`} {
		f.Add([]byte(s), "Go", "Development")
	}
	f.Fuzz(func(t *testing.T, body []byte, defTopic, defCategory string) {
		var in QuestionInput
		if json.Unmarshal(body, &in) != nil {
			return
		}
		q, msg := NormalizeQuestion(in, defTopic, defCategory)
		if msg != "" {
			return
		}
		if len(q.Options) < MinOptions || len(q.Options) > MaxOptions || q.CorrectIndex < 0 || q.CorrectIndex >= len(q.Options) {
			t.Fatalf("options %q correct %d", q.Options, q.CorrectIndex)
		}
		seen := map[string]bool{}
		for _, o := range q.Options {
			if o == "" || strings.TrimSpace(o) != o || input.TooLong(o, MaxOption) || seen[strings.ToLower(o)] {
				t.Fatalf("option %q", o)
			}
			seen[strings.ToLower(o)] = true
		}
		if q.Text == "" || input.TooLong(q.Text, MaxText) || (q.Difficulty != "easy" && q.Difficulty != "medium" && q.Difficulty != "hard") ||
			input.TooLong(q.Explanation, MaxExplanation) || input.TooLong(q.Topic, MaxTopic) || input.TooLong(q.Category, MaxCategory) {
			t.Fatalf("question %+v", q)
		}
	})
}

// FuzzQuizForm: an accepted quiz has a title, a passing score of 1-100 and a time limit of
// 1-300 minutes.
func FuzzQuizForm(f *testing.F) {
	for _, s := range []string{`{}`, `{"title":"T","passingScore":"80","timeLimit":30}`, `{"passingScore":0}`, `{"passingScore":101}`, `{"timeLimit":"1.5"}`,
		`{"timeLimit":99999999999999999999}`, `{"passingScore":"-1"}`, `{"title":"<script>alert(1)</script>"}`} {
		f.Add([]byte(s), "Go")
	}
	f.Fuzz(func(t *testing.T, body []byte, badge string) {
		var in QuizInput
		if json.Unmarshal(body, &in) != nil {
			return
		}
		q, msg := NormalizeQuiz(in, badge)
		if msg != "" {
			return
		}
		if q.Title == "" && badge != "" || input.TooLong(q.Title, MaxTitle) || q.PassingScore < 1 || q.PassingScore > 100 || q.TimeLimit < 1 || q.TimeLimit > MaxTimeLimit {
			t.Fatalf("quiz %+v", q)
		}
	})
}
