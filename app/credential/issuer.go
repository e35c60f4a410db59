package credential

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/web"
)

// SigningKey is the public half of an issuing key, recorded so that every instance serves
// the whole JWKS and verifies what any instance signed.
type SigningKey struct {
	bun.BaseModel `bun:"table:signing_keys"`

	KID       string    `bun:"kid,pk"`
	PublicKey string    `bun:"public_key"` // base64url: Ed25519 32 bytes, P-256 X ‖ Y (64 bytes)
	Alg       string    `bun:"alg"`        // "EdDSA" or "ES256"
	CreatedAt time.Time `bun:"created_at"`
	// RetiredAt: `meritmark rotate-key --retire` took the key out of the JWKS and the DID
	// document; what it signed no longer verifies.
	RetiredAt *time.Time `bun:"retired_at"`
}

// row is how k is recorded.
func (k *Key) row(at time.Time) *SigningKey {
	if k.IsES256() {
		return &SigningKey{KID: k.KID, PublicKey: ecPublicString(k.EC), Alg: AlgES256, CreatedAt: at}
	}
	return &SigningKey{KID: k.KID, PublicKey: b64.EncodeToString(k.Public), Alg: AlgEdDSA, CreatedAt: at}
}

// public is the verify-only key of a recorded row.
func (r *SigningKey) public() (*Key, error) {
	if r.Alg == AlgES256 {
		return ecPublicFromString(r.KID, r.PublicKey)
	}
	return PublicKey(r.KID, r.PublicKey)
}

func (k *Key) publicOnly() *Key {
	return &Key{KID: k.KID, Alg: k.Alg, Public: k.Public, EC: k.EC}
}

// Issuer signs and verifies the credentials of one database.
type Issuer struct {
	DB      *bun.DB
	Keys    *Keyring
	BaseURL string // MERITMARK_BASE_URL ("" = the request's origin at issue time)

	mu          sync.RWMutex
	published   map[string]*Key      // signing_keys, by kid (retired keys left out)
	retired     map[string]time.Time // signing_keys retired, by kid
	refreshedAt time.Time
	listeners   []func(grantID string)
}

// Options configure Open.
type Options struct {
	DataDir    string // where data/keys lives
	Configured string // MERITMARK_CREDENTIAL_KEYS
	BaseURL    string
}

// Open loads (or creates) the issuing keys and records their public halves in
// signing_keys. main opens the issuer once and passes it to the features through
// app.Deps; there is no registry: whoever signs or verifies is given the issuer.
func Open(ctx context.Context, d *bun.DB, o Options) (*Issuer, error) {
	keys, err := LoadKeyring(o.DataDir, o.Configured)
	if err != nil {
		return nil, err
	}
	iss := &Issuer{DB: d, Keys: keys, BaseURL: strings.TrimRight(o.BaseURL, "/"), published: map[string]*Key{}}
	if err := iss.Publish(ctx, append(append([]*Key{}, keys.ES...), keys.Keys...)...); err != nil {
		return nil, err
	}
	if _, err := iss.PublishedKeys(ctx); err != nil { // learn the retired keys
		return nil, err
	}
	// another instance starting beside this one may record its keys just after: the first
	// unknown kid reads signing_keys again rather than waiting RefreshEvery
	iss.refreshedAt = time.Time{}
	return iss, nil
}

// Publish records the public keys (each ES256 key; each seed's Ed25519 key and the ES256
// key once derived from it) in signing_keys (keys already there are kept as they are).
func (i *Issuer) Publish(ctx context.Context, keys ...*Key) error {
	now := model.Now()
	n := 0
	for _, seed := range keys {
		for _, k := range []*Key{seed.Companion, seed} {
			if k == nil {
				continue
			}
			// the active keys are recorded as the newest, so a JWKS lists them first
			row := k.row(now.Add(-time.Duration(n) * time.Microsecond))
			n++
			if _, err := i.DB.NewInsert().Model(row).On("CONFLICT (kid) DO NOTHING").Exec(ctx); err != nil {
				return fmt.Errorf("record signing key: %w", err)
			}
			i.mu.Lock()
			if _, gone := i.retired[k.KID]; !gone {
				i.published[k.KID] = k.publicOnly()
			}
			i.mu.Unlock()
		}
	}
	return nil
}

// Lookup finds a verify key by kid (a thumbprint or a key URL): this instance's keys, then
// the keys other instances recorded (read again at most every few seconds when a kid is
// unknown).
func (i *Issuer) Lookup(ctx context.Context, kid string) *Key {
	kid = KIDOf(kid)
	if _, gone := i.RetiredAt(ctx, kid); gone {
		return nil
	}
	if k := i.Keys.Find(kid); k != nil {
		return k
	}
	i.mu.RLock()
	k := i.published[kid]
	stale := time.Since(i.refreshedAt) > RefreshEvery
	i.mu.RUnlock()
	if k != nil || !stale {
		return k
	}
	if _, err := i.PublishedKeys(ctx); err != nil {
		return nil
	}
	i.mu.RLock()
	defer i.mu.RUnlock()
	return i.published[kid]
}

