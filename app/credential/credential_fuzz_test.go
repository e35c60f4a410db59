package credential

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"
)

// FuzzParseJWT: any token is refused or split into a header and a JSON object payload;
// a token that was not signed by our key never verifies.
func FuzzParseJWT(f *testing.F) {
	k, err := KeyFromSeed(NewSeed())
	if err != nil {
		f.Fatal(err)
	}
	good, _ := SignJWT(k, []byte(`{"iss":"https://meritmark.example/issuer","nbf":1}`))
	for _, s := range []string{good, good + "x", "a.b.c", "..", "", "eyJhbGciOiJub25lIn0.eyJ4IjoxfQ.", strings.Replace(good, ".", "..", 1),
		"eyJhbGciOiJFZERTQSIsImNyaXQiOlsiYiJdfQ.e30.AA", "eyJhbGciOiJub25lIiwia2lkIjoieCJ9.W10.AA"} {
		f.Add(s)
	}
	keys := func(kid string) *Key {
		if kid == k.KID {
			return k
		}
		return nil
	}
	f.Fuzz(func(t *testing.T, tok string) {
		p, err := ParseJWT(tok)
		if err != nil {
			return
		}
		if !json.Valid(p.Payload) || p.Payload[0] != '{' {
			t.Fatalf("payload %q", p.Payload)
		}
		if _, err := p.VerifySignature(keys); err == nil && strings.TrimSpace(tok) != good {
			t.Fatalf("a token we did not sign verified: %q", tok)
		}
		_, _ = Decode(p.Payload)
		_ = Validate(p.Payload)
	})
}

// FuzzUnbake: reading a credential out of any PNG never panics, and what Bake puts in
// comes back out unchanged.
func FuzzUnbake(f *testing.F) {
	var img bytes.Buffer
	_ = png.Encode(&img, image.NewGray(image.Rect(0, 0, 2, 2)))
	baked, _ := Bake(img.Bytes(), "a.b.c")
	f.Add(img.Bytes(), "h.p.s")
	f.Add(baked, "x")
	f.Add([]byte("\x89PNG\r\n\x1a\n\xff\xff\xff\xffIHDR"), "")
	f.Fuzz(func(t *testing.T, data []byte, jwt string) {
		_, _ = Unbake(data)
		out, err := Bake(data, jwt)
		if err != nil {
			return
		}
		got, err := Unbake(out)
		if err != nil || got != jwt {
			t.Fatalf("baked %q, read back %q (%v)", jwt, got, err)
		}
	})
}
