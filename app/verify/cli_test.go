package verify_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
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
		err := credential.VerifyCommand(ctx, args, &out)
		return out.String(), err
	}

	out, err := run(w.e.URL+"/verify/"+g.PublicVerificationID, "--email", "BARBARA@example.com")
	if err != nil || !strings.Contains(out, "VALID: this credential is genuine.") || !strings.Contains(out, "[ ok ] recipient") ||
		!strings.Contains(out, "[ ok ] revocation") || !strings.Contains(out, "Go Developer") {
		t.Fatalf("verify link: %v\n%s", err, out)
	}

	// offline: a baked PNG on disk and the JWKS saved to a file
	dir := t.TempDir()
	pngBody := w.e.Client().Abs("GET", "/credentials/"+g.PublicVerificationID+".png", nil).Expect(http.StatusOK).Body
	jwks := w.e.Client().Abs("GET", "/.well-known/jwks.json", nil).Expect(http.StatusOK).Body
	pngPath, jwksPath := filepath.Join(dir, "badge.png"), filepath.Join(dir, "jwks.json")
	_ = os.WriteFile(pngPath, pngBody, 0o644)
	_ = os.WriteFile(jwksPath, jwks, 0o644)
	out, err = run(pngPath, "--jwks", jwksPath, "--offline")
	if err != nil || !strings.Contains(out, "[skip] revocation") || !strings.Contains(out, "[ ok ] signature") {
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

	// revoked: the online check reads the revocation list
	w.admin.Put("/admin/grants/"+g.ID+"/revoke", map[string]any{"reason": "Issued in error"}).Expect(http.StatusOK)
	out, err = run(w.e.URL + "/credentials/" + g.PublicVerificationID + ".jwt")
	// (the public list carries no reason: reasons are shown on our verify page only)
	if err == nil || !strings.Contains(out, "[FAIL] revocation revoked") || strings.Contains(out, "Issued in error") || !strings.Contains(out, "NOT VALID") {
		t.Fatalf("revoked: %v\n%s", err, out)
	}
	if _, err := run(); err == nil {
		t.Fatal("no input accepted")
	}
}
