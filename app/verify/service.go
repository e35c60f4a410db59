package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/uptrace/bun"
	"golang.org/x/sync/singleflight"

	"meritmark/app/badge"
	"meritmark/app/credential"
	"meritmark/app/halloffame"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/pagecache"
	"meritmark/app/web"
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
	GrantID              string     `bun:"grant_id"`
	UserID               string     `bun:"user_id"`
	BadgeID              string     `bun:"badge_id"`
	VerificationID       string     `bun:"verification_id"`
	PublicVerificationID string     `bun:"public_verification_id"`
	StatusIndex          int        `bun:"status_index"`
	GrantedAt            time.Time  `bun:"granted_at"`
	ExpiresAt            *time.Time `bun:"expires_at"`
	RevokedAt            *time.Time `bun:"revoked_at"`
	RevocationReason     string     `bun:"revocation_reason"`
	CredentialJWT        string     `bun:"credential_jwt"`
	CredentialOrigin     string     `bun:"credential_origin"`
	CredentialLD         string     `bun:"credential_ld"`
	UserName             string     `bun:"user_name"`
	UserEmail            string     `bun:"user_email"`
	ProfilePicKey        string     `bun:"profile_pic_key"`
	BadgeName            string     `bun:"badge_name"`
	BadgeDescription     string     `bun:"badge_description"`
	BadgeCategory        string     `bun:"badge_category"`
	BadgeType            string     `bun:"badge_type"`
	BadgeLevel           string     `bun:"badge_level"`
	BadgeIcon            string     `bun:"badge_icon"`
	BadgeColor           string     `bun:"badge_color"`
}

const recordSelect = `SELECT g.id AS grant_id, g.user_id, g.badge_id, g.verification_id, g.public_verification_id,
	g.status_index, g.granted_at, g.expires_at, g.revoked_at, g.revocation_reason, g.credential_jwt, g.credential_origin, COALESCE(gc.credential_ld, '') AS credential_ld,
	u.name AS user_name, u.email AS user_email, u.profile_pic_key,
	b.name AS badge_name, b.description AS badge_description, b.category AS badge_category, b.type AS badge_type,
	b.level AS badge_level, b.icon AS badge_icon, b.color AS badge_color
FROM badge_grants AS g JOIN users AS u ON u.id = g.user_id JOIN badges AS b ON b.id = g.badge_id
LEFT JOIN badge_grant_credentials AS gc ON gc.grant_id = g.id `

