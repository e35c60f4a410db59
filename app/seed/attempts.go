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
		answers := make(map[string]int, len(form))
		for k, i := range form {
			q := questions[i]
			layout[k] = model.AttemptItem{QuestionID: q.ID, OptionOrder: r.Perm(len(q.Options))}
			if r.Float64() < 1/(1+math.Exp(-a[i]*(theta-b[i]))) {
				answers[q.ID] = q.CorrectIndex
			} else {
				answers[q.ID] = (q.CorrectIndex + 1 + r.IntN(len(q.Options)-1)) % len(q.Options)
			}
		}
		chosen := make(map[string][]int, len(answers))
		for id, v := range answers {
			chosen[id] = []int{v}
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
	}
	if _, err := tx.NewInsert().Model(&users).Exec(ctx); err != nil {
		return fmt.Errorf("seed demo candidates: %w", err)
	}
	if _, err := tx.NewInsert().Model(&attempts).Exec(ctx); err != nil {
		return fmt.Errorf("seed demo attempts: %w", err)
	}
	// each question asked, as the runner records it (the statistics read these rows)
	var rows []model.QuizResponse
	for n := range attempts {
		rows = append(rows, quizpkg.NewResponses(&attempts[n], byID)...)
	}
	if _, err := tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
		return fmt.Errorf("seed demo responses: %w", err)
	}
	return nil
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
