// Package verify answers "is this badge real?": GET /verify/badge/{id} (the API), the
// /verify-badge and /verify/:verificationId pages with their social cards, the public
// credential documents (issuer profile, achievements, revocation list, each credential as
// JWT, JSON and baked PNG, the JWKS) and the admin's revoke and expiry actions.
//
// This file holds the pure rules: reading an id as entered, the answer's shape, masking.
package verify

import (
	"net/url"
	"regexp"
	"strings"
	"time"

	"meritmark/app/credential"
)

// Identifier rules (documented for support and for the verify page):
//
//   - A verification id looks like MM-7K2D-9QXA-4PZM (Crockford base32). It is read
//     case-insensitively, with spaces and dashes optional, and the letters O, I and L are
//     read as 0, 1 and 1 (they are never issued), so an id typed from a printout works.
//   - A public verification id (the one in shared links, /verify/{id}) is 32 base32
//     characters, issued in lower case and read case-insensitively too (the verify page
//     promises "not case-sensitive" for every id), so one typed in upper case works.
//   - Whichever is entered, the answer names the grant by its verification id
//     (MM-XXXX-XXXX-XXXX): the one id a holder quotes everywhere.
//   - Either may be pasted as a whole link (…/verify/{id}, …/credentials/{id}.json): the
//     last path segment is used. Leading and trailing spaces are ignored.
//
// Anything else is malformed; a malformed id is answered exactly like an unknown one.

// Kinds of identifier.
const (
	KindVerification = "verification"
	KindPublic       = "public"
)

var publicRe = regexp.MustCompile(`^[a-zA-Z2-7]{32}$`)

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// MaxInput is the longest input looked at.
const MaxInput = 300

// NormalizeID reads an id as entered. ok is false for a malformed id.
func NormalizeID(raw string) (kind, id string, ok bool) {
	s := strings.TrimSpace(raw)
	if s == "" || len(s) > MaxInput {
		return "", "", false
	}
	if strings.Contains(s, "/") { // a pasted link
		if u, err := url.Parse(s); err == nil && u.Path != "" {
			s = u.Path
		}
		s = strings.TrimRight(s, "/")
		s = s[strings.LastIndexByte(s, '/')+1:]
		for _, ext := range []string{".json", ".jwt", ".png"} {
			s = strings.TrimSuffix(s, ext)
		}
		if p, err := url.PathUnescape(s); err == nil {
			s = p
		}
		s = strings.TrimSpace(s)
	}
	if publicRe.MatchString(s) {
		return KindPublic, strings.ToLower(s), true
	}
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == '-' || r == ' ' || r == '\u2010' || r == '\u2013' || r == '\u2014':
			continue
		case r == 'O':
			r = '0'
		case r == 'I' || r == 'L':
			r = '1'
		}
		b.WriteRune(r)
	}
	c := b.String()
	if len(c) != 14 || !strings.HasPrefix(c, "MM") {
		return "", "", false
	}
	body := c[2:]
	for i := 0; i < len(body); i++ {
		if strings.IndexByte(crockford, body[i]) < 0 {
			return "", "", false
		}
	}
	return KindVerification, "MM-" + body[0:4] + "-" + body[4:8] + "-" + body[8:12], true
}

// MaskEmail shows an address as j***@example.com.
//
// The spec lists the holder's email in the verification response, but this is a public,
// unauthenticated endpoint that anyone holding a shared link can call: answering the full
// address would hand every holder's e-mail to scrapers. The first letter and the domain
// are enough for a verifier to recognise the person they expect; the credential itself
// carries only a salted hash of the address, which a verifier who knows the address can
// check.
func MaskEmail(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at < 1 {
		return ""
	}
	first := []rune(email[:at])[0]
	return string(first) + "***" + email[at:]
}

// Statuses of a credential.
const (
	StatusValid   = "valid"
	StatusRevoked = "revoked"
	StatusExpired = "expired"
	StatusInvalid = "invalid" // the signature or the record does not check out
)

// BadgeInfo is the badge part of the answer (spec: name, type, description, category).
type BadgeInfo struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	Category    string `json:"category"`
	Level       string `json:"level"`
	Icon        string `json:"icon"`
	Color       string `json:"color"`
}

// UserInfo is the holder (spec: name, email, avatar); email is masked (see MaskEmail).
type UserInfo struct {
	Name   string `json:"name"`
	Email  string `json:"email"`
	Avatar string `json:"avatar"`
	// ProfileURL is the holder's public profile (empty once the account is deleted).
	ProfileURL string `json:"profileUrl,omitempty"`
}

