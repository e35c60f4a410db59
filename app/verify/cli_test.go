package verify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"meritmark/app/credential"
)

// TestCommandLineVerifier runs `meritmark verify` (credential.VerifyCommand) against the
// running server: a verify link, a baked PNG file with a JWKS file, offline, a recipient
// check, and a revoked credential.
func TestCommandLineVerifier(t *testing.T) {
	w := newWorld(t)
	_, g := w.grant(t, "Barbara Liskov", "barbara@example.com", w.badge)
	ctx := context.Background()
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := credential.VerifyCommand(ctx, append(args, "--issuer", w.e.URL), &out)
		return out.String(), err
	}

	out, err := run(w.e.URL+"/verify/"+g.PublicVerificationID, "--email", "BARBARA@example.com")
	if err != nil || !strings.Contains(out, "VALID: this credential is genuine.") || !strings.Contains(out, "Trusted     "+w.e.URL+"\n") ||
		!strings.Contains(out, "[ ok ] issuer     issued by the trusted issuer "+w.e.URL) || !strings.Contains(out, "[ ok ] recipient") ||
		!strings.Contains(out, "[ ok ] revocation not revoked") || !strings.Contains(out, "[ ok ] suspension not suspended") || !strings.Contains(out, "Go Developer") {
		t.Fatalf("verify link: %v\n%s", err, out)
	}

	// offline: a baked PNG on disk and the JWKS saved to a file
	dir := t.TempDir()
	pngBody := w.e.Client().Abs("GET", "/credentials/"+g.PublicVerificationID+".png", nil).Expect(http.StatusOK).Body
	jwks := w.e.Client().Abs("GET", "/.well-known/jwks.json", nil).Expect(http.StatusOK).Body
	pngPath, jwksPath := filepath.Join(dir, "badge.png"), filepath.Join(dir, "jwks.json")
	_ = os.WriteFile(pngPath, pngBody, 0o644)
	_ = os.WriteFile(jwksPath, jwks, 0o644)
	// (issue 36: a skipped status check is never VALID, and the exit status says so)
	out, err = run(pngPath, "--jwks", jwksPath, "--offline")
	if !errors.Is(err, credential.ErrNotValid) || !strings.Contains(out, "[skip] status") || !strings.Contains(out, "[ ok ] signature") ||
		strings.Contains(out, "VALID: this credential is genuine.") || !strings.Contains(out, "NOT VERIFIED: the status check was skipped") {
		t.Fatalf("offline png: %v\n%s", err, out)
	}
	out, err = run(pngPath, "--jwks", jwksPath, "--offline", "--email", "someone@else.com")
	if err == nil || !strings.Contains(out, "[FAIL] recipient") {
		t.Fatalf("wrong recipient: %v\n%s", err, out)
	}
	// a JWT file with one byte changed
	tok := strings.Split(g.CredentialJWT, ".")
	jwtPath := filepath.Join(dir, "c.jwt")
	_ = os.WriteFile(jwtPath, []byte(tok[0]+"."+tok[1]+"."+flip(tok[2])), 0o644)
	out, err = run(jwtPath, "--jwks", jwksPath, "--offline")
	if err == nil || !strings.Contains(out, "[FAIL] signature") {
		t.Fatalf("tampered jwt: %v\n%s", err, out)
	}

	// the JSON-LD form: its Data Integrity proof against the trusted issuer's did.json
	ld := w.e.Client().Abs("GET", "/credentials/"+g.PublicVerificationID+".json", nil).Expect(http.StatusOK).Body
	ldPath := filepath.Join(dir, "c.json")
	_ = os.WriteFile(ldPath, ld, 0o644)
	out, err = run(ldPath)
	if err != nil || !strings.Contains(out, "[ ok ] signature  eddsa-rdfc-2022 Data Integrity proof valid") || !strings.Contains(out, "Keys        "+w.e.URL+"/.well-known/did.json") ||
		!strings.Contains(out, "[ ok ] revocation not revoked") || !strings.Contains(out, "[ ok ] suspension not suspended") || !strings.Contains(out, "VALID: this credential is genuine.") {
		t.Fatalf("JSON-LD: %v\n%s", err, out)
	}
	_ = os.WriteFile(ldPath, bytes.Replace(ld, []byte("Go Developer"), []byte("Go Developes"), 1), 0o644)
	if out, err = run(ldPath); err == nil || !strings.Contains(out, "[FAIL] signature") {
		t.Fatalf("JSON-LD changed: %v\n%s", err, out)
	}
	_ = os.WriteFile(ldPath, bytes.ReplaceAll(ld, []byte(credential.DIDWeb(w.e.URL)), []byte("did:web:evil.example")), 0o644)
	if out, err = run(ldPath); err == nil || !strings.Contains(out, "NOT VALID: the issuer is not trusted") {
		t.Fatalf("JSON-LD of another issuer: %v\n%s", err, out)
	}

	// revoked: the online check reads the revocation list
	w.admin.Put("/admin/grants/"+g.ID+"/revoke", map[string]any{"category": "issued_in_error", "reason": "Issued in error"}).Expect(http.StatusOK)
	out, err = run(w.e.URL + "/credentials/" + g.PublicVerificationID + ".jwt")
	// (the public list carries no reason: reasons are shown on our verify page only)
	if err == nil || !strings.Contains(out, "[FAIL] revocation revoked") || strings.Contains(out, "Issued in error") || !strings.Contains(out, "NOT VALID") {
		t.Fatalf("revoked: %v\n%s", err, out)
	}
	// the JSON-LD copy downloaded before: its Bitstring Status List entry says revoked
	_ = os.WriteFile(ldPath, ld, 0o644)
	out, err = run(ldPath)
	if !errors.Is(err, credential.ErrNotValid) || !strings.Contains(out, "[FAIL] revocation revoked") || !strings.Contains(out, "[ ok ] signature") ||
		strings.Contains(out, "VALID: this credential is genuine.") {
		t.Fatalf("revoked JSON-LD: %v\n%s", err, out)
	}
	var out2 bytes.Buffer
	if err := credential.VerifyCommand(ctx, nil, &out2); err == nil {
		t.Fatal("no input accepted")
	}
	if err := credential.VerifyCommand(ctx, []string{jwtPath, "--issuer", "not an origin"}, &out2); err == nil {
		t.Fatal("a malformed --issuer accepted")
	}
}

