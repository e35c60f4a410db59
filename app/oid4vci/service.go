package oid4vci

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// Service runs the offers, the OpenID4VCI endpoints and the VC API exchanges.
type Service struct {
	DB     *bun.DB
	Issuer *credential.Issuer
	Now    func() time.Time // model.Now when nil (tests move the clock)
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return model.Now()
}

// Messages of the offer endpoint.
const (
	MsgGrantNotFound = "Badge not found"
	MsgRevoked       = "This badge was revoked: it cannot be added to a wallet."
	MsgExpired       = "This badge has expired: it cannot be added to a wallet."
)

// OfferView answers POST /users/badges/{grantId}/wallet-offer.
type OfferView struct {
	Offer         Offer     `json:"offer"`
	OfferURI      string    `json:"offerUri"`
	TxCode        string    `json:"txCode,omitempty"` // shown to the holder, never sent to the wallet
	ExpiresAt     time.Time `json:"expiresAt"`
	ExchangeURL   string    `json:"exchangeUrl"`
	DCCRequestURL string    `json:"dccRequestUrl"`
	LCWRequestURL string    `json:"lcwRequestUrl"`
	QR            QRCodes   `json:"qr"`
}

// QRCodes are the links as SVG data URIs.
type QRCodes struct {
	Offer string `json:"offer"`
	DCC   string `json:"dcc"`
}

// CreateOffer makes a new offer of the holder's grant (only its holder may ask; a grant
// that is not theirs is not found). origin is the credential issuer identifier.
func (s *Service) CreateOffer(ctx context.Context, holder *model.User, grantID, origin string, withTxCode bool) (*OfferView, error) {
	if !model.ValidID(grantID) {
		return nil, web.NotFound(MsgGrantNotFound)
	}
	var g model.BadgeGrant
	err := s.DB.NewSelect().Model(&g).Where("id = ? AND user_id = ?", grantID, holder.ID).Limit(1).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, web.NotFound(MsgGrantNotFound)
	}
	if err != nil {
		return nil, err
	}
	now := s.now()
	switch {
	case g.RevokedAt != nil:
		return nil, web.Conflict(MsgRevoked)
	case g.ExpiresAt != nil && !g.ExpiresAt.After(now):
		return nil, web.Conflict(MsgExpired)
	case !holder.EmailVerified():
		return nil, credential.ErrHolderUnverified
	}
	code, challenge, txCode := RandomToken(32), RandomToken(32), ""
	o := &OfferRow{ID: RandomHex(24), GrantID: g.ID, UserID: holder.ID, CodeHash: Hash(code), Challenge: challenge,
		Origin: origin, CreatedAt: now, ExpiresAt: now.Add(OfferTTL)}
	if withTxCode {
		txCode = NewTxCode()
		o.TxCodeHash = Hash(txCode)
	}
	if _, err := s.DB.NewInsert().Model(o).Exec(ctx); err != nil {
		return nil, fmt.Errorf("wallet offer: %w", err)
	}
	offer := NewOffer(origin, code, withTxCode)
	v := &OfferView{Offer: offer, OfferURI: OfferURI(offer), TxCode: txCode, ExpiresAt: o.ExpiresAt,
		ExchangeURL: origin + ExchangePath + o.ID}
	v.DCCRequestURL, v.LCWRequestURL = DCCLinks(origin, v.ExchangeURL, challenge)
	if v.QR.Offer, err = QRDataURI(v.OfferURI); err != nil {
		return nil, err
	}
	if v.QR.DCC, err = QRDataURI(v.DCCRequestURL); err != nil {
		return nil, err
	}
	return v, nil
}

// TokenAnswer is the token endpoint's answer.
type TokenAnswer struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
}

