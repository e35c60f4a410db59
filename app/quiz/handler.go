package quiz

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/ratelimit"
	"meritmark/app/web"
	"meritmark/db"
)

// Handler serves the quiz API and the quiz screen.
type Handler struct {
	svc  *Service
	site *web.Site
}

// New makes the handler.
func New(d *bun.DB, site *web.Site, limiter *ratelimit.Limiter) *Handler {
	return &Handler{svc: &Service{DB: d, Limiter: limiter}, site: site}
}

// Routes lists the quiz routes.
//
//	GET  /quiz/badge/{badgeId}          the start screen: quiz, rules, eligibility and the
//	                                    running attempt (if any); starts nothing
//	POST /quiz/badge/{badgeId}/start    start (or resume) the attempt; 429 with
//	                                    nextAttemptAt while the retake rule waits
//	PUT  /quiz/attempts/{id}/answers    save one answer {questionId, optionIndex (shown;
//	                                    a list for multiple response), timeMs (optional)}
//	POST /quiz/attempts/{id}/submit     grade {answers: {questionId: shownIndex or list}} once
//	GET  /quiz/attempts/{id}            the stored result (figures only, no key)
//	POST /quiz/attempts/{id}/statement  the member's statement on an attempt under
//	                                    integrity review {statement}
//	PUT  /admin/quiz-attempts/{id}/integrity  clear or void a flagged attempt {decision}
//	page /quiz/{badgeId}                the quiz screen (?attempt={id} shows that result)
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/quiz/badge/:badgeId?", web.Member, h.view),
		web.Post("/quiz/badge/:badgeId/start", web.Member, h.start),
		web.Put("/quiz/attempts/:id/answers", web.Member, h.saveAnswer),
		web.Post("/quiz/attempts/:id/submit", web.Member, h.submit),
		web.Post("/quiz/attempts/:id/statement", web.Member, h.statement),
		web.Put("/admin/quiz-attempts/:id/integrity", web.Admin, h.decide),
		web.Get("/quiz/attempts/:id", web.Member, h.result),
		web.PageRoute("/quiz/:badgeId?", web.Member, h.page),
	}
}

func (h *Handler) view(c fiber.Ctx) error {
	v, err := h.svc.View(c.Context(), web.Viewer(c), c.Params("badgeId"))
	if err != nil {
		return err
	}
	c.Set("Cache-Control", "no-store")
	return c.JSON(v)
}

func (h *Handler) start(c fiber.Ctx) error {
	v, err := h.svc.Start(c.Context(), web.Viewer(c), c.Params("badgeId"))
	var refused *RetakeRefused
	if errors.As(err, &refused) {
		next := refused.Eligibility.NextAttemptAt
		if secs := int(time.Until(*next).Seconds()); secs > 0 {
			c.Set("Retry-After", strconv.Itoa(secs))
		}
		return c.Status(fiber.StatusTooManyRequests).JSON(fiber.Map{"msg": refused.Error(), "nextAttemptAt": next, "eligibility": refused.Eligibility})
	}
	if err != nil {
		return err
	}
	c.Set("Cache-Control", "no-store")
	return c.JSON(v)
}

type answerBody struct {
	QuestionID  string          `json:"questionId"`
	OptionIndex json.RawMessage `json:"optionIndex"`
	TimeMs      json.RawMessage `json:"timeMs"`
}

// parseChoice reads an answer: a shown index (single choice) or a list of them
// (multiple response).
func parseChoice(raw json.RawMessage) ([]int, bool) {
	var idx int
	if len(raw) == 0 {
		return nil, false
	}
	if json.Unmarshal(raw, &idx) == nil {
		return []int{idx}, true
	}
	var list []int
	if json.Unmarshal(raw, &list) != nil || list == nil {
		return nil, false
	}
	return list, true
}

