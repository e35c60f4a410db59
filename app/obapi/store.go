package obapi

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/ory/fosite"
	"github.com/uptrace/bun"
)

// clientRow is a registered OAuth client.
type clientRow struct {
	bun.BaseModel `bun:"table:oauth_clients"`

	ID              string    `bun:"id,pk"`
	SecretHash      string    `bun:"secret_hash"`
	Name            string    `bun:"name"`
	ClientURI       string    `bun:"client_uri"`
	LogoURI         string    `bun:"logo_uri"`
	TOSURI          string    `bun:"tos_uri"`
	PolicyURI       string    `bun:"policy_uri"`
	RedirectURIs    string    `bun:"redirect_uris"` // JSON array
	Scope           string    `bun:"scope"`         // space-separated
	SoftwareID      string    `bun:"software_id"`
	SoftwareVersion string    `bun:"software_version"`
	CreatedAt       time.Time `bun:"created_at"`
}

func (r *clientRow) redirectURIs() []string {
	var out []string
	_ = json.Unmarshal([]byte(r.RedirectURIs), &out)
	return out
}

// client is the fosite view of a registered client: confidential, authenticating at the
// token and revocation endpoints with HTTP Basic (client_secret_basic) only.
func (r *clientRow) client() fosite.Client {
	return &fosite.DefaultOpenIDConnectClient{
		DefaultClient: &fosite.DefaultClient{
			ID:            r.ID,
			Secret:        []byte(r.SecretHash),
			RedirectURIs:  r.redirectURIs(),
			GrantTypes:    []string{"authorization_code", "refresh_token"},
			ResponseTypes: []string{"code"},
			Scopes:        strings.Fields(r.Scope),
		},
		TokenEndpointAuthMethod: "client_secret_basic",
	}
}

// consentRow is a holder's consent to a client (a connected app).
type consentRow struct {
	bun.BaseModel `bun:"table:oauth_consents"`

	UserID     string     `bun:"user_id,pk"`
	ClientID   string     `bun:"client_id,pk"`
	Scope      string     `bun:"scope"`
	GrantedAt  time.Time  `bun:"granted_at"`
	LastUsedAt *time.Time `bun:"last_used_at"`
}

// tokenRow is the OAuth request behind one authorization code, PKCE session, access or
// refresh token, keyed by the token's signature.
type tokenRow struct {
	bun.BaseModel `bun:"table:oauth_tokens"`

	Kind           string    `bun:"kind,pk"`
	Signature      string    `bun:"signature,pk"`
	RequestID      string    `bun:"request_id"`
	ClientID       string    `bun:"client_id"`
	UserID         *string   `bun:"user_id"`
	RequestedAt    time.Time `bun:"requested_at"`
	ExpiresAt      time.Time `bun:"expires_at"`
	RequestedScope string    `bun:"requested_scope"`
	GrantedScope   string    `bun:"granted_scope"`
	Form           string    `bun:"form"`
	Session        string    `bun:"session"`
	Active         bool      `bun:"active"`
}

const (
	kindCode    = "code"
	kindPKCE    = "pkce"
	kindAccess  = "access"
	kindRefresh = "refresh"
)

// tokenTypeOf is the fosite token type whose expiry a row of kind keeps.
func tokenTypeOf(kind string) fosite.TokenType {
	switch kind {
	case kindAccess:
		return fosite.AccessToken
	case kindRefresh:
		return fosite.RefreshToken
	}
	return fosite.AuthorizeCode
}

// keptForm are the request parameters stored with a request: what the token endpoint
// needs again (the redirect URI, the PKCE challenge) and nothing secret (codes, code
// verifiers, refresh tokens and client secrets are never written).
var keptForm = []string{"redirect_uri", "code_challenge", "code_challenge_method", "response_type", "scope", "client_id"}

