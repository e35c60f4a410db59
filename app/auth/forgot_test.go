package auth_test

import (
	"net/url"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
	"meritmark/app/web"
)

// Three reset requests from three strangers' addresses use up the account's count for the
// hour; the owner, on the laptop (device cookie) or the home network they signed in from
// before, still gets a link.
func TestStrangersCannotBlockTheOwnersPasswordReset(t *testing.T) {
	e := apptest.New(t)
	e.CreateUser("owner@example.com", "owner-long-password", model.RoleUser)
	laptop := from(e, "127.0.6.10")
	login(laptop, "owner@example.com", "owner-long-password").Expect(200)

	forgot := func(c *apptest.Client) *apptest.Resp {
		return c.Post("/auth/forgot-password", map[string]any{"email": "owner@example.com"})
	}
	for _, ip := range []string{"127.0.7.1", "127.0.8.1", "127.0.9.1"} {
		forgot(from(e, ip)).ExpectMsg(200, auth.MsgResetSent)
	}
	forgot(from(e, "127.0.10.1")).ExpectMsg(429, auth.MsgTooManyResets)
	if n := countRows(t, e, "password_resets", ""); n != 3 {
		t.Fatalf("%d reset tokens after the strangers' requests, want 3", n)
	}
	// the owner's laptop, now on another network: its device cookie is known
	away := from(e, "127.0.11.5")
	site, _ := url.Parse(e.URL + web.APIBase + "/auth/forgot-password")
	away.HTTP.Jar.SetCookies(site, laptop.HTTP.Jar.Cookies(site))
	away.Post("/auth/forgot-password", map[string]any{"email": "owner@example.com"}).ExpectMsg(200, auth.MsgResetSent)
	// a new browser on the owner's home network (no device cookie)
	forgot(from(e, "127.0.6.77")).ExpectMsg(200, auth.MsgResetSent)
	if n := countRows(t, e, "password_resets", ""); n != 5 {
		t.Fatalf("%d reset tokens, want 5 (the owner's two requests went through)", n)
	}
	// the owner's own count is limited too: 3 an hour from a known device or network
	forgot(from(e, "127.0.6.78")).ExpectMsg(200, auth.MsgResetSent)
	forgot(from(e, "127.0.6.79")).ExpectMsg(200, auth.MsgResetSent)
	forgot(from(e, "127.0.6.80")).ExpectMsg(429, auth.MsgTooManyResets)
}
