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

// FuzzVerifyProof: any JSON document is refused or verified without a panic; only the
// document we signed verifies.
func FuzzVerifyProof(f *testing.F) {
	ed, err := KeyFromSeed(NewSeed())
	if err != nil {
		f.Fatal(err)
	}
	in := sampleInput()
	es, _ := ES256KeyFromSecret(strings.TrimPrefix(NewES256Secret(), ES256Prefix))
	s, err := SignBoth(ed, es, in, in.GrantedAt)
	if err != nil {
		f.Fatal(err)
	}
	good := string(s.LD)
	var gm map[string]any
	_ = json.Unmarshal(s.LD, &gm)
	delete(gm, "proof")
	goodNQ, err := Canonicalize(gm)
	if err != nil {
		f.Fatal(err)
	}
	for _, x := range []string{good, strings.Replace(good, "Go", "Gö", 1), `{}`, `{"proof":[{}]}`, `[]`, `{"@context":"http://x/","proof":{"type":"DataIntegrityProof","cryptosuite":"eddsa-rdfc-2022","proofPurpose":"assertionMethod","proofValue":"z11"}}`,
		strings.Replace(good, `"@context": [`, `"@context": [{"@vocab":"http://x/"},`, 1), strings.Replace(good, "https://www.w3.org/ns/credentials/v2", "https://evil.example/v2", 1)} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if len(doc) > 1<<16 {
			return
		}
		// a document that verifies says what we signed: the same RDF dataset (key order,
		// spacing and set order may differ)
		if _, err := VerifyProof([]byte(doc), func(string) *Key { return ed }); err == nil && doc != good {
			var m map[string]any
			if json.Unmarshal([]byte(doc), &m) != nil {
				t.Fatalf("verified non-JSON %q", doc)
			}
			delete(m, "proof")
			got, err1 := Canonicalize(m)
			if err1 != nil || got != goodNQ {
				t.Fatalf("a document we did not sign verified: %q", doc)
			}
		}
	})
}
