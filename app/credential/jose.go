package credential

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// The JOSE part: compact JWS with ES256 (new credentials) or EdDSA (Ed25519, RFC 8037:
// credentials signed before ES256). Our own tokens are written with the standard library;
// untrusted input is parsed and verified by go-jose (issue 36). Only what VC-JWT needs: the
// algorithm is the key's own (never the header's choice), a kid in the header, no "none",
// no embedded keys.

// Header is the JOSE header of our credentials.
type Header struct {
	Alg string `json:"alg"`
	Kid string `json:"kid"`
	Typ string `json:"typ"`
}

// Verification errors (wrapped with details).
var (
	ErrMalformed   = errors.New("the credential is not a well-formed JWT")
	ErrAlgorithm   = errors.New("the credential is not signed with ES256 or EdDSA")
	ErrUnknownKey  = errors.New("the credential is signed with a key the issuer does not publish")
	ErrSignature   = errors.New("the credential's signature does not match its content")
	ErrNotYetValid = errors.New("the credential is not valid yet")
	ErrExpired     = errors.New("the credential has expired")
)

var b64 = base64.RawURLEncoding

// SignJWT signs payload (a JSON object) with k as a compact JWS whose kid is k's
// thumbprint.
func SignJWT(k *Key, payload []byte) (string, error) { return SignJWTKid(k, k.KID, payload) }

// SignJWTKid signs payload with k, naming the key kid in the header (a key URL for
// ES256 credentials).
func SignJWTKid(k *Key, kid string, payload []byte) (string, error) {
	if !k.CanSign() {
		return "", fmt.Errorf("key %s has no private half", k.KID)
	}
	alg := AlgEdDSA
	if k.IsES256() {
		alg = AlgES256
	}
	h, err := json.Marshal(Header{Alg: alg, Kid: kid, Typ: "JWT"})
	if err != nil {
		return "", err
	}
	input := b64.EncodeToString(h) + "." + b64.EncodeToString(payload)
	var sig []byte
	if k.IsES256() {
		if sig, err = signES256(k.ecPriv, []byte(input)); err != nil {
			return "", err
		}
	} else {
		sig = ed25519.Sign(k.private, []byte(input))
	}
	return input + "." + b64.EncodeToString(sig), nil
}

// Parsed is a compact JWS parsed by go-jose (not yet verified).
type Parsed struct {
	Header  Header
	Payload []byte // the decoded payload JSON (unverified until VerifySignature)
	jws     *jose.JSONWebSignature
}

// ParseJWT parses a compact JWS without checking the signature. Untrusted input is read by
// go-jose (github.com/go-jose/go-jose/v4), restricted to ES256 and EdDSA; it refuses a
// critical header it does not understand. We add: one signature, a kid, no embedded key,
// a JSON object as the payload, at most 64 KiB.
func ParseJWT(token string) (*Parsed, error) {
	token = strings.TrimSpace(token)
	if len(token) > 64<<10 || strings.Count(token, ".") != 2 {
		return nil, ErrMalformed
	}
	// no critical header at all (go-jose would accept "b64", which VC-JWT never uses)
	var crit struct {
		Crit json.RawMessage `json:"crit"`
	}
	if hb, err := b64.DecodeString(token[:strings.IndexByte(token, '.')]); err != nil || json.Unmarshal(hb, &crit) != nil {
		return nil, ErrMalformed
	} else if len(crit.Crit) > 0 {
		return nil, fmt.Errorf("%w: unsupported critical header", ErrMalformed)
	}
	jws, err := jose.ParseSignedCompact(token, []jose.SignatureAlgorithm{jose.ES256, jose.EdDSA})
	if err != nil {
		if strings.Contains(err.Error(), "unexpected signature algorithm") {
			return nil, fmt.Errorf("%w: %v", ErrAlgorithm, err)
		}
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if len(jws.Signatures) != 1 {
		return nil, ErrMalformed
	}
	ph := jws.Signatures[0].Protected
	if ph.JSONWebKey != nil {
		return nil, fmt.Errorf("%w: an embedded key is never trusted", ErrMalformed)
	}
	pb := jws.UnsafePayloadWithoutVerification()
	if !json.Valid(pb) || len(pb) == 0 || pb[0] != '{' {
		return nil, ErrMalformed
	}
	typ, _ := ph.ExtraHeaders[jose.HeaderType].(string)
	return &Parsed{Header: Header{Alg: ph.Algorithm, Kid: ph.KeyID, Typ: typ}, Payload: pb, jws: jws}, nil
}

// KeySource finds a verify key by kid (nil when unknown).
type KeySource func(kid string) *Key

// VerifySignature checks p's signature (with go-jose) against the key its header names.
// The key decides the algorithm: a header alg that is not the key's own fails.
func (p *Parsed) VerifySignature(keys KeySource) (*Key, error) {
	if p.Header.Alg != AlgEdDSA && p.Header.Alg != AlgES256 {
		return nil, fmt.Errorf("%w (alg %q)", ErrAlgorithm, p.Header.Alg)
	}
	if p.Header.Kid == "" {
		return nil, fmt.Errorf("%w (no kid)", ErrUnknownKey)
	}
	k := keys(p.Header.Kid)
	if k == nil {
		return nil, fmt.Errorf("%w (kid %s)", ErrUnknownKey, p.Header.Kid)
	}
	if k.IsES256() != (p.Header.Alg == AlgES256) {
		return k, fmt.Errorf("%w (alg %q for a %s key)", ErrAlgorithm, p.Header.Alg, k.algName())
	}
	var pub any
	switch {
	case k.IsES256() && k.EC != nil:
		pub = k.EC
	case !k.IsES256() && len(k.Public) == ed25519.PublicKeySize:
		pub = k.Public
	default:
		return k, ErrSignature
	}
	if p.jws == nil {
		return k, ErrSignature
	}
	if _, err := p.jws.Verify(pub); err != nil {
		return k, ErrSignature
	}
	return k, nil
}

func (k *Key) algName() string {
	if k.IsES256() {
		return AlgES256
	}
	return AlgEdDSA
}

// Claims are the registered JWT claims of a VC-JWT (OB 3.0 §8.2): the credential's members
// sit beside them at the top level of the payload.
type Claims struct {
	Iss string `json:"iss"`
	Jti string `json:"jti"`
	Sub string `json:"sub,omitempty"`
	Nbf int64  `json:"nbf"`
	Exp int64  `json:"exp,omitempty"`
}

// CheckTimes checks nbf and exp against now (with skew allowed either way).
func (c *Claims) CheckTimes(now time.Time, skew time.Duration) error {
	if c.Nbf != 0 && now.Add(skew).Unix() < c.Nbf {
		return ErrNotYetValid
	}
	if c.Exp != 0 && now.Add(-skew).Unix() >= c.Exp {
		return ErrExpired
	}
	return nil
}