// RefreshEvery is how often signing_keys is read again for keys other instances recorded
// and keys `meritmark rotate-key --retire` retired (a retirement shows within it).
var RefreshEvery = 5 * time.Second

// RetiredAt reports whether kid (a thumbprint or a key URL) was retired, and when (the
// list is read again when older than RefreshEvery).
func (i *Issuer) RetiredAt(ctx context.Context, kid string) (time.Time, bool) {
	i.mu.RLock()
	stale := time.Since(i.refreshedAt) > RefreshEvery
	i.mu.RUnlock()
	if stale {
		_, _ = i.PublishedKeys(ctx)
	}
	i.mu.RLock()
	defer i.mu.RUnlock()
	at, ok := i.retired[KIDOf(kid)]
	return at, ok
}

// RetiredStamp names the set of retired keys (it changes when a key is retired), read
// again when older than maxAge: the verify cache keys its answers on it.
func (i *Issuer) RetiredStamp(ctx context.Context, maxAge time.Duration) string {
	i.mu.RLock()
	stale := time.Since(i.refreshedAt) > maxAge
	i.mu.RUnlock()
	if stale {
		_, _ = i.PublishedKeys(ctx)
	}
	i.mu.RLock()
	defer i.mu.RUnlock()
	kids := make([]string, 0, len(i.retired))
	for k := range i.retired {
		kids = append(kids, k)
	}
	sort.Strings(kids)
	return strings.Join(kids, ",")
}

// KeyRetiredError is the verification error of a credential signed by a retired key.
type KeyRetiredError struct {
	KID string
	At  time.Time
}

func (e *KeyRetiredError) Error() string {
	return "the credential is signed with key " + e.KID + ", which the issuer retired on " + e.At.UTC().Format("Jan 2, 2006") + ": what it signed no longer verifies"
}

// KeySource adapts Lookup for VerifySignature.
func (i *Issuer) KeySource(ctx context.Context) KeySource {
	return func(kid string) *Key { return i.Lookup(ctx, kid) }
}

// PublishedKeys lists every recorded key that is not retired, this instance's active key
// first, then newest first.
func (i *Issuer) PublishedKeys(ctx context.Context) ([]*Key, error) {
	var rows []SigningKey
	if err := i.DB.NewSelect().Model(&rows).OrderExpr("created_at DESC, kid").Scan(ctx); err != nil {
		return nil, err
	}
	keys := make([]*Key, 0, len(rows))
	i.mu.Lock()
	i.retired = map[string]time.Time{}
	for _, r := range rows {
		if r.RetiredAt != nil {
			i.retired[r.KID] = *r.RetiredAt
			delete(i.published, r.KID)
			continue
		}
		k, err := r.public()
		if err != nil {
			continue
		}
		i.published[k.KID] = k
		keys = append(keys, k)
	}
	i.refreshedAt = time.Now()
	i.mu.Unlock()
	rank := func(k *Key) int {
		switch k.KID {
		case i.Keys.ActiveES256().KID:
			return 0
		case i.Keys.Active().KID:
			return 1
		}
		return 2
	}
	sort.SliceStable(keys, func(a, b int) bool { return rank(keys[a]) < rank(keys[b]) })
	return keys, nil
}

// JWKS is the set of every recorded public key as published on origin (the active ES256
// key first; ES256 keys named by their key URL, Ed25519 keys by their thumbprint).
func (i *Issuer) JWKS(ctx context.Context, origin string) (*JWKS, error) {
	keys, err := i.PublishedKeys(ctx)
	if err != nil {
		return nil, err
	}
	set := &JWKS{Keys: make([]JWK, 0, len(keys))}
	for _, k := range keys {
		set.Keys = append(set.Keys, PublishedJWK(origin, k))
	}
	return set, nil
}

// DIDDocument is /.well-known/did.json for origin: every recorded Ed25519 key (the
// active one first) as a Multikey verification method.
func (i *Issuer) DIDDocument(ctx context.Context, origin string) (*DIDDocument, error) {
	keys, err := i.PublishedKeys(ctx)
	if err != nil {
		return nil, err
	}
	return DIDDocumentOf(origin, keys), nil
}

// OnChange registers fn to be told when a grant's credential or status changes on this
// instance (caches drop their entry).
func (i *Issuer) OnChange(fn func(grantID string)) {
	i.mu.Lock()
	i.listeners = append(i.listeners, fn)
	i.mu.Unlock()
}

