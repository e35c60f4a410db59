package application

import (
	"context"
	"errors"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/events"
	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/ratelimit"
	"meritmark/app/storage"
	"meritmark/app/web"
)

// Handler serves the application API and the application pages.
type Handler struct {
	svc  *Service
	site *web.Site
}

// New makes the handler.
func New(d *bun.DB, site *web.Site, store storage.Store, limiter *ratelimit.Limiter, bus *events.Bus) *Handler {
	return &Handler{svc: &Service{DB: d, Store: store, Limiter: limiter, Events: bus}, site: site}
}

// Service is the handler's service (tests and other features use it).
func (h *Handler) Service() *Service { return h.svc }

// Routes lists the application routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Post("/applications", web.Member, h.submit).WithBodyLimit(MaxRequestBytes),
		web.Get("/applications/mine", web.Member, h.mine),
		web.Get("/applications/:id/files/:fileId", web.Member, h.download),
		web.PageRoute("/proof-upload/:badgeId", web.Member, h.page),
		web.PageRoute("/resume-upload/:badgeId", web.Member, h.page),
	}
}

// submit is POST /applications (multipart). quizScore, quizPassed and quizData are
// accepted and ignored: the server uses its own graded attempt.
func (h *Handler) submit(c fiber.Ctx) error {
	if !strings.HasPrefix(strings.ToLower(c.Get("Content-Type")), "multipart/form-data") {
		return web.BadRequest(MsgNotMultipart)
	}
	form, err := c.MultipartForm()
	if err != nil {
		return web.BadRequest(MsgNotMultipart)
	}
	val := func(k string) string {
		if v := form.Value[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	if t := strings.TrimSpace(val("type")); t != "" && t != model.TypeSkill && t != model.TypeProof {
		return web.BadRequest("The application type must be skill or proof.")
	}
	sub := Submission{
		BadgeID: val("badgeId"), FullName: val("fullName"), Position: val("position"),
		LinkedIn: val("linkedin"), Portfolio: val("portfolio"), Description: val("description"),
	}
	var opened []multipart.File
	defer func() {
		for _, f := range opened {
			f.Close()
		}
	}()
	add := func(kind string, fhs []*multipart.FileHeader) error {
		for _, fh := range fhs {
			f, err := fh.Open()
			if err != nil {
				return err
			}
			opened = append(opened, f)
			sub.Files = append(sub.Files, Upload{Kind: kind, Name: fh.Filename, Size: fh.Size, Content: f})
		}
		return nil
	}
	if err := errors.Join(
		add(KindResume, form.File["resume"]),
		add(KindProfilePic, form.File["profilePic"]),
		add(KindProof, form.File["proofFiles"]),
		add(KindProof, form.File["proofFiles[]"]),
	); err != nil {
		return err
	}
	v, err := h.svc.Submit(c.Context(), web.Viewer(c), sub)
	if err != nil {
		return err
	}
	return c.Status(http.StatusCreated).JSON(fiber.Map{"msg": MsgSubmitted, "application": v})
}

// mine is GET /applications/mine?badgeId=: the viewer's latest application for a badge.
func (h *Handler) mine(c fiber.Ctx) error {
	id := strings.TrimSpace(c.Query("badgeId"))
	if id == "" {
		return web.BadRequest(MsgBadgeRequired)
	}
	if !model.ValidID(id) {
		return web.NotFound(MsgBadgeNotFound)
	}
	badge, err := badgeByID(c.Context(), h.svc.DB, id)
	if err != nil {
		return err
	}
	if badge == nil {
		return web.NotFound(MsgBadgeNotFound)
	}
	v, err := h.svc.Latest(c.Context(), web.Viewer(c), badge)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"application": v})
}

// download is GET /applications/:id/files/:fileId, for the applicant and admins only;
// anyone else gets 404 (the file's existence is not revealed).
func (h *Handler) download(c fiber.Ctx) error {
	f, rc, err := h.svc.OpenFile(c.Context(), web.Viewer(c), c.Params("id"), c.Params("fileId"))
	if errors.Is(err, ErrNoFile) {
		return web.NotFound(MsgFileNotFound)
	}
	if err != nil {
		return err
	}
	c.Set("Content-Type", f.ContentType)
	c.Set("Content-Disposition", ContentDisposition(f.OriginalName))
	c.Set("X-Content-Type-Options", "nosniff")
	c.Set("Cache-Control", "private, no-store")
	c.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	return c.SendStream(rc, int(f.Size)) // the response closes rc
}

