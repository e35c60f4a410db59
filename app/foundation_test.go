package app_test

import (
	"net/http"
	"strings"
	"testing"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/web"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func TestHealthAndReady(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	if h := c.Abs("GET", "/healthz", nil).Expect(200).Text(); !strings.Contains(h, `"version":"`+app.Version) {
		t.Fatalf("healthz names no version: %s", h)
	}
	r := c.Abs("GET", "/readyz", nil).Expect(200)
	if !strings.Contains(r.Text(), "ready") {
		t.Fatalf("readyz body %s", r.Text())
	}
	e.DB.Close()
	r = c.Abs("GET", "/readyz", nil)
	if r.Status != http.StatusServiceUnavailable {
		t.Fatalf("readyz with the database closed: %d", r.Status)
	}
}

func TestNotFound(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	r, props := c.Page("/no/such/page")
	r.Expect(404)
	if apptest.PageName(r) != "NotFoundPage" || props["page"].(map[string]any)["path"] != "/no/such/page" {
		t.Fatalf("not the 404 page: %s", r.Text())
	}
	c.Get("/no-such-endpoint").ExpectMsg(404, "Not found.")
}

func TestMarketingPagesRender(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	for path, page := range map[string]string{
		"/": "HomePage", "/about": "AboutPage", "/services": "ServicesPage", "/contact": "ContactPage",
		"/shippingpolicy": "PolicyPage", "/termsandconditions": "PolicyPage", "/cancellationsandrefunds": "PolicyPage", "/privacypolicy": "PolicyPage",
	} {
		r, _ := c.Page(path)
		r.Expect(200)
		if got := apptest.PageName(r); got != page {
			t.Errorf("%s rendered %s, want %s", path, got, page)
		}
		body := r.Text()
		for _, want := range []string{`<link rel="canonical" href="` + e.URL + path + `">`, `property="og:title"`, `name="twitter:card"`, `<meta name="description"`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: missing %s", path, want)
			}
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	e := apptest.New(t)
	r := e.Client().Abs("GET", "/", nil)
	for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options", "X-Request-ID"} {
		if r.Header.Get(h) == "" {
			t.Errorf("missing header %s", h)
		}
	}
	if !strings.Contains(r.Header.Get("Content-Security-Policy"), web.ThemeScriptCSP) {
		t.Error("CSP does not allow the theme script by hash")
	}
}

func TestCrossSiteWritesRefused(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	c.Origin = "" // headers below only
	for _, h := range []map[string]string{
		{"Origin": "https://evil.example", "Content-Type": "application/json"},
		{"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"},
		{"Referer": "https://evil.example/page", "Content-Type": "application/json"},
	} {
		r := c.Raw("POST", web.APIBase+"/auth/logout", strings.NewReader("{}"), h)
		if r.Status != http.StatusForbidden || r.Msg() != "Cross-site request refused." {
			t.Errorf("headers %v: status %d %s", h, r.Status, r.Text())
		}
	}
	// the same request from our own origin is not refused as cross-site
	r := c.Raw("POST", web.APIBase+"/no-such", strings.NewReader("{}"), map[string]string{"Origin": e.URL, "Content-Type": "application/json"})
	if r.Status == http.StatusForbidden {
		t.Fatalf("same-origin write refused: %s", r.Text())
	}
}

func TestRouteTableHasAccessForEveryRoute(t *testing.T) {
	e := apptest.New(t)
	seen := map[string]bool{}
	for _, r := range e.App.Routes {
		key := r.Method + " " + r.Path
		if seen[key] {
			t.Errorf("route %s registered twice", key)
		}
		seen[key] = true
		if r.Kind == web.API && !strings.HasPrefix(r.Path, web.APIBase+"/") {
			t.Errorf("API route %s outside %s", key, web.APIBase)
		}
	}
}

func TestRobotsAndSitemapListActiveBadges(t *testing.T) {
	e := apptest.New(t)
	now := model.Now()
	active := &model.Badge{ID: model.NewID(), Name: "Shown", Category: "Design", Type: "proof", Level: "beginner", IsActive: true, CreatedAt: now, UpdatedAt: now}
	hidden := &model.Badge{ID: model.NewID(), Name: "Hidden", Category: "Design", Type: "proof", Level: "beginner", IsActive: false, CreatedAt: now, UpdatedAt: now}
	for _, b := range []*model.Badge{active, hidden} {
		if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	c := e.Client()
	sm := c.Abs("GET", "/sitemap.xml", nil).Expect(200).Text()
	if !strings.Contains(sm, e.URL+"/badges/"+active.ID) || strings.Contains(sm, hidden.ID) || !strings.Contains(sm, e.URL+"/hall-of-fame") {
		t.Fatalf("sitemap: %s", sm)
	}
	if r := c.Abs("GET", "/robots.txt", nil).Expect(200).Text(); !strings.Contains(r, "Sitemap: "+e.URL+"/sitemap.xml") || !strings.Contains(r, "Disallow: /admin") {
		t.Fatalf("robots: %s", r)
	}
}
