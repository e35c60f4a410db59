package oid4vci

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/web"
	"meritmark/db"
)

// The VC API exchange (W3C VCALM) of an offer, for the DCC Learner Credential Wallet:
// POST with no presentation answers the VerifiablePresentationRequest (DIDAuthentication
// over the offer's challenge and the issuer's origin as domain); POST with the wallet's
// presentation, signed by its did:key, answers the credential bound to that DID, once.

// Messages of the exchange.
const (
	MsgExchangeNotFound  = "This exchange does not exist."
	MsgExchangeExpired   = "This exchange has expired: ask for a new offer on your badge page."
	MsgExchangeUsed      = "This exchange is complete: ask for a new offer on your badge page."
	MsgPresentation      = "The presentation must be a JSON object (verifiablePresentation)."
	MsgPresentationShape = "A DIDAuthentication presentation carries only @context (the VC 2.0 context), id, type, holder and proof."
)

// ExchangeBody is what the wallet posts.
type ExchangeBody struct {
	VerifiablePresentation json.RawMessage `json:"verifiablePresentation"`
}

// Exchange answers one POST to the exchange id.
func (s *Service) Exchange(ctx context.Context, id string, body *ExchangeBody) (any, error) {
	o, err := offerByID(ctx, s.DB, id)
	if db.IsNoRows(err) || (err == nil && len(id) < 32) {
		return nil, web.NotFound(MsgExchangeNotFound)
	}
	if err != nil {
		return nil, err
	}
	now := s.now()
	switch {
	case o.ExchangeUsedAt != nil:
		return nil, web.Conflict(MsgExchangeUsed)
	case !o.ExpiresAt.After(now):
		return nil, web.E(http.StatusGone, MsgExchangeExpired)
	}
	if body == nil || len(body.VerifiablePresentation) == 0 || string(body.VerifiablePresentation) == "null" {
		return PresentationRequest(o.Challenge, o.Origin), nil
	}
	if body.VerifiablePresentation[0] != '{' {
		return nil, web.BadRequest(MsgPresentation)
	}
	auth, err := credential.VerifyAuthentication(body.VerifiablePresentation, o.Challenge, o.Origin, func(vm string) *credential.Key {
		if k := presentationKey(vm); k != nil {
			return k
		}
		return nil
	})
	if err != nil {
		return nil, web.BadRequest(presentationMessage(err))
	}
	var ld json.RawMessage
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ok, err := spend(ctx, tx, o.ID, "exchange_used_at", now)
		if err != nil {
			return err
		}
		if !ok {
			return web.Conflict(MsgExchangeUsed)
		}
		signed, err := s.issueCopy(ctx, tx, o, auth.Holder, FormatLDP, RailVCAPI)
		if err != nil {
			var oe *Error
			if errors.As(err, &oe) {
				return web.Conflict("This badge was revoked or has expired: no credential is issued.")
			}
			return err
		}
		ld = signed.LD
		return nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"verifiablePresentation": map[string]any{
		"@context": []string{credential.ContextVC}, "type": []string{"VerifiablePresentation"},
		"verifiableCredential": []json.RawMessage{ld},
	}}, nil
}

// presentationMessage says why a presentation was refused.
func presentationMessage(err error) string {
	switch {
	case errors.Is(err, credential.ErrChallenge):
		return "The presentation's proof is not over this exchange's challenge."
	case errors.Is(err, credential.ErrDomain):
		return "The presentation's proof names another domain."
	case errors.Is(err, credential.ErrHolder):
		return "The presentation is not signed by its holder."
	case errors.Is(err, credential.ErrNoProof):
		return "The presentation carries no eddsa-rdfc-2022 authentication proof."
	case errors.Is(err, credential.ErrUnknownKey):
		return "The presentation's proof must be made with an Ed25519 did:key."
	case errors.Is(err, credential.ErrUnsafeDocument):
		return MsgPresentationShape
	case errors.Is(err, credential.ErrProofValue):
		return "The presentation's signature does not verify."
	}
	return "The presentation cannot be read (JSON-LD with the VC 2.0 context only)."
}
