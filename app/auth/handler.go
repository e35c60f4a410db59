package auth

import (
	"context"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/metrics"
	"meritmark/app/ratelimit"
	"meritmark/app/session"
	"meritmark/app/user"
	"meritmark/app/web"
)

// Handler is the HTTP side of the auth feature.
type Handler struct {
	svc     *Service
	site    *web.Site
	prefill SignupPrefill
}

// SignupPrefill answers, for the sign-up page's next address, the e-mail address the
// form starts with and the name of the badge waiting for it (both empty for none): a
// claim link of a direct award (/claim/{token}) prefills the address it was sent to.
type SignupPrefill func(ctx context.Context, next string) (email, badgeName string)

// WithSignupPrefill has the sign-up page prefill its form from next (see SignupPrefill).
func (h *Handler) WithSignupPrefill(f SignupPrefill) *Handler {
	h.prefill = f
	return h
}

// New makes the handler.
func New(d *bun.DB, site *web.Site, sessions *session.Store, limiter *ratelimit.Limiter, mailer *mail.Worker) *Handler {
	svc := &Service{DB: d, Sessions: sessions, Limiter: limiter, Mailer: mailer}
	if limiter != nil {
		svc.Now = limiter.Now // one clock for every sign-in limit (nil: the real one)
	}
	return &Handler{svc: svc, site: site}
}

// WithEvents gives the handler the event bus the grants a confirmation issues are recorded on.
func (h *Handler) WithEvents(b *events.Bus) *Handler {
	h.svc.Events = b
	return h
}

// WithIssuer gives the handler the credential issuer that signs the grants a confirmation
// issues.
func (h *Handler) WithIssuer(i *credential.Issuer) *Handler {
	h.svc.Issuer = i
	return h
}

// WithPolicy gives the handler the access policy (whether admins may drop two-step sign-in).
func (h *Handler) WithPolicy(p web.Policy) *Handler {
	h.svc.Policy = p
	return h
}

// WithMetrics has the service count failed sign-ins and throttle lockouts in m (nil =
// not counted).
func (h *Handler) WithMetrics(m *metrics.Metrics) *Handler {
	h.svc.Metrics = m
	return h
}

// Routes lists the feature's routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/auth/me", web.Member, h.me),
		web.Post("/auth/register", web.Public, h.register),
		web.Post("/auth/verify-email", web.Public, h.verifyEmail),
		web.Post("/auth/resend-verification", web.Member, h.resendVerification),
		web.PageRoute("/verify-email", web.Public, h.verifyEmailPage),
		web.Post("/auth/change-password", web.Member, h.changePassword),
		web.Get("/auth/sessions", web.Member, h.sessions),
		web.Delete("/auth/sessions/:id", web.Member, h.endSession),
		web.Post("/auth/logout-everywhere", web.Member, h.logoutEverywhere),
		web.PageRoute("/account/password", web.Member, h.setPasswordPage),
		web.Post("/auth/login/2fa", web.Public, h.loginMFA),
		web.Post("/auth/2fa/setup", web.Member, h.setupMFA),
		web.Post("/auth/2fa/enable", web.Member, h.enableMFA),
		web.Post("/auth/2fa/disable", web.Member, h.disableMFA),
		web.Post("/auth/2fa/recovery-codes", web.Member, h.regenerateRecovery),
		web.PageRoute("/account/two-factor", web.Member, h.twoFactorPage),
		web.Post("/auth/login", web.Public, h.login),
		web.Post("/auth/logout", web.Public, h.logout),
		web.Post("/auth/forgot-password", web.Public, h.forgot),
		web.Post("/auth/reset-password", web.Public, h.reset),
		web.PageRoute("/login", web.Public, h.loginPage),
		web.PageRoute("/signup", web.Public, h.signupPage),
		web.PageRoute("/reset-password", web.Public, h.resetPage),
		// the sign-in and sign-up forms posted as plain forms (JavaScript off, or sent
		// before their script loaded): urlencoded in, a redirect or the page again out
		{Method: "POST", Path: "/login", Access: web.Public, Kind: web.Page, Handler: h.loginForm},
		{Method: "POST", Path: "/signup", Access: web.Public, Kind: web.Page, Handler: h.signupForm},
		{Method: "POST", Path: "/forgot-password", Access: web.Public, Kind: web.Page, Handler: h.forgotForm},
	}
}

