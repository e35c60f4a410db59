package angoff

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/award"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/measure"
	"meritmark/app/model"
	"meritmark/app/ratelimit"
	"meritmark/app/web"
	"meritmark/db"
)

// Handler serves standard setting: the administrator's panel and the raters' links.
type Handler struct {
	DB      *bun.DB
	Site    *web.Site
	Mailer  *mail.Worker
	Events  *events.Bus        // an adopted cut records quiz.changed (the report page shows it)
	Limiter *ratelimit.Limiter // the raters' public routes, per address; nil: no limit
	now     func() time.Time
}

// New makes the handler.
func New(d *bun.DB, site *web.Site, mailer *mail.Worker, bus *events.Bus, limiter *ratelimit.Limiter) *Handler {
	return &Handler{DB: d, Site: site, Mailer: mailer, Events: bus, Limiter: limiter, now: model.Now}
}

// Routes lists the routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Post("/admin/quizzes/:quizId/angoff", web.Admin, h.open),
		web.Get("/admin/quizzes/:quizId/angoff", web.Admin, h.status),
		web.Post("/admin/quizzes/:quizId/angoff/adopt", web.Admin, h.adopt),
		web.PageRoute("/angoff/:token", web.Public, h.page),
		web.Get("/angoff/:token/ratings", web.Public, h.ratings),
		web.Put("/angoff/:token/ratings", web.Public, h.save),
	}
}

// Item is a pool question as a rater sees it: never the key or the explanation.
type Item struct {
	ID      string   `json:"_id"`
	Text    string   `json:"text"`
	Options []string `json:"options"`
	Topic   string   `json:"topic"`
	Type    string   `json:"type"`
}

type quizInfo struct {
	ID             string `bun:"id"`
	Title          string `bun:"title"`
	PassingScore   int    `bun:"passing_score"`
	PassMarkMethod string `bun:"pass_mark_method"`
	BadgeName      string `bun:"badge_name"`
}

func loadQuiz(ctx context.Context, d bun.IDB, id string) (*quizInfo, error) {
	if !model.ValidID(id) {
		return nil, web.NotFound(MsgQuizNotFound)
	}
	var q quizInfo
	err := d.NewRaw(`SELECT q.id, q.title, q.passing_score, q.pass_mark_method, b.name AS badge_name
FROM quizzes AS q JOIN badges AS b ON b.id = q.badge_id WHERE q.id = ?`, id).Scan(ctx, &q)
	if db.IsNoRows(err) {
		return nil, web.NotFound(MsgQuizNotFound)
	}
	return &q, err
}

// pool is the quiz's active questions in the quiz's order.
func pool(ctx context.Context, d bun.IDB, quizID string) ([]model.Question, error) {
	var qs []model.Question
	err := d.NewSelect().Model(&qs).
		Join("JOIN quiz_questions AS qq ON qq.question_id = question.id").
		Where("qq.quiz_id = ? AND question.retired_at IS NULL", quizID).
		OrderExpr("qq.position, question.id").Scan(ctx)
	return qs, err
}

func items(qs []model.Question) []Item {
	out := make([]Item, len(qs))
	for i, q := range qs {
		typ := q.Type
		if typ == "" {
			typ = model.QuestionSingle
		}
		out[i] = Item{ID: q.ID, Text: q.Text, Options: q.Options, Topic: q.Topic, Type: typ}
		if out[i].Options == nil {
			out[i].Options = []string{}
		}
	}
	return out
}

// --- the administrator's panel ---

// RaterView is a rater's progress as the administrator sees it (never the token).
type RaterView struct {
	ID          string     `json:"_id"`
	Name        string     `json:"name"`
	Email       string     `json:"email"`
	Rated       int        `json:"rated"`   // items with a rating
	Skipped     int        `json:"skipped"` // items skipped
	StartedAt   *time.Time `json:"startedAt"`
	SubmittedAt *time.Time `json:"submittedAt"`
	Cut         *float64   `json:"cut"` // the rater's mean rating (nil before any rating)
}

