package auth

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/base64"
	"errors"
	"image/png"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"github.com/uptrace/bun"

	"meritmark/app/mail"
	"meritmark/app/metrics"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// Two-factor sign-in with TOTP (RFC 6238: 30-second steps, 6 digits, SHA-1, what every
// authenticator app speaks), through github.com/pquerna/otp. A code is accepted one step
// either side of now (clock skew), and never twice: the last step used is kept.

// Two-factor messages.
const (
	MsgMFARequired       = "Enter the 6-digit code from your authenticator app."
	MsgMFACodeRequired   = "Please enter the code from your authenticator app or a recovery code."
	MsgMFACodeWrong      = "That code is not valid. Codes change every 30 seconds, and each works once."
	MsgMFAChallengeGone  = "Your sign-in has expired. Please sign in again."
	MsgMFAAlreadyOn      = "Two-step sign-in is already on."
	MsgMFANotStarted     = "Start the set-up first."
	MsgMFAEnabled        = "Two-step sign-in is on. Keep your recovery codes somewhere safe."
	MsgMFADisabled       = "Two-step sign-in is off."
	MsgMFAAdminKeep      = "Administrators must keep two-step sign-in on."
	MsgMFAOff            = "Two-step sign-in is not on."
	MsgTooManyMFA        = "Too many codes tried. Please wait a moment and try again."
	MsgAdminNeedsMFA     = "Administrators must set up two-step sign-in first. Open /account/two-factor to set it up."
	challengeTTL         = 5 * time.Minute
	maxChallengeFailures = 5
	freeMFAFailures      = 5
	recoveryCodes        = 10
	MFACookie            = "mm_mfa"
	totpPeriod           = 30
)

// MFAChallenge is a sign-in whose password was right, waiting for its second factor.
type MFAChallenge struct {
	bun.BaseModel `bun:"table:mfa_challenges"`

	ID        string    `bun:"id,pk"`
	UserID    string    `bun:"user_id"`
	IP        string    `bun:"ip"`
	UserAgent string    `bun:"user_agent"`
	Failures  int       `bun:"failures"`
	ExpiresAt time.Time `bun:"expires_at"`
	CreatedAt time.Time `bun:"created_at"`
}

// RecoveryCode is a single-use second factor, kept as its SHA-256.
type RecoveryCode struct {
	bun.BaseModel `bun:"table:mfa_recovery_codes"`

	ID        string     `bun:"id,pk"`
	UserID    string     `bun:"user_id"`
	UsedAt    *time.Time `bun:"used_at"`
	CreatedAt time.Time  `bun:"created_at"`
}

