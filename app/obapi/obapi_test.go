package obapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/obapi"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// world is a running app, an admin, a member holding badges and a wallet's redirect URI.
type world struct {
	e      *apptest.Env
	admin  *apptest.Client
	member *model.User
	mc     *apptest.Client
	cb     string
}

func newWorld(t *testing.T, badges int) *world {
	t.Helper()
	e := apptest.New(t)
	_, adm := e.Admin("admin@meritmark.test")
	u, mc := e.Member("holder@x.io")
	w := &world{e: e, admin: adm, member: u, mc: mc, cb: "http://127.0.0.1:9/callback"}
	for i := 0; i < badges; i++ {
		w.grant(t, fmt.Sprintf("Badge %d", i+1))
	}
	return w
}

// grant makes the member hold a new badge through the real flow (a paid application the
// admin approves through the API).
func (w *world) grant(t *testing.T, name string) {
	t.Helper()
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: name, Description: "A test badge.", Category: "Development", Type: model.TypeSkill,
		Level: "intermediate", PriceCents: 4900, Icon: "Code", Color: "blue", Criteria: "Pass.", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := w.e.DB.NewInsert().Model(b).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	a := &model.Application{ID: model.NewID(), UserID: w.member.ID, BadgeID: b.ID, Type: b.Type, Status: model.StatusPending,
		PaymentStatus: model.PaymentCompleted, FullName: "Holder", Email: w.member.Email, Position: "Engineer", PriceCents: b.PriceCents,
		PaymentCompletedAt: &now, CreatedAt: now, UpdatedAt: now}
	if _, err := w.e.DB.NewInsert().Model(a).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	w.admin.Put("/admin/applications/"+a.ID+"/approve", map[string]any{}).Expect(http.StatusOK)
}

// register registers a wallet through the RFC 7591 endpoint.
func (w *world) register(t *testing.T, scope string) *oauth2.Config {
	t.Helper()
	body := map[string]any{"client_name": "Test Wallet", "client_uri": "https://wallet.example", "redirect_uris": []string{w.cb},
		"scope": scope, "token_endpoint_auth_method": "client_secret_basic", "grant_types": []string{"authorization_code", "refresh_token"},
		"response_types": []string{"code"}, "software_id": "test-wallet", "software_version": "1.0"}
	r := w.e.Client().Abs("POST", obapi.RegisterPath, body).Expect(http.StatusCreated)
	var out struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		Expires      *int64 `json:"client_secret_expires_at"`
		Issued       int64  `json:"client_id_issued_at"`
		Scope        string `json:"scope"`
		Redirects    []string
	}
	r.JSON(&out)
	if out.ClientID == "" || len(out.ClientSecret) < 40 || out.Expires == nil || *out.Expires != 0 || out.Issued == 0 {
		t.Fatalf("registration answer: %s", r.Text())
	}
	// only the secret's hash is stored
	var hash string
	if err := w.e.DB.NewRaw("SELECT secret_hash FROM oauth_clients WHERE id = ?", out.ClientID).Scan(w.e.Ctx(), &hash); err != nil || hash == "" || strings.Contains(hash, out.ClientSecret) {
		t.Fatalf("stored secret: %q %v", hash, err)
	}
	return &oauth2.Config{ClientID: out.ClientID, ClientSecret: out.ClientSecret, RedirectURL: w.cb, Scopes: strings.Fields(out.Scope),
		Endpoint: oauth2.Endpoint{AuthURL: w.e.URL + obapi.AuthorizePath, TokenURL: w.e.URL + obapi.TokenPath, AuthStyle: oauth2.AuthStyleInHeader}}
}

