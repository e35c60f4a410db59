package credential

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Key is one issuing key: Ed25519 (Alg "EdDSA": Data Integrity proofs and the VC-JWTs
// signed before ES256) or P-256 (Alg "ES256": VC-JWTs). KID is its RFC 7638 JWK
// thumbprint, so every instance holding the same key names it the same way. The ES256
// key that signs is a key of its own ("es256:" lines, issue 36); each Ed25519 seed still
// gives the P-256 key that was derived from it before (its Companion), verify-only, so the
// VC-JWTs it signed keep verifying while one leaked seed no longer gives both.
type Key struct {
	KID       string
	Alg       string // "EdDSA" ("" reads as EdDSA) or "ES256"
	Public    ed25519.PublicKey
	EC        *ecdsa.PublicKey
	private   ed25519.PrivateKey // nil for a key known only by its public half
	ecPriv    *ecdsa.PrivateKey
	Companion *Key // the verify-only ES256 key once derived from the same seed
}

// CanSign reports whether the private half is known.
func (k *Key) CanSign() bool { return k.private != nil || k.ecPriv != nil }

// IsES256 reports whether k is a P-256 key.
func (k *Key) IsES256() bool { return k.Alg == AlgES256 }

// Algorithms of the keys.
const (
	AlgEdDSA = "EdDSA"
	AlgES256 = "ES256"
)

// Keyring is this instance's issuing keys; the first of each kind is the active one (new
// credentials are signed with it), the others still verify what they signed.
type Keyring struct {
	Keys   []*Key // Ed25519, from seeds
	ES     []*Key // P-256 ("es256:" lines)
	Source string // "MERITMARK_CREDENTIAL_KEYS" or the key file's path
}

// Active is the Ed25519 signing key (Data Integrity proofs, status lists).
func (r *Keyring) Active() *Key { return r.Keys[0] }

// ActiveES256 is the ES256 signing key (VC-JWTs): the first "es256:" key.
func (r *Keyring) ActiveES256() *Key { return r.ES[0] }

// Find returns the key named kid (a thumbprint or a key URL), or nil.
func (r *Keyring) Find(kid string) *Key {
	kid = KIDOf(kid)
	for _, k := range r.ES {
		if k.KID == kid {
			return k
		}
	}
	for _, k := range r.Keys {
		if k.KID == kid {
			return k
		}
		if k.Companion != nil && k.Companion.KID == kid {
			return k.Companion
		}
	}
	return nil
}

// EnvKeys is the variable that gives the seeds by configuration.
const EnvKeys = "MERITMARK_CREDENTIAL_KEYS"

// KeyFile is where the seeds are kept in the data directory (one per line, newest first).
func KeyFile(dataDir string) string { return filepath.Join(dataDir, "keys", "signing-keys") }

// NewSeed returns a fresh random Ed25519 seed, base64url without padding.
func NewSeed() string {
	var b [ed25519.SeedSize]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// KeyFromSeed builds the key of a base64url seed.
func KeyFromSeed(seed string) (*Key, error) {
	seed = strings.TrimSpace(seed)
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(seed, "="))
	if err != nil || len(raw) != ed25519.SeedSize {
		return nil, errors.New("is not a base64url Ed25519 seed (32 bytes)")
	}
	priv := ed25519.NewKeyFromSeed(raw)
	pub := priv.Public().(ed25519.PublicKey)
	return &Key{KID: Thumbprint(pub), Alg: AlgEdDSA, Public: pub, private: priv, Companion: es256FromSeed(raw).publicOnly()}, nil
}

// PublicKey builds a verify-only key from a base64url public key.
func PublicKey(kid, x string) (*Key, error) {
	raw, err := base64.RawURLEncoding.DecodeString(x)
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("key %s: not a base64url Ed25519 public key", kid)
	}
	return &Key{KID: kid, Alg: AlgEdDSA, Public: ed25519.PublicKey(raw)}, nil
}

