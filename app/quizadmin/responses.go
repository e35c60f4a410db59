package quizadmin

import (
	"context"

	"github.com/uptrace/bun"

	"meritmark/app/model"
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
