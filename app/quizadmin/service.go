package quizadmin

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/events"
	"meritmark/app/model"
	quizpkg "meritmark/app/quiz"
	"meritmark/app/web"
	"meritmark/db"
)

// Service runs the quiz and question bank use cases; each change is one transaction with
// its audit entry.
type Service struct {
	DB     *bun.DB
	Events *events.Bus // catalogue changes are recorded as events.QuizChanged
}

// changed audits a catalogue change and records it (quiz.changed) in the same
// transaction: the subscribers (the catalogue's cached pages, webhooks) follow from it.
func (s *Service) changed(ctx context.Context, tx bun.IDB, actor *model.User, action, targetType, targetID string, before, after any) error {
	if err := audit.Write(ctx, tx, actor, action, targetType, targetID, before, after); err != nil {
		return err
	}
	return s.Events.Record(ctx, tx, events.QuizChanged, targetType, targetID, map[string]string{"action": action, "id": targetID})
}

// Quizzes answers every quiz with its badge and questions.
func (s *Service) Quizzes(ctx context.Context) ([]QuizView, error) { return quizViews(ctx, s.DB, nil) }

// Questions answers the bank as the filter shows it (search over text, category and
// topic), newest first.
func (s *Service) Questions(ctx context.Context, f BankFilter) ([]QuestionView, error) {
	return questionViews(ctx, s.DB, f, nil)
}

// CreateQuiz gives a skill badge its quiz (one per badge).
func (s *Service) CreateQuiz(ctx context.Context, actor *model.User, badgeID string, in QuizInput) (*QuizView, error) {
	var out *QuizView
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		badge := new(model.Badge)
		if err := tx.NewSelect().Model(badge).Where("id = ?", badgeID).Scan(ctx); err != nil {
			if isNoRows(err) {
				return web.NotFound(MsgBadgeNotFound)
			}
			return err
		}
		if badge.Type != model.TypeSkill {
			return web.Unprocessable(MsgNotSkillBadge)
		}
		exists, err := tx.NewSelect().Model((*model.Quiz)(nil)).Where("badge_id = ?", badgeID).Exists(ctx)
		if err != nil {
			return err
		}
		if exists {
			return web.Conflict(MsgQuizExists)
		}
		f, msg := NormalizeQuiz(in, badge.Name)
		if msg != "" {
			return web.BadRequest(msg)
		}
		if f.QuestionsPerAttempt > 0 {
			return web.BadRequest(fmt.Sprintf(MsgDrawOverPool, f.QuestionsPerAttempt, 0))
		}
		quiz := &model.Quiz{ID: model.NewID(), BadgeID: badgeID, Title: f.Title, Description: f.Description,
			PassingScore: f.PassingScore, TimeLimit: f.TimeLimit, IsActive: true, CreatedAt: model.Now(),
			QuestionsPerAttempt: f.QuestionsPerAttempt, RetakeWaitHours: f.RetakeWaitHours, MaxAttempts: f.MaxAttempts,
			AttemptPeriodDays: f.AttemptPeriodDays, MaxExposure: quizpkg.DefaultMaxExposure, Blueprint: []model.BlueprintRow{}}
		if err := formSettings(ctx, tx, quiz, in); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(quiz).Exec(ctx); err != nil {
			if db.IsUniqueViolation(err) {
				return web.Conflict(MsgQuizExists)
			}
			return err
		}
		if out, err = quizView(ctx, tx, quiz.ID); err != nil {
			return err
		}
		return s.changed(ctx, tx, actor, "quiz.create", "quiz", quiz.ID, nil, quizAudit(out))
	})
	return out, err
}

// ToggleQuiz activates or deactivates a quiz.
func (s *Service) ToggleQuiz(ctx context.Context, actor *model.User, id string) (*QuizView, error) {
	var out *QuizView
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		before, err := quizView(ctx, tx, id)
		if isNoRows(err) {
			return web.NotFound(MsgQuizNotFound)
		}
		if err != nil {
			return err
		}
		if before.IsActive && before.Badge.IsActive {
			return web.Conflict(fmt.Sprintf(MsgQuizOffActive, before.Badge.Name))
		}
		if _, err := tx.NewUpdate().Model((*model.Quiz)(nil)).Set("is_active = ?", !before.IsActive).Where("id = ?", id).Exec(ctx); err != nil {
			return err
		}
		if out, err = quizView(ctx, tx, id); err != nil {
			return err
		}
		return s.changed(ctx, tx, actor, "quiz.toggle", "quiz", id, quizAudit(before), quizAudit(out))
	})
	return out, err
}

