package verify_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

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
		at, ok := verify.ParseExpiry(s)
		if ok && (at.Location() != time.UTC || at.Nanosecond() != 0) {
			t.Fatalf("ParseExpiry(%q) = %v", s, at)
		}
	})
}
