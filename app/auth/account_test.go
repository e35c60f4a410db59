package auth_test

import (
	"net/url"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
	"meritmark/app/seed"
	"meritmark/app/session"
)

func TestChangePasswordEndsOtherSessions(t *testing.T) {
	e := apptest.New(t)
	u := e.CreateUser("chg@example.com", "first-kettle-lamp", model.RoleUser)
	here := e.Client()
	login(here, "chg@example.com", "first-kettle-lamp").Expect(200)
	other := e.LoginAs(u)
	other.Get("/auth/me").Expect(200)

	e.Client().Post("/auth/change-password", map[string]any{"currentPassword": "x", "newPassword": "y"}).Expect(401)
	for _, tc := range []struct {
		body map[string]any
		msg  string
	}{
		{map[string]any{"newPassword": "second-kettle-lamp"}, auth.MsgCurrentPassword},
		{map[string]any{"currentPassword": "first-kettle-lamp"}, auth.MsgNewPassword},
		{map[string]any{"currentPassword": "first-kettle-lamp", "newPassword": "password1"}, auth.MsgPasswordCommon},
		{map[string]any{"currentPassword": "first-kettle-lamp", "newPassword": "chg@example.com"}, auth.MsgPasswordPersonal},
		{map[string]any{"currentPassword": "first-kettle-lamp", "newPassword": "first-kettle-lamp"}, auth.MsgSamePassword},
		{map[string]any{"currentPassword": "wrong-kettle", "newPassword": "second-kettle-lamp"}, auth.MsgCurrentWrong},
	} {
		here.Post("/auth/change-password", tc.body).ExpectMsg(400, tc.msg)
	}
	other.Get("/auth/me").Expect(200) // nothing changed yet
	here.Post("/auth/change-password", map[string]any{"currentPassword": "first-kettle-lamp", "newPassword": "second-kettle-lamp"}).
		ExpectMsg(200, auth.MsgPasswordChanged)
	here.Get("/auth/me").Expect(200)
	other.Get("/auth/me").Expect(401)
	if n := countRows(t, e, "sessions", "user_id = ?", u.ID); n != 1 {
		t.Fatalf("%d sessions after the change", n)
	}
	login(e.Client(), "chg@example.com", "first-kettle-lamp").Expect(401)
	login(e.Client(), "chg@example.com", "second-kettle-lamp").Expect(200)
	if countRows(t, e, "outbox", "to_addr = ? AND subject = ?", u.Email, "Your Meritmark password was changed") != 1 {
		t.Fatal("no mail about the change")
	}
	// wrong current passwords are throttled (5, then waits)
	for i := 0; i < 5; i++ {
		here.Post("/auth/change-password", map[string]any{"currentPassword": "nope-nope", "newPassword": "third-kettle-lamp"}).ExpectMsg(400, auth.MsgCurrentWrong)
	}
	here.Post("/auth/change-password", map[string]any{"currentPassword": "second-kettle-lamp", "newPassword": "third-kettle-lamp"}).ExpectMsg(429, auth.MsgTooManyPwChecks)
}

