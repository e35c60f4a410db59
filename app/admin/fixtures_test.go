package admin_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

var badgeSeq atomic.Int64

// newBadge inserts an active badge costing priceCents.
func newBadge(t *testing.T, e *apptest.Env, name string, priceCents int64) *model.Badge {
	t.Helper()
	seq := badgeSeq.Add(1)
	if name == "" {
		name = fmt.Sprintf("Badge %d", seq)
	}
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: name, Description: name + " description", Category: "Development",
		Type: model.TypeProof, Level: "beginner", PriceCents: priceCents, Icon: "Award", Color: "blue",
		Criteria: "Show your work.", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return b
}

// newApplication inserts an application of u for b in status (payment pending).
func newApplication(t *testing.T, e *apptest.Env, u *model.User, b *model.Badge, status string) *model.Application {
	t.Helper()
	now := model.Now()
	a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: b.Type, Status: status,
		PaymentStatus: model.PaymentPending, FullName: u.Name + " Applicant", Email: u.Email, Position: "Engineer",
		LinkedIn: "https://linkedin.com/in/" + u.Name, Portfolio: "https://example.com/" + u.Name,
		Description: "My work for " + b.Name, PriceCents: b.PriceCents, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(a).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return a
}

// pay records a completed payment for a and moves it to pending review.
func pay(t *testing.T, e *apptest.Env, a *model.Application, cents int64, txID string) *model.Payment {
	t.Helper()
	now := model.Now()
	p := &model.Payment{ID: model.NewID(), UserID: a.UserID, ApplicationID: a.ID, BadgeID: a.BadgeID, Provider: "paypal",
		TransactionID: txID, Status: model.PaymentCompleted, AmountCents: cents, OriginalCents: a.PriceCents,
		DiscountCents: a.PriceCents - cents, Currency: "USD", CreatedAt: now, CompletedAt: &now}
	if _, err := e.DB.NewInsert().Model(p).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	a.PaymentID, a.PaymentStatus, a.PaymentCompletedAt = &p.ID, model.PaymentCompleted, &now
	if a.Status == model.StatusAwaitingPayment {
		a.Status = model.StatusPending
	}
	if _, err := e.DB.NewUpdate().Model(a).Column("payment_id", "payment_status", "payment_completed_at", "status").WherePK().Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return p
}

// paidApplication is a paid application waiting for review.
func paidApplication(t *testing.T, e *apptest.Env, u *model.User, b *model.Badge) *model.Application {
	t.Helper()
	a := newApplication(t, e, u, b, model.StatusAwaitingPayment)
	pay(t, e, a, b.PriceCents, "TX-"+a.ID)
	return a
}

func reload(t *testing.T, e *apptest.Env, a *model.Application) *model.Application {
	t.Helper()
	var out model.Application
	if err := e.DB.NewSelect().Model(&out).Where("id = ?", a.ID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return &out
}

func grantsOf(t *testing.T, e *apptest.Env, appID string) []model.BadgeGrant {
	t.Helper()
	var gs []model.BadgeGrant
	if err := e.DB.NewSelect().Model(&gs).Where("application_id = ?", appID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return gs
}

func auditOf(t *testing.T, e *apptest.Env, targetID string) []model.AuditEntry {
	t.Helper()
	var es []model.AuditEntry
	if err := e.DB.NewSelect().Model(&es).Where("target_id = ?", targetID).OrderExpr("created_at, id").Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return es
}

func outboxTo(t *testing.T, e *apptest.Env, to string) []model.OutboxMessage {
	t.Helper()
	var ms []model.OutboxMessage
	if err := e.DB.NewSelect().Model(&ms).Where("to_addr = ?", to).OrderExpr("created_at, id").Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return ms
}

func ago(d time.Duration) time.Time { return model.Now().Add(-d) }
