// Package ops holds the operator's recovery commands (`meritmark reset-password`,
// `reset-2fa`, `flush-sessions`, `disable-user`, `enable-user`): each is one transaction
// on the database, audited with no actor (the command line), and tells the member by mail
// where their account changed.
package ops

import (
	"context"
	"errors"
	"fmt"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/auth"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/db"
)

// ErrNoUser is returned for an address no account has.
var ErrNoUser = errors.New("no account has that e-mail address")

// ErrLastAdmin refuses to disable the only administrator who could still sign in.
var ErrLastAdmin = errors.New("that is the last enabled administrator: create or enable another one first")

// find loads the account of email (normalised as sign-in does).
func find(ctx context.Context, d bun.IDB, email string) (*model.User, error) {
	var u model.User
	err := d.NewSelect().Model(&u).Where("email = ?", auth.NormalizeEmail(email)).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, fmt.Errorf("%w: %q", ErrNoUser, email)
	}
	return &u, err
}

// signOut ends every session, pending two-step challenge and wallet (OAuth) token of u.
func signOut(ctx context.Context, tx bun.IDB, userID string) (int64, error) {
	res, err := tx.NewDelete().Model((*model.Session)(nil)).Where("user_id = ?", userID).Exec(ctx)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	if _, err := tx.NewDelete().Model((*auth.MFAChallenge)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
		return 0, err
	}
	if _, err := tx.NewDelete().Table("oauth_tokens").Where("user_id = ?", userID).Exec(ctx); err != nil {
		return 0, err
	}
	return n, nil
}

// notice is a security mail to u about what an administrator did to the account.
func notice(ctx context.Context, tx bun.IDB, u *model.User, subject, what string) error {
	return mail.Queue(ctx, tx, mail.Letter{To: u.Email, Subject: subject, Greeting: "Hello " + u.Name + ",",
		Paragraphs: []mail.Paragraph{{Text: what}, {Text: "If you did not ask for this, reply to this message or contact support."}},
		SignOff:    "The Meritmark team"}.Message())
}

// ResetPassword sets a new password for the account of email and signs it out everywhere
// (sessions, two-step challenges, connected wallets). With mustChange the member must
// choose another at the next sign-in (a temporary password the operator handed over).
func ResetPassword(ctx context.Context, d *bun.DB, email, password string, mustChange bool) error {
	u, err := find(ctx, d, email)
	if err != nil {
		return err
	}
	if p := auth.PasswordProblemFor(password, u.Email, u.Name); p != "" {
		return errors.New(p)
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	return d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewUpdate().Model((*model.User)(nil)).Set("password_hash = ?", hash).
			Set("must_change_password = ?", mustChange).Set("updated_at = ?", model.Now()).Where("id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*model.PasswordReset)(nil)).Where("user_id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		if _, err := signOut(ctx, tx, u.ID); err != nil {
			return err
		}
		if err := audit.Write(ctx, tx, nil, "user.password_reset_by_operator", "user", u.ID, nil, map[string]any{"mustChange": mustChange}); err != nil {
			return err
		}
		return notice(ctx, tx, u, "Your Meritmark password was reset",
			"An administrator reset the password of your Meritmark account. You were signed out everywhere, and apps connected to your account were disconnected.")
	})
}

// Reset2FA switches two-step sign-in off for the account of email (a lost authenticator
// and lost recovery codes): the secret and recovery codes are removed and every session
// ends.
func Reset2FA(ctx context.Context, d *bun.DB, email string) error {
	u, err := find(ctx, d, email)
	if err != nil {
		return err
	}
	return d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewUpdate().Model((*model.User)(nil)).Set("totp_secret = ''").Set("totp_enabled_at = NULL").
			Set("totp_last_step = 0").Set("updated_at = ?", model.Now()).Where("id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*auth.RecoveryCode)(nil)).Where("user_id = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		if _, err := signOut(ctx, tx, u.ID); err != nil {
			return err
		}
		if err := audit.Write(ctx, tx, nil, "user.2fa_reset_by_operator", "user", u.ID, map[string]any{"twoStep": u.TOTPEnabled()}, map[string]any{"twoStep": false}); err != nil {
			return err
		}
		msg := "An administrator switched off two-step sign-in for your Meritmark account and signed you out everywhere. Sign in with your password and switch it on again from your profile."
		if u.IsAdmin() {
			msg += " As an administrator you will be asked to set it up at your next sign-in."
		}
		return notice(ctx, tx, u, "Two-step sign-in was switched off", msg)
	})
}

// FlushSessions ends the sessions of the account of email, or of everyone when email is
// empty, and answers how many ended.
func FlushSessions(ctx context.Context, d *bun.DB, email string) (int64, error) {
	if email == "" {
		res, err := d.NewDelete().Model((*model.Session)(nil)).Where("1 = 1").Exec(ctx)
		if err != nil {
			return 0, err
		}
		n, _ := res.RowsAffected()
		return n, audit.Write(ctx, d, nil, "sessions.flushed_by_operator", "session", "*", nil, map[string]any{"ended": n})
	}
	u, err := find(ctx, d, email)
	if err != nil {
		return 0, err
	}
	var n int64
	err = d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*model.Session)(nil)).Where("user_id = ?", u.ID).Exec(ctx)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		return audit.Write(ctx, tx, nil, "sessions.flushed_by_operator", "user", u.ID, nil, map[string]any{"ended": n})
	})
	return n, err
}

// SetDisabled disables (or enables again) the account of email. A disabled account cannot
// sign in, and its sessions, two-step challenges and wallet tokens are ended at once. The
// last enabled administrator cannot be disabled.
func SetDisabled(ctx context.Context, d *bun.DB, email string, disabled bool) error {
	u, err := find(ctx, d, email)
	if err != nil {
		return err
	}
	if u.Disabled() == disabled {
		return nil
	}
	return d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if disabled && u.IsAdmin() {
			n, err := tx.NewSelect().Model((*model.User)(nil)).
				Where("role = ? AND disabled_at IS NULL AND id <> ?", model.RoleAdmin, u.ID).Count(ctx)
			if err != nil {
				return err
			}
			if n == 0 {
				return ErrLastAdmin
			}
		}
		q := tx.NewUpdate().Model((*model.User)(nil)).Set("updated_at = ?", model.Now()).Where("id = ?", u.ID)
		action, what := "user.enabled_by_operator", "An administrator enabled your Meritmark account again. You can sign in."
		if disabled {
			q = q.Set("disabled_at = ?", model.Now())
			action, what = "user.disabled_by_operator", "An administrator disabled your Meritmark account: you were signed out and cannot sign in. Your badges still verify."
			if _, err := signOut(ctx, tx, u.ID); err != nil {
				return err
			}
		} else {
			q = q.Set("disabled_at = NULL")
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
		if err := audit.Write(ctx, tx, nil, action, "user", u.ID, map[string]any{"disabled": !disabled}, map[string]any{"disabled": disabled}); err != nil {
			return err
		}
		return notice(ctx, tx, u, map[bool]string{true: "Your Meritmark account was disabled", false: "Your Meritmark account was enabled"}[disabled], what)
	})
}