// Result is the panel's recommended cut (nil figures with Message while no rater rated).
type Result struct {
	Raters      int      `json:"raters"` // raters with at least one rating
	Cut         *float64 `json:"cut"`    // percent, 2 decimals
	SD          *float64 `json:"sd"`     // across the raters' cuts (nil for one rater)
	SE          *float64 `json:"se"`
	Recommended *int     `json:"recommended"` // the pass mark adopting gives: round(cut)
	Message     string   `json:"message,omitempty"`
}

// PanelView is a panel for the administrator.
type PanelView struct {
	ID        string      `json:"_id"`
	CreatedAt time.Time   `json:"createdAt"`
	ClosedAt  *time.Time  `json:"closedAt"`
	AdoptedAt *time.Time  `json:"adoptedAt"`
	Open      bool        `json:"open"`
	Raters    []RaterView `json:"raters"`
	Result    Result      `json:"result"`
}

// Status is the answer of GET /admin/quizzes/{id}/angoff.
type Status struct {
	Quiz struct {
		ID             string `json:"_id"`
		PassingScore   int    `json:"passingScore"`
		PassMarkMethod string `json:"passMarkMethod"`
	} `json:"quiz"`
	Pool  int        `json:"pool"`
	Panel *PanelView `json:"panel"`
}

func statusOf(ctx context.Context, d bun.IDB, q *quizInfo) (*Status, error) {
	st := &Status{}
	st.Quiz.ID, st.Quiz.PassingScore, st.Quiz.PassMarkMethod = q.ID, q.PassingScore, q.PassMarkMethod
	ps, err := pool(ctx, d, q.ID)
	if err != nil {
		return nil, err
	}
	st.Pool = len(ps)
	var p Panel
	err = d.NewSelect().Model(&p).Where("quiz_id = ?", q.ID).OrderExpr("created_at DESC, id DESC").Limit(1).Scan(ctx)
	if db.IsNoRows(err) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	st.Panel, err = panelView(ctx, d, &p, ps)
	return st, err
}

func panelView(ctx context.Context, d bun.IDB, p *Panel, ps []model.Question) (*PanelView, error) {
	var rs []Rater
	if err := d.NewSelect().Model(&rs).Where("panel_id = ?", p.ID).Order("position").Scan(ctx); err != nil {
		return nil, err
	}
	inPool := map[string]bool{}
	for _, q := range ps {
		inPool[q.ID] = true
	}
	var ratings []Rating
	if err := d.NewSelect().Model(&ratings).
		Where("rater_id IN (SELECT id FROM angoff_raters WHERE panel_id = ?)", p.ID).Scan(ctx); err != nil {
		return nil, err
	}
	byRater := map[string]map[string]float64{}
	v := &PanelView{ID: p.ID, CreatedAt: p.CreatedAt, ClosedAt: p.ClosedAt, AdoptedAt: p.AdoptedAt, Open: p.ClosedAt == nil, Raters: make([]RaterView, len(rs))}
	idx := map[string]int{}
	for i, r := range rs {
		v.Raters[i] = RaterView{ID: r.ID, Name: r.Name, StartedAt: r.StartedAt, SubmittedAt: r.SubmittedAt}
		if r.Email != nil {
			v.Raters[i].Email = *r.Email
		}
		idx[r.ID] = i
		byRater[r.ID] = map[string]float64{}
	}
	for _, rt := range ratings {
		if !inPool[rt.QuestionID] {
			continue // the item left the pool (removed or retired) since it was rated
		}
		i := idx[rt.RaterID]
		if rt.Value == nil {
			v.Raters[i].Skipped++
			continue
		}
		v.Raters[i].Rated++
		byRater[rt.RaterID][rt.QuestionID] = *rt.Value
	}
	panel := make([]measure.Rater, len(rs))
	for i, r := range rs {
		panel[i] = measure.Rater{ID: r.ID, Ratings: byRater[r.ID]}
	}
	a, err := measure.AngoffCut(panel)
	if err != nil {
		return nil, err
	}
	for id, c := range a.RaterCuts {
		c := c
		v.Raters[idx[id]].Cut = round2(&c)
	}
	v.Result = Result{Raters: a.Raters, Cut: round2(a.Cut), SD: round2(a.SD), SE: round2(a.SE)}
	if a.Cut == nil {
		v.Result.Message = MsgNotEnough
	} else {
		n := int(math.Round(*a.Cut))
		v.Result.Recommended = &n
	}
	return v, nil
}

