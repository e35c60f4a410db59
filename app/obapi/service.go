package obapi

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ory/fosite"
	"github.com/ory/fosite/compose"
	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// Token lifespans.
const (
	CodeLifespan    = 10 * time.Minute
	AccessLifespan  = time.Hour
	RefreshLifespan = 90 * 24 * time.Hour
)

// Service is the OAuth 2.0 provider and the Open Badges API's use cases.
type Service struct {
	DB       *bun.DB
	Store    *Store
	Provider fosite.OAuth2Provider
	Issuer   *credential.Issuer
}

// NewService builds the fosite provider on d with the HMAC secret (from configuration:
// MERITMARK_SECRET_OAUTH_HMAC, or generated once into the data directory).
func NewService(d *bun.DB, secret string, iss *credential.Issuer) *Service {
	key := sha256.Sum256([]byte("meritmark oauth hmac\x00" + secret))
	cfg := &fosite.Config{
		AccessTokenLifespan:            AccessLifespan,
		RefreshTokenLifespan:           RefreshLifespan,
		AuthorizeCodeLifespan:          CodeLifespan,
		GlobalSecret:                   key[:],
		EnforcePKCE:                    true,
		EnablePKCEPlainChallengeMethod: false,
		ScopeStrategy:                  fosite.ExactScopeStrategy,
		AudienceMatchingStrategy:       fosite.DefaultAudienceMatchingStrategy,
		ClientSecretsHasher:            secretHasher{},
		RefreshTokenScopes:             []string{}, // a refresh token with every grant
		SendDebugMessagesToClients:     false,
		// a state is required (1EdTech) but may be short: its value is the client's
		// business, and PKCE binds the code to the client that asked for it
		MinParameterEntropy: 1,
		// the bearer endpoints take access tokens only: fosite's introspection otherwise
		// falls back to refresh tokens, and a leaked refresh token would read the API
		// without the client secret (RFC 6750)
		DisableRefreshTokenValidation: true,
	}
	st := &Store{DB: d, Lifespan: func(t fosite.TokenType) time.Duration {
		switch t {
		case fosite.AccessToken:
			return AccessLifespan
		case fosite.RefreshToken:
			return RefreshLifespan
		}
		return CodeLifespan
	}}
	strategy := compose.NewOAuth2HMACStrategy(cfg)
	p := compose.Compose(cfg, st, strategy,
		compose.OAuth2AuthorizeExplicitFactory,
		compose.OAuth2RefreshTokenGrantFactory,
		compose.OAuth2TokenRevocationFactory,
		compose.OAuth2TokenIntrospectionFactory,
		compose.OAuth2PKCEFactory,
	)
	return &Service{DB: d, Store: st, Provider: p, Issuer: iss}
}

// NewSession is the fosite session of a holder's grant.
func NewSession(userID string) *fosite.DefaultSession {
	return &fosite.DefaultSession{Subject: userID, Username: userID, ExpiresAt: map[fosite.TokenType]time.Time{}}
}