// Checks is what was verified.
type Checks struct {
	Signature  bool   `json:"signature"`  // the Ed25519 signature matches the credential and our record
	IssuerKey  string `json:"issuerKey"`  // the kid of the key that signed it (in our JWKS)
	NotRevoked bool   `json:"notRevoked"` // not in the revocation list
	NotExpired bool   `json:"notExpired"` // validUntil not passed (or none)
	// KeyRetired: the key that signed it was retired (`meritmark rotate-key --retire`)
	KeyRetired bool `json:"keyRetired,omitempty"`
	// IssuerTrusted: the credential's id, issuer and key are Meritmark's (always so for an
	// id looked up in our records; a file may name another issuer)
	IssuerTrusted bool `json:"issuerTrusted"`
}

// Links are the credential's documents and the share links.
type Links struct {
	ID               string `json:"id"`        // the credential's id (its JSON)
	JSON             string `json:"json"`      // download: the credential as JSON
	JWT              string `json:"jwt"`       // download: the signed VC-JWT
	PNG              string `json:"png"`       // download: the badge image with the credential baked in
	VerifyURL        string `json:"verifyUrl"` // the public verification link
	Issuer           string `json:"issuer"`
	JWKS             string `json:"jwks"`
	StatusList       string `json:"statusList"`
	DID              string `json:"did"`           // the issuer's did:web (its keys: /.well-known/did.json)
	BitstringList    string `json:"bitstringList"` // the signed BitstringStatusListCredential (revocation)
	LinkedInAddURL   string `json:"linkedinAddUrl"`
	LinkedInShareURL string `json:"linkedinShareUrl"`
	TwitterShareURL  string `json:"twitterShareUrl"`
}

// Result is the answer of GET /verify/badge/{id}: the spec's verification response plus
// what was checked, the status and its reason.
type Result struct {
	IsValid          bool       `json:"isValid"`
	Status           string     `json:"status"`
	Reason           string     `json:"reason,omitempty"`
	RevocationReason string     `json:"revocationReason,omitempty"`
	Badge            BadgeInfo  `json:"badge"`
	User             UserInfo   `json:"user"`
	IssuedAt         time.Time  `json:"issuedAt"`
	ExpiresAt        *time.Time `json:"expiresAt"`
	RevokedAt        *time.Time `json:"revokedAt,omitempty"`
	VerificationID   string     `json:"verificationId"`
	Checks           Checks     `json:"checks"`
	Credential       Links      `json:"credential"`
	CheckedAt        time.Time  `json:"checkedAt"`
	// Result: the assessed result the signed credential carries (nil: none).
	Result *ResultInfo `json:"result"`
}

// ResultInfo is the credential's result as the verify page shows it: the score against
// the pass mark (unless the holder hides it: the credential still carries it), how it
// was assessed and the technical report.
type ResultInfo struct {
	AssessmentType string `json:"assessmentType"` // Exam, Artifact
	Score          string `json:"score,omitempty"`
	PassMark       string `json:"passMark,omitempty"`
	ScoreHidden    bool   `json:"scoreHidden"`
	ReportURL      string `json:"reportUrl,omitempty"`
}

// resultInfo reads a signed credential's result (nil when it has none).
func resultInfo(p *credential.Payload, hide bool) *ResultInfo {
	if p == nil || len(p.CredentialSubject.Result) == 0 || len(p.CredentialSubject.Achievement.ResultDescription) == 0 {
		return nil
	}
	d, r := p.CredentialSubject.Achievement.ResultDescription[0], p.CredentialSubject.Result[0]
	out := &ResultInfo{AssessmentType: d.AssessmentType, ReportURL: d.AssessmentEvaluation}
	if d.ResultType == "Percent" && r.Value != "" {
		if hide {
			out.ScoreHidden = true
		} else {
			out.Score, out.PassMark = r.Value, d.RequiredValue
		}
	}
	return out
}

// Messages.
const (
	// MsgNotVerified answers an unknown or malformed id (the spec's verification failure).
	MsgNotVerified     = "This badge could not be verified."
	MsgRateLimited     = "Too many verification attempts from your network. Please wait a minute and try again."
	MsgSignatureFailed = "The credential's signature could not be verified against the issuer's keys."
	MsgKeyRetired      = "The key that signed this credential has been retired by the issuer (it may have been compromised), so this credential no longer verifies."
)

// day formats a date as the pages do ("Nov 22, 2026").
func day(t time.Time) string { return t.UTC().Format("Jan 2, 2006") }

// RevokedReason is the sentence shown for a revoked credential.
func RevokedReason(at time.Time, reason string) string {
	s := "This badge was revoked on " + day(at) + "."
	if reason = strings.TrimSpace(reason); reason != "" {
		s += " Reason: " + reason
	}
	return s
}

// ExpiredReason is the sentence shown for an expired credential.
func ExpiredReason(at time.Time) string { return "This badge expired on " + day(at) + "." }
