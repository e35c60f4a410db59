package credential

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
)

// Trust: which issuers a verifier believes. A credential names its issuer, its id and the
// key that signed it (a kid, a JWKS, a did:web verification method); anyone can write a
// credential that names their own keys, so a verifier that fetched keys from wherever the
// credential points would call every self-signed forgery genuine. A verifier is therefore
// told which issuers it trusts (an origin such as https://meritmark.example), checks that
// the credential's id, issuer and key all belong to one of them, and only then fetches keys,
// from that trusted origin.

// ErrUntrusted is the verdict for a credential whose issuer the verifier does not trust.
var ErrUntrusted = errors.New("the credential's issuer is not trusted")

// NormalizeOrigin reads an issuer given on the command line or in the configuration: an
// http(s) origin (a path, if any, is ignored), returned as scheme://host[:port] in lower
// case without a default port. A did:web is read as the https origin it resolves to.
func NormalizeOrigin(s string) (string, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "did:web:") {
		if o := OriginOf(s); o != "" {
			return o, nil
		}
		return "", fmt.Errorf("%q is not a did:web identifier", s)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return "", fmt.Errorf("%q is not an issuer origin such as https://meritmark.example", s)
	}
	return origin(u.Scheme, u.Host), nil
}

func origin(scheme, host string) string {
	scheme, host = strings.ToLower(scheme), strings.ToLower(host)
	if h, p, err := net.SplitHostPort(host); err == nil && ((scheme == "https" && p == "443") || (scheme == "http" && p == "80")) {
		host = h
		if strings.Contains(h, ":") {
			host = "[" + h + "]"
		}
	}
	return scheme + "://" + host
}

// OriginOf is the origin an identifier belongs to: scheme://host[:port] of an http(s) URL,
// the https origin a did:web (or a did:web URL with a #fragment) resolves to, "" for
// anything else (a bare key id, a urn, a did of another method).
func OriginOf(id string) string {
	id = strings.TrimSpace(id)
	if rest, ok := strings.CutPrefix(id, "did:web:"); ok {
		if i := strings.IndexAny(rest, "#?"); i >= 0 {
			rest = rest[:i]
		}
		host := rest
		if i := strings.IndexByte(rest, ':'); i >= 0 { // did:web:host:path:segments
			host = rest[:i]
		}
		h, err := url.PathUnescape(host) // the port is written %3A
		if err != nil || h == "" || strings.ContainsAny(h, "/@") {
			return ""
		}
		return origin("https", h)
	}
	u, err := url.Parse(id)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return ""
	}
	return origin(u.Scheme, u.Host)
}

// SameIssuer reports whether an identifier (a URL or a did:web) belongs to the trusted
// origin. A did:web always resolves over https, so it matches the trusted origin's host and
// port whatever the trusted origin's scheme (a development server on http://localhost:8080
// names itself did:web:localhost%3A8080).
func SameIssuer(trusted, id string) bool {
	o := OriginOf(id)
	if o == "" || trusted == "" {
		return false
	}
	if o == trusted {
		return true
	}
	if strings.HasPrefix(strings.TrimSpace(id), "did:web:") {
		return hostOf(o) == hostOf(trusted)
	}
	return false
}

// hostOf is host[:port] of an origin, with the scheme's default port written out.
func hostOf(o string) string {
	scheme, host, _ := strings.Cut(o, "://")
	if _, _, err := net.SplitHostPort(host); err != nil {
		if scheme == "https" {
			return host + ":443"
		}
		return host + ":80"
	}
	return host
}

// TrustVerdict is what a trust check found.
type TrustVerdict struct {
	Trusted bool
	Issuer  string // the trusted origin that issued it ("" when none)
	Claimed string // the issuer the credential names
	Detail  string // one sentence for a report
}

// CheckTrust decides whether a credential comes from one of the trusted origins: its
// issuer (issuer.id and, in a JWT, iss), its id and the key that signed it (kid or
// verificationMethod, when it is a URL or a did:web) must all belong to the same trusted
// origin. A key named by a bare id (a thumbprint) is looked up in the trusted origin's own
// key set, so it cannot point elsewhere.
func CheckTrust(trusted []string, credentialID, issuerID, iss, keyID string) TrustVerdict {
	v := TrustVerdict{Claimed: issuerID}
	if v.Claimed == "" {
		v.Claimed = iss
	}
	list := strings.Join(trusted, ", ")
	if len(trusted) == 0 {
		v.Detail = "no trusted issuer is configured: give one with --issuer"
		return v
	}
	var t string
	for _, o := range trusted {
		if SameIssuer(o, v.Claimed) {
			t = o
			break
		}
	}
	if t == "" {
		name := v.Claimed
		if name == "" {
			name = "(none)"
		}
		v.Detail = fmt.Sprintf("not trusted: the credential names the issuer %s; trusted: %s", name, list)
		return v
	}
	switch {
	case iss != "" && issuerID != "" && iss != issuerID:
		v.Detail = fmt.Sprintf("not trusted: iss %s differs from issuer.id %s", iss, issuerID)
	case iss != "" && !SameIssuer(t, iss):
		v.Detail = fmt.Sprintf("not trusted: iss %s is not on the issuer %s", iss, t)
	case !SameIssuer(t, credentialID):
		v.Detail = fmt.Sprintf("not trusted: the credential's id %s is not on the issuer %s", orNone(credentialID), t)
	case keyID != "" && (strings.Contains(keyID, ":") || strings.Contains(keyID, "/")) && !SameIssuer(t, keyID):
		v.Detail = fmt.Sprintf("not trusted: the signing key %s is not published by the issuer %s", keyID, t)
	default:
		v.Trusted, v.Issuer = true, t
		v.Detail = "issued by the trusted issuer " + t
	}
	return v
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// DefaultTrustedIssuer is the issuer `meritmark verify` trusts without --issuer: this
// installation's configured origin (MERITMARK_BASE_URL), else the local server
// (http://localhost and the port of MERITMARK_ADDR, :8080 by default).
func DefaultTrustedIssuer() string {
	if b := strings.TrimSpace(os.Getenv("MERITMARK_BASE_URL")); b != "" {
		if o, err := NormalizeOrigin(b); err == nil {
			return o
		}
	}
	port := "8080"
	if a := strings.TrimSpace(os.Getenv("MERITMARK_ADDR")); a != "" {
		if _, p, err := net.SplitHostPort(a); err == nil && p != "" {
			port = p
		}
	}
	return origin("http", "localhost:"+port)
}