// Registration is an RFC 7591 client registration request (and, answered, its metadata).
type Registration struct {
	ClientName              string   `json:"client_name"`
	ClientURI               string   `json:"client_uri,omitempty"`
	LogoURI                 string   `json:"logo_uri,omitempty"`
	TOSURI                  string   `json:"tos_uri,omitempty"`
	PolicyURI               string   `json:"policy_uri,omitempty"`
	RedirectURIs            []string `json:"redirect_uris"`
	SoftwareID              string   `json:"software_id,omitempty"`
	SoftwareVersion         string   `json:"software_version,omitempty"`
	Scope                   string   `json:"scope"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	// Contacts (typically e-mail addresses of the client's team) are echoed in the
	// answer, as 1EdTech asks of every field the client sent, but not kept.
	Contacts []string `json:"contacts,omitempty"`
}

// MaxContacts bounds a registration's contacts.
const MaxContacts = 10

// Registered is the answer to a registration.
type Registered struct {
	ClientID              string `json:"client_id"`
	ClientSecret          string `json:"client_secret"`
	ClientIDIssuedAt      int64  `json:"client_id_issued_at"`
	ClientSecretExpiresAt int64  `json:"client_secret_expires_at"`
	Registration
}

// RegistrationError is an RFC 7591 error.
type RegistrationError struct {
	Code        string `json:"error"`
	Description string `json:"error_description"`
}

func (e *RegistrationError) Error() string { return e.Code + ": " + e.Description }

func regErr(code, format string, args ...any) *RegistrationError {
	return &RegistrationError{Code: code, Description: fmt.Sprintf(format, args...)}
}

// CheckRegistration validates and normalises r (defaults filled in, scope reduced to
// the offered scopes).
func CheckRegistration(r *Registration) *RegistrationError {
	r.ClientName = CleanClientName(r.ClientName)
	if r.ClientName == "" || len([]rune(r.ClientName)) > 100 {
		return regErr("invalid_client_metadata", "client_name is required (at most 100 characters)")
	}
	if ClaimsSite(r.ClientName, web.SiteName) {
		return regErr("invalid_client_metadata", "client_name must not name %s: the consent page would read as if %s itself asked", web.SiteName, web.SiteName)
	}
	if len(r.RedirectURIs) == 0 {
		return regErr("invalid_redirect_uri", "redirect_uris must list at least one redirect URI")
	}
	if len(r.RedirectURIs) > MaxRedirectURIs {
		return regErr("invalid_redirect_uri", "redirect_uris may list at most %d redirect URIs", MaxRedirectURIs)
	}
	for _, u := range r.RedirectURIs {
		if msg := CheckRedirectURI(u); msg != "" {
			return regErr("invalid_redirect_uri", "%s", msg)
		}
	}
	for _, f := range []struct{ name, v string }{{"client_uri", r.ClientURI}, {"logo_uri", r.LogoURI}, {"tos_uri", r.TOSURI}, {"policy_uri", r.PolicyURI}} {
		if msg := CheckURI(f.name, f.v); msg != "" {
			return regErr("invalid_client_metadata", "%s", msg)
		}
	}
	if len(r.Contacts) > MaxContacts {
		return regErr("invalid_client_metadata", "contacts may list at most %d entries", MaxContacts)
	}
	for _, ct := range r.Contacts {
		if strings.TrimSpace(ct) == "" || len(ct) > 320 {
			return regErr("invalid_client_metadata", "each contact must be a non-empty string of at most 320 characters")
		}
	}
	if len(r.SoftwareID) > 200 || len(r.SoftwareVersion) > 100 {
		return regErr("invalid_client_metadata", "software_id or software_version is too long")
	}
	switch r.TokenEndpointAuthMethod {
	case "":
		r.TokenEndpointAuthMethod = "client_secret_basic"
	case "client_secret_basic":
	default:
		return regErr("invalid_client_metadata", "token_endpoint_auth_method must be client_secret_basic")
	}
	if len(r.GrantTypes) == 0 {
		r.GrantTypes = []string{"authorization_code", "refresh_token"}
	}
	for _, g := range r.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return regErr("invalid_client_metadata", "grant_types may only be authorization_code and refresh_token")
		}
	}
	if len(r.ResponseTypes) == 0 {
		r.ResponseTypes = []string{"code"}
	}
	for _, t := range r.ResponseTypes {
		if t != "code" {
			return regErr("invalid_client_metadata", "response_types may only be code")
		}
	}
	scopes, ok := RegisteredScopes(r.Scope)
	if !ok {
		return regErr("invalid_client_metadata", "none of the requested scopes is offered; this host offers %s", strings.Join(offeredURIs(), " "))
	}
	r.Scope = strings.Join(scopes, " ")
	return nil
}

func offeredURIs() []string {
	out := make([]string, len(Offered))
	for i, s := range Offered {
		out[i] = s.URI
	}
	return out
}

func randomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// Register records a new client (r already checked) and returns its credentials: the
// secret is shown this once; only its hash is kept.
func (s *Service) Register(ctx context.Context, r Registration) (*Registered, error) {
	now := model.Now()
	id, secret := randomToken(18), randomToken(32)
	uris, _ := json.Marshal(r.RedirectURIs)
	row := &clientRow{ID: id, SecretHash: hashSecret([]byte(secret)), Name: r.ClientName, ClientURI: r.ClientURI,
		LogoURI: r.LogoURI, TOSURI: r.TOSURI, PolicyURI: r.PolicyURI, RedirectURIs: string(uris), Scope: r.Scope,
		SoftwareID: r.SoftwareID, SoftwareVersion: r.SoftwareVersion, CreatedAt: now}
	if _, err := s.DB.NewInsert().Model(row).Exec(ctx); err != nil {
		return nil, err
	}
	return &Registered{ClientID: id, ClientSecret: secret, ClientIDIssuedAt: now.Unix(), ClientSecretExpiresAt: 0, Registration: r}, nil
}

// ClientInfo is what the consent screen shows of a client.
type ClientInfo struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	URI       string `json:"uri"`
	LogoURI   string `json:"logoUri"`
	PolicyURI string `json:"policyUri"`
	TOSURI    string `json:"tosUri"`
}

// Client loads a client's public information.
func (s *Service) Client(ctx context.Context, id string) (*ClientInfo, error) {
	var r clientRow
	if err := s.DB.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, err
	}
	return &ClientInfo{ID: r.ID, Name: CleanClientName(r.Name), URI: r.ClientURI, LogoURI: r.LogoURI, PolicyURI: r.PolicyURI, TOSURI: r.TOSURI}, nil
}

// RecordConsent records (or renews) userID's consent to clientID for scopes.
func (s *Service) RecordConsent(ctx context.Context, tx bun.IDB, userID, clientID string, scopes []string) error {
	_, err := tx.NewRaw(`INSERT INTO oauth_consents (user_id, client_id, scope, granted_at) VALUES (?, ?, ?, ?)
ON CONFLICT (user_id, client_id) DO UPDATE SET scope = excluded.scope, granted_at = excluded.granted_at`,
		userID, clientID, strings.Join(scopes, " "), model.Now()).Exec(ctx)
	return err
}

// TouchConsent records that clientID used userID's grant now.
func (s *Service) TouchConsent(ctx context.Context, userID, clientID string) error {
	_, err := s.DB.NewUpdate().Model((*consentRow)(nil)).Set("last_used_at = ?", model.Now()).
		Where("user_id = ? AND client_id = ?", userID, clientID).Exec(ctx)
	return err
}

// ConnectedApp is one app a holder connected, for the profile.
type ConnectedApp struct {
	ClientID   string     `json:"clientId"`
	Name       string     `json:"name"`
	URI        string     `json:"uri"`
	Scopes     []Scope    `json:"scopes"`
	GrantedAt  time.Time  `json:"grantedAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
}