// Token redeems a pre-authorized code (OpenID4VCI 1.0 §6): single use, before the offer
// expires, with the right tx_code when the offer has one (MaxTxCodeTry tries at most).
func (s *Service) Token(ctx context.Context, grantType, code, txCode string, hasTxCode bool) (*TokenAnswer, error) {
	if grantType != GrantPreAuthorized {
		return nil, oauthErr(http.StatusBadRequest, "unsupported_grant_type", "Only the pre-authorized code grant is supported.")
	}
	if code == "" {
		return nil, oauthErr(http.StatusBadRequest, "invalid_request", "pre-authorized_code is missing.")
	}
	now := s.now()
	o, err := offerByCode(ctx, s.DB, code)
	if db.IsNoRows(err) {
		return nil, oauthErr(http.StatusBadRequest, "invalid_grant", "The pre-authorized code is unknown.")
	}
	if err != nil {
		return nil, err
	}
	switch {
	case o.CodeUsedAt != nil:
		return nil, oauthErr(http.StatusBadRequest, "invalid_grant", "The pre-authorized code was already used.")
	case !o.ExpiresAt.After(now):
		return nil, oauthErr(http.StatusBadRequest, "invalid_grant", "The pre-authorized code has expired.")
	case o.TxCodeHash == "" && hasTxCode:
		return nil, oauthErr(http.StatusBadRequest, "invalid_request", "This offer has no tx_code.")
	case o.TxCodeHash != "" && !hasTxCode:
		return nil, oauthErr(http.StatusBadRequest, "invalid_request", "This offer needs its tx_code.")
	}
	if o.TxCodeHash != "" {
		// every try is counted before the code is compared, atomically: however many run
		// at once, no more than MaxTxCodeTry are ever compared
		res, err := s.DB.NewRaw(`UPDATE wallet_offers SET tx_code_failures = tx_code_failures + 1
WHERE id = ? AND code_used_at IS NULL AND tx_code_failures < ?`, o.ID, MaxTxCodeTry).Exec(ctx)
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			if err == nil {
				err = oauthErr(http.StatusBadRequest, "invalid_grant", "Too many tries of the tx_code: ask for a new offer.")
			}
			return nil, err
		}
		if Hash(txCode) != o.TxCodeHash {
			return nil, oauthErr(http.StatusBadRequest, "invalid_grant", "The tx_code is wrong.")
		}
	}
	tok := RandomToken(32)
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ok, err := spend(ctx, tx, o.ID, "code_used_at", now)
		if err != nil {
			return err
		}
		if !ok {
			return oauthErr(http.StatusBadRequest, "invalid_grant", "The pre-authorized code was already used.")
		}
		if live, err := lockLiveGrant(ctx, tx, o.GrantID); err != nil || !live {
			if err == nil {
				err = oauthErr(http.StatusBadRequest, "invalid_grant", "The badge of this offer was revoked.")
			}
			return err
		}
		_, err = tx.NewRaw("INSERT INTO wallet_tokens (token_hash, offer_id, expires_at) VALUES (?, ?, ?)", Hash(tok), o.ID, now.Add(TokenTTL)).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &TokenAnswer{AccessToken: tok, TokenType: "Bearer", ExpiresIn: int(TokenTTL / time.Second)}, nil
}

// Nonce hands out a new c_nonce (single use, NonceTTL) and drops the expired ones.
func (s *Service) Nonce(ctx context.Context) (string, error) {
	now := s.now()
	if _, err := s.DB.NewDelete().Table("wallet_nonces").Where("expires_at <= ?", now).Exec(ctx); err != nil {
		return "", err
	}
	n := RandomToken(24)
	if _, err := s.DB.NewRaw("INSERT INTO wallet_nonces (nonce_hash, expires_at) VALUES (?, ?)", Hash(n), now.Add(NonceTTL)).Exec(ctx); err != nil {
		return "", err
	}
	return n, nil
}

// CredentialRequest is the credential endpoint's body (OpenID4VCI 1.0 §8.2; the draft's
// single proof is read too).
type CredentialRequest struct {
	ConfigurationID string `json:"credential_configuration_id"`
	Identifier      string `json:"credential_identifier"`
	Format          string `json:"format"`
	Proofs          *struct {
		JWT []string `json:"jwt"`
	} `json:"proofs"`
	Proof *struct {
		ProofType string `json:"proof_type"`
		JWT       string `json:"jwt"`
	} `json:"proof"`
}

// CredentialAnswer is the credential endpoint's answer.
type CredentialAnswer struct {
	Credentials []IssuedCredential `json:"credentials"`
}

// IssuedCredential is one credential: the VC-JWT as a string, the JSON-LD form an object.
type IssuedCredential struct {
	Credential json.RawMessage `json:"credential"`
}

// ErrInvalidToken answers a missing, unknown or expired access token.
var ErrInvalidToken = oauthErr(http.StatusUnauthorized, "invalid_token", "The access token is missing, unknown or expired.")

