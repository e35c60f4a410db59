package seed

import (
	"context"
	crand "crypto/rand"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/auth"
	"meritmark/app/model"
	quizpkg "meritmark/app/quiz"
)

// Simulated attempts: demo data so that the public technical report of one skill badge
// (/badges/{id}/assessment) shows every figure on a fresh install. Candidates are
// simulated from a two-parameter logistic item response model,
//
//	P(right | θ) = 1 / (1 + exp(-a (θ - b))),
//
// with abilities θ drawn from N(0, 1), each item's difficulty b set from its label
// (easy -1, medium 0, hard +1) and its discrimination a drawn in [0.9, 2.1], all from a
// fixed random seed so that the figures are the same on every install. The candidates
// are users named "Demo candidate N" at model.DemoEmailDomain, which nobody can sign in
// as (their password is random and forgotten) and no mail reaches.

// DemoAttemptsBadge is the skill badge whose quiz gets the simulated attempts.
const DemoAttemptsBadge = "SQL Data Analyst"

// DemoCandidates is the number of simulated candidates, one submitted attempt each.
const DemoCandidates = 120

// demoSeed fixes the simulation.
const demoSeed = 20261125

var labelDifficulty = map[string]float64{"easy": -1, "medium": 0, "hard": 1}

// seedAttempts inserts DemoCandidates demo users and one submitted attempt each at quiz
// qz, whose pool is questions (family links already set), ending before now.
func seedAttempts(ctx context.Context, tx bun.Tx, qz *model.Quiz, questions []*model.Question, now time.Time) error {
	r := rand.New(rand.NewPCG(demoSeed, 1))
	a := make([]float64, len(questions))
	b := make([]float64, len(questions))
	byID := make(map[string]*model.Question, len(questions))
	for i, q := range questions {
		a[i] = 0.9 + 1.2*r.Float64()
		b[i] = labelDifficulty[q.Difficulty]
		byID[q.ID] = q
	}
	hash, err := auth.HashPassword(crand.Text())
	if err != nil {
		return err
	}
	users := make([]model.User, DemoCandidates)
	attempts := make([]model.QuizAttempt, DemoCandidates)
	var responses []model.QuizResponse
	first := now.Add(-time.Duration(DemoCandidates+1) * 9 * time.Hour)
	for n := range DemoCandidates {
		joined := first.Add(time.Duration(n) * 9 * time.Hour)
		users[n] = model.User{ID: model.NewID(), Name: fmt.Sprintf("Demo candidate %d", n+1),
			Email: fmt.Sprintf("demo-candidate-%03d@%s", n+1, model.DemoEmailDomain),
			Role:  model.RoleUser, PasswordHash: hash, Skills: []string{}, Position: "Simulated candidate (demo data)",
			CreatedAt: joined, UpdatedAt: joined}
		theta := r.NormFloat64()
		form := drawForm(r, qz, questions)
		layout := make([]model.AttemptItem, len(form))
		chosen := make(map[string][]int, len(form))
		answers := make(map[string]int, len(form))
		for k, i := range form {
			q := questions[i]
			layout[k] = model.AttemptItem{QuestionID: q.ID, OptionOrder: r.Perm(len(q.Options))}
			chosen[q.ID] = simulatedChoice(r, q, r.Float64() < 1/(1+math.Exp(-a[i]*(theta-b[i]))))
			if !q.Multiple() {
				answers[q.ID] = chosen[q.ID][0]
			}
		}
		g := quizpkg.GradeAnswers(layout, byID, chosen, qz.PassingScore)
		started := joined.Add(time.Hour)
		// abler candidates tend to finish sooner: 3 to 13 minutes
		spent := time.Duration(480-90*theta+60*r.NormFloat64()) * time.Second
		spent = min(max(spent, 3*time.Minute), 13*time.Minute)
		submitted := started.Add(spent)
		attempts[n] = model.QuizAttempt{ID: model.NewID(), UserID: users[n].ID, QuizID: qz.ID, BadgeID: qz.BadgeID,
			Layout: layout, Answers: answers, StartedAt: started, Deadline: started.Add(time.Duration(qz.TimeLimit) * time.Minute),
			SubmittedAt: &submitted, CorrectCount: g.Correct, Total: g.Total, Score: g.Score,
			PassingScore: qz.PassingScore, Passed: g.Passed}
		// each question asked, as the runner records it (the statistics read these rows)
		responses = append(responses, simulatedResponses(r, &attempts[n], byID, chosen, spent)...)
	}
	if _, err := tx.NewInsert().Model(&users).Exec(ctx); err != nil {
		return fmt.Errorf("seed demo candidates: %w", err)
	}
	if _, err := tx.NewInsert().Model(&attempts).Exec(ctx); err != nil {
		return fmt.Errorf("seed demo attempts: %w", err)
	}
	if _, err := tx.NewInsert().Model(&responses).Exec(ctx); err != nil {
		return fmt.Errorf("seed demo responses: %w", err)
	}
	return nil
}

