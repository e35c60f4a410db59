package verify

import (
	"context"
	"errors"
	"strings"
	"time"

	"meritmark/app/credential"
	"meritmark/db"
)

// FileResult is the answer of POST /verify/file: the verification response an id gets, plus
// what was read from the file and whose credential it claims to be.
type FileResult struct {
	Result
	Source        string `json:"source"`        // "file"
	Format        string `json:"format"`        // png, jwt or json
	ClaimedIssuer string `json:"claimedIssuer"` // the issuer the credential names
	CredentialID  string `json:"credentialId"`  // the id the credential names
	TrustDetail   string `json:"trustDetail"`   // why the issuer is (not) trusted
}

// StatusUntrusted is the status of a credential whose issuer we do not trust.
const StatusUntrusted = "untrusted"

// trustedOrigins are the origins this server issues at: the configured base URL or, without
// one, the request's origin; and the origin the named credential was signed at, when it is
// one of ours.
func (s *Service) trustedOrigins(ctx context.Context, requestOrigin string, r *record) []string {
	var out []string
	add := func(o string) {
		if n, err := credential.NormalizeOrigin(o); err == nil {
			for _, x := range out {
				if x == n {
					return
				}
			}
			out = append(out, n)
		}
	}
	add(s.Issuer.OriginFor(requestOrigin))
	if r != nil && r.CredentialOrigin != "" {
		add(r.CredentialOrigin)
	}
	return out
}

// recordOf loads the grant a credential id names (…/credentials/{publicId}), nil when none.
func (s *Service) recordOf(ctx context.Context, credentialID string) (*record, error) {
	i := strings.LastIndexByte(credentialID, '/')
	pvid := credentialID[i+1:]
	if !publicRe.MatchString(pvid) {
		return nil, nil
	}
	r, err := s.load(ctx, KindPublic, pvid)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if r.CredentialOrigin == "" || credential.CredentialURL(r.CredentialOrigin, r.PublicVerificationID) != credentialID {
		return nil, nil
	}
	return r, nil
}

