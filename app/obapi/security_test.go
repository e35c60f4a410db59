package obapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/oauth2"

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
		expectStatusInfo(t, r, http.StatusUnauthorized, obapi.MinorUnauthorised)
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
