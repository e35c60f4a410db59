package admin

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/storage"
	"meritmark/app/user"
	"meritmark/app/web"
)

// Handler serves the admin API and the /admin page.
type Handler struct {
	svc  *Service
	site *web.Site
}

// New makes the handler.
func New(d *bun.DB, site *web.Site, s storage.Store, iss *credential.Issuer, m *mail.Worker, bus *events.Bus) *Handler {
	return &Handler{svc: NewService(d, s, iss, m, bus), site: site}
}

// WithAttempts gives the bulk action its extra-attempt granter (app/quizadmin's service).
func (h *Handler) WithAttempts(g AttemptGranter) *Handler {
	h.svc.Attempts = g
	return h
}

// Service exposes the use cases (for tests and other features).
func (h *Handler) Service() *Service { return h.svc }

// PictureBodyLimit is the body limit of the picture upload (10 MB and the form around it).
const PictureBodyLimit = user.MaxPictureBytes + 1<<20

// Routes lists the back office's rows of the route table: every one admin only.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.PageRoute("/admin", web.Admin, h.page),
		web.Get("/admin/summary", web.Admin, h.summary),
		web.Get("/admin/applications", web.Admin, h.applications),
		web.Post("/admin/applications/bulk", web.Admin, h.bulk),
		web.Get("/admin/applications/:id", web.Admin, h.application),
		web.Put("/admin/applications/:id/approve", web.Admin, h.approve),
		web.Put("/admin/applications/:id/reject", web.Admin, h.reject),
		web.Put("/admin/applications/:id/reject/undo", web.Admin, h.undoReject),
		web.Get("/admin/grants", web.Admin, h.grants),
		web.Get("/admin/payments", web.Admin, h.payments),
		web.Get("/admin/users", web.Admin, h.users),
		web.Get("/admin/users/:id", web.Admin, h.user),
		web.Put("/admin/users/:id", web.Admin, h.updateUser),
		web.Post("/admin/users/:id/profile-pic", web.Admin, h.profilePic).WithBodyLimit(PictureBodyLimit),
		web.Get("/admin/audit", web.Admin, h.audit),
		web.Get("/admin/audit/actions", web.Admin, h.auditActions),
	}
}

// PageProps are the /admin page's props.
type PageProps struct {
	Denied       bool             `json:"denied"`
	AdminName    string           `json:"adminName,omitempty"`
	AdminID      string           `json:"adminId,omitempty"`
	Summary      *Summary         `json:"summary,omitempty"`
	Applications *ApplicationList `json:"applications,omitempty"`
	View         *View            `json:"view,omitempty"`
}

// View is the dashboard's state as the address holds it (a deep link): the tab, the list's
// status, search and page, and an opened application or user. Anything invalid is dropped,
// so the page the server renders is the one the island starts from.
type View struct {
	Tab    string `json:"tab,omitempty"`
	Status string `json:"status,omitempty"`
	Q      string `json:"q,omitempty"`
	Page   int    `json:"page,omitempty"`
	App    string `json:"app,omitempty"`
	User   string `json:"user,omitempty"`
	Action string `json:"action,omitempty"` // the audit log's filter: an action or "area.*"
}

// auditActionRe is what an audit filter in a deep link may be (an action such as
// "coupon.create", or an area's "coupon.*").
var auditActionRe = regexp.MustCompile(`^[a-z][a-z_]{0,30}\.(\*|[a-z][a-z_.]{0,60})$`)

// dashboardTabs are the tabs a deep link may name (the first is the default).
var dashboardTabs = []string{"applications", "users", "grants", "badges", "quizzes", "coupons", "payments", "audit", "webhooks"}

// ParseView reads the dashboard's deep link from the query (tab, status, q, page, app,
// user, action), dropping what is not valid.
func ParseView(get func(string) string) View {
	var v View
	for _, t := range dashboardTabs[1:] {
		if get("tab") == t {
			v.Tab = t
		}
	}
	if q, msg := ParseSearch(get("q")); msg == "" {
		v.Q = q
	}
	if pg, msg := ParsePage(get("page"), ""); msg == "" && pg.Page > 1 {
		v.Page = pg.Page
	}
	switch v.Tab {
	case "":
		if st := strings.TrimSpace(get("status")); st != ReviewGroup {
			if _, msg := ParseStatuses(st); msg == "" && st != "" && st != "all" {
				v.Status = st
			}
		}
		if id := get("app"); model.ValidID(id) {
			v.App = id
		}
	case "users":
		if id := get("user"); model.ValidID(id) {
			v.User = id
		}
	case "audit":
		if a := get("action"); auditActionRe.MatchString(a) {
			v.Action = a
		}
	default:
		v.Q, v.Page = "", 0
	}
	return v
}