func client(c fiber.Ctx) Client {
	return Client{IP: c.IP(), UserAgent: c.Get("User-Agent"), Device: c.Cookies(DeviceCookie)}
}

// setDevice keeps the device token in the browser for a year; it is sent only to the
// auth API (where sign-in reads it).
func (h *Handler) setDevice(c fiber.Ctx, tok string) {
	c.Cookie(&fiber.Cookie{Name: DeviceCookie, Value: tok, Path: web.APIBase + "/auth", HTTPOnly: true, Secure: h.svc.Sessions.Secure,
		SameSite: fiber.CookieSameSiteStrictMode, MaxAge: int((365 * 24 * time.Hour).Seconds())})
}

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

// POST /auth/register (name, email, password) -> 201 {msg}, the same answer whether or
// not the address has an account; the client signs in next.
func (h *Handler) register(c fiber.Ctx) error {
	var in RegisterInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	if err := h.svc.Register(c.Context(), in, client(c), h.resetOrigin(c)); err != nil {
		return fail(c, err)
	}
	c.Set("Cache-Control", "no-store")
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"msg": MsgRegistered})
}

// POST /auth/verify-email (token) -> {msg, grantsIssued}: confirms the address the link
// was mailed to and issues the grants that waited for it.
func (h *Handler) verifyEmail(c fiber.Ctx) error {
	var in struct {
		Token string `json:"token"`
	}
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	_, n, err := h.svc.VerifyEmail(c.Context(), in.Token, h.resetOrigin(c), client(c))
	if err != nil {
		return fail(c, err)
	}
	return c.JSON(fiber.Map{"msg": MsgVerified, "grantsIssued": n})
}

// POST /auth/resend-verification -> {msg}: a new confirmation link for the signed-in
// member (rate limited).
func (h *Handler) resendVerification(c fiber.Ctx) error {
	if err := h.svc.ResendVerification(c.Context(), web.Viewer(c), h.resetOrigin(c)); err != nil {
		return fail(c, err)
	}
	return web.OK(c, MsgVerifySent)
}