// attacker is a server an attacker controls: it publishes the attacker's key set and counts
// the requests it gets.
type attacker struct {
	srv  *httptest.Server
	key  *credential.Key
	hits atomic.Int32
}

func newAttacker(t *testing.T) *attacker {
	k, err := credential.KeyFromSeed(credential.NewSeed())
	if err != nil {
		t.Fatal(err)
	}
	a := &attacker{key: k}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/jwks.json":
			_ = json.NewEncoder(w).Encode(credential.JWKS{Keys: []credential.JWK{credential.JWKOf(a.key)}})
		case "/credentials/status":
			_, _ = w.Write([]byte(`{"revokedCredentials":[]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(a.srv.Close)
	return a
}

// forge copies a real credential's payload, lets edit change it, and signs it with key.
func forge(t *testing.T, real string, key *credential.Key, edit func(m map[string]any)) string {
	t.Helper()
	p, err := credential.ParseJWT(real)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(p.Payload, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, _ := json.Marshal(m)
	tok, err := credential.SignJWT(key, b)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestCommandLineVerifierTrustsOnlyItsIssuer: a copy of a real credential re-signed by an
// attacker's key, whose iss points at the attacker's JWKS, is NOT VALID because its issuer
// is not trusted (not because of its signature), and the verifier never asks the attacker's
// server for keys. The trusted issuer is the configured origin unless --issuer names
// another.
func TestCommandLineVerifierTrustsOnlyItsIssuer(t *testing.T) {
	w := newWorld(t)
	_, g := w.grant(t, "Frances Allen", "frances@example.com", w.badge)
	ctx := context.Background()
	evil := newAttacker(t)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := credential.VerifyCommand(ctx, args, &out)
		return out.String(), err
	}
	t.Setenv("MERITMARK_BASE_URL", w.e.URL) // this installation's origin: the default trusted issuer
	t.Setenv("MERITMARK_ADDR", "")

	// the forgery of the issue: the real credential with iss (and issuer.id) on the
	// attacker's origin, signed by the attacker's key, baked into the real PNG
	forged := forge(t, g.CredentialJWT, evil.key, func(m map[string]any) {
		m["iss"] = evil.srv.URL + "/issuer"
		m["issuer"].(map[string]any)["id"] = evil.srv.URL + "/issuer"
	})
	real := w.e.Client().Abs("GET", "/credentials/"+g.PublicVerificationID+".png", nil).Expect(http.StatusOK).Body
	baked, err := credential.Bake(real, forged)
	if err != nil {
		t.Fatal(err)
	}
	forgedPNG := write("forged.png", baked)
	out, err := run(forgedPNG)
	want := "NOT VALID: the issuer is not trusted (not trusted: the credential names the issuer " + evil.srv.URL + "/issuer; trusted: " + w.e.URL +
		"); use --issuer to trust another issuer."
	if !errors.Is(err, credential.ErrNotValid) || !strings.Contains(out, want) || !strings.Contains(out, "[FAIL] issuer") ||
		!strings.Contains(out, "[skip] signature  not checked: keys are fetched only from a trusted issuer") ||
		!strings.Contains(out, "Trusted     "+w.e.URL+"\n") || strings.Contains(out, "signature does not match") || strings.Contains(out, "VALID: this") {
		t.Fatalf("forged PNG: %v\n%s", err, out)
	}
	// the same as JSON: the verdict is machine-readable
	out, err = run(forgedPNG, "--json")
	var rep credential.Report
	if jerr := json.Unmarshal([]byte(out), &rep); jerr != nil || err == nil || rep.Valid || rep.IssuerTrusted || rep.Trusted[0] != w.e.URL || rep.JWKS != "" {
		t.Fatalf("forged --json: %v %v %+v", err, jerr, rep)
	}

	// every other way of pointing the keys elsewhere: the id, the kid, iss alone
	variants := map[string]func(m map[string]any){
		"iss only": func(m map[string]any) { m["iss"] = evil.srv.URL + "/issuer" },
		"whole":    func(m map[string]any) { setOrigin(m, w.e.URL, evil.srv.URL) },
		"id only": func(m map[string]any) {
			m["id"], m["jti"] = evil.srv.URL+"/credentials/x", evil.srv.URL+"/credentials/x"
		},
		"kid a URL": nil,
	}
	for name, edit := range variants {
		key := evil.key
		if edit == nil { // our ids throughout, but the kid names a key on the attacker's server
			k := *evil.key
			k.KID = evil.srv.URL + "/.well-known/jwks.json#" + evil.key.KID
			key, edit = &k, func(map[string]any) {}
		}
		tok := forge(t, g.CredentialJWT, key, edit)
		out, err := run(write("v.jwt", []byte(tok)))
		if !errors.Is(err, credential.ErrNotValid) || !strings.Contains(out, "NOT VALID: the issuer is not trusted") || strings.Contains(out, "[ ok ] signature") {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
	}
	if n := evil.hits.Load(); n != 0 {
		t.Fatalf("the verifier asked the attacker's server %d times", n)
	}

	// the same forgery with our own origin everywhere is just a bad signature: our JWKS
	// does not have the attacker's key
	tok := forge(t, g.CredentialJWT, evil.key, func(map[string]any) {})
	out, err = run(write("ours.jwt", []byte(tok)), "--offline")
	if err == nil || !strings.Contains(out, "[ ok ] issuer") || !strings.Contains(out, "[FAIL] signature") || !strings.Contains(out, "\nNOT VALID.\n") {
		t.Fatalf("our ids, attacker's key: %v\n%s", err, out)
	}

	// --issuer picks another issuer: the attacker's own, wholly self-consistent credential
	// verifies against the attacker's keys only when asked, and ours is then untrusted
	whole := write("whole.jwt", []byte(forge(t, g.CredentialJWT, evil.key, func(m map[string]any) { setOrigin(m, w.e.URL, evil.srv.URL) })))
	// (offline: its status is not checked, so it is not VALID either, only its signature is)
	out, err = run(whole, "--issuer", evil.srv.URL, "--offline")
	if !errors.Is(err, credential.ErrNotValid) || !strings.Contains(out, "[ ok ] signature") || !strings.Contains(out, "NOT VERIFIED") ||
		!strings.Contains(out, "Keys        "+evil.srv.URL+"/.well-known/jwks.json") {
		t.Fatalf("--issuer attacker: %v\n%s", err, out)
	}
	if evil.hits.Load() == 0 {
		t.Fatal("the trusted issuer's keys were not fetched")
	}
	out, err = run(write("real.jwt", []byte(g.CredentialJWT)), "--issuer", evil.srv.URL)
	if err == nil || !strings.Contains(out, "NOT VALID: the issuer is not trusted") {
		t.Fatalf("ours under --issuer attacker: %v\n%s", err, out)
	}
	// and the default trusts this installation: the real credential is valid
	if out, err := run(write("real.jwt", []byte(g.CredentialJWT))); err != nil || !strings.Contains(out, "VALID: this credential is genuine.") {
		t.Fatalf("default issuer: %v\n%s", err, out)
	}
}

// setOrigin replaces origin from by to in every string of a decoded credential.
func setOrigin(v any, from, to string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = setOrigin(e, from, to)
		}
	case []any:
		for i, e := range x {
			x[i] = setOrigin(e, from, to)
		}
	case string:
		return strings.ReplaceAll(strings.ReplaceAll(x, from, to), credential.DIDWeb(from), credential.DIDWeb(to))
	}
	return v
}
