package auth

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/session"
	"meritmark/app/web"
)

// Account messages.
const (
	MsgCurrentPassword   = "Please enter your current password."
	MsgCurrentWrong      = "Your current password is not correct."
	MsgSamePassword      = "Please choose a password different from your current one."
	MsgPasswordChanged   = "Your password has been changed. Your other devices were signed out."
	MsgSessionMissing    = "Session not found."
	MsgSessionEnded      = "The session was signed out."
	MsgSignedOutAll      = "You have been signed out everywhere."
	MsgTooManyPwChecks   = "Too many attempts. Please wait a moment and try again."
	freeCurrentPasswords = 5
)

// ChangeInput is the body of POST /auth/change-password.
type ChangeInput struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
}

// checkCurrentPassword checks u's current password, throttled per account (a success
// clears the count): a wrong one is a 400, too many are a RateLimitedError.
func (s *Service) checkCurrentPassword(ctx context.Context, u *model.User, password string, now time.Time) error {
	cs := []count{{"change:" + u.ID, freeCurrentPasswords, true}}
	wait, err := s.reserve(ctx, cs, now)
	if err != nil {
		return err
	}
	if wait > 0 {
		return &RateLimitedError{Msg: MsgTooManyPwChecks, RetryAfter: wait}
	}
	if ok, err := CheckPassword(u.PasswordHash, password); err != nil || !ok {
		return web.BadRequest(MsgCurrentWrong)
	}
	s.release(ctx, cs, true, now)
	return nil
}

// ChangePassword sets u's new password after checking the current one: every other
// session of u ends (the one of currentToken stays), a forced change is done, and u is
// told by mail. Wrong current passwords are throttled like sign-ins.
func (s *Service) ChangePassword(ctx context.Context, u *model.User, in ChangeInput, currentToken string) error {
	if in.CurrentPassword == "" {
		return web.BadRequest(MsgCurrentPassword)
	}
	if in.NewPassword == "" {
		return web.BadRequest(MsgNewPassword)
	}
	if p := PasswordProblemFor(in.NewPassword, u.Email, u.Name); p != "" {
		return web.BadRequest(p)
	}
	if in.NewPassword == in.CurrentPassword {
		return web.BadRequest(MsgSamePassword)
	}
	now := s.now()
	if err := s.checkCurrentPassword(ctx, u, in.CurrentPassword, now); err != nil {
		return err
	}
	hash, err := HashPassword(in.NewPassword)
	if err != nil {
		return err
	}
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewUpdate().Model((*model.User)(nil)).Set("password_hash = ?", hash).Set("must_change_password = ?", false).
			Set("updated_at = ?", now).Where("id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*model.Session)(nil)).Where("user_id = ? AND id <> ?", u.ID, session.Hash(currentToken)).Exec(ctx); err != nil {
			return err
		}
		// reset links asked for before are of no further use
		if _, err := tx.NewUpdate().Model((*model.PasswordReset)(nil)).Set("used_at = ?", now).
			Where("user_id = ? AND used_at IS NULL", u.ID).Exec(ctx); err != nil {
			return err
		}
		if err := endWallets(ctx, tx, u, walletsEndedByChange); err != nil {
			return err
		}
		return mail.Queue(ctx, tx, passwordChangedMail(u))
	})
	if err == nil {
		s.kick()
	}
	return err
}

// SessionJSON is one signed-in browser of the member.
type SessionJSON struct {
	ID         string    `json:"id"`
	Device     string    `json:"device"`
	UserAgent  string    `json:"userAgent"`
	IP         string    `json:"ip"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	Current    bool      `json:"current"`
}

// publicSessionID is the id a session is listed and ended by: derived from the stored
// hash, so the list never shows what the cookie's hash is.
func publicSessionID(stored string) string { return HashToken("session|" + stored)[:24] }

// ListSessions lists u's live sessions, the current one first, then by last use.
func (s *Service) ListSessions(ctx context.Context, u *model.User, currentToken string) ([]SessionJSON, error) {
	var rows []model.Session
	if err := s.DB.NewSelect().Model(&rows).Where("user_id = ?", u.ID).Where("expires_at > ?", s.now()).Scan(ctx); err != nil {
		return nil, err
	}
	cur := session.Hash(currentToken)
	out := make([]SessionJSON, 0, len(rows))
	for _, r := range rows {
		out = append(out, SessionJSON{ID: publicSessionID(r.ID), Device: DeviceLabel(r.UserAgent), UserAgent: r.UserAgent, IP: r.IP,
			CreatedAt: r.CreatedAt.UTC(), LastSeenAt: r.LastSeenAt.UTC(), Current: r.ID == cur})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Current != out[j].Current {
			return out[i].Current
		}
		return out[i].LastSeenAt.After(out[j].LastSeenAt)
	})
	return out, nil
}

// EndSession signs out u's session with the public id; it reports whether it was the
// current one.
func (s *Service) EndSession(ctx context.Context, u *model.User, id, currentToken string) (bool, error) {
	var rows []model.Session
	if err := s.DB.NewSelect().Model(&rows).Column("id").Where("user_id = ?", u.ID).Scan(ctx); err != nil {
		return false, err
	}
	for _, r := range rows {
		if publicSessionID(r.ID) == id {
			if _, err := s.DB.NewDelete().Model((*model.Session)(nil)).Where("id = ? AND user_id = ?", r.ID, u.ID).Exec(ctx); err != nil {
				return false, err
			}
			return r.ID == session.Hash(currentToken), nil
		}
	}
	return false, web.NotFound(MsgSessionMissing)
}

// DeviceLabel names the browser and system of a user agent ("Firefox on Linux").
func DeviceLabel(ua string) string {
	browser := "Unknown browser"
	switch {
	case strings.Contains(ua, "Edg/"):
		browser = "Edge"
	case strings.Contains(ua, "OPR/"):
		browser = "Opera"
	case strings.Contains(ua, "Firefox/"):
		browser = "Firefox"
	case strings.Contains(ua, "Chrome/") || strings.Contains(ua, "Chromium/") || strings.Contains(ua, "HeadlessChrome/"):
		browser = "Chrome"
	case strings.Contains(ua, "Safari/"):
		browser = "Safari"
	case strings.HasPrefix(ua, "curl/"):
		browser = "curl"
	case strings.HasPrefix(ua, "Go-http-client"):
		browser = "Go client"
	}
	system := ""
	switch {
	case strings.Contains(ua, "Android"):
		system = "Android"
	case strings.Contains(ua, "iPhone") || strings.Contains(ua, "iPad"):
		system = "iOS"
	case strings.Contains(ua, "Windows"):
		system = "Windows"
	case strings.Contains(ua, "Mac OS X") || strings.Contains(ua, "Macintosh"):
		system = "macOS"
	case strings.Contains(ua, "CrOS"):
		system = "ChromeOS"
	case strings.Contains(ua, "Linux"):
		system = "Linux"
	}
	if system == "" {
		return browser
	}
	return browser + " on " + system
}

func passwordChangedMail(u *model.User) mail.Message {
	text := fmt.Sprintf(`Hello %s,

The password of your Meritmark account (%s) was just changed from your profile, and
every other device signed in to the account was signed out.

If this was not you, reset your password right away from the login page and contact
our support team.

The Meritmark team
`, u.Name, u.Email)
	return mail.Message{To: u.Email, Subject: "Your Meritmark password was changed", Text: text}
}
