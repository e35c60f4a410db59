package verify_test

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"regexp"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/grant"
	"meritmark/app/verify"
)

var (
	verificationRe = regexp.MustCompile(`^MM-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`)
	publicRe       = regexp.MustCompile(`^[a-z2-7]{32}$`)
)

// FuzzNormalizeID: whatever is typed or pasted into the verify form or the /verify/{id}
// path, the id looked up is malformed (answered like an unknown id) or exactly one of the
// two issued shapes, reading it again gives the same id, and nothing else from the input
// (a path, a query, markup) survives into it.
func FuzzNormalizeID(f *testing.F) {
	for _, s := range []string{"MM-7K2D-9QXA-4PZM", "mm 7k2d 9qxa 4pzm", "MM-OIL0-0000-0000", "abcdefghijklmnopqrstuvwxyz234567",
		"https://meritmark.example/verify/abcdefghijklmnopqrstuvwxyz234567", "https://x/credentials/abcdefghijklmnopqrstuvwxyz234567.json",
		"../../etc/passwd", "<script>alert(1)</script>", "MM-7K2D-9QXA-4PZM/../../x", "%2e%2e%2fMM-7K2D-9QXA-4PZM", "MM\u20137K2D\u20149QXA 4PZM",
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "MM-UUUU-UUUU-UUUU", strings.Repeat("a", 400), "MM-ıııı-ſſſſ-0000", "?id=MM-7K2D-9QXA-4PZM"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		kind, id, ok := verify.NormalizeID(raw)
		if !ok {
			if kind != "" || id != "" {
				t.Fatalf("refused %q but answered %q %q", raw, kind, id)
			}
			return
		}
		switch kind {
		case verify.KindVerification:
			if !verificationRe.MatchString(id) {
				t.Fatalf("%q -> verification id %q", raw, id)
			}
		case verify.KindPublic:
			if !publicRe.MatchString(id) {
				t.Fatalf("%q -> public id %q", raw, id)
			}
		default:
			t.Fatalf("%q -> kind %q", raw, kind)
		}
		if k2, id2, ok2 := verify.NormalizeID(id); !ok2 || k2 != kind || id2 != id {
			t.Fatalf("not stable: %q -> %q -> %q", raw, id, id2)
		}
		if m := verify.MaskEmail(raw); strings.Contains(m, "@") && strings.Count(m, "***") < 1 {
			t.Fatalf("MaskEmail(%q) = %q", raw, m)
		}
	})
}

// FuzzParseExpiry: an admin's expiry is a time in UTC or refused.
func FuzzParseExpiry(f *testing.F) {
	for _, s := range []string{"2027-01-01", "2027-01-01T10:00:00+02:00", "tomorrow", "", "9999-12-31T23:59:59.999999999Z", "0000-01-01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		at, ok := grant.ParseExpiry(s)
		if ok && (at.Location() != time.UTC || at.Nanosecond() != 0) {
			t.Fatalf("ParseExpiry(%q) = %v", s, at)
		}
	})
}

// FuzzParseUpload: whatever file is dropped on /verify-badge, reading it never panics; it is
// refused with a message for the visitor, or it is a credential in one of the three forms
// with its claims decoded (a PNG or a JWT carries a parsed JWT, a JSON one a proof).
func FuzzParseUpload(f *testing.F) {
	var img bytes.Buffer
	_ = png.Encode(&img, image.NewGray(image.Rect(0, 0, 2, 2)))
	k, _ := credential.KeyFromSeed(credential.NewSeed())
	tok, _, _ := credential.Sign(k, credential.Input{Origin: "https://meritmark.example", PublicVerificationID: strings.Repeat("a", 32),
		StatusIndex: 7, UserID: "u", Email: "a@b.c", BadgeID: "b", BadgeName: "Go", GrantedAt: time.Unix(1_800_000_000, 0)})
	baked, _ := credential.Bake(img.Bytes(), tok)
	p, _ := credential.ParseJWT(tok)
	withProof := strings.Replace(string(p.Payload), "{", `{"proof":{"type":"DataIntegrityProof","verificationMethod":"did:web:meritmark.example#k"},`, 1)
	for _, s := range [][]byte{baked, img.Bytes(), []byte(tok), []byte(" " + tok + "\n"), p.Payload, []byte(withProof), []byte("{}"), []byte("a.b.c"),
		[]byte("\xef\xbb\xbf" + withProof), []byte(`{"id":"x","type":"OpenBadgeCredential","issuer":{},"proof":[1,{}]}`), baked[:40]} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		up, err := verify.ParseUpload(data)
		if err != nil {
			var bad *verify.ErrUpload
			apptest.Expect(t, "refused without a message for the visitor", err,
				apptest.True("errors.As(err, &bad)", errors.As(err, &bad)),
				apptest.True("bad.Msg != \"\"", bad.Msg != ""))
			if up != nil {
				t.Fatal("refused but answered an upload")
			}
			return
		}
		apptest.Expect(t, "accepted without a credential id", up,
			apptest.True("up.Payload != nil", up.Payload != nil))
		apptest.Expect(t, "accepted without a credential id", up,
			apptest.True("up.Payload.ID != \"\"", up.Payload.ID != ""))
		switch up.Format {
		case verify.FormatPNG, verify.FormatJWT:
			if up.JWT == nil || up.JSON != nil {
				t.Fatalf("%s without its JWT", up.Format)
			}
		case verify.FormatJSON:
			if up.JSON == nil || !bytes.Contains(up.JSON, []byte(`"proof"`)) {
				t.Fatal("a JSON credential accepted without a proof")
			}
		default:
			t.Fatalf("format %q", up.Format)
		}
	})
}
