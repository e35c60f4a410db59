package auth_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"meritmark/app/auth"
)

func TestNormalizeAndValidEmail(t *testing.T) {
	if got := auth.NormalizeEmail("  Ann.Lee@Example.COM \t"); got != "ann.lee@example.com" {
		t.Fatalf("NormalizeEmail = %q", got)
	}
	for s, want := range map[string]bool{
		"ann@example.com": true, "a.b+tag@sub.example.io": true, "x@y.co": true,
		"": false, "ann": false, "ann@": false, "@example.com": false, "ann@example": false,
		"ann@@example.com": false, "ann@example..com": false, "ann @example.com": false, "Ann <ann@example.com>": false,
		"ann@example.com.": false, "ann@.example.com": false, "ann@-example.com": false,
		strings.Repeat("a", 250) + "@x.io": false, "ann@exa\nmple.com": false,
	} {
		if got := auth.ValidEmail(s); got != want {
			t.Errorf("ValidEmail(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestPasswordProblem(t *testing.T) {
	for pw, want := range map[string]string{
		"":                                   auth.MsgPasswordRequired,
		"1234567":                            auth.MsgPasswordShort,
		"  short  ":                          auth.MsgPasswordShort, // 5 characters between the spaces
		"        ":                           auth.MsgPasswordShort, // eight spaces
		"ééééééé":                            auth.MsgPasswordShort, // 7 characters, 14 bytes
		"12345678":                           auth.MsgPasswordCommon,
		"password":                           auth.MsgPasswordCommon,
		"password123":                        auth.MsgPasswordCommon,
		"qwertyuiop":                         auth.MsgPasswordCommon,
		"iloveyou1":                          auth.MsgPasswordCommon,
		"passw0rd!":                          auth.MsgPasswordCommon,
		"éééééééé":                           auth.MsgPasswordCommon, // one character repeated
		"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz": auth.MsgPasswordCommon,
		"8chars!!":                           "",
		"correct horse battery":              "",
		"Tr0ub4dor&3":                        "",
		strings.Repeat("xy7", 42) + "qz":     "",
		strings.Repeat("x", 129):             auth.MsgPasswordLong,
		strings.Repeat("é", 129):             auth.MsgPasswordLong,
		"vélo rouge du matin":                "",
	} {
		if got := auth.PasswordProblem(pw); got != want {
			t.Errorf("PasswordProblem(%q) = %q, want %q", pw, got, want)
		}
	}
	// the account's own email and name are refused
	for _, pw := range []string{"ann.lee.smith@example.com", "Ann.Lee.Smith", "annleesmith", "Ann Lee Smith"} {
		if got := auth.PasswordProblemFor(pw, "ann.lee.smith@example.com", "Ann Lee Smith"); got != auth.MsgPasswordPersonal {
			t.Errorf("PasswordProblemFor(%q) = %q", pw, got)
		}
	}
}

func TestCleanName(t *testing.T) {
	if got := auth.CleanName("  Ann \t\n  Lee\x00 "); got != "Ann Lee" {
		t.Fatalf("CleanName = %q", got)
	}
}

func TestSafeNext(t *testing.T) {
	for in, want := range map[string]string{
		"":                      "/",
		"/profile":              "/profile",
		"/badges/abc?x=1#frag":  "/badges/abc?x=1#frag",
		"//evil.example":        "/",
		"/\\evil.example":       "/",
		"https://evil.example/": "/",
		"javascript:alert(1)":   "/",
		"profile":               "/",
		"/login":                "/",
		"/signup?next=/x":       "/",
		"/a\r\nSet-Cookie: x":   "/",
		"/%2F%2Fevil.example":   "/%2F%2Fevil.example", // a path on this site
	} {
		if got := auth.SafeNext(in); got != want {
			t.Errorf("SafeNext(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTokensAndLinks(t *testing.T) {
	a, b := auth.NewToken(), auth.NewToken()
	if a == b {
		t.Fatal("two tokens are equal")
	}
	raw, err := base64.RawURLEncoding.DecodeString(a)
	if err != nil || len(raw) < 16 {
		t.Fatalf("token %q: %d bytes, %v (need at least 128 bits)", a, len(raw), err)
	}
	if h := auth.HashToken(a); len(h) != 64 || h == a || strings.Contains(h, a) {
		t.Fatalf("HashToken = %q", h)
	}
	if got := auth.ResetLink("https://mm.example/", "a+b@x.io", "tok_-1"); got != "https://mm.example/reset-password?email=a%2Bb%40x.io&token=tok_-1" {
		t.Fatalf("ResetLink = %q", got)
	}
}

func TestPasswordHashRoundTrip(t *testing.T) {
	h, err := auth.HashPassword("correct horse")
	if err != nil || !strings.HasPrefix(h, "$argon2id$") || strings.Contains(h, "correct horse") {
		t.Fatalf("hash %q, %v", h, err)
	}
	if ok, err := auth.CheckPassword(h, "correct horse"); !ok || err != nil {
		t.Fatal("the right password was refused")
	}
	if ok, _ := auth.CheckPassword(h, "correct horsE"); ok {
		t.Fatal("a wrong password was accepted")
	}
}
