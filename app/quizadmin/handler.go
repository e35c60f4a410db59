package quizadmin

import (
	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/admin"
	"meritmark/app/events"
	"meritmark/app/model"
	"meritmark/app/web"
)

// Handler serves the quiz and question bank API (admin only).
type Handler struct{ svc *Service }

// New makes the handler.
func New(d *bun.DB, bus *events.Bus) *Handler { return &Handler{svc: &Service{DB: d, Events: bus}} }

// Routes lists the quiz administration routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/admin/quizzes", web.Admin, h.quizzes),
		web.Get("/admin/questions", web.Admin, h.questions),
		web.Post("/admin/badges/:badgeId/quiz", web.Admin, h.createQuiz),
		web.Patch("/admin/quizzes/:quizId/toggle", web.Admin, h.toggleQuiz),
		web.Put("/admin/quizzes/:quizId", web.Admin, h.updateQuiz),
		web.Get("/admin/quizzes/:quizId/analysis", web.Admin, h.analysis),
		web.Get("/admin/quizzes/:quizId/members", web.Admin, h.members),
		web.Post("/admin/quizzes/:quizId/attempt-grants", web.Admin, h.grantAttempt),
		web.Get("/admin/quiz-attempts", web.Admin, h.history),
		web.Post("/admin/questions", web.Admin, h.createQuestion),
		web.Put("/admin/questions/:id", web.Admin, h.updateQuestion),
		web.Delete("/admin/questions/:id", web.Admin, h.deleteQuestion),
		web.Put("/admin/questions/:id/retired", web.Admin, h.retireQuestion),
		web.Post("/admin/quizzes/:quizId/questions/:questionId", web.Admin, h.addToQuiz),
		web.Delete("/admin/quizzes/:quizId/questions/:questionId", web.Admin, h.removeFromQuiz),
	}
}

func (h *Handler) quizzes(c fiber.Ctx) error {
	vs, err := h.svc.Quizzes(c.Context())
	if err != nil {
		return err
	}
	return c.JSON(vs)
}

// GET /admin/questions?search=&category=&difficulty=&status= -> the bank the filter shows,
// newest first, as an array (the quiz screens); with page, pageSize, sort or format ->
// {questions, total, page, pageSize, limit, totalPages, sort}, or format=csv every
// question the filter shows as a CSV download (no answer key).
func (h *Handler) questions(c fiber.Ctx) error {
	search := c.Query("search")
	if search == "" {
		search = c.Query("q")
	}
	f, msg := ParseBankFilter(search, c.Query("category"), c.Query("difficulty"), c.Query("status"))
	if msg != "" {
		return web.BadRequest(msg)
	}
	pg, asCSV, table, err := admin.TableQuery(c, BankSorts)
	if err != nil {
		return err
	}
	if !table {
		vs, err := h.svc.Questions(c.Context(), f)
		if err != nil {
			return err
		}
		return c.JSON(vs)
	}
	// the question bank's table: a page, a sort, or every row as CSV
	if asCSV {
		t, err := h.svc.ExportQuestions(c.Context(), f, pg.Sort)
		if err != nil {
			return err
		}
		return t.Send(c, "questions")
	}
	out, err := h.svc.QuestionPage(c.Context(), f, pg)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (h *Handler) createQuiz(c fiber.Ctx) error {
	id := c.Params("badgeId")
	if !model.ValidID(id) {
		return web.NotFound(MsgBadgeNotFound)
	}
	var in QuizInput
	if len(c.Body()) > 0 {
		if err := web.BindJSON(c, &in); err != nil {
			return err
		}
	}
	v, err := h.svc.CreateQuiz(c.Context(), web.Viewer(c), id, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"msg": "Quiz created successfully", "quiz": v})
}

func (h *Handler) toggleQuiz(c fiber.Ctx) error {
	id := c.Params("quizId")
	if !model.ValidID(id) {
		return web.NotFound(MsgQuizNotFound)
	}
	v, err := h.svc.ToggleQuiz(c.Context(), web.Viewer(c), id)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": "Quiz status updated successfully", "quiz": v})
}

func (h *Handler) createQuestion(c fiber.Ctx) error {
	var in QuestionInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	q, quiz, err := h.svc.CreateQuestion(c.Context(), web.Viewer(c), in)
	if err != nil {
		return err
	}
	if quiz != nil {
		return c.Status(fiber.StatusCreated).JSON(fiber.Map{"msg": "Question created and added to quiz successfully", "question": q, "quiz": quiz})
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"msg": "Question created successfully", "question": q})
}

