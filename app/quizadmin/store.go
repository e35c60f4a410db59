package quizadmin

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/admin"
	"meritmark/app/model"
	"meritmark/app/quiz"
)

// QuestionView is a question as the admin API answers it (with the correct answer: this
// API is for administrators only).
type QuestionView struct {
	ID           string   `json:"_id"`
	Text         string   `json:"text"`
	Options      []string `json:"options"`
	CorrectIndex int      `json:"correctIndex"`
	// Type is "single" or "multiple"; CorrectIndexes is the key of a multiple-response
	// question (the correct options' positions, ascending; [correctIndex] for single
	// choice); ShowCount: the question tells the member how many to pick.
	Type           string    `json:"type"`
	CorrectIndexes []int     `json:"correctIndexes"`
	ShowCount      bool      `json:"showCount"`
	Difficulty     string    `json:"difficulty"`
	Explanation    string    `json:"explanation"`
	Topic          string    `json:"topic"`
	Category       string    `json:"category"`
	CreatedAt      time.Time `json:"createdAt"`
	// FamilyOf is the question this one is a variant or an enemy of; Family is the family's
	// key (its root question id; "" when the question is linked to none and none to it).
	FamilyOf  *string    `json:"familyOf"`
	Family    string     `json:"family"`
	Retired   bool       `json:"retired"`
	RetiredAt *time.Time `json:"retiredAt"`
	// Quizzes using the question (bank listing only).
	Quizzes []QuizRef `json:"quizzes"`
	// Form is the question's draw figures in this quiz (quiz views only).
	Form *ItemForm `json:"form,omitempty"`
}

// ItemForm is a pool question's figures as the draw uses them: how many of the last forms
// drawn held it (Exposure of ExposureForms; ExposureRate in percent), how often it was
// asked in submitted attempts and its difficulty estimate.
type ItemForm struct {
	Exposure     int     `json:"exposure"`
	ExposureRate float64 `json:"exposureRate"`
	AtCap        bool    `json:"atCap"`
	Answered     int     `json:"answered"`
	Estimate     float64 `json:"estimate"`
	FromData     bool    `json:"estimateFromData"` // the estimate is its proportion correct (else its label)
}

// TopicView is one topic of a quiz's pool beside its blueprint row.
type TopicView struct {
	Topic     string `json:"topic"`
	Active    int    `json:"active"`
	Retired   int    `json:"retired"`
	Families  int    `json:"families"`  // distinct families among the active questions
	Count     int    `json:"count"`     // the blueprint's count (0: not in the blueprint)
	Shortfall int    `json:"shortfall"` // questions (of distinct families) missing to fill the count
}

// QuizRef names a quiz a question is in.
type QuizRef struct {
	ID        string `json:"_id"`
	Title     string `json:"title"`
	BadgeName string `json:"badgeName"`
}

// BadgeRef is a quiz's badge.
type BadgeRef struct {
	ID       string `json:"_id"`
	Name     string `json:"name"`
	Category string `json:"category"`
	Type     string `json:"type"`
	IsActive bool   `json:"isActive"`
}

