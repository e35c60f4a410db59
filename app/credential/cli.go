package credential

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// The two subcommands of the binary that belong to credentials: rotate-key and verify.

// RotateKey adds new active issuing keys (Ed25519 and ES256). With keys from the data
// directory they are put at the top of the key file; with MERITMARK_CREDENTIAL_KEYS they
// are printed for the operator to put first in the variable. Either way its public half is recorded in
// signing_keys at once, so every instance's JWKS lists it before it signs anything.
func RotateKey(ctx context.Context, d *bun.DB, dataDir, configured string, out io.Writer) error {
	var ed, es *Key
	var err error
	if strings.TrimSpace(configured) != "" {
		if _, err := ParseSeeds(EnvKeys, configured); err != nil {
			return err
		}
		seed, secret := NewSeed(), NewES256Secret()
		if ed, err = KeyFromSeed(seed); err != nil {
			return err
		}
		if es, err = ES256KeyFromSecret(strings.TrimPrefix(secret, ES256Prefix)); err != nil {
			return err
		}
		fmt.Fprintf(out, "New issuing keys %s (Ed25519) and %s (ES256).\nKeys come from %s: put the new keys first and keep the old ones, then restart:\n\n  %s=%s,%s,%s\n\n",
			ed.KID, es.KID, EnvKeys, EnvKeys, secret, seed, strings.TrimSpace(configured))
	} else {
		if _, err := LoadKeyring(dataDir, ""); err != nil { // make sure the file exists first
			return err
		}
		if ed, es, err = RotateKeyFile(dataDir); err != nil {
			return err
		}
		fmt.Fprintf(out, "New active issuing keys %s (Ed25519) and %s (ES256) written to %s.\nOlder keys stay in the JWKS and the DID document, so what they signed keeps verifying. Restart the server to sign with them.\n", ed.KID, es.KID, KeyFile(dataDir))
	}
	iss := &Issuer{DB: d, Keys: &Keyring{Keys: []*Key{ed}, ES: []*Key{es}}, published: map[string]*Key{}}
	return iss.Publish(ctx, es, ed)
}

// Check is one line of a verification report.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Skip   bool   `json:"skipped,omitempty"`
	Detail string `json:"detail"`
}

// Report is what `meritmark verify` found.
type Report struct {
	Valid      bool     `json:"valid"`
	Credential string   `json:"credential"`
	Badge      string   `json:"badge"`
	Issuer     string   `json:"issuer"`
	IssuerID   string   `json:"issuerId"`
	Holder     string   `json:"holder"`
	ValidFrom  string   `json:"validFrom"`
	ValidUntil string   `json:"validUntil,omitempty"`
	KeyID      string   `json:"kid"`
	JWKS       string   `json:"jwks"`
	Checks     []Check  `json:"checks"`
	Problems   []string `json:"problems,omitempty"`
	// Trusted lists the issuers this verifier trusts; IssuerTrusted says whether the
	// credential's issuer, id and key belong to one of them (Untrusted says why not).
	Trusted       []string `json:"trustedIssuers"`
	IssuerTrusted bool     `json:"issuerTrusted"`
	Untrusted     string   `json:"untrusted,omitempty"`
	// Skipped names the required checks that could not be made: the report is then not
	// valid (the credential may be revoked or forged for all we know).
	Skipped []string `json:"skippedChecks,omitempty"`
}

var verifyPathRe = regexp.MustCompile(`/verify/([^/?#]+)/?$`)