// consent opens authURL as the member, checks the consent page and posts decision; it
// returns the answer (a redirect to the wallet).
func (w *world) consent(t *testing.T, c *apptest.Client, authURL, decision string) *apptest.Resp {
	t.Helper()
	res, props := c.Page(strings.TrimPrefix(authURL, w.e.URL))
	if res.Status != http.StatusOK || apptest.PageName(res) != "OAuthAuthorizePage" {
		t.Fatalf("consent page: %d %s", res.Status, res.Text())
	}
	page := props["page"].(map[string]any)
	cl, _ := page["client"].(map[string]any)
	apptest.Expect(t, "consent page client", page,
		apptest.True("cl != nil", cl != nil))
	apptest.Expect(t, "consent page client", page,
		apptest.Eq("cl[\"name\"]", cl["name"], "Test Wallet"),
		apptest.Eq("cl[\"uri\"]", cl["uri"], "https://wallet.example"))
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' http://127.0.0.1:9") {
		t.Fatalf("consent page CSP does not allow the redirect: %s", csp)
	}
	form := url.Values{}
	for _, f := range page["fields"].([]any) {
		kv := f.([]any)
		form.Set(kv[0].(string), kv[1].(string))
	}
	form.Set("decision", decision)
	return c.Raw("POST", obapi.AuthorizePath, strings.NewReader(form.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
}

// redirected parses the wallet redirect of an authorization answer.
func redirected(t *testing.T, r *apptest.Resp, cb string) url.Values {
	t.Helper()
	loc := r.Header.Get("Location")
	if r.Status/100 != 3 || !strings.HasPrefix(loc, cb+"?") {
		t.Fatalf("want a redirect to %s, got %d %q %s", cb, r.Status, loc, r.Text())
	}
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query()
}

func (w *world) authorize(t *testing.T, conf *oauth2.Config) (code, verifier string) {
	t.Helper()
	verifier = oauth2.GenerateVerifier()
	q := redirected(t, w.consent(t, w.mc, conf.AuthCodeURL("state-1234567890", oauth2.S256ChallengeOption(verifier)), "allow"), w.cb)
	apptest.Expect(t, "authorization answer", q,
		apptest.Eq("q.Get(\"state\")", q.Get("state"), "state-1234567890"),
		apptest.True("q.Get(\"code\") != \"\"", q.Get("code") != ""))
	return q.Get("code"), verifier
}

type apiResp struct {
	Status int
	Header http.Header
	Body   []byte
}

func (w *world) api(t *testing.T, token, path string) *apiResp {
	t.Helper()
	req, _ := http.NewRequest("GET", w.e.URL+obapi.BasePath+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b []byte
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			break
		}
	}
	return &apiResp{Status: res.StatusCode, Header: res.Header, Body: b}
}

func expectStatusInfo(t *testing.T, r *apiResp, status int, minor string) {
	t.Helper()
	var si obapi.StatusInfo
	if r.Status != status || json.Unmarshal(r.Body, &si) != nil || si.CodeMajor != "failure" || si.Severity != "error" ||
		len(si.CodeMinor.Fields) != 1 || si.CodeMinor.Fields[0].Value != minor || si.Description == "" {
		t.Fatalf("want %d imsx_StatusInfo %s, got %d %s", status, minor, r.Status, r.Body)
	}
}

func oauthErr(t *testing.T, err error, code string) {
	t.Helper()
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != code {
		t.Fatalf("want OAuth error %s, got %v", code, err)
	}
}

