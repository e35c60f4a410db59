package credential

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The JOSE part: compact JWS with ES256 (new credentials) or EdDSA (Ed25519, RFC 8037:
// credentials signed before ES256), written with the standard library. Only what VC-JWT
// needs: the algorithm is the key's own (never the header's choice), a kid in the header,
// no "none", no embedded keys, strict base64url.

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

// Parsed is a compact JWS split into its parts (not yet verified).
type Parsed struct {
	Header  Header
	Payload []byte // the decoded payload JSON
	input   string // header.payload, what the signature covers
	sig     []byte
}

// ParseJWT splits and decodes a compact JWS without checking the signature.
func ParseJWT(token string) (*Parsed, error) {
	token = strings.TrimSpace(token)
	parts := strings.Split(token, ".")
	if len(parts) != 3 || len(token) > 64<<10 {
		return nil, ErrMalformed
	}
	hb, err1 := b64.Strict().DecodeString(parts[0])
	pb, err2 := b64.Strict().DecodeString(parts[1])
	sb, err3 := b64.Strict().DecodeString(parts[2])
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, ErrMalformed
	}
	var h Header
	dec := json.NewDecoder(bytes.NewReader(hb))
	if err := dec.Decode(&h); err != nil {
		return nil, ErrMalformed
	}
	var crit struct {
		Crit json.RawMessage `json:"crit"`
		JWK  json.RawMessage `json:"jwk"`
	}
	_ = json.Unmarshal(hb, &crit)
	if len(crit.Crit) > 0 { // no extension we would have to understand
		return nil, fmt.Errorf("%w: unsupported critical header", ErrMalformed)
	}
	if !json.Valid(pb) || len(pb) == 0 || pb[0] != '{' {
		return nil, ErrMalformed
	}
	return &Parsed{Header: h, Payload: pb, input: parts[0] + "." + parts[1], sig: sb}, nil
}

// KeySource finds a verify key by kid (nil when unknown).
type KeySource func(kid string) *Key

// VerifySignature checks p's signature with the key its header names. The key decides the
// algorithm: a header alg that is not the key's own fails.
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
	if k.IsES256() {
		if !verifyES256(k.EC, []byte(p.input), p.sig) {
			return k, ErrSignature
		}
		return k, nil
	}
	if len(k.Public) != ed25519.PublicKeySize || len(p.sig) != ed25519.SignatureSize || !ed25519.Verify(k.Public, []byte(p.input), p.sig) {
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