func (h *Handler) saveAnswer(c fiber.Ctx) error {
	var b answerBody
	if err := web.BindJSON(c, &b); err != nil {
		return err
	}
	if b.QuestionID == "" {
		return web.BadRequest("Question ID is missing.")
	}
	shown, ok := parseChoice(b.OptionIndex)
	if !ok {
		return web.BadRequest(MsgBadOption)
	}
	var spent time.Duration
	if len(b.TimeMs) > 0 && string(b.TimeMs) != "null" {
		var ms int64
		if json.Unmarshal(b.TimeMs, &ms) != nil || ms < 0 {
			return web.BadRequest(MsgBadTime)
		}
		spent = time.Duration(min(ms, MaxItemTime.Milliseconds())) * time.Millisecond
	}
	answers, err := h.svc.SaveAnswer(c.Context(), web.Viewer(c).ID, c.Params("id"), b.QuestionID, shown, spent)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": "Answer saved", "answers": answers})
}

type submitBody struct {
	Answers map[string]json.RawMessage `json:"answers"`
}

func (h *Handler) submit(c fiber.Ctx) error {
	var b submitBody
	if len(c.Body()) > 0 {
		if err := web.BindJSON(c, &b); err != nil {
			return err
		}
	}
	answers := make(map[string][]int, len(b.Answers))
	for qid, raw := range b.Answers {
		if string(raw) == "null" {
			answers[qid] = nil
			continue
		}
		shown, ok := parseChoice(raw)
		if !ok {
			return web.BadRequest(MsgBadOption)
		}
		answers[qid] = shown
	}
	r, err := h.svc.Submit(c.Context(), web.Viewer(c).ID, c.Params("id"), answers)
	var late *LateSubmission
	if errors.As(err, &late) {
		return c.Status(fiber.StatusConflict).JSON(fiber.Map{"msg": late.Error(), "attemptId": late.AttemptID})
	}
	if err != nil {
		return err
	}
	c.Set("Cache-Control", "no-store")
	return c.JSON(r)
}

func (h *Handler) result(c fiber.Ctx) error {
	r, err := h.svc.Result(c.Context(), web.Viewer(c).ID, c.Params("id"))
	if err != nil {
		return err
	}
	c.Set("Cache-Control", "no-store")
	return c.JSON(r)
}

// PageProps are the quiz screen's props; the island loads the quiz itself (so the
// attempt starts when the screen runs, not when a crawler or prefetch fetches the page).
type PageProps struct {
	BadgeID   string `json:"badgeId"`
	BadgeName string `json:"badgeName"`
	AttemptID string `json:"attemptId"` // show this submitted attempt's result
	// State: nothing to take (owned, payment due, in review), a pass waiting for its
	// application, a renewal (StateForPage).
	State *PageState `json:"state"`
}

func (h *Handler) page(c fiber.Ctx) error {
	p := PageProps{BadgeID: c.Params("badgeId")}
	if a := c.Query("attempt"); model.ValidID(a) {
		p.AttemptID = a
	}
	title := "Quiz"
	if model.ValidID(p.BadgeID) {
		b, err := h.svc.st.badge(c.Context(), h.svc.DB, p.BadgeID)
		if err == nil {
			p.BadgeName = b.Name
			title = b.Name + " Quiz"
			if b.Type == model.TypeSkill && b.IsActive {
				st, err := StateForPage(c.Context(), h.svc.DB, web.Viewer(c).ID, b, h.svc.now())
				if err != nil {
					return err
				}
				p.State = &st
			}
		} else if !errors.Is(err, db.ErrNotFound) {
			return err
		}
	}
	return h.site.Render(c, "QuizPage", p, web.Meta{Title: title, Description: "Take the timed skill assessment for this badge.", NoIndex: true})
}

func (h *Handler) statement(c fiber.Ctx) error {
	var b struct {
		Statement string `json:"statement"`
	}
	if err := web.BindJSON(c, &b); err != nil {
		return err
	}
	v, err := h.svc.Appeal(c.Context(), web.Viewer(c), c.Params("id"), b.Statement)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": "Statement saved", "integrity": v})
}

func (h *Handler) decide(c fiber.Ctx) error {
	var b struct {
		Decision string `json:"decision"`
	}
	if err := web.BindJSON(c, &b); err != nil {
		return err
	}
	v, err := h.svc.Decide(c.Context(), web.Viewer(c), c.Params("id"), b.Decision)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": map[string]string{"clear": "Attempt cleared", "void": "Attempt voided"}[b.Decision], "integrity": v})
}