func (w *world) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := w.e.DB.NewRaw(q, args...).Scan(w.e.Ctx(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDiscovery(t *testing.T) {
	e := apptest.New(t)
	r := e.Client().Abs("GET", obapi.BasePath+"/discovery", nil).Expect(http.StatusOK)
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    map[string]any
		Comp    struct {
			Schemes map[string]struct {
				Type  string `json:"type"`
				Reg   string `json:"x-imssf-registrationUrl"`
				Flows struct {
					ACG struct {
						AuthorizationURL string            `json:"authorizationUrl"`
						TokenURL         string            `json:"tokenUrl"`
						RefreshURL       string            `json:"refreshUrl"`
						Scopes           map[string]string `json:"scopes"`
					} `json:"authorizationCode"`
				} `json:"flows"`
			} `json:"securitySchemes"`
		} `json:"components"`
		Paths map[string]any `json:"paths"`
	}
	r.JSON(&doc)
	s := doc.Comp.Schemes["OAuth2ACG"]
	if doc.OpenAPI != "3.0.1" || s.Type != "oauth2" || s.Reg != e.URL+"/oauth/register" || s.Flows.ACG.AuthorizationURL != e.URL+"/oauth/authorize" ||
		s.Flows.ACG.TokenURL != e.URL+"/oauth/token" || s.Flows.ACG.RefreshURL != e.URL+"/oauth/token" || doc.Info["x-imssf-privacyPolicyUrl"] != e.URL+"/privacypolicy" {
		t.Fatalf("discovery: %s", r.Text())
	}
	apptest.Expect(t, "scopes", s.Flows.ACG.Scopes,
		apptest.Eq("len(s.Flows.ACG.Scopes)", len(s.Flows.ACG.Scopes), 2))
	apptest.Expect(t, "scopes", s.Flows.ACG.Scopes,
		apptest.True("s.Flows.ACG.Scopes[obapi.ScopeCredentialRead] != \"\"", s.Flows.ACG.Scopes[obapi.ScopeCredentialRead] != ""),
		apptest.True("s.Flows.ACG.Scopes[obapi.ScopeProfileRead] != \"\"", s.Flows.ACG.Scopes[obapi.ScopeProfileRead] != ""))
	apptest.Expect(t, "paths", doc.Paths,
		apptest.True("doc.Paths[\"/credentials\"] != nil", doc.Paths["/credentials"] != nil),
		apptest.True("doc.Paths[\"/profile\"] != nil", doc.Paths["/profile"] != nil))
}

// TestWholeFlow drives register -> consent -> token (PKCE) -> getCredentials (paged) ->
// getProfile -> refresh (rotation) -> revoke with golang.org/x/oauth2.
func TestWholeFlow(t *testing.T) {
	w := newWorld(t, 3)
	ctx := context.Background()
	conf := w.register(t, obapi.ScopeCredentialRead+" "+obapi.ScopeProfileRead+" "+obapi.ScopeCredentialUpsert)
	if len(conf.Scopes) != 2 {
		t.Fatalf("registered scopes (upsert is not offered): %v", conf.Scopes)
	}
	code, verifier := w.authorize(t, conf)
	if n := w.count(t, "SELECT COUNT(*) FROM oauth_consents WHERE user_id = ? AND client_id = ?", w.member.ID, conf.ClientID); n != 1 {
		t.Fatalf("consent rows: %d", n)
	}
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	apptest.Expect(t, "token", tok,
		apptest.True("tok.AccessToken != \"\"", tok.AccessToken != ""),
		apptest.True("tok.RefreshToken != \"\"", tok.RefreshToken != ""),
		apptest.True("!(tok.TokenType != \"bearer\" && tok.TokenType != \"Bearer\")", !(tok.TokenType != "bearer" && tok.TokenType != "Bearer")),
		apptest.True("!tok.Expiry.Before(time.Now().Add(50*time.Minute))", !tok.Expiry.Before(time.Now().Add(50*time.Minute))))
	// the database holds no raw token or code
	for _, raw := range []string{tok.AccessToken, tok.RefreshToken, code, verifier} {
		if n := w.count(t, "SELECT COUNT(*) FROM oauth_tokens WHERE signature = ? OR form LIKE ? OR session LIKE ?", raw, "%"+raw+"%", "%"+raw+"%"); n != 0 {
			t.Fatalf("a raw token is stored: %s", raw)
		}
	}

	// getCredentials, paged by 2
	issuer := w.e.Deps.Issuer
	var jws []string
	for off := 0; off < 4; off += 2 {
		r := w.api(t, tok.AccessToken, "/credentials?limit=2&offset="+strconv.Itoa(off))
		if r.Status != http.StatusOK || r.Header.Get("X-Total-Count") != "3" {
			t.Fatalf("getCredentials: %d %v %s", r.Status, r.Header, r.Body)
		}
		var page struct {
			JWS []string          `json:"compactJwsString"`
			LD  []json.RawMessage `json:"credential"`
		}
		if err := json.Unmarshal(r.Body, &page); err != nil {
			t.Fatal(err)
		}
		want := 2
		if off == 2 {
			want = 1
		}
		if len(page.JWS) != want || len(page.LD) != want {
			t.Fatalf("page at %d: %d jws, %d ld", off, len(page.JWS), len(page.LD))
		}
		link := r.Header.Get("Link")
		base := w.e.URL + "/ims/ob/v3p0/credentials"
		if !strings.Contains(link, "<"+base+"?limit=2&offset=2>; rel=\"last\"") || !strings.Contains(link, "<"+base+"?limit=2&offset=0>; rel=\"first\"") {
			t.Fatalf("Link: %s", link)
		}
		if off == 0 && (!strings.Contains(link, "offset=2>; rel=\"next\"") || strings.Contains(link, "prev")) {
			t.Fatalf("Link of the first page: %s", link)
		}
		if off == 2 && (strings.Contains(link, "next") || !strings.Contains(link, "offset=0>; rel=\"prev\"")) {
			t.Fatalf("Link of the last page: %s", link)
		}
		for i, j := range page.JWS {
			v, err := issuer.Verify(ctx, j)
			if err != nil || v.Payload == nil {
				t.Fatalf("credential %d does not verify: %v", i, err)
			}
			if !strings.Contains(string(v.Raw), w.member.ID) && v.Payload.Sub == "" {
				t.Fatalf("credential of someone else: %s", v.Raw)
			}
			if _, err := issuer.VerifyLD(ctx, w.e.URL, page.LD[i]); err != nil {
				t.Fatalf("JSON-LD credential %d does not verify: %v", i, err)
			}
			jws = append(jws, j)
		}
	}
	if len(jws) != 3 || jws[0] == jws[1] || jws[1] == jws[2] {
		t.Fatalf("pages overlap: %d", len(jws))
	}
	// bad paging parameters
	for _, q := range []string{"limit=0", "limit=abc", "limit=101", "offset=-1"} {
		expectStatusInfo(t, w.api(t, tok.AccessToken, "/credentials?"+q), http.StatusBadRequest, obapi.MinorInvalidQuery)
	}

	// getProfile
	r := w.api(t, tok.AccessToken, "/profile")
	var prof obapi.Profile
	if r.Status != http.StatusOK || json.Unmarshal(r.Body, &prof) != nil || prof.ID != w.e.URL+"/profile/"+w.member.ID || prof.Type[0] != "Profile" || prof.Email != "holder@x.io" {
		t.Fatalf("getProfile: %d %s", r.Status, r.Body)
	}
	var lastUsed *time.Time
	if err := w.e.DB.NewRaw("SELECT last_used_at FROM oauth_consents WHERE client_id = ?", conf.ClientID).Scan(ctx, &lastUsed); err != nil || lastUsed == nil {
		t.Fatalf("last use not recorded: %v", err)
	}

	// refresh: a new pair; the old access and refresh tokens are retired
	tok2, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		t.Fatal(err)
	}
	apptest.Expect(t, "refresh did not rotate", tok2,
		apptest.True("tok2.AccessToken != tok.AccessToken", tok2.AccessToken != tok.AccessToken),
		apptest.True("tok2.RefreshToken != tok.RefreshToken", tok2.RefreshToken != tok.RefreshToken),
		apptest.True("tok2.RefreshToken != \"\"", tok2.RefreshToken != ""))
	if r := w.api(t, tok2.AccessToken, "/profile"); r.Status != http.StatusOK {
		t.Fatalf("refreshed token: %d %s", r.Status, r.Body)
	}
	expectStatusInfo(t, w.api(t, tok.AccessToken, "/profile"), http.StatusUnauthorized, obapi.MinorUnauthorized)

	// revoke (RFC 7009) the new access token: it is refused from then on
	rev := url.Values{"token": {tok2.AccessToken}, "token_type_hint": {"access_token"}}
	req, _ := http.NewRequest("POST", w.e.URL+obapi.RevokePath, strings.NewReader(rev.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(conf.ClientID), url.QueryEscape(conf.ClientSecret))
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("revoke: %v %v", res, err)
	}
	res.Body.Close()
	r = w.api(t, tok2.AccessToken, "/credentials")
	expectStatusInfo(t, r, http.StatusUnauthorized, obapi.MinorUnauthorized)
	if !strings.Contains(r.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Fatalf("WWW-Authenticate: %q", r.Header.Get("WWW-Authenticate"))
	}
	// the rotated-out refresh token is refused (invalid_grant) and, reuse detected, the
	// grant's newer refresh token is retired with it
	_, err = conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	oauthErr(t, err, "invalid_grant")
	_, err = conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok2.RefreshToken}).Token()
	oauthErr(t, err, "invalid_grant")
	// no token or header without one
	expectStatusInfo(t, w.api(t, "", "/credentials"), http.StatusUnauthorized, obapi.MinorUnauthorized)
	expectStatusInfo(t, w.api(t, "not-a-token", "/credentials"), http.StatusUnauthorized, obapi.MinorUnauthorized)
}

