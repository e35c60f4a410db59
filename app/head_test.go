package app_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/web"
)

// TestHeadAnswersWhereverGetDoes walks the route table: every GET route (pages, API,
// assets, og images, credentials, /verify/{id}), with real ids where the route takes
// one, answers HEAD with the same status and Content-Type as GET and an empty body, for
// a visitor, a member and an administrator.
func TestHeadAnswersWhereverGetDoes(t *testing.T) {
	e := apptest.New(t)
	adminUser, admin := e.Admin("admin@meritmark.test")
	member, mc := e.Member("holder@meritmark.test")
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: "Go Developer", Description: "Writes idiomatic, tested Go.", Category: "Development",
		Type: model.TypeSkill, Level: "intermediate", PriceCents: 4900, Icon: "Code", Color: "blue",
		Criteria: "Pass the Go quiz with 70% or more.", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	a := &model.Application{ID: model.NewID(), UserID: member.ID, BadgeID: b.ID, Type: b.Type, Status: model.StatusPending,
		PaymentStatus: model.PaymentCompleted, FullName: "Holder", Email: member.Email, Position: "Engineer", PriceCents: b.PriceCents,
		PaymentCompletedAt: &now, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(a).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	admin.Put("/admin/applications/"+a.ID+"/approve", map[string]any{}).Expect(http.StatusOK)
	var g model.BadgeGrant
	if err := e.DB.NewSelect().Model(&g).Where("application_id = ?", a.ID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}

	// concrete paths per route pattern (others get a well-formed unknown id)
	real := map[string][]string{
		"/badges/:id":                                   {"/badges/" + b.ID},
		"/badge/:id":                                    {"/badge/" + b.ID},
		"/profile/:id":                                  {"/profile/" + member.ID, "/profile/" + adminUser.ID},
		"/verify/:verificationId":                       {"/verify/" + g.PublicVerificationID, "/verify/" + g.VerificationID},
		"/achievements/:badgeId":                        {"/achievements/" + b.ID},
		"/achievements/:badgeId/image.png":              {"/achievements/" + b.ID + "/image.png"},
		"/credentials/:id/card.png":                     {"/credentials/" + g.PublicVerificationID + "/card.png"},
		"/credentials/:file":                            {"/credentials/" + g.PublicVerificationID + ".json", "/credentials/" + g.PublicVerificationID + ".jwt", "/credentials/" + g.PublicVerificationID + ".png", "/credentials/" + g.PublicVerificationID + ".json?download=1"},
		web.APIBase + "/badges/:id":                     {web.APIBase + "/badges/" + b.ID},
		web.APIBase + "/verify/badge/:id":               {web.APIBase + "/verify/badge/" + g.PublicVerificationID},
		web.APIBase + "/admin/applications/:id":         {web.APIBase + "/admin/applications/" + a.ID},
		web.APIBase + "/payments/quote/:badgeId":        {web.APIBase + "/payments/quote/" + b.ID},
		"/payment/:badgeId":                             {"/payment/" + b.ID},
		"/hall-of-fame":                                 {"/hall-of-fame", "/hall-of-fame?category=Development"},
		"/badges":                                       {"/badges", "/badges?category=Development&search=go"},
		"/paypal-sim/*":                                 {"/paypal-sim/checkout"},
		"/media/*":                                      {"/media/none.png"},
		web.APIBase + "/quiz/badge/:badgeId?":           {}, // GET starts an attempt: not idempotent, skipped
		web.APIBase + "/applications/:id/files/:fileId": {web.APIBase + "/applications/" + a.ID + "/files/0123456789abcdef01234567"},
	}
	var paths []string
	for _, r := range e.App.Routes {
		if r.Method != http.MethodGet {
			continue
		}
		if ps, ok := real[r.Path]; ok {
			paths = append(paths, ps...)
			continue
		}
		paths = append(paths, fillParams(r.Path))
	}
	paths = append(paths, "/healthz", "/readyz", "/no/such/page", web.APIBase+"/no-such-endpoint")
	if len(paths) < 40 {
		t.Fatalf("only %d GET paths in the route table", len(paths))
	}
	clients := map[string]*apptest.Client{"visitor": e.Client(), "member": mc, "admin": admin}
	checked := 0
	for who, c := range clients {
		for _, p := range paths {
			for _, accept := range []string{"text/html", "application/json"} {
				get := do(t, e, c, "GET", p, accept)
				head := do(t, e, c, "HEAD", p, accept)
				if head.status != get.status {
					t.Errorf("%s %s (Accept %s): HEAD %d, GET %d", who, p, accept, head.status, get.status)
				}
				if head.bodyLen != 0 {
					t.Errorf("%s HEAD %s: %d body bytes", who, p, head.bodyLen)
				}
				if head.ctype != get.ctype {
					t.Errorf("%s %s: HEAD Content-Type %q, GET %q", who, p, head.ctype, get.ctype)
				}
				if get.status == 200 && get.clen != "" && head.clen != get.clen && !strings.HasPrefix(get.ctype, "text/html") {
					t.Errorf("%s %s: HEAD Content-Length %s, GET %s", who, p, head.clen, get.clen)
				}
				checked++
			}
		}
	}
	// the ones link checkers and unfurlers use, by name
	v := e.Client()
	for _, p := range []string{"/", "/badges", "/verify/" + g.PublicVerificationID, "/credentials/" + g.PublicVerificationID + "/card.png", "/profile/" + member.ID} {
		if r := do(t, e, v, "HEAD", p, "text/html"); r.status != 200 {
			t.Errorf("HEAD %s: %d", p, r.status)
		}
	}
	t.Logf("%d GET/HEAD pairs compared", checked)
}

type headResp struct {
	status      int
	bodyLen     int
	ctype, clen string
}

// do sends method path as c (its cookies) over a raw connection and reads the answer to
// the end, so a body sent after a HEAD answer's header is seen (Go's client would drop it).
func do(t *testing.T, e *apptest.Env, c *apptest.Client, method, path, accept string) headResp {
	t.Helper()
	u, _ := url.Parse(e.URL)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	var cookies []string
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		cookies = append(cookies, ck.Name+"="+ck.Value)
	}
	req := method + " " + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\nAccept: " + accept + "\r\nConnection: close\r\n"
	if len(cookies) > 0 {
		req += "Cookie: " + strings.Join(cookies, "; ") + "\r\n"
	}
	if _, err := conn.Write([]byte(req + "\r\n")); err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(conn)
	hdr, body, ok := strings.Cut(string(raw), "\r\n\r\n")
	if !ok {
		t.Fatalf("%s %s: no complete header in %q", method, path, raw)
	}
	res, err := http.ReadResponse(bufio.NewReader(strings.NewReader(hdr+"\r\n\r\n")), nil)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	n := len(body)
	if method == http.MethodGet && res.Header.Get("Content-Length") != "" {
		n = len(body) // identity body of that length
	}
	return headResp{status: res.StatusCode, bodyLen: n, ctype: res.Header.Get("Content-Type"), clen: res.Header.Get("Content-Length")}
}

// fillParams fills a route pattern's parameters with a well-formed unknown id.
func fillParams(pattern string) string {
	segs := strings.Split(pattern, "/")
	for i, s := range segs {
		switch {
		case strings.HasPrefix(s, ":"):
			segs[i] = "0123456789abcdef01234567"
		case s == "*":
			segs[i] = "x"
		}
	}
	return strings.Join(segs, "/")
}
