package quizadmin

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/quiz"
)

// analysisQuiz is what the item analysis needs of a quiz: its title, its badge's name and
// its questions (ids and texts) in their order; none of the draw's figures.
func analysisQuiz(ctx context.Context, d bun.IDB, quizID string) (*QuizView, error) {
	qz := new(model.Quiz)
	if err := d.NewSelect().Model(qz).Column("id", "title", "badge_id").Where("id = ?", quizID).Limit(1).Scan(ctx); err != nil {
		return nil, err
	}
	v := &QuizView{ID: qz.ID, Title: qz.Title}
	if err := d.NewSelect().Model((*model.Badge)(nil)).Column("name").Where("id = ?", qz.BadgeID).Limit(1).Scan(ctx, &v.Badge.Name); err != nil {
		return nil, err
	}
	var qs []model.Question
	if err := d.NewSelect().Model(&qs).Column("question.id", "question.text").
		Join("JOIN quiz_questions AS qq ON qq.question_id = question.id").
		Where("qq.quiz_id = ?", quizID).OrderExpr("qq.position ASC, question.id ASC").Scan(ctx); err != nil {
		return nil, err
	}
	for _, q := range qs {
		v.Questions = append(v.Questions, QuestionView{ID: q.ID, Text: q.Text})
	}
	return v, nil
}

// sittingsOf reads the quiz's submitted attempts, in the order they were submitted, with
// each one's recorded responses (quiz_responses: every question asked, right or wrong),
// and the ids of the questions asked in the order first met. Two queries, whatever the
// number of attempts.
func sittingsOf(ctx context.Context, d bun.IDB, quizID string) ([]Sitting, []string, error) {
	var attempts []struct {
		ID           string     `bun:"id"`
		Score        float64    `bun:"score"`
		Passed       bool       `bun:"passed"`
		PassingScore int        `bun:"passing_score"`
		StartedAt    time.Time  `bun:"started_at"`
		Deadline     time.Time  `bun:"deadline"`
		SubmittedAt  *time.Time `bun:"submitted_at"`
	}
	if err := d.NewSelect().Model((*model.QuizAttempt)(nil)).
		Column("id", "score", "passed", "passing_score", "started_at", "deadline", "submitted_at").
		Where("quiz_id = ? AND submitted_at IS NOT NULL", quizID).
		Order("submitted_at", "id").Scan(ctx, &attempts); err != nil {
		return nil, nil, err
	}
	sittings := make([]Sitting, len(attempts))
	at := make(map[string]int, len(attempts))
	for i, a := range attempts {
		t := model.QuizAttempt{StartedAt: a.StartedAt, Deadline: a.Deadline, SubmittedAt: a.SubmittedAt}
		sittings[i] = Sitting{Score: a.Score, Passed: a.Passed, PassingScore: a.PassingScore, TimeSpent: quiz.TimeSpent(&t), Items: map[string]bool{}}
		at[a.ID] = i
	}
	if len(attempts) == 0 {
		return sittings, nil, nil
	}
	// the quiz's rows (running attempts' too: they are not in at) from the covering index
	rows, err := d.QueryContext(ctx, d.NewSelect().TableExpr("quiz_responses").
		Column("attempt_id", "question_id", "correct").Where("quiz_id = ?", quizID).String())
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	first := map[string]int{} // question id -> the first sitting that asked it
	var attemptID, questionID string
	var correct bool
	for rows.Next() {
		if err := rows.Scan(&attemptID, &questionID, &correct); err != nil {
			return nil, nil, err
		}
		i, ok := at[attemptID]
		if !ok {
			continue // running, or submitted after the attempts were read
		}
		sittings[i].Items[questionID] = correct
		if f, ok := first[questionID]; !ok || i < f {
			first[questionID] = i
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	asked := make([]string, 0, len(first))
	for id := range first {
		asked = append(asked, id)
	}
	slices.SortFunc(asked, func(a, b string) int { return cmp.Or(cmp.Compare(first[a], first[b]), cmp.Compare(a, b)) })
	return sittings, asked, nil
}