// Credential answers a credential request made with accessToken.
func (s *Service) Credential(ctx context.Context, accessToken string, req *CredentialRequest) (*CredentialAnswer, error) {
	now := s.now()
	if accessToken == "" {
		return nil, ErrInvalidToken
	}
	o, err := offerOfToken(ctx, s.DB, accessToken, now)
	if db.IsNoRows(err) {
		return nil, ErrInvalidToken
	}
	if err != nil {
		return nil, err
	}
	if req.Identifier != "" {
		return nil, oauthErr(http.StatusBadRequest, "unknown_credential_identifier", "This issuer hands out no credential identifiers: ask by credential_configuration_id.")
	}
	format, ok := Formats[req.ConfigurationID]
	if !ok {
		return nil, oauthErr(http.StatusBadRequest, "unknown_credential_configuration", "Unknown credential_configuration_id.")
	}
	var jwts []string
	switch {
	case req.Proofs != nil:
		jwts = req.Proofs.JWT
	case req.Proof != nil && req.Proof.ProofType == "jwt":
		jwts = []string{req.Proof.JWT}
	}
	if len(jwts) == 0 {
		return nil, invalidProof("A jwt proof of possession is required.")
	}
	if len(jwts) > 1 {
		return nil, oauthErr(http.StatusBadRequest, "invalid_credential_request", "One proof per request: this issuer issues no batches.")
	}
	p, err := CheckProof(jwts[0], o.Origin, now)
	if err != nil {
		return nil, err
	}
	var out *CredentialAnswer
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ok, err := takeNonce(ctx, tx, p.Nonce, now)
		if err != nil {
			return err
		}
		if p.Nonce == "" || !ok {
			return oauthErr(http.StatusBadRequest, "invalid_nonce", "The proof's nonce is not a c_nonce of the nonce endpoint, or was used, or expired.")
		}
		signed, err := s.issueCopy(ctx, tx, o, p.HolderDID, format, RailOID4VCI)
		if err != nil {
			return err
		}
		cred := json.RawMessage(signed.LD)
		if format == FormatJWT {
			cred, _ = json.Marshal(signed.JWT)
		}
		out = &CredentialAnswer{Credentials: []IssuedCredential{{Credential: cred}}}
		return nil
	})
	return out, err
}

var errDenied = oauthErr(http.StatusBadRequest, "credential_request_denied", "The badge of this offer was revoked, or this credential was already issued for this offer.")

// issueCopy signs a new copy of the offer's grant bound to holderDID (inside tx).
func (s *Service) issueCopy(ctx context.Context, tx bun.Tx, o *OfferRow, holderDID, format, rail string) (*credential.Signed, error) {
	live, err := lockLiveGrant(ctx, tx, o.GrantID)
	if err != nil {
		return nil, err
	}
	if !live {
		return nil, errDenied
	}
	var g model.BadgeGrant
	if err := tx.NewSelect().Model(&g).Where("id = ?", o.GrantID).Scan(ctx); err != nil {
		return nil, err
	}
	if g.ExpiresAt != nil && !g.ExpiresAt.After(s.now()) {
		return nil, errDenied
	}
	var n int
	if err := tx.NewSelect().Model((*Copy)(nil)).ColumnExpr("count(*)").Where("offer_id = ? AND format = ? AND rail = ?", o.ID, format, rail).Scan(ctx, &n); err != nil {
		return nil, err
	}
	if n > 0 {
		return nil, errDenied
	}
	c := &Copy{ID: model.NewID(), GrantID: g.ID, OfferID: o.ID, HolderDID: holderDID, Format: format, Rail: rail, CreatedAt: s.now()}
	if c.StatusIndex, err = credential.AllocateStatusIndex(ctx, tx, g.ID); err != nil {
		return nil, err
	}
	origin := g.CredentialOrigin
	if origin == "" {
		origin = o.Origin
	}
	signed, err := s.Issuer.SignCopy(ctx, tx, &g, credential.CopyInput{Origin: origin, HolderDID: holderDID, StatusIndex: c.StatusIndex, Now: s.now()})
	if err != nil {
		if errors.Is(err, credential.ErrHolderUnverified) {
			return nil, errDenied
		}
		return nil, err
	}
	if _, err := tx.NewInsert().Model(c).Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return nil, errDenied
		}
		return nil, err
	}
	return signed, nil
}