func TestSessionsListRevokeAndSignOutEverywhere(t *testing.T) {
	e := apptest.New(t)
	e.CreateUser("s@example.com", "kettle-lamp-91", model.RoleUser)
	a, b, c := e.Client(), e.Client(), e.Client()
	for i, cl := range []*apptest.Client{a, b, c} {
		r := cl.Raw("POST", "/backend/api/v1/auth/login", strings.NewReader(`{"email":"s@example.com","password":"kettle-lamp-91"}`), map[string]string{
			"Content-Type": "application/json", "Origin": e.URL,
			"User-Agent": []string{"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", "curl/8.5"}[i]})
		r.Expect(200)
	}
	var out struct {
		Sessions []auth.SessionJSON `json:"sessions"`
	}
	r := a.Get("/auth/sessions").Expect(200)
	r.JSON(&out)
	if len(out.Sessions) != 3 || !out.Sessions[0].Current || out.Sessions[0].Device != "Firefox on Linux" || out.Sessions[1].Current {
		t.Fatalf("sessions %s", r.Text())
	}
	devices := map[string]bool{}
	for _, s := range out.Sessions {
		devices[s.Device] = true
		apptest.Expect(t, "session", s,
			apptest.Eq("len(s.ID)", len(s.ID), 24),
			apptest.Eq("s.IP", s.IP, "127.0.0.1"),
			apptest.True("!s.LastSeenAt.IsZero()", !s.LastSeenAt.IsZero()))
		// the id is not the stored hash, and no token appears
		if countRows(t, e, "sessions", "id = ?", s.ID) != 0 {
			t.Fatal("the listed id is the stored one")
		}
	}
	apptest.Expect(t, "devices", devices,
		apptest.True("devices[\"Safari on iOS\"]", devices["Safari on iOS"]),
		apptest.True("devices[\"curl\"]", devices["curl"]))
	if strings.Contains(r.Text(), cookieOf(e, a)) || strings.Contains(r.Text(), session.Hash(cookieOf(e, a))) {
		t.Fatal("the list shows a token or its hash")
	}
	// end the iPhone's session
	var phone string
	for _, s := range out.Sessions {
		if s.Device == "Safari on iOS" {
			phone = s.ID
		}
	}
	a.Delete("/auth/sessions/"+phone).ExpectMsg(200, auth.MsgSessionEnded)
	b.Get("/auth/me").Expect(401)
	a.Delete("/auth/sessions/"+phone).ExpectMsg(404, auth.MsgSessionMissing)
	// another member cannot end ours
	_, m := e.Member("other@example.com")
	m.Delete("/auth/sessions/"+out.Sessions[0].ID).ExpectMsg(404, auth.MsgSessionMissing)
	a.Get("/auth/me").Expect(200)
	// sign out everywhere
	a.Post("/auth/logout-everywhere", nil).ExpectMsg(200, auth.MsgSignedOutAll)
	a.Get("/auth/me").Expect(401)
	c.Get("/auth/me").Expect(401)
	if n := countRows(t, e, "sessions", "user_id = (SELECT id FROM users WHERE email = ?)", "s@example.com"); n != 0 {
		t.Fatalf("%d sessions left", n)
	}
}

func cookieOf(e *apptest.Env, c *apptest.Client) string {
	for _, ck := range c.HTTP.Jar.Cookies(mustURL(e.URL)) {
		if ck.Name == session.CookieName {
			return ck.Value
		}
	}
	return "no-cookie"
}

func TestSeededAdminMustChooseANewPassword(t *testing.T) {
	e := apptest.New(t)
	if err := seed.EnsureAdmin(e.Ctx(), e.DB, "admin@meritmark.local", "demo-admin-password", "Demo Admin", false); err != nil {
		t.Fatal(err)
	}
	c := e.Client()
	r := login(c, "admin@meritmark.local", "demo-admin-password").Expect(200)
	if r.Map()["user"].(map[string]any)["mustChangePassword"] != true {
		t.Fatalf("login answered %s", r.Text())
	}
	// the API refuses everything else with a clear message; pages lead to the form
	c.Get("/admin/applications").ExpectMsg(403, session.MsgMustChangePassword)
	c.Post("/users/profile", map[string]any{"name": "X"}).ExpectMsg(403, session.MsgMustChangePassword)
	c.Get("/auth/me").Expect(200)
	pr, _ := c.Page("/admin")
	if pr.Status != 303 && pr.Status != 302 || pr.Header.Get("Location") != "/account/password?next=%2Fadmin" {
		t.Fatalf("/admin: %d %q", pr.Status, pr.Header.Get("Location"))
	}
	pr, props := c.Page("/account/password?next=%2Fadmin")
	if apptest.PageName(pr) != "SetPasswordPage" || props["page"].(map[string]any)["required"] != true || props["page"].(map[string]any)["next"] != "/admin" {
		t.Fatalf("set-password page %d %v", pr.Status, props)
	}
	c.Post("/auth/change-password", map[string]any{"currentPassword": "demo-admin-password", "newPassword": "a-private-admin-phrase"}).ExpectMsg(200, auth.MsgPasswordChanged)
	// next: two-step sign-in, before anything admin opens
	c.Get("/admin/applications").ExpectMsg(403, auth.MsgAdminNeedsMFA)
	if pr, _ := c.Page("/admin"); pr.Header.Get("Location") != "/account/two-factor?next=%2Fadmin" {
		t.Fatalf("/admin after the change: %d %q", pr.Status, pr.Header.Get("Location"))
	}
	// create-admin (an operator's chosen password) does not force a change
	if err := seed.EnsureAdmin(e.Ctx(), e.DB, "ops@example.com", "ops-chosen-phrase", "Ops", true); err != nil {
		t.Fatal(err)
	}
	c2 := e.Client()
	login(c2, "ops@example.com", "ops-chosen-phrase").Expect(200)
	c2.Get("/admin/applications").ExpectMsg(403, auth.MsgAdminNeedsMFA)
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}
