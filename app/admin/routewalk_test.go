package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/web"
)

// rwPublic lists every route anyone may use, on purpose, with why. A route marked
// web.Public that is not here fails TestRouteWalkAllRoles: a new public route must be
// added here knowingly (and a route removed from the table must be removed here).
// rwBearer are public routes that authenticate each request by an OAuth 2.0 bearer token
// (the Open Badges API, app/obapi; the OpenID4VCI credential endpoint, app/oid4vci):
// without one they answer 401 to everyone, with the error code given here.
var rwBearer = map[string]string{"GET /ims/ob/v3p0/credentials": "unauthorizedrequest", "GET /ims/ob/v3p0/profile": "unauthorizedrequest",
	"POST /oid4vci/credential": "invalid_token"}

var rwPublic = map[string]string{
	"GET /":                                           "home",
	"GET /about":                                      "marketing",
	"GET /services":                                   "marketing",
	"GET /contact":                                    "marketing",
	"GET /shippingpolicy":                             "policy",
	"GET /termsandconditions":                         "policy",
	"GET /cancellationsandrefunds":                    "policy",
	"GET /privacypolicy":                              "policy",
	"GET /robots.txt":                                 "crawlers",
	"GET /sitemap.xml":                                "crawlers",
	"GET /login":                                      "sign in",
	"GET /signup":                                     "sign up",
	"GET /reset-password":                             "reset link target",
	"GET /profile/:id":                                "shared profile link (spec: /profile/{id})",
	"GET /media/*":                                    "profile pictures (generated keys only)",
	"GET /badges":                                     "catalogue",
	"GET /badges/:id":                                 "badge detail",
	"GET /badges/:id/assessment":                      "a skill badge's public technical report",
	"GET /badge/:id":                                  "old badge link, redirects",
	"GET /verify-badge":                               "verification form",
	"GET /verify/:verificationId":                     "shared verification link",
	"GET /hall-of-fame":                               "Hall of Fame",
	"GET /.well-known/jwks.json":                      "credential verification keys",
	"GET /.well-known/jwks/:kid":                      "one credential verification key (the VC-JWT kid URL)",
	"GET /.well-known/did.json":                       "the issuer's did:web document",
	"GET /ims/ob/v3p0/discovery":                      "Open Badges API service description (OpenAPI)",
	"GET /ims/ob/v3p0/credentials":                    "Open Badges API getCredentials: bearer token checked by the handler",
	"GET /ims/ob/v3p0/profile":                        "Open Badges API getProfile: bearer token checked by the handler",
	"OPTIONS /ims/ob/v3p0/credentials":                "CORS preflight of getCredentials for browser wallets: headers only, no data",
	"OPTIONS /ims/ob/v3p0/profile":                    "CORS preflight of getProfile for browser wallets: headers only, no data",
	"OPTIONS /ims/ob/v3p0/discovery":                  "CORS preflight of the service description: headers only, no data",
	"POST /oauth/register":                            "OAuth dynamic client registration (RFC 7591), rate-limited per address",
	"POST /oauth/token":                               "OAuth token endpoint: client credentials checked by the handler",
	"GET /.well-known/openid-credential-issuer":       "OpenID4VCI credential issuer metadata (public by the spec)",
	"GET /.well-known/oauth-authorization-server":     "OAuth authorization server metadata for OpenID4VCI wallets (RFC 8414)",
	"POST /oid4vci/token":                             "OpenID4VCI token endpoint: the single-use pre-authorized code (and tx_code) checked by the handler",
	"POST /oid4vci/nonce":                             "OpenID4VCI nonce endpoint: a single-use c_nonce, nothing else",
	"POST /oid4vci/credential":                        "OpenID4VCI credential endpoint: bearer token and proof of possession checked by the handler",
	"POST /exchanges/:id":                             "VC API exchange of one wallet offer (DCC wallets): unguessable id, DID authentication checked by the handler",
	"OPTIONS /.well-known/openid-credential-issuer":   "CORS preflight for browser wallets: headers only, no data",
	"OPTIONS /.well-known/oauth-authorization-server": "CORS preflight for browser wallets: headers only, no data",
	"OPTIONS /oid4vci/token":                          "CORS preflight for browser wallets: headers only, no data",
	"OPTIONS /oid4vci/nonce":                          "CORS preflight for browser wallets: headers only, no data",
	"OPTIONS /oid4vci/credential":                     "CORS preflight for browser wallets: headers only, no data",
	"OPTIONS /exchanges/:id":                          "CORS preflight for browser wallets: headers only, no data",
	"POST /oauth/revoke":                              "OAuth revocation endpoint (RFC 7009): client credentials checked by the handler",
	"GET /issuer/image.png":                           "Open Badges issuer image",
	"GET /credentials/status/revocation":              "signed Bitstring Status List (revocation)",
	"GET /credentials/status/suspension":              "signed Bitstring Status List (suspension)",
	"GET /issuer":                                     "Open Badges issuer profile",
	"GET /achievements/:badgeId":                      "Open Badges achievement",
	"GET /achievements/:badgeId/image.png":            "Open Badges achievement image",
	"GET /credentials/status":                         "revocation list",
	"GET /credentials/:id/card.png":                   "social card of a credential",
	"GET /badges/:id/card.png":                        "social card of a badge page",
	"GET /profile/:id/card.png":                       "social card of a public profile",
	"GET /credentials/:file":                          "credential documents (JSON, JWT, baked PNG)",
	"GET /paypal-sim/*":                               "the built-in PayPal sandbox (stands in for PayPal's own site)",
	"POST /paypal-sim/*":                              "the built-in PayPal sandbox",

	"POST /backend/api/v1/auth/register":           "sign up",
	"POST /backend/api/v1/auth/login":              "sign in",
	"POST /backend/api/v1/auth/verify-email":       "confirm an address with a mailed token",
	"POST /backend/api/v1/auth/login/2fa":          "second step of a sign-in (its challenge cookie)",
	"GET /verify-email":                            "the page of the mailed confirmation link",
	"POST /login":                                  "sign in as a plain form post (JavaScript off)",
	"POST /forgot-password":                        "the Forgot Password form as a plain form post (JavaScript off)",
	"POST /contact":                                "the contact form as a plain form post (JavaScript off)",
	"POST /verify-badge":                           "bulk verification as a plain form post (JavaScript off)",
	"POST /signup":                                 "sign up as a plain form post (JavaScript off)",
	"POST /backend/api/v1/auth/logout":             "sign out (fine without a session)",
	"POST /backend/api/v1/auth/forgot-password":    "reset request",
	"POST /backend/api/v1/auth/reset-password":     "reset with a mailed token",
	"GET /backend/api/v1/badges/with-ownership":    "catalogue (ownership when signed in)",
	"GET /backend/api/v1/badges/:id":               "badge detail",
	"POST /backend/api/v1/payments/paypal-webhook": "PayPal, verified by signature",
	"GET /backend/api/v1/verify/badge/:id":         "verification",
	"POST /backend/api/v1/verify/bulk":             "recruiters' bulk verification (rate limited per client)",
	"POST /backend/api/v1/verify/receipts/check":   "anyone checks a verification receipt",
	"POST /backend/api/v1/verify/file":             "verification of a dropped or chosen credential file (rate limited)",
	"GET /claim/:token":                            "a direct award's claim page (says to sign in)",
	"GET /angoff/:token":                           "a standard-setting rater's page: the single-use link's token checked by the handler",
	"GET /backend/api/v1/angoff/:token/ratings":    "a rater's items and ratings: the link's token checked by the handler (never the key)",
	"PUT /backend/api/v1/angoff/:token/ratings":    "a rater saves or submits ratings: the link's token checked by the handler",
	"GET /backend/api/v1/hall-of-fame":             "Hall of Fame",
}