// Store is fosite's storage on bun: the same SQL on SQLite and PostgreSQL. The handlers
// that change several rows at once (a code exchange, a refresh) run in one transaction
// (fosite's storage.Transactional: BeginTX puts it in the context).
type Store struct {
	DB       *bun.DB
	Lifespan func(fosite.TokenType) time.Duration
}

type txKey struct{}

// txState is the transaction of one OAuth request. fosite opens its own transactions
// inside some steps; those join the request's (depth) so that the request commits or
// rolls back as a whole. revoked records that tokens were revoked in it: a reused code
// or refresh token is refused, yet the revocation it triggers must stay.
type txState struct {
	tx      bun.Tx
	depth   int
	revoked bool
}

func stateOf(ctx context.Context) *txState {
	st, _ := ctx.Value(txKey{}).(*txState)
	return st
}

func (s *Store) idb(ctx context.Context) bun.IDB {
	if st := stateOf(ctx); st != nil {
		return st.tx
	}
	return s.DB
}

// BeginTX starts the transaction of one request (or joins the one already started).
func (s *Store) BeginTX(ctx context.Context) (context.Context, error) {
	if st := stateOf(ctx); st != nil {
		st.depth++
		return ctx, nil
	}
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return ctx, err
	}
	return context.WithValue(ctx, txKey{}, &txState{tx: tx}), nil
}

// Commit commits the request's transaction (a joined one commits with it).
func (s *Store) Commit(ctx context.Context) error {
	st := stateOf(ctx)
	if st == nil {
		return nil
	}
	if st.depth > 0 {
		st.depth--
		return nil
	}
	return st.tx.Commit()
}

// Rollback abandons the request's transaction (a joined one leaves it to the request).
func (s *Store) Rollback(ctx context.Context) error {
	st := stateOf(ctx)
	if st == nil {
		return nil
	}
	if st.depth > 0 {
		st.depth--
		return nil
	}
	return st.tx.Rollback()
}

// Finish ends the request's transaction: committed when the request succeeded, or when
// it failed after revoking tokens (reuse detected); rolled back otherwise, so a refused
// request changes nothing.
func (s *Store) Finish(ctx context.Context, failed bool) error {
	st := stateOf(ctx)
	if st == nil {
		return nil
	}
	st.depth = 0
	if failed && !st.revoked {
		return st.tx.Rollback()
	}
	return st.tx.Commit()
}

func markRevoked(ctx context.Context) {
	if st := stateOf(ctx); st != nil {
		st.revoked = true
	}
}

// GetClient loads a registered client.
func (s *Store) GetClient(ctx context.Context, id string) (fosite.Client, error) {
	var r clientRow
	if err := s.idb(ctx).NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fosite.ErrNotFound
		}
		return nil, err
	}
	return r.client(), nil
}

// ClientAssertionJWTValid: JWT client assertions are not accepted (clients authenticate
// with client_secret_basic), so no assertion is ever recorded.
func (s *Store) ClientAssertionJWTValid(context.Context, string) error { return nil }

// SetClientAssertionJWT: see ClientAssertionJWTValid.
func (s *Store) SetClientAssertionJWT(context.Context, string, time.Time) error { return nil }

func (s *Store) create(ctx context.Context, kind, signature string, req fosite.Requester) error {
	sess, err := json.Marshal(req.GetSession())
	if err != nil {
		return err
	}
	form := url.Values{}
	for _, k := range keptForm {
		if v, ok := req.GetRequestForm()[k]; ok {
			form[k] = v
		}
	}
	exp := req.GetSession().GetExpiresAt(tokenTypeOf(kind))
	if exp.IsZero() {
		exp = req.GetRequestedAt().Add(s.Lifespan(tokenTypeOf(kind)))
	}
	row := &tokenRow{Kind: kind, Signature: signature, RequestID: req.GetID(), ClientID: req.GetClient().GetID(),
		RequestedAt: req.GetRequestedAt().UTC(), ExpiresAt: exp.UTC(),
		RequestedScope: strings.Join(req.GetRequestedScopes(), " "), GrantedScope: strings.Join(req.GetGrantedScopes(), " "),
		Form: form.Encode(), Session: string(sess), Active: true}
	if sub := req.GetSession().GetSubject(); sub != "" {
		row.UserID = &sub
	}
	_, err = s.idb(ctx).NewInsert().Model(row).Exec(ctx)
	return err
}