// ConnectedApps lists the apps userID connected, newest first.
func (s *Service) ConnectedApps(ctx context.Context, userID string) ([]ConnectedApp, error) {
	var rows []struct {
		ClientID   string     `bun:"client_id"`
		Name       string     `bun:"name"`
		URI        string     `bun:"client_uri"`
		Scope      string     `bun:"scope"`
		GrantedAt  time.Time  `bun:"granted_at"`
		LastUsedAt *time.Time `bun:"last_used_at"`
	}
	err := s.DB.NewRaw(`SELECT c.id AS client_id, c.name, c.client_uri, o.scope, o.granted_at, o.last_used_at
FROM oauth_consents o JOIN oauth_clients c ON c.id = o.client_id WHERE o.user_id = ? ORDER BY o.granted_at DESC, c.id`, userID).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	out := make([]ConnectedApp, 0, len(rows))
	for _, r := range rows {
		a := ConnectedApp{ClientID: r.ClientID, Name: CleanClientName(r.Name), URI: r.URI, GrantedAt: r.GrantedAt.UTC(), Scopes: []Scope{}}
		if r.LastUsedAt != nil {
			t := r.LastUsedAt.UTC()
			a.LastUsedAt = &t
		}
		for _, sc := range strings.Fields(r.Scope) {
			a.Scopes = append(a.Scopes, ScopeInfo(sc))
		}
		out = append(out, a)
	}
	return out, nil
}

