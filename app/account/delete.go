package account

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/events"
	"meritmark/app/grant"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// Deleted is what a deletion did.
type Deleted struct {
	UserID                 string    `json:"userId"`
	DeletedAt              time.Time `json:"deletedAt"`
	GrantsRevoked          int       `json:"grantsRevoked"`
	PaymentsKept           int       `json:"paymentsKept"`
	ApplicationsAnonymised int       `json:"applicationsAnonymised"`
	FilesDeleted           int       `json:"filesDeleted"`
}

// tables whose rows of a deleted account go: sign-in state, consents and tokens, and
// what only served the member (extra quiz attempts allowed, attempts themselves).
var erased = []string{"sessions", "password_resets", "email_verifications", "login_devices", "mfa_recovery_codes",
	"mfa_challenges", "oauth_tokens", "oauth_consents", "quiz_attempt_grants", "quiz_attempts"}

// Delete deletes the account of userID for actor (the member, or an administrator); the
// caller has confirmed the actor's identity. In one transaction: every grant not yet
// revoked is revoked with RevokeReason (as an admin revoke does, status lists included),
// applications keep only what accounting needs (open ones are closed), files' rows and
// sign-in state go, payments stay pointing at the row, the row becomes a tombstone, the
// audit log records it and the member is mailed. The stored files are deleted after
// the commit.
func (s *Service) Delete(ctx context.Context, actor *model.User, userID, origin string) (*Deleted, error) {
	var out Deleted
	var keys, grantIDs []string
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		u, err := findUser(ctx, tx, userID, true)
		if err == db.ErrNotFound {
			return web.NotFound(MsgUserNotFound)
		}
		if err != nil {
			return err
		}
		if u.Deleted() {
			return web.Conflict(MsgAlreadyDeleted)
		}
		if u.IsAdmin() {
			n, err := tx.NewSelect().Model((*model.User)(nil)).Where("role = ? AND deleted_at IS NULL AND id <> ?", model.RoleAdmin, u.ID).Count(ctx)
			if err != nil {
				return err
			}
			if n == 0 {
				return web.Conflict(MsgLastAdmin)
			}
		}
		who := actor
		if actor.ID == u.ID { // the audit log keeps no address of a member who left
			c := *actor
			c.Email = TombstoneEmail(u.ID)
			who = &c
		}
		now := model.Now()
		out = Deleted{UserID: u.ID, DeletedAt: now}

		// the member's applications first: an approval running now (which locks its
		// application) either commits before this reads the grants, or finds it closed
		var ids []string
		if err := db.ForUpdate(tx, tx.NewSelect().Model((*model.Application)(nil)).Column("id").Where("user_id = ?", u.ID)).
			Scan(ctx, &ids); err != nil {
			return err
		}
		// grants: revoked for good, exactly as an admin revoke (audit entry each)
		var gs []model.BadgeGrant
		q := tx.NewSelect().Model(&gs).Where("user_id = ? AND revoked_at IS NULL", u.ID).OrderExpr("granted_at, id")
		if err := db.ForUpdate(tx, q).Scan(ctx); err != nil {
			return err
		}
		var badges []string
		for i := range gs {
			if err := grant.RevokeTx(ctx, tx, who, &gs[i], grant.CategoryAccountDeleted, RevokeReason); err != nil {
				return err
			}
			grantIDs = append(grantIDs, gs[i].ID)
			var name string
			if err := tx.NewSelect().Table("badges").Column("name").Where("id = ?", gs[i].BadgeID).Scan(ctx, &name); err != nil {
				return err
			}
			badges = append(badges, name)
		}
		out.GrantsRevoked = len(gs)

		// uploaded files: rows now, stored files after the commit
		files, err := filesOf(ctx, tx, u.ID)
		if err != nil {
			return err
		}
		for _, f := range files {
			keys = append(keys, f.StorageKey)
		}
		if u.ProfilePicKey != "" {
			keys = append(keys, u.ProfilePicKey)
		}
		out.FilesDeleted = len(keys)
		if _, err := tx.NewDelete().Model((*model.ApplicationFile)(nil)).
			Where("application_id IN (SELECT id FROM applications WHERE user_id = ?)", u.ID).Exec(ctx); err != nil {
			return err
		}

		// applications: kept (payments reference them) without what the member wrote;
		// open ones are closed so that nobody reviews or pays them any more
		if _, err := tx.NewUpdate().Model((*model.Application)(nil)).
			Set("status = ?", model.StatusRejected).Set("rejection_reason = ?", "The member deleted the account.").
			Set("reviewed_at = ?", now).Set("updated_at = ?", now).
			Where("user_id = ? AND status IN (?)", u.ID, bun.List([]string{model.StatusAwaitingPayment, model.StatusPending})).Exec(ctx); err != nil {
			return err
		}
		res, err := tx.NewUpdate().Model((*model.Application)(nil)).
			Set("full_name = ''").Set("email = ''").Set("position = ''").Set("linkedin = ''").Set("portfolio = ''").
			Set("description = ''").Set("updated_at = ?", now).Where("user_id = ?", u.ID).Exec(ctx)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		out.ApplicationsAnonymised = int(n)

		np, err := tx.NewSelect().Model((*model.Payment)(nil)).Where("user_id = ?", u.ID).Count(ctx)
		if err != nil {
			return err
		}
		out.PaymentsKept = int(np)

		for _, t := range erased {
			if _, err := tx.NewDelete().Table(t).Where("user_id = ?", u.ID).Exec(ctx); err != nil {
				return fmt.Errorf("erase %s: %w", t, err)
			}
		}
		// a badge sent to the member's address and claimed: the address goes
		if _, err := tx.NewUpdate().Table("badge_awards").Set("email = ?", TombstoneEmail(u.ID)).
			Where("claimed_by = ?", u.ID).Exec(ctx); err != nil {
			return err
		}
		if err := tombstone(ctx, tx, u.ID, now); err != nil {
			return err
		}
		if err := events.Record(ctx, tx, events.ProfileChanged, "user", u.ID, map[string]string{"userId": u.ID}); err != nil {
			return err
		}
		before := map[string]any{"role": u.Role, "createdAt": u.CreatedAt.UTC(), "grantsActive": len(gs)}
		if err := audit.Write(ctx, tx, who, "user.delete", "user", u.ID, before, out); err != nil {
			return err
		}
		return mail.Queue(ctx, tx, deletedMail(u, badges, origin, actor.ID != u.ID))
	})
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if err := s.Store.Delete(context.WithoutCancel(ctx), k); err != nil {
			slog.Warn("account deletion: delete stored file", "key", k, "err", err)
		}
	}
	if s.Mailer != nil {
		s.Mailer.Kick()
	}
	return &out, nil
}