// walletCopyOf loads the grant a wallet copy was made from (app/oid4vci: a credential of
// its own, id urn:uuid:..., bound to the holder's DID, with its own status index), found by
// that index and the DID it was handed to; nil when pl is no copy we made.
func (s *Service) walletCopyOf(ctx context.Context, pl *credential.Payload) (*record, error) {
	if !strings.HasPrefix(pl.ID, "urn:uuid:") || pl.CredentialSubject.ID == "" {
		return nil, nil
	}
	idx := pl.StatusIndexOf()
	if idx <= 0 {
		return nil, nil
	}
	var c struct {
		PublicID string `bun:"public_verification_id"`
	}
	err := s.DB.NewSelect().TableExpr("wallet_copies AS w").ColumnExpr("g.public_verification_id").
		Join("JOIN badge_grants AS g ON g.id = w.grant_id").
		Where("w.status_index = ? AND w.holder_did = ?", idx, pl.CredentialSubject.ID).Scan(ctx, &c)
	if db.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r, err := s.load(ctx, KindPublic, c.PublicID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r.walletCopyIndex = idx
	return r, nil
}

// VerifyUpload runs on a credential file the checks an id gets: the issuer must be us (the
// credential's id, issuer and key all on our origin), else it is reported untrusted and no
// key is looked for; then the signature with our published keys, that it is a credential we
// issued (our record of it), and its revocation and expiry as our records have them now (a
// copy downloaded before a revocation or an expiry is judged by today's status).
func (s *Service) VerifyUpload(ctx context.Context, up *Upload, requestOrigin string) (*FileResult, error) {
	now := s.now()
	pl := up.Payload
	out := &FileResult{Source: "file", Format: up.Format, ClaimedIssuer: pl.Issuer.ID, CredentialID: pl.ID}
	out.CheckedAt = now.UTC().Truncate(1e9)
	out.Badge.Name = pl.CredentialSubject.Achievement.Name
	out.Badge.Description = pl.CredentialSubject.Achievement.Description
	out.Status = StatusInvalid

	r, err := s.recordOf(ctx, pl.ID)
	if err == nil && r == nil {
		r, err = s.walletCopyOf(ctx, pl)
	}
	if err != nil {
		return nil, err
	}
	id := pl.ID
	if r != nil && r.walletCopyIndex > 0 {
		// a urn:uuid names no origin: a copy found in our records stands for the grant's
		// credential, and its issuer and key must still be ours
		id = credential.CredentialURL(r.CredentialOrigin, r.PublicVerificationID)
	}
	verdict := credential.CheckTrust(s.trustedOrigins(ctx, requestOrigin, r), id, pl.Issuer.ID, pl.Iss, up.Kid)
	out.TrustDetail = verdict.Detail
	if !verdict.Trusted {
		out.Status = StatusUntrusted
		out.Reason = MsgUntrusted + " It names " + orNone(pl.Issuer.ID) + "."
		return out, nil
	}
	out.Checks.IssuerTrusted = true

	// the signature, with our own keys only
	origin := verdict.Issuer
	if r != nil {
		origin = r.CredentialOrigin
	}
	var key *credential.Key
	var sigErr error
	switch up.Format {
	case FormatJSON:
		key, sigErr = s.Issuer.VerifyLD(ctx, origin, up.JSON)
	default:
		key, sigErr = up.JWT.VerifySignature(s.Issuer.KeySource(ctx))
	}
	if key == nil && sigErr == nil {
		sigErr = credential.ErrUnknownKey
	}
	if r == nil {
		out.Reason = MsgNotVerified + " No badge issued by Meritmark has this credential's id."
		if sigErr != nil {
			out.Reason = MsgSignatureFailed
		}
		if key != nil {
			out.Checks.IssuerKey = key.KID
		}
		return out, nil
	}
	res := s.compute(ctx, r, now)
	res.VerificationID = r.PublicVerificationID
	res.Checks.IssuerKey = ""
	if key != nil {
		res.Checks.IssuerKey = key.KID
	}
	res.Checks.Signature = sigErr == nil && matchesCopy(up, key, r, r.CredentialOrigin)
	settle(&res, r, now)
	// a copy of an earlier credential of this grant, revoked for good before a restore
	// re-issued it (issue 36), stays revoked whatever the grant is now
	at, idx, err := s.revokedCopy(ctx, r, pl)
	if err != nil {
		return nil, err
	}
	if at != nil {
		old := *r
		old.StatusIndex = idx
		if sigErr == nil && matchesCopy(up, key, &old, r.CredentialOrigin) {
			res.Checks.Signature, res.Checks.NotRevoked, res.IsValid = true, false, false
			res.Status, res.Reason, res.RevocationReason, res.RevokedAt = StatusRevoked, RevokedReason(*at, ""), "", utc(at)
		}
	}
	out.Result = res
	return out, nil
}

// revokedCopy is when the credential copy pl of grant r was revoked for good, when it is a
// copy of an earlier credential of the grant (another status index, or the 1EdTech list of
// the VC-JWTs issued before issue 36, when an index of the grant was revoked since): nil
// otherwise. idx is the copy's status index.
func (s *Service) revokedCopy(ctx context.Context, r *record, pl *credential.Payload) (*time.Time, int, error) {
	q := s.DB.NewSelect().Table("credential_revocations").Column("revoked_at").Where("grant_id = ?", r.GrantID)
	idx := 0
	switch {
	case pl.CredentialStatus.Entry(credential.PurposeRevocation) != nil:
		if idx = pl.StatusIndexOf(); idx == r.StatusIndex || idx <= 0 {
			return nil, 0, nil
		}
		q = q.Where("idx = ?", idx)
	case pl.NamesRevocationList1EdTech(r.CredentialOrigin) && r.RevokedAt == nil:
		idx = r.StatusIndex
	default:
		return nil, 0, nil
	}
	var at []time.Time
	if err := q.OrderExpr("revoked_at").Limit(1).Scan(ctx, &at); err != nil {
		return nil, 0, err
	}
	if len(at) == 0 {
		return nil, 0, nil
	}
	return &at[0], idx, nil
}

// matchesCopy reports whether a signed copy is the credential this record describes, in
// the form it was signed in (an EdDSA VC-JWT from before issue 15, an ES256 VC-JWT whose kid
// is the key's URL, or the JSON-LD form with its Data Integrity proof). An older copy may
// lack a later expiry (or carry one since cleared): the expiry and the revocation are taken
// from the record, not from the copy.
func matchesCopy(up *Upload, key *credential.Key, r *record, origin string) bool {
	p := up.Payload
	if p == nil || key == nil || p.ValidFrom != credential.Timestamp(r.GrantedAt) {
		return false
	}
	if r.walletCopyIndex > 0 {
		// a wallet copy: found by its own index and DID (walletCopyOf), signed by our
		// did:web in either form
		if p.StatusIndexOf() != r.walletCopyIndex || p.Issuer.ID != credential.DIDWeb(origin) {
			return false
		}
		if up.Format == FormatJSON {
			return true
		}
		return p.Jti == p.ID && p.Iss == p.Issuer.ID && p.Sub == p.CredentialSubject.ID &&
			up.JWT.Header.Alg == credential.AlgES256 && credential.OurKid(origin, key.KID, up.JWT.Header.Kid)
	}
	if p.ID != credential.CredentialURL(origin, r.PublicVerificationID) {
		return false
	}
	if up.Format == FormatJSON {
		return p.Issuer.ID == credential.DIDWeb(origin) && p.StatusIndexOf() == r.StatusIndex
	}
	if p.Jti != p.ID || p.Iss != p.Issuer.ID || p.Nbf != r.GrantedAt.UTC().Truncate(1e9).Unix() {
		return false
	}
	h := up.JWT.Header
	switch p.Iss {
	case credential.DIDWeb(origin):
		return h.Alg == credential.AlgES256 && credential.OurKid(origin, key.KID, h.Kid)
	case credential.IssuerURL(origin):
		return h.Alg == credential.AlgEdDSA && p.StatusIndexOf() == r.StatusIndex
	}
	return false
}

func orNone(s string) string {
	if s == "" {
		return "no issuer"
	}
	return s
}
