package app_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/middleware"
	"meritmark/app/model"
	"meritmark/app/session"
	"meritmark/app/web"
)

// secure runs the app as the https origin https://badges.example (behind a proxy).
func secure(d *app.Deps) {
	d.Config.BaseURL = "https://badges.example"
	d.Config.HSTS = true
	d.Site.BaseURL = d.Config.BaseURL
	d.Sessions.Secure = d.Config.Secure()
}

func TestHSTSOnlyOnAnHTTPSOrigin(t *testing.T) {
	e := apptest.New(t, secure)
	r := e.Client().Abs("GET", "/", nil)
	if got := r.Header.Get("Strict-Transport-Security"); got != "max-age=63072000; includeSubDomains" {
		t.Fatalf("HSTS on https: %q", got)
	}
	if got := apptest.New(t).Client().Abs("GET", "/", nil).Header.Get("Strict-Transport-Security"); got != "" {
		t.Fatalf("HSTS on plain http: %q", got)
	}
}

func TestSessionCookieHasTheHostPrefixOnHTTPS(t *testing.T) {
	e := apptest.New(t, secure)
	e.CreateUser("member@example.com", "password123", model.RoleUser)
	c := e.Client()
	c.Origin = "https://badges.example"
	r := c.Post("/auth/login", map[string]any{"email": "member@example.com", "password": "password123"}).Expect(200)
	var tok string
	for _, sc := range r.Header.Values("Set-Cookie") {
		if v, ok := strings.CutPrefix(sc, session.SecureCookieName+"="); ok {
			tok = v[:strings.IndexByte(v, ';')]
			lc := strings.ToLower(sc)
			if !strings.Contains(lc, "secure") || !strings.Contains(lc, "path=/") || strings.Contains(lc, "domain=") {
				t.Fatalf("__Host- cookie without Secure, Path=/ or with a Domain: %s", sc)
			}
		} else if strings.HasPrefix(sc, session.CookieName+"=") {
			t.Fatalf("unprefixed session cookie on https: %s", sc)
		}
	}
	if tok == "" {
		t.Fatalf("no %s cookie: %v", session.SecureCookieName, r.Header.Values("Set-Cookie"))
	}
	me := func(name string) int {
		return e.Client().Raw("GET", web.APIBase+"/auth/me", nil, map[string]string{"Cookie": name + "=" + tok}).Status
	}
	if s := me(session.SecureCookieName); s != 200 {
		t.Fatalf("prefixed cookie: %d", s)
	}
	if s := me(session.CookieName); s != 401 {
		t.Fatalf("the unprefixed name (settable by a sibling subdomain) is accepted on https: %d", s)
	}
}

func TestCrossOriginComparesSchemeHostAndPort(t *testing.T) {
	e := apptest.New(t)
	host := strings.TrimPrefix(e.URL, "http://")
	_, port, _ := net.SplitHostPort(host)
	c := e.Client()
	for _, origin := range []string{"https://" + host, "http://127.0.0.1:1", "http://localhost:" + port, "null", "http://" + host + ".evil.example"} {
		c.Origin = origin
		c.Post("/auth/logout", map[string]any{}).ExpectMsg(403, middleware.MsgCrossSite)
	}
	for _, origin := range []string{e.URL, strings.ToUpper(e.URL), e.URL + "/"} {
		c.Origin = origin
		c.Post("/auth/logout", map[string]any{}).Expect(200)
	}
	// the configured origin, with its default port spelled out or not
	e2 := apptest.New(t, secure)
	c2 := e2.Client()
	for _, origin := range []string{"https://badges.example", "https://badges.example:443"} {
		c2.Origin = origin
		c2.Post("/auth/logout", map[string]any{}).Expect(200)
	}
	c2.Origin = "http://badges.example" // a downgraded scheme
	c2.Post("/auth/logout", map[string]any{}).ExpectMsg(403, middleware.MsgCrossSite)
}

func TestJSONRoutesRequireAJSONContentType(t *testing.T) {
	e := apptest.New(t)
	e.CreateUser("member@example.com", "password123", model.RoleUser)
	c := e.Client()
	body := `{"email":"member@example.com","password":"password123"}`
	for _, ct := range []string{"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", ""} {
		r := c.Raw("POST", web.APIBase+"/auth/login", strings.NewReader(body), map[string]string{"Content-Type": ct, "Origin": e.URL})
		r.ExpectMsg(http.StatusUnsupportedMediaType, middleware.MsgJSONContentType)
		if len(r.Header.Values("Set-Cookie")) != 0 {
			t.Fatalf("%q: signed in anyway", ct)
		}
	}
	c.Raw("POST", web.APIBase+"/auth/login", strings.NewReader(body), map[string]string{"Content-Type": "application/json; charset=utf-8", "Origin": e.URL}).Expect(200)
	// a request without a body needs no content type
	c.Raw("POST", web.APIBase+"/auth/logout", nil, map[string]string{"Origin": e.URL}).Expect(200)
}

