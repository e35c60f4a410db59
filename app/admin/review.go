package admin

import (
	"time"

	"context"
	"errors"
	"fmt"

	"github.com/uptrace/bun"

	"meritmark/app/application"
	"meritmark/app/audit"
	"meritmark/app/events"
	"meritmark/app/grant"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/web"
	"meritmark/db"
)

// ReviewResult is what an approval or rejection did.
type ReviewResult struct {
	Application ApplicationJSON `json:"application"`
	Created     bool            `json:"grantCreated"`
	Restored    bool            `json:"grantRestored"`
	Revoked     bool            `json:"grantRevoked"`
	// UndoUntil: a rejection that may be undone until then (its mail waits as long).
	UndoUntil time.Time `json:"undoUntil,omitzero"`
	// WaitingForEmail: approved, but the grant waits until the applicant confirms their
	// e-mail address.
	WaitingForEmail bool `json:"waitingForEmailVerification"`
}

// Approve approves application id by actor in one transaction: the lifecycle moves the
// status (refusing an unpaid application unless grantFree), the application's one grant
// is issued (or restored after a rejection; never a second one), the review is stamped,
// the applicant is e-mailed when the badge becomes theirs, and the audit log records it.
//
// A revoked grant (by a rejection or by Revoke in User Management) comes back only with
// restore set: the admin confirmed it knowing the revocation reason (else 409).
func (s *Service) Approve(ctx context.Context, actor *model.User, id string, grantFree, restore bool, origin string) (*ReviewResult, error) {
	var res ReviewResult
	var app *model.Application
	mailed := false
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		a, err := lockApplication(ctx, tx, id)
		if err != nil {
			return err
		}
		if a.QuizAttemptID != nil {
			hold, err := quiz.ApprovalHold(ctx, tx, *a.QuizAttemptID)
			if err != nil {
				return err
			}
			if hold != "" {
				return web.Conflict(hold)
			}
		}
		ev := application.EventApprove
		if grantFree {
			ev = application.EventGrantFree
		}
		next, err := application.Next(a.Status, a.PaymentStatus, ev)
		if errors.Is(err, application.ErrPaymentRequired) {
			return web.Conflict(MsgPaymentRequired)
		}
		if err != nil {
			return web.Conflict("This application cannot be approved from its current status.")
		}
		// hold the applicant's row too: approvals for one user run one after another, so
		// the "already holds this badge" check below cannot race
		var u model.User
		if err := db.ForUpdate(tx, tx.NewSelect().Model(&u).Where("id = ?", a.UserID)).Scan(ctx); err != nil {
			return fmt.Errorf("applicant: %w", err)
		}
		var b model.Badge
		if err := tx.NewSelect().Model(&b).Where("id = ?", a.BadgeID).Scan(ctx); err != nil {
			return fmt.Errorf("badge: %w", err)
		}
		now := model.Now()
		held, err := tx.NewSelect().Model((*model.BadgeGrant)(nil)).
			Where("user_id = ? AND badge_id = ?", a.UserID, a.BadgeID).
			Where("revoked_at IS NULL").
			Where("(expires_at IS NULL OR expires_at > ?)", grant.HeldUntil(now)). // a renewal may be approved
			Where("(application_id IS NULL OR application_id <> ?)", a.ID).Count(ctx)
		if err != nil {
			return err
		}
		if held > 0 {
			return web.Conflict(MsgAlreadyHolds)
		}
		g0, err := currentGrant(ctx, tx, a.ID)
		if err != nil {
			return err
		}
		if g0 != nil && g0.RevokedAt != nil && !restore {
			return web.Conflict(RestoreConfirmMsg(g0.RevocationReason))
		}
		before := stateOf(a, g0)

		// a rejection's mail still waiting out its undo is not sent after an approval
		if err := withdrawMail(ctx, tx, a.UndoMailID); err != nil {
			return err
		}
		a.Status, a.RejectionReason = next, ""
		a.ReviewedAt, a.ReviewedBy, a.UpdatedAt = &now, &actor.ID, now
		a.UndoStatus, a.UndoMailID = "", ""
		if _, err := tx.NewUpdate().Model(a).Column("status", "rejection_reason", "reviewed_at", "reviewed_by", "updated_at", "undo_status", "undo_mail_id").WherePK().Exec(ctx); err != nil {
			return err
		}
		if err := decided(ctx, tx, events.ApplicationApproved, a); err != nil {
			return err
		}
		// no credential names an address its holder has not proven: the grant waits, and
		// is issued when the applicant confirms the address (app/auth)
		if !u.EmailVerified() {
			res.WaitingForEmail = true
			if err := audit.Write(ctx, tx, actor, "application.approve", "application", a.ID, before, stateOf(a, g0)); err != nil {
				return err
			}
			app = a
			return nil
		}
		r, err := grant.Issue(ctx, tx, grant.Input{Issuer: s.Issuer, Application: a, Badge: &b, GrantedBy: actor.ID, Now: now, Origin: origin})
		if err != nil {
			return err
		}
		res.Created, res.Restored = r.Created, r.Restored
		if r.Created || r.Restored {
			if err := mail.Queue(ctx, tx, approvedMail(&u, &b, r.Grant, origin)); err != nil {
				return err
			}
			mailed = true
		}
		action := "application.approve"
		if grantFree {
			action = "application.grant_free"
		}
		if err := audit.Write(ctx, tx, actor, action, "application", a.ID, before, stateOf(a, r.Grant)); err != nil {
			return err
		}
		app = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.finishReview(ctx, &res, app, mailed)
}