// TestConnectedApps: the member sees the app with its scopes and dates; revoking it
// deletes the consent and every token of the app for the member.
func TestConnectedApps(t *testing.T) {
	w := newWorld(t, 1)
	ctx := context.Background()
	conf := w.register(t, "")
	code, verifier := w.authorize(t, conf)
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Apps []obapi.ConnectedApp `json:"apps"`
	}
	w.mc.Get("/oauth/apps").Expect(http.StatusOK).JSON(&list)
	apptest.Expect(t, "apps", list.Apps,
		apptest.Eq("len(list.Apps)", len(list.Apps), 1))
	apptest.Expect(t, "apps", list.Apps,
		apptest.Eq("list.Apps[0].ClientID", list.Apps[0].ClientID, conf.ClientID),
		apptest.Eq("list.Apps[0].Name", list.Apps[0].Name, "Test Wallet"),
		apptest.Eq("len(list.Apps[0].Scopes)", len(list.Apps[0].Scopes), 2),
		apptest.True("!list.Apps[0].GrantedAt.IsZero()", !list.Apps[0].GrantedAt.IsZero()),
		apptest.True("list.Apps[0].LastUsedAt == nil", list.Apps[0].LastUsedAt == nil))
	// another member sees none and cannot revoke it
	_, other := w.e.Member("other@x.io")
	other.Get("/oauth/apps").Expect(http.StatusOK).JSON(&list)
	if len(list.Apps) != 0 {
		t.Fatalf("other member sees %v", list.Apps)
	}
	other.Delete("/oauth/apps/"+conf.ClientID).ExpectMsg(http.StatusNotFound, obapi.MsgAppNotFound)
	if r := w.api(t, tok.AccessToken, "/credentials"); r.Status != http.StatusOK {
		t.Fatalf("token broken by another member's revoke: %d", r.Status)
	}
	w.e.Client().Get("/oauth/apps").Expect(http.StatusUnauthorized)

	w.mc.Delete("/oauth/apps/" + conf.ClientID).Expect(http.StatusOK)
	if n := w.count(t, "SELECT COUNT(*) FROM oauth_tokens WHERE client_id = ?", conf.ClientID); n != 0 {
		t.Fatalf("%d token rows left", n)
	}
	expectStatusInfo(t, w.api(t, tok.AccessToken, "/credentials"), http.StatusUnauthorized, obapi.MinorUnauthorized)
	_, err = conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	oauthErr(t, err, "invalid_grant")
	w.mc.Get("/oauth/apps").Expect(http.StatusOK).JSON(&list)
	if len(list.Apps) != 0 {
		t.Fatalf("apps after revoke: %v", list.Apps)
	}
	w.mc.Delete("/oauth/apps/"+conf.ClientID).ExpectMsg(http.StatusNotFound, obapi.MsgAppNotFound)
}