// rwPath fills a route pattern's parameters with a well-formed but unknown id (1 for an
// int constraint, "x" for a wildcard).
func rwPath(pattern string) string {
	segs := strings.Split(pattern, "/")
	for i, s := range segs {
		switch {
		case strings.HasPrefix(s, ":") || strings.HasPrefix(s, "+"):
			if strings.Contains(s, "<int") {
				segs[i] = "1"
			} else {
				segs[i] = "0123456789abcdef01234567"
			}
		case s == "*":
			segs[i] = "x"
		}
	}
	return strings.Join(segs, "/")
}

// rwSend requests route r's path as c: API routes with a JSON body for writes, pages
// (and assets) as a browser navigation.
func rwSend(c *apptest.Client, r web.Route, path string) *apptest.Resp {
	if r.Kind == web.API {
		var body any
		if r.Method != "GET" && r.Method != "HEAD" && r.Method != "DELETE" {
			body = "{}"
		}
		return c.Abs(r.Method, path, body)
	}
	var body *strings.Reader
	if r.Method != "GET" {
		body = strings.NewReader("{}")
	}
	if body == nil {
		return c.Raw(r.Method, path, nil, map[string]string{"Accept": "text/html"})
	}
	return c.Raw(r.Method, path, body, map[string]string{"Accept": "text/html", "Content-Type": "application/json"})
}

