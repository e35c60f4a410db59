package auth

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/credential"
	"meritmark/app/grant"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// VerifyTTL is how long an e-mail verification link works.
const VerifyTTL = 48 * time.Hour

// Verification messages.
const (
	MsgVerifyInvalid   = "This confirmation link is invalid or has expired. Sign in and ask for a new one from your profile."
	MsgVerified        = "Your email address is confirmed."
	MsgAlreadyVerified = "Your email address is already confirmed."
	MsgVerifySent      = "We have sent you a new confirmation link. Check your inbox."
	MsgTooManyVerify   = "Too many confirmation emails. Please wait an hour and try again."
)

var (
	resendPerUser   = limit{"verify-resend:user:", 3, time.Hour, MsgTooManyVerify}
	resendPerMinute = limit{"verify-resend:min:", 1, time.Minute, MsgTooManyVerify}
	verifyPerIP     = limit{"verify:ip:", 30, time.Hour, MsgTooManyResetTries}
)

// EmailVerification is a pending proof of an address: ID is the SHA-256 of the token
// mailed in the link (the token itself is never stored).
type EmailVerification struct {
	bun.BaseModel `bun:"table:email_verifications"`

	ID        string     `bun:"id,pk"`
	UserID    string     `bun:"user_id"`
	ExpiresAt time.Time  `bun:"expires_at"`
	UsedAt    *time.Time `bun:"used_at"`
	CreatedAt time.Time  `bun:"created_at"`
}

// VerifyLink is the link mailed to confirm an address.
func VerifyLink(origin, token string) string {
	return strings.TrimRight(origin, "/") + "/verify-email?token=" + url.QueryEscape(token)
}

// queueVerification stores a new token for u and queues the mail with its link (in tx).
func queueVerification(ctx context.Context, tx bun.IDB, u *model.User, origin string, now time.Time) error {
	tok := NewToken()
	if _, err := tx.NewDelete().Model((*EmailVerification)(nil)).
		Where("user_id = ? AND (used_at IS NOT NULL OR expires_at <= ?)", u.ID, now).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewInsert().Model(&EmailVerification{
		ID: HashToken(tok), UserID: u.ID, ExpiresAt: now.Add(VerifyTTL), CreatedAt: now,
	}).Exec(ctx); err != nil {
		return err
	}
	return mail.Queue(ctx, tx, verifyMail(u, VerifyLink(origin, tok)))
}

// ResendVerification mails u a new confirmation link (rate limited per user).
func (s *Service) ResendVerification(ctx context.Context, u *model.User, origin string) error {
	if u.EmailVerified() {
		return web.Conflict(MsgAlreadyVerified)
	}
	if err := s.check(ctx, keyed{resendPerMinute, u.ID}, keyed{resendPerUser, u.ID}); err != nil {
		return err
	}
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return queueVerification(ctx, tx, u, origin, s.now())
	})
	if err == nil {
		s.kick()
	}
	return err
}

// MsgEmailChangeTaken answers a confirmed change to an address another account took since.
const MsgEmailChangeTaken = "This email is already used by another account."

// confirmEmailChange applies the pending address whose link's token hashes to hash: it
// becomes the user's (confirmed) address, once, before its expiry; audited as
// user.email_change_confirmed by the user.
func confirmEmailChange(ctx context.Context, tx bun.Tx, hash string, now time.Time, u *model.User) error {
	err := db.ForUpdate(tx, tx.NewSelect().Model(u).Where("email_change_hash = ? AND pending_email <> ''", hash)).Scan(ctx)
	if db.IsNoRows(err) {
		return web.BadRequest(MsgVerifyInvalid)
	}
	if err != nil {
		return err
	}
	if u.EmailChangeExpiresAt == nil || !u.EmailChangeExpiresAt.After(now) {
		return web.BadRequest(MsgVerifyInvalid)
	}
	n, err := tx.NewSelect().Model((*model.User)(nil)).Where("email = ? AND id <> ?", u.PendingEmail, u.ID).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return web.Conflict(MsgEmailChangeTaken)
	}
	old := u.Email
	u.Email, u.EmailVerifiedAt, u.UpdatedAt = u.PendingEmail, &now, now
	u.PendingEmail, u.EmailChangeHash, u.EmailChangeExpiresAt = "", "", nil
	if _, err := tx.NewUpdate().Model(u).Column("email", "email_verified_at", "updated_at", "pending_email", "email_change_hash", "email_change_expires_at").WherePK().Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return web.Conflict(MsgEmailChangeTaken)
		}
		return err
	}
	return audit.Write(ctx, tx, u, "user.email_change_confirmed", "user", u.ID, map[string]string{"email": old}, map[string]string{"email": u.Email})
}

