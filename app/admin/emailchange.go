package admin

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/auth"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/web"
)

// EmailChangeTTL is how long the link confirming an administrator's change of a member's
// address works.
const EmailChangeTTL = auth.VerifyTTL

// MsgEmailChangePending is what the dialog tells after an address change was asked for.
const MsgEmailChangePending = "The member must confirm the new address; a notice goes to the old one."

// requestEmailChange records newEmail as u's pending address (the current one stays until
// the owner of the new one follows the link), mails the link to the new address and a
// notice to the current one, and audits it (user.email_change_requested), all in tx.
func requestEmailChange(ctx context.Context, tx bun.IDB, actor, u *model.User, newEmail, origin string) error {
	tok := auth.NewToken()
	now := model.Now()
	exp := now.Add(EmailChangeTTL)
	prev := u.PendingEmail
	u.PendingEmail, u.EmailChangeHash, u.EmailChangeExpiresAt, u.UpdatedAt = newEmail, auth.HashToken(tok), &exp, now
	if _, err := tx.NewUpdate().Model(u).Column("pending_email", "email_change_hash", "email_change_expires_at", "updated_at").WherePK().Exec(ctx); err != nil {
		return err
	}
	link := auth.VerifyLink(origin, tok)
	if err := mail.Queue(ctx, tx, mail.Letter{To: newEmail, Subject: "Confirm your new " + web.SiteName + " email address", Greeting: "Hi " + u.Name + ",",
		Paragraphs: []mail.Paragraph{
			{Text: "An administrator changed the email address of your " + web.SiteName + " account to this one. It takes effect when you confirm it."},
			{Links: []mail.Link{{Label: "Confirm this address", URL: link}}},
			{Text: "The link works for " + hours(EmailChangeTTL) + ". If you do not know this account, ignore this message: nothing changes."}},
		SignOff: "The " + web.SiteName + " team"}.Message()); err != nil {
		return err
	}
	if err := mail.Queue(ctx, tx, mail.Letter{To: u.Email, Subject: "Your " + web.SiteName + " email address is being changed", Greeting: "Hi " + u.Name + ",",
		Paragraphs: []mail.Paragraph{
			{Text: "An administrator asked to change the email address of your account from " + u.Email + " to " + newEmail + ". This address stays in use until the new one is confirmed."},
			{Text: "If you did not expect this, reply to this message or contact support."}},
		SignOff: "The " + web.SiteName + " team"}.Message()); err != nil {
		return err
	}
	return audit.Write(ctx, tx, actor, "user.email_change_requested", "user", u.ID,
		map[string]string{"email": u.Email, "pendingEmail": prev}, map[string]string{"email": u.Email, "pendingEmail": newEmail})
}

func hours(d time.Duration) string {
	return fmt.Sprintf("%d hours", int(d.Hours()))
}
