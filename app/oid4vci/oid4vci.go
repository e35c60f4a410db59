// Package oid4vci hands a holder's badge to their wallet (issue 36, items 8 and 9;
// docs/wallet-api.md) on two rails:
//
//   - OpenID for Verifiable Credential Issuance 1.0, pre-authorized code flow: the issuer
//     metadata, a credential offer (single use, ten minutes, an optional tx_code the holder
//     types), the token, nonce and credential endpoints; the credential endpoint checks a
//     proof of possession (openid4vci-proof+jwt, did:key or jwk) and answers the
//     configuration asked for: jwt_vc_json (the VC-JWT, ES256) or ldp_vc (the Data
//     Integrity form, eddsa-rdfc-2022);
//   - the DCC Learner Credential Wallet's request flow, a VC API exchange: POST answers a
//     VerifiablePresentationRequest (DIDAuthentication), the wallet's signed presentation
//     (Ed25519, did:key) is checked and answered with the credential.
//
// Every credential handed out is a new copy bound to the holder's DID with a status index
// of its own (credential.SignCopy); revoking the grant revokes every copy.
//
// This file holds the pure rules: the documents, the proof check and did:key.
package oid4vci

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"time"

	"meritmark/app/credential"
)

// Paths of the endpoints.
const (
	IssuerMetadataPath = "/.well-known/openid-credential-issuer"
	ASMetadataPath     = "/.well-known/oauth-authorization-server"
	TokenPath          = "/oid4vci/token"
	NoncePath          = "/oid4vci/nonce"
	CredentialPath     = "/oid4vci/credential"
	ExchangePath       = "/exchanges/" // + exchange id (the offer's id)
)

// The credential configurations.
const (
	ConfigJWT = "OpenBadgeCredential_jwt_vc_json"
	ConfigLDP = "OpenBadgeCredential_ldp_vc"

	FormatJWT = "jwt_vc_json"
	FormatLDP = "ldp_vc"
)

// Formats maps a configuration id to its format.
var Formats = map[string]string{ConfigJWT: FormatJWT, ConfigLDP: FormatLDP}

// GrantPreAuthorized is the pre-authorized code grant type.
const GrantPreAuthorized = "urn:ietf:params:oauth:grant-type:pre-authorized_code"

// ProofType is the typ of a proof JWT.
const ProofTyp = "openid4vci-proof+jwt"

// Lifetimes.
const (
	OfferTTL     = 10 * time.Minute
	TokenTTL     = 10 * time.Minute
	NonceTTL     = 5 * time.Minute
	ProofMaxAge  = 5 * time.Minute // a proof's iat may be this old
	ProofSkew    = time.Minute     // or this far in the future
	TxCodeLength = 6
	MaxTxCodeTry = 5 // tx_code tries an offer allows
)

// CredentialTypes are the types of every configuration.
var CredentialTypes = []string{"VerifiableCredential", "OpenBadgeCredential"}

// IssuerMetadata is the Credential Issuer Metadata of origin (OpenID4VCI 1.0 §12.2).
func IssuerMetadata(origin string) map[string]any {
	display := []any{map[string]any{"name": credential.IssuerName, "locale": "en-US",
		"logo": map[string]any{"uri": credential.IssuerImageURL(origin), "alt_text": credential.IssuerName + " logo"}}}
	credDisplay := []any{map[string]any{"name": "Open Badge", "locale": "en-US",
		"description":      "An Open Badges 3.0 credential issued by " + credential.IssuerName + ".",
		"background_color": "#1e3a8a", "text_color": "#ffffff"}}
	binding := []string{"did:key", "did:jwk", "jwk"}
	proofTypes := map[string]any{"jwt": map[string]any{"proof_signing_alg_values_supported": []string{"ES256", "EdDSA"}}}
	return map[string]any{
		"credential_issuer":     origin,
		"credential_endpoint":   origin + CredentialPath,
		"nonce_endpoint":        origin + NoncePath,
		"token_endpoint":        origin + TokenPath, // read by draft-13 clients; 1.0 clients read the AS metadata
		"authorization_servers": []string{origin},
		"display":               display,
		"credential_configurations_supported": map[string]any{
			ConfigJWT: map[string]any{
				"format": FormatJWT, "scope": "OpenBadgeCredential",
				"credential_definition":                   map[string]any{"type": CredentialTypes},
				"cryptographic_binding_methods_supported": binding,
				"credential_signing_alg_values_supported": []string{"ES256"},
				"proof_types_supported":                   proofTypes,
				"credential_metadata":                     map[string]any{"display": credDisplay},
				"display":                                 credDisplay,
			},
			ConfigLDP: map[string]any{
				"format": FormatLDP, "scope": "OpenBadgeCredential_ldp",
				"credential_definition":                   map[string]any{"@context": credential.Contexts, "type": CredentialTypes},
				"cryptographic_binding_methods_supported": binding,
				"credential_signing_alg_values_supported": []string{"eddsa-rdfc-2022"},
				"proof_types_supported":                   proofTypes,
				"credential_metadata":                     map[string]any{"display": credDisplay},
				"display":                                 credDisplay,
			},
		},
	}
}

