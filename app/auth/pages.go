package auth

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/web"
)

// GET /verify-email?token=…: the page confirms the address with a POST (a mail scanner
// fetching the link confirms nothing). The token stays out of the canonical URL.
func (h *Handler) verifyEmailPage(c fiber.Ctx) error {
	c.Set("Referrer-Policy", "no-referrer")
	err := h.site.Render(c, "VerifyEmailPage", fiber.Map{"token": c.Query("token")},
		web.Meta{Title: "Confirm your email", Description: "Confirm the email address of your Meritmark account.", Path: "/verify-email", NoIndex: true})
	c.Set("Cache-Control", "no-store")
	return err
}

// GET /login: signed-in users go on to next (a local path) or home.
func (h *Handler) loginPage(c fiber.Ctx) error {
	next := SafeNext(c.Query("next"))
	if web.Viewer(c) != nil {
		return c.Redirect().To(next)
	}
	// ?forgot=1: the Forgot Password form as a page (the link's target without JavaScript)
	props := fiber.Map{"next": next, "reset": c.Query("reset") == "1", "forgot": c.Query("forgot") == "1"}
	return h.site.Render(c, "LoginPage", props, web.Meta{Title: "Login", Description: "Sign in to Meritmark to earn, manage and share your verified badges.", Path: "/login"})
}