// simulatedChoice is a candidate's answer to q: the key when right; when wrong, another
// option (single choice) or the key with one option too many or too few (multiple
// response).
func simulatedChoice(r *rand.Rand, q *model.Question, right bool) []int {
	if !q.Multiple() {
		if right {
			return []int{q.CorrectIndex}
		}
		return []int{(q.CorrectIndex + 1 + r.IntN(len(q.Options)-1)) % len(q.Options)}
	}
	set := map[int]bool{}
	for _, i := range q.CorrectIndexes {
		set[i] = true
	}
	if !right {
		for {
			flip := r.IntN(len(q.Options))
			if set[flip] && len(set) == 1 {
				continue // never an empty answer
			}
			set[flip] = !set[flip]
			break
		}
	}
	var out []int
	for i := range q.Options {
		if set[i] {
			out = append(out, i)
		}
	}
	return out
}

// simulatedResponses are the attempt's response rows with the simulated choices and the
// time spent shared out over its items in the order asked (about one in ten answers
// changed once).
func simulatedResponses(r *rand.Rand, a *model.QuizAttempt, byID map[string]*model.Question, chosen map[string][]int, spent time.Duration) []model.QuizResponse {
	rows := quizpkg.NewResponses(a, byID)
	weights := make([]float64, len(rows))
	total := 0.0
	for i := range rows {
		weights[i] = 0.5 + r.Float64()
		total += weights[i]
	}
	at := a.StartedAt
	for i := range rows {
		row := &rows[i]
		row.Chosen = chosen[row.QuestionID]
		row.Correct = quizpkg.Right(byID[row.QuestionID], row.Chosen)
		took := time.Duration(float64(spent) * weights[i] / total).Truncate(time.Millisecond)
		first := at.Add(took * 3 / 4)
		at = at.Add(took)
		last := at
		row.FirstAnsweredAt, row.LastAnsweredAt, row.TimeMs = &first, &last, took.Milliseconds()
		if r.IntN(10) == 0 {
			row.Changes = 1
		}
	}
	return rows
}

// drawForm picks a form of the quiz's questions (indexes into questions): the blueprint's
// count of each topic, or QuestionsPerAttempt at random, never two of one family.
func drawForm(r *rand.Rand, qz *model.Quiz, questions []*model.Question) []int {
	family := func(i int) string {
		if f := questions[i].FamilyOf; f != nil {
			return *f
		}
		return questions[i].ID
	}
	used := map[string]bool{}
	var form []int
	take := func(want int, fits func(i int) bool) {
		for _, i := range r.Perm(len(questions)) {
			if want == 0 {
				return
			}
			if f := family(i); fits(i) && !used[f] {
				used[f] = true
				form = append(form, i)
				want--
			}
		}
	}
	if len(qz.Blueprint) == 0 {
		take(qz.QuestionsPerAttempt, func(int) bool { return true })
		return form
	}
	for _, row := range qz.Blueprint {
		take(row.Count, func(i int) bool { return strings.EqualFold(quizpkg.TopicOf(questions[i]), row.Topic) })
	}
	return form
}
