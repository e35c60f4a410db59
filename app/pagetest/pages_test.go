package pagetest

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v3"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/web"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func get(t *testing.T, e *apptest.Env, path string) *apptest.Resp {
	t.Helper()
	return e.Client().Raw("GET", path, nil, map[string]string{"Accept": "text/html"})
}

func TestPublicPagesHaveRealContentInRawHTML(t *testing.T) {
	e := New(t)
	for path, want := range map[string][]string{
		"/":                        {"Discover Badges", "View Hall of Fame"},
		"/about":                   {"About"},
		"/services":                {"Services"},
		"/contact":                 {"Contact"},
		"/cancellationsandrefunds": {"refunds"},
		"/shippingpolicy":          {"shipping"},
		"/termsandconditions":      {"terms"},
		"/privacypolicy":           {"privacy"},
	} {
		r := get(t, e, path).Expect(200)
		body := r.Text()
		for _, w := range append(want, "© 2025", `data-island="Header"`, "/verify-badge", "Admin Portal") {
			if !strings.Contains(body, w) {
				t.Errorf("%s: raw HTML lacks %q", path, w)
			}
		}
	}
}

func TestNotFoundPage(t *testing.T) {
	e := New(t)
	r := get(t, e, "/definitely/missing").Expect(404)
	for _, w := range []string{"Return Home", "Explore Badges"} {
		if !strings.Contains(r.Text(), w) {
			t.Errorf("404 page lacks %q", w)
		}
	}
}

// A props value that tries to close the props <script> must come out inert.
func TestIslandPropsCannotBreakOutOfTheirScript(t *testing.T) {
	e := New(t)
	u, c := e.Member("xss@example.com")
	if _, err := e.DB.NewUpdate().Table("users").Set("name = ?", "</script><script>alert(1)</script>").Where("id = ?", u.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	body := c.Raw("GET", "/", nil, map[string]string{"Accept": "text/html"}).Expect(200).Text()
	if strings.Contains(body, "<script>alert(1)") {
		t.Fatalf("props escaped their script element:\n%s", body)
	}
	props := regexp.MustCompile(`<script type="application/json" id="props-i0">(.*?)</script>`).FindStringSubmatch(body)
	if props == nil || !strings.Contains(props[1], `\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e`) {
		t.Fatalf("island props not json.Marshal-escaped: %v", props)
	}
}

// A page whose render fails answers the fallback screen with 500 and the server lives on.
func TestRenderErrorAnswersFallbackScreen(t *testing.T) {
	var site *web.Site
	e := New(t, func(d *app.Deps) {
		site = d.Site
		d.Extra = append(d.Extra, web.PageRoute("/__boom", web.Public, func(c fiber.Ctx) error {
			return site.Render(c, "NoSuchPage", nil, web.Meta{})
		}))
	})
	r := get(t, e, "/__boom")
	if r.Status != http.StatusInternalServerError || !strings.Contains(r.Text(), "Unexpected Application Error!") {
		t.Fatalf("status %d body %s", r.Status, r.Text())
	}
	get(t, e, "/").Expect(200)
}

func TestStaticAssetsAreServedCompressedAndCached(t *testing.T) {
	e := New(t)
	body := get(t, e, "/").Text()
	css := regexp.MustCompile(`href="(/static/dist/app-[A-Z0-9]+\.css)"`).FindStringSubmatch(body)
	if css == nil {
		t.Fatal("no stylesheet link")
	}
	r := e.Client().Raw("GET", css[1], nil, map[string]string{"Accept-Encoding": "gzip"}).Expect(200)
	if !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("hashed CSS not immutable: %s", r.Header.Get("Cache-Control"))
	}
	e.Client().Raw("GET", "/static/../go.mod", nil, nil)
	e.Client().Raw("GET", "/static/dist/nope.js", nil, nil).Expect(404)
}

// A page whose only island is the header loads almost no JavaScript: the header hydrates
// on first interaction, so at load the page ships only the client entry.
func TestJavaScriptBudgetForHeaderOnlyPages(t *testing.T) {
	e := New(t)
	m := e.Deps.Site.Assets
	if m.Entry == "" {
		t.Fatal("no manifest")
	}
	body := get(t, e, "/about").Text()
	scripts := regexp.MustCompile(`<(?:script[^>]*src|link rel="modulepreload" href)="([^"]+\.js)"`).FindAllStringSubmatch(body, -1)
	total, seen := 0, map[string]bool{}
	for _, s := range scripts {
		if seen[s[1]] {
			continue
		}
		seen[s[1]] = true
		r := e.Client().Raw("GET", s[1], nil, map[string]string{"Accept-Encoding": "gzip"}).Expect(200)
		if r.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s not served gzipped", s[1])
		}
		total += len(r.Body)
	}
	t.Logf("JavaScript loaded by a header-only page: %d bytes gzipped in %d files", total, len(seen))
	if total == 0 || total > 70*1024 {
		t.Fatalf("JavaScript at load: %d bytes gzipped (budget 70 KB)", total)
	}
}
