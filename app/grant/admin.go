package grant

import (
	"context"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// Admin is the admin's grant actions (PUT /admin/grants/{id}/revoke and /expiry): each
// changes the grant, the Hall of Fame summary or the credential, the public pages'
// version and the audit log in one transaction.
type Admin struct {
	DB     *bun.DB
	Issuer *credential.Issuer
	Mailer *mail.Worker // optional: kicked after the revocation notice is queued
	Events *events.Bus  // grant changes are recorded as events
}

// Messages of the admin's grant actions.
const (
	MsgGrantNotFound  = "Badge grant not found."
	MsgReasonRequired = "Please give a reason for revoking this badge."
	MsgReasonTooLong  = "The reason must be at most 500 characters."
	MsgAlreadyRevoked = "This badge is already revoked."
	MsgExpiryRequired = "expiresAt is required: an ISO 8601 date-time, or null to clear the expiry."
	MsgExpiryInvalid  = "expiresAt must be an ISO 8601 date-time such as 2027-01-31T00:00:00Z, or null."
	MsgExpiryBefore   = "The expiry must be after the date the badge was issued."
	MsgRevoked        = "Badge revoked."
	MsgExpirySet      = "Expiry updated."
	MsgExpiryCleared  = "Expiry cleared."
)

// MaxReason is the longest revocation reason.
const MaxReason = 500

// ParseExpiry reads an expiry: RFC 3339, or a plain date (YYYY-MM-DD, midnight UTC).
func ParseExpiry(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC().Truncate(time.Second), true
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t.UTC(), true
	}
	return time.Time{}, false
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// GrantJSON is a grant as the admin actions answer it.
type GrantJSON struct {
	ID                   string     `json:"id"`
	UserID               string     `json:"userId"`
	BadgeID              string     `json:"badgeId"`
	VerificationID       string     `json:"verificationId"`
	PublicVerificationID string     `json:"publicVerificationId"`
	StatusIndex          int        `json:"statusIndex"`
	GrantedAt            time.Time  `json:"grantedAt"`
	ExpiresAt            *time.Time `json:"expiresAt"`
	RevokedAt            *time.Time `json:"revokedAt"`
	RevocationReason     string     `json:"revocationReason"`
	CredentialURL        string     `json:"credentialUrl"`
}

func grantJSON(g *model.BadgeGrant) GrantJSON {
	j := GrantJSON{ID: g.ID, UserID: g.UserID, BadgeID: g.BadgeID, VerificationID: g.VerificationID,
		PublicVerificationID: g.PublicVerificationID, StatusIndex: g.StatusIndex, GrantedAt: g.GrantedAt.UTC(),
		ExpiresAt: utc(g.ExpiresAt), RevokedAt: utc(g.RevokedAt), RevocationReason: g.RevocationReason}
	if g.CredentialOrigin != "" {
		j.CredentialURL = credential.CredentialURL(g.CredentialOrigin, g.PublicVerificationID)
	}
	return j
}

// auditState is a grant as the audit log records it.
type auditState struct {
	ExpiresAt        *time.Time `json:"expiresAt"`
	RevokedAt        *time.Time `json:"revokedAt"`
	RevocationReason string     `json:"revocationReason,omitempty"`
	// RevocationCategory: the category's key (the public verification shows its label)
	RevocationCategory string `json:"revocationCategory,omitempty"`
	VerificationID     string `json:"verificationId"`
}

func stateOf(g *model.BadgeGrant) auditState {
	return auditState{ExpiresAt: utc(g.ExpiresAt), RevokedAt: utc(g.RevokedAt), RevocationReason: g.RevocationReason, RevocationCategory: g.RevocationCategory, VerificationID: g.VerificationID}
}

func lockGrant(ctx context.Context, tx bun.Tx, id string) (*model.BadgeGrant, error) {
	if !model.ValidID(id) {
		return nil, web.NotFound(MsgGrantNotFound)
	}
	var g model.BadgeGrant
	if err := db.ForUpdate(tx, tx.NewSelect().Model(&g).Where("id = ?", id)).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, web.NotFound(MsgGrantNotFound)
		}
		return nil, err
	}
	return &g, nil
}

// Revoke revokes grant id with category (a RevocationCategories key: the public
// verification shows its label) and reason (the admin's text, kept for the audit log,
// the admin pages and the notice to the holder; both already checked) in one
// transaction: the grant, the Hall of Fame summary, the audit log and a notice to the holder.
func (s *Admin) Revoke(ctx context.Context, actor *model.User, id, category, reason, origin string) (*model.BadgeGrant, error) {
	var out *model.BadgeGrant
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		g, err := lockGrant(ctx, tx, id)
		if err != nil {
			return err
		}
		if g.RevokedAt != nil {
			return web.Conflict(MsgAlreadyRevoked)
		}
		if err := RevokeTx(ctx, tx, actor, g, category, reason); err != nil {
			return err
		}
		var u model.User
		var b model.Badge
		if err := tx.NewSelect().Model(&u).Where("id = ?", g.UserID).Scan(ctx); err != nil {
			return err
		}
		if err := tx.NewSelect().Model(&b).Where("id = ?", g.BadgeID).Scan(ctx); err != nil {
			return err
		}
		if err := mail.Queue(ctx, tx, revokedMail(&u, &b, reason, origin)); err != nil {
			return err
		}
		out = g
		return nil
	})
	if err != nil {
		return nil, err
	}
	if s.Mailer != nil {
		s.Mailer.Kick()
	}
	return out, nil
}

