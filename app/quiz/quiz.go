// Package quiz runs the timed skill quizzes and grades them on the server.
//
// The browser never sees a correct answer or an explanation before it submits. Each attempt
// has its own question and option order (the layout, kept on the attempt), a deadline set by
// the server when it starts, and the answers saved so far. Grading maps each shown option
// back to the question's original option and counts the correct ones.
//
// Lateness: a submission is accepted in full until the deadline plus Grace (network and
// clock slack for the auto-submit at 0). After that the answers it carries are ignored and
// the attempt is graded on the answers saved (PUT .../answers) before the deadline; saving
// an answer after the deadline is refused. An attempt nobody submitted is graded the same
// way when its owner next opens the quiz or the attempt.
package quiz

import (
	"math"
	"math/rand/v2"
	"time"

	"meritmark/app/model"
)

// Grace is how long after the deadline a submission is still accepted in full.
const Grace = 10 * time.Second

// Messages (spec sections 2 and 8 where the spec gives them).
const (
	MsgBadgeIDMissing   = "Badge ID is missing"
	MsgBadgeNotFound    = "Badge not found"
	MsgBadgeInactive    = "This badge is not available right now."
	MsgQuizNotFound     = "Quiz not found for this badge"
	MsgNotSkillBadge    = "This badge is earned by uploading proof, not by a quiz."
	MsgAlreadyOwned     = "You already own this badge!"
	MsgApplicationOpen  = "Your application is still being reviewed."
	MsgAttemptNotFound  = "Quiz attempt not found"
	MsgAlreadySubmitted = "This quiz attempt has already been submitted."
	MsgTimeUp           = "Time is up for this attempt; your saved answers will be graded."
	MsgInProgress       = "This quiz attempt is still in progress."
	MsgUnknownQuestion  = "That question is not part of this quiz attempt."
	MsgBadOption        = "Please choose one of the question's options."
	MsgTooManyAttempts  = "Too many quiz attempts. Please wait a while before starting another."
)

// NewLayout orders questions and their options for one attempt. perm(n) returns a
// permutation of 0..n-1 (rand.Perm in production; tests pass a fixed one).
func NewLayout(questions []model.Question, perm func(n int) []int) []model.AttemptItem {
	if perm == nil {
		perm = rand.Perm
	}
	order := perm(len(questions))
	items := make([]model.AttemptItem, 0, len(questions))
	for _, qi := range order {
		q := questions[qi]
		items = append(items, model.AttemptItem{QuestionID: q.ID, OptionOrder: perm(len(q.Options))})
	}
	return items
}

// VisibleOrder is the attempt's option order for q, leaving out any option the question
// no longer has (edited after the attempt started): position i shows q.Options[order[i]].
func VisibleOrder(it model.AttemptItem, q *model.Question) []int {
	out := make([]int, 0, len(it.OptionOrder))
	for _, o := range it.OptionOrder {
		if o >= 0 && o < len(q.Options) {
			out = append(out, o)
		}
	}
	return out
}

// ToOriginal maps the option shown at position shown back to the question's own index.
func ToOriginal(order []int, shown int) (int, bool) {
	if shown < 0 || shown >= len(order) {
		return 0, false
	}
	return order[shown], true
}

// ToShown maps a question's own option index to where the attempt shows it.
func ToShown(order []int, original int) (int, bool) {
	for i, o := range order {
		if o == original {
			return i, true
		}
	}
	return 0, false
}

// ShownOptions is q's options in the order the attempt shows them.
func ShownOptions(order []int, q *model.Question) []string {
	out := make([]string, len(order))
	for i, o := range order {
		out[i] = q.Options[o]
	}
	return out
}

// Grade is an attempt's result.
type Grade struct {
	Correct int
	Total   int
	Score   float64 // percent, rounded to 2 decimals
	Passed  bool
}

// GradeAnswers grades answers (question id -> original option index) against the
// questions of layout. A question that no longer exists is left out of the total.
func GradeAnswers(layout []model.AttemptItem, questions map[string]*model.Question, answers map[string]int, passingScore int) Grade {
	var g Grade
	for _, it := range layout {
		q, ok := questions[it.QuestionID]
		if !ok {
			continue
		}
		g.Total++
		if a, ok := answers[it.QuestionID]; ok && a == q.CorrectIndex {
			g.Correct++
		}
	}
	g.Score = Score(g.Correct, g.Total)
	g.Passed = Passes(g.Correct, g.Total, passingScore)
	return g
}

// Score is correct / total x 100, rounded to 2 decimals (0 for an empty quiz).
func Score(correct, total int) float64 {
	if total <= 0 {
		return 0
	}
	return math.Round(float64(correct)*10000/float64(total)) / 100
}

// Passes reports score >= passingScore, compared exactly (no rounding can turn a
// 69.996% into a pass).
func Passes(correct, total, passingScore int) bool {
	return total > 0 && correct*100 >= passingScore*total
}

// TimeSpent is the server-measured time of an attempt in whole seconds: from its start to
// its submission, at most its time limit.
func TimeSpent(a *model.QuizAttempt) int {
	end := a.Deadline
	if a.SubmittedAt != nil && a.SubmittedAt.Before(end) {
		end = *a.SubmittedAt
	}
	d := end.Sub(a.StartedAt)
	if d < 0 {
		return 0
	}
	return int(d.Round(time.Second) / time.Second)
}

// Open reports whether answers can still be saved (now is before the deadline).
func Open(a *model.QuizAttempt, now time.Time) bool {
	return a.SubmittedAt == nil && now.Before(a.Deadline)
}

// AcceptsSubmission reports whether a submission at now is graded with the answers it
// carries (until deadline + Grace).
func AcceptsSubmission(a *model.QuizAttempt, now time.Time) bool {
	return !now.After(a.Deadline.Add(Grace))
}

// Expired reports an unsubmitted attempt past deadline + Grace: it is graded on its saved
// answers and closed.
func Expired(a *model.QuizAttempt, now time.Time) bool {
	return a.SubmittedAt == nil && now.After(a.Deadline.Add(Grace))
}