// TOTPCode is the code of secret at step (for tests and the browser test's twin).
func TOTPCode(secret string, step int64) (string, error) {
	return totp.GenerateCodeCustom(secret, time.Unix(step*totpPeriod, 0).UTC(), totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
}

// matchStep answers the step (now−1, now, now+1) whose code is code, or 0.
func matchStep(secret, code string, now time.Time) int64 {
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	if len(code) != 6 {
		return 0
	}
	cur := now.Unix() / totpPeriod
	for _, st := range []int64{cur - 1, cur, cur + 1} {
		if c, err := TOTPCode(secret, st); err == nil && c == code {
			return st
		}
	}
	return 0
}

// useCode accepts a TOTP code of u once: the step it belongs to must be newer than the
// last one used (a replayed or older code is refused even within the window).
func useCode(ctx context.Context, d bun.IDB, u *model.User, secret, code string, now time.Time) (bool, error) {
	st := matchStep(secret, code, now)
	if st == 0 {
		return false, nil
	}
	res, err := d.NewUpdate().Model((*model.User)(nil)).Set("totp_last_step = ?", st).
		Where("id = ? AND totp_last_step < ?", u.ID, st).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

func normalizeRecovery(s string) string {
	return strings.ToLower(strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, strings.TrimSpace(s)))
}

// useRecovery spends one of u's recovery codes.
func useRecovery(ctx context.Context, d bun.IDB, u *model.User, code string, now time.Time) (bool, error) {
	c := normalizeRecovery(code)
	if len(c) != 10 {
		return false, nil
	}
	res, err := d.NewUpdate().Model((*RecoveryCode)(nil)).Set("used_at = ?", now).
		Where("id = ? AND user_id = ? AND used_at IS NULL", HashToken("recovery|"+c), u.ID).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	if n == 1 {
		return true, nil
	}
	// a code of this user's that was spent already gets its own message
	spent, err := d.NewSelect().Model((*RecoveryCode)(nil)).
		Where("id = ? AND user_id = ? AND used_at IS NOT NULL", HashToken("recovery|"+c), u.ID).Exists(ctx)
	if err != nil {
		return false, err
	}
	if spent {
		return false, errRecoveryUsed
	}
	return false, nil
}

var recoveryEncoding = base32.NewEncoding("abcdefghijkmnpqrstuvwxyz23456789").WithPadding(base32.NoPadding)

func newRecoveryCode() string {
	var b [7]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	s := recoveryEncoding.EncodeToString(b[:])[:10]
	return s[:5] + "-" + s[5:]
}

// SetupJSON is what an authenticator app needs to enrol.
type SetupJSON struct {
	Secret     string `json:"secret"`
	OTPAuthURL string `json:"otpauthUrl"`
	QR         string `json:"qr"` // data:image/png;base64,…
}

// SetupTOTP makes a new pending secret for u (replacing a pending one).
func (s *Service) SetupTOTP(ctx context.Context, u *model.User) (*SetupJSON, error) {
	if u.TOTPEnabled() {
		return nil, web.Conflict(MsgMFAAlreadyOn)
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: web.SiteName, AccountName: u.Email, Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return nil, err
	}
	sealed, err := s.sealNew(u, key.Secret()) // kept sealed (secretbox.go)
	if err != nil {
		return nil, err
	}
	if _, err := s.DB.NewUpdate().Model((*model.User)(nil)).Set("totp_secret = ?", sealed).Set("totp_enabled_at = NULL").
		Set("updated_at = ?", s.now()).Where("id = ? AND totp_enabled_at IS NULL", u.ID).Exec(ctx); err != nil {
		return nil, err
	}
	img, err := key.Image(240, 240)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return &SetupJSON{Secret: key.Secret(), OTPAuthURL: key.URL(), QR: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
}

// EnableTOTP switches two-factor on with a first code of the pending secret and answers
// the recovery codes (shown once; only their hashes are kept).
func (s *Service) EnableTOTP(ctx context.Context, u *model.User, code string) ([]string, error) {
	if u.TOTPEnabled() {
		return nil, web.Conflict(MsgMFAAlreadyOn)
	}
	if u.TOTPSecret == "" {
		return nil, web.BadRequest(MsgMFANotStarted)
	}
	if strings.TrimSpace(code) == "" {
		return nil, web.BadRequest(MsgMFACodeRequired)
	}
	now := s.now()
	cs := []count{{"mfa:" + u.ID, freeMFAFailures, true}}
	if err := s.reserveMFA(ctx, cs, now); err != nil {
		return nil, err
	}
	secret, err := s.totpSecret(ctx, u)
	if err != nil {
		return nil, err
	}
	st := matchStep(secret, code, now)
	if st == 0 || st <= u.TOTPLastStep {
		return nil, web.BadRequest(MsgMFACodeWrong)
	}
	s.release(ctx, cs, true, now)
	var codes []string
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*model.User)(nil)).Set("totp_enabled_at = ?", now).Set("totp_last_step = ?", st).
			Set("updated_at = ?", now).Where("id = ? AND totp_enabled_at IS NULL AND totp_secret = ?", u.ID, u.TOTPSecret).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return web.Conflict(MsgMFAAlreadyOn)
		}
		if codes, err = replaceRecoveryCodes(ctx, tx, u.ID, now); err != nil {
			return err
		}
		return mail.Queue(ctx, tx, twoStepMail(u, true))
	})
	if err != nil {
		return nil, err
	}
	s.kick()
	return codes, nil
}

// DisableTOTP switches two-factor off for a member (not an admin) who gives the password.
func (s *Service) DisableTOTP(ctx context.Context, u *model.User, password string) error {
	if !u.TOTPEnabled() {
		return web.Conflict(MsgMFAOff)
	}
	if s.Policy.AdminKeepsTwoStep(u) {
		return web.Conflict(MsgMFAAdminKeep)
	}
	if password == "" {
		return web.BadRequest(MsgCurrentPassword)
	}
	now := s.now()
	if err := s.checkCurrentPassword(ctx, u, password, now); err != nil {
		return err
	}
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewUpdate().Model((*model.User)(nil)).Set("totp_secret = ''").Set("totp_enabled_at = NULL").
			Set("updated_at = ?", now).Where("id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*RecoveryCode)(nil)).Where("user_id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		return mail.Queue(ctx, tx, twoStepMail(u, false))
	})
	if err == nil {
		s.kick()
	}
	return err
}

// Subjects of the security notices sent when two-step sign-in is switched on or off.
const (
	MailTwoStepOn  = "Two-step sign-in is on for your Meritmark account"
	MailTwoStepOff = "Two-step sign-in was switched off for your Meritmark account"
)

// twoStepMail tells u that two-step sign-in was switched on or off, so that a change
// made by someone else with the password is noticed.
func twoStepMail(u *model.User, on bool) mail.Message {
	l := mail.Letter{To: u.Email, Greeting: "Hello " + u.Name + ",", SignOff: "The Meritmark team"}
	if on {
		l.Subject = MailTwoStepOn
		l.Paragraphs = []mail.Paragraph{
			{Text: "Two-step sign-in was just switched on for your Meritmark account (" + u.Email + "). From now on, signing in asks for a code from your authenticator app after your password."},
			{Text: "Keep your recovery codes somewhere safe: each one signs you in once if you lose your phone."},
		}
		l.Small = []string{"If this was not you, reset your password right away from the login page and contact our support team."}
	} else {
		l.Subject = MailTwoStepOff
		l.Paragraphs = []mail.Paragraph{
			{Text: "Two-step sign-in was just switched off for your Meritmark account (" + u.Email + "), and its recovery codes no longer work. Signing in now asks only for your password."},
		}
		l.Small = []string{"If this was not you, reset your password right away from the login page, switch two-step sign-in on again from your profile, and contact our support team."}
	}
	return l.Message()
}

