package auth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/metrics"
	"meritmark/app/model"
	"meritmark/app/ratelimit"
	"meritmark/app/session"
	"meritmark/app/web"
	"meritmark/db"
)

// Rate limits: how many requests one IP address or one email may make per window.
type limit struct {
	prefix string
	n      int
	per    time.Duration
	msg    string
}

var (
	signupPerIP    = limit{"register:ip:", 10, time.Hour, MsgTooManySignups}
	signupPerEmail = limit{"register:email:", 5, time.Hour, MsgTooManySignups}
	forgotPerIP    = limit{"forgot:ip:", 10, time.Hour, MsgTooManyResets}
	forgotPerEmail = limit{"forgot:email:", 3, time.Hour, MsgTooManyResets}
	// the owner's own requests, from a device or network that signed in to the account
	// before, have their own count (forgotAllowed)
	forgotTrusted = limit{"forgot:trusted:", 3, time.Hour, MsgTooManyResets}
	resetPerIP    = limit{"reset:ip:", 20, time.Hour, MsgTooManyResetTries}
)

// RateLimitedError is a request over a limit; RetryAfter is when the window ends.
type RateLimitedError struct {
	Msg        string
	RetryAfter time.Duration
}

func (e *RateLimitedError) Error() string { return e.Msg }

// Service is the use cases of sign-up, sign-in and password reset.
type Service struct {
	DB       *bun.DB
	Sessions *session.Store
	Limiter  *ratelimit.Limiter
	Mailer   *mail.Worker
	Now      func() time.Time
	Box      *SecretBox // seals TOTP secrets at rest (secretbox.go)
	// Metrics counts failed sign-ins and throttle lockouts (nil = not counted).
	Metrics *metrics.Metrics
	// Policy is the access policy (admins keep two-step sign-in unless it says otherwise).
	Policy web.Policy
	// Events records the grants a confirmation issues (app/events).
	Events *events.Bus
	// Issuer signs the grants a confirmation issues.
	Issuer *credential.Issuer
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC().Truncate(time.Microsecond)
	}
	return model.Now()
}

// check counts one request against each limit (all of them, so that a flood from one IP
// is counted per email too) and fails with the first exceeded.
func (s *Service) check(ctx context.Context, keys ...keyed) error {
	var over *RateLimitedError
	for _, kl := range keys {
		l := kl.l
		ok, err := s.Limiter.Allow(ctx, l.prefix+kl.key, l.n, l.per)
		if err != nil {
			return err
		}
		if !ok && over == nil {
			now := time.Now()
			if s.Limiter.Now != nil {
				now = s.Limiter.Now()
			}
			over = &RateLimitedError{Msg: l.msg, RetryAfter: now.Truncate(l.per).Add(l.per).Sub(now)}
		}
	}
	if over != nil {
		return over
	}
	return nil
}

type keyed struct {
	l   limit
	key string
}

// Client is who sends the request: its address, its user agent and its device cookie.
type Client struct{ IP, UserAgent, Device string }

// RegisterInput is the body of POST /auth/register.
type RegisterInput struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	Password string `json:"password"`
}

// Register creates a member and mails a link to confirm the address. It answers the
// same whether or not the address already has an account: for an existing one, the
// owner is mailed "you already have an account" instead, and nothing else changes. It
// does not sign in (the client signs in next, as after any sign-up).
func (s *Service) Register(ctx context.Context, in RegisterInput, cl Client, origin string) error {
	name, email := CleanName(in.Name), NormalizeEmail(in.Email)
	switch {
	case name == "":
		return web.BadRequest(MsgNameRequired)
	case len([]rune(name)) > MaxName:
		return web.BadRequest(MsgNameTooLong)
	case email == "":
		return web.BadRequest(MsgEmailRequired)
	case !ValidEmail(email):
		return web.BadRequest(MsgEmailInvalid)
	}
	if p := PasswordProblemFor(in.Password, email, name); p != "" {
		return web.BadRequest(p)
	}
	if err := s.check(ctx, keyed{signupPerIP, cl.IP}, keyed{signupPerEmail, email}); err != nil {
		return err
	}
	// hashed in both cases, so that an existing address takes as long as a new one
	hash, err := HashPassword(in.Password)
	if err != nil {
		return err
	}
	now := s.now()
	u := &model.User{ID: model.NewID(), Name: name, Email: email, PasswordHash: hash, Role: model.RoleUser,
		Skills: []string{}, CreatedAt: now, UpdatedAt: now}
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		n, err := tx.NewSelect().Model((*model.User)(nil)).Where("email = ?", email).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return mail.Queue(ctx, tx, existingAccountMail(email, origin))
		}
		if _, err := tx.NewInsert().Model(u).Exec(ctx); err != nil {
			return err
		}
		return queueVerification(ctx, tx, u, origin, now)
	})
	if db.IsUniqueViolation(err) {
		// the same address signed up at the same moment: tell its owner, like above
		err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			return mail.Queue(ctx, tx, existingAccountMail(email, origin))
		})
	}
	if err != nil {
		return err
	}
	s.kick()
	return nil
}