// CreateQuestion adds a question to the bank and, with a quiz id, to that quiz at the end
// (topic and category then default to the quiz's badge name and category).
func (s *Service) CreateQuestion(ctx context.Context, actor *model.User, in QuestionInput) (*QuestionView, *QuizView, error) {
	var out *QuestionView
	var quizOut *QuizView
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		defTopic, defCategory := "", DefaultCategory
		var quiz *model.Quiz
		if in.QuizID != nil && *in.QuizID != "" {
			quiz = new(model.Quiz)
			if !model.ValidID(*in.QuizID) {
				return web.NotFound(MsgQuizNotFound)
			}
			if err := tx.NewSelect().Model(quiz).Where("id = ?", *in.QuizID).Scan(ctx); err != nil {
				if isNoRows(err) {
					return web.NotFound(MsgQuizNotFound)
				}
				return err
			}
			badge := new(model.Badge)
			if err := tx.NewSelect().Model(badge).Column("name", "category").Where("id = ?", quiz.BadgeID).Scan(ctx); err != nil {
				return err
			}
			defTopic, defCategory = badge.Name, badge.Category
		}
		f, msg := NormalizeQuestion(in, defTopic, defCategory)
		if msg != "" {
			return web.BadRequest(msg)
		}
		q := &model.Question{ID: model.NewID(), Text: f.Text, Options: f.Options, CorrectIndex: f.CorrectIndex, Difficulty: f.Difficulty,
			Explanation: f.Explanation, Topic: f.Topic, Category: f.Category, CreatedAt: model.Now(),
			Type: f.Type, CorrectIndexes: f.CorrectIndexes, ShowCount: f.ShowCount}
		var err error
		if present(in.FamilyOf) {
			if q.FamilyOf, err = familyOf(ctx, tx, q.ID, in.FamilyOf); err != nil {
				return err
			}
		}
		if _, err := tx.NewInsert().Model(q).Exec(ctx); err != nil {
			return err
		}
		if quiz != nil {
			if err := link(ctx, tx, quiz.ID, q.ID); err != nil {
				return err
			}
			if err := checkDrawable(ctx, tx, quiz.ID); err != nil {
				return err
			}
			if quizOut, err = quizView(ctx, tx, quiz.ID); err != nil {
				return err
			}
		}
		if out, err = questionViewByID(ctx, tx, q.ID); err != nil {
			return err
		}
		if err := s.changed(ctx, tx, actor, "question.create", "question", q.ID, nil, out); err != nil {
			return err
		}
		if quiz != nil {
			return s.changed(ctx, tx, actor, "quiz.add_question", "quiz", quiz.ID, nil, map[string]string{"questionId": q.ID})
		}
		return nil
	})
	return out, quizOut, err
}

// UpdateQuestion edits a question (the same rules as creating one). Quizzes using it see
// the change.
func (s *Service) UpdateQuestion(ctx context.Context, actor *model.User, id string, in QuestionInput) (*QuestionView, error) {
	var out *QuestionView
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		before, err := questionViewByID(ctx, tx, id)
		if isNoRows(err) {
			return web.NotFound(MsgQuestionNotFound)
		}
		if err != nil {
			return err
		}
		f, msg := NormalizeQuestion(in, "", DefaultCategory)
		if msg != "" {
			return web.BadRequest(msg)
		}
		q := &model.Question{ID: id, Text: f.Text, Options: f.Options, CorrectIndex: f.CorrectIndex, Difficulty: f.Difficulty,
			Explanation: f.Explanation, Topic: f.Topic, Category: f.Category, FamilyOf: before.FamilyOf,
			Type: f.Type, CorrectIndexes: f.CorrectIndexes, ShowCount: f.ShowCount}
		if present(in.FamilyOf) {
			if q.FamilyOf, err = familyOf(ctx, tx, id, in.FamilyOf); err != nil {
				return err
			}
		}
		if _, err := tx.NewUpdate().Model(q).WherePK().
			Column("text", "options", "correct_index", "type", "correct_indexes", "show_count", "difficulty", "explanation", "topic", "category", "family_of").Exec(ctx); err != nil {
			return err
		}
		quizIDs := make([]string, len(before.Quizzes))
		for i, r := range before.Quizzes {
			quizIDs[i] = r.ID
		}
		if err := checkDrawable(ctx, tx, quizIDs...); err != nil {
			return err
		}
		if out, err = questionViewByID(ctx, tx, id); err != nil {
			return err
		}
		return s.changed(ctx, tx, actor, "question.update", "question", id, before, out)
	})
	return out, err
}