// Reject rejects application id with reason (already cleaned) in one transaction; when
// the application had been approved its grant is revoked with the same reason.
func (s *Service) Reject(ctx context.Context, actor *model.User, id, reason, origin string) (*ReviewResult, error) {
	var res ReviewResult
	var app *model.Application
	mailed := false
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		a, err := lockApplication(ctx, tx, id)
		if err != nil {
			return err
		}
		next, err := application.Next(a.Status, a.PaymentStatus, application.EventReject)
		if err != nil {
			return web.Conflict("This application cannot be rejected from its current status.")
		}
		g0, err := currentGrant(ctx, tx, a.ID)
		if err != nil {
			return err
		}
		before := stateOf(a, g0)
		wasRejected := a.Status == model.StatusRejected
		now := model.Now()
		// a rejection from review (no grant to revoke) may be undone for RejectUndoWindow:
		// its mail waits that long in the outbox
		undoable := !wasRejected && a.Status != model.StatusApproved && g0 == nil
		prev := a.Status
		a.Status, a.RejectionReason = next, reason
		a.ReviewedAt, a.ReviewedBy, a.UpdatedAt = &now, &actor.ID, now
		if !wasRejected {
			a.UndoStatus, a.UndoMailID = "", ""
			if undoable {
				a.UndoStatus, a.UndoMailID = prev, model.NewID()
				res.UndoUntil = now.Add(RejectUndoWindow)
			}
		}
		if _, err := tx.NewUpdate().Model(a).Column("status", "rejection_reason", "reviewed_at", "reviewed_by", "updated_at", "undo_status", "undo_mail_id").WherePK().Exec(ctx); err != nil {
			return err
		}
		if err := decided(ctx, tx, events.ApplicationRejected, a); err != nil {
			return err
		}
		g := g0
		if g0 != nil && g0.RevokedAt == nil {
			if g, err = grant.Revoke(ctx, tx, a.ID, reason, now); err != nil {
				return err
			}
			res.Revoked = true
		}
		if !wasRejected {
			var u model.User
			var b model.Badge
			if err := tx.NewSelect().Model(&u).Where("id = ?", a.UserID).Scan(ctx); err != nil {
				return err
			}
			if err := tx.NewSelect().Model(&b).Where("id = ?", a.BadgeID).Scan(ctx); err != nil {
				return err
			}
			msg := rejectedMail(&u, &b, reason, res.Revoked, origin)
			if undoable {
				msg.ID, msg.NotBefore = a.UndoMailID, res.UndoUntil
			}
			if err := mail.Queue(ctx, tx, msg); err != nil {
				return err
			}
			mailed = true
		}
		if err := audit.Write(ctx, tx, actor, "application.reject", "application", a.ID, before, stateOf(a, g)); err != nil {
			return err
		}
		app = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.finishReview(ctx, &res, app, mailed)
}

// RejectUndoWindow is how long a rejection from review may be undone: its mail waits as
// long (the dashboard offers Undo for a little less).
const RejectUndoWindow = 10 * time.Second

// MsgUndoTooLate answers an undo whose mail has gone (or that was never offered).
const MsgUndoTooLate = "This rejection can no longer be undone: the applicant has been e-mailed."

// MsgRejectUndone answers an undone rejection.
const MsgRejectUndone = "Rejection undone"

