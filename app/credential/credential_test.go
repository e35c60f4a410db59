package credential

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestKeyringInTheDataDir(t *testing.T) {
	dir := t.TempDir()
	k1, err := LoadKeyring(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(KeyFile(dir))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v %v", st.Mode(), err)
	}
	if ds, _ := os.Stat(filepath.Dir(KeyFile(dir))); ds.Mode().Perm() != 0o700 {
		t.Fatalf("key dir mode %v", ds.Mode())
	}
	k2, _ := LoadKeyring(dir, "")
	if len(k1.Keys) != 1 || k1.Active().KID != k2.Active().KID || !k1.Active().CanSign() {
		t.Fatal("the generated key is not kept")
	}
	// issue 36: the ES256 key is generated and kept like the Ed25519 one, not derived
	if len(k1.ES) != 1 || k1.ActiveES256().KID != k2.ActiveES256().KID || !k1.ActiveES256().CanSign() ||
		k1.ActiveES256().KID == k1.Active().Companion.KID || k1.Active().Companion.CanSign() {
		t.Fatal("the ES256 key is not a key of its own")
	}
	nk, nes, err := RotateKeyFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	k3, _ := LoadKeyring(dir, "")
	if len(k3.Keys) != 2 || k3.Active().KID != nk.KID || k3.Keys[1].KID != k1.Active().KID ||
		len(k3.ES) != 2 || k3.ActiveES256().KID != nes.KID || k3.ES[1].KID != k1.ActiveES256().KID {
		t.Fatalf("after rotation: %d keys, active %s", len(k3.Keys), k3.Active().KID)
	}
	if st, _ := os.Stat(KeyFile(dir)); st.Mode().Perm() != 0o600 {
		t.Fatalf("rotated key file mode %v", st.Mode())
	}

	// a key file from before issue 36 (seeds only) gets an ES256 key of its own, kept
	old := t.TempDir()
	seed := NewSeed()
	if err := writeSeeds(KeyFile(old), []string{seed}, true); err != nil {
		t.Fatal(err)
	}
	o1, err := LoadKeyring(old, "")
	if err != nil {
		t.Fatal(err)
	}
	o2, _ := LoadKeyring(old, "")
	ks, _ := KeyFromSeed(seed)
	if len(o1.ES) != 1 || o1.ActiveES256().KID != o2.ActiveES256().KID || o1.Active().KID != ks.KID || o1.ActiveES256().KID == ks.Companion.KID {
		t.Fatal("an old key file did not get an ES256 key of its own")
	}
}

func TestKeyringFromConfiguration(t *testing.T) {
	a, b, e := NewSeed(), NewSeed(), NewES256Secret()
	r, err := LoadKeyring(t.TempDir(), " "+a+" , "+e+", "+b+",")
	if err != nil {
		t.Fatal(err)
	}
	ka, _ := KeyFromSeed(a)
	ke, _ := ES256KeyFromSecret(strings.TrimPrefix(e, ES256Prefix))
	if len(r.Keys) != 2 || r.Active().KID != ka.KID || r.Source != EnvKeys || len(r.ES) != 1 || r.ActiveES256().KID != ke.KID {
		t.Fatalf("configured keys: %+v", r)
	}
	// seeds only: refused (the ES256 key is never derived from a seed any more)
	if _, err := LoadKeyring(t.TempDir(), a); err == nil || !strings.Contains(err.Error(), "no ES256 key") {
		t.Fatalf("seeds without an ES256 key: %v", err)
	}
	_, err = LoadKeyring(t.TempDir(), a+",not-a-seed")
	if err == nil || err.Error() != "MERITMARK_CREDENTIAL_KEYS: key 2 is not a base64url Ed25519 seed (32 bytes)" {
		t.Fatalf("bad seed: %v", err)
	}
	// the kid is the RFC 7638 thumbprint (same seed, same kid on every instance)
	if ka.KID != Thumbprint(ka.Public) || len(ka.KID) != 43 {
		t.Fatalf("kid %q", ka.KID)
	}
}

func TestJWSSignAndVerify(t *testing.T) {
	k, _ := KeyFromSeed(NewSeed())
	other, _ := KeyFromSeed(NewSeed())
	tok, err := SignJWT(k, []byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	src := func(kid string) *Key {
		if kid == k.KID {
			return &Key{KID: k.KID, Public: k.Public}
		}
		return nil
	}
	p, err := ParseJWT(tok)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.VerifySignature(src); err != nil {
		t.Fatal(err)
	}
	if p.Header != (Header{Alg: "EdDSA", Kid: k.KID, Typ: "JWT"}) {
		t.Fatalf("header %+v", p.Header)
	}
	// signed by a key with the right kid but another secret: bad signature
	forged, _ := SignJWT(&Key{KID: k.KID, Public: other.Public, private: other.private}, []byte(`{"a":1}`))
	p, _ = ParseJWT(forged)
	if _, err := p.VerifySignature(src); !errors.Is(err, ErrSignature) {
		t.Fatalf("forged: %v", err)
	}
	// alg none, an unknown kid, malformed input
	parts := strings.Split(tok, ".")
	none := b64.EncodeToString([]byte(`{"alg":"none","kid":"`+k.KID+`"}`)) + "." + parts[1] + "."
	if p, err := ParseJWT(none); err == nil {
		if _, err := p.VerifySignature(src); !errors.Is(err, ErrAlgorithm) {
			t.Fatalf("alg none: %v", err)
		}
	}
	unknown, _ := SignJWT(other, []byte(`{}`))
	p, _ = ParseJWT(unknown)
	if _, err := p.VerifySignature(src); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("unknown kid: %v", err)
	}
	for _, bad := range []string{"", "a.b", "a.b.c.d", parts[0] + "." + parts[1] + "=." + parts[2], "!!." + parts[1] + "." + parts[2]} {
		if _, err := ParseJWT(bad); err == nil {
			t.Fatalf("%q parsed", bad)
		}
	}
	crit := b64.EncodeToString([]byte(`{"alg":"EdDSA","kid":"x","crit":["b64"]}`)) + "." + parts[1] + "." + parts[2]
	if _, err := ParseJWT(crit); err == nil {
		t.Fatal("crit header accepted")
	}
}

func samplePNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.RGBA{200, 10, 10, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestBakeAndUnbake(t *testing.T) {
	src := samplePNG(t)
	if _, err := Unbake(src); !errors.Is(err, ErrNotBaked) {
		t.Fatalf("plain PNG: %v", err)
	}
	baked, err := Bake(src, "header.payload.sig")
	if err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(bytes.NewReader(baked)); err != nil || img.Bounds().Dx() != 4 {
		t.Fatalf("baked image does not decode: %v", err)
	}
	if tok, err := Unbake(baked); err != nil || tok != "header.payload.sig" {
		t.Fatalf("unbake: %q %v", tok, err)
	}
	// baking again replaces the credential: one chunk only
	again, _ := Bake(baked, "second.token.here")
	if tok, _ := Unbake(again); tok != "second.token.here" || bytes.Count(again, []byte(BakeKeyword)) != 1 {
		t.Fatalf("rebake: %q, %d chunks", tok, bytes.Count(again, []byte(BakeKeyword)))
	}
	// the chunk sits before IEND
	if i, j := bytes.Index(again, []byte("iTXt")), bytes.Index(again, []byte("IEND")); i < 0 || i > j {
		t.Fatal("iTXt after IEND")
	}
	if _, err := Unbake([]byte("GIF89a...")); !errors.Is(err, ErrNotPNG) {
		t.Fatalf("not a PNG: %v", err)
	}
	broken := append([]byte{}, baked...)
	broken[len(broken)/2] ^= 0xff
	if _, err := Unbake(broken); !errors.Is(err, ErrNotPNG) {
		t.Fatalf("corrupt PNG: %v", err)
	}
}

func sampleInput() Input {
	exp := time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC)
	return Input{Origin: "https://badges.example", PublicVerificationID: strings.Repeat("a", 32), StatusIndex: 7, UserID: "u1",
		Email: "Ada@Example.com", BadgeID: "b1", BadgeName: "Go", BadgeDescription: "Go skills", BadgeCriteria: "Pass the quiz",
		BadgeCategory: "Development", BadgeLevel: "beginner", GrantedAt: time.Date(2026, 11, 22, 10, 30, 15, 500, time.UTC), ExpiresAt: &exp}
}

func TestCredentialShape(t *testing.T) {
	p := Build(sampleInput())
	raw, _ := json.Marshal(p)
	if probs := Validate(raw); len(probs) > 0 {
		t.Fatalf("our own credential: %v", probs)
	}
	if p.Exp != time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC).Unix() || p.ValidUntil != "2027-06-01T00:00:00Z" || p.ValidFrom != "2026-11-22T10:30:15Z" ||
		p.Nbf != time.Date(2026, 11, 22, 10, 30, 15, 0, time.UTC).Unix() ||
		!p.NamesStatusLists("https://badges.example", sampleInput().StatusIndex) || p.StatusIndexOf() != sampleInput().StatusIndex {
		t.Fatalf("dates and status: %+v", p.Claims)
	}
	id := p.CredentialSubject.Identifier[0]
	if id.IdentityHash != IdentityHash("ada@example.com", id.Salt) || len(id.Salt) != 32 {
		t.Fatal("identity hash")
	}
	// every required member, removed in turn, is reported
	cases := map[string]func(m map[string]any){
		"@context":            func(m map[string]any) { m["@context"] = []any{ContextOB3, ContextVC} },
		"type":                func(m map[string]any) { m["type"] = []any{"VerifiableCredential"} },
		"issuer.name":         func(m map[string]any) { delete(m["issuer"].(map[string]any), "name") },
		"validFrom":           func(m map[string]any) { delete(m, "validFrom") },
		"name":                func(m map[string]any) { m["name"] = "" },
		"credentialSubject":   func(m map[string]any) { delete(m, "credentialSubject") },
		"achievement":         func(m map[string]any) { delete(m["credentialSubject"].(map[string]any), "achievement") },
		"criteria":            func(m map[string]any) { delete(sub(m)["achievement"].(map[string]any), "criteria") },
		"achievement.type":    func(m map[string]any) { sub(m)["achievement"].(map[string]any)["type"] = []any{"Badge"} },
		"subject id":          func(m map[string]any) { delete(sub(m), "id"); delete(sub(m), "identifier") },
		"jti":                 func(m map[string]any) { m["jti"] = "other" },
		"nbf":                 func(m map[string]any) { m["nbf"] = 1 },
		"exp":                 func(m map[string]any) { delete(m, "exp") },
		"validUntil < from":   func(m map[string]any) { m["validUntil"] = "2020-01-01T00:00:00Z" },
		"identityHash format": func(m map[string]any) { sub(m)["identifier"].([]any)[0].(map[string]any)["identityHash"] = "abc" },
	}
	for name, mutate := range cases {
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		mutate(m)
		b, _ := json.Marshal(m)
		if probs := Validate(b); len(probs) == 0 {
			t.Errorf("%s: not reported", name)
		}
	}
}

func sub(m map[string]any) map[string]any { return m["credentialSubject"].(map[string]any) }
