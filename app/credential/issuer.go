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
	PublicKey string    `bun:"public_key"` // base64url, 32 bytes
	CreatedAt time.Time `bun:"created_at"`
}

// Issuer signs and verifies the credentials of one database.
type Issuer struct {
	DB      *bun.DB
	Keys    *Keyring
	BaseURL string // MERITMARK_BASE_URL ("" = the request's origin at issue time)

	mu          sync.RWMutex
	published   map[string]*Key // signing_keys, by kid
	refreshedAt time.Time
	listeners   []func(grantID string)
}

// Options configure Open.
type Options struct {
	DataDir    string // where data/keys lives
	Configured string // MERITMARK_CREDENTIAL_KEYS
	BaseURL    string
}

// registry maps a database to its issuer. Grants are made inside other features'
// transactions (app/grant), which reach the issuer through their transaction's database:
// one process may serve several databases (tests do), each with its own keys.
var registry sync.Map // *bun.DB -> *Issuer

// Open loads (or creates) the issuing keys, records their public halves in signing_keys
// and registers the issuer for d. Opening again for the same database returns the issuer
// already registered.
func Open(ctx context.Context, d *bun.DB, o Options) (*Issuer, error) {
	if v, ok := registry.Load(d); ok {
		return v.(*Issuer), nil
	}
	keys, err := LoadKeyring(o.DataDir, o.Configured)
	if err != nil {
		return nil, err
	}
	iss := &Issuer{DB: d, Keys: keys, BaseURL: strings.TrimRight(o.BaseURL, "/"), published: map[string]*Key{}}
	if err := iss.Publish(ctx, keys.Keys...); err != nil {
		return nil, err
	}
	v, _ := registry.LoadOrStore(d, iss)
	return v.(*Issuer), nil
}

// ForDB is the issuer registered for d, or nil.
func ForDB(d *bun.DB) *Issuer {
	if v, ok := registry.Load(d); ok {
		return v.(*Issuer)
	}
	return nil
}

// Forget drops d's issuer (when the database is closed).
func Forget(d *bun.DB) { registry.Delete(d) }

// Publish records the public keys in signing_keys (keys already there are kept as they are).
func (i *Issuer) Publish(ctx context.Context, keys ...*Key) error {
	now := model.Now()
	for n, k := range keys {
		// the active key is recorded as the newest, so a JWKS lists it first
		row := &SigningKey{KID: k.KID, PublicKey: b64.EncodeToString(k.Public), CreatedAt: now.Add(-time.Duration(n) * time.Microsecond)}
		if _, err := i.DB.NewInsert().Model(row).On("CONFLICT (kid) DO NOTHING").Exec(ctx); err != nil {
			return fmt.Errorf("record signing key: %w", err)
		}
		i.mu.Lock()
		i.published[k.KID] = &Key{KID: k.KID, Public: k.Public}
		i.mu.Unlock()
	}
	return nil
}

