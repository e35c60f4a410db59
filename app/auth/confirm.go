package auth

import (
	"context"
	"strings"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/model"
	"meritmark/app/web"
)

// Confirming an irreversible action (deleting an account: app/account) with the password
// and, when two-step sign-in is on, a code of the authenticator app: the same checks and
// the same throttles as a password change ("change:" counts) and a second factor ("mfa:").

// Service answers the handler's service (other features confirm identities with it).
func (h *Handler) Service() *Service { return h.svc }

// Fail answers a rate-limited error as 429 with Retry-After, and passes others on.
func Fail(c fiber.Ctx, err error) error { return fail(c, err) }

// ConfirmIdentity checks u's current password and, when u has two-step sign-in on, a code
// of the authenticator app (spent: it is not accepted again). It changes nothing else. A
// wrong password or code is a 400 with the message the account pages use; too many are
// a RateLimitedError (Fail answers it).
func (s *Service) ConfirmIdentity(ctx context.Context, u *model.User, password, code string) error {
	if password == "" {
		return web.BadRequest(MsgCurrentPassword)
	}
	if u.TOTPEnabled() && strings.TrimSpace(code) == "" {
		return web.BadRequest(MsgMFARequired)
	}
	now := s.now()
	if err := s.checkCurrentPassword(ctx, u, password, now); err != nil {
		return err
	}
	if !u.TOTPEnabled() {
		return nil
	}
	ms := []count{{"mfa:" + u.ID, freeMFAFailures, true}}
	if err := s.reserveMFA(ctx, ms, now); err != nil {
		return err
	}
	secret, err := s.totpSecret(ctx, u)
	if err != nil {
		return err
	}
	ok, err := useCode(ctx, s.DB, u, secret, code, now)
	if err != nil {
		return err
	}
	if !ok {
		return web.BadRequest(MsgMFACodeWrong)
	}
	s.release(ctx, ms, true, now)
	return nil
}
