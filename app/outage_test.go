package app_test

import (
	"net/http"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/web"
)

// With the database's pool closed (sql: database is closed), every API call and page that
// needs it answers 503 with Retry-After: the API the {"msg"}, a page the error page
// saying the service is temporarily unavailable. Before, they answered 500.
func TestClosedDatabaseAnswers503WithRetryAfter(t *testing.T) {
	e := apptest.New(t)
	_, member := e.Member("outage@example.com")
	visitor := e.Client()
	e.DB.Close()
	for _, r := range []*apptest.Resp{
		member.Get("/auth/me"),
		visitor.Post("/auth/login", map[string]any{"email": "outage@example.com", "password": "whatever-long-pw"}),
		visitor.Get("/badges/with-ownership"),
	} {
		r.ExpectMsg(http.StatusServiceUnavailable, web.MsgUnavailable)
		if r.Header.Get("Retry-After") == "" {
			t.Errorf("503 without Retry-After: %v", r.Header)
		}
	}
	for _, c := range []*apptest.Client{visitor, member} {
		r, _ := c.Page("/badges")
		r.Expect(http.StatusServiceUnavailable)
		if r.Header.Get("Retry-After") == "" || apptest.PageName(r) != "ErrorPage" || !strings.Contains(r.Text(), web.MsgUnavailable) {
			t.Errorf("page: Retry-After %q, page %s, body %.300s", r.Header.Get("Retry-After"), apptest.PageName(r), r.Text())
		}
	}
}