func TestRegistrationErrors(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	c.Origin = "" // a wallet's server sends no Origin
	base := func() map[string]any {
		return map[string]any{"client_name": "W", "redirect_uris": []string{"https://wallet.example/cb"}}
	}
	cases := []struct {
		name string
		mod  func(m map[string]any)
		code string
	}{
		{"http off loopback", func(m map[string]any) { m["redirect_uris"] = []string{"http://wallet.example/cb"} }, "invalid_redirect_uri"},
		{"fragment", func(m map[string]any) { m["redirect_uris"] = []string{"https://wallet.example/cb#x"} }, "invalid_redirect_uri"},
		{"relative", func(m map[string]any) { m["redirect_uris"] = []string{"/cb"} }, "invalid_redirect_uri"},
		{"custom scheme", func(m map[string]any) { m["redirect_uris"] = []string{"javascript:alert(1)"} }, "invalid_redirect_uri"},
		{"none", func(m map[string]any) { m["redirect_uris"] = []string{} }, "invalid_redirect_uri"},
		{"one bad among good", func(m map[string]any) { m["redirect_uris"] = []string{"https://ok.example/cb", "ftp://x/cb"} }, "invalid_redirect_uri"},
		{"no name", func(m map[string]any) { m["client_name"] = " " }, "invalid_client_metadata"},
		{"auth method", func(m map[string]any) { m["token_endpoint_auth_method"] = "none" }, "invalid_client_metadata"},
		{"implicit", func(m map[string]any) { m["response_types"] = []string{"token"} }, "invalid_client_metadata"},
		{"client credentials", func(m map[string]any) { m["grant_types"] = []string{"client_credentials"} }, "invalid_client_metadata"},
		{"only upsert", func(m map[string]any) { m["scope"] = obapi.ScopeCredentialUpsert }, "invalid_client_metadata"},
		{"bad client_uri", func(m map[string]any) { m["client_uri"] = "javascript:x" }, "invalid_client_metadata"},
	}
	for _, tc := range cases {
		m := base()
		tc.mod(m)
		r := c.Abs("POST", obapi.RegisterPath, m)
		var er obapi.RegistrationError
		r.JSON(&er)
		if r.Status != http.StatusBadRequest || er.Code != tc.code || er.Description == "" {
			t.Errorf("%s: %d %s, want 400 %s", tc.name, r.Status, r.Text(), tc.code)
		}
	}
	for _, body := range []string{"", "[]", "{", `"x"`} {
		r := c.Raw("POST", obapi.RegisterPath, strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Text(), "invalid_client_metadata") {
			t.Errorf("body %q: %d %s", body, r.Status, r.Text())
		}
	}
	r := c.Raw("POST", obapi.RegisterPath, strings.NewReader("client_name=x"), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if r.Status != http.StatusBadRequest {
		t.Errorf("form body: %d", r.Status)
	}
	if n := func() int {
		n, _ := e.DB.NewSelect().Table("oauth_clients").Count(e.Ctx())
		return int(n)
	}(); n != 0 {
		t.Fatalf("%d clients registered by bad requests", n)
	}
	// a loopback http redirect (native apps) and https are accepted
	m := base()
	m["redirect_uris"] = []string{"http://127.0.0.1:8123/cb", "http://localhost/cb", "http://[::1]:7/cb", "https://wallet.example/cb"}
	c.Abs("POST", obapi.RegisterPath, m).Expect(http.StatusCreated)
}

func TestRegistrationRateLimit(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	body := map[string]any{"client_name": "W", "redirect_uris": []string{"https://wallet.example/cb"}}
	for i := 0; i < obapi.RegistrationsPerHour; i++ {
		c.Abs("POST", obapi.RegisterPath, body).Expect(http.StatusCreated)
	}
	r := c.Abs("POST", obapi.RegisterPath, body)
	if r.Status != http.StatusTooManyRequests || !strings.Contains(r.Text(), "too_many_requests") {
		t.Fatalf("over the limit: %d %s", r.Status, r.Text())
	}
	if n, _ := e.DB.NewSelect().Table("oauth_clients").Count(e.Ctx()); int(n) != obapi.RegistrationsPerHour {
		t.Fatalf("%d clients", n)
	}
}

// TestAuthorizeErrors: each bad authorization request gets the standard error, and no
// code, token or consent is written.
func TestAuthorizeErrors(t *testing.T) {
	w := newWorld(t, 0)
	conf := w.register(t, "")
	verifier := oauth2.GenerateVerifier()
	pkce := oauth2.S256ChallengeOption(verifier)
	noRows := func(what string) {
		t.Helper()
		if n := w.count(t, "SELECT COUNT(*) FROM oauth_tokens") + w.count(t, "SELECT COUNT(*) FROM oauth_consents"); n != 0 {
			t.Fatalf("%s left %d rows", what, n)
		}
	}
	noRedirect := func(what, path string) {
		t.Helper()
		res, props := w.mc.Page(path)
		if res.Status != http.StatusBadRequest || res.Header.Get("Location") != "" {
			t.Fatalf("%s: %d Location %q, want a 400 page and no redirect", what, res.Status, res.Header.Get("Location"))
		}
		page, _ := props["page"].(map[string]any)
		apptest.Expect(t, fmt.Sprintf("%s: page props", what), props,
			apptest.True("page != nil", page != nil))
		apptest.Expect(t, fmt.Sprintf("%s: page props", what), props,
			apptest.True("page[\"error\"] != \"\"", page["error"] != ""),
			apptest.True("page[\"client\"] == nil", page["client"] == nil))
		// posting the same request is refused the same way
		u, _ := url.Parse(path)
		r := w.mc.Raw("POST", obapi.AuthorizePath, strings.NewReader(u.RawQuery+"&decision=allow"), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		if r.Status != http.StatusBadRequest || r.Header.Get("Location") != "" {
			t.Fatalf("%s posted: %d %q", what, r.Status, r.Header.Get("Location"))
		}
		noRows(what)
	}
	rel := func(u string) string { return strings.TrimPrefix(u, w.e.URL) }

	// wrong redirect URI: never redirected to
	bad := *conf
	bad.RedirectURL = "https://evil.example/cb"
	noRedirect("wrong redirect_uri", rel(bad.AuthCodeURL("state-1234567890", pkce)))
	bad.RedirectURL = "http://127.0.0.1:9/other"
	noRedirect("other path on the loopback host", rel(bad.AuthCodeURL("state-1234567890", pkce)))
	// unregistered client
	bad = *conf
	bad.ClientID = "no-such-client"
	noRedirect("unregistered client", rel(bad.AuthCodeURL("state-1234567890", pkce)))

	// errors answered at the registered redirect URI
	atRedirect := func(what, authURL, want string) {
		t.Helper()
		r := w.mc.Raw("GET", rel(authURL), nil, map[string]string{"Accept": "text/html"})
		q := redirected(t, r, w.cb)
		if q.Get("error") != want || q.Get("code") != "" {
			t.Fatalf("%s: %v, want error=%s", what, q, want)
		}
		noRows(what)
	}
	atRedirect("missing PKCE", conf.AuthCodeURL("state-1234567890"), "invalid_request")
	atRedirect("short PKCE challenge", conf.AuthCodeURL("state-1234567890", oauth2.SetAuthURLParam("code_challenge", "abc"), oauth2.SetAuthURLParam("code_challenge_method", "S256")), "invalid_request")
	atRedirect("42-character PKCE challenge", conf.AuthCodeURL("state-1234567890", oauth2.SetAuthURLParam("code_challenge", strings.Repeat("a", 42)), oauth2.SetAuthURLParam("code_challenge_method", "S256")), "invalid_request")
	atRedirect("plain PKCE", conf.AuthCodeURL("state-1234567890", oauth2.SetAuthURLParam("code_challenge", verifier), oauth2.SetAuthURLParam("code_challenge_method", "plain")), "invalid_request")
	up := *conf
	up.Scopes = []string{obapi.ScopeCredentialUpsert}
	atRedirect("scope not offered", up.AuthCodeURL("state-1234567890", pkce), "invalid_scope")
	atRedirect("implicit flow", conf.AuthCodeURL("state-1234567890", pkce, oauth2.SetAuthURLParam("response_type", "token")), "unsupported_response_type")

	// Deny: access_denied, nothing recorded
	q := redirected(t, w.consent(t, w.mc, conf.AuthCodeURL("state-1234567890", pkce), "deny"), w.cb)
	apptest.Expect(t, "deny", q,
		apptest.Eq("q.Get(\"error\")", q.Get("error"), "access_denied"),
		apptest.Eq("q.Get(\"state\")", q.Get("state"), "state-1234567890"),
		apptest.Eq("q.Get(\"code\")", q.Get("code"), ""))
	noRows("deny")

	// the consent form from another site is refused (same-origin check)
	u, _ := url.Parse(conf.AuthCodeURL("state-1234567890", pkce))
	evil := w.e.LoginAs(w.member)
	evil.Origin = "https://evil.example"
	r := evil.Raw("POST", obapi.AuthorizePath, strings.NewReader(u.RawQuery+"&decision=allow"), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if r.Status != http.StatusForbidden {
		t.Fatalf("cross-site consent: %d", r.Status)
	}
	noRows("cross-site consent")

	// a visitor is sent to sign in and back
	path := rel(conf.AuthCodeURL("state-1234567890", pkce))
	v := w.e.Client().Raw("GET", path, nil, map[string]string{"Accept": "text/html"})
	if v.Status/100 != 3 || v.Header.Get("Location") != "/login?next="+url.QueryEscape(path) {
		t.Fatalf("visitor: %d %q", v.Status, v.Header.Get("Location"))
	}
}

// TestTokenErrors: reused, expired and PKCE-less codes, wrong verifiers and client
// secrets, expired access tokens and scopes not granted.
func TestTokenErrors(t *testing.T) {
	w := newWorld(t, 1)
	ctx := context.Background()
	conf := w.register(t, "")
	accessRows := func() int { return w.count(t, "SELECT COUNT(*) FROM oauth_tokens WHERE kind = 'access'") }

	// wrong PKCE verifier, then no verifier: invalid_grant, no token issued
	code, verifier := w.authorize(t, conf)
	_, err := conf.Exchange(ctx, code, oauth2.VerifierOption(oauth2.GenerateVerifier()))
	oauthErr(t, err, "invalid_grant")
	_, err = conf.Exchange(ctx, code)
	oauthErr(t, err, "invalid_grant")
	if accessRows() != 0 {
		t.Fatal("a token was issued for a bad verifier")
	}
	// wrong client secret: invalid_client
	bad := *conf
	bad.ClientSecret = "wrong"
	_, err = bad.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	oauthErr(t, err, "invalid_client")
	// the wrong redirect_uri at the token endpoint
	bad = *conf
	bad.RedirectURL = "http://127.0.0.1:9/other"
	_, err = bad.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	oauthErr(t, err, "invalid_grant")
	if accessRows() != 0 {
		t.Fatal("a token was issued for a bad request")
	}

	// a refused exchange changed nothing: the right exchange works once; the code reused: invalid_grant, and the tokens issued
	// from it are revoked (RFC 6749 4.1.2)
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if r := w.api(t, tok.AccessToken, "/credentials"); r.Status != http.StatusOK {
		t.Fatalf("fresh token: %d", r.Status)
	}
	_, err = conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	oauthErr(t, err, "invalid_grant")
	expectStatusInfo(t, w.api(t, tok.AccessToken, "/credentials"), http.StatusUnauthorized, obapi.MinorUnauthorized)
	_, err = conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	oauthErr(t, err, "invalid_grant")

	// an expired code
	code, verifier = w.authorize(t, conf)
	if _, err := w.e.DB.NewRaw("UPDATE oauth_tokens SET expires_at = ? WHERE kind = 'code' AND active = ?", model.Now().Add(-time.Minute), true).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	before := accessRows()
	_, err = conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	oauthErr(t, err, "invalid_grant")
	if accessRows() != before {
		t.Fatal("a token was issued for an expired code")
	}
	// a code of another client
	other := w.register(t, "")
	code, verifier = w.authorize(t, conf)
	_, err = other.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	oauthErr(t, err, "invalid_grant")

	// an expired access token: 401; its refresh token still works
	tok, err = conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.e.DB.NewRaw("UPDATE oauth_tokens SET expires_at = ? WHERE kind = 'access'", model.Now().Add(-time.Second)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	expectStatusInfo(t, w.api(t, tok.AccessToken, "/profile"), http.StatusUnauthorized, obapi.MinorUnauthorized)
	tok2, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		t.Fatal(err)
	}
	// an expired refresh token
	if _, err := w.e.DB.NewRaw("UPDATE oauth_tokens SET expires_at = ? WHERE kind = 'refresh' AND active = ?", model.Now().Add(-time.Second), true).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok2.RefreshToken}).Token()
	oauthErr(t, err, "invalid_grant")
	// revoking with another client's credentials changes nothing
	rev := url.Values{"token": {tok2.AccessToken}}
	req, _ := http.NewRequest("POST", w.e.URL+obapi.RevokePath, strings.NewReader(rev.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(other.ClientID), url.QueryEscape(other.ClientSecret))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if r := w.api(t, tok2.AccessToken, "/profile"); r.Status != http.StatusOK {
		t.Fatalf("another client revoked the token: %d (revoke answered %d)", r.Status, res.StatusCode)
	}

	// a token granted only profile.readonly: getCredentials 403, getProfile 200
	prof := *conf
	prof.Scopes = []string{obapi.ScopeProfileRead}
	code, verifier = w.authorize(t, &prof)
	ptok, err := prof.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	r := w.api(t, ptok.AccessToken, "/credentials")
	expectStatusInfo(t, r, http.StatusForbidden, obapi.MinorForbidden)
	if !strings.Contains(r.Header.Get("WWW-Authenticate"), "insufficient_scope") {
		t.Fatalf("WWW-Authenticate: %q", r.Header.Get("WWW-Authenticate"))
	}
	if r := w.api(t, ptok.AccessToken, "/profile"); r.Status != http.StatusOK {
		t.Fatalf("profile with profile scope: %d", r.Status)
	}

	// the token endpoint: bad grant types and bodies get standard errors, never a 5xx
	for _, body := range []string{"", "grant_type=password&username=a&password=b", "grant_type=client_credentials", "grant_type=authorization_code&code=nope"} {
		req, _ := http.NewRequest("POST", w.e.URL+obapi.TokenPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(url.QueryEscape(conf.ClientID), url.QueryEscape(conf.ClientSecret))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			Error string `json:"error"`
		}
		_ = json.NewDecoder(res.Body).Decode(&e)
		res.Body.Close()
		if res.StatusCode/100 != 4 || e.Error == "" {
			t.Errorf("token %q: %d %q", body, res.StatusCode, e.Error)
		}
	}
}

// TestSweepExpired: the hourly sweep deletes what expired and keeps what is live.
func TestSweepExpired(t *testing.T) {
	w := newWorld(t, 0)
	ctx := context.Background()
	conf := w.register(t, "")
	code, verifier := w.authorize(t, conf)
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	live := w.count(t, "SELECT COUNT(*) FROM oauth_tokens")
	if _, err := w.e.DB.NewRaw("UPDATE oauth_tokens SET expires_at = ? WHERE kind = 'code'", model.Now().Add(-time.Minute)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	n, err := obapi.SweepExpired(ctx, w.e.DB, time.Now())
	if err != nil || n != 1 {
		t.Fatalf("swept %d: %v", n, err)
	}
	if got := w.count(t, "SELECT COUNT(*) FROM oauth_tokens"); got != live-1 || w.count(t, "SELECT COUNT(*) FROM oauth_tokens WHERE kind = 'code'") != 0 {
		t.Fatalf("%d rows left of %d", got, live)
	}
	if r := w.api(t, tok.AccessToken, "/profile"); r.Status != http.StatusOK {
		t.Fatalf("live token swept: %d", r.Status)
	}
}

// TestUnconfirmedHolder: a holder whose address is not confirmed has no credential issued,
// so getCredentials lists none (and the count agrees).
func TestUnconfirmedHolder(t *testing.T) {
	w := newWorld(t, 2)
	ctx := context.Background()
	// connected while confirmed (an unconfirmed account cannot connect), then the
	// address is unproven again (an admin changed it)
	conf := w.register(t, "")
	code, verifier := w.authorize(t, conf)
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.e.DB.NewRaw("UPDATE users SET email_verified_at = NULL WHERE id = ?", w.member.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	r := w.api(t, tok.AccessToken, "/credentials")
	if r.Status != http.StatusOK || r.Header.Get("X-Total-Count") != "0" || string(r.Body) != `{"credential":[],"compactJwsString":[]}` {
		t.Fatalf("unconfirmed holder: %d %s %s", r.Status, r.Header.Get("X-Total-Count"), r.Body)
	}
}