func (h *Handler) page(c fiber.Ctx) error {
	u := web.Viewer(c)
	meta := web.Meta{Title: "Admin Dashboard", NoIndex: true}
	if !u.IsAdmin() {
		meta.Title, meta.Status = "Access Denied", http.StatusForbidden
		return h.site.Render(c, "AdminPage", PageProps{Denied: true}, meta)
	}
	sum, err := h.svc.Summary(c.Context(), model.Now())
	if err != nil {
		return err
	}
	view := ParseView(func(k string) string { return c.Query(k) })
	// the applications tab (always mounted) starts from the deep link's list when it is open
	status, q, pg := ReviewGroup, "", Page{Page: 1, Limit: TablePageSize}
	if view.Tab == "" {
		if view.Status != "" {
			status = view.Status
		}
		q = view.Q
		pg.Page = max(view.Page, 1)
	}
	statuses, _ := ParseStatuses(status)
	apps, err := h.svc.ListApplications(c.Context(), statuses, q, pg)
	if err != nil {
		return err
	}
	return h.site.Render(c, "AdminPage", PageProps{AdminName: u.Name, AdminID: u.ID, Summary: sum, Applications: apps, View: &view}, meta)
}

func pageOf(c fiber.Ctx) (Page, string, error) {
	pg, msg := ParsePage(c.Query("page"), c.Query("limit"))
	if msg != "" {
		return pg, "", web.BadRequest(msg)
	}
	q, msg := ParseSearch(c.Query("search", c.Query("q")))
	if msg != "" {
		return pg, "", web.BadRequest(msg)
	}
	return pg, q, nil
}

func (h *Handler) summary(c fiber.Ctx) error {
	s, err := h.svc.Summary(c.Context(), model.Now())
	if err != nil {
		return err
	}
	return c.JSON(s)
}

func (h *Handler) applications(c fiber.Ctx) error {
	pg, q, asCSV, err := tableQuery(c, ApplicationSorts)
	if err != nil {
		return err
	}
	statuses, msg := ParseStatuses(c.Query("status"))
	if msg != "" {
		return web.BadRequest(msg)
	}
	if asCSV {
		t, err := h.svc.ExportApplications(c.Context(), statuses, q, pg.Sort)
		if err != nil {
			return err
		}
		return t.send(c, "applications")
	}
	out, err := h.svc.ListApplications(c.Context(), statuses, q, pg)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (h *Handler) application(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgApplicationMissing)
	}
	out, err := h.svc.GetApplication(c.Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// optionalJSON decodes an optional JSON body into v: an empty body keeps the defaults.
func optionalJSON(c fiber.Ctx, v any) error {
	if len(strings.TrimSpace(string(c.Body()))) == 0 {
		return nil
	}
	if err := json.Unmarshal(c.Body(), v); err != nil {
		return web.BadRequest(web.MsgInvalidJSON)
	}
	return nil
}

func (h *Handler) approve(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgApplicationMissing)
	}
	var body struct {
		GrantFree bool `json:"grantFree"`
		// RestoreRevoked confirms restoring a revoked grant (the UI names the reason first)
		RestoreRevoked bool `json:"restoreRevoked"`
	}
	if err := optionalJSON(c, &body); err != nil {
		return err
	}
	res, err := h.svc.Approve(c.Context(), web.Viewer(c), id, body.GrantFree, body.RestoreRevoked, h.site.Origin(c))
	if err != nil {
		return err
	}
	msg := MsgApproved
	if res.WaitingForEmail {
		msg = MsgApprovedWaiting
	}
	return c.JSON(fiber.Map{"msg": msg, "application": res.Application, "grantCreated": res.Created, "grantRestored": res.Restored,
		"waitingForEmailVerification": res.WaitingForEmail})
}

func (h *Handler) reject(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgApplicationMissing)
	}
	var body struct {
		Reason string `json:"reason"`
	}
	if err := optionalJSON(c, &body); err != nil {
		return err
	}
	reason, msg := CleanReason(body.Reason)
	if msg != "" {
		return web.BadRequest(msg)
	}
	res, err := h.svc.Reject(c.Context(), web.Viewer(c), id, reason, h.site.Origin(c))
	if err != nil {
		return err
	}
	out := fiber.Map{"msg": MsgRejected, "application": res.Application, "grantRevoked": res.Revoked}
	if !res.UndoUntil.IsZero() {
		out["undoUntil"] = res.UndoUntil
	}
	return c.JSON(out)
}

