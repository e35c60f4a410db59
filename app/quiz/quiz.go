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
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
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
	MsgBadTime          = "The time on a question must be a whole number of milliseconds, at least 0."
	MsgTooManyAttempts  = "Too many quiz attempts. Please wait a while before starting another."
	MsgNoQuestions      = "This quiz has no questions yet."
	MsgLate             = "Time is up for this attempt: only the answers saved before the deadline were graded."
	// MsgGrantWaiting refuses an extra attempt while one is already waiting (app/quizadmin
	// answers it; the back office's bulk action reads it as "nothing changed").
	MsgGrantWaiting = "This member already has an extra attempt waiting."
)

// DrawSize is how many questions an attempt asks: draw (questions per attempt) but at
// most the pool; 0 means the whole pool.
func DrawSize(draw, pool int) int {
	if draw <= 0 || draw > pool {
		return pool
	}
	return draw
}

// Retake rules --------------------------------------------------------------------------

// Rule is a quiz's retake rule.
type Rule struct {
	WaitHours   int // after a failed attempt
	MaxAttempts int // per PeriodDays; 0 = no cap
	PeriodDays  int
}

// RuleOf is the quiz's retake rule.
func RuleOf(q *model.Quiz) Rule {
	return Rule{WaitHours: q.RetakeWaitHours, MaxAttempts: q.MaxAttempts, PeriodDays: q.AttemptPeriodDays}
}

// Past is an earlier attempt as the retake rule sees it.
type Past struct {
	StartedAt   time.Time
	SubmittedAt *time.Time
	Passed      bool
}

// Eligibility says whether a member may start an attempt now and, if not, when.
type Eligibility struct {
	CanStart      bool       `json:"canStart"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"` // set when CanStart is false (or only thanks to an extra attempt)
	Reason        string     `json:"reason"`        // why not (empty when CanStart without a grant)
	AttemptsUsed  int        `json:"attemptsUsed"`  // attempts started in the current period
	MaxAttempts   int        `json:"maxAttempts"`
	PeriodDays    int        `json:"periodDays"`
	ExtraAttempts int        `json:"extraAttempts"` // unused attempts granted by an administrator
	UsesExtra     bool       `json:"usesExtra"`     // the next start uses an extra attempt
}

// Reasons a retake waits.
const (
	ReasonWait = "wait" // the wait after a failed attempt
	ReasonCap  = "cap"  // the attempts of the period are used up
)

// Check applies the rule to the member's earlier attempts (any order) with extra unused
// granted attempts. A start the rule refuses is allowed when an extra attempt is left.
func Check(r Rule, past []Past, extra int, now time.Time) Eligibility {
	e := Eligibility{MaxAttempts: r.MaxAttempts, PeriodDays: r.PeriodDays, ExtraAttempts: extra}
	var next time.Time
	if r.MaxAttempts > 0 && r.PeriodDays > 0 {
		period := time.Duration(r.PeriodDays) * 24 * time.Hour
		var in []time.Time
		for _, p := range past {
			if p.StartedAt.After(now.Add(-period)) {
				in = append(in, p.StartedAt)
			}
		}
		sort.Slice(in, func(i, j int) bool { return in[i].Before(in[j]) })
		e.AttemptsUsed = len(in)
		if len(in) >= r.MaxAttempts {
			next = in[len(in)-r.MaxAttempts].Add(period)
			e.Reason = ReasonCap
		}
	}
	if r.WaitHours > 0 {
		var last *Past
		for i := range past {
			p := &past[i]
			if p.SubmittedAt != nil && (last == nil || p.SubmittedAt.After(*last.SubmittedAt)) {
				last = p
			}
		}
		if last != nil && !last.Passed {
			if w := last.SubmittedAt.Add(time.Duration(r.WaitHours) * time.Hour); w.After(now) && w.After(next) {
				next = w
				e.Reason = ReasonWait
			}
		}
	}
	if !next.After(now) {
		e.CanStart, e.Reason = true, ""
		return e
	}
	next = next.UTC().Truncate(time.Second).Add(time.Second) // never earlier than the rule says
	e.NextAttemptAt = &next
	if extra > 0 {
		e.CanStart, e.UsesExtra = true, true
	}
	return e
}

