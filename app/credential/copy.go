package credential

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// Wallet copies (app/oid4vci, issue 36): a credential handed to a wallet over OpenID4VCI
// or the DCC VC API exchange is a new credential of its own: the grant's achievement and
// evidence, its subject the holder's DID (the key the wallet proved it holds), its id a
// urn:uuid, its own status list index, no refreshService (the grant's credential URL
// answers the unbound copy). Revoking the grant revokes every copy (RecordRevocation).

// CopyInput says which copy to sign.
type CopyInput struct {
	Origin      string // the grant's credential origin (or the issuer's)
	HolderDID   string // credentialSubject.id and the JWT's sub
	StatusIndex int    // the copy's own index (AllocateStatusIndex)
	Now         time.Time
}

// NewUUID is a random (version 4) UUID.
func NewUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// SignCopy signs a new copy of g's credential bound to in.HolderDID, in both forms.
func (i *Issuer) SignCopy(ctx context.Context, tx bun.IDB, g *model.BadgeGrant, in CopyInput) (*Signed, error) {
	origin := strings.TrimRight(in.Origin, "/")
	var u model.User
	if err := tx.NewSelect().Model(&u).Column("id", "name", "email", "email_verified_at", "name_in_credentials").Where("id = ?", g.UserID).Scan(ctx); err != nil {
		return nil, fmt.Errorf("credential holder: %w", err)
	}
	if !u.EmailVerified() {
		return nil, ErrHolderUnverified
	}
	var b model.Badge
	if err := tx.NewSelect().Model(&b).Where("id = ?", g.BadgeID).Scan(ctx); err != nil {
		return nil, fmt.Errorf("credential badge: %w", err)
	}
	ev, err := evidenceOf(ctx, tx, origin, g, &b)
	if err != nil {
		return nil, err
	}
	p := Build(Input{
		Origin: origin, PublicVerificationID: g.PublicVerificationID, StatusIndex: in.StatusIndex,
		UserID: u.ID, Email: u.Email, HolderName: HolderName(&u), BadgeID: b.ID, BadgeName: b.Name, BadgeDescription: b.Description,
		BadgeCriteria: b.Criteria, BadgeCategory: b.Category, BadgeLevel: b.Level,
		GrantedAt: g.GrantedAt, ExpiresAt: g.ExpiresAt, Evidence: ev,
	})
	p.ID = "urn:uuid:" + NewUUID()
	p.Jti = p.ID
	p.CredentialSubject.ID = in.HolderDID
	p.Sub = in.HolderDID
	p.RefreshService = nil
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	es, ed := i.Keys.ActiveES256(), i.Keys.Active()
	tok, err := SignJWTKid(es, VerificationMethodID(origin, es.KID), raw)
	if err != nil {
		return nil, err
	}
	ld, err := AddProof(LDCredential(p), ed, VerificationMethodID(origin, ed.KID), in.Now)
	if err != nil {
		return nil, err
	}
	return &Signed{JWT: tok, Payload: p, LD: ld}, nil
}

// recordCopyRevocations makes every wallet copy of g revoked for good (RecordRevocation).
func recordCopyRevocations(ctx context.Context, tx bun.IDB, g *model.BadgeGrant, at time.Time) error {
	_, err := tx.NewRaw(`INSERT INTO credential_revocations (idx, grant_id, public_verification_id, credential_origin, revoked_at)
SELECT status_index, grant_id, ?, ?, ? FROM wallet_copies WHERE grant_id = ? ON CONFLICT (idx) DO NOTHING`,
		g.PublicVerificationID, g.CredentialOrigin, at.UTC(), g.ID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("record revocation of wallet copies: %w", err)
	}
	return nil
}