// QuizView is a quiz with its badge and questions in order (spec section 3).
type QuizView struct {
	ID            string         `json:"_id"`
	Title         string         `json:"title"`
	Description   string         `json:"description"`
	PassingScore  int            `json:"passingScore"`
	TimeLimit     int            `json:"timeLimit"`
	IsActive      bool           `json:"isActive"`
	CreatedAt     time.Time      `json:"createdAt"`
	Badge         BadgeRef       `json:"badge"`
	Questions     []QuestionView `json:"questions"`
	QuestionCount int            `json:"questionCount"`
	// the pool (QuestionCount questions), the draw per attempt (0 = the whole pool) and
	// the retake rule
	QuestionsPerAttempt int    `json:"questionsPerAttempt"`
	DrawSize            int    `json:"drawSize"`
	RetakeWaitHours     int    `json:"retakeWaitHours"`
	MaxAttempts         int    `json:"maxAttempts"`
	AttemptPeriodDays   int    `json:"attemptPeriodDays"`
	RetakeRule          string `json:"retakeRule"`
	// Forms: the blueprint (empty = the questions-per-attempt draw), the target difficulty
	// set by an administrator (nil = the pool's mean) and the one in force, the exposure cap
	// (percent of the last ExposureForms forms), the pool per topic, the active questions,
	// and why the pool cannot draw a form now ("" when it can).
	Blueprint        []model.BlueprintRow `json:"blueprint"`
	TargetDifficulty *float64             `json:"targetDifficulty"`
	Target           float64              `json:"target"`
	PoolMean         float64              `json:"poolMean"`
	MaxExposure      int                  `json:"maxExposure"`
	MinItemSeconds   int                  `json:"minItemSeconds"` // integrity speed floor (0 = off)
	ExposureForms    int                  `json:"exposureForms"`
	ActiveCount      int                  `json:"activeCount"`
	Topics           []TopicView          `json:"topics"`
	DrawProblem      string               `json:"drawProblem"`
}

func questionView(q model.Question) QuestionView {
	opts := q.Options
	if opts == nil {
		opts = []string{}
	}
	typ := model.QuestionSingle
	if q.Multiple() {
		typ = model.QuestionMultiple
	}
	return QuestionView{ID: q.ID, Text: q.Text, Options: opts, CorrectIndex: q.CorrectIndex, Difficulty: q.Difficulty,
		Type: typ, CorrectIndexes: append([]int{}, q.Key()...), ShowCount: q.ShowCount && q.Multiple(),
		Explanation: q.Explanation, Topic: q.Topic, Category: q.Category, CreatedAt: q.CreatedAt,
		FamilyOf: q.FamilyOf, Retired: q.RetiredAt != nil, RetiredAt: q.RetiredAt}
}