func (s *Service) reserveMFA(ctx context.Context, cs []count, now time.Time) error {
	wait, err := s.reserve(ctx, cs, now)
	if err != nil {
		return err
	}
	if wait > 0 {
		return &RateLimitedError{Msg: MsgTooManyMFA, RetryAfter: wait}
	}
	return nil
}

// startChallenge records a sign-in waiting for its second factor and answers its token.
func (s *Service) startChallenge(ctx context.Context, u *model.User, cl Client, now time.Time) (string, error) {
	tok := NewToken()
	ua := cl.UserAgent
	if len(ua) > 255 {
		ua = ua[:255]
	}
	if _, err := s.DB.NewDelete().Model((*MFAChallenge)(nil)).Where("expires_at <= ?", now).Exec(ctx); err != nil {
		return "", err
	}
	_, err := s.DB.NewInsert().Model(&MFAChallenge{ID: HashToken(tok), UserID: u.ID, IP: cl.IP, UserAgent: ua, ExpiresAt: now.Add(challengeTTL), CreatedAt: now}).Exec(ctx)
	return tok, err
}

// MFAInput is the body of POST /auth/login/2fa.
type MFAInput struct {
	Code         string `json:"code"`
	RecoveryCode string `json:"recoveryCode"`
}

// CompleteLogin finishes a sign-in waiting for its second factor (the challenge token from
// its cookie) with a TOTP code or a recovery code, and starts the session.
func (s *Service) CompleteLogin(ctx context.Context, challenge string, in MFAInput, cl Client) (*model.User, string, error) {
	if strings.TrimSpace(in.Code) == "" && strings.TrimSpace(in.RecoveryCode) == "" {
		return nil, "", web.BadRequest(MsgMFACodeRequired)
	}
	now := s.now()
	var ch MFAChallenge
	if challenge == "" || len(challenge) > 100 {
		return nil, "", web.Unauthorized(MsgMFAChallengeGone)
	}
	if err := s.DB.NewSelect().Model(&ch).Where("id = ?", HashToken(challenge)).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, "", web.Unauthorized(MsgMFAChallengeGone)
		}
		return nil, "", err
	}
	if !now.Before(ch.ExpiresAt) || ch.Failures >= maxChallengeFailures {
		_, _ = s.DB.NewDelete().Model((*MFAChallenge)(nil)).Where("id = ?", ch.ID).Exec(ctx)
		return nil, "", web.Unauthorized(MsgMFAChallengeGone)
	}
	cs := []count{{"mfa:" + ch.UserID, freeMFAFailures, true}}
	if err := s.reserveMFA(ctx, cs, now); err != nil {
		if _, ok := isRateLimited(err); ok {
			s.Metrics.SignInFailed(metrics.ReasonThrottled)
		}
		return nil, "", err
	}
	var u model.User
	if err := s.DB.NewSelect().Model(&u).Where("id = ?", ch.UserID).Scan(ctx); err != nil {
		return nil, "", err
	}
	if u.Disabled() {
		return nil, "", web.Forbidden(MsgAccountDisabled)
	}
	var ok bool
	var err error
	if strings.TrimSpace(in.Code) != "" {
		var secret string
		if secret, err = s.totpSecret(ctx, &u); err == nil {
			ok, err = useCode(ctx, s.DB, &u, secret, in.Code, now)
		}
	} else {
		ok, err = useRecovery(ctx, s.DB, &u, in.RecoveryCode, now)
	}
	used := errors.Is(err, errRecoveryUsed)
	if err != nil && !used {
		return nil, "", err
	}
	if !ok || !u.TOTPEnabled() {
		_, _ = s.DB.NewUpdate().Model((*MFAChallenge)(nil)).Set("failures = failures + 1").Where("id = ?", ch.ID).Exec(ctx)
		s.Metrics.SignInFailed(metrics.ReasonTwoFactor)
		if used && u.TOTPEnabled() {
			return nil, "", web.BadRequest(MsgRecoveryUsed)
		}
		return nil, "", web.BadRequest(MsgMFACodeWrong)
	}
	s.release(ctx, cs, true, now)
	res, err := s.DB.NewDelete().Model((*MFAChallenge)(nil)).Where("id = ?", ch.ID).Exec(ctx)
	if err != nil {
		return nil, "", err
	}
	if n, _ := res.RowsAffected(); n != 1 { // used by a parallel request
		return nil, "", web.Unauthorized(MsgMFAChallengeGone)
	}
	tok, err := s.Sessions.Create(ctx, s.DB, u.ID, cl.IP, cl.UserAgent)
	if err != nil {
		return nil, "", err
	}
	return &u, tok, nil
}
