package auth_test

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"meritmark/app/auth"
)

// FuzzSafeNext: the page a sign-in sends you back to is always on this site, however the
// next parameter was crafted (absolute, protocol-relative, backslashes, tabs, encoded).
func FuzzSafeNext(f *testing.F) {
	for _, s := range []string{"/profile?tab=x", "", "/", "//evil.com", "/\\evil.com", "\\\\evil.com", "https://evil.com", "javascript:alert(1)",
		"/\t/evil.com", "/%2F%2Fevil.com", "/login", "/signup?x", "/ /evil.com", "http:/evil.com", "/..//evil.com", "/\r\nSet-Cookie: x",
		"/profile#frag", "/%5cevil.com", "\x00/x", "/\u3000/evil.com"} {
		f.Add(s)
	}
	site, _ := url.Parse("https://meritmark.example/login")
	f.Fuzz(func(t *testing.T, next string) {
		out := auth.SafeNext(next)
		if out != "/" && out != next {
			t.Fatalf("SafeNext(%q) = %q: neither the input nor /", next, out)
		}
		if !strings.HasPrefix(out, "/") || strings.HasPrefix(out, "//") || strings.HasPrefix(out, "/\\") ||
			strings.ContainsAny(out, "\\\r\n\t") {
			t.Fatalf("SafeNext(%q) = %q", next, out)
		}
		u, err := url.Parse(out)
		if err != nil {
			t.Fatalf("SafeNext(%q) = %q does not parse", next, out)
		}
		if to := site.ResolveReference(u); to.Host != site.Host || to.Scheme != site.Scheme || to.User != nil {
			t.Fatalf("SafeNext(%q) = %q leads to %s", next, out, to)
		}
		if p := u.Path; p == "/login" || p == "/signup" {
			t.Fatalf("SafeNext(%q) = %q: back to the sign-in screens", next, out)
		}
	})
}

// FuzzSignupFields: accepted emails are plain addresses, names are clean text.
func FuzzSignupFields(f *testing.F) {
	for _, s := range []string{"ann@x.io", "Ann <ann@x.io>", "ann@x", "a@b.c", "\"a b\"@x.io", "ann@-x.io", "ann@x..io", "a@x.io\r\nBcc: b@y.io",
		"ann@[127.0.0.1]", strings.Repeat("a", 250) + "@x.io", "ANN@X.IO", "ännä@x.io", "a@x.io,b@y.io", "<script>@x.io"} {
		f.Add(s, "  Ann\t\n Lee ", "password123")
	}
	f.Fuzz(func(t *testing.T, email, name, pw string) {
		e := auth.NormalizeEmail(email)
		if auth.ValidEmail(e) {
			if len(e) > auth.MaxEmail || strings.Count(e, "@") != 1 || strings.ContainsAny(e, " \t\r\n<>()[],;:\"\\") || e != strings.ToLower(e) {
				t.Fatalf("accepted email %q", e)
			}
			if at := strings.IndexByte(e, '@'); at < 1 || !strings.Contains(e[at+1:], ".") || strings.HasSuffix(e, ".") {
				t.Fatalf("accepted email %q", e)
			}
		}
		n := auth.CleanName(name)
		if strings.TrimSpace(n) != n || strings.Contains(n, "  ") || strings.ContainsFunc(n, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Fatalf("CleanName(%q) = %q", name, n)
		}
		if auth.CleanName(n) != n {
			t.Fatalf("CleanName not stable: %q -> %q -> %q", name, n, auth.CleanName(n))
		}
		if p := auth.PasswordProblem(pw); p == "" {
			if c := utf8.RuneCountInString(pw); c < auth.MinPassword || c > auth.MaxPassword {
				t.Fatalf("accepted a password of %d characters", c)
			}
		}
	})
}