func (h *Handler) updateQuestion(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgQuestionNotFound)
	}
	var in QuestionInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	in.QuizID = nil
	q, err := h.svc.UpdateQuestion(c.Context(), web.Viewer(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": "Question updated successfully", "question": q})
}

func (h *Handler) deleteQuestion(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgQuestionNotFound)
	}
	n, err := h.svc.DeleteQuestion(c.Context(), web.Viewer(c), id)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": "Question deleted successfully", "removedFromQuizzes": n})
}

func (h *Handler) addToQuiz(c fiber.Ctx) error {
	quizID, questionID := c.Params("quizId"), c.Params("questionId")
	if !model.ValidID(quizID) {
		return web.NotFound(MsgQuizNotFound)
	}
	if !model.ValidID(questionID) {
		return web.NotFound(MsgQuestionNotFound)
	}
	v, err := h.svc.AddToQuiz(c.Context(), web.Viewer(c), quizID, questionID)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"msg": "Question added to quiz", "quiz": v})
}

func (h *Handler) removeFromQuiz(c fiber.Ctx) error {
	quizID, questionID := c.Params("quizId"), c.Params("questionId")
	if !model.ValidID(quizID) {
		return web.NotFound(MsgQuizNotFound)
	}
	if !model.ValidID(questionID) {
		return web.NotFound(MsgNotInQuiz)
	}
	v, err := h.svc.RemoveFromQuiz(c.Context(), web.Viewer(c), quizID, questionID)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": "Question removed from quiz", "quiz": v})
}

func (h *Handler) updateQuiz(c fiber.Ctx) error {
	id := c.Params("quizId")
	if !model.ValidID(id) {
		return web.NotFound(MsgQuizNotFound)
	}
	var in QuizInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	v, err := h.svc.UpdateQuiz(c.Context(), web.Viewer(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": "Quiz updated successfully", "quiz": v})
}

func (h *Handler) analysis(c fiber.Ctx) error {
	id := c.Params("quizId")
	if !model.ValidID(id) {
		return web.NotFound(MsgQuizNotFound)
	}
	v, err := h.svc.Analysis(c.Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

type grantBody struct {
	UserID string `json:"userId"`
}

func (h *Handler) grantAttempt(c fiber.Ctx) error {
	id := c.Params("quizId")
	if !model.ValidID(id) {
		return web.NotFound(MsgQuizNotFound)
	}
	var b grantBody
	if err := web.BindJSON(c, &b); err != nil {
		return err
	}
	if b.UserID == "" {
		return web.BadRequest(MsgUserIDRequired)
	}
	if !model.ValidID(b.UserID) {
		return web.NotFound(MsgUserNotFound)
	}
	e, err := h.svc.GrantAttempt(c.Context(), web.Viewer(c), id, b.UserID)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"msg": "Extra attempt granted", "eligibility": e})
}

func (h *Handler) history(c fiber.Ctx) error {
	userID, badgeID := c.Query("userId"), c.Query("badgeId")
	if userID == "" {
		return web.BadRequest(MsgUserIDRequired)
	}
	if badgeID == "" {
		return web.BadRequest("Badge ID is required.")
	}
	if !model.ValidID(userID) {
		return web.NotFound(MsgUserNotFound)
	}
	if !model.ValidID(badgeID) {
		return web.NotFound(MsgBadgeNotFound)
	}
	v, err := h.svc.History(c.Context(), userID, badgeID)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

func (h *Handler) members(c fiber.Ctx) error {
	id := c.Params("quizId")
	if !model.ValidID(id) {
		return web.NotFound(MsgQuizNotFound)
	}
	v, err := h.svc.Members(c.Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"members": v})
}

type retireBody struct {
	Retired *bool `json:"retired"`
}

// retireQuestion retires a question ({"retired": true}) or brings it back (false).
func (h *Handler) retireQuestion(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgQuestionNotFound)
	}
	var b retireBody
	if err := web.BindJSON(c, &b); err != nil {
		return err
	}
	if b.Retired == nil {
		return web.BadRequest(MsgRetiredRequired)
	}
	q, err := h.svc.RetireQuestion(c.Context(), web.Viewer(c), id, *b.Retired)
	if err != nil {
		return err
	}
	msg := "Question retired"
	if !*b.Retired {
		msg = "Question back in use"
	}
	return c.JSON(fiber.Map{"msg": msg, "question": q})
}