// DeleteQuestion removes a question from the bank and from every quiz using it; it answers
// how many quizzes it was removed from.
func (s *Service) DeleteQuestion(ctx context.Context, actor *model.User, id string) (int, error) {
	n := 0
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		before, err := questionViewByID(ctx, tx, id)
		if isNoRows(err) {
			return web.NotFound(MsgQuestionNotFound)
		}
		if err != nil {
			return err
		}
		for _, ref := range before.Quizzes {
			if err := canShrink(ctx, tx, ref.ID); err != nil {
				return err
			}
		}
		res, err := tx.NewDelete().Model((*model.QuizQuestion)(nil)).Where("question_id = ?", id).Exec(ctx)
		if err != nil {
			return err
		}
		links, _ := res.RowsAffected()
		n = int(links)
		if _, err := tx.NewDelete().Model((*model.Question)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
			return err
		}
		for _, ref := range before.Quizzes {
			if err := checkDrawable(ctx, tx, ref.ID); err != nil {
				return err
			}
		}
		return s.changed(ctx, tx, actor, "question.delete", "question", id, before, nil)
	})
	return n, err
}

// AddToQuiz puts a bank question at the end of a quiz.
func (s *Service) AddToQuiz(ctx context.Context, actor *model.User, quizID, questionID string) (*QuizView, error) {
	var out *QuizView
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		if err := mustExist(ctx, tx, (*model.Quiz)(nil), quizID, MsgQuizNotFound); err != nil {
			return err
		}
		if err := mustExist(ctx, tx, (*model.Question)(nil), questionID, MsgQuestionNotFound); err != nil {
			return err
		}
		in, err := tx.NewSelect().Model((*model.QuizQuestion)(nil)).Where("quiz_id = ? AND question_id = ?", quizID, questionID).Exists(ctx)
		if err != nil {
			return err
		}
		if in {
			return web.Conflict(MsgAlreadyInQuiz)
		}
		if err := link(ctx, tx, quizID, questionID); err != nil {
			if db.IsUniqueViolation(err) {
				return web.Conflict(MsgAlreadyInQuiz)
			}
			return err
		}
		if err := checkDrawable(ctx, tx, quizID); err != nil {
			return err
		}
		if out, err = quizView(ctx, tx, quizID); err != nil {
			return err
		}
		return s.changed(ctx, tx, actor, "quiz.add_question", "quiz", quizID, nil, map[string]string{"questionId": questionID})
	})
	return out, err
}

// RemoveFromQuiz takes a question out of a quiz (it stays in the bank).
func (s *Service) RemoveFromQuiz(ctx context.Context, actor *model.User, quizID, questionID string) (*QuizView, error) {
	var out *QuizView
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		if err := mustExist(ctx, tx, (*model.Quiz)(nil), quizID, MsgQuizNotFound); err != nil {
			return err
		}
		in, err := tx.NewSelect().Model((*model.QuizQuestion)(nil)).Where("quiz_id = ? AND question_id = ?", quizID, questionID).Exists(ctx)
		if err != nil {
			return err
		}
		if !in {
			return web.NotFound(MsgNotInQuiz)
		}
		if err := canShrink(ctx, tx, quizID); err != nil {
			return err
		}
		res, err := tx.NewDelete().Model((*model.QuizQuestion)(nil)).Where("quiz_id = ? AND question_id = ?", quizID, questionID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return web.NotFound(MsgNotInQuiz)
		}
		if err := checkDrawable(ctx, tx, quizID); err != nil {
			return err
		}
		if out, err = quizView(ctx, tx, quizID); err != nil {
			return err
		}
		return s.changed(ctx, tx, actor, "quiz.remove_question", "quiz", quizID, map[string]string{"questionId": questionID}, nil)
	})
	return out, err
}

// canShrink refuses taking one question out of the quiz's pool when the pool would fall
// below the questions drawn per attempt, or when an active skill badge's active quiz would
// be left without questions (members would meet an empty quiz).
func canShrink(ctx context.Context, tx bun.Tx, quizID string) error {
	qv, err := quizView(ctx, tx, quizID)
	if err != nil {
		return err
	}
	left := qv.QuestionCount - 1
	if qv.QuestionsPerAttempt > 0 && left < qv.QuestionsPerAttempt {
		return web.Conflict(fmt.Sprintf(MsgBelowDraw, qv.QuestionsPerAttempt))
	}
	if left < 1 && qv.IsActive && qv.Badge.IsActive {
		return web.Conflict(fmt.Sprintf(MsgLastQuestion, qv.Badge.Name))
	}
	return nil
}

