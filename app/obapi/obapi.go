// Package obapi is the Open Badges 3.0 API for wallets (1EdTech's Service Provider (Read)
// role; docs/wallet-api.md): service discovery, OAuth 2.0 dynamic client registration
// (RFC 7591), the authorization code grant with PKCE and the holder's consent, token
// refresh and revocation (RFC 7009), and the bearer-token endpoints getCredentials and
// getProfile. The OAuth 2.0 server is
// github.com/ory/fosite over a bun storage (store.go); this file holds the pure rules.
package obapi

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// BasePath is where the Open Badges API lives.
const BasePath = "/ims/ob/v3p0"

// The OAuth 2.0 endpoints.
const (
	AuthorizePath = "/oauth/authorize"
	TokenPath     = "/oauth/token"
	RevokePath    = "/oauth/revoke"
	RegisterPath  = "/oauth/register"
)

// The scopes the Open Badges 3.0 specification defines.
const (
	ScopeCredentialRead   = "https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly"
	ScopeCredentialUpsert = "https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.upsert"
	ScopeProfileRead      = "https://purl.imsglobal.org/spec/ob/v3p0/scope/profile.readonly"
	ScopeProfileUpdate    = "https://purl.imsglobal.org/spec/ob/v3p0/scope/profile.update"
)

// Scope is one scope this host offers, with the words the consent screen uses.
type Scope struct {
	URI         string `json:"uri"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Offered are the scopes this host supports: it hosts the credentials it issued itself,
// so wallets may read them and the holder's profile, but not write either (the upsert
// and update scopes are not offered: registration and authorization requests drop them,
// and a request left with no scope is refused).
var Offered = []Scope{
	{URI: ScopeCredentialRead, Title: "Read your badges", Description: "See and download the signed credentials of the badges you hold."},
	{URI: ScopeProfileRead, Title: "Read your profile", Description: "See your name, email address and profile link."},
}

// Offers reports whether scope is offered.
func Offers(scope string) bool {
	for _, s := range Offered {
		if s.URI == scope {
			return true
		}
	}
	return false
}

// ScopeInfo describes scope for the consent screen (an unknown scope is shown as is).
func ScopeInfo(scope string) Scope {
	for _, s := range Offered {
		if s.URI == scope {
			return s
		}
	}
	return Scope{URI: scope, Title: scope}
}

// RegisteredScopes is the scope a client registers: of the space-separated scopes it
// asked for, those offered, in the order of Offered (all of them when it asked for none).
// ok is false when it asked only for scopes that are not offered.
func RegisteredScopes(requested string) (scopes []string, ok bool) {
	asked := strings.Fields(requested)
	for _, s := range Offered {
		if len(asked) == 0 || contains(asked, s.URI) {
			scopes = append(scopes, s.URI)
		}
	}
	return scopes, len(scopes) > 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// MaxRedirectURIs bounds how many redirect URIs one client registers.
const MaxRedirectURIs = 10

// CheckRedirectURI says why raw cannot be a registered redirect URI ("" when it can): it
// must be an absolute https URL, or http on a loopback host (127.0.0.1, [::1] or
// localhost: native apps and tests), with no fragment and no user information.
func CheckRedirectURI(raw string) string {
	if raw == "" || len(raw) > 2000 {
		return "a redirect URI must be an absolute URL of at most 2000 characters"
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return fmt.Sprintf("%q is not an absolute URL", raw)
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return fmt.Sprintf("%q must not have a fragment", raw)
	}
	if u.User != nil {
		return fmt.Sprintf("%q must not carry user information", raw)
	}
	switch u.Scheme {
	case "https":
		return ""
	case "http":
		if isLoopback(u.Hostname()) {
			return ""
		}
		return fmt.Sprintf("%q must use https (http is allowed only on 127.0.0.1, [::1] or localhost)", raw)
	}
	return fmt.Sprintf("%q must use https", raw)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckURI says why raw cannot be an informational URI of a client (client_uri,
// logo_uri, tos_uri, policy_uri): it must be empty or an absolute http(s) URL.
func CheckURI(field, raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || len(raw) > 2000 || !u.IsAbs() || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil {
		return field + " must be an absolute http(s) URL"
	}
	return ""
}

// Paging limits of getCredentials.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// ParsePaging reads getCredentials' limit and offset query parameters ("" = default). It
// says why they are wrong with ok false.
func ParsePaging(limit, offset string) (l, o int, msg string) {
	l, o = DefaultLimit, 0
	if limit != "" {
		n, err := strconv.Atoi(limit)
		if err != nil || n < 1 || n > MaxLimit {
			return 0, 0, fmt.Sprintf("limit must be a whole number from 1 to %d", MaxLimit)
		}
		l = n
	}
	if offset != "" {
		n, err := strconv.Atoi(offset)
		if err != nil || n < 0 {
			return 0, 0, "offset must be a whole number of 0 or more"
		}
		o = n
	}
	return l, o, ""
}

// LinkHeader is the RFC 8288 Link header of a page of total items at offset (size limit):
// first and last always, prev and next when there are such pages. base is the endpoint's
// absolute URL without a query.
func LinkHeader(base string, limit, offset, total int) string {
	link := func(off int, rel string) string {
		return fmt.Sprintf(`<%s?limit=%d&offset=%d>; rel="%s"`, base, limit, off, rel)
	}
	last := 0
	if total > 0 {
		last = ((total - 1) / limit) * limit
	}
	parts := []string{}
	if offset+limit < total {
		parts = append(parts, link(offset+limit, "next"))
	}
	parts = append(parts, link(last, "last"), link(0, "first"))
	if offset > 0 {
		prev := offset - limit
		if prev < 0 {
			prev = 0
		}
		parts = append(parts, link(prev, "prev"))
	}
	return strings.Join(parts, ", ")
}

// CleanClientName is a client's name as the consent page shows it: control and format
// characters (zero-width spaces and joiners, bidirectional overrides, soft hyphens) are
// dropped and runs of white space become one space, so that a name can neither hide text
// nor reorder what the holder reads.
func CleanClientName(name string) string {
	var b strings.Builder
	space := false
	for _, r := range name {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar:
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ClaimsSite reports whether a client's name claims to be the site named site: its
// letters and digits, lowercased, contain the site's ("Meritmark Wallet", "MERIT-MARK").
func ClaimsSite(name, site string) bool {
	fold := func(s string) string {
		var b strings.Builder
		for _, r := range strings.ToLower(s) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	f := fold(site)
	return f != "" && strings.Contains(fold(name), f)
}

// CheckCodeChallenge says why an S256 PKCE code_challenge is malformed ("" when it is
// not): BASE64URL(SHA-256(verifier)) is 43 characters of the unreserved alphabet (RFC
// 7636 4.2); a shorter one cannot be the hash of any verifier.
func CheckCodeChallenge(ch string) string {
	if len(ch) < 43 || len(ch) > 128 {
		return "The code_challenge must be 43 to 128 characters (BASE64URL of the SHA-256 of the code verifier)."
	}
	for _, r := range ch {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_' || r == '~') {
			return "The code_challenge may contain only letters, digits, '-', '.', '_' and '~'."
		}
	}
	return ""
}