// fetch reads a file or an http(s) URL.
func fetch(ctx context.Context, client *http.Client, src string) ([]byte, error) {
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		req, err := http.NewRequestWithContext(ctx, "GET", src, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/vc+jwt, application/jwk-set+json, application/json, image/png;q=0.9, */*;q=0.5")
		res, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
		if err != nil {
			return nil, err
		}
		if res.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("GET %s: %s", src, res.Status)
		}
		return b, nil
	}
	return os.ReadFile(src)
}

// credentialSource turns a verify-page or credential link into the link of its JWT.
func credentialSource(src string) string {
	u, err := url.Parse(src)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return src
	}
	if m := verifyPathRe.FindStringSubmatch(u.Path); m != nil {
		u.Path, u.RawQuery, u.Fragment = "/credentials/"+m[1]+".jwt", "", ""
		return u.String()
	}
	if strings.Contains(u.Path, "/credentials/") && !strings.Contains(u.Path[strings.LastIndexByte(u.Path, '/'):], ".") {
		u.Path += ".jwt"
		return u.String()
	}
	if strings.HasSuffix(u.Path, ".json") && strings.Contains(u.Path, "/credentials/") {
		u.Path = strings.TrimSuffix(u.Path, ".json") + ".jwt"
		return u.String()
	}
	return src
}

// VerifyCommand runs `meritmark verify <file.jwt|file.png|url> [--issuer origin]
// [--jwks file|url] [--offline] [--email address] [--json]`. It trusts one issuer: this
// installation's origin (DefaultTrustedIssuer) unless --issuer names others (the flag may
// be repeated). It returns ErrNotValid when the credential does not verify (the process
// then exits 1).
func VerifyCommand(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(out)
	var o InspectOptions
	fs.Func("issuer", "an issuer to trust: its origin (https://meritmark.example) or did:web; repeat for several (default: MERITMARK_BASE_URL, else http://localhost:8080)", func(s string) error {
		origin, err := NormalizeOrigin(s)
		if err != nil {
			return err
		}
		o.Trusted = append(o.Trusted, origin)
		return nil
	})
	fs.StringVar(&o.JWKS, "jwks", "", "JWKS file or URL (default: the trusted issuer's /.well-known/jwks.json)")
	fs.BoolVar(&o.Offline, "offline", false, "do not fetch the status lists (the credential is then never reported VALID)")
	fs.StringVar(&o.Email, "email", "", "check that the credential was issued to this e-mail address")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	var pos []string
	for len(args) > 0 { // flags may come after the input
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != 1 {
		return errors.New("usage: meritmark verify <file.jwt|file.png|url> [--issuer origin] [--jwks file|url] [--offline] [--email address] [--json]")
	}
	if len(o.Trusted) == 0 {
		o.Trusted = []string{DefaultTrustedIssuer()}
	}
	client := &http.Client{Timeout: 20 * time.Second}
	rep, err := Inspect(ctx, client, pos[0], o)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
	} else {
		printReport(out, rep)
	}
	if !rep.Valid {
		return ErrNotValid
	}
	return nil
}

func allPassedOrSkipped(r *Report) bool {
	for _, c := range r.Checks {
		if !c.OK && !c.Skip {
			return false
		}
	}
	return true
}

// ErrNotValid is what VerifyCommand returns for a credential that does not verify (or
// whose required checks could not all be made).
var ErrNotValid = errors.New("the credential did not verify")

// InspectOptions say what Inspect trusts and checks.
type InspectOptions struct {
	Trusted []string // trusted issuer origins (NormalizeOrigin); keys are fetched only from these
	JWKS    string   // a JWKS file or URL given by the user ("" = the trusted issuer's)
	Email   string   // check the recipient
	Offline bool     // do not fetch the status lists (the status check is skipped)
}

// Inspect verifies the credential at src (a JWT, a baked PNG, or a link to either or to
// its verify page) and reports every check. The credential's issuer, id and key must
// belong to a trusted issuer before any key is fetched: an untrusted credential is NOT
// VALID with an "issuer" check saying so, and nothing is fetched from the origin it names.
func Inspect(ctx context.Context, client *http.Client, src string, o InspectOptions) (*Report, error) {
	raw, err := fetch(ctx, client, credentialSource(src))
	if err != nil {
		return nil, fmt.Errorf("read the credential: %w", err)
	}
	token := strings.TrimSpace(string(raw))
	if bytes.HasPrefix(raw, pngSignature) {
		if token, err = Unbake(raw); err != nil {
			return nil, err
		}
	} else if strings.HasPrefix(token, "{") {
		return inspectLD(ctx, client, []byte(token), o)
	}
	p, err := ParseJWT(token)
	if err != nil {
		return nil, err
	}
	pl, err := Decode(p.Payload)
	if err != nil {
		return nil, err
	}
	rep := &Report{Credential: pl.ID, Badge: pl.CredentialSubject.Achievement.Name, Issuer: pl.Issuer.Name, IssuerID: pl.Issuer.ID,
		ValidFrom: pl.ValidFrom, ValidUntil: pl.ValidUntil, KeyID: p.Header.Kid, Trusted: o.Trusted}
	if len(pl.CredentialSubject.Identifier) > 0 {
		rep.Holder = pl.CredentialSubject.Identifier[0].IdentityType + " " + pl.CredentialSubject.Identifier[0].IdentityHash
		for _, id := range pl.CredentialSubject.Identifier[1:] {
			if id.IdentityType == "name" && !id.Hashed {
				rep.Holder += ", name " + id.IdentityHash
			}
		}
	}
	add := func(c Check) { rep.Checks = append(rep.Checks, c) }

	// the issuer: trusted, and the credential's id and key on its origin, before any key is
	// fetched
	verdict := CheckTrust(o.Trusted, pl.ID, pl.Issuer.ID, pl.Iss, p.Header.Kid)
	rep.IssuerTrusted = verdict.Trusted
	if !verdict.Trusted {
		add(Check{Name: "issuer", Detail: verdict.Detail})
		add(Check{Name: "signature", Skip: true, Detail: "not checked: keys are fetched only from a trusted issuer"})
		rep.Untrusted = "the issuer is not trusted (" + verdict.Detail + "); use --issuer to trust another issuer"
		return rep, nil
	}
	add(Check{Name: "issuer", OK: true, Detail: verdict.Detail})

	// the keys: the trusted issuer's DID document when the kid is a DID URL (the VC-JWTs
	// since issue 36), else its JWKS; or the set the user gave
	var keys KeySource
	switch {
	case o.JWKS == "" && strings.HasPrefix(p.Header.Kid, "did:"):
		rep.JWKS = verdict.Issuer + DIDPath
		_, find, err := didKeys(ctx, client, verdict.Issuer)
		if err != nil {
			return nil, err
		}
		keys = find
	default:
		jwksSrc := o.JWKS
		if jwksSrc == "" {
			jwksSrc = JWKSURL(verdict.Issuer)
		}
		rep.JWKS = jwksSrc
		jb, err := fetch(ctx, client, jwksSrc)
		if err != nil {
			return nil, fmt.Errorf("read the issuer's keys: %w", err)
		}
		var set JWKS
		if err := json.Unmarshal(jb, &set); err != nil {
			return nil, fmt.Errorf("the JWKS at %s is not valid JSON: %w", jwksSrc, err)
		}
		keys = set.Find
	}
	if k, err := p.VerifySignature(keys); err != nil {
		add(Check{Name: "signature", Detail: err.Error()})
	} else {
		add(Check{Name: "signature", OK: true, Detail: p.Header.Alg + " signature valid, key " + k.KID})
	}
	if probs := Validate(p.Payload); len(probs) > 0 {
		rep.Problems = probs
		add(Check{Name: "format", Detail: fmt.Sprintf("%d problem(s) with the OpenBadgeCredential", len(probs))})
	} else {
		add(Check{Name: "format", OK: true, Detail: "an Open Badges 3.0 OpenBadgeCredential (VC-JWT)"})
	}
	now := time.Now()
	if err := pl.Claims.CheckTimes(now, time.Minute); err != nil {
		add(Check{Name: "dates", Detail: err.Error() + dates(pl)})
	} else {
		add(Check{Name: "dates", OK: true, Detail: "valid now" + dates(pl)})
	}
	if o.Email != "" {
		ok := false
		for _, id := range pl.CredentialSubject.Identifier {
			if id.IdentityType == "emailAddress" && id.Hashed && IdentityHash(o.Email, id.Salt) == id.IdentityHash {
				ok = true
			}
		}
		add(Check{Name: "recipient", OK: ok, Detail: map[bool]string{true: "issued to " + o.Email, false: "not issued to " + o.Email}[ok]})
	}
	for _, c := range statusChecks(ctx, client, pl, verdict.Issuer, o.Offline) {
		add(c)
	}
	settleReport(rep)
	return rep, nil
}

func dates(pl *Payload) string {
	s := " (from " + pl.ValidFrom
	if pl.ValidUntil != "" {
		s += " until " + pl.ValidUntil
	}
	return s + ")"
}

func printReport(out io.Writer, r *Report) {
	fmt.Fprintf(out, "Credential  %s\n", r.Credential)
	fmt.Fprintf(out, "Badge       %s\n", r.Badge)
	fmt.Fprintf(out, "Issuer      %s (%s)\n", r.Issuer, r.IssuerID)
	if r.Holder != "" {
		fmt.Fprintf(out, "Holder      %s\n", r.Holder)
	}
	fmt.Fprintf(out, "Trusted     %s\n", strings.Join(r.Trusted, ", "))
	if r.JWKS != "" {
		fmt.Fprintf(out, "Keys        %s\n", r.JWKS)
	}
	fmt.Fprintln(out)
	for _, c := range r.Checks {
		mark := "FAIL"
		switch {
		case c.Skip:
			mark = "skip"
		case c.OK:
			mark = " ok "
		}
		fmt.Fprintf(out, "  [%s] %-10s %s\n", mark, c.Name, c.Detail)
	}
	for _, p := range r.Problems {
		fmt.Fprintf(out, "         - %s\n", p)
	}
	switch {
	case r.Valid:
		fmt.Fprintln(out, "\nVALID: this credential is genuine.")
	case r.Untrusted != "":
		fmt.Fprintln(out, "\nNOT VALID: "+r.Untrusted+".")
	case len(r.Skipped) > 0 && allPassedOrSkipped(r):
		fmt.Fprintln(out, "\nNOT VERIFIED: the "+strings.Join(r.Skipped, ", ")+" check was skipped, so this credential cannot be called valid.")
	default:
		fmt.Fprintln(out, "\nNOT VALID.")
	}
}