// PUT /admin/applications/:id/reject/undo -> {msg, application}: a rejection from review
// taken back while its mail waits (409 once it has gone).
func (h *Handler) undoReject(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgApplicationMissing)
	}
	res, err := h.svc.UndoReject(c.Context(), web.Viewer(c), id)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": MsgRejectUndone, "application": res.Application})
}

func (h *Handler) payments(c fiber.Ctx) error {
	pg, q, err := pageOf(c)
	if err != nil {
		return err
	}
	status := strings.TrimSpace(c.Query("status"))
	switch status {
	case "", "all":
		status = ""
	case model.PaymentCompleted, model.PaymentPending, model.PaymentFailed:
	default:
		return web.BadRequest("status must be completed, pending or failed.")
	}
	out, err := h.svc.ListPayments(c.Context(), status, q, pg)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (h *Handler) users(c fiber.Ctx) error {
	pg, q, asCSV, err := tableQuery(c, UserSorts)
	if err != nil {
		return err
	}
	role := strings.TrimSpace(c.Query("role"))
	switch role {
	case "", "all":
		role = ""
	case model.RoleUser, model.RoleAdmin:
	default:
		return web.BadRequest(MsgRoleInvalid)
	}
	if asCSV {
		t, err := h.svc.ExportUsers(c.Context(), role, q, pg.Sort)
		if err != nil {
			return err
		}
		return t.send(c, "users")
	}
	out, err := h.svc.ListUsers(c.Context(), role, q, pg)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (h *Handler) user(c fiber.Ctx) error {
	u, err := h.svc.User(c.Context(), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"user": u})
}

func (h *Handler) updateUser(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgUserMissing)
	}
	var e UserEdit
	if err := web.BindJSON(c, &e); err != nil {
		return err
	}
	if msg := e.Clean(); msg != "" {
		return web.BadRequest(msg)
	}
	u, err := h.svc.UpdateUser(c.Context(), web.Viewer(c), id, e, h.site.Origin(c))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": MsgUserUpdated, "user": u})
}

func (h *Handler) profilePic(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgUserMissing)
	}
	fh, err := c.FormFile("profilePic")
	if err != nil || fh == nil {
		return web.BadRequest(user.MsgPictureMissing)
	}
	if fh.Size > user.MaxPictureBytes {
		return web.TooLarge(user.MsgPictureTooLarge)
	}
	f, err := fh.Open()
	if err != nil {
		return web.BadRequest(user.MsgPictureBroken)
	}
	data, err := io.ReadAll(io.LimitReader(f, user.MaxPictureBytes+1))
	f.Close()
	if err != nil {
		return err
	}
	if len(data) > user.MaxPictureBytes {
		return web.TooLarge(user.MsgPictureTooLarge)
	}
	png, err := user.ProcessPicture(data)
	if err != nil {
		if msg, ok := user.IsValidation(err); ok {
			return web.BadRequest(msg)
		}
		return err
	}
	url, err := h.svc.SetProfilePic(c.Context(), web.Viewer(c), id, png, user.NewPictureKey())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": MsgProfilePicUpdated, "profilePicUrl": url})
}

func (h *Handler) audit(c fiber.Ctx) error {
	pg, q, asCSV, err := tableQuery(c, AuditSorts)
	if err != nil {
		return err
	}
	target := strings.TrimSpace(c.Query("targetId"))
	if target != "" && !model.ValidID(target) {
		return web.BadRequest("targetId is not a valid id.")
	}
	action := strings.TrimSpace(c.Query("action"))
	if len(action) > 64 {
		return web.BadRequest("action must be at most 64 characters.")
	}
	if asCSV {
		t, err := h.svc.ExportAudit(c.Context(), action, target, q, pg.Sort)
		if err != nil {
			return err
		}
		return t.send(c, "audit")
	}
	out, err := h.svc.ListAudit(c.Context(), action, target, q, pg)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

// GET /admin/audit/actions -> {actions}: every action the log's filter offers.
func (h *Handler) auditActions(c fiber.Ctx) error {
	out, err := h.svc.AuditActions(c.Context())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"actions": out})
}
