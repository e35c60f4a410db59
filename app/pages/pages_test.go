package pages_test

import (
	"regexp"
	"strings"
	"testing"

	"meritmark/app/apptest"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// robotsAllows evaluates robots.txt rules for path the way RFC 9309 crawlers do: the
// longest matching rule wins, Allow on a tie; "*" matches anything, a final "$" ends it.
func robotsAllows(rules, path string) bool {
	best, allow := -1, true
	for _, line := range strings.Split(rules, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		if (k != "allow" && k != "disallow") || v == "" {
			continue
		}
		re := "^" + strings.ReplaceAll(regexp.QuoteMeta(strings.TrimSuffix(v, "$")), `\*`, ".*")
		if strings.HasSuffix(v, "$") {
			re += "$"
		}
		if regexp.MustCompile(re).MatchString(path) && (len(v) > best || (len(v) == best && k == "allow")) {
			best, allow = len(v), k == "allow"
		}
	}
	return allow
}

// TestRobotsKeepsPublicPagesOpen: the public profile /profile/{id} (what Share Profile
// copies) must be crawlable, or link-preview bots give its shares no card; the private
// pages are disallowed one by one.
func TestRobotsKeepsPublicPagesOpen(t *testing.T) {
	e := apptest.New(t)
	body := e.Client().Abs("GET", "/robots.txt", nil).Expect(200).Text()
	if !strings.Contains(body, "Sitemap: "+e.URL+"/sitemap.xml") {
		t.Fatalf("robots.txt: %s", body)
	}
	for _, p := range []string{"/", "/badges", "/badges/5f1b2c3d4e5f6a7b8c9d0e1f", "/profile/5f1b2c3d4e5f6a7b8c9d0e1f", "/verify/abc", "/verify-badge",
		"/hall-of-fame", "/credentials/abc/card.png", "/media/avatars/5f1b2c3d4e5f6a7b8c9d0e1f.png", "/static/images/og-card.png", "/privacypolicy"} {
		if !robotsAllows(body, p) {
			t.Errorf("%s is disallowed", p)
		}
	}
	for _, p := range []string{"/profile", "/admin", "/admin/x", "/backend/api/v1/auth/me", "/quiz/x", "/proof-upload/x", "/resume-upload/x",
		"/payment/x", "/payment-success/x", "/payment-failed/x", "/reset-password?email=a&token=b"} {
		if robotsAllows(body, p) {
			t.Errorf("%s is allowed", p)
		}
	}
}

// TestLinkPreviewImageIsDescribed: every page's og:image comes with its size and a text
// alternative (og:image:width, og:image:height, og:image:alt, twitter:image:alt).
func TestLinkPreviewImageIsDescribed(t *testing.T) {
	e := apptest.New(t)
	for _, p := range []string{"/", "/about", "/badges"} {
		html := e.Client().Abs("GET", p, nil).Expect(200).Text()
		for _, want := range []string{`<meta property="og:image" content="` + e.URL + `/static/images/og-card.png">`,
			`<meta property="og:image:width" content="1200">`, `<meta property="og:image:height" content="630">`,
			`<meta property="og:image:alt" content="Meritmark: verified professional badges">`,
			`<meta name="twitter:image:alt" content="Meritmark: verified professional badges">`} {
			if !strings.Contains(html, want) {
				t.Errorf("%s lacks %s", p, want)
			}
		}
	}
}