// Changed tells the listeners that grantID changed.
func (i *Issuer) Changed(grantID string) {
	i.mu.RLock()
	ls := i.listeners
	i.mu.RUnlock()
	for _, fn := range ls {
		fn(grantID)
	}
}

// DefaultOrigin is the origin for a credential signed outside a request's knowledge: the
// configured base URL, else the origin the newest credential was signed with ("" when
// there is none yet).
func (i *Issuer) DefaultOrigin(ctx context.Context, d bun.IDB) string {
	if i.BaseURL != "" {
		return i.BaseURL
	}
	var origin string
	err := d.NewSelect().Model((*model.BadgeGrant)(nil)).Column("credential_origin").
		Where("credential_origin <> ''").OrderExpr("granted_at DESC").Limit(1).Scan(ctx, &origin)
	if err != nil {
		return ""
	}
	return origin
}

// OriginFor chooses the origin a new credential's ids are built with: the configured base
// URL when set, else the request's origin at issue time.
func (i *Issuer) OriginFor(requestOrigin string) string {
	if i.BaseURL != "" {
		return i.BaseURL
	}
	return strings.TrimRight(requestOrigin, "/")
}

// HolderName is the name u's new credentials carry: theirs when they chose so, else "".
func HolderName(u *model.User) string {
	if !u.NameInCredentials {
		return ""
	}
	return u.Name
}

// ErrHolderUnverified refuses to sign a credential for a holder whose e-mail address is
// not verified (app/auth issues waiting grants once it is).
var ErrHolderUnverified = web.Conflict("The holder has not confirmed their email address yet: no credential is issued to it.")

// SignGrant builds g's credential from the grant, its holder and its badge, signs it with
// the active key and stores it (credential_jwt, credential_origin and, on first signing,
// a status_index: the next one on first signing, and a new one when the grant's index was
// revoked but the grant is no longer) through tx. A grant keeps its origin once signed.
func (i *Issuer) SignGrant(ctx context.Context, tx bun.IDB, g *model.BadgeGrant, origin string) error {
	if g.CredentialOrigin != "" {
		origin = g.CredentialOrigin
	}
	origin = strings.TrimRight(origin, "/")
	if origin == "" {
		return errors.New("credential: no origin to build the credential's ids with")
	}
	var u model.User
	if err := tx.NewSelect().Model(&u).Column("id", "name", "email", "email_verified_at", "name_in_credentials").Where("id = ?", g.UserID).Scan(ctx); err != nil {
		return fmt.Errorf("credential holder: %w", err)
	}
	// the recipient identity is only ever an address its holder proved
	if !u.EmailVerified() {
		return ErrHolderUnverified
	}
	var b model.Badge
	if err := tx.NewSelect().Model(&b).Where("id = ?", g.BadgeID).Scan(ctx); err != nil {
		return fmt.Errorf("credential badge: %w", err)
	}
	for _, k := range []*Key{i.Keys.Active(), i.Keys.ActiveES256()} {
		if _, gone := i.RetiredAt(ctx, k.KID); gone {
			return fmt.Errorf("credential: the signing key %s was retired; run `meritmark rotate-key` and restart", k.KID)
		}
	}
	// a grant that is valid again after a revocation is signed under a new index: the old
	// one stays revoked for good (issue 36)
	if g.StatusIndex > 0 && g.RevokedAt == nil {
		revoked, err := IndexRevoked(ctx, tx, g.StatusIndex)
		if err != nil {
			return fmt.Errorf("credential status index: %w", err)
		}
		if revoked {
			g.StatusIndex = 0
		}
	}
	if g.StatusIndex == 0 {
		n, err := AllocateStatusIndex(ctx, tx, g.ID)
		if err != nil {
			return err
		}
		g.StatusIndex = n
		if g.RevokedAt != nil { // first signed after its revocation
			if err := RecordRevocation(ctx, tx, g, *g.RevokedAt); err != nil {
				return err
			}
		}
	}
	ev, err := evidenceOf(ctx, tx, origin, g, &b)
	if err != nil {
		return err
	}
	res, err := resultFor(ctx, tx, origin, g, &b)
	if err != nil {
		return err
	}
	signed, err := SignBoth(i.Keys.Active(), i.Keys.ActiveES256(), Input{
		Origin: origin, PublicVerificationID: g.PublicVerificationID, StatusIndex: g.StatusIndex,
		UserID: u.ID, Email: u.Email, HolderName: HolderName(&u), BadgeID: b.ID, BadgeName: b.Name, BadgeDescription: b.Description,
		BadgeCriteria: b.Criteria, BadgeCategory: b.Category, BadgeLevel: b.Level,
		GrantedAt: g.GrantedAt, ExpiresAt: g.ExpiresAt, Evidence: ev, Result: res,
	}, model.Now())
	if err != nil {
		return err
	}
	g.CredentialJWT, g.CredentialOrigin = signed.JWT, origin
	if _, err := tx.NewUpdate().Model(g).Column("credential_jwt", "credential_origin", "status_index").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("store credential: %w", err)
	}
	if _, err := tx.NewRaw(`INSERT INTO badge_grant_credentials (grant_id, credential_ld) VALUES (?, ?)
ON CONFLICT (grant_id) DO UPDATE SET credential_ld = excluded.credential_ld`, g.ID, string(signed.LD)).Exec(ctx); err != nil {
		return fmt.Errorf("store credential: %w", err)
	}
	i.Changed(g.ID)
	return nil
}