// get loads the request behind signature; a row that is no longer active is returned
// with inactive set (fosite wants the request with ErrInvalidatedAuthorizeCode and
// ErrInactiveToken to revoke what was issued from it).
func (s *Store) get(ctx context.Context, kind, signature string, session fosite.Session) (fosite.Requester, bool, error) {
	var r tokenRow
	if err := s.idb(ctx).NewSelect().Model(&r).Where("kind = ? AND signature = ?", kind, signature).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, false, fosite.ErrNotFound
		}
		return nil, false, err
	}
	c, err := s.GetClient(ctx, r.ClientID)
	if err != nil {
		return nil, false, err
	}
	if session == nil {
		session = &fosite.DefaultSession{}
	}
	if err := json.Unmarshal([]byte(r.Session), session); err != nil {
		return nil, false, fmt.Errorf("oauth session: %w", err)
	}
	// the row's expiry is the one that counts (the session copy is what was issued)
	if ds, ok := session.(*fosite.DefaultSession); ok {
		ds.SetExpiresAt(tokenTypeOf(kind), r.ExpiresAt.UTC())
	}
	form, _ := url.ParseQuery(r.Form)
	req := &fosite.Request{
		ID: r.RequestID, RequestedAt: r.RequestedAt.UTC(), Client: c,
		RequestedScope: fosite.Arguments(strings.Fields(r.RequestedScope)), GrantedScope: fosite.Arguments(strings.Fields(r.GrantedScope)),
		RequestedAudience: fosite.Arguments{}, GrantedAudience: fosite.Arguments{},
		Form: form, Session: session,
	}
	return req, !r.Active, nil
}

func (s *Store) delete(ctx context.Context, kind, signature string) error {
	_, err := s.idb(ctx).NewDelete().Model((*tokenRow)(nil)).Where("kind = ? AND signature = ?", kind, signature).Exec(ctx)
	return err
}

// CreateAuthorizeCodeSession records an authorization code.
func (s *Store) CreateAuthorizeCodeSession(ctx context.Context, signature string, req fosite.Requester) error {
	return s.create(ctx, kindCode, signature, req)
}

// GetAuthorizeCodeSession loads an authorization code's request.
func (s *Store) GetAuthorizeCodeSession(ctx context.Context, signature string, session fosite.Session) (fosite.Requester, error) {
	req, used, err := s.get(ctx, kindCode, signature, session)
	if err != nil {
		return nil, err
	}
	if used {
		return req, fosite.ErrInvalidatedAuthorizeCode
	}
	return req, nil
}

// InvalidateAuthorizeCodeSession marks a code used (a second use is then refused and
// revokes what the first issued).
func (s *Store) InvalidateAuthorizeCodeSession(ctx context.Context, signature string) error {
	_, err := s.idb(ctx).NewUpdate().Model((*tokenRow)(nil)).Set("active = ?", false).
		Where("kind = ? AND signature = ?", kindCode, signature).Exec(ctx)
	return err
}

// CreatePKCERequestSession records the PKCE challenge of a code.
func (s *Store) CreatePKCERequestSession(ctx context.Context, signature string, req fosite.Requester) error {
	return s.create(ctx, kindPKCE, signature, req)
}

// GetPKCERequestSession loads the PKCE challenge of a code.
func (s *Store) GetPKCERequestSession(ctx context.Context, signature string, session fosite.Session) (fosite.Requester, error) {
	req, _, err := s.get(ctx, kindPKCE, signature, session)
	return req, err
}

// DeletePKCERequestSession drops the PKCE challenge of a used code.
func (s *Store) DeletePKCERequestSession(ctx context.Context, signature string) error {
	return s.delete(ctx, kindPKCE, signature)
}

