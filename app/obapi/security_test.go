package obapi_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
	"meritmark/app/obapi"
)

// TestRefreshTokenIsNotAnAccessToken: the bearer endpoints refuse a refresh token (RFC
// 6750): a leaked refresh token must not read the API without the client secret.
func TestRefreshTokenIsNotAnAccessToken(t *testing.T) {
	w := newWorld(t, 1)
	ctx := context.Background()
	conf := w.register(t, "")
	code, verifier := w.authorize(t, conf)
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/credentials", "/profile"} {
		r := w.api(t, tok.RefreshToken, path)
		expectStatusInfo(t, r, http.StatusUnauthorized, obapi.MinorUnauthorized)
		if !strings.Contains(r.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Fatalf("%s WWW-Authenticate: %q", path, r.Header.Get("WWW-Authenticate"))
		}
		if r := w.api(t, tok.AccessToken, path); r.Status != http.StatusOK {
			t.Fatalf("%s with the access token: %d %s", path, r.Status, r.Body)
		}
	}
	// the refresh token still refreshes (it was not spent by being shown to the API)
	if _, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err != nil {
		t.Fatal(err)
	}
}

// connected registers a wallet, connects it for the member and answers its tokens.
func (w *world) connected(t *testing.T) (*oauth2.Config, *oauth2.Token) {
	t.Helper()
	conf := w.register(t, "")
	code, verifier := w.authorize(t, conf)
	tok, err := conf.Exchange(context.Background(), code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	return conf, tok
}

// grantsEnded checks that the member's wallet grant is gone (tokens refused, no rows
// left) and that one mail told them why.
func (w *world) grantsEnded(t *testing.T, conf *oauth2.Config, tok *oauth2.Token, why string) {
	t.Helper()
	expectStatusInfo(t, w.api(t, tok.AccessToken, "/credentials"), http.StatusUnauthorized, obapi.MinorUnauthorized)
	_, err := conf.TokenSource(context.Background(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	oauthErr(t, err, "invalid_grant")
	apptest.Expect(t, "rows of the member's grants", w.member,
		apptest.Eq("consents", w.count(t, "SELECT COUNT(*) FROM oauth_consents WHERE user_id = ?", w.member.ID), 0),
		apptest.Eq("tokens", w.count(t, "SELECT COUNT(*) FROM oauth_tokens WHERE user_id = ?", w.member.ID), 0))
	var texts []string
	if err := w.e.DB.NewRaw("SELECT body_text FROM outbox WHERE to_addr = ? AND subject = ?", w.member.Email, auth.MailAppsDisconnected).
		Scan(w.e.Ctx(), &texts); err != nil {
		t.Fatal(err)
	}
	if len(texts) != 1 || !strings.Contains(texts[0], "  - Test Wallet\n") || !strings.Contains(strings.Join(strings.Fields(texts[0]), " "), why) {
		t.Fatalf("want one mail naming the app and saying %q, got %q", why, texts)
	}
}

// otherHolder is another member with a connected wallet: what ends one member's grants
// must leave theirs alone.
func (w *world) otherHolder(t *testing.T, conf *oauth2.Config) (*oauth2.Token, func()) {
	t.Helper()
	u, c := w.e.Member("bystander@x.io")
	verifier := oauth2.GenerateVerifier()
	q := redirected(t, w.consent(t, c, conf.AuthCodeURL("state-1234567890", oauth2.S256ChallengeOption(verifier)), "allow"), w.cb)
	tok, err := conf.Exchange(context.Background(), q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	return tok, func() {
		t.Helper()
		if r := w.api(t, tok.AccessToken, "/profile"); r.Status != http.StatusOK {
			t.Fatalf("another member's grant ended: %d", r.Status)
		}
		if n := w.count(t, "SELECT COUNT(*) FROM oauth_consents WHERE user_id = ?", u.ID); n != 1 {
			t.Fatalf("another member's consent: %d rows", n)
		}
	}
}

// TestUnconfirmedAccountCannotConnect: an account whose address is not confirmed gets no
// consent screen and no code (ASVS account pre-hijacking: whoever signs up first with
// someone else's address must not hold a grant).
func TestUnconfirmedAccountCannotConnect(t *testing.T) {
	w := newWorld(t, 1)
	if _, err := w.e.DB.NewRaw("UPDATE users SET email_verified_at = NULL WHERE id = ?", w.member.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	conf := w.register(t, "")
	authURL := strings.TrimPrefix(conf.AuthCodeURL("state-1234567890", oauth2.S256ChallengeOption(oauth2.GenerateVerifier())), w.e.URL)
	res, props := w.mc.Page(authURL)
	page, _ := props["page"].(map[string]any)
	if res.Status != http.StatusForbidden || res.Header.Get("Location") != "" || page == nil {
		t.Fatalf("unconfirmed consent page: %d %q", res.Status, res.Header.Get("Location"))
	}
	apptest.Expect(t, "page", page,
		apptest.Eq[any]("error", page["error"], "access_denied"),
		apptest.Eq[any]("errorTitle", page["errorTitle"], obapi.MsgConfirmFirstTitle),
		apptest.Eq[any]("errorDescription", page["errorDescription"], obapi.MsgConfirmFirst),
		apptest.True("no client", page["client"] == nil))
	u, _ := url.Parse(authURL)
	r := w.mc.Raw("POST", obapi.AuthorizePath, strings.NewReader(u.RawQuery+"&decision=allow"), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if r.Status != http.StatusForbidden || r.Header.Get("Location") != "" {
		t.Fatalf("unconfirmed allow: %d %q", r.Status, r.Header.Get("Location"))
	}
	if n := w.count(t, "SELECT COUNT(*) FROM oauth_tokens") + w.count(t, "SELECT COUNT(*) FROM oauth_consents"); n != 0 {
		t.Fatalf("an unconfirmed account connected an app: %d rows", n)
	}
}

// TestPasswordResetEndsWalletGrants: the owner taking the account back with a reset
// link disconnects every app, and is told.
func TestPasswordResetEndsWalletGrants(t *testing.T) {
	w := newWorld(t, 1)
	conf, tok := w.connected(t)
	_, bystander := w.otherHolder(t, conf)
	reset := auth.NewToken()
	now := model.Now()
	if _, err := w.e.DB.NewInsert().Model(&model.PasswordReset{ID: auth.HashToken(reset), UserID: w.member.ID, ExpiresAt: now.Add(time.Hour), CreatedAt: now}).
		Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	w.e.Client().Post("/auth/reset-password", map[string]any{"email": w.member.Email, "token": reset, "newPassword": "kettle-lamp-reset-91"}).
		ExpectMsg(http.StatusOK, auth.MsgResetDone)
	w.grantsEnded(t, conf, tok, "was reset with a link sent to this address")
	bystander()
}

// TestPasswordChangeEndsWalletGrants: so does a change of password from the profile.
func TestPasswordChangeEndsWalletGrants(t *testing.T) {
	w := newWorld(t, 1)
	conf, tok := w.connected(t)
	_, bystander := w.otherHolder(t, conf)
	w.mc.Post("/auth/change-password", map[string]any{"currentPassword": "password123", "newPassword": "kettle-lamp-change-92"}).
		ExpectMsg(http.StatusOK, auth.MsgPasswordChanged)
	w.grantsEnded(t, conf, tok, "was changed from your profile")
	bystander()
}

// TestFirstConfirmationEndsWalletGrants: an app connected while the address was not yet
// proven (before unconfirmed accounts were refused, or after an address change) is
// disconnected when the address is first confirmed; a later confirmation link of a
// confirmed address changes nothing.
func TestFirstConfirmationEndsWalletGrants(t *testing.T) {
	w := newWorld(t, 1)
	conf, tok := w.connected(t)
	_, bystander := w.otherHolder(t, conf)
	if _, err := w.e.DB.NewRaw("UPDATE users SET email_verified_at = NULL WHERE id = ?", w.member.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	confirm := func() {
		t.Helper()
		tok := auth.NewToken()
		now := model.Now()
		if _, err := w.e.DB.NewInsert().Model(&auth.EmailVerification{ID: auth.HashToken(tok), UserID: w.member.ID, ExpiresAt: now.Add(time.Hour), CreatedAt: now}).
			Exec(w.e.Ctx()); err != nil {
			t.Fatal(err)
		}
		w.e.Client().Post("/auth/verify-email", map[string]any{"token": tok}).ExpectMsg(http.StatusOK, auth.MsgVerified)
	}
	confirm()
	w.grantsEnded(t, conf, tok, "was confirmed for the first time")
	bystander()
	// connected again once confirmed: another confirmation link leaves it alone
	_, tok = w.connected(t)
	confirm()
	if r := w.api(t, tok.AccessToken, "/credentials"); r.Status != http.StatusOK {
		t.Fatalf("a second confirmation ended the grant: %d", r.Status)
	}
}

// TestClientNames: control and zero-width characters never reach the consent page, from
// a registration or from a row stored before the rule; a name may not claim to be this
// site (the consent page would read as if Meritmark itself asked).
func TestClientNames(t *testing.T) {
	w := newWorld(t, 0)
	for _, name := range []string{"\u200b\u200d\u2060", "Meritmark Wallet", "Merit\u200bmark", "MERIT-MARK"} {
		r := w.e.Client().Abs("POST", obapi.RegisterPath, map[string]any{"client_name": name, "redirect_uris": []string{w.cb}})
		var er obapi.RegistrationError
		r.JSON(&er)
		if r.Status != http.StatusBadRequest || er.Code != "invalid_client_metadata" {
			t.Errorf("client_name %q: %d %s", name, r.Status, r.Text())
		}
	}
	if n := w.count(t, "SELECT COUNT(*) FROM oauth_clients"); n != 0 {
		t.Fatalf("%d clients registered", n)
	}
	body := map[string]any{"client_name": "Test\u200b\u00ad Wal\u202elet\u2069", "client_uri": "https://wallet.example", "redirect_uris": []string{w.cb}}
	r := w.e.Client().Abs("POST", obapi.RegisterPath, body).Expect(http.StatusCreated)
	var reg struct {
		ID   string `json:"client_id"`
		Name string `json:"client_name"`
	}
	r.JSON(&reg)
	var stored string
	if err := w.e.DB.NewRaw("SELECT name FROM oauth_clients WHERE id = ?", reg.ID).Scan(w.e.Ctx(), &stored); err != nil {
		t.Fatal(err)
	}
	apptest.Expect(t, "registered name", reg,
		apptest.Eq("answered", reg.Name, "Test Wallet"),
		apptest.Eq("stored", stored, "Test Wallet"))
	// a name stored before the rule is cleaned when shown (w.consent checks "Test Wallet")
	if _, err := w.e.DB.NewRaw("UPDATE oauth_clients SET name = ? WHERE id = ?", "Test\u2066 \u200bWallet\u2069", reg.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	conf := &oauth2.Config{ClientID: reg.ID, RedirectURL: w.cb, Scopes: []string{obapi.ScopeProfileRead},
		Endpoint: oauth2.Endpoint{AuthURL: w.e.URL + obapi.AuthorizePath}}
	verifier := oauth2.GenerateVerifier()
	redirected(t, w.consent(t, w.mc, conf.AuthCodeURL("state-1234567890", oauth2.S256ChallengeOption(verifier)), "deny"), w.cb)
}