// AllocateStatusIndex draws grantID's status list index at random among the free ones of
// the current list length and records it (credential_status_slots: unique; a taken index
// is drawn again). The count of indexes handed out (credential_status_seq) sets the list
// length, so indexes stay sparse.
func AllocateStatusIndex(ctx context.Context, tx bun.IDB, grantID string) (int, error) {
	var n int
	if err := tx.NewRaw("UPDATE credential_status_seq SET last_index = last_index + 1 WHERE id = 1 RETURNING last_index").Scan(ctx, &n); err != nil {
		return 0, fmt.Errorf("credential status index: %w", err)
	}
	bits := ListBits(n)
	for try := 0; try < 64; try++ {
		idx := DrawIndex(bits)
		// (a grant written straight into badge_grants, without a slot, keeps its index too)
		res, err := tx.NewRaw(`INSERT INTO credential_status_slots (idx, grant_id)
SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM badge_grants WHERE status_index = ?)
ON CONFLICT (idx) DO NOTHING`, idx, grantID, idx).Exec(ctx)
		if err != nil {
			return 0, fmt.Errorf("credential status index: %w", err)
		}
		if c, err := res.RowsAffected(); err == nil && c == 1 {
			return idx, nil
		}
	}
	return 0, errors.New("credential status index: no free index found")
}

// StatusListBits is the length of the status lists now.
func StatusListBits(ctx context.Context, d bun.IDB) (int, error) {
	var n int
	if err := d.NewRaw("SELECT last_index FROM credential_status_seq WHERE id = 1").Scan(ctx, &n); err != nil {
		return 0, err
	}
	return ListBits(n), nil
}

// SignInTx signs g inside tx (app/grant calls it after the grant row exists). origin is
// the request's origin; without one (and without a configured base URL or an earlier
// credential to take it from: a grant made by a background job on an instance that has
// never served a request) the grant is left unsigned and is signed on its first
// verification.
func (i *Issuer) SignInTx(ctx context.Context, tx bun.Tx, g *model.BadgeGrant, origin string) error {
	o := i.OriginFor(origin)
	if o == "" && g.CredentialOrigin == "" {
		if o = i.DefaultOrigin(ctx, tx); o == "" {
			return nil
		}
	}
	return i.SignGrant(ctx, tx, g, o)
}

// Verified is a credential whose signature checked out.
type Verified struct {
	Key     *Key
	Header  Header
	Payload *Payload
	Raw     []byte // the payload JSON
}

// Verify checks token's signature against the published keys and decodes it. Dates,
// revocation and whether it is the credential you expected are the caller's to check.
func (i *Issuer) Verify(ctx context.Context, token string) (*Verified, error) {
	p, err := ParseJWT(token)
	if err != nil {
		return nil, err
	}
	if at, gone := i.RetiredAt(ctx, p.Header.Kid); gone {
		return &Verified{Header: p.Header}, &KeyRetiredError{KID: KIDOf(p.Header.Kid), At: at}
	}
	k, err := p.VerifySignature(i.KeySource(ctx))
	if err != nil {
		return &Verified{Key: k, Header: p.Header}, err
	}
	pl, err := Decode(p.Payload)
	if err != nil {
		return &Verified{Key: k, Header: p.Header}, err
	}
	return &Verified{Key: k, Header: p.Header, Payload: pl, Raw: p.Payload}, nil
}

// VerifyLD checks the Data Integrity proof of a JSON-LD credential (or status list) of
// origin against the recorded Ed25519 keys: the verificationMethod must be a key of
// origin's did:web.
func (i *Issuer) VerifyLD(ctx context.Context, origin string, raw []byte) (*Key, error) {
	var found *Key
	var retired *KeyRetiredError
	_, err := VerifyProof(raw, func(vm string) *Key {
		kid := KIDOfVerificationMethod(origin, vm)
		if kid == "" {
			return nil
		}
		if at, gone := i.RetiredAt(ctx, kid); gone {
			retired = &KeyRetiredError{KID: kid, At: at}
			return nil
		}
		if k := i.Lookup(ctx, kid); k != nil && !k.IsES256() {
			found = k
			return k
		}
		return nil
	})
	if err != nil && retired != nil {
		return nil, retired
	}
	return found, err
}