// pageProps is what ApplicationPage gets.
type pageProps struct {
	Badge       *badgeProps  `json:"badge"` // nil: not found
	Profile     profileProps `json:"profile"`
	Application *View        `json:"application"` // the latest one, if any
	Owned       bool         `json:"owned"`
	Quiz        *quizProps   `json:"quiz"` // skill badges only
	Limits      limitProps   `json:"limits"`
	Renewal     *RenewalInfo `json:"renewal"` // set when this application renews the member's badge
}

type badgeProps struct {
	ID             string  `json:"_id"`
	Name           string  `json:"name"`
	Description    string  `json:"description"`
	Category       string  `json:"category"`
	Type           string  `json:"type"`
	Level          string  `json:"level"`
	Price          float64 `json:"price"`
	Icon           string  `json:"icon"`
	Color          string  `json:"color"`
	RequiresResume bool    `json:"requiresResume"`
}

type profileProps struct {
	Name      string `json:"name"`
	Email     string `json:"email"`
	Position  string `json:"position"`
	LinkedIn  string `json:"linkedin"`
	Portfolio string `json:"portfolio"`
}

type quizProps struct {
	HasPassingAttempt bool         `json:"hasPassingAttempt"`
	Attempt           *attemptInfo `json:"attempt"` // the unused passing attempt
}

type attemptInfo struct {
	ID             string  `json:"id"`
	Score          float64 `json:"score"`
	CorrectAnswers int     `json:"correctAnswers"`
	Total          int     `json:"total"`
	PassingScore   int     `json:"passingScore"`
	TimeSpent      int     `json:"timeSpent"` // seconds
}

type limitProps struct {
	MaxFileBytes  int      `json:"maxFileBytes"`
	MaxProofFiles int      `json:"maxProofFiles"`
	Extensions    []string `json:"extensions"`
}

// page renders /proof-upload/:badgeId and /resume-upload/:badgeId (one form; which
// parts it shows follows the badge's type).
func (h *Handler) page(c fiber.Ctx) error {
	u := web.Viewer(c)
	props := pageProps{
		Profile: profileProps{Name: u.Name, Email: u.Email, Position: u.Position, LinkedIn: u.LinkedIn, Portfolio: u.Portfolio},
		Limits:  limitProps{MaxFileBytes: MaxFileBytes, MaxProofFiles: MaxProofFiles, Extensions: []string{".pdf", ".doc", ".docx", ".jpg", ".jpeg", ".png"}},
	}
	id := c.Params("badgeId")
	var badge *model.Badge
	if model.ValidID(id) {
		var err error
		if badge, err = badgeByID(c.Context(), h.svc.DB, id); err != nil {
			return err
		}
	}
	if badge == nil || !badge.IsActive {
		return h.site.Render(c, "ApplicationPage", props, web.Meta{Title: "Badge not found", NoIndex: true, Status: http.StatusNotFound})
	}
	props.Badge = &badgeProps{ID: badge.ID, Name: badge.Name, Description: badge.Description, Category: badge.Category,
		Type: badge.Type, Level: badge.Level, Price: dollars(badge.PriceCents), Icon: badge.Icon, Color: badge.Color,
		RequiresResume: badge.RequiresResume}
	if err := h.fillState(c.Context(), u, badge, &props); err != nil {
		return err
	}
	title := "Apply for " + badge.Name
	return h.site.Render(c, "ApplicationPage", props, web.Meta{Title: title, Description: "Submit your application for the " + badge.Name + " badge.", NoIndex: true})
}

func (h *Handler) fillState(ctx context.Context, u *model.User, badge *model.Badge, props *pageProps) error {
	var err error
	if props.Owned, err = ownsBadge(ctx, h.svc.DB, u.ID, badge.ID, model.Now()); err != nil {
		return err
	}
	if props.Application, err = h.svc.Latest(ctx, u, badge); err != nil {
		return err
	}
	if !props.Owned {
		if props.Renewal, err = h.svc.Renewal(ctx, u.ID, badge); err != nil {
			return err
		}
	}
	if badge.Type == model.TypeSkill {
		at, err := quiz.PassingAttempt(ctx, h.svc.DB, u.ID, badge.ID)
		if errors.Is(err, quiz.ErrNoPassingAttempt) {
			at = nil
		} else if err != nil {
			return err
		}
		props.Quiz = &quizProps{HasPassingAttempt: at != nil}
		if at != nil {
			info := &attemptInfo{ID: at.ID, Score: at.Score, CorrectAnswers: at.CorrectCount, Total: at.Total, PassingScore: at.PassingScore}
			if at.SubmittedAt != nil {
				info.TimeSpent = int(at.SubmittedAt.Sub(at.StartedAt).Seconds())
			}
			props.Quiz.Attempt = info
		}
	}
	return nil
}
