package credential

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/big"
	"net/url"
	"strings"
)

// ES256 (ECDSA P-256 with SHA-256) for VC-JWTs: the algorithm the 1EdTech validator
// accepts. Since issue 36 the signing P-256 key is a key of its own, generated and stored
// like the Ed25519 seeds (keys.go). Before, it was derived from the Ed25519 seed (HKDF-SHA256,
// es256FromSeed): that derived key is still computed, verify-only, and stays published, so
// the VC-JWTs it signed keep verifying.

// KeyPath is where a single public JWK is served: {origin}/.well-known/jwks/{thumbprint}.
// The ES256 VC-JWTs carry this URL as their kid.
const KeyPath = "/.well-known/jwks/"

// KeyURL is the URL of the key named thumbprint on origin.
func KeyURL(origin, thumbprint string) string {
	return strings.TrimRight(origin, "/") + KeyPath + url.PathEscape(thumbprint)
}

// OurKid reports whether kid names the key thumbprint on origin as our VC-JWTs do: its
// verification method in our DID document (since issue 36) or its key URL (before). A kid
// on any other origin is not ours, whatever thumbprint it ends with.
func OurKid(origin, thumbprint, kid string) bool {
	return kid == VerificationMethodID(origin, thumbprint) || kid == KeyURL(origin, thumbprint)
}

// KIDOf is the thumbprint a kid names: the kid itself, the fragment of a DID URL, or the
// last path segment of a key URL.
func KIDOf(kid string) string {
	if strings.HasPrefix(kid, "did:") {
		if i := strings.LastIndexByte(kid, '#'); i >= 0 {
			return kid[i+1:]
		}
		return kid
	}
	if i := strings.LastIndexByte(kid, '/'); i >= 0 && strings.Contains(kid, "://") {
		if s, err := url.PathUnescape(kid[i+1:]); err == nil {
			return s
		}
		return kid[i+1:]
	}
	return kid
}

func es256FromSeed(seed []byte) *Key {
	n := elliptic.P256().Params().N
	for ctr := 0; ; ctr++ {
		d, err := hkdf.Key(sha256.New, seed, nil, fmt.Sprintf("meritmark credential ES256 key %d", ctr), 32)
		if err != nil {
			panic(err)
		}
		if v := new(big.Int).SetBytes(d); v.Sign() == 0 || v.Cmp(n) >= 0 {
			continue
		}
		priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d)
		if err != nil {
			continue
		}
		pub := &priv.PublicKey
		return &Key{KID: ECThumbprint(pub), Alg: AlgES256, EC: pub, ecPriv: priv}
	}
}

func ecXY(pub *ecdsa.PublicKey) (x, y string) {
	b, err := pub.Bytes() // 0x04 || X || Y
	if err != nil || len(b) != 65 {
		return "", ""
	}
	return b64.EncodeToString(b[1:33]), b64.EncodeToString(b[33:])
}

// ECThumbprint is the RFC 7638 thumbprint of a P-256 public key:
// SHA-256 of {"crv":"P-256","kty":"EC","x":"…","y":"…"}, base64url.
func ECThumbprint(pub *ecdsa.PublicKey) string {
	x, y := ecXY(pub)
	h := sha256.Sum256([]byte(`{"crv":"P-256","kty":"EC","x":"` + x + `","y":"` + y + `"}`))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// ES256PublicKey builds a verify-only P-256 key from the JWK coordinates.
func ES256PublicKey(kid, x, y string) (*Key, error) {
	xb, err1 := b64.Strict().DecodeString(x)
	yb, err2 := b64.Strict().DecodeString(y)
	if err1 != nil || err2 != nil || len(xb) != 32 || len(yb) != 32 {
		return nil, fmt.Errorf("key %s: not a P-256 public key", kid)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, xb...), yb...))
	if err != nil {
		return nil, fmt.Errorf("key %s: not a P-256 public key", kid)
	}
	return &Key{KID: kid, Alg: AlgES256, EC: pub}, nil
}

// ecPublicString is how signing_keys stores a P-256 public key: base64url of X || Y.
func ecPublicString(pub *ecdsa.PublicKey) string {
	b, _ := pub.Bytes()
	return b64.EncodeToString(b[1:])
}

func ecPublicFromString(kid, s string) (*Key, error) {
	raw, err := b64.DecodeString(s)
	if err != nil || len(raw) != 64 {
		return nil, fmt.Errorf("key %s: not a P-256 public key", kid)
	}
	return ES256PublicKey(kid, b64.EncodeToString(raw[:32]), b64.EncodeToString(raw[32:]))
}

// signES256 signs input: the JWS signature is R || S, 32 bytes each (RFC 7518 §3.4).
func signES256(priv *ecdsa.PrivateKey, input []byte) ([]byte, error) {
	h := sha256.Sum256(input)
	r, s, err := ecdsa.Sign(rand.Reader, priv, h[:])
	if err != nil {
		return nil, err
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return sig, nil
}
