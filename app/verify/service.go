package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/badge"
	"meritmark/app/credential"
	"meritmark/app/grant"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/pagecache"
	"meritmark/db"
)

// Errors of the use cases.
var (
	ErrNotFound    = errors.New("verify: not found")
	ErrRateLimited = errors.New("verify: rate limited")
)

// Service verifies credentials and serves their documents.
type Service struct {
	DB      *bun.DB
	Issuer  *credential.Issuer
	Mailer  *mail.Worker
	Limiter *Limiter
	// Fresh is how long a cached verification is served before the record is compared
	// with the database again (changes made on this instance drop it at once).
	Fresh   time.Duration
	DataDir string // card images are kept under DataDir/cache/cards ("" = memory only)
	// LinkedInOrgID is the issuer's LinkedIn company page id for Add-to-profile links.
	LinkedInOrgID string

	cache  *cache
	images *imageCache
	now    func() time.Time

	listMu sync.Mutex
	lists  map[string]signedList // origin -> the signed revocation Bitstring Status List

	byVerificationID, byPublicID db.Prepared // load's two reads
}

// NewService makes the service.
func NewService(d *bun.DB, iss *credential.Issuer, mailer *mail.Worker, dataDir string) *Service {
	s := &Service{DB: d, Issuer: iss, Mailer: mailer, Limiter: NewLimiter(LimitBurst, LimitRate), Fresh: time.Second, DataDir: dataDir,
		cache: newCache(20_000), images: newImageCache(512), now: time.Now}
	iss.OnChange(s.cache.drop)
	return s
}

// record is a grant with its holder and badge, read in one query.
type record struct {
	GrantID              string    `bun:"grant_id"`
	UserID               string    `bun:"user_id"`
	BadgeID              string    `bun:"badge_id"`
	VerificationID       string    `bun:"verification_id"`
	PublicVerificationID string    `bun:"public_verification_id"`
	StatusIndex          int       `bun:"status_index"`
	GrantedAt            time.Time `bun:"granted_at"`
	// walletCopyIndex is the status index of the wallet copy a file is (0: not a copy)
	walletCopyIndex    int        `bun:"-"`
	ExpiresAt          *time.Time `bun:"expires_at"`
	RevokedAt          *time.Time `bun:"revoked_at"`
	RevocationCategory string     `bun:"revocation_category"`
	CredentialJWT      string     `bun:"credential_jwt"`
	CredentialOrigin   string     `bun:"credential_origin"`
	CredentialLD       string     `bun:"credential_ld"`
	UserName           string     `bun:"user_name"`
	UserEmail          string     `bun:"user_email"`
	ProfilePicKey      string     `bun:"profile_pic_key"`
	UserDeletedAt      *time.Time `bun:"user_deleted_at"`
	BadgeName          string     `bun:"badge_name"`
	BadgeDescription   string     `bun:"badge_description"`
	BadgeCategory      string     `bun:"badge_category"`
	BadgeType          string     `bun:"badge_type"`
	BadgeLevel         string     `bun:"badge_level"`
	BadgeIcon          string     `bun:"badge_icon"`
	BadgeColor         string     `bun:"badge_color"`
	HideScore          bool       `bun:"hide_score"`
}

const recordSelect = `SELECT g.id AS grant_id, g.user_id, g.badge_id, g.verification_id, g.public_verification_id,
	g.status_index, g.granted_at, g.expires_at, g.revoked_at, g.revocation_category, g.credential_jwt, g.credential_origin, COALESCE(gc.credential_ld, '') AS credential_ld, g.hide_score,
	u.name AS user_name, u.email AS user_email, u.profile_pic_key, u.deleted_at AS user_deleted_at,
	b.name AS badge_name, b.description AS badge_description, b.category AS badge_category, b.type AS badge_type,
	b.level AS badge_level, b.icon AS badge_icon, b.color AS badge_color
FROM badge_grants AS g JOIN users AS u ON u.id = g.user_id JOIN badges AS b ON b.id = g.badge_id
LEFT JOIN badge_grant_credentials AS gc ON gc.grant_id = g.id `

