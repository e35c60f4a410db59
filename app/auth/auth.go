// Package auth signs people up, in and out, and resets forgotten passwords:
// POST /auth/register, /auth/login, /auth/logout, /auth/forgot-password,
// /auth/reset-password, GET /auth/me, and the /login, /signup and /reset-password pages.
//
// This file holds the pure rules: normalising and validating input, tokens, links and
// the messages the API answers.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/mail"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"meritmark/app/user"
)

// Limits.
const (
	MinPassword = 8
	MaxPassword = 128
	MaxEmail    = 254
	MaxName     = 100
	ResetTTL    = time.Hour
)

// Messages the API answers (the screens show the spec's own toasts around them).
const (
	MsgNameRequired     = "Please enter your full name."
	MsgNameTooLong      = "Your name must be at most 100 characters."
	MsgEmailRequired    = "Please enter your email address."
	MsgEmailInvalid     = "Please enter a valid email address."
	MsgPasswordRequired = "Please enter a password."
	MsgPasswordShort    = "Password must be at least 8 characters."
	MsgPasswordLong     = "Password must be at most 128 characters."
	MsgPasswordCommon   = "This password is too common or easy to guess. Please choose a longer, less predictable one (a few unrelated words work well)."
	MsgPasswordPersonal = "Your password must not be your email address or your name."
	MsgEmailTaken       = "An account with this email already exists. Please log in instead."
	MsgRegistered       = "Thanks for signing up. We have sent you an email: open its link to confirm your address."
	MsgLoginFields      = "Please enter your email and password."
	MsgBadCredentials   = "Invalid email or password."
	// MsgAccountDisabled answers a correct password for an account an operator disabled.
	MsgAccountDisabled   = "This account is disabled. Please contact support."
	MsgLoggedIn          = "Logged in successfully."
	MsgLoggedOut         = "Logged out successfully."
	MsgResetSent         = "If an account exists for this email, we have sent a password reset link. Check your inbox."
	MsgResetFields       = "This reset link is incomplete. Please open the link from your email again."
	MsgNewPassword       = "Please enter a new password."
	MsgResetInvalid      = "This password reset link is invalid or has expired. Please request a new one."
	MsgResetDone         = "Your password has been reset. Please log in with your new password."
	MsgTooManyLogins     = "Too many sign-in attempts. Please wait a moment and try again."
	MsgTooManySignups    = "Too many sign-up attempts. Please wait an hour and try again."
	MsgTooManyResets     = "Too many password reset requests. Please wait an hour and try again."
	MsgTooManyResetTries = "Too many password reset attempts. Please wait an hour and try again."
)

// NormalizeEmail trims and lower-cases an email address.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// ValidEmail reports a plain address (local@domain.tld, no display name, no spaces) of at
// most MaxEmail characters. s must already be normalised.
func ValidEmail(s string) bool {
	if s == "" || len(s) > MaxEmail || strings.ContainsAny(s, " \t\r\n<>()[],;:\"\\") {
		return false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at < 1 {
		return false
	}
	domain := s[at+1:]
	dot := strings.LastIndexByte(domain, '.')
	return dot > 0 && dot < len(domain)-1 && !strings.Contains(domain, "..") &&
		!strings.HasPrefix(domain, "-") && !strings.HasPrefix(domain, ".")
}

// CleanName trims a name, folds inner whitespace and control characters into single
// spaces and drops invisible format characters (user.CleanName).
func CleanName(s string) string {
	return user.CleanName(s) // also drops bidi overrides and zero-width characters
}

// PasswordProblem says what is wrong with a new password ("" when it is acceptable): 8 to
// 128 characters, not counting spaces at either end, and not common or easy to guess
// (see PasswordProblemFor). No composition rules.
func PasswordProblem(pw string) string { return PasswordProblemFor(pw, "", "") }

// PasswordProblemFor is PasswordProblem for the account of email and name: a password
// made of them is refused too.
func PasswordProblemFor(pw, email, name string) string {
	n := utf8.RuneCountInString(pw)
	switch {
	case n == 0:
		return MsgPasswordRequired
	case n > MaxPassword:
		return MsgPasswordLong
	case utf8.RuneCountInString(strings.TrimSpace(pw)) < MinPassword:
		return MsgPasswordShort
	}
	return guessable(pw, email, name)
}

// NewToken returns 256 random bits, base64url (reset tokens).
func NewToken() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// HashToken is how a reset token is kept: its SHA-256, hex. The token has 256 random bits,
// so a fast hash is enough (nobody can guess it from the hash).
func HashToken(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// ResetLink is the link mailed to reset a password.
func ResetLink(origin, email, token string) string {
	q := url.Values{}
	q.Set("email", email)
	q.Set("token", token)
	return strings.TrimRight(origin, "/") + "/reset-password?" + q.Encode()
}

// SafeNext returns next when it is a path on this site ("/profile?tab=x"), else "/".
// It refuses absolute URLs, protocol-relative ("//evil") and backslash tricks.
func SafeNext(next string) string {
	if next == "" || len(next) > 2000 || next[0] != '/' || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") ||
		strings.ContainsAny(next, "\\\r\n\t") {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return "/"
	}
	// never send a freshly signed-in user back to the sign-in screens
	if p := u.Path; p == "/login" || p == "/signup" {
		return "/"
	}
	return next
}