// MsgAppNotFound answers a revoke of an app the member never connected.
const MsgAppNotFound = "This app is not connected to your account."

// Disconnect revokes userID's consent to clientID and every code and token the app
// holds for them, in one transaction.
func (s *Service) Disconnect(ctx context.Context, userID, clientID string) error {
	return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*consentRow)(nil)).Where("user_id = ? AND client_id = ?", userID, clientID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return web.NotFound(MsgAppNotFound)
		}
		_, err = tx.NewDelete().Model((*tokenRow)(nil)).Where("user_id = ? AND client_id = ?", userID, clientID).Exec(ctx)
		return err
	})
}

// Credentials is one page of a holder's credentials in both forms.
type Credentials struct {
	Total int
	JWS   []string
	LD    []json.RawMessage
}

// HolderCredentials returns the holder's credentials (grants not revoked, newest first)
// at offset, limit of them, each as its VC-JWT and its Data Integrity JSON-LD form. A
// grant not signed yet (or signed before the JSON-LD form existed) is signed now.
func (s *Service) HolderCredentials(ctx context.Context, userID string, limit, offset int, requestOrigin string) (*Credentials, error) {
	out := &Credentials{JWS: []string{}, LD: []json.RawMessage{}}
	// no credential is issued to an address its holder has not confirmed
	var verified int
	if err := s.DB.NewRaw("SELECT COUNT(*) FROM users WHERE id = ? AND email_verified_at IS NOT NULL", userID).Scan(ctx, &verified); err != nil || verified == 0 {
		return out, err
	}
	q := s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Where("user_id = ? AND revoked_at IS NULL", userID)
	total, err := q.Count(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	if err := s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Column("id").Where("user_id = ? AND revoked_at IS NULL", userID).
		Order("granted_at DESC", "id").Limit(int64(limit)).Offset(int64(offset)).Scan(ctx, &ids); err != nil {
		return nil, err
	}
	out.Total = int(total)
	for _, id := range ids {
		jwt, ld, err := s.credentialOf(ctx, id, requestOrigin)
		if err != nil {
			return nil, err
		}
		out.JWS = append(out.JWS, jwt)
		if ld != "" {
			out.LD = append(out.LD, json.RawMessage(ld))
		}
	}
	return out, nil
}

func (s *Service) credentialOf(ctx context.Context, grantID, requestOrigin string) (string, string, error) {
	read := func(idb bun.IDB) (string, string, error) {
		var r struct {
			JWT string `bun:"credential_jwt"`
			LD  string `bun:"credential_ld"`
		}
		err := idb.NewRaw(`SELECT g.credential_jwt, COALESCE(gc.credential_ld, '') AS credential_ld FROM badge_grants g
LEFT JOIN badge_grant_credentials gc ON gc.grant_id = g.id WHERE g.id = ?`, grantID).Scan(ctx, &r)
		return r.JWT, r.LD, err
	}
	jwt, ld, err := read(s.DB)
	if err != nil || (jwt != "" && ld != "") || s.Issuer == nil {
		return jwt, ld, err
	}
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var g model.BadgeGrant
		if err := db.ForUpdate(tx, tx.NewSelect().Model(&g).Where("id = ?", grantID)).Scan(ctx); err != nil {
			return err
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
	if err != nil {
		return "", "", err
	}
	return read(s.DB)
}

// Holder loads a user.
func (s *Service) Holder(ctx context.Context, userID string) (*model.User, error) {
	var u model.User
	if err := s.DB.NewSelect().Model(&u).Where("id = ?", userID).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		return nil, err
	}
	return &u, nil
}

// SweepExpired deletes the codes, PKCE sessions and tokens that expired before now (a
// retired refresh token is kept until then to detect its reuse). main runs it hourly.
func SweepExpired(ctx context.Context, d bun.IDB, now time.Time) (int64, error) {
	res, err := d.NewDelete().Model((*tokenRow)(nil)).Where("expires_at < ?", now.UTC()).Exec(ctx)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return n, nil
}
