package credential_test

import (
	"context"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// TestRotationKeepsOldCredentialsVerifying signs with a key, rotates, and checks that the
// old credential still verifies (on this instance and on another instance with its own
// keys sharing the database), that the JWKS lists every key and new credentials use the
// new one.
func TestRotationKeepsOldCredentialsVerifying(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	now := model.Now()
	u := &model.User{ID: model.NewID(), Name: "Ann", Email: "ann@x.io", PasswordHash: "x", Role: model.RoleUser, Skills: []string{}, CreatedAt: now, UpdatedAt: now, EmailVerifiedAt: &now}
	b := &model.Badge{ID: model.NewID(), Name: "B", Description: "d", Category: "Design", Type: model.TypeProof, Level: "beginner", CreatedAt: now, UpdatedAt: now}
	grant := func(n int) *model.BadgeGrant {
		g := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, VerificationID: "MM-" + strings.Repeat(string(rune('A'+n)), 4) + "-0000-0000",
			PublicVerificationID: strings.Repeat(string(rune('a'+n)), 32), GrantedAt: now}
		if _, err := d.NewInsert().Model(g).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, m := range []any{u, b} {
		if _, err := d.NewInsert().Model(m).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	iss, err := credential.Open(ctx, d, credential.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	g1 := grant(1)
	if err := iss.SignGrant(ctx, d, g1, "https://a.example/"); err != nil {
		t.Fatal(err)
	}
	if g1.StatusIndex < 1 || g1.StatusIndex >= credential.MinListBits || g1.CredentialOrigin != "https://a.example" {
		t.Fatalf("status index %d, origin %q", g1.StatusIndex, g1.CredentialOrigin)
	}
	oldKID := iss.Keys.Active().KID
	oldES := iss.Keys.ActiveES256().KID
	idx1 := g1.StatusIndex

	if _, _, err := credential.RotateKeyFile(dir); err != nil {
		t.Fatal(err)
	}
	iss2, err := credential.Open(ctx, d, credential.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if iss2.Keys.Active().KID == oldKID {
		t.Fatal("rotation did not change the active key")
	}
	v, err := iss2.Verify(ctx, g1.CredentialJWT)
	if err != nil || v.Key.KID != oldES {
		t.Fatalf("old credential after rotation: %v", err)
	}
	g2 := grant(2)
	if err := iss2.SignGrant(ctx, d, g2, "https://a.example"); err != nil {
		t.Fatal(err)
	}
	p, _ := credential.ParseJWT(g2.CredentialJWT)
	if p.Header.Kid != credential.VerificationMethodID("https://a.example", iss2.Keys.ActiveES256().KID) || p.Header.Alg != "ES256" || g2.StatusIndex < 1 || g2.StatusIndex == g1.StatusIndex {
		t.Fatalf("new credential kid %s, index %d", p.Header.Kid, g2.StatusIndex)
	}

	// another instance with its own data dir, same database
	iss3, err := credential.Open(ctx, d, credential.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*model.BadgeGrant{g1, g2} {
		if _, err := iss3.Verify(ctx, g.CredentialJWT); err != nil {
			t.Fatalf("another instance does not verify %s: %v", g.ID, err)
		}
	}
	// three key sets, each an ES256 key, an Ed25519 key and the ES256 key once derived from
	// its seed (verify-only); this instance's ES256 key first
	set, err := iss3.JWKS(ctx, "https://a.example")
	if err != nil || len(set.Keys) != 9 || set.Keys[0].Kid != credential.KeyURL("https://a.example", iss3.Keys.ActiveES256().KID) ||
		set.Keys[1].Kid != iss3.Keys.Active().KID {
		t.Fatalf("JWKS %+v %v", set, err)
	}
	// re-signing keeps the grant's origin and status index
	if err := iss3.SignGrant(ctx, d, g1, "https://elsewhere.example"); err != nil {
		t.Fatal(err)
	}
	if g1.CredentialOrigin != "https://a.example" || g1.StatusIndex != idx1 {
		t.Fatalf("re-sign moved the grant: %q %d", g1.CredentialOrigin, g1.StatusIndex)
	}
}
