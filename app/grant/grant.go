// Package grant creates, restores and revokes badge grants. Every grant in the product is
// made by Issue, so that what a grant carries (ids now, a signed credential later) is
// decided in one place.
package grant

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/model"
	"meritmark/db"
)

// verificationAlphabet is Crockford's base32: no I, L, O or U, so an id read aloud or
// typed from a printout is not mistaken.
const verificationAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// NewVerificationID returns a human-friendly id "MM-XXXX-XXXX-XXXX" (60 random bits from
// crypto/rand). It is unique in the database (a collision is retried by Issue); the
// unguessable public id is PublicVerificationID.
func NewVerificationID() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	var s strings.Builder
	s.WriteString("MM")
	for i, x := range b {
		if i%4 == 0 {
			s.WriteByte('-')
		}
		s.WriteByte(verificationAlphabet[x&31])
	}
	return s.String()
}

var publicEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewPublicVerificationID returns 160 random bits as 32 lower-case base32 characters: the
// id in shared verification links, which nobody can guess or enumerate.
func NewPublicVerificationID() string {
	var b [20]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return strings.ToLower(publicEncoding.EncodeToString(b[:]))
}

// RenewalWindow is how long before its expiry a grant may be renewed: from then on the
// holder may take the quiz again or re-apply (the expiry reminders are mailed 30 and 7
// days before), and the new grant links to this one.
const RenewalWindow = 30 * 24 * time.Hour

// HeldUntil is the expiry a grant must outlast at now to count as held for starting a new
// attempt or application: a grant in its renewal window no longer blocks one.
func HeldUntil(now time.Time) time.Time { return now.Add(RenewalWindow) }

// newIDs makes a grant's two ids (a variable so a test can force a collision).
var newIDs = func() (string, string) { return NewVerificationID(), NewPublicVerificationID() }

// ErrNoIssuer: a grant was asked for without the credential issuer that signs it (a
// wiring bug: no grant is stored unsigned).
var ErrNoIssuer = errors.New("grant: no credential issuer")

// Input is what a grant is issued for.
type Input struct {
	Issuer      *credential.Issuer // signs the credential (required)
	Application *model.Application // the approved application (its user and badge)
	Badge       *model.Badge       // for the expiry (valid_months or valid_days)
	GrantedBy   string             // the admin's id
	Now         time.Time
	// Origin is the request's public origin: the signed credential's ids are built with it
	// (app/credential; MERITMARK_BASE_URL wins when set).
	Origin string
}

// Result says what Issue did.
type Result struct {
	Grant    *model.BadgeGrant
	Created  bool // a new grant was made
	Restored bool // a revoked grant was made valid again
}

