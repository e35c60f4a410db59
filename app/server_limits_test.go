package app_test

import (
	"testing"

	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/session"
	"meritmark/app/web"
)

// The per-request body limit is chosen from the header alone, as fiber will route it, and
// is widened for a signed-in route only when the header carries a live session (checked
// in the database before any body byte is read) of a user the route admits.
func TestRequestConfigFollowsTheRoute(t *testing.T) {
	ok := func(c fiber.Ctx) error { return c.SendStatus(204) }
	e := apptest.New(t, func(d *app.Deps) {
		d.Extra = append(d.Extra,
			web.Post("/probe-upload", web.Member, ok).WithBodyLimit(50<<20),
			web.Post("/admin/probe/:id/upload", web.Admin, ok).WithBodyLimit(11<<20),
			web.Post("/public-probe-upload", web.Public, ok).WithBodyLimit(5<<20),
		)
	})
	member := e.CreateUser("member@example.com", "password123", model.RoleUser)
	admin := e.CreateUser("admin@example.com", "password123", model.RoleAdmin)
	tok := func(u *model.User) string {
		s, err := e.Deps.Sessions.Create(e.Ctx(), e.DB, u.ID, "127.0.0.1", "test")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	mt, at := tok(member), tok(admin)
	const madeUp = "cGxlYXNlLWxldC1tZS11cGxvYWQtYS1sb3Qtb2YtYnl0ZXM"
	for _, tc := range []struct {
		method, uri, cookie string
		want                int
	}{
		{"POST", web.APIBase + "/probe-upload", mt, 50 << 20},
		{"POST", web.APIBase + "/probe-upload/", mt, 50 << 20},                     // fiber ignores a trailing slash
		{"POST", "/Backend/API/v1/Probe-Upload?x=1", mt, 50 << 20},                 // and case
		{"POST", "http://host:8080" + web.APIBase + "/probe-upload", mt, 50 << 20}, // absolute form
		{"POST", web.APIBase + "/probe-upload", at, 50 << 20},                      // an admin is a member too
		{"POST", web.APIBase + "/probe-upload", "", 0},                             // no cookie
		{"POST", web.APIBase + "/probe-upload", madeUp, app.DefaultBodyLimit},      // a made-up cookie is no session
		{"PUT", web.APIBase + "/probe-upload", mt, app.DefaultBodyLimit},           // another method
		{"POST", web.APIBase + "/probe-upload/x", mt, app.DefaultBodyLimit},        // another route
		{"POST", web.APIBase + "/admin/probe/0123/upload", at, 11 << 20},
		{"POST", web.APIBase + "/admin/probe/0123/upload", mt, app.DefaultBodyLimit}, // a member is no admin
		{"POST", web.APIBase + "/admin/probe//upload", at, app.DefaultBodyLimit},
		{"POST", web.APIBase + "/public-probe-upload", "", 5 << 20}, // a public route needs no session
		{"POST", "/auth/login", mt, app.DefaultBodyLimit},
		{"GET", "*", "", app.DefaultBodyLimit},
	} {
		if tc.want == 0 {
			tc.want = app.DefaultBodyLimit // no cookie: the guard will refuse
		}
		var h fasthttp.RequestHeader
		h.SetMethod(tc.method)
		h.SetRequestURI(tc.uri)
		if tc.cookie != "" {
			h.SetCookie(session.CookieName, tc.cookie)
		}
		got := e.App.RequestConfig(&h)
		if got.MaxRequestBodySize != tc.want {
			t.Errorf("%s %s (cookie %.6s): limit %d, want %d", tc.method, tc.uri, tc.cookie, got.MaxRequestBodySize, tc.want)
		}
		if (got.ReadTimeout == app.UploadReadTimeout) != (tc.want > app.DefaultBodyLimit) {
			t.Errorf("%s %s: read timeout %s", tc.method, tc.uri, got.ReadTimeout)
		}
	}
	// an ended session no longer widens it
	if err := e.Deps.Sessions.Delete(e.Ctx(), mt); err != nil {
		t.Fatal(err)
	}
	var h fasthttp.RequestHeader
	h.SetMethod("POST")
	h.SetRequestURI(web.APIBase + "/probe-upload")
	h.SetCookie(session.CookieName, mt)
	if got := e.App.RequestConfig(&h); got.MaxRequestBodySize != app.DefaultBodyLimit {
		t.Fatalf("ended session: limit %d", got.MaxRequestBodySize)
	}
}