// quizViews loads quizzes (all when ids is nil, newest first) with badges and questions.
func quizViews(ctx context.Context, db bun.IDB, ids []string) ([]QuizView, error) {
	var quizzes []model.Quiz
	q := db.NewSelect().Model(&quizzes).Order("created_at DESC", "id DESC")
	if ids != nil {
		if len(ids) == 0 {
			return []QuizView{}, nil
		}
		q = q.Where("id IN (?)", bun.List(ids))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	out := make([]QuizView, 0, len(quizzes))
	if len(quizzes) == 0 {
		return out, nil
	}
	quizIDs := make([]string, len(quizzes))
	badgeIDs := make([]string, len(quizzes))
	for i, qz := range quizzes {
		quizIDs[i], badgeIDs[i] = qz.ID, qz.BadgeID
	}
	var badges []model.Badge
	if err := db.NewSelect().Model(&badges).Column("id", "name", "category", "type", "is_active").Where("id IN (?)", bun.List(badgeIDs)).Scan(ctx); err != nil {
		return nil, err
	}
	badgeByID := map[string]BadgeRef{}
	for _, b := range badges {
		badgeByID[b.ID] = BadgeRef{ID: b.ID, Name: b.Name, Category: b.Category, Type: b.Type, IsActive: b.IsActive}
	}
	var links []model.QuizQuestion
	if err := db.NewSelect().Model(&links).Where("quiz_id IN (?)", bun.List(quizIDs)).Order("quiz_id", "position", "question_id").Scan(ctx); err != nil {
		return nil, err
	}
	questionByID := map[string]QuestionView{}
	if len(links) > 0 {
		qids := make([]string, 0, len(links))
		for _, l := range links {
			qids = append(qids, l.QuestionID)
		}
		var questions []model.Question
		if err := db.NewSelect().Model(&questions).Where("id IN (?)", bun.List(qids)).Scan(ctx); err != nil {
			return nil, err
		}
		for _, qq := range questions {
			questionByID[qq.ID] = questionView(qq)
		}
	}
	byQuiz := map[string][]QuestionView{}
	for _, l := range links {
		if qv, ok := questionByID[l.QuestionID]; ok {
			byQuiz[l.QuizID] = append(byQuiz[l.QuizID], qv)
		}
	}
	famLinks, err := familyLinks(ctx, db)
	if err != nil {
		return nil, err
	}
	for _, qz := range quizzes {
		qs := byQuiz[qz.ID]
		if qs == nil {
			qs = []QuestionView{}
		}
		v := QuizView{ID: qz.ID, Title: qz.Title, Description: qz.Description, PassingScore: qz.PassingScore,
			TimeLimit: qz.TimeLimit, IsActive: qz.IsActive, CreatedAt: qz.CreatedAt, Badge: badgeByID[qz.BadgeID],
			Questions: qs, QuestionCount: len(qs), QuestionsPerAttempt: qz.QuestionsPerAttempt,
			RetakeWaitHours: qz.RetakeWaitHours,
			MaxAttempts:     qz.MaxAttempts, AttemptPeriodDays: qz.AttemptPeriodDays, RetakeRule: quiz.RuleText(quiz.RuleOf(&qz))}
		if err := formView(ctx, db, &qz, &v, famLinks); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func quizView(ctx context.Context, db bun.IDB, id string) (*QuizView, error) {
	vs, err := quizViews(ctx, db, []string{id})
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, sql.ErrNoRows
	}
	return &vs[0], nil
}

// questionViews loads the bank (newest first) as the filter narrows it (see BankFilter;
// the zero filter: the whole bank), optionally only the questions ids, each with the
// quizzes using it.
func questionViews(ctx context.Context, db bun.IDB, f BankFilter, ids []string) ([]QuestionView, error) {
	var questions []model.Question
	q := f.apply(db.NewSelect().Model(&questions)).OrderExpr(bankOrder(admin.Sort{}))
	if ids != nil {
		if len(ids) == 0 {
			return []QuestionView{}, nil
		}
		q = q.Where("id IN (?)", bun.List(ids))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	return viewsOf(ctx, db, questions)
}

// viewsOf answers questions as the bank shows them, in their order, each with its family
// and the quizzes using it.
func viewsOf(ctx context.Context, db bun.IDB, questions []model.Question) ([]QuestionView, error) {
	out := make([]QuestionView, 0, len(questions))
	if len(questions) == 0 {
		return out, nil
	}
	qids := make([]string, len(questions))
	for i, qq := range questions {
		qids[i] = qq.ID
	}
	var refs []struct {
		QuestionID string `bun:"question_id"`
		QuizID     string `bun:"quiz_id"`
		Title      string `bun:"title"`
		BadgeName  string `bun:"badge_name"`
	}
	if err := db.NewRaw(`SELECT qq.question_id, q.id AS quiz_id, q.title, b.name AS badge_name
		FROM quiz_questions qq JOIN quizzes q ON q.id = qq.quiz_id JOIN badges b ON b.id = q.badge_id
		WHERE qq.question_id IN (?) ORDER BY b.name`, bun.List(qids)).Scan(ctx, &refs); err != nil {
		return nil, err
	}
	used := map[string][]QuizRef{}
	for _, r := range refs {
		used[r.QuestionID] = append(used[r.QuestionID], QuizRef{ID: r.QuizID, Title: r.Title, BadgeName: r.BadgeName})
	}
	links, err := familyLinks(ctx, db)
	if err != nil {
		return nil, err
	}
	for _, qq := range questions {
		v := questionView(qq)
		v.Family = familyKey(links, qq.ID)
		v.Quizzes = used[qq.ID]
		if v.Quizzes == nil {
			v.Quizzes = []QuizRef{}
		}
		out = append(out, v)
	}
	return out, nil
}

func questionViewByID(ctx context.Context, db bun.IDB, id string) (*QuestionView, error) {
	vs, err := questionViews(ctx, db, BankFilter{}, []string{id})
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, sql.ErrNoRows
	}
	return &vs[0], nil
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