// Issue makes the application's one grant, inside the caller's transaction tx (the
// approval). The application has at most one grant (badge_grants.application_id is
// unique): when it exists Issue returns it, restoring it if it was revoked (a re-approve
// after a reject keeps the same verification ids but issues a new credential: the revoked
// one stays revoked), and never creates a second one.
//
// The caller must hold the application row (approval locks it), so two approvals of the
// same application run one after the other; the unique index is the backstop.
func Issue(ctx context.Context, tx bun.Tx, in Input) (*Result, error) {
	if in.Issuer == nil {
		return nil, ErrNoIssuer
	}
	a := in.Application
	var g model.BadgeGrant
	err := tx.NewSelect().Model(&g).Where("application_id = ?", a.ID).Limit(1).Scan(ctx)
	switch {
	case err == nil:
		if g.RevokedAt == nil {
			if g.CredentialJWT == "" { // made before credentials were signed
				if err := in.Issuer.SignInTx(ctx, tx, &g, in.Origin); err != nil {
					return nil, err
				}
			}
			return &Result{Grant: &g}, nil
		}
		// the revocation stays final (issue 36): the revoked credential's index stays on the
		// revocation list and the restored grant gets a new credential under a new index
		if err := credential.RecordRevocation(ctx, tx, &g, *g.RevokedAt); err != nil {
			return nil, err
		}
		g.RevokedAt = nil
		g.RevocationReason = ""
		g.GrantedBy = &in.GrantedBy
		g.StatusIndex, g.CredentialJWT = 0, ""
		if _, err := tx.NewUpdate().Model(&g).Column("revoked_at", "revocation_reason", "granted_by", "status_index", "credential_jwt").WherePK().Exec(ctx); err != nil {
			return nil, fmt.Errorf("restore grant: %w", err)
		}
		if _, err := tx.NewDelete().Table("badge_grant_credentials").Where("grant_id = ?", g.ID).Exec(ctx); err != nil {
			return nil, fmt.Errorf("restore grant: %w", err)
		}
		// sign the new credential (the badge or the holder may have changed) and count it again
		if err := in.Issuer.SignInTx(ctx, tx, &g, in.Origin); err != nil {
			return nil, err
		}
		if err := Issued(ctx, tx, &g, in.Origin); err != nil {
			return nil, err
		}
		return &Result{Grant: &g, Restored: true}, nil
	case !db.IsNoRows(err):
		return nil, fmt.Errorf("find grant: %w", err)
	}

	appID := a.ID
	g = model.BadgeGrant{
		ID: model.NewID(), UserID: a.UserID, BadgeID: a.BadgeID, ApplicationID: &appID,
		GrantedAt: in.Now, GrantedBy: &in.GrantedBy,
	}
	if in.GrantedBy == "" { // issued later (a waiting grant) after its reviewer was deleted
		g.GrantedBy = nil
	}
	if err := create(ctx, tx, in.Issuer, &g, in.Badge, in.Origin, func() error {
		// the application's own grant appearing meanwhile is impossible while the caller
		// holds the application row; anything else unique is an id collision: retry
		n, err := tx.NewSelect().Model((*model.BadgeGrant)(nil)).Where("application_id = ?", a.ID).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return errors.New("grant: the application was granted concurrently")
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return &Result{Grant: &g, Created: true}, nil
}

// ExpiryFor is when a grant of b made at now expires: valid_months when set, else
// valid_days, else never (nil).
func ExpiryFor(b *model.Badge, now time.Time) *time.Time {
	switch {
	case b == nil:
		return nil
	case b.ValidMonths != nil && *b.ValidMonths > 0:
		exp := now.AddDate(0, *b.ValidMonths, 0)
		return &exp
	case b.ValidDays != nil && *b.ValidDays > 0:
		exp := now.AddDate(0, 0, *b.ValidDays)
		return &exp
	}
	return nil
}

// create inserts the new grant g (its expiry from the badge, a link to the holder's
// previous grant of the badge, fresh ids), signs it and counts it in the Hall of Fame.
// onCollision runs before an insert is retried after a unique violation.
func create(ctx context.Context, tx bun.Tx, iss *credential.Issuer, g *model.BadgeGrant, b *model.Badge, origin string, onCollision func() error) error {
	if g.ExpiresAt == nil { // an issuer-chosen expiry (a direct award) stands
		g.ExpiresAt = ExpiryFor(b, g.GrantedAt)
	}
	// a renewal: the holder's latest grant of this badge that was not revoked
	var prev []string
	if err := tx.NewSelect().Model((*model.BadgeGrant)(nil)).Column("id").
		Where("user_id = ? AND badge_id = ? AND revoked_at IS NULL AND id <> ?", g.UserID, g.BadgeID, g.ID).
		OrderExpr("granted_at DESC, id DESC").Limit(1).Scan(ctx, &prev); err != nil && !db.IsNoRows(err) {
		return fmt.Errorf("previous grant: %w", err)
	}
	if len(prev) == 1 {
		g.PreviousGrantID = &prev[0]
	}
	// A verification id collision (60 bits) is astronomically rare; a savepoint lets the
	// insert be retried with fresh ids without losing the transaction.
	for attempt := 0; ; attempt++ {
		g.VerificationID, g.PublicVerificationID = newIDs()
		err := insertWithSavepoint(ctx, tx, g)
		if err == nil {
			break
		}
		if !db.IsUniqueViolation(err) || attempt >= 4 {
			return fmt.Errorf("insert grant: %w", err)
		}
		if onCollision != nil {
			if err := onCollision(); err != nil {
				return err
			}
		}
	}
	// the signed credential and the Hall of Fame summary, in the same transaction
	if err := iss.SignInTx(ctx, tx, g, origin); err != nil {
		return err
	}
	return Issued(ctx, tx, g, origin)
}

// Issued records grant.issued for g in the transaction of ctx (the page cache, the Hall of
// Fame, the credential cache and webhooks follow from it: app/subscribers.go).
func Issued(ctx context.Context, tx bun.IDB, g *model.BadgeGrant, origin string) error {
	return events.Record(ctx, tx, events.GrantIssued, "grant", g.ID, map[string]string{
		"grantId": g.ID, "badgeId": g.BadgeID, "userId": g.UserID, "verificationUrl": origin + "/verify/" + g.PublicVerificationID})
}

// Revoked records grant.revoked for g in the transaction of ctx.
func Revoked(ctx context.Context, tx bun.IDB, g *model.BadgeGrant) error {
	return events.Record(ctx, tx, events.GrantRevoked, "grant", g.ID, map[string]string{
		"grantId": g.ID, "badgeId": g.BadgeID, "userId": g.UserID, "reason": g.RevocationReason})
}

// DirectInput is a grant made without an application (an admin's direct award, claimed).
type DirectInput struct {
	Issuer    *credential.Issuer // signs the credential (required)
	UserID    string
	Badge     *model.Badge
	GrantedBy string // the admin who awarded it ("" = none recorded)
	Now       time.Time
	Origin    string
	ExpiresAt *time.Time // nil: the badge's validity
}

// IssueDirect makes a new grant of in.Badge to in.UserID inside tx, with no application.
func IssueDirect(ctx context.Context, tx bun.Tx, in DirectInput) (*model.BadgeGrant, error) {
	if in.Issuer == nil {
		return nil, ErrNoIssuer
	}
	g := &model.BadgeGrant{ID: model.NewID(), UserID: in.UserID, BadgeID: in.Badge.ID, GrantedAt: in.Now, ExpiresAt: in.ExpiresAt}
	if in.GrantedBy != "" {
		by := in.GrantedBy
		g.GrantedBy = &by
	}
	if err := create(ctx, tx, in.Issuer, g, in.Badge, in.Origin, nil); err != nil {
		return nil, err
	}
	return g, nil
}

func insertWithSavepoint(ctx context.Context, tx bun.Tx, g *model.BadgeGrant) error {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT grant_issue"); err != nil {
		return err
	}
	if _, err := tx.NewInsert().Model(g).Exec(ctx); err != nil {
		_, _ = tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT grant_issue")
		return err
	}
	_, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT grant_issue")
	return err
}

// Revoke marks the application's grant revoked with reason (inside tx). It answers the
// grant as it is now, or nil when the application has none; a grant already revoked is
// left as it is. The revocation of its credential is final (credential_revocations).
func Revoke(ctx context.Context, tx bun.Tx, applicationID, reason string, now time.Time) (*model.BadgeGrant, error) {
	var g model.BadgeGrant
	if err := tx.NewSelect().Model(&g).Where("application_id = ?", applicationID).Limit(1).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, nil
		}
		return nil, err
	}
	if g.RevokedAt != nil {
		return &g, nil
	}
	g.RevokedAt = &now
	g.RevocationReason = reason
	if _, err := tx.NewUpdate().Model(&g).Column("revoked_at", "revocation_reason").WherePK().Exec(ctx); err != nil {
		return nil, fmt.Errorf("revoke grant: %w", err)
	}
	if err := credential.RecordRevocation(ctx, tx, &g, now); err != nil {
		return nil, err
	}
	if err := Revoked(ctx, tx, &g); err != nil {
		return nil, err
	}
	return &g, nil
}