func (s *Service) load(ctx context.Context, kind, id string) (*record, error) {
	col := "g.verification_id"
	if kind == KindPublic {
		col = "g.public_verification_id"
	}
	var r record
	if err := s.DB.NewRaw(recordSelect+"WHERE "+col+" = ?", id).Scan(ctx, &r); err != nil {
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

func (r *record) fingerprint(now time.Time) string {
	h := sha256.New()
	ts := func(t *time.Time) string {
		if t == nil {
			return "-"
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	for _, f := range []string{r.GrantID, r.VerificationID, r.PublicVerificationID, fmt.Sprint(r.StatusIndex),
		r.GrantedAt.UTC().Format(time.RFC3339Nano), ts(r.ExpiresAt), ts(r.RevokedAt), r.RevocationReason, r.CredentialJWT,
		r.CredentialOrigin, r.CredentialLD, r.UserName, r.UserEmail, r.ProfilePicKey, r.BadgeName, r.BadgeDescription, r.BadgeCategory,
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
		q := tx.NewSelect().Model(&g).Where("id = ?", r.GrantID)
		if db.EngineOf(tx) == db.Postgres {
			q = q.For("UPDATE")
		}
		if err := q.Scan(ctx); err != nil {
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
	if origin != "" {
		res.Credential = links(origin, s.LinkedInOrgID, r)
	}
	if r.CredentialJWT != "" {
		v, err := s.Issuer.Verify(ctx, r.CredentialJWT)
		if v != nil && v.Key != nil {
			res.Checks.IssuerKey = v.Key.KID
		}
		res.Checks.Signature = err == nil && matches(v, r, origin)
		// the JSON-LD form, when the grant has one: its Data Integrity proof by our did:web
		// and the same credential id
		if res.Checks.Signature && r.CredentialLD != "" {
			_, err := s.Issuer.VerifyLD(ctx, origin, []byte(r.CredentialLD))
			var doc struct {
				ID string `json:"id"`
			}
			res.Checks.Signature = err == nil && json.Unmarshal([]byte(r.CredentialLD), &doc) == nil && doc.ID == v.Payload.ID
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
		res.Reason = RevokedReason(*r.RevokedAt, r.RevocationReason)
		res.RevocationReason = r.RevocationReason
	case !res.Checks.NotExpired:
		res.Reason = ExpiredReason(*r.ExpiresAt)
	case !res.Checks.Signature:
		res.Status = StatusInvalid
		res.Reason = MsgSignatureFailed
	}
	res.IsValid = res.Checks.Signature && res.Checks.NotRevoked && res.Checks.NotExpired
}

// matches reports whether a signed credential is the one this record describes: a new
// one (ES256, issuer our did:web, kid our key URL, the 1EdTech list as its status) or one
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
		if v.Header.Alg != credential.AlgES256 || v.Header.Kid != credential.KeyURL(origin, v.Key.KID) ||
			p.CredentialStatus == nil || p.CredentialStatus.ID != credential.StatusListURL(origin) || p.CredentialStatus.Type != credential.StatusType {
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
	if e != nil && s.cache.fresh(e, now, s.Fresh) && (!versioned || s.cache.checkedAt(e) == ver) && !(e.result.IsValid && e.result.ExpiresAt != nil && !now.Before(*e.result.ExpiresAt)) {
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
	fp := r.fingerprint(now)
	if e != nil && e.fingerprint == fp {
		s.cache.touch(e, now, ver)
		return s.answer(e, id), e, nil
	}
	e = &entry{grantID: r.GrantID, fingerprint: fp, result: s.compute(ctx, r, now), publicID: r.PublicVerificationID, checkedAt: now, checkedVer: ver}
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

// ---- public documents ----

// credentialRecord loads a credential by public id, signing it first if needed (needLD:
// the JSON-LD form is wanted too).
func (s *Service) credentialRecord(ctx context.Context, pvid, requestOrigin string, needLD bool) (*record, error) {
	if !publicRe.MatchString(pvid) {
		return nil, ErrNotFound
	}
	r, err := s.load(ctx, KindPublic, pvid)
	if err != nil {
		return nil, err
	}
	if r.CredentialJWT == "" || (needLD && r.CredentialLD == "") {
		if err := s.signLazily(ctx, r, requestOrigin, needLD); err != nil {
			return nil, err
		}
		return s.load(ctx, KindPublic, pvid)
	}
	return r, nil
}

// CredentialJWT is the signed credential.
func (s *Service) CredentialJWT(ctx context.Context, pvid, requestOrigin string) (string, error) {
	r, err := s.credentialRecord(ctx, pvid, requestOrigin, false)
	if err != nil {
		return "", err
	}
	return r.CredentialJWT, nil
}

// CredentialJSON is the credential as a JSON-LD document with its Data Integrity proof
// (eddsa-rdfc-2022, signed with the VC-JWT; a grant signed before that form existed is
// signed again first).
func (s *Service) CredentialJSON(ctx context.Context, pvid, requestOrigin string) ([]byte, string, error) {
	r, err := s.credentialRecord(ctx, pvid, requestOrigin, true)
	if err != nil {
		return nil, "", err
	}
	return []byte(r.CredentialLD), r.CredentialJWT, nil
}

// BakedPNG is the badge image with the credential baked in.
func (s *Service) BakedPNG(ctx context.Context, pvid, requestOrigin string) ([]byte, string, error) {
	r, err := s.credentialRecord(ctx, pvid, requestOrigin, false)
	if err != nil {
		return nil, "", err
	}
	key := "baked:" + r.GrantID + ":" + hash(r.CredentialJWT)
	b, err := s.images.make(key, func() ([]byte, error) {
		return credential.Bake(s.badgeImage(r.BadgeID, r.BadgeName, r.BadgeCategory, r.BadgeColor), r.CredentialJWT)
	})
	if err != nil {
		return nil, "", err
	}
	return b, r.CredentialJWT, nil
}

func (s *Service) badgeImage(id, name, category, color string) []byte {
	key := "badge:" + id + ":" + hash(name+"\x00"+category+"\x00"+color)
	b, _ := s.images.make(key, func() ([]byte, error) { return credential.BadgeImage(name, category, color), nil })
	return b
}

// IssuerImage is the issuer's image (the Meritmark medallion).
func (s *Service) IssuerImage() []byte {
	b, _ := s.images.make("issuer", func() ([]byte, error) { return credential.BadgeImage(credential.IssuerName, "Issuer", ""), nil })
	return b
}

// AchievementImage is a badge's medallion.
func (s *Service) AchievementImage(ctx context.Context, badgeID string) ([]byte, error) {
	if !model.ValidID(badgeID) {
		return nil, ErrNotFound
	}
	var b model.Badge
	if err := s.DB.NewSelect().Model(&b).Where("id = ?", badgeID).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	return s.badgeImage(b.ID, b.Name, b.Category, b.Color), nil
}

// Card is the social card (og:image) of a credential's verify page: drawn once per
// version of the grant, kept in memory and under DataDir/cache/cards.
func (s *Service) Card(ctx context.Context, pvid string) ([]byte, string, error) {
	if !publicRe.MatchString(pvid) {
		return nil, "", ErrNotFound
	}
	r, err := s.load(ctx, KindPublic, pvid)
	if err != nil {
		return nil, "", err
	}
	now := s.now()
	st := credential.CardValid
	switch r.statusAt(now) {
	case StatusRevoked:
		st = credential.CardRevoked
	case StatusExpired:
		st = credential.CardExpired
	}
	version := hash(fmt.Sprint(st) + "\x00" + r.BadgeName + "\x00" + r.BadgeCategory + "\x00" + r.BadgeColor + "\x00" + r.UserName + "\x00" + r.GrantedAt.UTC().String())
	key := "card:" + r.GrantID + "-" + version
	b, err := s.images.make(key, func() ([]byte, error) {
		var path string
		if s.DataDir != "" {
			path = filepath.Join(s.DataDir, "cache", "cards", r.GrantID+"-"+version+".png")
			if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
				return b, nil
			}
		}
		b := credential.Card(credential.CardInput{BadgeName: r.BadgeName, Category: r.BadgeCategory, Color: r.BadgeColor,
			Holder: r.UserName, IssuedOn: day(r.GrantedAt), State: st})
		if path != "" {
			if err := os.MkdirAll(filepath.Dir(path), 0o750); err == nil {
				tmp := fmt.Sprintf("%s.%d.tmp", path, time.Now().UnixNano())
				if os.WriteFile(tmp, b, 0o640) == nil {
					_ = os.Rename(tmp, path)
				}
			}
		}
		return b, nil
	})
	return b, version, err
}

// IssuerDocument is the issuer's Profile (its id is our did:web).
func IssuerDocument(origin, supportEmail string) credential.Profile {
	p := credential.IssuerProfile(origin)
	p.Context = credential.Contexts
	p.Email = supportEmail
	return p
}

// AchievementDocument is a badge's Achievement.
func (s *Service) AchievementDocument(ctx context.Context, origin, badgeID string) (*credential.Achievement, error) {
	if !model.ValidID(badgeID) {
		return nil, ErrNotFound
	}
	var b model.Badge
	if err := s.DB.NewSelect().Model(&b).Where("id = ?", badgeID).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	a := credential.AchievementOf(origin, b.ID, b.Name, b.Description, b.Criteria, b.Category, b.Level)
	a.Context = credential.Contexts
	return &a, nil
}

// RevokedEntry is one credential in the 1EdTech Revocation List: its id and revoked: true
// (the reason is shown on our verify page only).
type RevokedEntry struct {
	ID      string `json:"id"`
	Revoked bool   `json:"revoked"`
}

// StatusList is the 1EdTech Revocation List (OB 3.0 credentialStatus type
// 1EdTechRevocationList, VCRL 1.0): every revoked credential, in status index order
// (random, so it tells nothing of when they were issued).
type StatusList struct {
	ID                string         `json:"id"`
	Issuer            string         `json:"issuer"`
	RevokedCredential []RevokedEntry `json:"revokedCredential"`
}

// StatusListDocument reads the revocation list.
func (s *Service) StatusListDocument(ctx context.Context, origin string) (*StatusList, error) {
	var rows []struct {
		StatusIndex          int       `bun:"status_index"`
		PublicVerificationID string    `bun:"public_verification_id"`
		CredentialOrigin     string    `bun:"credential_origin"`
		RevokedAt            time.Time `bun:"revoked_at"`
		RevocationReason     string    `bun:"revocation_reason"`
	}
	q := s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Column("status_index", "public_verification_id", "credential_origin")
	if err := statusOn(q, s.now()).OrderExpr("status_index, public_verification_id").Scan(ctx, &rows); err != nil { // revoked, or expired after issue (expirystatus.go)
		return nil, err
	}
	l := &StatusList{ID: credential.StatusListURL(origin), Issuer: credential.DIDWeb(origin), RevokedCredential: make([]RevokedEntry, 0, len(rows))}
	for _, r := range rows {
		o := r.CredentialOrigin
		if o == "" {
			o = origin
		}
		l.RevokedCredential = append(l.RevokedCredential, RevokedEntry{ID: credential.CredentialURL(o, r.PublicVerificationID), Revoked: true})
	}
	return l, nil
}

// BitstringStatusList is the signed BitstringStatusListCredential of origin (purpose
// revocation): bit i is on when the credential with status index i is revoked, or expired
// after issue (expirystatus.go). Rebuilt (and signed) only when the set of indexes, the
// list length or the next expiry changes.
func (s *Service) BitstringStatusList(ctx context.Context, origin string) ([]byte, error) {
	var set []int
	now := s.now().UTC()
	q := s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Column("status_index").Where("status_index > 0")
	if err := statusOn(q, now).OrderExpr("status_index").Scan(ctx, &set); err != nil {
		return nil, err
	}
	next, err := nextStatusChange(ctx, s.DB, now)
	if err != nil {
		return nil, err
	}
	bits, err := credential.StatusListBits(ctx, s.DB)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s\x00%d\x00%v\x00%s", origin, bits, set, timestampOrEmpty(next))
	s.listMu.Lock()
	defer s.listMu.Unlock()
	if b, ok := s.lists[origin]; ok && b.key == key {
		return b.doc, nil
	}
	enc, err := credential.EncodeList(bits, set)
	if err != nil {
		return nil, err
	}
	url := credential.BitstringStatusListURL(origin, credential.PurposeRevocation)
	doc := credential.StatusListCredential{Context: []string{credential.ContextVC}, ID: url,
		Type: []string{"VerifiableCredential", "BitstringStatusListCredential"}, Issuer: credential.DIDWeb(origin),
		ValidFrom: credential.Timestamp(now), ValidUntil: timestampOrEmpty(next),
		CredentialSubject: credential.StatusListSubject{ID: url + "#list", Type: "BitstringStatusList",
			StatusPurpose: credential.PurposeRevocation, EncodedList: enc}}
	k := s.Issuer.Keys.Active()
	b, err := credential.AddProof(doc, k, credential.VerificationMethodID(origin, k.KID), now)
	if err != nil {
		return nil, err
	}
	if s.lists == nil || len(s.lists) > 64 {
		s.lists = map[string]signedList{}
	}
	s.lists[origin] = signedList{key: key, doc: b}
	return b, nil
}

// signedList is a signed status list and what it was built from.
type signedList struct {
	key string
	doc []byte
}

// ---- admin ----

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
	VerificationID   string     `json:"verificationId"`
}

func stateOf(g *model.BadgeGrant) auditState {
	return auditState{ExpiresAt: utc(g.ExpiresAt), RevokedAt: utc(g.RevokedAt), RevocationReason: g.RevocationReason, VerificationID: g.VerificationID}
}

func audit(ctx context.Context, tx bun.IDB, actor *model.User, action string, g *model.BadgeGrant, before, after any) error {
	b, err := json.Marshal(before)
	if err != nil {
		return err
	}
	a, err := json.Marshal(after)
	if err != nil {
		return err
	}
	e := &model.AuditEntry{ID: model.NewID(), Action: action, TargetType: "grant", TargetID: g.ID, Before: string(b), After: string(a), CreatedAt: model.Now()}
	if actor != nil {
		e.ActorID, e.ActorEmail = &actor.ID, actor.Email
	}
	_, err = tx.NewInsert().Model(e).Exec(ctx)
	return err
}

func lockGrant(ctx context.Context, tx bun.Tx, id string) (*model.BadgeGrant, error) {
	if !model.ValidID(id) {
		return nil, web.NotFound(MsgGrantNotFound)
	}
	var g model.BadgeGrant
	q := tx.NewSelect().Model(&g).Where("id = ?", id)
	if db.EngineOf(tx) == db.Postgres {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, web.NotFound(MsgGrantNotFound)
		}
		return nil, err
	}
	return &g, nil
}

// Revoke revokes grant id with reason (already checked) in one transaction: the grant, the
// Hall of Fame summary, the audit log and a notice to the holder.
func (s *Service) Revoke(ctx context.Context, actor *model.User, id, reason, origin string) (*model.BadgeGrant, error) {
	var out *model.BadgeGrant
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		g, err := lockGrant(ctx, tx, id)
		if err != nil {
			return err
		}
		if g.RevokedAt != nil {
			return web.Conflict(MsgAlreadyRevoked)
		}
		before := stateOf(g)
		now := model.Now()
		g.RevokedAt, g.RevocationReason = &now, reason
		if _, err := tx.NewUpdate().Model(g).Column("revoked_at", "revocation_reason").WherePK().Exec(ctx); err != nil {
			return err
		}
		if err := halloffame.Refresh(ctx, tx, g.UserID); err != nil {
			return err
		}
		if err := pagecache.Bump(ctx, tx, pagecache.Grants); err != nil {
			return err
		}
		if err := audit(ctx, tx, actor, "grant.revoke", g, before, stateOf(g)); err != nil {
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
	s.Issuer.Changed(out.ID)
	if s.Mailer != nil {
		s.Mailer.Kick()
	}
	return out, nil
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
func (s *Service) SetExpiry(ctx context.Context, actor *model.User, id string, expiresAt *time.Time, origin string) (*model.BadgeGrant, error) {
	var out *model.BadgeGrant
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		g, err := lockGrant(ctx, tx, id)
		if err != nil {
			return err
		}
		if expiresAt != nil && !expiresAt.After(g.GrantedAt) {
			return web.BadRequest(MsgExpiryBefore)
		}
		before := stateOf(g)
		g.ExpiresAt = expiresAt
		if _, err := tx.NewUpdate().Model(g).Column("expires_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		if err := publishExpiry(ctx, tx, g, before.ExpiresAt); err != nil { // copies already downloaded (expirystatus.go)
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
		if err := audit(ctx, tx, actor, "grant.expiry", g, before, stateOf(g)); err != nil {
			return err
		}
		if err := pagecache.Bump(ctx, tx, pagecache.Grants); err != nil {
			return err
		}
		out = g
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.Issuer.Changed(out.ID)
	return out, nil
}

// ---- images ----

// imageCache keeps drawn images; concurrent requests for one image draw it once.
type imageCache struct {
	mu     sync.Mutex
	m      map[string][]byte
	max    int
	flight singleflight.Group
}

// make returns the image under k, drawing it with draw when missing.
func (c *imageCache) make(k string, draw func() ([]byte, error)) ([]byte, error) {
	if b := c.get(k); b != nil {
		return b, nil
	}
	v, err, _ := c.flight.Do(k, func() (any, error) {
		if b := c.get(k); b != nil {
			return b, nil
		}
		b, err := draw()
		if err != nil {
			return nil, err
		}
		c.put(k, b)
		return b, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}

func newImageCache(max int) *imageCache { return &imageCache{m: map[string][]byte{}, max: max} }

func (c *imageCache) get(k string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

func (c *imageCache) put(k string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		n := 0
		for k := range c.m {
			delete(c.m, k)
			if n++; n > c.max/4 {
				break
			}
		}
	}
	c.m[k] = b
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}
