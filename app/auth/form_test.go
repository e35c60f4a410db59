package auth_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/auth"
)

func postForm(c *apptest.Client, path string, v url.Values) *apptest.Resp {
	return c.Raw("POST", path, strings.NewReader(v.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"})
}

// props of a page rendered by the fake renderer (the answer of a form post).
func formProps(t *testing.T, r *apptest.Resp) map[string]any {
	t.Helper()
	s := r.Text()
	i := strings.Index(s, `<pre id="props">`)
	if i < 0 {
		t.Fatalf("no page in %d %s", r.Status, s)
	}
	return decodeProps(t, s[i+len(`<pre id="props">`):i+strings.Index(s[i:], "</pre>")])
}

// TestSignInAndSignUpAsPlainFormPosts: the login and signup forms work before their
// script loads (or with JavaScript off): the browser posts them urlencoded to /login and
// /signup, which sign in and redirect to next, or render the page again with the message
// and the typed values (never the password) and a 4xx status. Another site's post is
// refused (CSRF).
func TestSignInAndSignUpAsPlainFormPosts(t *testing.T) {
	e := apptest.New(t)

	// sign up: passwords that differ, then a good one with a next page
	c := e.Client()
	r := postForm(c, "/signup", url.Values{"name": {"Form Person"}, "email": {"form@example.com"}, "password": {"long-password-1"}, "confirmPassword": {"other-password"}, "next": {"/badges"}})
	r.Expect(http.StatusBadRequest)
	p := formProps(t, r)["page"].(map[string]any)
	if apptest.PageName(r) != "SignupPage" || p["error"] != auth.MsgFormPasswordsDiffer || p["name"] != "Form Person" || p["email"] != "form@example.com" || p["next"] != "/badges" ||
		strings.Contains(r.Text(), "long-password-1") {
		t.Fatalf("mismatch: %s %v", apptest.PageName(r), p)
	}
	r = postForm(c, "/signup", url.Values{"name": {"Form Person"}, "email": {"form@example.com"}, "password": {"long-password-1"}, "confirmPassword": {"long-password-1"}, "next": {"/badges"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/badges" {
		t.Fatalf("signup: %d %s", r.Status, r.Header.Get("Location"))
	}
	me := c.Get("/auth/me").Expect(200).Map()["user"].(map[string]any)
	apptest.Expect(t, "signed in as", me,
		apptest.Eq("me[\"email\"]", me["email"], "form@example.com"),
		apptest.Eq("me[\"name\"]", me["name"], "Form Person"))
	// the same e-mail again with another password: register answers as for a new address
	// (its owner is mailed) and the sign-in that follows fails, so the page says to check
	// the inbox, as the island does
	c2 := e.Client()
	r = postForm(c2, "/signup", url.Values{"name": {"Other"}, "email": {"form@example.com"}, "password": {"long-password-2"}, "confirmPassword": {"long-password-2"}})
	if r.Status != http.StatusUnauthorized || formProps(t, r)["page"].(map[string]any)["error"] != auth.MsgFormCheckInbox {
		t.Fatalf("duplicate: %d %v", r.Status, formProps(t, r)["page"])
	}
	c2.Get("/auth/me").Expect(http.StatusUnauthorized)

	// sign in: a wrong password renders the page again (401); a good one redirects to next
	v := e.Client()
	r = postForm(v, "/login", url.Values{"email": {"form@example.com"}, "password": {"wrong-password"}, "next": {"/profile"}})
	r.Expect(http.StatusUnauthorized)
	p = formProps(t, r)["page"].(map[string]any)
	apptest.Expect(t, "bad login", p,
		apptest.Eq("apptest.PageName(r)", apptest.PageName(r), "LoginPage"),
		apptest.Eq("p[\"error\"]", p["error"], auth.MsgFormLoginFailed),
		apptest.Eq("p[\"email\"]", p["email"], "form@example.com"),
		apptest.Eq("p[\"next\"]", p["next"], "/profile"))
	v.Get("/auth/me").Expect(http.StatusUnauthorized)
	r = postForm(v, "/login", url.Values{"email": {"form@example.com"}, "password": {"long-password-1"}, "next": {"https://evil.example/x"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("login: %d %s (an off-site next must become /)", r.Status, r.Header.Get("Location"))
	}
	v.Get("/auth/me").Expect(200)

	// another site's form post is refused
	x := e.Client()
	r = x.Raw("POST", "/login", strings.NewReader("email=form%40example.com&password=long-password-1"),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": "https://evil.example"})
	if r.Status != http.StatusForbidden {
		t.Fatalf("cross-site post: %d", r.Status)
	}
}

func decodeProps(t *testing.T, raw string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(raw)), &m); err != nil {
		t.Fatalf("props: %v", err)
	}
	return m
}

// TestForgotPasswordAsPlainFormPost: without JavaScript, Forgot Password? links to
// /login?forgot=1, whose form posts to /forgot-password: the API's message for known and
// unknown addresses alike (a reset mail only to the known one), the form again with the
// message for a bad address (400); another site's post is refused.
func TestForgotPasswordAsPlainFormPost(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	c.Post("/auth/register", map[string]any{"name": "Forgetful", "email": "forget@example.com", "password": "long-password-1"}).Expect(201)

	r := c.Raw("GET", "/login?forgot=1", nil, map[string]string{"Accept": "text/html"})
	r.Expect(http.StatusOK)
	if p := formProps(t, r)["page"].(map[string]any); p["forgot"] != true {
		t.Fatalf("/login?forgot=1 props: %v", p)
	}

	v := e.Client()
	r = postForm(v, "/forgot-password", url.Values{"email": {"not-an-address"}})
	r.Expect(http.StatusBadRequest)
	p := formProps(t, r)["page"].(map[string]any)
	if apptest.PageName(r) != "LoginPage" || p["forgot"] != true || p["forgotError"] != auth.MsgEmailInvalid || p["email"] != "not-an-address" {
		t.Fatalf("bad address: %s %v", apptest.PageName(r), p)
	}
	for _, email := range []string{"forget@example.com", "nobody@example.com"} {
		r = postForm(v, "/forgot-password", url.Values{"email": {email}})
		r.Expect(http.StatusOK)
		p = formProps(t, r)["page"].(map[string]any)
		if apptest.PageName(r) != "LoginPage" || p["notice"] != auth.MsgResetSent || p["forgot"] == true || r.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("%s: %s %v %q", email, apptest.PageName(r), p, r.Header.Get("Cache-Control"))
		}
	}
	x := e.Client()
	r = x.Raw("POST", "/forgot-password", strings.NewReader("email=forget%40example.com"),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": "https://evil.example"})
	if r.Status != http.StatusForbidden {
		t.Fatalf("cross-site post: %d", r.Status)
	}
}
