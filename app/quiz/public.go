package quiz

import (
	"context"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/db"
)

// Assessment is what the public badge page tells about a skill badge's quiz, so that
// anyone reading a credential can judge what it means: the pass mark, how many questions
// each attempt draws from how large a pool, the time limit, the retake rule, how many
// attempts pass and how many people hold the badge. Next is the signed-in viewer's own
// eligibility (nil for a visitor).
type Assessment struct {
	Title               string               `json:"title"`
	PassingScore        int                  `json:"passingScore"`
	PassMarkMethod      string               `json:"passMarkMethod"` // "" = a fixed percentage (model.Quiz.PassMarkMethod)
	PassMarkText        string               `json:"passMarkText"`   // model.PassMarkSentence
	QuestionsPerAttempt int                  `json:"questionsPerAttempt"`
	PoolSize            int                  `json:"poolSize"`
	Blueprint           []model.BlueprintRow `json:"blueprint"` // questions per topic on every form (empty: a random draw)
	TimeLimit           int                  `json:"timeLimit"`
	RetakeRule          RuleView             `json:"retakeRule"`
	Attempts            int                  `json:"attempts"`          // submitted attempts
	PassRate            *float64             `json:"passRate"`          // percent, 1 decimal; nil before any attempt
	Holders             int                  `json:"holders"`           // grants in force
	AnswersShown        bool                 `json:"answersShown"`      // always false: results never show the key
	Next                *Eligibility         `json:"viewerEligibility"` // the signed-in viewer's next attempt
}

// PublicAssessment describes the badge's active quiz (nil when it has none) for viewer
// (nil for a visitor).
func PublicAssessment(ctx context.Context, d bun.IDB, badgeID string, viewer *model.User, now time.Time) (*Assessment, error) {
	var st store
	qz, err := st.quizOfBadge(ctx, d, badgeID)
	if errors.Is(err, db.ErrNotFound) || (err == nil && !qz.IsActive) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var pool int
	if err := st.scan(ctx, d, sPoolSize, &pool, func(d bun.IDB) string {
		return d.NewSelect().Model((*model.QuizQuestion)(nil)).ColumnExpr("count(*)").
			Join("JOIN questions AS q ON q.id = quiz_question.question_id").
			Where("quiz_question.quiz_id = ? AND q.retired_at IS NULL", arg).String()
	}, qz.ID); err != nil {
		return nil, err
	}
	r := RuleOf(qz)
	bp := qz.Blueprint
	if bp == nil {
		bp = []model.BlueprintRow{}
	}
	a := &Assessment{Title: qz.Title, PassingScore: qz.PassingScore, PassMarkMethod: qz.PassMarkMethod,
		PassMarkText: model.PassMarkSentence(qz.PassingScore, qz.PassMarkMethod), QuestionsPerAttempt: FormSize(qz, pool),
		PoolSize: pool, Blueprint: bp, TimeLimit: qz.TimeLimit,
		RetakeRule: RuleView{WaitHours: r.WaitHours, MaxAttempts: r.MaxAttempts, PeriodDays: r.PeriodDays, Text: RuleText(r)}}
	var counts struct {
		Total  int `bun:"total"`
		Passed int `bun:"passed"`
	}
	if err := st.scan(ctx, d, sAttemptCounts, &counts, func(d bun.IDB) string {
		return d.NewSelect().Model((*model.QuizAttempt)(nil)).
			ColumnExpr("COUNT(*) AS total").ColumnExpr("COALESCE(SUM(CASE WHEN passed THEN 1 ELSE 0 END), 0) AS passed").
			Where("quiz_id = ? AND submitted_at IS NOT NULL", arg).String()
	}, qz.ID); err != nil {
		return nil, err
	}
	a.Attempts = counts.Total
	if counts.Total > 0 {
		pr := float64(int(float64(counts.Passed)*1000/float64(counts.Total)+0.5)) / 10
		a.PassRate = &pr
	}
	if err := st.scan(ctx, d, sHolders, &a.Holders, func(d bun.IDB) string {
		return d.NewSelect().Model((*model.BadgeGrant)(nil)).ColumnExpr("count(*)").
			Where("badge_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)", arg, arg).String()
	}, badgeID, db.TimeArg(d, now)); err != nil {
		return nil, err
	}
	if viewer != nil {
		e, err := st.eligible(ctx, d, qz, viewer.ID, now)
		if err != nil {
			return nil, err
		}
		a.Next = &e
	}
	return a, nil
}
