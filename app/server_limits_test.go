package app

import (
	"testing"

	"github.com/valyala/fasthttp"

	"meritmark/app/session"
	"meritmark/app/web"
)

// The per-request body limit is chosen from the header alone, as fiber will route it.
func TestRequestConfigFollowsTheRoute(t *testing.T) {
	a := &App{bigRoutes: []web.Route{
		web.Post("/applications", web.Member, nil).WithBodyLimit(50 << 20),
		web.Post("/admin/users/:id/profile-pic", web.Admin, nil).WithBodyLimit(11 << 20),
		web.Post("/public-upload", web.Public, nil).WithBodyLimit(5 << 20),
	}}
	for _, tc := range []struct {
		method, uri string
		cookie      bool
		want        int
	}{
		{"POST", web.APIBase + "/applications", true, 50 << 20},
		{"POST", web.APIBase + "/applications/", true, 50 << 20},                     // fiber ignores a trailing slash
		{"POST", "/Backend/API/v1/Applications?x=1", true, 50 << 20},                 // and case
		{"POST", "http://host:8080" + web.APIBase + "/applications", true, 50 << 20}, // absolute form
		{"POST", web.APIBase + "/applications", false, DefaultBodyLimit},             // no session: the guard will refuse
		{"PUT", web.APIBase + "/applications", true, DefaultBodyLimit},               // another method
		{"POST", web.APIBase + "/applications/x", true, DefaultBodyLimit},            // another route
		{"POST", web.APIBase + "/admin/users/0123/profile-pic", true, 11 << 20},
		{"POST", web.APIBase + "/admin/users//profile-pic", true, DefaultBodyLimit},
		{"POST", web.APIBase + "/public-upload", false, 5 << 20}, // a public route needs no session
		{"POST", "/auth/login", true, DefaultBodyLimit},
		{"GET", "*", false, DefaultBodyLimit},
	} {
		var h fasthttp.RequestHeader
		h.SetMethod(tc.method)
		h.SetRequestURI(tc.uri)
		if tc.cookie {
			h.SetCookie(session.CookieName, "token")
		}
		got := a.requestConfig(&h)
		if got.MaxRequestBodySize != tc.want {
			t.Errorf("%s %s (session %v): limit %d, want %d", tc.method, tc.uri, tc.cookie, got.MaxRequestBodySize, tc.want)
		}
		if (got.ReadTimeout == UploadReadTimeout) != (tc.want > DefaultBodyLimit) {
			t.Errorf("%s %s: read timeout %s", tc.method, tc.uri, got.ReadTimeout)
		}
	}
}
