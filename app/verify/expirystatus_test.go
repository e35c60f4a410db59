package verify_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/grant"
	"meritmark/app/model"
	"meritmark/app/verify"
)

// TestExpiryReachesDownloadedCopies (issue 15, issue 36): an expiry set after issue turns
// the credential's bit on in the signed suspension list once it passes, so copies
// downloaded before (no validUntil) fail status checks, ours included (the command-line
// verifier on the old JWT), and are never reported revoked: the revocation list and the
// 1EdTech list stay off, and clearing the expiry turns the suspension bit off again. The
// verify API still gives the true reason (expired). An untouched credential, an expiry the
// credential was issued with, an expiry still ahead and an extended one leave every bit off;
// a revocation turns the revocation bit on for good.
func TestExpiryReachesDownloadedCopies(t *testing.T) {
	w := newWorld(t)
	ctx := w.e.Ctx()
	c := w.e.Client()
	origin := w.e.URL
	_, untouched := w.grant(t, "Ada Lovelace", "ada@example.com", w.badge)
	_, late := w.grant(t, "Grace Hopper", "grace@example.com", w.badge)
	_, ahead := w.grant(t, "Katherine Johnson", "kj@example.com", w.badge)
	days := 365
	_, issuedWith := w.grant(t, "Mary Jackson", "mj@example.com", w.newBadge(t, "Cloud Architect", "Cloud", &days))
	if issuedWith.ExpiresAt == nil {
		t.Fatal("the badge with a validity period gave no expiry")
	}
	// the natural expiry of a credential issued with one: moved into the past in the
	// database (as time would), never through SetExpiry
	if _, err := w.e.DB.NewUpdate().Model((*model.BadgeGrant)(nil)).Set("granted_at = ?, expires_at = ?", model.Now().Add(-48*time.Hour), model.Now().Add(-time.Hour)).
		Where("id = ?", issuedWith.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}

	// copies downloaded before the expiry is set: no validUntil, no exp
	oldJWT := strings.TrimSpace(string(c.Abs("GET", "/credentials/"+late.PublicVerificationID+".jwt", nil).Expect(http.StatusOK).Body))
	oldLD := c.Abs("GET", "/credentials/"+late.PublicVerificationID+".json", nil).Expect(http.StatusOK).Body
	if bytes.Contains(oldLD, []byte("validUntil")) {
		t.Fatal("the copy already carries an expiry")
	}

	revocationList := func() string {
		t.Helper()
		return string(c.Abs("GET", "/credentials/status", nil).Expect(http.StatusOK).Body)
	}
	credURL := func(g *model.BadgeGrant) string { return credential.CredentialURL(origin, g.PublicVerificationID) }
	// want: each grant's suspension bit; revoked: the grants whose revocation bit is on
	check := func(stage string, want map[*model.BadgeGrant]bool, revoked ...*model.BadgeGrant) {
		t.Helper()
		sus := w.statusBits(t, "suspension")
		rev := w.statusBits(t, "revocation")
		rl := revocationList()
		for g, on := range want {
			isRevoked := false
			for _, r := range revoked {
				isRevoked = isRevoked || r == g
			}
			if credential.BitSet(sus, g.StatusIndex) != on {
				t.Errorf("%s: suspension bit of %s is %v, want %v", stage, g.ID, !on, on)
			}
			if credential.BitSet(rev, g.StatusIndex) != isRevoked {
				t.Errorf("%s: revocation bit of %s is %v, want %v", stage, g.ID, !isRevoked, isRevoked)
			}
			if strings.Contains(rl, `"`+credURL(g)+`"`) != isRevoked {
				t.Errorf("%s: %s in the 1EdTech list is %v, want %v: %s", stage, g.ID, !isRevoked, isRevoked, rl)
			}
		}
	}
	check("before", map[*model.BadgeGrant]bool{untouched: false, late: false, ahead: false, issuedWith: false})

	// the admin sets expiries after issue: one passed a minute ago, one an hour ahead
	w.backdate(t, late.ID, time.Hour)
	past := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
	w.admin.Put("/admin/grants/"+late.ID+"/expiry", map[string]any{"expiresAt": past.Format(time.RFC3339)}).ExpectMsg(http.StatusOK, grant.MsgExpirySet)
	soon := time.Now().UTC().Add(time.Hour).Truncate(time.Second)
	w.admin.Put("/admin/grants/"+ahead.ID+"/expiry", map[string]any{"expiresAt": soon.Format(time.RFC3339)}).ExpectMsg(http.StatusOK, grant.MsgExpirySet)
	check("after the expiry", map[*model.BadgeGrant]bool{untouched: false, late: true, ahead: false, issuedWith: false})
	if l, _ := w.statusList(t, "suspension"); l.ValidUntil != soon.Format(time.RFC3339) {
		t.Fatalf("the suspension list's validUntil %q, want the next expiry %s", l.ValidUntil, soon.Format(time.RFC3339))
	}
	if l, _ := w.statusList(t, "revocation"); l.ValidUntil != "" {
		t.Fatalf("the revocation list's validUntil %q: no expiry changes it", l.ValidUntil)
	}

	// our verify API: the true reason
	var r verify.Result
	c.Get("/verify/badge/" + late.PublicVerificationID).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "verify API after the expiry", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.Eq("r.Status", r.Status, "expired"),
		apptest.True("r.Checks.NotRevoked", r.Checks.NotRevoked),
		apptest.True("strings.HasPrefix(r.Reason, \"This badge expired on \")", strings.HasPrefix(r.Reason, "This badge expired on ")))

	// our command-line verifier on the JWT downloaded before: the status check fails
	dir := t.TempDir()
	jwtPath, jwksPath := filepath.Join(dir, "old.jwt"), filepath.Join(dir, "jwks.json")
	_ = os.WriteFile(jwtPath, []byte(oldJWT), 0o644)
	_ = os.WriteFile(jwksPath, c.Abs("GET", "/.well-known/jwks.json", nil).Expect(http.StatusOK).Body, 0o644)
	var out bytes.Buffer
	err := credential.VerifyCommand(context.Background(), []string{jwtPath, "--jwks", jwksPath, "--issuer", origin}, &out)
	if err == nil || !strings.Contains(out.String(), "[FAIL] suspension suspended") || !strings.Contains(out.String(), "[ ok ] revocation not revoked") ||
		!strings.Contains(out.String(), "[ ok ] signature") {
		t.Fatalf("old JWT copy after the expiry: %v\n%s", err, out.String())
	}
	// the untouched credential still passes it
	_ = os.WriteFile(jwtPath, []byte(w.reload(t, untouched.ID).CredentialJWT), 0o644)
	out.Reset()
	if err := credential.VerifyCommand(context.Background(), []string{jwtPath, "--jwks", jwksPath, "--issuer", origin}, &out); err != nil ||
		!strings.Contains(out.String(), "[ ok ] revocation") || !strings.Contains(out.String(), "[ ok ] suspension") || !strings.Contains(out.String(), "\nVALID") {
		t.Fatalf("untouched credential: %v\n%s", err, out.String())
	}

	// the expiry extended past now: the bit is off again (it was not a revocation)
	later := time.Now().UTC().Add(2 * time.Hour).Truncate(time.Second)
	w.admin.Put("/admin/grants/"+late.ID+"/expiry", map[string]any{"expiresAt": later.Format(time.RFC3339)}).ExpectMsg(http.StatusOK, grant.MsgExpirySet)
	check("extended", map[*model.BadgeGrant]bool{untouched: false, late: false, ahead: false, issuedWith: false})
	// brought back into the past: on again; cleared: off again
	w.admin.Put("/admin/grants/"+late.ID+"/expiry", map[string]any{"expiresAt": past.Format(time.RFC3339)}).ExpectMsg(http.StatusOK, grant.MsgExpirySet)
	check("expired again", map[*model.BadgeGrant]bool{late: true})
	w.admin.Put("/admin/grants/"+late.ID+"/expiry", map[string]any{"expiresAt": nil}).ExpectMsg(http.StatusOK, grant.MsgExpiryCleared)
	check("cleared", map[*model.BadgeGrant]bool{late: false})
	// a revoke turns the revocation bit on; clearing or setting the expiry afterwards
	// never turns it off
	w.admin.Put("/admin/grants/"+untouched.ID+"/revoke", map[string]any{"category": "issued_in_error", "reason": "Issued in error"}).Expect(http.StatusOK)
	check("revoked", map[*model.BadgeGrant]bool{untouched: false, late: false, ahead: false}, untouched)
	w.admin.Put("/admin/grants/"+untouched.ID+"/expiry", map[string]any{"expiresAt": later.Format(time.RFC3339)}).ExpectMsg(http.StatusOK, grant.MsgExpirySet)
	w.admin.Put("/admin/grants/"+untouched.ID+"/expiry", map[string]any{"expiresAt": nil}).ExpectMsg(http.StatusOK, grant.MsgExpiryCleared)
	check("revoked, expiry changed", map[*model.BadgeGrant]bool{untouched: false, late: false}, untouched)
	if g := w.reload(t, untouched.ID); g.StatusIndex != untouched.StatusIndex {
		t.Fatalf("re-signing a revoked grant moved its index %d -> %d", untouched.StatusIndex, g.StatusIndex)
	}
}
