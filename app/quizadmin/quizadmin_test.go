package quizadmin

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestOptionsRemapsTheCorrectIndex(t *testing.T) {
	cases := []struct {
		in      []string
		correct int
		kept    []string
		idx     int
	}{
		{[]string{"A", "B", "C", "D"}, 2, []string{"A", "B", "C", "D"}, 2},
		{[]string{"", "A", "", "B"}, 3, []string{"A", "B"}, 1},
		{[]string{" A ", "  ", "B", "C"}, 3, []string{"A", "B", "C"}, 2},
		{[]string{"A", "", "B", ""}, 0, []string{"A", "B"}, 0},
		{[]string{"A", "", "B", ""}, 1, []string{"A", "B"}, -1}, // pointed at an empty slot
		{[]string{"A", "B"}, 5, []string{"A", "B"}, -1},
		{[]string{"A", "B"}, -1, []string{"A", "B"}, -1},
	}
	for _, c := range cases {
		kept, idx := Options(c.in, c.correct)
		if !reflect.DeepEqual(kept, c.kept) || idx != c.idx {
			t.Errorf("%q/%d: %q/%d, want %q/%d", c.in, c.correct, kept, idx, c.kept, c.idx)
		}
	}
}

func TestNormalizeQuizDefaults(t *testing.T) {
	f, msg := NormalizeQuiz(QuizInput{}, "Go Expert")
	if msg != "" || f.Title != "Go Expert Assessment" || f.Description != "Answer each question to show your Go Expert skills." ||
		f.PassingScore != 70 || f.TimeLimit != 15 {
		t.Fatalf("%+v %q", f, msg)
	}
	f, msg = NormalizeQuiz(QuizInput{PassingScore: json.RawMessage(`""`), TimeLimit: json.RawMessage(`null`)}, "X")
	if msg != "" || f.PassingScore != 70 || f.TimeLimit != 15 {
		t.Fatalf("empty strings: %+v %q", f, msg)
	}
	for raw, want := range map[string]string{`0`: MsgPassingScore, `101`: MsgPassingScore, `70.5`: MsgPassingScore, `"abc"`: MsgPassingScore, `1`: "", `100`: ""} {
		if _, msg := NormalizeQuiz(QuizInput{PassingScore: json.RawMessage(raw)}, "X"); msg != want {
			t.Errorf("passing %s: %q", raw, msg)
		}
	}
	for raw, want := range map[string]string{`0`: MsgTimeLimit, `-5`: MsgTimeLimit, `2.5`: MsgTimeLimit, `301`: MsgTimeLimitMax, `1`: "", `300`: ""} {
		if _, msg := NormalizeQuiz(QuizInput{TimeLimit: json.RawMessage(raw)}, "X"); msg != want {
			t.Errorf("time %s: %q", raw, msg)
		}
	}
}