// VerifyEmail uses a confirmation token: the address is marked verified and every grant
// that waited for it (approved applications without a grant) is issued, in one
// transaction. It answers the user.
func (s *Service) VerifyEmail(ctx context.Context, tok, origin string, cl Client) (*model.User, int, error) {
	if tok == "" || len(tok) > 100 {
		return nil, 0, web.BadRequest(MsgVerifyInvalid)
	}
	if err := s.check(ctx, keyed{verifyPerIP, cl.IP}); err != nil {
		return nil, 0, err
	}
	now := s.now()
	var u model.User
	issued := 0
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		// the guard makes the token single-use even when two requests race
		var v EmailVerification
		if err := tx.NewSelect().Model(&v).Where("id = ?", HashToken(tok)).Scan(ctx); err != nil {
			if db.IsNoRows(err) {
				// the link of an address an administrator set
				return confirmEmailChange(ctx, tx, HashToken(tok), now, &u)
			}
			return err
		}
		res, err := tx.NewUpdate().Model((*EmailVerification)(nil)).Set("used_at = ?", now).
			Where("id = ? AND used_at IS NULL AND expires_at > ?", v.ID, now).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return web.BadRequest(MsgVerifyInvalid)
		}
		if err := db.ForUpdate(tx, tx.NewSelect().Model(&u).Where("id = ?", v.UserID)).Scan(ctx); err != nil {
			return err
		}
		if u.EmailVerifiedAt == nil {
			u.EmailVerifiedAt = &now
			if _, err := tx.NewUpdate().Model((*model.User)(nil)).Set("email_verified_at = ?", now).Set("updated_at = ?", now).
				Where("id = ?", u.ID).Exec(ctx); err != nil {
				return err
			}
			// apps connected before the address was proven may be someone else's
			if err := endWallets(ctx, tx, &u, walletsEndedByConfirm); err != nil {
				return err
			}
		}
		// the user's other links are of no further use
		if _, err := tx.NewDelete().Model((*EmailVerification)(nil)).Where("user_id = ? AND id <> ?", u.ID, v.ID).Exec(ctx); err != nil {
			return err
		}
		issued, err = IssueWaitingGrants(ctx, tx, s.Issuer, &u, origin, now)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	s.kick()
	return &u, issued, nil
}

// IssueWaitingGrants issues the grants that waited for u's address to be verified: each
// approved application of u without a grant, unless u already holds that badge
// otherwise, signed by iss. It mails the holder for each and answers how many were
// issued. u must be verified and its row held by tx.
func IssueWaitingGrants(ctx context.Context, tx bun.Tx, iss *credential.Issuer, u *model.User, origin string, now time.Time) (int, error) {
	if !u.EmailVerified() {
		return 0, nil
	}
	var apps []model.Application
	if err := tx.NewSelect().Model(&apps).
		Where("user_id = ? AND status = ?", u.ID, model.StatusApproved).
		Where("NOT EXISTS (SELECT 1 FROM badge_grants AS g WHERE g.application_id = ?TableAlias.id)").
		OrderExpr("reviewed_at, id").Scan(ctx); err != nil {
		return 0, err
	}
	n := 0
	for i := range apps {
		a := &apps[i]
		if err := db.ForUpdate(tx, tx.NewSelect().Model(a).Where("id = ?", a.ID)).Scan(ctx); err != nil {
			return n, err
		}
		if a.Status != model.StatusApproved {
			continue
		}
		held, err := tx.NewSelect().Model((*model.BadgeGrant)(nil)).
			Where("user_id = ? AND badge_id = ?", a.UserID, a.BadgeID).
			Where("revoked_at IS NULL").
			Where("(expires_at IS NULL OR expires_at > ?)", now).Count(ctx)
		if err != nil {
			return n, err
		}
		if held > 0 {
			continue
		}
		var b model.Badge
		if err := tx.NewSelect().Model(&b).Where("id = ?", a.BadgeID).Scan(ctx); err != nil {
			return n, fmt.Errorf("badge: %w", err)
		}
		by := ""
		if a.ReviewedBy != nil {
			by = *a.ReviewedBy
		}
		r, err := grant.Issue(ctx, tx, grant.Input{Issuer: iss, Application: a, Badge: &b, GrantedBy: by, Now: now, Origin: origin})
		if err != nil {
			return n, err
		}
		if r.Created || r.Restored {
			n++
			if err := mail.Queue(ctx, tx, grantedMail(u, &b, r.Grant, origin)); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

func verifyMail(u *model.User, link string) mail.Message {
	return mail.Letter{To: u.Email, Subject: "Confirm your Meritmark email address", Greeting: "Hello " + u.Name + ",",
		Paragraphs: []mail.Paragraph{{Text: "Welcome to Meritmark. Please confirm that this address (" + u.Email + ") is yours by opening this link within 48 hours:"}},
		Action:     &mail.Link{Label: "Confirm my email", URL: link},
		Small:      []string{"Until you confirm it, you can take quizzes and apply for badges, but no badge is issued to this address. If you did not sign up, you can ignore this email."},
		SignOff:    "The Meritmark team"}.Message()
}

// existingAccountMail answers a sign-up for an address that already has an account: the
// owner learns it, the person signing up learns nothing.
func existingAccountMail(email, origin string) mail.Message {
	base := strings.TrimRight(origin, "/")
	text := fmt.Sprintf(`Hello,

Someone (maybe you) tried to create a Meritmark account with this address (%s).
You already have an account: sign in at %s/login. If you forgot your password, use
"Forgot password" on that page to choose a new one.

If this was not you, you can ignore this email: nothing was changed.

The Meritmark team
`, email, base)
	return mail.Message{To: email, Subject: "You already have a Meritmark account", Text: text}
}

func grantedMail(u *model.User, b *model.Badge, g *model.BadgeGrant, origin string) mail.Message {
	link := strings.TrimRight(origin, "/") + "/verify/" + g.PublicVerificationID
	text := fmt.Sprintf("Hi %s,\n\nThanks for confirming your email address. Your approved application for the %s badge is now granted, and the badge is on your profile.\n\n"+
		"Verification ID: %s\nShare or verify it: %s\n\nCongratulations!\nThe %s team\n",
		u.Name, b.Name, g.VerificationID, link, web.SiteName)
	return mail.Message{To: u.Email, Subject: fmt.Sprintf("Your %s badge has been granted", b.Name), Text: text}
}
