package app_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v3"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/middleware"
	"meritmark/app/model"
	"meritmark/app/web"
)

// probe mounts GET /probe answering what the server believes about the request.
func probe(trusted ...string) apptest.Option {
	return func(d *app.Deps) {
		d.Config.TrustedProxies = trusted
		site := d.Site
		d.Extra = append(d.Extra, web.Route{Method: "GET", Path: "/probe", Access: web.Public, Kind: web.API,
			Handler: func(c fiber.Ctx) error {
				return c.JSON(fiber.Map{"ip": c.IP(), "scheme": c.Scheme(), "host": c.Host(), "origin": site.Origin(c)})
			}})
	}
}

// send makes a request with explicit headers, "Host" included (net/http takes it from
// req.Host).
func send(t *testing.T, method, url string, body string, hdr map[string]string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

func probeOf(t *testing.T, e *apptest.Env, hdr map[string]string) map[string]string {
	t.Helper()
	status, b := send(t, "GET", e.URL+"/probe", "", hdr)
	var m map[string]string
	if status != 200 || json.Unmarshal(b, &m) != nil {
		t.Fatalf("probe: %d %s", status, b)
	}
	return m
}

var forged = map[string]string{
	"X-Forwarded-For":         "198.51.100.7, 203.0.113.9",
	"X-Forwarded-Proto":       "https",
	"X-Forwarded-Host":        "evil.example",
	middleware.ClientIPHeader: "192.0.2.66",
}

func TestForwardedHeadersIgnoredFromUntrustedPeers(t *testing.T) {
	e := apptest.New(t, probe()) // no trusted proxy: the loopback peer is a client
	m := probeOf(t, e, forged)
	apptest.Expect(t, "forwarded headers believed from an untrusted peer", m,
		apptest.Eq("m[\"ip\"]", m["ip"], "127.0.0.1"),
		apptest.Eq("m[\"scheme\"]", m["scheme"], "http"),
		apptest.Eq("m[\"host\"]", m["host"], strings.TrimPrefix(e.URL, "http://")),
		apptest.Eq("m[\"origin\"]", m["origin"], e.URL))
	// trusting some other proxy changes nothing for this peer
	e2 := apptest.New(t, probe("10.0.0.0/8"))
	if m := probeOf(t, e2, forged); m["ip"] != "127.0.0.1" || m["scheme"] != "http" || m["origin"] != e2.URL {
		t.Fatalf("forwarded headers believed from a peer outside the trusted CIDRs: %v", m)
	}
}

func TestForwardedHeadersUsedFromTrustedProxies(t *testing.T) {
	e := apptest.New(t, probe("127.0.0.0/8"))
	m := probeOf(t, e, forged)
	// the right-most address the proxy added, not the left-most one the client wrote
	apptest.Expect(t, "trusted proxy's headers not used", m,
		apptest.Eq("m[\"ip\"]", m["ip"], "203.0.113.9"),
		apptest.Eq("m[\"scheme\"]", m["scheme"], "https"),
		apptest.Eq("m[\"host\"]", m["host"], "evil.example"))
	// without a base URL a forwarded non-loopback host still never becomes a link origin
	if m["origin"] != e.URL {
		t.Fatalf("origin %q from a forwarded host, want %q", m["origin"], e.URL)
	}
	// a client's own copy of the internal header is never believed
	m = probeOf(t, e, map[string]string{middleware.ClientIPHeader: "192.0.2.66"})
	if m["ip"] != "127.0.0.1" {
		t.Fatalf("client-supplied %s believed: %v", middleware.ClientIPHeader, m)
	}
	// a chain of trusted proxies: the first untrusted hop from the right is the client
	e2 := apptest.New(t, probe("127.0.0.1", "203.0.113.0/24"))
	if m := probeOf(t, e2, forged); m["ip"] != "198.51.100.7" {
		t.Fatalf("client behind two trusted proxies: %v", m)
	}
	// garbage in the chain stops the walk at the last good hop
	if m := probeOf(t, e2, map[string]string{"X-Forwarded-For": "not-an-ip, 203.0.113.4"}); m["ip"] != "203.0.113.4" {
		t.Fatalf("chain with garbage: %v", m)
	}
}

func TestPerIPLimitsSeeTheClientBehindATrustedProxy(t *testing.T) {
	e := apptest.New(t, probe("127.0.0.0/8"))
	ok := 0
	for i := 0; i < 3; i++ {
		allowed, err := e.Deps.Limiter.Allow(e.Ctx(), "probe:"+probeOf(t, e, map[string]string{"X-Forwarded-For": "203.0.113." + string(rune('1'+i))})["ip"], 1, 60e9)
		if err != nil {
			t.Fatal(err)
		}
		if allowed {
			ok++
		}
	}
	if ok != 3 {
		t.Fatalf("three clients behind one proxy share a limit: %d allowed", ok)
	}
}

func TestResetLinkNeverFollowsAForeignHost(t *testing.T) {
	e := apptest.New(t)
	e.CreateUser("victim@example.com", "password123", model.RoleUser)
	status, b := send(t, "POST", e.URL+web.APIBase+"/auth/forgot-password", `{"email":"victim@example.com"}`,
		map[string]string{"Host": "evil.example", "Content-Type": "application/json", "Origin": "http://evil.example"})
	if status != 200 {
		t.Fatalf("forgot-password: %d %s", status, b)
	}
	var msgs []model.OutboxMessage
	if err := e.DB.NewSelect().Model(&msgs).Scan(e.Ctx()); err != nil || len(msgs) != 1 {
		t.Fatalf("outbox: %v %d", err, len(msgs))
	}
	body := msgs[0].BodyText + msgs[0].BodyHTML
	if strings.Contains(body, "evil.example") || !strings.Contains(body, e.URL+"/reset-password?") {
		t.Fatalf("reset mail links elsewhere than %s: %s", e.URL, msgs[0].BodyText)
	}
	// pages' canonical URLs too
	_, b = send(t, "GET", e.URL+"/about", "", map[string]string{"Host": "evil.example", "Accept": "text/html"})
	if strings.Contains(string(b), "evil.example") || !strings.Contains(string(b), `<link rel="canonical" href="`+e.URL+`/about">`) {
		t.Fatalf("canonical URL follows the Host header: %.600s", b)
	}
}

func TestConfiguredOriginIsTheOnlyOrigin(t *testing.T) {
	e := apptest.New(t, func(d *app.Deps) {
		d.Config.BaseURL = "https://badges.example"
		d.Site.BaseURL = d.Config.BaseURL
	}, probe("127.0.0.0/8"))
	m := probeOf(t, e, map[string]string{"Host": "localhost", "X-Forwarded-Host": "evil.example"})
	if m["origin"] != "https://badges.example" {
		t.Fatalf("origin %q", m["origin"])
	}
}
