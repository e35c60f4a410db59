package credential_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/model"
)

// TestRetireKey: `rotate-key --retire` refuses the active keys, takes a rotated-out key
// (and, for an Ed25519 key, the P-256 key derived from its seed) out of the JWKS and the
// DID document, drops it from the key file, lists the credentials it signed, and those
// then fail verification as signed by a retired key while newer ones still verify.
func TestRetireKey(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	old := credential.RefreshEvery
	credential.RefreshEvery = 0 // see a retirement at once
	defer func() { credential.RefreshEvery = old }()
	now := model.Now()
	u := &model.User{ID: model.NewID(), Name: "Ann", Email: "ann@x.io", PasswordHash: "x", Role: model.RoleUser, Skills: []string{}, CreatedAt: now, UpdatedAt: now, EmailVerifiedAt: &now}
	b := &model.Badge{ID: model.NewID(), Name: "B", Description: "d", Category: "Design", Type: model.TypeProof, Level: "beginner", CreatedAt: now, UpdatedAt: now}
	for _, m := range []any{u, b} {
		if _, err := d.NewInsert().Model(m).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	grant := func(n int) *model.BadgeGrant {
		g := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, VerificationID: "MM-" + strings.Repeat(string(rune('A'+n)), 4) + "-0000-0000",
			PublicVerificationID: strings.Repeat(string(rune('a'+n)), 32), GrantedAt: now}
		if _, err := d.NewInsert().Model(g).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		return g
	}
	const origin = "https://a.example"
	dir := t.TempDir()
	iss, err := credential.Open(ctx, d, credential.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	g1 := grant(1)
	if err := iss.SignGrant(ctx, d, g1, origin); err != nil {
		t.Fatal(err)
	}
	oldED, oldES := iss.Keys.Active().KID, iss.Keys.ActiveES256().KID
	var out bytes.Buffer
	// the signing keys cannot be retired before a rotation
	for _, kid := range []string{oldES, oldED, credential.KeyURL(origin, oldES)} {
		err := credential.RetireKey(ctx, d, dir, "", kid, &out)
		if err == nil || !strings.Contains(err.Error(), "is an active signing key: run `meritmark rotate-key` first") {
			t.Fatalf("retiring the active key %s: %v", kid, err)
		}
	}
	if err := credential.RetireKey(ctx, d, dir, "", "nope", &out); err == nil || !strings.Contains(err.Error(), "no issuing key nope") {
		t.Fatalf("unknown kid: %v", err)
	}

	if _, _, err := credential.RotateKeyFile(dir); err != nil {
		t.Fatal(err)
	}
	iss2, err := credential.Open(ctx, d, credential.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	g2 := grant(2)
	if err := iss2.SignGrant(ctx, d, g2, origin); err != nil {
		t.Fatal(err)
	}
	// retire the old ES256 key: g1's VC-JWT, not g2's
	out.Reset()
	if err := credential.RetireKey(ctx, d, dir, "", credential.VerificationMethodID(origin, oldES), &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, "Retired key "+oldES) || !strings.Contains(s, "It signed 1 credential(s)") ||
		!strings.Contains(s, g1.ID+"  "+g1.PublicVerificationID+"  "+g1.VerificationID) || strings.Contains(s, g2.ID) {
		t.Fatalf("retire output:\n%s", s)
	}
	set, err := iss2.JWKS(ctx, origin)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range set.Keys {
		if credential.KIDOf(j.Kid) == oldES {
			t.Fatal("the retired key is still in the JWKS")
		}
	}
	if len(set.Keys) != 5 { // 6 recorded, one retired
		t.Fatalf("JWKS has %d keys", len(set.Keys))
	}
	doc, _ := iss2.DIDDocument(ctx, origin)
	if strings.Contains(strings.Join(doc.AssertionMethod, " "), oldES) || !strings.Contains(strings.Join(doc.AssertionMethod, " "), oldED) {
		t.Fatalf("DID document %v", doc.AssertionMethod)
	}
	_, err = iss2.Verify(ctx, g1.CredentialJWT)
	var retired *credential.KeyRetiredError
	if !errors.As(err, &retired) || retired.KID != oldES || !strings.Contains(err.Error(), "which the issuer retired on") {
		t.Fatalf("g1 after its key was retired: %v", err)
	}
	// the first instance (its keyring still holds the key) refuses it too
	if _, err := iss.Verify(ctx, g1.CredentialJWT); !errors.As(err, &retired) {
		t.Fatalf("g1 on the instance that signed it: %v", err)
	}
	if _, err := iss2.Verify(ctx, g2.CredentialJWT); err != nil {
		t.Fatalf("g2: %v", err)
	}
	ring, err := credential.LoadKeyring(dir, "")
	if err != nil || ring.Find(oldES) != nil || ring.Find(oldED) == nil {
		t.Fatalf("key file after retiring %s: %v", oldES, err)
	}

	// the old Ed25519 key: its Data Integrity proofs and the P-256 key of its seed go too
	var ld string
	if err := d.NewRaw("SELECT credential_ld FROM badge_grant_credentials WHERE grant_id = ?", g1.ID).Scan(ctx, &ld); err != nil {
		t.Fatal(err)
	}
	if _, err := iss2.VerifyLD(ctx, origin, []byte(ld)); err != nil {
		t.Fatalf("g1's JSON-LD form before its key was retired: %v", err)
	}
	out.Reset()
	if err := credential.RetireKey(ctx, d, dir, "", oldED, &out); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "Retired key "+oldED) || !strings.Contains(s, "It signed 1 credential(s)") {
		t.Fatalf("retire output:\n%s", s)
	}
	if _, err := iss2.VerifyLD(ctx, origin, []byte(ld)); !errors.As(err, &retired) || retired.KID != oldED {
		t.Fatalf("g1's JSON-LD form after its key was retired: %v", err)
	}
	if set, _ := iss2.JWKS(ctx, origin); len(set.Keys) != 3 {
		t.Fatalf("JWKS after retiring the Ed25519 key and its derived key: %d keys", len(set.Keys))
	}
	b2, _ := os.ReadFile(credential.KeyFile(dir))
	if ring, err := credential.LoadKeyring(dir, ""); err != nil || ring.Find(oldED) != nil || len(ring.Keys) != 1 || len(ring.ES) != 1 {
		t.Fatalf("key file after retiring %s: %v\n%s", oldED, err, b2)
	}
	// again: nothing changes
	out.Reset()
	if err := credential.RetireKey(ctx, d, dir, "", oldED, &out); err != nil || !strings.Contains(out.String(), "was already retired on") {
		t.Fatalf("retiring twice: %v %s", err, out.String())
	}
	n, err := d.NewSelect().Model((*model.AuditEntry)(nil)).Where("action = 'key.retire'").Count(ctx)
	if err != nil || n != 3 {
		t.Fatalf("%d key.retire audit entries, %v", n, err)
	}
	// the credentials signed since still verify; nothing signs with a retired key
	if err := iss2.SignGrant(ctx, d, g1, origin); err != nil {
		t.Fatal(err)
	}
	if _, err := iss2.Verify(ctx, g1.CredentialJWT); err != nil {
		t.Fatalf("g1 signed again with the active key: %v", err)
	}
}
