package oid4vci

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"

	"meritmark/app/credential"
)

// Multicodec prefixes (varint) of the did:key public keys we read.
var (
	codecEd25519 = []byte{0xed, 0x01}
	codecP256    = []byte{0x80, 0x24}
)

// DIDKeyPublic decodes a did:key (Ed25519 or P-256) to its public key.
func DIDKeyPublic(did string) (crypto.PublicKey, error) {
	mb, ok := strings.CutPrefix(did, "did:key:")
	if !ok || !strings.HasPrefix(mb, "z") {
		return nil, errors.New("not a did:key with a base58btc key")
	}
	raw, err := credential.Base58Decode(mb[1:])
	if err != nil {
		return nil, fmt.Errorf("did:key: %v", err)
	}
	switch {
	case len(raw) == 2+ed25519.PublicKeySize && raw[0] == codecEd25519[0] && raw[1] == codecEd25519[1]:
		return ed25519.PublicKey(raw[2:]), nil
	case len(raw) == 2+33 && raw[0] == codecP256[0] && raw[1] == codecP256[1]:
		x, y := elliptic.UnmarshalCompressed(elliptic.P256(), raw[2:])
		if x == nil {
			return nil, errors.New("did:key: not a P-256 point")
		}
		u := make([]byte, 65)
		u[0] = 4
		x.FillBytes(u[1:33])
		y.FillBytes(u[33:])
		return ecdsa.ParseUncompressedPublicKey(elliptic.P256(), u)
	}
	return nil, errors.New("did:key: only Ed25519 and P-256 keys are accepted")
}

// DIDKeyOf is the did:key of an Ed25519 public key.
func DIDKeyOf(pub ed25519.PublicKey) string {
	return "did:key:z" + credential.Base58(append(append([]byte{}, codecEd25519...), pub...))
}

// didJWK is the did:jwk of a public JWK (its members in a fixed order).
func didJWK(k *jose.JSONWebKey) (string, error) {
	if k == nil || !k.Valid() || !k.IsPublic() {
		return "", errors.New("the jwk is not a valid public key")
	}
	b, err := k.MarshalJSON()
	if err != nil {
		return "", err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return "", err
	}
	keep := map[string]any{}
	for _, f := range []string{"crv", "kty", "x", "y"} {
		if v, ok := m[f]; ok {
			keep[f] = v
		}
	}
	b, _ = json.Marshal(keep) // encoding/json sorts the members
	return "did:jwk:" + base64.RawURLEncoding.EncodeToString(b), nil
}

// didJWKPublic decodes a did:jwk.
func didJWKPublic(did string) (crypto.PublicKey, error) {
	enc, _ := strings.CutPrefix(did, "did:jwk:")
	b, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return nil, errors.New("did:jwk: not base64url")
	}
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(b); err != nil || !k.IsPublic() {
		return nil, errors.New("did:jwk: not a public JWK")
	}
	return k.Key, nil
}

// ProofClaims are what a proof JWT says.
type ProofClaims struct {
	Aud   any    `json:"aud"`
	Iat   *int64 `json:"iat"`
	Nonce string `json:"nonce"`
	Iss   string `json:"iss,omitempty"`
}

// CheckedProof is a proof whose signature, type, audience and time checked out.
type CheckedProof struct {
	HolderDID string
	Nonce     string
}

var proofAlgs = []jose.SignatureAlgorithm{jose.ES256, jose.EdDSA}

func invalidProof(desc string) *Error { return oauthErr(http.StatusBadRequest, "invalid_proof", desc) }

// CheckProof checks a proof JWT (OpenID4VCI 1.0 Appendix F.1) for the credential issuer
// issuer at now: typ openid4vci-proof+jwt, ES256 or EdDSA, the key named by kid (a did:key
// or did:jwk URL) or given as jwk (not both), the signature, aud = issuer, iat within
// ProofMaxAge (ProofSkew ahead). The nonce is the caller's to check.
func CheckProof(token, issuer string, now time.Time) (*CheckedProof, error) {
	jws, err := jose.ParseSignedCompact(token, proofAlgs)
	if err != nil {
		return nil, invalidProof("The proof is not a JWS signed with ES256 or EdDSA.")
	}
	if len(jws.Signatures) != 1 {
		return nil, invalidProof("The proof must carry one signature.")
	}
	h := jws.Signatures[0].Protected
	if typ, _ := h.ExtraHeaders[jose.HeaderType].(string); typ != ProofTyp {
		return nil, invalidProof("The proof's typ must be " + ProofTyp + ".")
	}
	var pub crypto.PublicKey
	var holder string
	switch {
	case h.KeyID != "" && h.JSONWebKey != nil:
		return nil, invalidProof("The proof names its key twice (kid and jwk).")
	case h.JSONWebKey != nil:
		d, err := didJWK(h.JSONWebKey)
		if err != nil {
			return nil, invalidProof("The proof's jwk is not a public key.")
		}
		pub, holder = h.JSONWebKey.Key, d
	case strings.HasPrefix(h.KeyID, "did:key:"):
		holder, _, _ = strings.Cut(h.KeyID, "#")
		if pub, err = DIDKeyPublic(holder); err != nil {
			return nil, invalidProof("The proof's kid is not a did:key we can read (Ed25519 or P-256).")
		}
	case strings.HasPrefix(h.KeyID, "did:jwk:"):
		holder, _, _ = strings.Cut(h.KeyID, "#")
		if pub, err = didJWKPublic(holder); err != nil {
			return nil, invalidProof("The proof's kid is not a did:jwk we can read.")
		}
	default:
		return nil, invalidProof("The proof must name its key as a did:key or did:jwk kid, or carry it as jwk.")
	}
	payload, err := jws.Verify(pub)
	if err != nil {
		return nil, invalidProof("The proof's signature does not verify with the key it names.")
	}
	var c ProofClaims
	if err := json.Unmarshal(payload, &c); err != nil {
		return nil, invalidProof("The proof's claims are not JSON.")
	}
	if !audienceIs(c.Aud, issuer) {
		return nil, invalidProof("The proof's aud must be the credential issuer " + issuer + ".")
	}
	if c.Iat == nil {
		return nil, invalidProof("The proof has no iat.")
	}
	iat := time.Unix(*c.Iat, 0)
	if iat.After(now.Add(ProofSkew)) || iat.Before(now.Add(-ProofMaxAge)) {
		return nil, invalidProof("The proof's iat is too old or in the future.")
	}
	return &CheckedProof{HolderDID: holder, Nonce: c.Nonce}, nil
}

func audienceIs(aud any, want string) bool {
	switch a := aud.(type) {
	case string:
		return a == want
	case []any:
		for _, v := range a {
			if s, _ := v.(string); s == want {
				return true
			}
		}
	}
	return false
}

// presentationKey resolves a presentation proof's verificationMethod: an Ed25519 did:key
// whose fragment is the key itself.
func presentationKey(vm string) *credential.Key {
	did, frag, _ := strings.Cut(vm, "#")
	if frag != "" && "did:key:"+frag != did {
		return nil
	}
	pub, err := DIDKeyPublic(did)
	if err != nil {
		return nil
	}
	ed, ok := pub.(ed25519.PublicKey)
	if !ok {
		return nil
	}
	return &credential.Key{KID: vm, Alg: credential.AlgEdDSA, Public: ed}
}