// Thumbprint is the RFC 7638 JWK thumbprint (SHA-256, base64url) of an Ed25519 public key:
// the hash of {"crv":"Ed25519","kty":"OKP","x":"…"} with the members in that order.
func Thumbprint(pub ed25519.PublicKey) string {
	h := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + base64.RawURLEncoding.EncodeToString(pub) + `"}`))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// ES256Prefix marks a P-256 private key in a key list: "es256:" and the base64url scalar.
const ES256Prefix = "es256:"

// ParseSeeds reads a list of keys separated by commas or new lines ('#' starts a comment):
// Ed25519 seeds, and P-256 keys written ES256Prefix + scalar. The first of each kind is
// active. name is used in error messages.
func ParseSeeds(name, list string) (*Keyring, error) {
	r := &Keyring{Source: name}
	seen := map[string]bool{}
	n := 0
	var items []string
	for _, line := range strings.Split(list, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		items = append(items, strings.Split(line, ",")...)
	}
	for _, line := range items {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		n++
		if secret, ok := strings.CutPrefix(line, ES256Prefix); ok {
			k, err := ES256KeyFromSecret(secret)
			if err != nil {
				return nil, fmt.Errorf("%s: key %d %v", name, n, err)
			}
			if !seen[k.KID] {
				seen[k.KID] = true
				r.ES = append(r.ES, k)
			}
			continue
		}
		k, err := KeyFromSeed(line)
		if err != nil {
			return nil, fmt.Errorf("%s: key %d %v", name, n, err)
		}
		if !seen[k.KID] {
			seen[k.KID] = true
			r.Keys = append(r.Keys, k)
		}
	}
	if len(r.Keys) == 0 {
		return nil, fmt.Errorf("%s: no key given", name)
	}
	return r, nil
}

// NewES256Secret returns a fresh P-256 private key as a key list line: ES256Prefix and the
// base64url scalar.
func NewES256Secret() string {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	d, err := k.Bytes()
	if err != nil {
		panic(err)
	}
	return ES256Prefix + base64.RawURLEncoding.EncodeToString(d)
}

// ES256KeyFromSecret builds the P-256 signing key of a base64url scalar.
func ES256KeyFromSecret(secret string) (*Key, error) {
	d, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(strings.TrimSpace(secret), "="))
	if err != nil || len(d) != 32 {
		return nil, errors.New("is not a base64url P-256 private key (32 bytes)")
	}
	priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d)
	if err != nil {
		return nil, errors.New("is not a P-256 private key")
	}
	return &Key{KID: ECThumbprint(&priv.PublicKey), Alg: AlgES256, EC: &priv.PublicKey, ecPriv: priv}, nil
}

// LoadKeyring returns the issuing keys: from configured (the value of
// MERITMARK_CREDENTIAL_KEYS) when it is not empty, else from the data directory's key
// file, which is created with a new key (0600, in a 0700 folder) on first start.
func LoadKeyring(dataDir, configured string) (*Keyring, error) {
	if strings.TrimSpace(configured) != "" {
		r, err := ParseSeeds(EnvKeys, configured)
		if err != nil {
			return nil, err
		}
		if len(r.ES) == 0 {
			return nil, fmt.Errorf("%s: no ES256 key (es256:...): VC-JWTs are signed with a P-256 key of its own; run `meritmark rotate-key` and set the value it prints", EnvKeys)
		}
		return r, nil
	}
	path := KeyFile(dataDir)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if err := writeSeeds(path, []string{NewES256Secret(), NewSeed()}, true); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("create issuing key: %w", err)
		}
		// another process may have won the race: read what is there
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("read issuing keys: %w", err)
	}
	r, err := ParseSeeds(path, string(b))
	if err != nil {
		return nil, err
	}
	if len(r.ES) == 0 { // a key file from before issue 36: give it an ES256 key of its own
		if err := writeSeeds(path, append([]string{NewES256Secret()}, keyLines(string(b))...), false); err != nil {
			return nil, fmt.Errorf("add an ES256 key: %w", err)
		}
		if b, err = os.ReadFile(path); err != nil {
			return nil, err
		}
		if r, err = ParseSeeds(path, string(b)); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// keyLines are the keys of a key file, comments and blank lines left out.
func keyLines(file string) []string {
	var out []string
	for _, line := range strings.Split(file, "\n") {
		if s := strings.TrimSpace(line); s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, s)
		}
	}
	return out
}