// UpdateQuiz edits a quiz's settings: title, description, passing score, time limit,
// questions per attempt (at most the pool) and the retake rule.
func (s *Service) UpdateQuiz(ctx context.Context, actor *model.User, id string, in QuizInput) (*QuizView, error) {
	var out *QuizView
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		before, err := quizView(ctx, tx, id)
		if isNoRows(err) {
			return web.NotFound(MsgQuizNotFound)
		}
		if err != nil {
			return err
		}
		cur := QuizFields{Title: before.Title, Description: before.Description, PassingScore: before.PassingScore, TimeLimit: before.TimeLimit,
			QuestionsPerAttempt: before.QuestionsPerAttempt, RetakeWaitHours: before.RetakeWaitHours, MaxAttempts: before.MaxAttempts,
			AttemptPeriodDays: before.AttemptPeriodDays}
		f, msg := NormalizeQuizUpdate(in, cur)
		if msg != "" {
			return web.BadRequest(msg)
		}
		if f.QuestionsPerAttempt > before.QuestionCount {
			return web.BadRequest(fmt.Sprintf(MsgDrawOverPool, f.QuestionsPerAttempt, before.QuestionCount))
		}
		qz := new(model.Quiz)
		if err := tx.NewSelect().Model(qz).Where("id = ?", id).Scan(ctx); err != nil {
			return err
		}
		if err := formSettings(ctx, tx, qz, in); err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model((*model.Quiz)(nil)).
			Set("blueprint = ?", blueprintJSON(qz.Blueprint)).Set("target_difficulty = ?", qz.TargetDifficulty).
			Set("max_exposure = ?", quizpkg.ExposureRate(qz)).Set("min_item_seconds = ?", qz.MinItemSeconds).
			Set("title = ?", f.Title).Set("description = ?", f.Description).Set("passing_score = ?", f.PassingScore).
			// a pass mark set by hand is a fixed percentage again (SET reads the old passing_score)
			Set("pass_mark_method = CASE WHEN passing_score = ? THEN pass_mark_method ELSE '' END", f.PassingScore).
			Set("time_limit = ?", f.TimeLimit).Set("questions_per_attempt = ?", f.QuestionsPerAttempt).
			Set("retake_wait_hours = ?", f.RetakeWaitHours).Set("max_attempts = ?", f.MaxAttempts).
			Set("attempt_period_days = ?", f.AttemptPeriodDays).Where("id = ?", id).Exec(ctx); err != nil {
			return err
		}
		if out, err = quizView(ctx, tx, id); err != nil {
			return err
		}
		return audit.Write(ctx, tx, actor, "quiz.update", "quiz", id, quizAudit(before), quizAudit(out))
	})
	return out, err
}

// link appends a question to a quiz.
func link(ctx context.Context, tx bun.Tx, quizID, questionID string) error {
	var pos sql.NullInt64
	if err := tx.NewSelect().Model((*model.QuizQuestion)(nil)).ColumnExpr("MAX(position)").Where("quiz_id = ?", quizID).Scan(ctx, &pos); err != nil {
		return err
	}
	next := 0
	if pos.Valid {
		next = int(pos.Int64) + 1
	}
	_, err := tx.NewInsert().Model(&model.QuizQuestion{QuizID: quizID, QuestionID: questionID, Position: next}).Exec(ctx)
	return err
}

func mustExist(ctx context.Context, tx bun.Tx, m any, id, msg string) error {
	ok, err := tx.NewSelect().Model(m).Where("id = ?", id).Exists(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return web.NotFound(msg)
	}
	return nil
}

// quizAudit is a quiz as the audit log keeps it (question ids rather than whole questions).
func quizAudit(q *QuizView) map[string]any {
	if q == nil {
		return nil
	}
	ids := make([]string, len(q.Questions))
	for i, qq := range q.Questions {
		ids[i] = qq.ID
	}
	return map[string]any{"_id": q.ID, "title": q.Title, "description": q.Description, "passingScore": q.PassingScore,
		"timeLimit": q.TimeLimit, "isActive": q.IsActive, "badgeId": q.Badge.ID, "questionIds": ids,
		"questionsPerAttempt": q.QuestionsPerAttempt, "retakeWaitHours": q.RetakeWaitHours, "maxAttempts": q.MaxAttempts,
		"attemptPeriodDays": q.AttemptPeriodDays, "blueprint": q.Blueprint, "targetDifficulty": q.TargetDifficulty,
		"maxExposure": q.MaxExposure, "minItemSeconds": q.MinItemSeconds}
}