// LoginInput is the body of POST /auth/login.
type LoginInput struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// Login checks the credentials and starts a new session; it answers the user, the
// session token and the device token to keep in the browser (see throttle.go). A failure
// never says whether the email exists: an unknown email is checked against a dummy hash,
// so it takes as long as a wrong password, is throttled the same way, and both answer the
// same message.
//
// With two-factor sign-in on, no session starts: the last answer is the token of a
// challenge that CompleteLogin finishes with a code.
func (s *Service) Login(ctx context.Context, in LoginInput, cl Client) (*model.User, string, string, string, error) {
	email := NormalizeEmail(in.Email)
	if email == "" || in.Password == "" {
		return nil, "", "", "", web.BadRequest(MsgLoginFields)
	}
	if !ValidEmail(email) {
		return nil, "", "", "", web.BadRequest(MsgEmailInvalid)
	}
	now := s.now()
	var u model.User
	err := s.DB.NewSelect().Model(&u).Where("email = ?", email).Scan(ctx)
	if err != nil && !db.IsNoRows(err) {
		return nil, "", "", "", err
	}
	known := err == nil
	var up *model.User
	if known {
		up = &u
	}
	trusted, err := s.trust(ctx, up, cl, now)
	if err != nil {
		return nil, "", "", "", err
	}
	cs := counts(email, up, cl, trusted)
	wait, err := s.reserve(ctx, cs, now)
	if err != nil {
		return nil, "", "", "", err
	}
	if wait > 0 {
		s.Metrics.SignInFailed(metrics.ReasonThrottled)
		return nil, "", "", "", &RateLimitedError{Msg: MsgTooManyLogins, RetryAfter: wait}
	}
	hash := u.PasswordHash
	if !known {
		hash = dummyHash
	}
	ok, herr := CheckPassword(hash, in.Password)
	if !known || herr != nil || !ok {
		s.Metrics.SignInFailed(metrics.ReasonPassword)
		return nil, "", "", "", web.Unauthorized(MsgBadCredentials)
	}
	// a success never counts, and clears this client's own counts
	s.release(ctx, cs, true, now)
	if u.Disabled() { // told only to whoever knows the password
		return nil, "", "", "", web.Forbidden(MsgAccountDisabled)
	}
	device := cl.Device
	if len(device) < 40 || len(device) > 100 {
		device = NewToken()
	}
	if err := s.remember(ctx, u.ID, device, cl.IP, now); err != nil {
		return nil, "", "", "", err
	}
	if u.TOTPEnabled() {
		ch, err := s.startChallenge(ctx, &u, cl, now)
		if err != nil {
			return nil, "", "", "", err
		}
		return &u, "", device, ch, nil
	}
	tok, err := s.Sessions.Create(ctx, s.DB, u.ID, cl.IP, cl.UserAgent)
	if err != nil {
		return nil, "", "", "", err
	}
	return &u, tok, device, "", nil
}

// ForgotPassword mails a reset link to email when it belongs to an account. It answers
// the same whether or not it does.
func (s *Service) ForgotPassword(ctx context.Context, rawEmail, origin string, cl Client) error {
	email := NormalizeEmail(rawEmail)
	if email == "" {
		return web.BadRequest(MsgEmailRequired)
	}
	if !ValidEmail(email) {
		return web.BadRequest(MsgEmailInvalid)
	}
	now := s.now()
	u, err := s.forgotAllowed(ctx, email, cl, now)
	if err != nil || u == nil {
		return err
	}
	tok := NewToken()
	link := ResetLink(origin, u.Email, tok)
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// the user's spent tokens are of no further use: keep the table small
		if _, err := tx.NewDelete().Model((*model.PasswordReset)(nil)).
			Where("user_id = ? AND (used_at IS NOT NULL OR expires_at <= ?)", u.ID, now).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(&model.PasswordReset{
			ID: HashToken(tok), UserID: u.ID, ExpiresAt: now.Add(ResetTTL), CreatedAt: now,
		}).Exec(ctx); err != nil {
			return err
		}
		return mail.Queue(ctx, tx, resetMail(u, link))
	})
	if err != nil {
		return err
	}
	s.kick()
	return nil
}