// TestRouteWalkAllRoles walks EVERY route of the table (whatever feature added it) as a
// visitor, a member and an admin:
//   - visitor: member and admin API routes answer 401 'Please log in to continue.', member
//     and admin pages redirect to /login?next=…; public routes are never refused;
//   - member: admin API routes answer 403 with the admin message, the admin page renders
//     'Access Denied' with 403; member routes let the member through;
//   - admin: no route refuses an admin (no 401, no 403);
//   - nobody gets a 5xx for a well-formed request with an unknown id and an empty body;
//   - every public route is on the rwPublic list, and every entry of the list exists.
func TestRouteWalkAllRoles(t *testing.T) {
	e := apptest.New(t)
	member := e.CreateUser("walk-member@x.io", "password123", "user")
	admin := e.CreateUser("walk-admin@x.io", "password123", "admin")
	visitor := e.Client()
	seen := map[string]bool{}
	counts := map[string]int{}
	for _, r := range e.App.Routes {
		key := r.Method + " " + r.Path
		seen[key] = true
		path := rwPath(r.Path)
		loginRedirect := "/login?next=" + url.QueryEscape(path)
		// a new session per route: the sign-out route ends the one it is sent with
		asMember, asAdmin := e.LoginAs(member), e.LoginAs(admin)

		results := map[string]*apptest.Resp{"visitor": rwSend(visitor, r, path), "member": rwSend(asMember, r, path), "admin": rwSend(asAdmin, r, path)}
		for who, res := range results {
			if res.Status >= 500 {
				t.Errorf("%s as %s: %d %s", key, who, res.Status, res.Text())
			}
		}
		v, m, a := results["visitor"], results["member"], results["admin"]

		// the admin is never refused (a bearer-token route refuses a session of anyone)
		if rwBearer[key] == "" && a.Status == http.StatusUnauthorized || a.Status == http.StatusForbidden {
			t.Errorf("%s as admin: %d %s", key, a.Status, a.Text())
		}
		if r.Kind == web.Page && a.Header.Get("Location") == loginRedirect {
			t.Errorf("%s as admin: sent to sign in", key)
		}

		switch r.Access {
		case web.Public:
			if _, ok := rwPublic[key]; !ok {
				t.Errorf("%s is public but not on the rwPublic list: if anyone may use it, add it there with why", key)
			}
			if code := rwBearer[key]; code != "" {
				// authenticated by an OAuth bearer token, never by the session: 401 for
				// everyone without one, whoever is signed in
				for who, res := range map[string]*apptest.Resp{"visitor": v, "member": m, "admin": a} {
					if res.Status != http.StatusUnauthorized || !strings.Contains(res.Text(), code) {
						t.Errorf("bearer %s as %s: %d %s, want 401 %s", key, who, res.Status, res.Text(), code)
					}
				}
				counts["public"]++
				continue
			}
			for who, res := range map[string]*apptest.Resp{"visitor": v, "member": m} {
				if res.Status == http.StatusUnauthorized || (res.Status == http.StatusForbidden && res.Msg() == web.MsgAdminRequired) ||
					res.Header.Get("Location") == loginRedirect {
					t.Errorf("public %s as %s: %d %s", key, who, res.Status, res.Header.Get("Location"))
				}
			}
			counts["public"]++
		case web.Member, web.Admin:
			if _, ok := rwPublic[key]; ok {
				t.Errorf("%s is on the rwPublic list but is %s", key, r.Access)
			}
			if r.Kind == web.Page {
				if v.Status/100 != 3 || v.Header.Get("Location") != loginRedirect {
					t.Errorf("%s as visitor: %d Location %q, want a redirect to %s", key, v.Status, v.Header.Get("Location"), loginRedirect)
				}
			} else if v.Status != http.StatusUnauthorized || v.Msg() != web.MsgLoginRequired {
				t.Errorf("%s as visitor: %d %s, want 401 %q", key, v.Status, v.Text(), web.MsgLoginRequired)
			}
			if r.Access == web.Member {
				if m.Status == http.StatusUnauthorized || m.Status == http.StatusForbidden || m.Header.Get("Location") == loginRedirect {
					t.Errorf("%s as member: %d %s", key, m.Status, m.Text())
				}
				counts["member "+kindName(r.Kind)]++
				continue
			}
			if r.Kind == web.Page {
				if m.Status != http.StatusForbidden || !strings.Contains(m.Text(), `\"denied\":true`) && !strings.Contains(m.Text(), `&#34;denied&#34;:true`) {
					t.Errorf("%s as member: %d, want the 403 Access Denied page", key, m.Status)
				}
			} else if m.Status != http.StatusForbidden || m.Msg() != web.MsgAdminRequired {
				t.Errorf("%s as member: %d %s, want 403 %q", key, m.Status, m.Text(), web.MsgAdminRequired)
			}
			counts["admin "+kindName(r.Kind)]++
		}
	}
	for key := range rwPublic {
		if !seen[key] {
			t.Errorf("rwPublic lists %s, which is not in the route table any more", key)
		}
	}
	t.Logf("walked %d routes x 3 roles: %v", len(e.App.Routes), counts)
	apptest.Expect(t, "the walk covered too little", counts,
		apptest.True("counts[\"admin api\"] >= 10", counts["admin api"] >= 10),
		apptest.True("counts[\"member api\"] >= 5", counts["member api"] >= 5),
		apptest.True("counts[\"member page\"] >= 3", counts["member page"] >= 3),
		apptest.True("counts[\"admin page\"] >= 1", counts["admin page"] >= 1),
		apptest.True("counts[\"public\"] >= 10", counts["public"] >= 10))
}

func kindName(k web.Kind) string {
	switch k {
	case web.Page:
		return "page"
	case web.Asset:
		return "asset"
	}
	return "api"
}
