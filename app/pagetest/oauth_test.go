package pagetest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"meritmark/app/apptest/htmlcheck"
	"meritmark/app/model"
)

// TestOAuthConsentPage renders the consent screen with the real renderer for a wallet
// whose name (anyone can register one) and request parameters carry the XSS payloads: the
// name shows as text, the scopes in plain words, the form posts every parameter back, and
// a script URL is refused as the client's URI at registration.
func TestOAuthConsentPage(t *testing.T) {
	e := New(t)
	u := e.CreateUser("holder@x.io", "password123", model.RoleUser)
	member := e.LoginAs(u)
	c := e.Client()
	for _, link := range scriptURLs {
		r := c.Abs("POST", "/oauth/register", map[string]any{"client_name": "W", "client_uri": link, "redirect_uris": []string{"https://w.example/cb"}})
		if r.Status != http.StatusBadRequest {
			t.Errorf("client_uri %q: %d %s", link, r.Status, r.Text())
		}
	}
	var reg struct {
		ClientID string `json:"client_id"`
	}
	c.Abs("POST", "/oauth/register", map[string]any{"client_name": shortEvil("WALLET-N"), "client_uri": "https://w.example",
		"redirect_uris": []string{"https://w.example/cb"}}).Expect(http.StatusCreated).JSON(&reg)
	q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {"https://w.example/cb"},
		"scope": {"https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly"}, "state": {shortEvil("STATE-M")},
		"code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}, "code_challenge_method": {"S256"}}
	r := xssPage(member, "/oauth/authorize?"+q.Encode())
	if r.Status != http.StatusOK {
		t.Fatalf("consent page: %d %s", r.Status, r.Text())
	}
	xssCheck(t, "/oauth/authorize", r, "WALLET-N", "Read your badges", "https://w.example")
	body := r.Text()
	// a plain form: works without JavaScript
	tags := map[string][]string{
		"form":  {`action="/oauth/authorize"`, `method="post"`},
		"allow": {`<button`, `type="submit"`, `name="decision"`, `value="allow"`},
		"deny":  {`<button`, `type="submit"`, `name="decision"`, `value="deny"`},
		"id":    {`<input`, `type="hidden"`, `name="client_id"`, `value="` + reg.ClientID + `"`},
		"pkce":  {`<input`, `type="hidden"`, `name="code_challenge_method"`, `value="S256"`},
	}
	for what, attrs := range tags {
		found := false
		for _, tag := range strings.Split(body, ">") {
			all := true
			for _, a := range attrs {
				all = all && strings.Contains(tag, a)
			}
			found = found || all
		}
		if !found {
			t.Errorf("consent page lacks the %s element %v", what, attrs)
		}
	}
	if strings.Contains(htmlcheck.Text(r.Body), "Read your profile") {
		t.Errorf("consent page lists a scope not asked for")
	}
	// an invalid request: the error page, 400
	r = xssPage(member, "/oauth/authorize?client_id=nope&redirect_uri="+url.QueryEscape("https://evil.example/"))
	if r.Status != http.StatusBadRequest || !strings.Contains(htmlcheck.Text(r.Body), "This app link is not valid") {
		t.Fatalf("invalid request page: %d", r.Status)
	}
}
