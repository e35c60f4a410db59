package auth

import (
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/mail"
	"meritmark/app/ratelimit"
	"meritmark/app/session"
	"meritmark/app/user"
	"meritmark/app/web"
)

// Handler is the HTTP side of the auth feature.
type Handler struct {
	svc  *Service
	site *web.Site
}

// New makes the handler.
func New(d *bun.DB, site *web.Site, sessions *session.Store, limiter *ratelimit.Limiter, mailer *mail.Worker) *Handler {
	return &Handler{svc: &Service{DB: d, Sessions: sessions, Limiter: limiter, Mailer: mailer}, site: site}
}

// Routes lists the feature's routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/auth/me", web.Member, h.me),
		web.Post("/auth/register", web.Public, h.register),
		web.Post("/auth/login", web.Public, h.login),
		web.Post("/auth/logout", web.Public, h.logout),
		web.Post("/auth/forgot-password", web.Public, h.forgot),
		web.Post("/auth/reset-password", web.Public, h.reset),
		web.PageRoute("/login", web.Public, h.loginPage),
		web.PageRoute("/signup", web.Public, h.signupPage),
		web.PageRoute("/reset-password", web.Public, h.resetPage),
	}
}

func client(c fiber.Ctx) Client { return Client{IP: c.IP(), UserAgent: c.Get("User-Agent")} }

// fail answers a rate-limited request with Retry-After, and passes other errors on.
func fail(c fiber.Ctx, err error) error {
	if rl, ok := isRateLimited(err); ok {
		secs := int(rl.RetryAfter.Seconds()) + 1
		c.Set("Retry-After", strconv.Itoa(secs))
		return web.TooMany(rl.Msg)
	}
	return err
}

func (h *Handler) userJSON(c fiber.Ctx, msg string, status int, u any) error {
	m := fiber.Map{"user": u}
	if msg != "" {
		m["msg"] = msg
	}
	c.Set("Cache-Control", "no-store")
	return c.Status(status).JSON(m)
}

// GET /auth/me -> {user}
func (h *Handler) me(c fiber.Ctx) error {
	j, err := user.View(c.Context(), h.svc.DB, web.Viewer(c))
	if err != nil {
		return err
	}
	return h.userJSON(c, "", fiber.StatusOK, j)
}

// POST /auth/register (name, email, password) -> 201 {msg, user}; signed in.
func (h *Handler) register(c fiber.Ctx) error {
	var in RegisterInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	u, tok, err := h.svc.Register(c.Context(), in, client(c))
	if err != nil {
		return fail(c, err)
	}
	h.replaceSession(c, tok)
	j, err := user.View(c.Context(), h.svc.DB, u)
	if err != nil {
		return err
	}
	return h.userJSON(c, MsgRegistered, fiber.StatusCreated, j)
}

// POST /auth/login (email, password) -> {msg, user}; a new session replaces any old one.
func (h *Handler) login(c fiber.Ctx) error {
	var in LoginInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	u, tok, err := h.svc.Login(c.Context(), in, client(c))
	if err != nil {
		return fail(c, err)
	}
	h.replaceSession(c, tok)
	j, err := user.View(c.Context(), h.svc.DB, u)
	if err != nil {
		return err
	}
	return h.userJSON(c, MsgLoggedIn, fiber.StatusOK, j)
}

// replaceSession ends the request's session, if any, and sets the new token: the session
// id is rotated at every sign-in, so a token planted before it is worthless after.
func (h *Handler) replaceSession(c fiber.Ctx, tok string) {
	if old := session.Token(c); old != "" {
		if err := h.svc.Sessions.Delete(c.Context(), old); err != nil {
			slog.Warn("end previous session", "err", err)
		}
	}
	h.svc.Sessions.SetCookie(c, tok)
}

// POST /auth/logout -> {msg}; ends the session (fine without one).
func (h *Handler) logout(c fiber.Ctx) error {
	if tok := session.Token(c); tok != "" {
		if err := h.svc.Sessions.Delete(c.Context(), tok); err != nil {
			return err
		}
	}
	h.svc.Sessions.ClearCookie(c)
	return web.OK(c, MsgLoggedOut)
}

var warnOrigin sync.Once

// resetOrigin is the origin the reset link points to: the configured base URL, else the
// request's own. Without a base URL the link follows the request's Host header, which a
// client chooses: production must set MERITMARK_BASE_URL (warned once when the host is not
// a local one).
func (h *Handler) resetOrigin(c fiber.Ctx) string {
	if h.site.BaseURL == "" {
		host := c.Hostname()
		if hh, _, err := net.SplitHostPort(host); err == nil {
			host = hh
		}
		if host != "localhost" && net.ParseIP(strings.Trim(host, "[]")) == nil {
			warnOrigin.Do(func() {
				slog.Warn("MERITMARK_BASE_URL is not set: links ignore the request's Host header and point to this machine's loopback address; set it in production", "host", host)
			})
		}
	}
	return h.site.Origin(c)
}

// POST /auth/forgot-password (email) -> {msg}, the same for known and unknown emails.
func (h *Handler) forgot(c fiber.Ctx) error {
	var in struct {
		Email string `json:"email"`
	}
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	if err := h.svc.ForgotPassword(c.Context(), in.Email, h.resetOrigin(c), client(c)); err != nil {
		return fail(c, err)
	}
	return web.OK(c, MsgResetSent)
}

// POST /auth/reset-password (email, token, newPassword) -> {msg}
func (h *Handler) reset(c fiber.Ctx) error {
	var in ResetInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	if err := h.svc.ResetPassword(c.Context(), in, client(c)); err != nil {
		return fail(c, err)
	}
	// every session of the user has ended, this browser's too if it had one
	if session.Token(c) != "" {
		h.svc.Sessions.ClearCookie(c)
	}
	return web.OK(c, MsgResetDone)
}

// GET /login: signed-in users go on to next (a local path) or home.
func (h *Handler) loginPage(c fiber.Ctx) error {
	next := SafeNext(c.Query("next"))
	if web.Viewer(c) != nil {
		return c.Redirect().To(next)
	}
	props := fiber.Map{"next": next, "reset": c.Query("reset") == "1"}
	return h.site.Render(c, "LoginPage", props, web.Meta{Title: "Login", Description: "Sign in to Meritmark to earn, manage and share your verified badges.", Path: "/login"})
}

// GET /signup: signed-in users go home.
func (h *Handler) signupPage(c fiber.Ctx) error {
	if web.Viewer(c) != nil {
		return c.Redirect().To("/")
	}
	return h.site.Render(c, "SignupPage", fiber.Map{"next": SafeNext(c.Query("next"))},
		web.Meta{Title: "Sign Up", Description: "Create your Meritmark account and start earning verified professional badges.", Path: "/signup"})
}

// GET /reset-password?email=…&token=…: the page shows 'Invalid Reset Link' when either is
// missing. The token stays out of the canonical URL and the page is not indexed or cached.
func (h *Handler) resetPage(c fiber.Ctx) error {
	c.Set("Referrer-Policy", "no-referrer")
	err := h.site.Render(c, "ResetPasswordPage", fiber.Map{"email": NormalizeEmail(c.Query("email")), "token": c.Query("token")},
		web.Meta{Title: "Reset Password", Description: "Choose a new password for your Meritmark account.", Path: "/reset-password", NoIndex: true})
	c.Set("Cache-Control", "no-store")
	return err
}
