package obapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"meritmark/app/apptest"
	"meritmark/app/obapi"
)

// schemaOf is the discovery document's component schema name.
func schemaOf(t *testing.T, w *world, name string) map[string]any {
	t.Helper()
	var doc struct {
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	w.e.Client().Abs("GET", obapi.BasePath+"/discovery", nil).Expect(http.StatusOK).JSON(&doc)
	s := doc.Components.Schemas[name]
	if s == nil {
		t.Fatalf("no schema %s in the discovery document", name)
	}
	return s
}

func keysOf(m map[string]any) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestOneEdTechResponseShapes: getCredentials answers 1EdTech's
// GetOpenBadgeCredentialsResponse (credential and compactJwsString, nothing else, each JWS
// of the schema's pattern) and errors are imsx_StatusInfo with 1EdTech's codeMinor
// values; the discovery document describes both with additionalProperties false.
func TestOneEdTechResponseShapes(t *testing.T) {
	w := newWorld(t, 2)
	_, tok := w.connected(t)
	resp := schemaOf(t, w, "GetOpenBadgeCredentialsResponse")
	props, _ := resp["properties"].(map[string]any)
	apptest.Expect(t, "GetOpenBadgeCredentialsResponse schema", resp,
		apptest.Eq[any]("additionalProperties", resp["additionalProperties"], false),
		apptest.Eq("properties", strings.Join(keysOf(props), " "), "compactJwsString credential"))
	pattern := props["compactJwsString"].(map[string]any)["items"].(map[string]any)["pattern"].(string)
	re := regexp.MustCompile(pattern)

	r := w.api(t, tok.AccessToken, "/credentials")
	var body map[string]json.RawMessage
	if r.Status != http.StatusOK || json.Unmarshal(r.Body, &body) != nil {
		t.Fatalf("getCredentials: %d %s", r.Status, r.Body)
	}
	var jws []string
	var ld []map[string]any
	if err := json.Unmarshal(body["compactJwsString"], &jws); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(body["credential"], &ld); err != nil {
		t.Fatal(err)
	}
	if len(body) != 2 || len(jws) != 2 || len(ld) != 2 {
		t.Fatalf("getCredentials answered keys %v, %d JWS, %d JSON-LD", body, len(jws), len(ld))
	}
	for _, j := range jws {
		if !re.MatchString(j) {
			t.Fatalf("%q does not match the schema's pattern %s", j, pattern)
		}
	}

	// errors: imsx_StatusInfo with unauthorizedrequest, only the schema's fields
	si := schemaOf(t, w, "Imsx_StatusInfo")
	siProps, _ := si["properties"].(map[string]any)
	if si["additionalProperties"] != false || siProps == nil {
		t.Fatalf("Imsx_StatusInfo schema: %v", si)
	}
	for _, tc := range []struct{ token, path string }{{"", "/credentials"}, {"nope", "/profile"}} {
		r := w.api(t, tc.token, tc.path)
		expectStatusInfo(t, r, http.StatusUnauthorized, "unauthorizedrequest")
		var got map[string]any
		_ = json.Unmarshal(r.Body, &got)
		for k := range got {
			if siProps[k] == nil {
				t.Errorf("imsx_StatusInfo has %q, which the schema does not allow", k)
			}
		}
	}
	enum := siProps["imsx_codeMinor"].(map[string]any)["properties"].(map[string]any)["imsx_codeMinorField"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)["imsx_codeMinorFieldValue"].(map[string]any)["enum"]
	if b, _ := json.Marshal(enum); !strings.Contains(string(b), `"unauthorizedrequest"`) {
		t.Fatalf("codeMinor enum: %s", b)
	}
}

// TestRegistrationEchoesMetadata: 1EdTech's own example registration is accepted and
// every field comes back (scope reduced to what is offered: offline_access and upsert
// are dropped, not refused).
func TestRegistrationEchoesMetadata(t *testing.T) {
	w := newWorld(t, 0)
	req := map[string]any{
		"client_name": "Example Client Application", "client_uri": "https://client.example/", "logo_uri": "https://client.example/logo.png",
		"tos_uri": "https://client.example/terms", "policy_uri": "https://client.example/privacy",
		"software_id": "c88b6ed8-269e-448e-99be-7e2ff47167d1", "software_version": "v4.0.30319",
		"redirect_uris": []string{"https://client.example/Authorize"}, "token_endpoint_auth_method": "client_secret_basic",
		"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
		"scope":    obapi.ScopeCredentialRead + " " + obapi.ScopeCredentialUpsert + " offline_access",
		"contacts": []string{"support@client.example"},
	}
	var got map[string]any
	w.e.Client().Abs("POST", obapi.RegisterPath, req).Expect(http.StatusCreated).JSON(&got)
	for k, v := range req {
		want := v
		if k == "scope" {
			want = obapi.ScopeCredentialRead
		}
		a, _ := json.Marshal(got[k])
		b, _ := json.Marshal(want)
		if string(a) != string(b) {
			t.Errorf("%s: answered %s, sent %s", k, a, b)
		}
	}
	for _, k := range []string{"client_id", "client_secret", "client_id_issued_at", "client_secret_expires_at"} {
		if got[k] == nil {
			t.Errorf("no %s in the answer", k)
		}
	}
	// too many contacts
	req["contacts"] = strings.Split(strings.Repeat("a@b.example ", obapi.MaxContacts+1), " ")[:obapi.MaxContacts+1]
	r := w.e.Client().Abs("POST", obapi.RegisterPath, req)
	if r.Status != http.StatusBadRequest || !strings.Contains(r.Text(), "invalid_client_metadata") {
		t.Fatalf("%d contacts: %d %s", obapi.MaxContacts+1, r.Status, r.Text())
	}
}

// TestScopesAndStateAtAuthorization: scopes that are unknown (offline_access), not
// offered or not registered are dropped and the answer's scope says what was granted
// (RFC 6749 3.3); a state of any length is accepted and echoed.
func TestScopesAndStateAtAuthorization(t *testing.T) {
	w := newWorld(t, 1)
	ctx := context.Background()
	conf := w.register(t, obapi.ScopeCredentialRead)
	asked := *conf
	asked.Scopes = []string{obapi.ScopeCredentialRead, "offline_access", obapi.ScopeProfileRead, obapi.ScopeCredentialUpsert, "openid"}
	verifier := oauth2.GenerateVerifier()
	authURL := asked.AuthCodeURL("s1", oauth2.S256ChallengeOption(verifier))
	res, props := w.mc.Page(strings.TrimPrefix(authURL, w.e.URL))
	page, _ := props["page"].(map[string]any)
	scopes, _ := page["scopes"].([]any)
	if res.Status != http.StatusOK || len(scopes) != 1 || scopes[0].(map[string]any)["uri"] != obapi.ScopeCredentialRead {
		t.Fatalf("consent page: %d, scopes %v", res.Status, scopes)
	}
	q := redirected(t, w.consent(t, w.mc, authURL, "allow"), w.cb)
	apptest.Expect(t, "authorization answer", q,
		apptest.Eq("state", q.Get("state"), "s1"),
		apptest.Eq("scope", q.Get("scope"), obapi.ScopeCredentialRead),
		apptest.True("code", q.Get("code") != ""))
	tok, err := asked.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if tok.Extra("scope") != obapi.ScopeCredentialRead {
		t.Fatalf("token scope: %v", tok.Extra("scope"))
	}
	if r := w.api(t, tok.AccessToken, "/credentials"); r.Status != http.StatusOK {
		t.Fatalf("getCredentials: %d", r.Status)
	}
	expectStatusInfo(t, w.api(t, tok.AccessToken, "/profile"), http.StatusForbidden, obapi.MinorForbidden)

	// nothing offered left: invalid_scope at the redirect; no state at all: invalid_state
	none := *conf
	none.Scopes = []string{"offline_access"}
	q = redirected(t, w.mc.Raw("GET", strings.TrimPrefix(none.AuthCodeURL("s2", oauth2.S256ChallengeOption(verifier)), w.e.URL), nil, map[string]string{"Accept": "text/html"}), w.cb)
	if q.Get("error") != "invalid_scope" {
		t.Fatalf("only offline_access: %v", q)
	}
	u, _ := url.Parse(conf.AuthCodeURL("", oauth2.S256ChallengeOption(verifier)))
	v := u.Query()
	v.Del("state")
	q = redirected(t, w.mc.Raw("GET", obapi.AuthorizePath+"?"+v.Encode(), nil, map[string]string{"Accept": "text/html"}), w.cb)
	if q.Get("error") != "invalid_state" {
		t.Fatalf("no state: %v", q)
	}
}

// TestCORS: browser wallets get the preflight answered and may read the API's answers
// (and its Link and X-Total-Count headers) from any origin; no cookie is ever allowed.
func TestCORS(t *testing.T) {
	w := newWorld(t, 1)
	_, tok := w.connected(t)
	for _, path := range []string{"/credentials", "/profile", "/discovery"} {
		req, _ := http.NewRequest("OPTIONS", w.e.URL+obapi.BasePath+path, nil)
		req.Header.Set("Origin", "https://wallet.example")
		req.Header.Set("Access-Control-Request-Method", "GET")
		req.Header.Set("Access-Control-Request-Headers", "authorization")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		h := res.Header
		apptest.Expect(t, "preflight "+path, h,
			apptest.Eq("status", res.StatusCode, http.StatusNoContent),
			apptest.Eq("Allow-Origin", h.Get("Access-Control-Allow-Origin"), "*"),
			apptest.True("Allow-Methods has GET", strings.Contains(h.Get("Access-Control-Allow-Methods"), "GET")),
			apptest.True("Allow-Headers has Authorization", strings.Contains(strings.ToLower(h.Get("Access-Control-Allow-Headers")), "authorization")),
			apptest.Eq("Allow-Credentials", h.Get("Access-Control-Allow-Credentials"), ""))
	}
	for _, tc := range []struct {
		token, path string
		status      int
	}{{tok.AccessToken, "/credentials", http.StatusOK}, {tok.AccessToken, "/profile", http.StatusOK}, {"", "/credentials", http.StatusUnauthorized}} {
		r := w.api(t, tc.token, tc.path)
		if r.Status != tc.status || r.Header.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(r.Header.Get("Access-Control-Expose-Headers"), "X-Total-Count") {
			t.Fatalf("%s: %d, CORS headers %v", tc.path, r.Status, r.Header)
		}
	}
}
