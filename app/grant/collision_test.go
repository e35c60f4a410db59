package grant_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/grant"
	"meritmark/app/model"
)

// A verification id that collides with an existing grant's is retried with fresh ids
// inside the same transaction (a savepoint keeps PostgreSQL's transaction usable).
func TestIssueRetriesAnIDCollision(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	now := model.Now()
	u := &model.User{ID: model.NewID(), Name: "Ann", Email: "ann@x.io", PasswordHash: "x", Role: model.RoleUser, Skills: []string{}, CreatedAt: now, UpdatedAt: now, EmailVerifiedAt: &now}
	b := &model.Badge{ID: model.NewID(), Name: "B", Category: "Design", Type: model.TypeProof, Level: "beginner", CreatedAt: now, UpdatedAt: now}
	a1 := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: "proof", Status: model.StatusApproved, PaymentStatus: "completed", CreatedAt: now, UpdatedAt: now}
	a2 := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: "proof", Status: model.StatusApproved, PaymentStatus: "completed", CreatedAt: now, UpdatedAt: now}
	for _, m := range []any{u, b, a1, a2} {
		if _, err := d.NewInsert().Model(m).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	defer func(f func() (string, string)) { *grant.IDGenerator = f }(*grant.IDGenerator)
	calls := 0
	*grant.IDGenerator = func() (string, string) {
		calls++
		if calls <= 2 {
			return "MM-AAAA-BBBB-CCCC", "fixedpublicid" // the second call collides with the first
		}
		return grant.NewVerificationID(), grant.NewPublicVerificationID()
	}
	iss, err := credential.Open(ctx, d, credential.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range []*model.Application{a1, a2} {
		err := events.New().RunInTx(ctx, d, func(ctx context.Context, tx bun.Tx) error {
			r, err := grant.Issue(ctx, tx, grant.Input{Issuer: iss, Application: a, GrantedBy: u.ID, Now: now})
			if err == nil {
				ids = append(ids, r.Grant.VerificationID)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if calls != 3 || ids[0] != "MM-AAAA-BBBB-CCCC" || ids[1] == ids[0] {
		t.Fatalf("calls %d ids %v", calls, ids)
	}
	n, _ := d.NewSelect().Model((*model.BadgeGrant)(nil)).Count(ctx)
	if n != 2 {
		t.Fatalf("%d grants", n)
	}
}
