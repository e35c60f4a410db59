package verify_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/grant"
	"meritmark/app/model"
	"meritmark/app/verify"
)

// seedGrants makes n holders of b, each with a signed credential, in one transaction.
func seedGrants(tb testing.TB, e *apptest.Env, b *model.Badge, n int) []string {
	tb.Helper()
	ids := make([]string, 0, n)
	now := model.Now()
	err := e.Deps.Events.RunInTx(context.Background(), e.DB, func(ctx context.Context, tx bun.Tx) error {
		for i := 0; i < n; i++ {
			u := &model.User{ID: model.NewID(), Name: fmt.Sprintf("Holder %d", i), Email: fmt.Sprintf("bulk%d@example.com", i),
				PasswordHash: "x", Role: model.RoleUser, CreatedAt: now, UpdatedAt: now}
			a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: b.Type, Status: model.StatusApproved,
				PaymentStatus: model.PaymentCompleted, FullName: u.Name, Email: u.Email, CreatedAt: now, UpdatedAt: now}
			if _, err := tx.NewInsert().Model(u).Exec(ctx); err != nil {
				return err
			}
			if _, err := tx.NewInsert().Model(a).Exec(ctx); err != nil {
				return err
			}
			res, err := grant.Issue(ctx, tx, grant.Input{Issuer: e.Deps.Issuer, Application: a, Badge: b, GrantedBy: u.ID, Now: now, Origin: e.URL})
			if err != nil {
				return err
			}
			ids = append(ids, res.Grant.VerificationID)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return ids
}

// BenchmarkBulkVerify500 is one bulk check of 500 ids through the API: parse, read the
// records, verify each credential's signature, revocation and expiry, sign the receipt,
// answer JSON. Target: under 2 s on SQLite (go test -run '^$' -bench BulkVerify500
// ./app/verify/; the ms/check metric is one whole check).
func BenchmarkBulkVerify500(b *testing.B) {
	e := apptest.New(b)
	now := model.Now()
	bd := &model.Badge{ID: model.NewID(), Name: "Go Developer", Description: "Writes Go.", Category: "Development",
		Type: model.TypeSkill, Level: "intermediate", PriceCents: 4900, Icon: "Code", Color: "blue", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(bd).Exec(e.Ctx()); err != nil {
		b.Fatal(err)
	}
	ids := seedGrants(b, e, bd, 500)
	old := verify.BulkLimit
	verify.BulkLimit = 1 << 30
	defer func() { verify.BulkLimit = old }()
	c := e.Client()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out verify.BulkResult
		c.Post("/verify/bulk", map[string]any{"ids": ids}).Expect(http.StatusOK).JSON(&out)
		if out.Summary.Valid != 500 {
			b.Fatalf("summary %+v", out.Summary)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/check")
}