const (
	byVerificationIDSQL = recordSelect + "WHERE g.verification_id = ?"
	byPublicIDSQL       = recordSelect + "WHERE g.public_verification_id = ?"
)

// load is the grant of a verification id (kind says which): every verify page and API
// call reads one, so both reads are kept prepared.
func (s *Service) load(ctx context.Context, kind, id string) (*record, error) {
	stmt, query := &s.byVerificationID, byVerificationIDSQL
	if kind == KindPublic {
		stmt, query = &s.byPublicID, byPublicIDSQL
	}
	var r record
	if err := stmt.Scan(ctx, s.DB, &r, query, id); err != nil {
		if db.IsNoRows(err) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	return &r, nil
}

// statusAt is the record's state at now, before the signature is looked at.
func (r *record) statusAt(now time.Time) string {
	switch {
	case r.RevokedAt != nil:
		return StatusRevoked
	case r.ExpiresAt != nil && !now.Before(*r.ExpiresAt):
		return StatusExpired
	}
	return StatusValid
}

func (r *record) fingerprint(now time.Time, retiredKeys string) string {
	h := sha256.New()
	h.Write([]byte(retiredKeys))
	h.Write([]byte{0})
	ts := func(t *time.Time) string {
		if t == nil {
			return "-"
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	for _, f := range []string{r.GrantID, r.VerificationID, r.PublicVerificationID, fmt.Sprint(r.StatusIndex),
		r.GrantedAt.UTC().Format(time.RFC3339Nano), ts(r.ExpiresAt), ts(r.RevokedAt), r.RevocationCategory, r.CredentialJWT,
		r.CredentialOrigin, r.CredentialLD, r.UserName, r.UserEmail, r.ProfilePicKey, ts(r.UserDeletedAt), r.BadgeName, r.BadgeDescription, r.BadgeCategory,
		r.BadgeType, r.BadgeLevel, r.BadgeIcon, r.BadgeColor, r.statusAt(now)} {
		h.Write([]byte(f))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// signLazily signs a grant made before credentials existed (or without an origin) on its
// first verification; with needLD, also a grant signed before the JSON-LD form existed
// (both forms are signed again: the old EdDSA VC-JWT copies keep verifying).
func (s *Service) signLazily(ctx context.Context, r *record, requestOrigin string, needLD bool) error {
	return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var g model.BadgeGrant
		if err := db.ForUpdate(tx, tx.NewSelect().Model(&g).Where("id = ?", r.GrantID)).Scan(ctx); err != nil {
			return err
		}
		if g.CredentialJWT != "" && !needLD {
			return nil
		}
		if needLD {
			n, err := tx.NewSelect().Table("badge_grant_credentials").Where("grant_id = ?", g.ID).Count(ctx)
			if err != nil {
				return err
			}
			if n > 0 && g.CredentialJWT != "" {
				return nil
			}
		}
		origin := s.Issuer.BaseURL
		if origin == "" {
			origin = s.Issuer.DefaultOrigin(ctx, tx)
		}
		if origin == "" {
			origin = requestOrigin
		}
		return s.Issuer.SignGrant(ctx, tx, &g, origin)
	})
}

// compute verifies a record: the signature with the published keys, the credential
// against the record, revocation and expiry.
func (s *Service) compute(ctx context.Context, r *record, now time.Time) Result {
	origin := r.CredentialOrigin
	res := Result{
		Badge: BadgeInfo{ID: r.BadgeID, Name: r.BadgeName, Type: r.BadgeType, Description: r.BadgeDescription,
			Category: r.BadgeCategory, Level: r.BadgeLevel, Icon: r.BadgeIcon, Color: r.BadgeColor},
		User:      UserInfo{Name: r.UserName, Email: MaskEmail(r.UserEmail), Avatar: (&model.User{ProfilePicKey: r.ProfilePicKey}).ProfilePicURL()},
		IssuedAt:  r.GrantedAt.UTC(),
		ExpiresAt: utc(r.ExpiresAt),
		RevokedAt: utc(r.RevokedAt),
		CheckedAt: now.UTC().Truncate(time.Second),
		// the one id to quote, whichever form was entered
		VerificationID: r.VerificationID,
	}
	if r.UserDeletedAt == nil {
		res.User.ProfileURL = "/profile/" + r.UserID
	}
	if origin != "" {
		res.Credential = links(origin, s.LinkedInOrgID, r)
	}
	if r.CredentialJWT != "" {
		v, err := s.Issuer.Verify(ctx, r.CredentialJWT)
		if v != nil && v.Key != nil {
			res.Checks.IssuerKey = v.Key.KID
		}
		var retired *credential.KeyRetiredError
		res.Checks.KeyRetired = errors.As(err, &retired)
		res.Checks.Signature = err == nil && matches(v, r, origin)
		// the JSON-LD form, when the grant has one: its Data Integrity proof by our did:web
		// and the same credential id
		if res.Checks.Signature && r.CredentialLD != "" {
			_, err := s.Issuer.VerifyLD(ctx, origin, []byte(r.CredentialLD))
			var retired *credential.KeyRetiredError
			res.Checks.KeyRetired = errors.As(err, &retired)
			var doc struct {
				ID string `json:"id"`
			}
			res.Checks.Signature = err == nil && json.Unmarshal([]byte(r.CredentialLD), &doc) == nil && doc.ID == v.Payload.ID
		}
		if res.Checks.Signature {
			res.Result = resultInfo(v.Payload, r.HideScore)
		}
	}
	res.Checks.IssuerTrusted = true // the record is ours
	settle(&res, r, now)
	return res
}

// settle derives the status, its reason and the verdict from the checks and the record.
func settle(res *Result, r *record, now time.Time) {
	res.Checks.NotRevoked = r.RevokedAt == nil
	res.Checks.NotExpired = r.ExpiresAt == nil || now.Before(*r.ExpiresAt)
	res.Status = r.statusAt(now)
	res.Reason, res.RevocationReason = "", ""
	switch {
	case !res.Checks.NotRevoked:
		// the category's label only: the administrator's note stays in the audit log
		label := grant.CategoryLabel(r.RevocationCategory)
		res.Reason = RevokedReason(*r.RevokedAt, label)
		res.RevocationReason = label
	case !res.Checks.NotExpired:
		res.Reason = ExpiredReason(*r.ExpiresAt)
	case !res.Checks.Signature && res.Checks.KeyRetired:
		res.Status = StatusInvalid
		res.Reason = MsgKeyRetired
	case !res.Checks.Signature:
		res.Status = StatusInvalid
		res.Reason = MsgSignatureFailed
	}
	res.IsValid = res.Checks.Signature && res.Checks.NotRevoked && res.Checks.NotExpired
}

// matches reports whether a signed credential is the one this record describes: a new
// one (ES256, issuer our did:web, kid our key URL, our two Bitstring status lists at its
// index as its status, or the 1EdTech list before issue 36) or one
// signed before issue 15 (EdDSA, issuer /issuer, its status index in the status id).
func matches(v *credential.Verified, r *record, origin string) bool {
	if v == nil || v.Payload == nil || v.Key == nil {
		return false
	}
	p := v.Payload
	if p.ID != credential.CredentialURL(origin, r.PublicVerificationID) || p.Jti != p.ID ||
		p.Nbf != r.GrantedAt.UTC().Truncate(time.Second).Unix() || p.Iss != p.Issuer.ID {
		return false
	}
	switch p.Iss {
	case credential.DIDWeb(origin):
		if v.Header.Alg != credential.AlgES256 || !credential.OurKid(origin, v.Key.KID, v.Header.Kid) ||
			!(p.NamesStatusLists(origin, r.StatusIndex) || p.NamesRevocationList1EdTech(origin)) {
			return false
		}
	case credential.IssuerURL(origin):
		if v.Header.Alg != credential.AlgEdDSA || p.StatusIndexOf() != r.StatusIndex {
			return false
		}
	default:
		return false
	}
	if r.ExpiresAt == nil {
		return p.Exp == 0
	}
	return p.Exp == r.ExpiresAt.UTC().Truncate(time.Second).Unix()
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// links builds the credential's documents and share links.
func links(origin, orgID string, r *record) Links {
	cred := credential.CredentialURL(origin, r.PublicVerificationID)
	share := badge.ShareWith(origin, orgID, &badge.Badge{Name: r.BadgeName}, &badge.Grant{GrantedAt: r.GrantedAt,
		PublicVerificationID: r.PublicVerificationID, ExpiresAt: r.ExpiresAt})
	return Links{ID: cred, JSON: cred + ".json", JWT: cred + ".jwt", PNG: cred + ".png", VerifyURL: share.VerifyURL,
		Issuer: credential.IssuerURL(origin), JWKS: credential.JWKSURL(origin), StatusList: credential.StatusListURL(origin),
		DID: credential.DIDWeb(origin), BitstringList: credential.BitstringStatusListURL(origin, credential.PurposeRevocation),
		LinkedInAddURL: share.LinkedInAddURL, LinkedInShareURL: share.LinkedInShareURL, TwitterShareURL: share.TwitterShareURL}
}

// Lookup verifies the credential id names (already normalized). Cached results are served
// while fresh; a stale one is compared with the database (free); a lookup that is not in
// the cache costs ip a token (ErrRateLimited when none is left).
func (s *Service) Lookup(ctx context.Context, kind, id, ip, requestOrigin string) (*Result, *entry, error) {
	now := s.now()
	e := s.cache.lookup(id)
	// a request through the page cache carries the data versions it read: an entry
	// checked at other versions (a grant or profile changed since, on any instance) is
	// compared with the database again, so a rebuilt page never shows the older result
	ver, versioned := pagecache.FromContext(ctx)
	if e != nil && s.cache.fresh(e, now, s.Fresh) && (!versioned || s.cache.checkedSame(e, &ver)) && !(e.result.IsValid && e.result.ExpiresAt != nil && !now.Before(*e.result.ExpiresAt)) {
		return s.answer(e, id), e, nil
	}
	if e == nil {
		if !s.Limiter.Has(ip) {
			return nil, nil, ErrRateLimited
		}
		s.Limiter.Take(ip)
	}
	r, err := s.load(ctx, kind, id)
	if err != nil {
		return nil, nil, err
	}
	if r.CredentialJWT == "" {
		if err := s.signLazily(ctx, r, requestOrigin, false); err != nil {
			return nil, nil, err
		}
		if r, err = s.load(ctx, kind, id); err != nil {
			return nil, nil, err
		}
	}
	// a key retired since (on any instance: read again when the page cache saw a change)
	maxAge := credential.RefreshEvery
	if versioned && (e == nil || !s.cache.checkedSame(e, &ver)) {
		maxAge = 0
	}
	fp := r.fingerprint(now, s.Issuer.RetiredStamp(ctx, maxAge))
	if e != nil && e.fingerprint == fp {
		s.cache.touch(e, now, ver)
		return s.answer(e, id), e, nil
	}
	e = &entry{grantID: r.GrantID, userID: r.UserID, fingerprint: fp, result: s.compute(ctx, r, now), publicID: r.PublicVerificationID, checkedAt: now, checkedVer: ver}
	s.cache.put(id, e)
	return s.answer(e, id), e, nil
}

// answer is a copy of the cached result (its verificationId is the grant's MM-… id,
// whichever form the visitor gave).
func (s *Service) answer(e *entry, id string) *Result {
	r := e.result
	if r.VerificationID == "" {
		r.VerificationID = id
	}
	return &r
}

// ChargeMiss takes a token for a malformed id (answered like an unknown one).
func (s *Service) ChargeMiss(ip string) error {
	if !s.Limiter.Has(ip) {
		return ErrRateLimited
	}
	s.Limiter.Take(ip)
	return nil
}
