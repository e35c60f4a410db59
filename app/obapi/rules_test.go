package obapi

import (
	"strings"
	"testing"
)

func TestCheckRedirectURI(t *testing.T) {
	for _, ok := range []string{"https://w.example/cb", "https://w.example:8443/cb?x=1", "http://127.0.0.1:9/cb", "http://localhost/cb", "http://[::1]:7/cb"} {
		if msg := CheckRedirectURI(ok); msg != "" {
			t.Errorf("%s refused: %s", ok, msg)
		}
	}
	for _, bad := range []string{"", "http://w.example/cb", "https://w.example/cb#f", "/cb", "javascript:alert(1)", "https://u:p@w.example/cb",
		"ftp://w.example/cb", "com.wallet:/cb", "http://127.0.0.1.evil.example/cb", "https://" + strings.Repeat("a", 2001)} {
		if CheckRedirectURI(bad) == "" {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRegisteredScopes(t *testing.T) {
	got, ok := RegisteredScopes("")
	if !ok || len(got) != 2 {
		t.Fatalf("default: %v", got)
	}
	got, ok = RegisteredScopes(ScopeProfileUpdate + " " + ScopeProfileRead)
	if !ok || len(got) != 1 || got[0] != ScopeProfileRead {
		t.Fatalf("subset: %v", got)
	}
	if _, ok := RegisteredScopes(ScopeCredentialUpsert); ok {
		t.Fatal("upsert alone accepted")
	}
}

func TestParsePaging(t *testing.T) {
	if l, o, msg := ParsePaging("", ""); l != DefaultLimit || o != 0 || msg != "" {
		t.Fatal(l, o, msg)
	}
	if l, o, msg := ParsePaging("5", "10"); l != 5 || o != 10 || msg != "" {
		t.Fatal(l, o, msg)
	}
	for _, c := range [][2]string{{"0", ""}, {"101", ""}, {"x", ""}, {"", "-1"}, {"", "1.5"}, {"-3", ""}} {
		if _, _, msg := ParsePaging(c[0], c[1]); msg == "" {
			t.Errorf("%v accepted", c)
		}
	}
}

func TestLinkHeader(t *testing.T) {
	b := "https://m.example/ims/ob/v3p0/credentials"
	cases := []struct {
		limit, offset, total int
		want                 string
	}{
		{2, 0, 5, `<` + b + `?limit=2&offset=2>; rel="next", <` + b + `?limit=2&offset=4>; rel="last", <` + b + `?limit=2&offset=0>; rel="first"`},
		{2, 2, 5, `<` + b + `?limit=2&offset=4>; rel="next", <` + b + `?limit=2&offset=4>; rel="last", <` + b + `?limit=2&offset=0>; rel="first", <` + b + `?limit=2&offset=0>; rel="prev"`},
		{2, 4, 5, `<` + b + `?limit=2&offset=4>; rel="last", <` + b + `?limit=2&offset=0>; rel="first", <` + b + `?limit=2&offset=2>; rel="prev"`},
		{20, 0, 0, `<` + b + `?limit=20&offset=0>; rel="last", <` + b + `?limit=20&offset=0>; rel="first"`},
		{3, 1, 4, `<` + b + `?limit=3&offset=3>; rel="last", <` + b + `?limit=3&offset=0>; rel="first", <` + b + `?limit=3&offset=0>; rel="prev"`},
	}
	for _, c := range cases {
		if got := LinkHeader(b, c.limit, c.offset, c.total); got != c.want {
			t.Errorf("%d/%d/%d:\n got %s\nwant %s", c.limit, c.offset, c.total, got, c.want)
		}
	}
}

func TestCleanClientName(t *testing.T) {
	for in, want := range map[string]string{
		"Pocket Wallet":                   "Pocket Wallet",
		"  Pocket \t\n Wallet  ":          "Pocket Wallet",
		"Pock\u200bet\u200d Wal\u00adlet": "Pocket Wallet",
		"Wallet\u202e\u2066 evil\u2069":   "Wallet evil",
		"Bell\x07\x00 \x1b[31mred\x1b[0m": "Bell [31mred[0m",
		"\ufeffBOM\u2060 \u180eMongolian": "BOM Mongolian",
		"\u200b\u200c\u200d":              "",
	} {
		if got := CleanClientName(in); got != want {
			t.Errorf("CleanClientName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClaimsSite(t *testing.T) {
	for _, name := range []string{"Meritmark", "meritmark wallet", "Official MERIT-MARK", "Merit mark badges", "M.e.r.i.t.m.a.r.k"} {
		if !ClaimsSite(name, "Meritmark") {
			t.Errorf("%q passes as not claiming the site", name)
		}
	}
	for _, name := range []string{"Pocket Wallet", "Merit Wallet", "Mark's badges"} {
		if ClaimsSite(name, "Meritmark") {
			t.Errorf("%q refused", name)
		}
	}
}

func TestCheckCodeChallenge(t *testing.T) {
	ok := "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" // RFC 7636 appendix B
	if msg := CheckCodeChallenge(ok); msg != "" {
		t.Fatalf("RFC 7636 example refused: %s", msg)
	}
	for _, bad := range []string{"", "abc", ok[:42], strings.Repeat("a", 129), ok[:42] + "=", ok[:42] + "/", ok[:42] + " "} {
		if CheckCodeChallenge(bad) == "" {
			t.Errorf("%q accepted", bad)
		}
	}
}