// GET /signup: signed-in users go home.
func (h *Handler) signupPage(c fiber.Ctx) error {
	if web.Viewer(c) != nil {
		return c.Redirect().To("/")
	}
	next := SafeNext(c.Query("next"))
	props := fiber.Map{"next": next}
	prefilled := false
	if h.prefill != nil {
		if email, badge := h.prefill(c.Context(), next); email != "" {
			props["email"], props["claimBadge"], prefilled = email, badge, true
		}
	}
	if !prefilled {
		return h.site.Render(c, "SignupPage", props,
			web.Meta{Title: "Sign Up", Description: "Create your Meritmark account and start earning verified professional badges.", Path: "/signup"})
	}
	// the address came from a claim link: kept out of caches, referrers and indexes
	c.Set("Referrer-Policy", "no-referrer")
	err := h.site.Render(c, "SignupPage", props,
		web.Meta{Title: "Sign Up", Description: "Create your Meritmark account and start earning verified professional badges.", Path: "/signup", NoIndex: true})
	c.Set("Cache-Control", "no-store")
	return err
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

// Plain form posts of the sign-in and sign-up pages. The islands post the same forms as
// JSON; without JavaScript the browser sends them urlencoded to the page's own address.
// Success redirects (303) to next; a failure renders the page again with the message
// and the typed values (never the password) and the matching status.

// formFailure is the status and message a failed form post shows; ok is false for a
// server fault, which goes to the error handler as usual.
func formFailure(c fiber.Ctx, err error, fallback string) (int, string, bool) {
	if rl, isRL := isRateLimited(err); isRL {
		c.Set("Retry-After", strconv.Itoa(int(rl.RetryAfter.Seconds())+1))
		return http.StatusTooManyRequests, rl.Msg, true
	}
	var we *web.Error
	if errors.As(err, &we) && we.Status >= 400 && we.Status < 500 {
		if fallback != "" {
			return we.Status, fallback, true
		}
		return we.Status, we.Msg, true
	}
	return 0, "", false
}

// POST /login (email, password, next).
func (h *Handler) loginForm(c fiber.Ctx) error {
	next := SafeNext(c.FormValue("next"))
	email := strings.TrimSpace(c.FormValue("email"))
	_, tok, device, challenge, err := h.svc.Login(c.Context(), LoginInput{Email: email, Password: c.FormValue("password")}, client(c))
	if err == nil && challenge != "" {
		// the code step needs the page's script: say so rather than sign in half-way
		h.setDevice(c, device)
		c.Set("Cache-Control", "no-store")
		return h.site.Render(c, "LoginPage", fiber.Map{"next": next, "reset": false, "error": MsgFormMFANeedsScript, "email": email},
			web.Meta{Title: "Login", Path: "/login", NoIndex: true, Status: http.StatusUnauthorized})
	}
	if err != nil {
		// the spec's message whatever the cause; a rate limit says how long to wait
		status, msg, ok := formFailure(c, err, "")
		if !ok {
			return err
		}
		if status != http.StatusTooManyRequests {
			msg = MsgFormLoginFailed
		}
		c.Set("Cache-Control", "no-store")
		return h.site.Render(c, "LoginPage", fiber.Map{"next": next, "reset": false, "error": msg, "email": email},
			web.Meta{Title: "Login", Path: "/login", NoIndex: true, Status: status})
	}
	h.setDevice(c, device)
	h.replaceSession(c, tok)
	return c.Redirect().Status(http.StatusSeeOther).To(next)
}

// POST /signup (name, email, password, confirmPassword, next).
func (h *Handler) signupForm(c fiber.Ctx) error {
	next := SafeNext(c.FormValue("next"))
	name, email := strings.TrimSpace(c.FormValue("name")), strings.TrimSpace(c.FormValue("email"))
	again := func(status int, msg string) error {
		c.Set("Cache-Control", "no-store")
		return h.site.Render(c, "SignupPage", fiber.Map{"next": next, "error": msg, "name": name, "email": email},
			web.Meta{Title: "Sign Up", Path: "/signup", NoIndex: true, Status: status})
	}
	if c.FormValue("password") != c.FormValue("confirmPassword") {
		return again(http.StatusBadRequest, MsgFormPasswordsDiffer)
	}
	if err := h.svc.Register(c.Context(), RegisterInput{Name: name, Email: email, Password: c.FormValue("password")}, client(c), h.resetOrigin(c)); err != nil {
		status, msg, ok := formFailure(c, err, "")
		if !ok {
			return err
		}
		return again(status, msg)
	}
	// register answers the same whether or not the address had an account; signing in
	// tells the two apart without saying more than the API does
	_, tok, device, challenge, err := h.svc.Login(c.Context(), LoginInput{Email: email, Password: c.FormValue("password")}, client(c))
	if err == nil && challenge != "" {
		// an existing account with two-step sign-in and this password: send them to sign in
		return again(http.StatusUnauthorized, MsgFormCheckInbox)
	}
	if err != nil {
		status, msg, ok := formFailure(c, err, "")
		if !ok {
			return err
		}
		if status != http.StatusTooManyRequests {
			msg = MsgFormCheckInbox
		}
		return again(status, msg)
	}
	h.setDevice(c, device)
	h.replaceSession(c, tok)
	return c.Redirect().Status(http.StatusSeeOther).To(next)
}

// POST /forgot-password (email): the Forgot Password form of /login?forgot=1 (the page
// without JavaScript). It answers the login page with the API's message, the same for
// known and unknown addresses; a bad address or a rate limit shows the form again.
func (h *Handler) forgotForm(c fiber.Ctx) error {
	email := strings.TrimSpace(c.FormValue("email"))
	var err error
	if ferr := h.svc.ForgotPassword(c.Context(), email, h.resetOrigin(c), client(c)); ferr != nil {
		status, msg, ok := formFailure(c, ferr, "")
		if !ok {
			return ferr
		}
		err = h.site.Render(c, "LoginPage", fiber.Map{"next": "/", "forgot": true, "forgotError": msg, "email": email},
			web.Meta{Title: "Forgot Password", Path: "/login", NoIndex: true, Status: status})
	} else {
		err = h.site.Render(c, "LoginPage", fiber.Map{"next": "/", "notice": MsgResetSent, "email": email},
			web.Meta{Title: "Login", Path: "/login", NoIndex: true})
	}
	c.Set("Cache-Control", "no-store")
	return err
}

// Messages of the plain form posts (the islands show the same as toasts).
const (
	MsgFormLoginFailed     = "Login Failed: Please check your credentials"
	MsgFormPasswordsDiffer = "Passwords don't match: Please make sure your passwords match."
	MsgFormMFANeedsScript  = "Two-step sign-in is on for this account: enable JavaScript to enter the code from your authenticator app."
	MsgFormCheckInbox      = "Check your inbox: if this address already has an account, we have emailed its owner. Log in instead, or use Forgot Password."
)

// GET /account/password: the page where a member must choose a new password (the seeded
// admin at first sign-in) or changes it.
func (h *Handler) setPasswordPage(c fiber.Ctx) error {
	u := web.Viewer(c)
	err := h.site.Render(c, "SetPasswordPage", fiber.Map{"required": u.MustChangePassword, "email": u.Email, "next": SafeNext(c.Query("next"))},
		web.Meta{Title: "Choose a new password", Description: "Choose a new password for your Meritmark account.", Path: "/account/password", NoIndex: true})
	c.Set("Cache-Control", "no-store")
	return err
}

// GET /account/two-factor: set up (or see) two-step sign-in; admins are sent here first.
func (h *Handler) twoFactorPage(c fiber.Ctx) error {
	u := web.Viewer(c)
	err := h.site.Render(c, "TwoFactorPage", fiber.Map{"enabled": u.TOTPEnabled(), "required": h.svc.Policy.AdminKeepsTwoStep(u), "next": SafeNext(c.Query("next"))},
		web.Meta{Title: "Two-step sign-in", Description: "Protect your Meritmark account with an authenticator app.", Path: "/account/two-factor", NoIndex: true})
	c.Set("Cache-Control", "no-store")
	return err
}