// Lookup finds a verify key by kid: this instance's keys, then the keys other instances
// recorded (read again at most every few seconds when a kid is unknown).
func (i *Issuer) Lookup(ctx context.Context, kid string) *Key {
	if k := i.Keys.Find(kid); k != nil {
		return k
	}
	i.mu.RLock()
	k := i.published[kid]
	stale := time.Since(i.refreshedAt) > 5*time.Second
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

// KeySource adapts Lookup for VerifySignature.
func (i *Issuer) KeySource(ctx context.Context) KeySource {
	return func(kid string) *Key { return i.Lookup(ctx, kid) }
}

// PublishedKeys lists every recorded key, this instance's active key first, then newest
// first.
func (i *Issuer) PublishedKeys(ctx context.Context) ([]*Key, error) {
	var rows []SigningKey
	if err := i.DB.NewSelect().Model(&rows).OrderExpr("created_at DESC, kid").Scan(ctx); err != nil {
		return nil, err
	}
	keys := make([]*Key, 0, len(rows))
	i.mu.Lock()
	for _, r := range rows {
		k, err := PublicKey(r.KID, r.PublicKey)
		if err != nil {
			continue
		}
		i.published[k.KID] = k
		keys = append(keys, k)
	}
	i.refreshedAt = time.Now()
	i.mu.Unlock()
	active := i.Keys.Active().KID
	sort.SliceStable(keys, func(a, b int) bool { return keys[a].KID == active && keys[b].KID != active })
	return keys, nil
}

// JWKS is the set of every recorded public key.
func (i *Issuer) JWKS(ctx context.Context) (*JWKS, error) {
	keys, err := i.PublishedKeys(ctx)
	if err != nil {
		return nil, err
	}
	set := &JWKS{Keys: make([]JWK, 0, len(keys))}
	for _, k := range keys {
		set.Keys = append(set.Keys, JWKOf(k))
	}
	return set, nil
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

// Changed tells d's issuer, if any, that grantID changed (app/grant calls it on a revoke).
func Changed(d *bun.DB, grantID string) {
	if i := ForDB(d); i != nil {
		i.Changed(grantID)
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

// ErrHolderUnverified refuses to sign a credential for a holder whose e-mail address is
// not verified (app/auth issues waiting grants once it is).
var ErrHolderUnverified = web.Conflict("The holder has not confirmed their email address yet: no credential is issued to it.")

// SignGrant builds g's credential from the grant, its holder and its badge, signs it with
// the active key and stores it (credential_jwt, credential_origin and, on first signing,
// the next status_index) through tx. A grant keeps its origin once signed.
func (i *Issuer) SignGrant(ctx context.Context, tx bun.IDB, g *model.BadgeGrant, origin string) error {
	if g.CredentialOrigin != "" {
		origin = g.CredentialOrigin
	}
	origin = strings.TrimRight(origin, "/")
	if origin == "" {
		return errors.New("credential: no origin to build the credential's ids with")
	}
	var u model.User
	if err := tx.NewSelect().Model(&u).Column("id", "email", "email_verified_at").Where("id = ?", g.UserID).Scan(ctx); err != nil {
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
	if g.StatusIndex == 0 {
		var n int
		if err := tx.NewRaw("UPDATE credential_status_seq SET last_index = last_index + 1 WHERE id = 1 RETURNING last_index").Scan(ctx, &n); err != nil {
			return fmt.Errorf("credential status index: %w", err)
		}
		g.StatusIndex = n
	}
	tok, _, err := Sign(i.Keys.Active(), Input{
		Origin: origin, PublicVerificationID: g.PublicVerificationID, StatusIndex: g.StatusIndex,
		UserID: u.ID, Email: u.Email, BadgeID: b.ID, BadgeName: b.Name, BadgeDescription: b.Description,
		BadgeCriteria: b.Criteria, BadgeCategory: b.Category, BadgeLevel: b.Level,
		GrantedAt: g.GrantedAt, ExpiresAt: g.ExpiresAt,
	})
	if err != nil {
		return err
	}
	g.CredentialJWT, g.CredentialOrigin = tok, origin
	if _, err := tx.NewUpdate().Model(g).Column("credential_jwt", "credential_origin", "status_index").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("store credential: %w", err)
	}
	i.Changed(g.ID)
	return nil
}

// SignInTx signs g inside tx with the issuer of tx's database (app/grant calls it after
// the grant row exists). origin is the request's origin; without one (and without a
// configured base URL or an earlier credential to take it from) the grant is left unsigned
// and is signed on its first verification. Without an issuer (a test database with no
// keys) it does nothing.
func SignInTx(ctx context.Context, tx bun.Tx, g *model.BadgeGrant, origin string) error {
	i := ForDB(tx.NewSelect().DB())
	if i == nil {
		return nil
	}
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
	k, err := p.VerifySignature(i.KeySource(ctx))
	if err != nil {
		return &Verified{Key: k}, err
	}
	pl, err := Decode(p.Payload)
	if err != nil {
		return &Verified{Key: k}, err
	}
	return &Verified{Key: k, Payload: pl, Raw: p.Payload}, nil
}

// MustOpen is Open for the wiring of the route table (main opens the issuer first, so a
// bad configuration stops the start with a message; here it can only be a bug).
func MustOpen(d *bun.DB, o Options) *Issuer {
	i, err := Open(context.Background(), d, o)
	if err != nil {
		panic(fmt.Sprintf("credential: %v", err))
	}
	return i
}