// CreateAccessTokenSession records an access token.
func (s *Store) CreateAccessTokenSession(ctx context.Context, signature string, req fosite.Requester) error {
	return s.create(ctx, kindAccess, signature, req)
}

// GetAccessTokenSession loads an access token's request (revoked tokens are deleted).
func (s *Store) GetAccessTokenSession(ctx context.Context, signature string, session fosite.Session) (fosite.Requester, error) {
	req, _, err := s.get(ctx, kindAccess, signature, session)
	return req, err
}

// DeleteAccessTokenSession drops an access token.
func (s *Store) DeleteAccessTokenSession(ctx context.Context, signature string) error {
	return s.delete(ctx, kindAccess, signature)
}

// CreateRefreshTokenSession records a refresh token.
func (s *Store) CreateRefreshTokenSession(ctx context.Context, signature, _ string, req fosite.Requester) error {
	return s.create(ctx, kindRefresh, signature, req)
}

// GetRefreshTokenSession loads a refresh token's request; one rotated or revoked is
// returned with ErrInactiveToken (fosite then revokes the whole grant: reuse detected).
func (s *Store) GetRefreshTokenSession(ctx context.Context, signature string, session fosite.Session) (fosite.Requester, error) {
	req, inactive, err := s.get(ctx, kindRefresh, signature, session)
	if err != nil {
		return nil, err
	}
	if inactive {
		return req, fosite.ErrInactiveToken
	}
	return req, nil
}

// DeleteRefreshTokenSession drops a refresh token.
func (s *Store) DeleteRefreshTokenSession(ctx context.Context, signature string) error {
	return s.delete(ctx, kindRefresh, signature)
}

// RotateRefreshToken retires a refresh token being exchanged (kept, inactive, to detect
// its reuse) and the access tokens of its grant.
func (s *Store) RotateRefreshToken(ctx context.Context, requestID, signature string) error {
	if _, err := s.idb(ctx).NewUpdate().Model((*tokenRow)(nil)).Set("active = ?", false).
		Where("kind = ? AND signature = ?", kindRefresh, signature).Exec(ctx); err != nil {
		return err
	}
	return s.deleteAccess(ctx, requestID)
}

// RevokeRefreshToken retires every refresh token of a grant.
func (s *Store) RevokeRefreshToken(ctx context.Context, requestID string) error {
	markRevoked(ctx)
	_, err := s.idb(ctx).NewUpdate().Model((*tokenRow)(nil)).Set("active = ?", false).
		Where("kind = ? AND request_id = ?", kindRefresh, requestID).Exec(ctx)
	return err
}

// RevokeAccessToken deletes every access token of a grant.
func (s *Store) RevokeAccessToken(ctx context.Context, requestID string) error {
	markRevoked(ctx)
	return s.deleteAccess(ctx, requestID)
}

func (s *Store) deleteAccess(ctx context.Context, requestID string) error {
	_, err := s.idb(ctx).NewDelete().Model((*tokenRow)(nil)).
		Where("kind = ? AND request_id = ?", kindAccess, requestID).Exec(ctx)
	return err
}

// secretHasher hashes client secrets with SHA-256: they are 256-bit random values made
// by the server, so a slow password hash adds nothing, and the database never holds one.
type secretHasher struct{}

func hashSecret(secret []byte) string {
	h := sha256.Sum256(secret)
	return hex.EncodeToString(h[:])
}

// Compare implements fosite.Hasher.
func (secretHasher) Compare(_ context.Context, hash, data []byte) error {
	if subtle.ConstantTimeCompare(hash, []byte(hashSecret(data))) != 1 {
		return errors.New("client secret mismatch")
	}
	return nil
}

// Hash implements fosite.Hasher.
func (secretHasher) Hash(_ context.Context, data []byte) ([]byte, error) {
	return []byte(hashSecret(data)), nil
}
