package grant_test

import (
	"context"
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/grant"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func TestIDs(t *testing.T) {
	vre := regexp.MustCompile(`^MM-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`)
	pre := regexp.MustCompile(`^[a-z2-7]{32}$`) // 160 bits
	seenV, seenP := map[string]bool{}, map[string]bool{}
	used := map[byte]bool{}
	for i := 0; i < 20000; i++ {
		v, p := grant.NewVerificationID(), grant.NewPublicVerificationID()
		if !vre.MatchString(v) || !pre.MatchString(p) {
			t.Fatalf("bad ids %q %q", v, p)
		}
		if seenV[v] || seenP[p] {
			t.Fatalf("repeated id after %d", i)
		}
		seenV[v], seenP[p] = true, true
		for j := 3; j < len(v); j++ {
			used[v[j]] = true
		}
	}
	if len(used) != 33 { // 32 symbols and the dash
		t.Fatalf("verification ids use %d distinct characters", len(used))
	}
}

func TestIssueRestoreRevoke(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	now := model.Now()
	u := &model.User{ID: model.NewID(), Name: "Ann", Email: "ann@x.io", PasswordHash: "x", Role: model.RoleUser, Skills: []string{}, CreatedAt: now, UpdatedAt: now, EmailVerifiedAt: &now}
	days := 365
	b := &model.Badge{ID: model.NewID(), Name: "B", Category: "Design", Type: model.TypeProof, Level: "beginner", ValidDays: &days, CreatedAt: now, UpdatedAt: now}
	a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: "proof", Status: model.StatusApproved, PaymentStatus: "completed", CreatedAt: now, UpdatedAt: now}
	for _, m := range []any{u, b, a} {
		if _, err := d.NewInsert().Model(m).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// no issuer, no grant: a grant is never stored unsigned
	err := events.New().RunInTx(ctx, d, func(ctx context.Context, tx bun.Tx) error {
		_, err := grant.Issue(ctx, tx, grant.Input{Application: a, Badge: b, GrantedBy: u.ID, Now: now})
		return err
	})
	if !errors.Is(err, grant.ErrNoIssuer) {
		t.Fatalf("a grant without an issuer: %v, want ErrNoIssuer", err)
	}
	iss, err := credential.Open(ctx, d, credential.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	issue := func() *grant.Result {
		var r *grant.Result
		err := events.New().RunInTx(ctx, d, func(ctx context.Context, tx bun.Tx) error {
			var err error
			r, err = grant.Issue(ctx, tx, grant.Input{Issuer: iss, Application: a, Badge: b, GrantedBy: u.ID, Now: now, Origin: "https://badges.example"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r1 := issue()
	apptest.Expect(t, "first issue", r1,
		apptest.True("r1.Created", r1.Created),
		apptest.True("!r1.Restored", !r1.Restored),
		apptest.True("r1.Grant.ExpiresAt != nil", r1.Grant.ExpiresAt != nil))
	apptest.Expect(t, "first issue", r1,
		apptest.True("r1.Grant.ExpiresAt.Equal(now.AddDate(0, 0, 365))", r1.Grant.ExpiresAt.Equal(now.AddDate(0, 0, 365))))
	r2 := issue()
	apptest.Expect(t, "second issue", r2,
		apptest.True("!r2.Created", !r2.Created),
		apptest.True("!r2.Restored", !r2.Restored),
		apptest.Eq("r2.Grant.ID", r2.Grant.ID, r1.Grant.ID))
	err = events.New().RunInTx(ctx, d, func(ctx context.Context, tx bun.Tx) error {
		g, err := grant.Revoke(ctx, tx, a.ID, "Forged", now.Add(time.Minute))
		if err != nil || g == nil || g.RevokedAt == nil || g.RevocationReason != "Forged" {
			t.Fatalf("revoke: %+v %v", g, err)
		}
		g2, err := grant.Revoke(ctx, tx, a.ID, "Again", now.Add(2*time.Minute))
		if err != nil || g2.RevocationReason != "Forged" {
			t.Fatalf("second revoke changed the grant: %+v %v", g2, err)
		}
		none, err := grant.Revoke(ctx, tx, model.NewID(), "x", now)
		if err != nil || none != nil {
			t.Fatalf("revoke without a grant: %+v %v", none, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r3 := issue()
	apptest.Expect(t, "restore", r3,
		apptest.True("r3.Restored", r3.Restored),
		apptest.True("!r3.Created", !r3.Created),
		apptest.Eq("r3.Grant.ID", r3.Grant.ID, r1.Grant.ID),
		apptest.True("r3.Grant.RevokedAt == nil", r3.Grant.RevokedAt == nil),
		apptest.Eq("r3.Grant.VerificationID", r3.Grant.VerificationID, r1.Grant.VerificationID),
		apptest.Eq("r3.Grant.PublicVerificationID", r3.Grant.PublicVerificationID, r1.Grant.PublicVerificationID))
	n, _ := d.NewSelect().Model((*model.BadgeGrant)(nil)).Count(ctx)
	if n != 1 {
		t.Fatalf("%d grants", n)
	}
}
