package credential

import "testing"

func TestOriginsAndTrust(t *testing.T) {
	for in, want := range map[string]string{
		"https://Meritmark.example/":        "https://meritmark.example",
		"https://meritmark.example:443/x":   "https://meritmark.example",
		"http://127.0.0.1:8080":             "http://127.0.0.1:8080",
		"did:web:localhost%3A8443":          "https://localhost:8443",
		"did:web:meritmark.example#key-1":   "https://meritmark.example",
		"did:web:meritmark.example:u:alice": "https://meritmark.example",
	} {
		if got, err := NormalizeOrigin(in); err != nil || got != want {
			t.Errorf("NormalizeOrigin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "meritmark.example", "ftp://x", "https://user@x.example", "did:web:", "did:key:z6Mk", "javascript:alert(1)"} {
		if got, err := NormalizeOrigin(bad); err == nil {
			t.Errorf("NormalizeOrigin(%q) = %q, want an error", bad, got)
		}
	}
	ours := "http://127.0.0.1:8080"
	if !SameIssuer(ours, "did:web:127.0.0.1%3A8080") || SameIssuer(ours, "did:web:127.0.0.1%3A8081") ||
		!SameIssuer(ours, "http://127.0.0.1:8080/issuer") || SameIssuer(ours, "https://127.0.0.1:8080/issuer") ||
		SameIssuer(ours, "http://127.0.0.1:8080.evil.example/issuer") || SameIssuer(ours, "") || SameIssuer(ours, "kid-thumbprint") {
		t.Fatal("SameIssuer")
	}

	trusted := []string{"https://meritmark.example"}
	id, iss := "https://meritmark.example/credentials/abc", "https://meritmark.example/issuer"
	cases := []struct {
		name                 string
		id, issuer, jwt, kid string
		ok                   bool
		detail               string
	}{
		{"ours", id, iss, iss, "thumbprint_-1", true, "issued by the trusted issuer https://meritmark.example"},
		{"ours, did:web and a kid URL", id, "did:web:meritmark.example", "did:web:meritmark.example", "https://meritmark.example/.well-known/jwks/1", true, ""},
		{"another issuer", id, "https://evil.example/issuer", "https://evil.example/issuer", "k", false,
			"not trusted: the credential names the issuer https://evil.example/issuer; trusted: https://meritmark.example"},
		{"iss elsewhere", id, iss, "https://evil.example/issuer", "k", false, "not trusted: iss https://evil.example/issuer differs from issuer.id https://meritmark.example/issuer"},
		{"id elsewhere", "https://evil.example/credentials/abc", iss, iss, "k", false,
			"not trusted: the credential's id https://evil.example/credentials/abc is not on the issuer https://meritmark.example"},
		{"key elsewhere", id, iss, iss, "https://evil.example/jwks.json#k", false,
			"not trusted: the signing key https://evil.example/jwks.json#k is not published by the issuer https://meritmark.example"},
		{"key of another did", id, iss, iss, "did:web:evil.example#k", false, ""},
		{"key of another method", id, iss, iss, "did:key:z6Mkabc", false, ""},
		{"no issuer", id, "", "", "k", false, "not trusted: the credential names the issuer (none); trusted: https://meritmark.example"},
	}
	for _, c := range cases {
		v := CheckTrust(trusted, c.id, c.issuer, c.jwt, c.kid)
		if v.Trusted != c.ok || (c.detail != "" && v.Detail != c.detail) || (v.Trusted && v.Issuer != trusted[0]) {
			t.Errorf("%s: %+v", c.name, v)
		}
	}
	if v := CheckTrust(nil, id, iss, iss, "k"); v.Trusted {
		t.Fatal("trusted with no trusted issuer")
	}
	t.Setenv("MERITMARK_BASE_URL", "")
	t.Setenv("MERITMARK_ADDR", ":9090")
	if got := DefaultTrustedIssuer(); got != "http://localhost:9090" {
		t.Fatalf("default issuer %q", got)
	}
	t.Setenv("MERITMARK_BASE_URL", "https://Badges.example.org/")
	if got := DefaultTrustedIssuer(); got != "https://badges.example.org" {
		t.Fatalf("default issuer %q", got)
	}
}
