package pagetest

import (
	"fmt"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/seed"
	"meritmark/app/web"
	"meritmark/static"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func get(t *testing.T, e *apptest.Env, path string) *apptest.Resp {
	t.Helper()
	return e.Client().Raw("GET", path, nil, map[string]string{"Accept": "text/html"})
}

func TestPublicPagesHaveRealContentInRawHTML(t *testing.T) {
	e := New(t)
	home := []string{
		"Discover Badges", `href="/badges"`, "View Hall of Fame", `href="/hall-of-fame"`,
		"How It Works", "Choose a badge", "Prove your skills", "Get verified",
		"500+", "10K+", "25+", "95%", "Verified badges", "Professionals", "Industries", "Success rate",
		"Security and trust", "Signed Open Badges 3.0 credentials", "Standard signatures", "Public verification links", "Admin review",
		"Get Started Today", `href="/signup"`, "animate-marquee",
	}
	for _, logo := range []string{"lumora", "vertexa", "northpeak", "helixa", "orbitra", "kestrel", "quantive", "arborly", "cobalt", "brightline", "nimbus"} {
		home = append(home, `src="/static/dist/images/`+logo+`-`)
	}
	for path, want := range map[string][]string{
		"/": home,
		"/about": {"Our mission", "Our values", "Our team", "500+", "10K+", "25+", "95%",
			"Integrity first", "Maya Chen"},
		"/services": {"Skill Assessment Badges", "Proof-Based Certification", "Enterprise Credential Programs",
			"Additional services", "Custom badge design", "Assessment authoring", "Program analytics", "Priority support",
			"Technology", "Healthcare", "Finance", "Education", "Manufacturing", "Marketing &amp; Media",
			"Consultation", "Setup", "Launch", "Scale",
			`href="mailto:support@meritmark.example?subject=Meritmark%20services%3A%20getting%20started"`, "Get Started"},
		"/contact": {"24 hours", "Mon-Fri", "9 AM - 6 PM PST", "Sat", "10 AM - 4 PM PST",
			`data-island="ContactForm"`, `name="name"`, `name="email"`, `name="subject"`, `name="message"`,
			`href="mailto:support@meritmark.example"`, "Send Message"},
		"/cancellationsandrefunds": {"Cancellations and Refunds", "within 7 days", "7-10 business days",
			"duplicate payments or technical errors", "No cancellations after payment"},
		"/shippingpolicy": {"Shipping Policy", "Digital delivery", "within 24 hours", "contact support",
			`href="mailto:support@meritmark.example"`},
		"/termsandconditions": {"Terms and Conditions", "Your account", "Fees and payment", "Acceptable use"},
		"/privacypolicy":      {"Privacy Policy", "What we collect", "What is public", "We never sell personal data"},
	} {
		r := get(t, e, path).Expect(200)
		body := r.Text()
		for _, w := range append(want, fmt.Sprintf("© %d", time.Now().UTC().Year()), `data-island="Header"`, "/verify-badge", "Admin Portal", "support@meritmark.example") {
			if !strings.Contains(body, w) {
				t.Errorf("%s: raw HTML lacks %q", path, w)
			}
		}
		// the marketing and policy pages are static: no island but the header, except the contact form
		islands := regexp.MustCompile(`data-island="([A-Za-z]+)"`).FindAllStringSubmatch(body, -1)
		wantIslands := 1
		if path == "/contact" {
			wantIslands = 2
		}
		if len(islands) != wantIslands {
			t.Errorf("%s: %d islands, want %d: %v", path, len(islands), wantIslands, islands)
		}
	}
}

// beyondLatin1 says where a page's body has a character above U+00FF, or "". One such
// character anywhere in a render makes V8 build the whole page two bytes a character
// (docs/performance.md, "Pages stay one byte a character"); typography uses entities (components/Ellipsis).
func beyondLatin1(page string) string {
	body := page[max(0, strings.Index(page, "<body")):]
	i := strings.IndexFunc(body, func(r rune) bool { return r > 0xFF })
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("%q, beyond Latin-1: %s", []rune(body[i:])[0], body[max(0, i-80):i+3])
}

func TestPublicPagesStayWithinLatin1(t *testing.T) {
	e := New(t)
	for _, path := range []string{"/", "/badges", "/hall-of-fame", "/verify-badge", "/verify/MM-NOPE-0000", "/about", "/services", "/contact",
		"/cancellationsandrefunds", "/shippingpolicy", "/termsandconditions", "/privacypolicy", "/login", "/signup", "/reset-password", "/no-such-page"} {
		if where := beyondLatin1(get(t, e, path).Text()); where != "" {
			t.Errorf("%s renders %s", path, where)
		}
	}
}

// The 11 logos are real files with hashed names (cached for a year), and so is the
// default social card every page points to.
func TestMarketingImagesAreServed(t *testing.T) {
	e := New(t)
	body := get(t, e, "/").Text()
	logos := regexp.MustCompile(`src="(/static/dist/images/[a-z]+-[0-9A-F]{8}\.svg)"`).FindAllStringSubmatch(body, -1)
	seen := map[string]bool{}
	for _, m := range logos {
		seen[m[1]] = true
	}
	if len(seen) != 11 {
		t.Fatalf("%d distinct logos in the strip, want 11: %v", len(seen), seen)
	}
	for src := range seen {
		r := e.Client().Raw("GET", src, nil, nil).Expect(200)
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "image/svg+xml") || !strings.Contains(r.Text(), "<svg") {
			t.Errorf("%s: content type %q", src, ct)
		}
		if cc := r.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", src, cc)
		}
	}
	og := regexp.MustCompile(`<meta property="og:image" content="([^"]+)">`).FindStringSubmatch(body)
	if og == nil || !strings.HasSuffix(og[1], "/static/images/og-card.png") {
		t.Fatalf("default og:image: %v", og)
	}
	r := e.Client().Raw("GET", "/static/images/og-card.png", nil, nil).Expect(200)
	if r.Header.Get("Content-Type") != "image/png" || len(r.Body) < 24 || string(r.Body[1:4]) != "PNG" {
		t.Fatalf("og card: %q, %d bytes", r.Header.Get("Content-Type"), len(r.Body))
	}
	w := int(r.Body[16])<<24 | int(r.Body[17])<<16 | int(r.Body[18])<<8 | int(r.Body[19])
	h := int(r.Body[20])<<24 | int(r.Body[21])<<16 | int(r.Body[22])<<8 | int(r.Body[23])
	if w != 1200 || h != 630 || len(r.Body) > 150*1024 {
		t.Errorf("og card is %dx%d, %d bytes; want 1200x630 under 150 KB", w, h, len(r.Body))
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
	scripts := loadScripts(body)
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

// The catalogue is light: its cards are server HTML outside any island, the island (search
// and chips) carries no badge data and hydrates on first touch, so /badges loads at most
// 30 KB of script (gzipped) and no React.
func TestJavaScriptBudgetForTheCatalogue(t *testing.T) {
	e := New(t)
	if _, err := seed.Run(e.Ctx(), e.DB, "password123"); err != nil {
		t.Fatal(err)
	}
	body := get(t, e, "/badges").Text()
	if n := strings.Count(body, `data-testid="badge-card"`); n != 13 {
		t.Fatalf("%d server-rendered cards, want 13", n)
	}
	// the island ends before the results block, which no island contains
	island := strings.Index(body, `data-island="BadgeCatalogue"`)
	results := strings.Index(body, `id="catalogue-results"`)
	if island < 0 || results < 0 || island > results || !strings.Contains(body, `data-island="BadgeCatalogue" data-island-id="1" data-hydrate="interaction"`) {
		t.Fatalf("island at %d, results at %d", island, results)
	}
	props := regexp.MustCompile(`<script type="application/json" id="props-i1">([^<]*)</script>`).FindStringSubmatch(body)
	if props == nil || len(props[1]) > 200 || strings.Contains(props[1], "React Developer") {
		t.Fatalf("catalogue island props: %v", props)
	}
	scripts := loadScripts(body)
	total, seen := 0, map[string]bool{}
	for _, s := range scripts {
		if seen[s[1]] {
			continue
		}
		seen[s[1]] = true
		r := e.Client().Raw("GET", s[1], nil, map[string]string{"Accept-Encoding": "gzip"}).Expect(200)
		total += len(r.Body)
	}
	t.Logf("JavaScript loaded by /badges: %d bytes gzipped in %d files (%d more when the filters are first touched)", total, len(seen), e.Deps.Site.Assets.Sizes["BadgeCatalogue"]-e.Deps.Site.Assets.Sizes["initial"])
	if total == 0 || total > 30*1024 {
		t.Fatalf("JavaScript at load on /badges: %d bytes gzipped (budget 30 KB)", total)
	}
}

// The admin dashboard loads a tab's code when the tab is opened: the users, badges,
// quizzes and coupons tabs are chunks of their own, neither preloaded by /admin nor among
// the files the dashboard island needs to hydrate.
func TestAdminDashboardLoadsTabsOnDemand(t *testing.T) {
	e := New(t)
	_, admin := e.Admin("admin@meritmark.test")
	body := admin.Raw("GET", "/admin", nil, map[string]string{"Accept": "text/html"}).Expect(200).Text()
	need := strings.Join(e.Deps.Site.Assets.Islands["AdminDashboard"], " ")
	if need == "" || !strings.Contains(body, `data-island="AdminDashboard"`) {
		t.Fatal("no dashboard island")
	}
	entries, err := fs.ReadDir(static.FS, "dist/chunks")
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range []string{"UsersTab", "BadgesTab", "QuizTab", "CouponsTab"} {
		var chunk string
		for _, en := range entries {
			if strings.HasPrefix(en.Name(), tab+"-") && strings.HasSuffix(en.Name(), ".js") {
				chunk = "/static/dist/chunks/" + en.Name()
			}
		}
		if chunk == "" {
			t.Errorf("%s is not a chunk of its own", tab)
			continue
		}
		if strings.Contains(need, chunk) || strings.Contains(body, chunk) {
			t.Errorf("%s (%s) is loaded with the dashboard", tab, chunk)
		}
		e.Client().Raw("GET", chunk, nil, nil).Expect(200)
	}
	t.Logf("dashboard at hydration: %d bytes gzipped", e.Deps.Site.Assets.Sizes["AdminDashboard"])
}

// loadScripts lists the scripts a page loads at once: its script elements and the chunks
// named on the entry's data-preload (the islands hydrated at load, app/web/page.go).
func loadScripts(body string) [][]string {
	scripts := regexp.MustCompile(`<script[^>]*src="([^"]+\.js)"`).FindAllStringSubmatch(body, -1)
	for _, m := range regexp.MustCompile(`data-preload="([^"]*)"`).FindAllStringSubmatch(body, -1) {
		for _, f := range strings.Fields(m[1]) {
			scripts = append(scripts, []string{"", f})
		}
	}
	return scripts
}
