package quiz

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// MsgNoForm refuses a start when the pool can no longer meet the quiz's rules (the
// administrator's checks keep this from happening; it guards against what slips past).
const MsgNoForm = "This quiz cannot draw a fair form right now. Please try again later or contact support."

// ItemStat is how often an item was asked in submitted attempts and answered right.
type ItemStat struct {
	Answered int `json:"answered"`
	Correct  int `json:"correct"`
}

// Pool is a quiz's pool as the draw and the administrators see it, loaded from the
// database: the questions (position order, retired ones included), their estimates, the
// exposure over the last forms drawn and the family keys.
type Pool struct {
	Questions []model.Question
	Active    []model.Question // not retired
	Items     []Item           // the active questions as the draw sees them
	Stats     map[string]ItemStat
	P         map[string]float64 // estimate per question
	Exposure  map[string]int     // forms among the last ExposureWindow-1 that held the question
	Forms     int                // forms counted in Exposure
	Family    map[string]string  // question id -> family key (its root)
	Target    float64            // the quiz's target, or the pool's mean
	PoolMean  float64
}

// LoadPool loads qz's pool.
func LoadPool(ctx context.Context, d bun.IDB, qz *model.Quiz) (*Pool, error) {
	var st store
	qs, err := st.quizQuestions(ctx, d, qz.ID)
	if err != nil {
		return nil, err
	}
	p := &Pool{Questions: qs, Stats: map[string]ItemStat{}, P: map[string]float64{}, Exposure: map[string]int{}, Family: map[string]string{}}
	var links []struct {
		ID       string `bun:"id"`
		FamilyOf string `bun:"family_of"`
	}
	if err := d.NewSelect().Model((*model.Question)(nil)).Column("id", "family_of").Where("family_of IS NOT NULL").Scan(ctx, &links); err != nil {
		return nil, err
	}
	lm := make(map[string]string, len(links))
	for _, l := range links {
		lm[l.ID] = l.FamilyOf
	}
	// asked and answered right in submitted attempts, from the recorded responses
	var counts []struct {
		QuestionID string `bun:"question_id"`
		Asked      int    `bun:"asked"`
		Right      int    `bun:"right_count"`
	}
	if err := d.NewSelect().TableExpr("quiz_responses AS r").
		ColumnExpr("r.question_id, COUNT(*) AS asked, SUM(CASE WHEN r.correct THEN 1 ELSE 0 END) AS right_count").
		Join("JOIN quiz_attempts AS a ON a.id = r.attempt_id").
		Where("a.quiz_id = ? AND a.submitted_at IS NOT NULL", qz.ID).
		GroupExpr("r.question_id").Scan(ctx, &counts); err != nil {
		return nil, err
	}
	inPool := map[string]bool{}
	for i := range qs {
		inPool[qs[i].ID] = true
	}
	for _, c := range counts {
		if inPool[c.QuestionID] {
			p.Stats[c.QuestionID] = ItemStat{Answered: c.Asked, Correct: c.Right}
		}
	}
	var recent []model.QuizAttempt
	if err := d.NewSelect().Model(&recent).Column("layout").Where("quiz_id = ?", qz.ID).
		OrderExpr("started_at DESC, id DESC").Limit(ExposureWindow - 1).Scan(ctx); err != nil {
		return nil, err
	}
	p.Forms = len(recent)
	for _, a := range recent {
		for _, it := range a.Layout {
			p.Exposure[it.QuestionID]++
		}
	}
	for _, q := range qs {
		s := p.Stats[q.ID]
		p.P[q.ID] = EstimateP(q.Difficulty, s.Answered, s.Correct)
		p.Family[q.ID] = FamilyRoot(lm, q.ID)
		if q.RetiredAt != nil {
			continue
		}
		p.Active = append(p.Active, q)
		p.Items = append(p.Items, Item{ID: q.ID, Topic: TopicOf(&q), Family: p.Family[q.ID], P: p.P[q.ID], Exposure: p.Exposure[q.ID]})
	}
	p.PoolMean = PoolMean(p.Items, qz.Blueprint)
	p.Target = p.PoolMean
	if qz.TargetDifficulty != nil {
		p.Target = *qz.TargetDifficulty
	}
	return p, nil
}

// FormSize is how many questions an attempt at qz asks with active questions in the pool.
func FormSize(qz *model.Quiz, active int) int {
	if len(qz.Blueprint) > 0 {
		return BlueprintTotal(qz.Blueprint)
	}
	return DrawSize(qz.QuestionsPerAttempt, active)
}

// drawLayout draws the layout of a new attempt of userID at qz: the balanced form of its
// blueprint, or (empty blueprint) questions per attempt at random from the active pool,
// one per family. A blueprint form avoids the questions of the user's last attempt, whose
// id it returns as after ("" for none, or for a quiz without a blueprint).
func (s *Service) drawLayout(ctx context.Context, d bun.IDB, qz *model.Quiz, userID string) (layout []model.AttemptItem, after string, err error) {
	p, err := LoadPool(ctx, d, qz)
	if err != nil {
		return nil, "", err
	}
	if len(p.Active) == 0 {
		return nil, "", web.Conflict(MsgNoQuestions)
	}
	if len(qz.Blueprint) == 0 {
		return NewLayoutFamilies(p.Active, p.Family, qz.QuestionsPerAttempt, s.Perm), "", nil
	}
	last, err := s.st.lastAttempt(ctx, d, userID, qz.ID, "id", "layout")
	if err != nil {
		return nil, "", err
	}
	prev := map[string]bool{}
	for _, it := range last.Layout {
		prev[it.QuestionID] = true
	}
	r := s.Rand
	if r == nil {
		r = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	f, err := Draw(p.Items, Spec{Blueprint: qz.Blueprint, Target: p.Target, Cap: CapCount(ExposureRate(qz)), Previous: prev}, r)
	if err != nil {
		return nil, "", web.Conflict(MsgNoForm)
	}
	options := map[string]int{}
	for _, q := range p.Active {
		options[q.ID] = len(q.Options)
	}
	return FormLayout(f, options, s.Perm), last.ID, nil
}

// lastAttempt is the user's latest attempt at quiz (columns only), the zero attempt when
// there is none.
func (store) lastAttempt(ctx context.Context, d bun.IDB, userID, quizID string, columns ...string) (*model.QuizAttempt, error) {
	last := new(model.QuizAttempt)
	err := d.NewSelect().Model(last).Column(columns...).Where("user_id = ? AND quiz_id = ?", userID, quizID).
		OrderExpr("started_at DESC, id DESC").Limit(1).Scan(ctx)
	if err := notFound(err); err != nil && !errors.Is(err, db.ErrNotFound) {
		return nil, err
	}
	return last, nil
}