// tombstone clears everything personal in the user row and marks it deleted. The row
// stays because payments, applications and grants reference it (their foreign keys
// cascade: deleting it would erase the accounting records and the revoked grants).
func tombstone(ctx context.Context, tx bun.Tx, id string, now time.Time) error {
	_, err := tx.NewUpdate().Model((*model.User)(nil)).
		Set("name = ?", TombstoneName).Set("email = ?", TombstoneEmail(id)).Set("password_hash = ''").
		Set("role = ?", model.RoleUser).Set("position = ''").Set("linkedin = ''").Set("portfolio = ''").
		Set("profile_pic_key = ''").Set("phone = ''").Set("bio = ''").Set("location = ''").Set("company = ''").
		Set("experience = 0").Set("education = ''").Set("skills = '[]'").Set("email_verified_at = NULL").
		Set("must_change_password = ?", false).Set("totp_secret = ''").Set("totp_enabled_at = NULL").
		Set("deleted_at = ?", now).Set("updated_at = ?", now).Where("id = ?", id).Exec(ctx)
	return err
}

func deletedMail(u *model.User, badges []string, origin string, byAdmin bool) mail.Message {
	how := "as you asked"
	if byAdmin {
		how = "by an administrator"
	}
	held := mail.Paragraph{Text: "You held no badges."}
	if len(badges) > 0 {
		held = mail.Paragraph{Text: "These badges were revoked and no longer verify:", List: badges}
	}
	return mail.Letter{To: u.Email, Subject: "Your " + web.SiteName + " account has been deleted", Greeting: "Hello " + u.Name + ",",
		Paragraphs: []mail.Paragraph{
			{Text: fmt.Sprintf("Your %s account (%s) has been deleted, %s.", web.SiteName, u.Email, how)},
			held,
			{Text: "Your profile, applications, uploaded files and sign-in details are erased. Records of payments are kept without your name or address, as accounting law requires."},
			{Text: "This cannot be undone. You are welcome to create a new account at any time.", Links: []mail.Link{{Label: "Create an account", URL: origin + "/signup"}}}},
		SignOff: "The " + web.SiteName + " team"}.Message()
}
