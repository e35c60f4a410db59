package verify_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"meritmark/app"
	"meritmark/app/apptest"
)

// The verify answer's Add-to-profile link carries the configured LinkedIn organization id,
// the expiry month and year, certId (the public id) and certUrl (the verify page).
func TestLinkedInLinkCarriesOrganizationAndExpiry(t *testing.T) {
	w := newWorld(t, apptest.Option(func(d *app.Deps) { d.Config.LinkedInOrganizationID = "424242" }))
	days := 400
	b := w.newBadge(t, "Cloud Architect", "DevOps", &days)
	_, g := w.grant(t, "Lin Kedin", email(1), b)
	var res struct {
		ExpiresAt  *time.Time `json:"expiresAt"`
		Credential struct {
			LinkedInAddURL string `json:"linkedinAddUrl"`
			VerifyURL      string `json:"verifyUrl"`
		} `json:"credential"`
	}
	w.e.Client().Get("/verify/badge/" + g.PublicVerificationID).Expect(http.StatusOK).JSON(&res)
	u, err := url.Parse(res.Credential.LinkedInAddURL)
	if err != nil || u.Host != "www.linkedin.com" || u.Path != "/profile/add" {
		t.Fatalf("link %q", res.Credential.LinkedInAddURL)
	}
	q := u.Query()
	exp := g.ExpiresAt.UTC()
	checks := map[string]string{
		"startTask": "CERTIFICATION_NAME", "name": "Cloud Architect", "organizationId": "424242",
		"issueYear": itoa(g.GrantedAt.UTC().Year()), "issueMonth": itoa(int(g.GrantedAt.UTC().Month())),
		"expirationYear": itoa(exp.Year()), "expirationMonth": itoa(int(exp.Month())),
		"certId": g.PublicVerificationID, "certUrl": w.e.URL + "/verify/" + g.PublicVerificationID,
	}
	for k, v := range checks {
		if q.Get(k) != v {
			t.Errorf("%s = %q, want %q (%s)", k, q.Get(k), v, res.Credential.LinkedInAddURL)
		}
	}
	if res.Credential.VerifyURL != checks["certUrl"] {
		t.Errorf("verify url %q", res.Credential.VerifyURL)
	}
}