// RotateKeyFile puts a new active Ed25519 key and a new active ES256 key at the top of the
// data directory's key file (the older keys stay below them, so what they signed keeps
// verifying) and returns them.
func RotateKeyFile(dataDir string) (ed, es *Key, err error) {
	path := KeyFile(dataDir)
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	seed, secret := NewSeed(), NewES256Secret()
	if err := writeSeeds(path, append([]string{secret, seed}, keyLines(string(b))...), false); err != nil {
		return nil, nil, err
	}
	if ed, err = KeyFromSeed(seed); err != nil {
		return nil, nil, err
	}
	es, err = ES256KeyFromSecret(strings.TrimPrefix(secret, ES256Prefix))
	return ed, es, err
}

// writeSeeds writes the key file atomically with mode 0600 (exclusive: fail if it exists).
func writeSeeds(path string, seeds []string, exclusive bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	body := "# Meritmark credential issuing keys: Ed25519 seeds (base64url) and P-256 keys (es256:...);\n# the first of each kind signs. Keep this file secret. Older keys stay so that what they\n# signed keeps verifying.\n" +
		strings.Join(seeds, "\n") + "\n"
	if exclusive {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return err
		}
		if _, err := f.WriteString(body); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	tmp, err := os.CreateTemp(dir, ".signing-keys-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.WriteString(body); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// JWK is a public JSON Web Key: OKP (Ed25519) or EC (P-256).
type JWK struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y,omitempty"`
	Kid string `json:"kid"`
	Alg string `json:"alg"`
	Use string `json:"use"`
}

// JWKOf is the public JWK of k, named by its thumbprint.
func JWKOf(k *Key) JWK {
	if k.IsES256() {
		x, y := ecXY(k.EC)
		return JWK{Kty: "EC", Crv: "P-256", X: x, Y: y, Kid: k.KID, Alg: AlgES256, Use: "sig"}
	}
	return JWK{Kty: "OKP", Crv: "Ed25519", X: base64.RawURLEncoding.EncodeToString(k.Public), Kid: k.KID, Alg: AlgEdDSA, Use: "sig"}
}

// PublishedJWK is the JWK as we publish it for origin: an ES256 key is named by its key
// URL (the kid its VC-JWTs carry), an Ed25519 key by its thumbprint (as the EdDSA
// credentials signed before ES256 name it).
func PublishedJWK(origin string, k *Key) JWK {
	j := JWKOf(k)
	if k.IsES256() {
		j.Kid = KeyURL(origin, k.KID)
	}
	return j
}

// JWKS is a JSON Web Key Set.
type JWKS struct {
	Keys []JWK `json:"keys"`
}

// Find returns the verify key named kid from the set (a key URL matches the JWK named by
// the same URL or by its thumbprint).
func (s *JWKS) Find(kid string) *Key {
	for _, j := range s.Keys {
		if j.Kid != kid && KIDOf(j.Kid) != KIDOf(kid) {
			continue
		}
		k, err := KeyFromJWK(j)
		if err != nil {
			return nil
		}
		return k
	}
	return nil
}

// KeyFromJWK is the verify key of a public JWK (OKP Ed25519 or EC P-256), named by the
// JWK's thumbprint part.
func KeyFromJWK(j JWK) (*Key, error) {
	kid := KIDOf(j.Kid)
	switch {
	case j.Kty == "OKP" && j.Crv == "Ed25519":
		return PublicKey(kid, j.X)
	case j.Kty == "EC" && j.Crv == "P-256":
		return ES256PublicKey(kid, j.X, j.Y)
	}
	return nil, fmt.Errorf("key %s: unsupported key type %s %s", j.Kid, j.Kty, j.Crv)
}
