// Package app assembles the Fiber application: middleware, the route table and errors.
package app

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/config"
	"meritmark/app/mail"
	"meritmark/app/middleware"
	"meritmark/app/ratelimit"
	"meritmark/app/session"
	"meritmark/app/storage"
	"meritmark/app/web"
	"meritmark/db"
)

// Deps is what the application is built from; main wires the real parts, tests their own.
type Deps struct {
	Config   *config.Config
	DB       *bun.DB
	Site     *web.Site
	Storage  storage.Store
	Mailer   *mail.Worker
	Sessions *session.Store
	Limiter  *ratelimit.Limiter
	// Static serves /static/*; nil in tests that do not need assets.
	Static fiber.Handler
	// Extra routes appended to the route table (tests use it to mount probes).
	Extra []web.Route
}

// App is the built application.
type App struct {
	*fiber.App
	Deps   *Deps
	Routes []web.Route
}

// DefaultBodyLimit is the request body limit for routes that set none.
const DefaultBodyLimit = 1 << 20

// MaxBodyLimit is the largest body any route accepts (uploads).
const MaxBodyLimit = 128 << 20

// New builds the application.
func New(d *Deps) *App {
	a := &App{Deps: d}
	f := fiber.New(fiber.Config{
		AppName:      "meritmark",
		ErrorHandler: a.errorHandler,
		BodyLimit:    MaxBodyLimit,
		ReadTimeout:  60 * time.Second,
		WriteTimeout: 60 * time.Second,
		IdleTimeout:  120 * time.Second,
		Immutable:    true,
	})
	a.App = f
	f.Use(middleware.RequestID())
	f.Use(middleware.AccessLog(a.errorHandler))
	f.Use(middleware.Recover())
	f.Use(middleware.SecurityHeaders(" https://www.paypal.com https://www.paypalobjects.com", " https://www.paypal.com https://www.sandbox.paypal.com"))

	f.Get("/healthz", func(c fiber.Ctx) error { return c.JSON(fiber.Map{"status": "ok"}) })
	f.Get("/readyz", a.ready)
	if d.Static != nil {
		f.Get("/static/*", d.Static)
		f.Get("/favicon.ico", func(c fiber.Ctx) error {
			return c.Redirect().Status(http.StatusMovedPermanently).To("/static/images/favicon.svg")
		})
	}

	f.Use(middleware.SameOrigin(d.Config.BaseURL))
	if d.Sessions != nil {
		f.Use(d.Sessions.Middleware())
	}
	a.Routes = append(a.routeTable(), d.Extra...)
	for _, r := range a.Routes {
		f.Add([]string{r.Method}, r.Path, accessGuard(r), bodyLimit(r), r.Handler)
	}
	f.Use(a.notFound)
	return a
}

func (a *App) ready(c fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.Context(), 2*time.Second)
	defer cancel()
	if err := a.Deps.DB.PingContext(ctx); err != nil {
		return c.Status(http.StatusServiceUnavailable).JSON(fiber.Map{"status": "not ready", "msg": "database unreachable"})
	}
	return c.JSON(fiber.Map{"status": "ready"})
}

// accessGuard enforces a route's access level: 401 without a session, 403 for a
// non-admin on an admin route. Pages send visitors to /login?next=… instead; the admin
// page itself shows 'Access Denied' to signed-in non-admins.
func accessGuard(r web.Route) fiber.Handler {
	return func(c fiber.Ctx) error {
		if r.Access == web.Public {
			return c.Next()
		}
		u := web.Viewer(c)
		if u == nil {
			if r.Kind == web.Page {
				return c.Redirect().To("/login?next=" + urlQueryEscape(c.OriginalURL()))
			}
			return web.Unauthorized(web.MsgLoginRequired)
		}
		if r.Access == web.Admin && !u.IsAdmin() {
			if r.Kind == web.Page {
				return c.Next() // the page renders Access Denied with status 403
			}
			return web.Forbidden(web.MsgAdminRequired)
		}
		return c.Next()
	}
}

func bodyLimit(r web.Route) fiber.Handler {
	limit := r.BodyLimit
	if limit == 0 {
		limit = DefaultBodyLimit
	}
	return func(c fiber.Ctx) error {
		if n := c.Request().Header.ContentLength(); n > limit || len(c.Body()) > limit {
			return web.TooLarge("The request is too large.")
		}
		return c.Next()
	}
}

func (a *App) notFound(c fiber.Ctx) error {
	if strings.HasPrefix(c.Path(), web.APIBase+"/") || c.Path() == web.APIBase {
		return web.NotFound("Not found.")
	}
	slog.Info("page not found", "path", c.Path())
	return a.Deps.Site.Render(c, "NotFoundPage", fiber.Map{"path": c.Path()}, web.Meta{Title: "Page not found", NoIndex: true, Status: http.StatusNotFound})
}

// errorHandler answers every error: {"msg"} for the API, a page for pages.
func (a *App) errorHandler(c fiber.Ctx, err error) error {
	status := http.StatusInternalServerError
	msg := web.MsgInternal
	var we *web.Error
	var fe *fiber.Error
	switch {
	case errors.As(err, &we):
		status, msg = we.Status, we.Msg
	case errors.As(err, &fe):
		status, msg = fe.Code, fe.Message
		if status == http.StatusRequestEntityTooLarge {
			msg = "The request is too large."
		}
	case db.IsUnavailable(err) || errors.Is(err, context.DeadlineExceeded):
		status, msg = http.StatusServiceUnavailable, web.MsgUnavailable
		slog.Warn("service unavailable", "path", c.Path(), "err", err, "rid", middleware.ID(c))
	default:
		slog.Error("request failed", "path", c.Path(), "err", err, "rid", middleware.ID(c))
	}
	if status == http.StatusServiceUnavailable {
		c.Set("Retry-After", "5")
	}
	if strings.HasPrefix(c.Path(), web.APIBase) || !acceptsHTML(c) {
		return c.Status(status).JSON(fiber.Map{"msg": msg})
	}
	if status == http.StatusNotFound {
		return a.notFound(c)
	}
	var re *web.RenderError
	if errors.As(err, &re) {
		web.LogRenderError(c, err)
	}
	props := fiber.Map{"requestId": middleware.ID(c), "status": status}
	title := "Unexpected Application Error!"
	if status < 500 {
		props["message"] = msg
		title = msg
	}
	doc, rerr := a.Deps.Site.Document(c, "ErrorPage", props, web.Meta{Title: title, NoIndex: true})
	if rerr != nil {
		doc = web.FallbackErrorPage()
	}
	c.Set("Content-Type", "text/html; charset=utf-8")
	return c.Status(status).Send(doc)
}

func acceptsHTML(c fiber.Ctx) bool {
	acc := c.Get("Accept")
	return acc == "" || strings.Contains(acc, "text/html") || strings.Contains(acc, "*/*")
}