// POST /auth/login (email, password) -> {msg, user}; a new session replaces any old one.
func (h *Handler) login(c fiber.Ctx) error {
	var in LoginInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	u, tok, device, challenge, err := h.svc.Login(c.Context(), in, client(c))
	if err != nil {
		return fail(c, err)
	}
	h.setDevice(c, device)
	if challenge != "" {
		// the password was right; the code comes next (POST /auth/login/2fa)
		c.Cookie(&fiber.Cookie{Name: MFACookie, Value: challenge, Path: web.APIBase + "/auth", HTTPOnly: true, Secure: h.svc.Sessions.Secure,
			SameSite: fiber.CookieSameSiteStrictMode, MaxAge: int(challengeTTL.Seconds())})
		c.Set("Cache-Control", "no-store")
		return c.JSON(fiber.Map{"msg": MsgMFARequired, "mfaRequired": true})
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

// POST /auth/change-password (currentPassword, newPassword) -> {msg}; the other sessions end.
func (h *Handler) changePassword(c fiber.Ctx) error {
	var in ChangeInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	if err := h.svc.ChangePassword(c.Context(), web.Viewer(c), in, session.Token(c)); err != nil {
		return fail(c, err)
	}
	return web.OK(c, MsgPasswordChanged)
}

// GET /auth/sessions -> {sessions}
func (h *Handler) sessions(c fiber.Ctx) error {
	list, err := h.svc.ListSessions(c.Context(), web.Viewer(c), session.Token(c))
	if err != nil {
		return err
	}
	c.Set("Cache-Control", "no-store")
	return c.JSON(fiber.Map{"sessions": list})
}

// DELETE /auth/sessions/:id -> {msg}; ending the current one signs this browser out.
func (h *Handler) endSession(c fiber.Ctx) error {
	cur, err := h.svc.EndSession(c.Context(), web.Viewer(c), c.Params("id"), session.Token(c))
	if err != nil {
		return err
	}
	if cur {
		h.svc.Sessions.ClearCookie(c)
	}
	return web.OK(c, MsgSessionEnded)
}

// POST /auth/logout-everywhere -> {msg}; every session of the member ends, this one too.
func (h *Handler) logoutEverywhere(c fiber.Ctx) error {
	if err := h.svc.Sessions.DeleteAllFor(c.Context(), h.svc.DB, web.Viewer(c).ID); err != nil {
		return err
	}
	h.svc.Sessions.ClearCookie(c)
	return web.OK(c, MsgSignedOutAll)
}

// POST /auth/login/2fa (code | recoveryCode) -> {msg, user}: the second step of a sign-in.
func (h *Handler) loginMFA(c fiber.Ctx) error {
	var in MFAInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	u, tok, err := h.svc.CompleteLogin(c.Context(), c.Cookies(MFACookie), in, client(c))
	if err != nil {
		return fail(c, err)
	}
	c.Cookie(&fiber.Cookie{Name: MFACookie, Value: "", Path: web.APIBase + "/auth", HTTPOnly: true, Secure: h.svc.Sessions.Secure,
		SameSite: fiber.CookieSameSiteStrictMode, MaxAge: -1, Expires: time.Unix(1, 0)})
	h.replaceSession(c, tok)
	j, err := user.View(c.Context(), h.svc.DB, u)
	if err != nil {
		return err
	}
	return h.userJSON(c, MsgLoggedIn, fiber.StatusOK, j)
}

// POST /auth/2fa/setup -> {secret, otpauthUrl, qr}: a new secret to enrol.
func (h *Handler) setupMFA(c fiber.Ctx) error {
	out, err := h.svc.SetupTOTP(c.Context(), web.Viewer(c))
	if err != nil {
		return err
	}
	c.Set("Cache-Control", "no-store")
	return c.JSON(out)
}

// POST /auth/2fa/enable (code) -> {msg, recoveryCodes}
func (h *Handler) enableMFA(c fiber.Ctx) error {
	var in struct {
		Code string `json:"code"`
	}
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	codes, err := h.svc.EnableTOTP(c.Context(), web.Viewer(c), in.Code)
	if err != nil {
		return fail(c, err)
	}
	c.Set("Cache-Control", "no-store")
	return c.JSON(fiber.Map{"msg": MsgMFAEnabled, "recoveryCodes": codes})
}

// POST /auth/2fa/disable (password) -> {msg}; not for admins.
func (h *Handler) disableMFA(c fiber.Ctx) error {
	var in struct {
		Password string `json:"password"`
	}
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	if err := h.svc.DisableTOTP(c.Context(), web.Viewer(c), in.Password); err != nil {
		return fail(c, err)
	}
	return web.OK(c, MsgMFADisabled)
}

// POST /auth/2fa/recovery-codes (password, code) -> {msg, recoveryCodes}: new recovery
// codes; the old ones stop working.
func (h *Handler) regenerateRecovery(c fiber.Ctx) error {
	var in struct {
		Password string `json:"password"`
		Code     string `json:"code"`
	}
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	codes, err := h.svc.RegenerateRecoveryCodes(c.Context(), web.Viewer(c), in.Password, in.Code)
	if err != nil {
		return fail(c, err)
	}
	c.Set("Cache-Control", "no-store")
	return c.JSON(fiber.Map{"msg": MsgRecoveryReplaced, "recoveryCodes": codes})
}
