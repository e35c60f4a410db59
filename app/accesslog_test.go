package app_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"meritmark/app"
	"meritmark/app/apptest"
)

// Every answer is logged once, with what an operator looks for: a page the page cache
// holds too, which is answered before the access log's place in the chain.
func TestEachAnswerIsLoggedOnceWithItsFields(t *testing.T) {
	e := apptest.New(t, apptest.WithPageCache)
	logs := apptest.CaptureLogs(t)
	c := e.Client()
	c.Abs("GET", "/about", nil).Expect(200)
	c.Abs("GET", "/about", nil).Expect(200) // held
	c.Get("/badges/not-an-id").Expect(404)
	line := regexp.MustCompile(`level=INFO msg=request method=GET path=(\S+) status=(\d+) dur_ms=\d+(\.\d+)? ip=127\.0\.0\.1 rid=\S+\n`)
	got := line.FindAllStringSubmatch(logs.String(), -1)
	want := [][2]string{{"/about", "200"}, {"/about", "200"}, {"/backend/api/v1/badges/not-an-id", "404"}}
	if len(got) != len(want) {
		t.Fatalf("%d access lines, want %d:\n%s", len(got), len(want), logs.String())
	}
	for i, w := range want {
		if got[i][1] != w[0] || got[i][2] != w[1] {
			t.Errorf("line %d: %s %s, want %s %s", i, got[i][1], got[i][2], w[0], w[1])
		}
	}
}

// A sane X-Request-ID from a proxy is kept, another is replaced; the answer and the log
// line carry the same id, a page the page cache holds its own request's.
func TestARequestKeepsASaneIDFromAProxy(t *testing.T) {
	e := apptest.New(t, apptest.WithPageCache)
	logs := apptest.CaptureLogs(t)
	c := e.Client()
	given := "edge-4f9c2a7d-01"
	r := c.Raw("GET", "/about", nil, map[string]string{"X-Request-ID": given}).Expect(200)
	if got := r.Header.Get("X-Request-ID"); got != given {
		t.Fatalf("a sane id became %q", got)
	}
	seen := map[string]bool{}
	for _, bad := range []string{"two words", strings.Repeat("x", 65), `quote"d`, ""} {
		r := c.Raw("GET", "/about", nil, map[string]string{"X-Request-ID": bad}).Expect(200)
		got := r.Header.Get("X-Request-ID")
		if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(got) || seen[got] {
			t.Fatalf("%q became %q", bad, got)
		}
		seen[got] = true
		if !strings.Contains(logs.String(), " rid="+got+"\n") {
			t.Fatalf("the log has no line with rid=%s:\n%s", got, logs.String())
		}
	}
	if !strings.Contains(logs.String(), " rid="+given+"\n") {
		t.Fatalf("the log has no line with the given id:\n%s", logs.String())
	}
}

// A held page answered before the framework sees the request (app.hitRaw: here behind
// trusted proxies, with a base URL) carries the headers a page the framework answers
// does, and its log line the client's address as the framework resolves it.
func TestAHeldPageBehindProxiesIsAnsweredAsTheFrameworkWould(t *testing.T) {
	e := apptest.New(t, apptest.WithPageCache, probe("127.0.0.1", "203.0.113.0/24"), func(d *app.Deps) {
		d.Config.BaseURL = "https://badges.example"
		d.Config.HSTS = true
		d.Site.BaseURL = d.Config.BaseURL
	})
	logs := apptest.CaptureLogs(t)
	get := func(path string, hdr map[string]string) *http.Response {
		req, err := http.NewRequest("GET", e.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	hops := map[string]string{"X-Forwarded-For": "198.51.100.7, 203.0.113.9", "X-Forwarded-Proto": "https"}
	miss := get("/about", hops)
	hit := get("/about", hops)
	if miss.StatusCode != 200 || hit.StatusCode != 200 {
		t.Fatalf("statuses %d, %d", miss.StatusCode, hit.StatusCode)
	}
	for _, h := range []string{"Content-Security-Policy", "Strict-Transport-Security", "X-Frame-Options", "X-Content-Type-Options",
		"Referrer-Policy", "Permissions-Policy", "Content-Type", "Cache-Control", "Etag", "Vary"} {
		if hit.Header.Get(h) == "" || hit.Header.Get(h) != miss.Header.Get(h) {
			t.Errorf("%s: held %q, rendered %q", h, hit.Header.Get(h), miss.Header.Get(h))
		}
	}
	rid := hit.Header.Get("X-Request-Id")
	if rid == "" || rid == miss.Header.Get("X-Request-Id") {
		t.Fatalf("request ids %q then %q", miss.Header.Get("X-Request-Id"), rid)
	}
	want := probeOf(t, e, hops)["ip"]
	if want != "198.51.100.7" {
		t.Fatalf("the framework resolved %q", want)
	}
	if !strings.Contains(logs.String(), "path=/about status=200") || !regexp.MustCompile(`path=/about status=200 dur_ms=\S+ ip=`+regexp.QuoteMeta(want)+` rid=`+rid+`\n`).MatchString(logs.String()) {
		t.Fatalf("no line for the held page with ip=%s rid=%s:\n%s", want, rid, logs.String())
	}
	// a conditional request for the held page: 304, with the security headers
	nm := get("/about", map[string]string{"If-None-Match": hit.Header.Get("Etag")})
	if nm.StatusCode != http.StatusNotModified || nm.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("If-None-Match: %d, CSP %q", nm.StatusCode, nm.Header.Get("Content-Security-Policy"))
	}
}