type openBody struct {
	Raters []RaterInput `json:"raters"`
}

// Link is a rater's link in the answer that opens the panel (the only place it is shown).
type Link struct {
	RaterID string `json:"raterId"`
	Name    string `json:"name"`
	Email   string `json:"email"`
	URL     string `json:"url"`
	Mailed  bool   `json:"mailed"`
}

// POST /admin/quizzes/{id}/angoff {raters: [{name, email?}]} -> 201 {msg, links, ...Status}:
// a new panel (a panel still open for the quiz is closed: its links stop working).
func (h *Handler) open(c fiber.Ctx) error {
	var in openBody
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	quizID := c.Params("quizId")
	if !model.ValidID(quizID) {
		return web.NotFound(MsgQuizNotFound)
	}
	raters, msg := CleanRaters(in.Raters)
	if msg != "" {
		return web.BadRequest(msg)
	}
	actor := web.Viewer(c)
	origin := h.Site.Origin(c)
	now := h.now()
	var links []Link
	var st *Status
	mailed := false
	err := h.DB.RunInTx(c.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		q, err := loadQuiz(ctx, tx, quizID)
		if err != nil {
			return err
		}
		ps, err := pool(ctx, tx, q.ID)
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			return web.Unprocessable(MsgEmptyPool)
		}
		var replaced []string
		if err := tx.NewUpdate().Model((*Panel)(nil)).Set("closed_at = ?", now).
			Where("quiz_id = ? AND closed_at IS NULL", q.ID).Returning("id").Scan(ctx, &replaced); err != nil && !db.IsNoRows(err) {
			return err
		}
		p := &Panel{ID: model.NewID(), QuizID: q.ID, CreatedAt: now}
		if actor != nil {
			p.CreatedBy = &actor.ID
		}
		if _, err := tx.NewInsert().Model(p).Exec(ctx); err != nil {
			return err
		}
		links = make([]Link, len(raters))
		names := make([]string, len(raters))
		for i, r := range raters {
			tok := award.NewToken()
			row := &Rater{ID: model.NewID(), PanelID: p.ID, Position: i, Name: r.Name, TokenHash: award.HashToken(tok)}
			links[i] = Link{RaterID: row.ID, Name: r.Name, Email: r.Email, URL: RateURL(origin, tok)}
			if r.Email != "" {
				e := r.Email
				row.Email = &e
			}
			if _, err := tx.NewInsert().Model(row).Exec(ctx); err != nil {
				return err
			}
			if r.Email != "" {
				if err := mail.Queue(ctx, tx, Mail(r.Email, r.Name, q.Title, q.BadgeName, links[i].URL, len(ps)).Message()); err != nil {
					return err
				}
				links[i].Mailed, mailed = true, true
			}
			names[i] = r.Name
		}
		after := map[string]any{"panelId": p.ID, "raters": names, "pool": len(ps)}
		var before any
		if len(replaced) > 0 {
			before = map[string]any{"closedPanels": replaced}
		}
		if err := audit.Write(ctx, tx, actor, "angoff.open", "quiz", q.ID, before, after); err != nil {
			return err
		}
		st, err = statusOf(ctx, tx, q)
		return err
	})
	if err != nil {
		return err
	}
	if mailed && h.Mailer != nil {
		h.Mailer.Kick()
	}
	c.Set("Cache-Control", "no-store")
	return c.Status(http.StatusCreated).JSON(fiber.Map{"msg": MsgOpened, "links": links, "quiz": st.Quiz, "pool": st.Pool, "panel": st.Panel})
}

// GET /admin/quizzes/{id}/angoff -> Status (panel null before the first).
func (h *Handler) status(c fiber.Ctx) error {
	q, err := loadQuiz(c.Context(), h.DB, c.Params("quizId"))
	if err != nil {
		return err
	}
	st, err := statusOf(c.Context(), h.DB, q)
	if err != nil {
		return err
	}
	return c.JSON(st)
}

type adoptBody struct {
	KeepFixed bool `json:"keepFixed"`
}