// WhenText is a time as the messages show it: "2026-11-24 20:31 UTC".
func WhenText(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// RefusalMsg is the message of a refused start.
func RefusalMsg(e Eligibility) string {
	if e.NextAttemptAt == nil {
		return ""
	}
	if e.Reason == ReasonCap {
		return fmt.Sprintf("You have used all %d attempts allowed in %d days. Your next attempt opens at %s.", e.MaxAttempts, e.PeriodDays, WhenText(*e.NextAttemptAt))
	}
	return "You can retake this quiz at " + WhenText(*e.NextAttemptAt) + "."
}

// RuleText describes a retake rule for people ("Retake after 24 hours; at most 3 attempts
// in 30 days").
func RuleText(r Rule) string {
	parts := []string{}
	switch {
	case r.WaitHours <= 0:
		parts = append(parts, "Retake at once after a failed attempt")
	case r.WaitHours%24 == 0:
		parts = append(parts, fmt.Sprintf("Retake %s after a failed attempt", plural(r.WaitHours/24, "day")))
	default:
		parts = append(parts, fmt.Sprintf("Retake %s after a failed attempt", plural(r.WaitHours, "hour")))
	}
	if r.MaxAttempts > 0 && r.PeriodDays > 0 {
		parts = append(parts, fmt.Sprintf("at most %s in %s", plural(r.MaxAttempts, "attempt"), plural(r.PeriodDays, "day")))
	}
	return strings.Join(parts, "; ")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// NewLayout draws draw questions at random from the pool (all of them when draw is 0 or
// more than the pool) and orders them and their options for one attempt. perm(n) returns
// a permutation of 0..n-1 (rand.Perm in production; tests pass a fixed one).
func NewLayout(questions []model.Question, draw int, perm func(n int) []int) []model.AttemptItem {
	return NewLayoutFamilies(questions, nil, draw, perm)
}

// NewLayoutFamilies is NewLayout keeping at most one question of each family (family maps
// a question id to its family key; a question not in it is a family of its own): walking
// the random order, a question whose family is already on the form is passed over, so the
// form may be shorter than draw when the pool has fewer families.
func NewLayoutFamilies(questions []model.Question, family map[string]string, draw int, perm func(n int) []int) []model.AttemptItem {
	if perm == nil {
		perm = rand.Perm
	}
	order := perm(len(questions))
	n := DrawSize(draw, len(questions))
	items := make([]model.AttemptItem, 0, n)
	seen := map[string]bool{}
	for _, qi := range order {
		if len(items) == n {
			break
		}
		q := questions[qi]
		if f, ok := family[q.ID]; ok {
			if seen[f] {
				continue
			}
			seen[f] = true
		}
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

// GradeAnswers grades answers (question id -> chosen original option indexes) against the
// questions of layout: a question is right only when exactly its key was chosen. A
// question that no longer exists is left out of the total.
func GradeAnswers(layout []model.AttemptItem, questions map[string]*model.Question, answers map[string][]int, passingScore int) Grade {
	var g Grade
	for _, it := range layout {
		q, ok := questions[it.QuestionID]
		if !ok {
			continue
		}
		g.Total++
		if Right(q, answers[it.QuestionID]) {
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

// Topics is the result per topic, in the order topics first appear in the attempt. A
// topic asked once is left out: its line would tell whether that one answer was right.
func Topics(layout []model.AttemptItem, questions map[string]*model.Question, answers map[string][]int) []TopicScore {
	out := []TopicScore{}
	idx := map[string]int{}
	for _, it := range layout {
		q, ok := questions[it.QuestionID]
		if !ok {
			continue
		}
		t := TopicOf(q)
		i, ok := idx[t]
		if !ok {
			i = len(out)
			idx[t] = i
			out = append(out, TopicScore{Topic: t})
		}
		out[i].Total++
		if Right(q, answers[q.ID]) {
			out[i].Correct++
		}
	}
	kept := out[:0]
	for _, t := range out {
		if t.Total >= 2 {
			kept = append(kept, t)
		}
	}
	return kept
}

// TopicScore is the result for the questions of one topic.
type TopicScore struct {
	Topic   string `json:"topic"`
	Correct int    `json:"correct"`
	Total   int    `json:"total"`
}
