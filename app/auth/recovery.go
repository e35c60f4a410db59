package auth

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/web"
)

// Recovery code messages.
const (
	MsgRecoveryUsed     = "That recovery code has already been used. Each code works once: use another one, or the code from your authenticator app."
	MsgRecoveryReplaced = "New recovery codes are ready. The old ones no longer work."
)

// errRecoveryUsed: the recovery code given is one of the user's, spent already.
var errRecoveryUsed = errors.New("recovery code already used")

// replaceRecoveryCodes deletes the user's recovery codes and answers ten new ones (only
// their hashes are kept), inside tx.
func replaceRecoveryCodes(ctx context.Context, tx bun.Tx, userID string, now time.Time) ([]string, error) {
	if _, err := tx.NewDelete().Model((*RecoveryCode)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
		return nil, err
	}
	codes := make([]string, recoveryCodes)
	for i := range codes {
		codes[i] = newRecoveryCode()
		if _, err := tx.NewInsert().Model(&RecoveryCode{ID: HashToken("recovery|" + normalizeRecovery(codes[i])), UserID: userID, CreatedAt: now}).Exec(ctx); err != nil {
			return nil, err
		}
	}
	return codes, nil
}

// RegenerateRecoveryCodes replaces the recovery codes of a member with two-step sign-in on,
// who proves both factors again: the current password and a code from the authenticator
// app (a recovery code does not make new ones). The old codes stop working at once.
func (s *Service) RegenerateRecoveryCodes(ctx context.Context, u *model.User, password, code string) ([]string, error) {
	if !u.TOTPEnabled() {
		return nil, web.Conflict(MsgMFAOff)
	}
	if password == "" {
		return nil, web.BadRequest(MsgCurrentPassword).On("password")
	}
	if strings.TrimSpace(code) == "" {
		return nil, web.BadRequest(MsgMFARequired).On("code")
	}
	now := s.now()
	if err := s.checkCurrentPassword(ctx, u, password, now); err != nil {
		return nil, err
	}
	cs := []count{{"mfa:" + u.ID, freeMFAFailures, true}}
	if err := s.reserveMFA(ctx, cs, now); err != nil {
		return nil, err
	}
	secret, err := s.totpSecret(ctx, u)
	if err != nil {
		return nil, err
	}
	ok, err := useCode(ctx, s.DB, u, secret, code, now)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, web.BadRequest(MsgMFACodeWrong).On("code")
	}
	s.release(ctx, cs, true, now)
	var codes []string
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		codes, err = replaceRecoveryCodes(ctx, tx, u.ID, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return codes, nil
}