// UndoReject takes back a rejection from review while its mail still waits in the outbox:
// the mail is withdrawn and the application returns to the status it had, unreviewed; the
// undo is audited (application.reject_undo) and recorded as application.reject_undone, so
// that webhook receivers that heard the rejection hear it was taken back.
func (s *Service) UndoReject(ctx context.Context, actor *model.User, id string) (*ReviewResult, error) {
	var res ReviewResult
	var app *model.Application
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		a, err := lockApplication(ctx, tx, id)
		if err != nil {
			return err
		}
		if a.Status != model.StatusRejected || a.UndoMailID == "" || a.UndoStatus == "" {
			return web.Conflict(MsgUndoTooLate)
		}
		// the mail must still be waiting: neither claimed by the mailer nor sent
		n, err := tx.NewDelete().Model((*model.OutboxMessage)(nil)).
			Where("id = ? AND status = 'pending' AND attempts = 0", a.UndoMailID).Exec(ctx)
		if err != nil {
			return err
		}
		if k, _ := n.RowsAffected(); k != 1 {
			return web.Conflict(MsgUndoTooLate)
		}
		before := stateOf(a, nil)
		a.Status, a.RejectionReason = a.UndoStatus, ""
		a.ReviewedAt, a.ReviewedBy, a.UpdatedAt = nil, nil, model.Now()
		a.UndoStatus, a.UndoMailID = "", ""
		if _, err := tx.NewUpdate().Model(a).Column("status", "rejection_reason", "reviewed_at", "reviewed_by", "updated_at", "undo_status", "undo_mail_id").WherePK().Exec(ctx); err != nil {
			return err
		}
		// webhook receivers heard application.rejected at once: they hear the undo too
		if err := events.Record(ctx, tx, events.ApplicationRejectUndone, "application", a.ID, map[string]string{
			"applicationId": a.ID, "badgeId": a.BadgeID, "userId": a.UserID, "status": a.Status}); err != nil {
			return err
		}
		if err := audit.Write(ctx, tx, actor, "application.reject_undo", "application", a.ID, before, stateOf(a, nil)); err != nil {
			return err
		}
		app = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.finishReview(ctx, &res, app, false)
}

// withdrawMail deletes the outbox message id if it has not been sent (” is none).
func withdrawMail(ctx context.Context, tx bun.IDB, id string) error {
	if id == "" {
		return nil
	}
	_, err := tx.NewDelete().Model((*model.OutboxMessage)(nil)).Where("id = ? AND status = 'pending' AND attempts = 0", id).Exec(ctx)
	return err
}

// decided records an application's review (application.approved or .rejected).
func decided(ctx context.Context, tx bun.IDB, typ string, a *model.Application) error {
	return events.Record(ctx, tx, typ, "application", a.ID, map[string]string{"applicationId": a.ID, "badgeId": a.BadgeID, "userId": a.UserID})
}

// finishReview runs after a review committed: it wakes the mailer when a message was
// queued and answers the application as the dashboard shows it.
func (s *Service) finishReview(ctx context.Context, res *ReviewResult, app *model.Application, mailed bool) (*ReviewResult, error) {
	if mailed {
		s.kick()
	}
	items, err := s.buildApplications(ctx, s.DB, []model.Application{*app})
	if err != nil {
		return nil, err
	}
	res.Application = items[0]
	return res, nil
}

func approvedMail(u *model.User, b *model.Badge, g *model.BadgeGrant, origin string) mail.Message {
	return mail.Letter{To: u.Email, Subject: fmt.Sprintf("Your %s badge has been granted", b.Name), Greeting: "Hi " + u.Name + ",",
		Paragraphs: []mail.Paragraph{
			{Text: fmt.Sprintf("Good news: your application for the %s badge has been approved, and the badge is now on your profile.", b.Name)},
			{Text: "Verification ID: " + g.VerificationID, Links: []mail.Link{
				{Label: "Share or verify it", URL: origin + "/verify/" + g.PublicVerificationID},
				{Label: "Your profile", URL: origin + "/profile"}}},
			{Text: "Congratulations!"}},
		SignOff: "The " + web.SiteName + " team"}.Message()
}

func rejectedMail(u *model.User, b *model.Badge, reason string, revoked bool, origin string) mail.Message {
	lead := fmt.Sprintf("your application for the %s badge was not approved.", b.Name)
	if revoked {
		lead = fmt.Sprintf("your %s badge has been withdrawn after a further review.", b.Name)
	}
	return mail.Letter{To: u.Email, Subject: fmt.Sprintf("Update on your %s badge application", b.Name), Greeting: "Hi " + u.Name + ",",
		Paragraphs: []mail.Paragraph{{Text: "We are sorry: " + lead}, {Text: "Reason: " + reason},
			{Links: []mail.Link{{Label: "You can apply again at any time", URL: origin + "/badges/" + b.ID}}}},
		SignOff: "The " + web.SiteName + " team"}.Message()
}