// RevokeTx revokes g (not revoked yet) with category ("" for none) and reason inside tx, as the admin's revoke does:
// the grant row (the status lists read revoked_at), the holder's Hall of Fame summary, the
// public pages' version and a grant.revoke audit entry by actor. The caller tells the
// issuer (Issuer.Changed) after the commit, so that cached
// verifications drop the grant, and mails the holder if it wants to.
func RevokeTx(ctx context.Context, tx bun.Tx, actor *model.User, g *model.BadgeGrant, category, reason string) error {
	before := stateOf(g)
	now := model.Now()
	g.RevokedAt, g.RevocationReason, g.RevocationCategory = &now, reason, category
	if _, err := tx.NewUpdate().Model(g).Column("revoked_at", "revocation_reason", "revocation_category").WherePK().Exec(ctx); err != nil {
		return err
	}
	if err := credential.RecordRevocation(ctx, tx, g, now); err != nil { // final (issue 36)
		return err
	}
	if err := Revoked(ctx, tx, g); err != nil {
		return err
	}
	return audit.Write(ctx, tx, actor, "grant.revoke", "grant", g.ID, before, stateOf(g))
}

func revokedMail(u *model.User, b *model.Badge, reason, origin string) mail.Message {
	text := fmt.Sprintf("Hi %s,\n\nYour %s badge has been revoked, so it no longer verifies.\n\nReason: %s\n\nYour profile: %s/profile\nIf you think this is a mistake, reply to this message.\n\nThe %s team\n",
		u.Name, b.Name, reason, origin, web.SiteName)
	h := html.EscapeString
	body := fmt.Sprintf(`<p>Hi %s,</p><p>Your <strong>%s</strong> badge has been revoked, so it no longer verifies.</p><p>Reason: %s</p><p><a href="%s/profile">Your profile</a> &middot; If you think this is a mistake, reply to this message.</p><p>The %s team</p>`,
		h(u.Name), h(b.Name), h(reason), h(origin), web.SiteName)
	return mail.Message{To: u.Email, Subject: fmt.Sprintf("Your %s badge has been revoked", b.Name), Text: text, HTML: body}
}

// SetExpiry sets (or, with nil, clears) grant id's expiry and signs its credential again
// (validUntil and exp change), in one transaction with the audit entry.
func (s *Admin) SetExpiry(ctx context.Context, actor *model.User, id string, expiresAt *time.Time, origin string) (*model.BadgeGrant, error) {
	var out *model.BadgeGrant
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		g, err := lockGrant(ctx, tx, id)
		if err != nil {
			return err
		}
		if expiresAt != nil && !expiresAt.After(g.GrantedAt) {
			return web.BadRequest(MsgExpiryBefore)
		}
		before, was := stateOf(g), g.ExpiresAt
		g.ExpiresAt = expiresAt
		if _, err := tx.NewUpdate().Model(g).Column("expires_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		if err := publishExpiry(ctx, tx, g, was); err != nil { // copies already downloaded (verify/expirystatus.go)
			return err
		}
		o := g.CredentialOrigin
		if o == "" {
			if o = s.Issuer.OriginFor(""); o == "" {
				if o = s.Issuer.DefaultOrigin(ctx, tx); o == "" {
					o = origin
				}
			}
		}
		if err := s.Issuer.SignGrant(ctx, tx, g, o); err != nil {
			return err
		}
		if err := audit.Write(ctx, tx, actor, "grant.expiry", "grant", g.ID, before, stateOf(g)); err != nil {
			return err
		}
		if err := events.Record(ctx, tx, events.GrantExpiryChanged, "grant", g.ID, map[string]any{
			"grantId": g.ID, "badgeId": g.BadgeID, "userId": g.UserID, "expiresAt": g.ExpiresAt}); err != nil {
			return err
		}
		out = g
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// publishExpiry marks g for the suspension list when SetExpiry sets or brings forward the
// expiry (was: before) of a credential already signed, so that copies downloaded before
// read "suspended" once it passes (never "revoked": clearing or extending the expiry turns
// the bit off again). The mark stays: a copy without validUntil may still be around after
// any later change.
func publishExpiry(ctx context.Context, tx bun.IDB, g *model.BadgeGrant, before *time.Time) error {
	if g.CredentialJWT == "" || g.ExpiresAt == nil || (before != nil && !g.ExpiresAt.Before(*before)) {
		return nil
	}
	_, err := tx.NewUpdate().Model((*model.BadgeGrant)(nil)).Set("expiry_in_status = ?", true).Where("id = ?", g.ID).Exec(ctx)
	return err
}