// ASMetadata is the OAuth 2.0 Authorization Server Metadata (RFC 8414) of the
// pre-authorized code flow: the credential issuer is its own authorization server.
func ASMetadata(origin string) map[string]any {
	return map[string]any{
		"issuer":                                          origin,
		"token_endpoint":                                  origin + TokenPath,
		"grant_types_supported":                           []string{GrantPreAuthorized},
		"response_types_supported":                        []string{},
		"token_endpoint_auth_methods_supported":           []string{"none"},
		"pre-authorized_grant_anonymous_access_supported": true,
	}
}

// Offer is a Credential Offer (OpenID4VCI 1.0 §4.1.1).
type Offer struct {
	CredentialIssuer string           `json:"credential_issuer"`
	ConfigurationIDs []string         `json:"credential_configuration_ids"`
	Grants           map[string]Grant `json:"grants"`
}

// Grant is the offer's pre-authorized code grant.
type Grant struct {
	PreAuthorizedCode string  `json:"pre-authorized_code"`
	TxCode            *TxCode `json:"tx_code,omitempty"`
}

// TxCode describes the transaction code the holder is shown and types in their wallet.
type TxCode struct {
	InputMode   string `json:"input_mode"`
	Length      int    `json:"length"`
	Description string `json:"description"`
}

// NewOffer is the offer of code on origin.
func NewOffer(origin, code string, txCode bool) Offer {
	g := Grant{PreAuthorizedCode: code}
	if txCode {
		g.TxCode = &TxCode{InputMode: "numeric", Length: TxCodeLength,
			Description: "Type the code shown beside the QR code on " + credential.IssuerName + "."}
	}
	return Offer{CredentialIssuer: origin, ConfigurationIDs: []string{ConfigJWT, ConfigLDP},
		Grants: map[string]Grant{GrantPreAuthorized: g}}
}

// OfferURI is the offer by value as an openid-credential-offer:// link.
func OfferURI(o Offer) string {
	b, _ := json.Marshal(o)
	return "openid-credential-offer://?credential_offer=" + url.QueryEscape(string(b))
}

// DCCLinks are the DCC Learner Credential Wallet's request links for an exchange: the
// dccrequest:// deep link and its e-mail-safe https://lcw.app/request.html form.
func DCCLinks(origin, exchangeURL, challenge string) (deep, web string) {
	q := url.Values{}
	q.Set("issuer", credential.DIDWeb(origin))
	q.Set("vc_request_url", exchangeURL)
	q.Set("challenge", challenge)
	q.Set("auth_type", "bearer")
	return "dccrequest://request?" + q.Encode(), "https://lcw.app/request.html?" + q.Encode()
}

// PresentationRequest is the VC API exchange's VerifiablePresentationRequest.
func PresentationRequest(challenge, domain string) map[string]any {
	return map[string]any{"verifiablePresentationRequest": map[string]any{
		"query": []any{map[string]any{"type": "DIDAuthentication",
			"acceptedMethods":      []any{map[string]any{"method": "key"}},
			"acceptedCryptosuites": []any{map[string]any{"cryptosuite": credential.Cryptosuite}}}},
		"challenge": challenge, "domain": domain,
	}}
}

// Error is an OAuth-style error answer ({"error", "error_description"}).
type Error struct {
	Status      int
	Code        string
	Description string
}

func (e *Error) Error() string { return e.Code + ": " + e.Description }

func oauthErr(status int, code, desc string) *Error {
	return &Error{Status: status, Code: code, Description: desc}
}

// RandomToken is n random bytes, base64url.
func RandomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// RandomHex is n random bytes, hex.
func RandomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// NewTxCode is a random numeric transaction code.
func NewTxCode() string {
	var sb strings.Builder
	for i := 0; i < TxCodeLength; i++ {
		d, err := rand.Int(rand.Reader, big.NewInt(10))
		if err != nil {
			panic(err)
		}
		fmt.Fprint(&sb, d.Int64())
	}
	return sb.String()
}

// Hash is how codes, tokens and nonces are stored.
func Hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