func TestControlCharactersAre400(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	for _, p := range []string{"/hall-of-fame?search=%00", "/hall-of-fame?search=a%01b", "/badges?q=%7F", "/hall-of-fame?x%00=1"} {
		r, _ := c.Page(p)
		if r.Status != 400 {
			t.Errorf("page %s: %d", p, r.Status)
		}
	}
	c.Get("/hall-of-fame?search=%00").ExpectMsg(400, middleware.MsgControlChars)
	c.Get("/hall-of-fame?search=caf%C3%A9%20au%20lait").Expect(200) // ordinary text passes
	for _, body := range []string{
		`{"email":"a\u0000@example.com","password":"password123"}`,
		`{"email":"a@example.com","password":"pass\u001bword123"}`,
		`{"email":"a@example.com","password":"x","extra":["\u0007"]}`,
		`{"email\u0000":"a@example.com"}`,
	} {
		c.Post("/auth/login", body).ExpectMsg(400, middleware.MsgControlChars)
	}
	// tab, new lines and an escaped backslash are text
	c.Post("/auth/login", `{"email":"a@example.com","password":"line\none\ttab \\u0000"}`).ExpectMsg(401, c.Post("/auth/login", `{"email":"a@example.com","password":"nope-nope"}`).Msg())
}

func TestSignedInAnswersAreNotStored(t *testing.T) {
	e := apptest.New(t)
	_, m := e.Member("member@example.com")
	for _, r := range []*apptest.Resp{m.Get("/auth/me").Expect(200), m.Get("/no-such-route")} {
		if got := r.Header.Get("Cache-Control"); got != "no-store" {
			t.Fatalf("signed-in answer Cache-Control %q", got)
		}
	}
	if r, _ := m.Page("/badges"); r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("signed-in page Cache-Control %q", r.Header.Get("Cache-Control"))
	}
	if r, _ := e.Client().Page("/badges"); r.Header.Get("Cache-Control") == "no-store" {
		t.Fatal("visitors' pages need not be no-store")
	}
	e.CreateUser("other@example.com", "password123", model.RoleUser)
	r := e.Client().Post("/auth/login", map[string]any{"email": "other@example.com", "password": "password123"}).Expect(200)
	if got := r.Header.Get("Cache-Control"); got != "no-store" {
		t.Fatalf("sign-in answer Cache-Control %q", got)
	}
}

// A made-up session cookie does not widen the body limit: a 10 MB upload (the route
// takes 50 MB from a member) is refused from its header alone, before the server reads a
// byte of it; with a live session the server waits for the body.
func TestMadeUpSessionDoesNotWidenTheBodyLimit(t *testing.T) {
	e := apptest.New(t)
	_, m := e.Member("member@example.com")
	var real string
	for _, ck := range m.HTTP.Jar.Cookies(mustURL(t, e.URL)) {
		if ck.Name == session.CookieName {
			real = ck.Value
		}
	}
	post := func(cookie string, wait time.Duration) string {
		t.Helper()
		conn, err := net.Dial("tcp", strings.TrimPrefix(e.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(wait))
		fmt.Fprintf(conn, "POST %s/applications HTTP/1.1\r\nHost: %s\r\nCookie: %s=%s\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: %d\r\n\r\n",
			web.APIBase, strings.TrimPrefix(e.URL, "http://"), session.CookieName, cookie, 10<<20)
		line, err := bufio.NewReader(conn).ReadString('\n')
		if err != nil {
			return "no answer: " + err.Error()
		}
		return strings.TrimSpace(line)
	}
	if got := post("cGxlYXNlLWxldC1tZS11cGxvYWQtYS1sb3Qtb2YtYnl0ZXM", 10*time.Second); got != "HTTP/1.1 413 Request Entity Too Large" {
		t.Fatalf("made-up cookie: %q", got)
	}
	if real == "" {
		t.Fatal("no session cookie in the jar")
	}
	if got := post(real, time.Second); !strings.HasPrefix(got, "no answer") {
		t.Fatalf("live session: the body was not awaited: %q", got)
	}
}

func TestSimulatorBannerReachesEveryPage(t *testing.T) {
	e := apptest.New(t, func(d *app.Deps) { d.Site.SimulatorBanner = true })
	for _, p := range []string{"/", "/badges", "/no-such-page"} {
		_, props := e.Client().Page(p)
		sh, _ := props["shell"].(map[string]any)
		if sh["paymentsSimulated"] != true {
			t.Fatalf("%s: shell %v", p, sh)
		}
	}
	_, props := apptest.New(t).Client().Page("/")
	if sh, _ := props["shell"].(map[string]any); sh["paymentsSimulated"] != nil {
		t.Fatalf("banner without the simulator: %v", sh)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
