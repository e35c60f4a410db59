package account

import (
	"bytes"
	"errors"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/auth"
	"meritmark/app/config"
	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/ratelimit"
	"meritmark/app/session"
	"meritmark/app/storage"
	"meritmark/app/verify"
	"meritmark/app/web"
	"meritmark/db"
)

// Deps are the feature's dependencies (from app.Deps).
type Deps struct {
	DB       *bun.DB
	Site     *web.Site
	Config   *config.Config
	Storage  storage.Store
	Limiter  *ratelimit.Limiter // optional: no export limit without it
	Mailer   *mail.Worker
	Sessions *session.Store
	Events   *events.Bus
	Issuer   *credential.Issuer
}

// Handler is the HTTP side of the data rights.
type Handler struct {
	svc      *Service
	site     *web.Site
	limiter  *ratelimit.Limiter
	sessions *session.Store
}

// New makes the handler: the credential issuer the verify pages use, and the auth
// feature's checks of passwords and two-step codes.
func New(d Deps) *Handler {
	iss := d.Issuer
	a := auth.New(d.DB, d.Site, d.Sessions, d.Limiter, d.Mailer).WithSecretKey(d.Config).WithIssuer(iss).Service()
	svc := &Service{DB: d.DB, Store: d.Storage, Issuer: iss, Credentials: verify.NewService(d.DB, iss, nil, ""), Auth: a, Mailer: d.Mailer, Events: d.Events}
	return &Handler{svc: svc, site: d.Site, limiter: d.Limiter, sessions: d.Sessions}
}

// Service is the handler's service (tests use it).
func (h *Handler) Service() *Service { return h.svc }

// Routes lists the feature's routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/users/export", web.Member, h.export),
		web.Post("/users/delete", web.Member, h.delete),
		web.Get("/admin/users/:id/export", web.Admin, h.adminExport),
		web.Post("/admin/users/:id/delete", web.Admin, h.adminDelete),
	}
}

// confirmInput is the body of both deletes: the actor's password, and a code of their
// authenticator app when two-step sign-in is on.
type confirmInput struct {
	Password string `json:"password"`
	Code     string `json:"code"`
}

// GET /users/export -> the member's data as a zip.
func (h *Handler) export(c fiber.Ctx) error {
	u := web.Viewer(c)
	return h.sendExport(c, u, u)
}

// GET /admin/users/{id}/export -> the member's data as a zip, for an administrator.
func (h *Handler) adminExport(c fiber.Ctx) error {
	u, err := h.target(c)
	if err != nil {
		return err
	}
	return h.sendExport(c, web.Viewer(c), u)
}

// target loads the account of the path's id (404 for a malformed, unknown or deleted one).
func (h *Handler) target(c fiber.Ctx) (*model.User, error) {
	id := c.Params("id")
	if !model.ValidID(id) {
		return nil, web.NotFound(MsgUserNotFound)
	}
	u, err := findUser(c.Context(), h.svc.DB, id, false)
	if errors.Is(err, db.ErrNotFound) || (err == nil && u.Deleted()) {
		return nil, web.NotFound(MsgUserNotFound)
	}
	return u, err
}

func (h *Handler) sendExport(c fiber.Ctx, actor, u *model.User) error {
	if h.limiter != nil {
		ok, err := h.limiter.Allow(c.Context(), "export:"+actor.ID, exportsPerHour, time.Hour)
		if err != nil {
			return err
		}
		if !ok {
			c.Set("Retry-After", "3600")
			return web.TooMany(MsgTooManyExports)
		}
	}
	var buf bytes.Buffer
	if err := h.svc.Export(c.Context(), u, h.site.Origin(c), &buf); err != nil {
		return err
	}
	if err := audit.Write(c.Context(), h.svc.DB, actor, "user.export", "user", u.ID, nil, map[string]any{"bytes": buf.Len()}); err != nil {
		return err
	}
	c.Set("Content-Type", "application/zip")
	c.Set("Content-Disposition", `attachment; filename="`+ExportName(model.Now())+`"`)
	c.Set("Cache-Control", "no-store")
	c.Set("X-Content-Type-Options", "nosniff")
	return c.Send(buf.Bytes())
}

// POST /users/delete {password, code} -> {msg, redirect}; the session ends.
func (h *Handler) delete(c fiber.Ctx) error {
	var in confirmInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	u := web.Viewer(c)
	if err := h.svc.Auth.ConfirmIdentity(c.Context(), u, in.Password, in.Code); err != nil {
		return auth.Fail(c, err)
	}
	res, err := h.svc.Delete(c.Context(), u, u.ID, h.site.Origin(c))
	if err != nil {
		return err
	}
	h.sessions.ClearCookie(c)
	return c.JSON(fiber.Map{"msg": MsgDeleted, "redirect": "/", "deleted": res})
}

// POST /admin/users/{id}/delete {password, code} -> {msg, deleted}: the administrator
// confirms with their own password (and code); never their own account.
func (h *Handler) adminDelete(c fiber.Ctx) error {
	var in confirmInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	admin := web.Viewer(c)
	u, err := h.target(c)
	if err != nil {
		return err
	}
	if u.ID == admin.ID {
		return web.Forbidden(MsgNotYourself)
	}
	if err := h.svc.Auth.ConfirmIdentity(c.Context(), admin, in.Password, in.Code); err != nil {
		return auth.Fail(c, err)
	}
	res, err := h.svc.Delete(c.Context(), admin, u.ID, h.site.Origin(c))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": MsgAdminDeleted, "deleted": res})
}