// ResetInput is the body of POST /auth/reset-password.
type ResetInput struct {
	Email       string `json:"email"`
	Token       string `json:"token"`
	NewPassword string `json:"newPassword"`
}

var errResetInvalid = web.BadRequest(MsgResetInvalid)

// ResetPassword sets a new password with a reset token: the token must be the email's,
// unused and less than an hour old. It is used up, every other token of the user too,
// and every session of the user ends.
func (s *Service) ResetPassword(ctx context.Context, in ResetInput, cl Client) error {
	email, tok := NormalizeEmail(in.Email), in.Token
	if email == "" || tok == "" {
		return web.BadRequest(MsgResetFields)
	}
	if in.NewPassword == "" {
		return web.BadRequest(MsgNewPassword)
	}
	if p := PasswordProblemFor(in.NewPassword, email, ""); p != "" {
		return web.BadRequest(p)
	}
	if err := s.check(ctx, keyed{resetPerIP, cl.IP}); err != nil {
		return err
	}
	if len(tok) > 100 || !ValidEmail(email) {
		return errResetInvalid
	}
	now := s.now()
	var r model.PasswordReset
	err := s.DB.NewSelect().Model(&r).Where("id = ?", HashToken(tok)).Scan(ctx)
	if db.IsNoRows(err) {
		return errResetInvalid
	}
	if err != nil {
		return err
	}
	var u model.User
	if err := s.DB.NewSelect().Model(&u).Where("id = ?", r.UserID).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return errResetInvalid
		}
		return err
	}
	if u.Email != email || r.UsedAt != nil || !now.Before(r.ExpiresAt) {
		return errResetInvalid
	}
	hash, err := HashPassword(in.NewPassword)
	if err != nil {
		return err
	}
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// the guard makes the token single-use even when two requests race
		res, err := tx.NewUpdate().Model((*model.PasswordReset)(nil)).Set("used_at = ?", now).
			Where("id = ? AND used_at IS NULL AND expires_at > ?", r.ID, now).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errResetInvalid
		}
		if _, err := tx.NewUpdate().Model((*model.User)(nil)).Set("password_hash = ?", hash).Set("updated_at = ?", now).
			Where("id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model((*model.PasswordReset)(nil)).Set("used_at = ?", now).
			Where("user_id = ? AND used_at IS NULL", u.ID).Exec(ctx); err != nil {
			return err
		}
		if err := s.Sessions.DeleteAllFor(ctx, tx, u.ID); err != nil {
			return err
		}
		if err := endWallets(ctx, tx, &u, walletsEndedByReset); err != nil {
			return err
		}
		return mail.Queue(ctx, tx, changedMail(&u))
	})
	if err == nil {
		s.kick()
	}
	return err
}

// kick asks the mail worker to deliver what was just queued.
func (s *Service) kick() {
	if s.Mailer != nil {
		s.Mailer.Kick()
	}
}

func resetMail(u *model.User, link string) mail.Message {
	return mail.Letter{To: u.Email, Subject: "Reset your Meritmark password", Greeting: "Hello " + u.Name + ",",
		Paragraphs: []mail.Paragraph{{Text: "We received a request to reset the password of your Meritmark account (" + u.Email + "). Open this link within one hour to choose a new password:"}},
		Action:     &mail.Link{Label: "Reset my password", URL: link},
		Small:      []string{"The link works once. If you did not ask for a new password, you can ignore this email: your password stays as it is."},
		SignOff:    "The Meritmark team"}.Message()
}

func changedMail(u *model.User) mail.Message {
	text := fmt.Sprintf(`Hello %s,

The password of your Meritmark account (%s) was just changed with a reset link, and
every device signed in to the account was signed out.

If this was not you, reset your password again right away from the login page and
contact our support team.

The Meritmark team
`, u.Name, u.Email)
	return mail.Message{To: u.Email, Subject: "Your Meritmark password was changed", Text: text}
}

// isRateLimited extracts a *RateLimitedError.
func isRateLimited(err error) (*RateLimitedError, bool) {
	var r *RateLimitedError
	if errors.As(err, &r) {
		return r, true
	}
	return nil, false
}
