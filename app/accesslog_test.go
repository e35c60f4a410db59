package app_test

import (
	"regexp"
	"strings"
	"testing"

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