// POST /admin/quizzes/{id}/angoff/adopt {keepFixed?} -> {msg, ...Status}: the latest
// panel's decision. Adopting sets the pass mark to round(cut) and the method to
// "modified Angoff, N raters, DATE"; keepFixed leaves the quiz as it is. Either closes
// the panel.
func (h *Handler) adopt(c fiber.Ctx) error {
	var in adoptBody
	if len(c.Body()) > 0 {
		if err := web.BindJSON(c, &in); err != nil {
			return err
		}
	}
	quizID := c.Params("quizId")
	if !model.ValidID(quizID) {
		return web.NotFound(MsgQuizNotFound)
	}
	actor := web.Viewer(c)
	now := h.now()
	var msg string
	var st *Status
	err := h.Events.RunInTx(c.Context(), h.DB, func(ctx context.Context, tx bun.Tx) error {
		q, err := loadQuiz(ctx, tx, quizID)
		if err != nil {
			return err
		}
		var p Panel
		err = db.ForUpdate(tx, tx.NewSelect().Model(&p).Where("quiz_id = ?", q.ID).OrderExpr("created_at DESC, id DESC").Limit(1)).Scan(ctx)
		if db.IsNoRows(err) {
			return web.NotFound(MsgNoPanel)
		}
		if err != nil {
			return err
		}
		if p.ClosedAt != nil {
			return web.Conflict(MsgDecided)
		}
		ps, err := pool(ctx, tx, q.ID)
		if err != nil {
			return err
		}
		v, err := panelView(ctx, tx, &p, ps)
		if err != nil {
			return err
		}
		before := map[string]any{"passingScore": q.PassingScore, "passMarkMethod": q.PassMarkMethod}
		figures := map[string]any{"panelId": p.ID, "raters": v.Result.Raters, "cut": v.Result.Cut, "sd": v.Result.SD, "se": v.Result.SE}
		closed := tx.NewUpdate().Model((*Panel)(nil)).Set("closed_at = ?", now).Where("id = ? AND closed_at IS NULL", p.ID)
		if in.KeepFixed {
			if _, err := closed.Exec(ctx); err != nil {
				return err
			}
			msg = fmt.Sprintf(MsgKeptFixed, q.PassingScore)
			figures["passingScore"], figures["passMarkMethod"] = q.PassingScore, q.PassMarkMethod
			if err := audit.Write(ctx, tx, actor, "angoff.keep_fixed", "quiz", q.ID, before, figures); err != nil {
				return err
			}
		} else {
			if v.Result.Recommended == nil {
				return web.Unprocessable(MsgNotEnough)
			}
			mark := *v.Result.Recommended
			if mark < 1 || mark > 100 {
				return web.Unprocessable(fmt.Sprintf(MsgCutOutOfRange, mark))
			}
			method := model.AngoffMethod(v.Result.Raters, now)
			if _, err := closed.Set("adopted_at = ?", now).Exec(ctx); err != nil {
				return err
			}
			if _, err := tx.NewUpdate().Model((*model.Quiz)(nil)).Set("passing_score = ?", mark).Set("pass_mark_method = ?", method).
				Where("id = ?", q.ID).Exec(ctx); err != nil {
				return err
			}
			msg = fmt.Sprintf(MsgAdopted, mark, method)
			figures["passingScore"], figures["passMarkMethod"] = mark, method
			if err := audit.Write(ctx, tx, actor, "angoff.adopt", "quiz", q.ID, before, figures); err != nil {
				return err
			}
			if err := h.Events.Record(ctx, tx, events.QuizChanged, "quiz", q.ID, map[string]string{"action": "angoff.adopt", "id": q.ID}); err != nil {
				return err
			}
			q.PassingScore, q.PassMarkMethod = mark, method
		}
		st, err = statusOf(ctx, tx, q)
		return err
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": msg, "quiz": st.Quiz, "pool": st.Pool, "panel": st.Panel})
}

// --- the rater's link ---

func (h *Handler) allow(c fiber.Ctx) error {
	if h.Limiter == nil {
		return nil
	}
	ok, err := h.Limiter.Allow(c.Context(), "angoff:"+c.IP(), 120, time.Minute)
	if err != nil {
		return err
	}
	if !ok {
		return web.TooMany(MsgTooMany)
	}
	return nil
}

// rater loads the rater of a token with its open panel (nil when the token is malformed,
// unknown, or its panel has closed).
func rater(ctx context.Context, d bun.IDB, tok string, lock bool) (*Rater, *Panel, error) {
	if !award.ValidToken(tok) {
		return nil, nil, nil
	}
	var r Rater
	q := d.NewSelect().Model(&r).Where("token_hash = ?", award.HashToken(tok))
	if lock {
		q = db.ForUpdate(d, q)
	}
	if err := q.Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	var p Panel
	if err := d.NewSelect().Model(&p).Where("id = ?", r.PanelID).Scan(ctx); err != nil {
		return nil, nil, err
	}
	if p.ClosedAt != nil && r.SubmittedAt == nil {
		return nil, nil, nil
	}
	return &r, &p, nil
}

// Sheet is what a rater's link shows: the items and the rater's ratings so far.
type Sheet struct {
	QuizTitle   string              `json:"quizTitle"`
	BadgeName   string              `json:"badgeName"`
	RaterName   string              `json:"raterName"`
	Submitted   bool                `json:"submitted"`
	SubmittedAt *time.Time          `json:"submittedAt"`
	Items       []Item              `json:"items"`
	Ratings     map[string]*float64 `json:"ratings"` // question id -> rating (null: skipped); absent: not rated yet
}

func sheet(ctx context.Context, d bun.IDB, r *Rater, p *Panel) (*Sheet, error) {
	q, err := loadQuiz(ctx, d, p.QuizID)
	if err != nil {
		return nil, err
	}
	s := &Sheet{QuizTitle: q.Title, BadgeName: q.BadgeName, RaterName: r.Name, Submitted: r.SubmittedAt != nil, SubmittedAt: r.SubmittedAt,
		Items: []Item{}, Ratings: map[string]*float64{}}
	if s.Submitted {
		return s, nil // the link is spent: the items are not shown again
	}
	ps, err := pool(ctx, d, q.ID)
	if err != nil {
		return nil, err
	}
	s.Items = items(ps)
	inPool := map[string]bool{}
	for _, q := range ps {
		inPool[q.ID] = true
	}
	var rs []Rating
	if err := d.NewSelect().Model(&rs).Where("rater_id = ?", r.ID).Scan(ctx); err != nil {
		return nil, err
	}
	for _, rt := range rs {
		if inPool[rt.QuestionID] {
			s.Ratings[rt.QuestionID] = rt.Value
		}
	}
	return s, nil
}

// GET /angoff/{token}/ratings -> Sheet (404 for an unknown or closed link).
func (h *Handler) ratings(c fiber.Ctx) error {
	if err := h.allow(c); err != nil {
		return err
	}
	c.Set("Cache-Control", "no-store")
	r, p, err := rater(c.Context(), h.DB, c.Params("token"), false)
	if err != nil {
		return err
	}
	if r == nil {
		return web.NotFound(MsgLinkInvalid)
	}
	s, err := sheet(c.Context(), h.DB, r, p)
	if err != nil {
		return err
	}
	return c.JSON(s)
}

type saveBody struct {
	Ratings map[string]json.RawMessage `json:"ratings"`
	Submit  bool                       `json:"submit"`
}

// PUT /angoff/{token}/ratings {ratings: {questionId: 0..100 | null}, submit?} -> {msg,
// sheet}: saves the ratings given (null skips the item; an item left out keeps its
// rating); submit, once every item is rated or skipped, spends the link. Nothing is saved
// when any rating is refused.
func (h *Handler) save(c fiber.Ctx) error {
	if err := h.allow(c); err != nil {
		return err
	}
	c.Set("Cache-Control", "no-store")
	var in saveBody
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	tok := c.Params("token")
	if !award.ValidToken(tok) {
		return web.NotFound(MsgLinkInvalid)
	}
	vals := make(map[string]*float64, len(in.Ratings))
	for id, raw := range in.Ratings {
		if string(raw) == "null" {
			vals[id] = nil
			continue
		}
		var v float64
		if err := json.Unmarshal(raw, &v); err != nil || !ValidRating(v) {
			return web.BadRequest(MsgRating)
		}
		vals[id] = &v
	}
	now := h.now()
	var msg string
	var out *Sheet
	err := h.DB.RunInTx(c.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		r, p, err := rater(ctx, tx, tok, true)
		if err != nil {
			return err
		}
		if r == nil {
			return web.NotFound(MsgLinkInvalid)
		}
		if r.SubmittedAt != nil {
			return web.Conflict(MsgLinkSpent)
		}
		ps, err := pool(ctx, tx, p.QuizID)
		if err != nil {
			return err
		}
		inPool := map[string]bool{}
		for _, q := range ps {
			inPool[q.ID] = true
		}
		for id := range vals {
			if !inPool[id] {
				return web.BadRequest(MsgUnknownItem)
			}
		}
		for id, v := range vals {
			if _, err := tx.NewInsert().Model(&Rating{RaterID: r.ID, QuestionID: id, Value: v, UpdatedAt: now}).
				On("CONFLICT (rater_id, question_id) DO UPDATE").Set("value = EXCLUDED.value").Set("updated_at = EXCLUDED.updated_at").
				Exec(ctx); err != nil {
				return err
			}
		}
		if r.StartedAt == nil && len(vals) > 0 {
			if _, err := tx.NewUpdate().Model((*Rater)(nil)).Set("started_at = ?", now).Where("id = ? AND started_at IS NULL", r.ID).Exec(ctx); err != nil {
				return err
			}
		}
		msg = MsgSaved
		if in.Submit {
			var done []string
			if err := tx.NewSelect().Model((*Rating)(nil)).Column("question_id").Where("rater_id = ?", r.ID).Scan(ctx, &done); err != nil {
				return err
			}
			left := len(ps)
			rated, skipped := 0, 0
			seen := map[string]bool{}
			for _, id := range done {
				if inPool[id] && !seen[id] {
					seen[id] = true
					left--
				}
			}
			if left > 0 {
				return web.Unprocessable(fmt.Sprintf(MsgIncomplete, left))
			}
			var rs []Rating
			if err := tx.NewSelect().Model(&rs).Where("rater_id = ?", r.ID).Scan(ctx); err != nil {
				return err
			}
			for _, rt := range rs {
				if !inPool[rt.QuestionID] {
					continue
				}
				if rt.Value == nil {
					skipped++
				} else {
					rated++
				}
			}
			res, err := tx.NewUpdate().Model((*Rater)(nil)).Set("submitted_at = ?", now).Set("started_at = COALESCE(started_at, ?)", now).
				Where("id = ? AND submitted_at IS NULL", r.ID).Exec(ctx)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return web.Conflict(MsgLinkSpent)
			}
			if err := audit.Write(ctx, tx, nil, "angoff.submit", "angoff_rater", r.ID, nil,
				map[string]any{"panelId": p.ID, "quizId": p.QuizID, "name": r.Name, "rated": rated, "skipped": skipped}); err != nil {
				return err
			}
			r.SubmittedAt = &now
			msg = MsgSubmitted
		}
		out, err = sheet(ctx, tx, r, p)
		return err
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": msg, "sheet": out})
}

// PageProps are the props of the rater's page.
type PageProps struct {
	State string `json:"state"` // open, submitted, invalid
	Token string `json:"token"` // "" unless open
	Sheet *Sheet `json:"sheet"`
}

// GET /angoff/{token}: the rater's page (an island), never indexed.
func (h *Handler) page(c fiber.Ctx) error {
	meta := web.Meta{Title: "Rate the questions", NoIndex: true}
	c.Set("Cache-Control", "no-store")
	c.Set("Referrer-Policy", "no-referrer")
	if err := h.allow(c); err != nil {
		return err
	}
	tok := c.Params("token")
	r, p, err := rater(c.Context(), h.DB, tok, false)
	if err != nil {
		return err
	}
	if r == nil {
		meta.Status = http.StatusNotFound
		return h.Site.Render(c, "AngoffPage", PageProps{State: "invalid"}, meta)
	}
	s, err := sheet(c.Context(), h.DB, r, p)
	if err != nil {
		return err
	}
	if s.Submitted {
		return h.Site.Render(c, "AngoffPage", PageProps{State: "submitted", Sheet: s}, meta)
	}
	return h.Site.Render(c, "AngoffPage", PageProps{State: "open", Token: tok, Sheet: s}, meta)
}
