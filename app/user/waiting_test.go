package user_test

import (
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
)

// The own profile names the approved badges that wait for the address to be confirmed
// (waitingBadges); none once a grant exists or the address is confirmed.
func TestProfileNamesBadgesWaitingForTheConfirmedAddress(t *testing.T) {
	e := apptest.New(t)
	u := e.CreateUser("waits@example.com", "password123", model.RoleUser)
	if _, err := e.DB.NewUpdate().Model(u).Set("email_verified_at = NULL").WherePK().Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	c := e.LoginAs(u)
	waiting := func() []any {
		t.Helper()
		r, props := c.Page("/profile")
		r.Expect(200)
		w, _ := props["page"].(map[string]any)["waitingBadges"].([]any)
		return w
	}
	if w := waiting(); len(w) != 0 {
		t.Fatalf("waiting before any approval: %v", w)
	}
	now := model.Now()
	add := func(b *model.Badge, status string) *model.Application {
		a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: b.Type, Status: status,
			PaymentStatus: model.PaymentCompleted, FullName: "W", Email: u.Email, CreatedAt: now, UpdatedAt: now}
		if _, err := e.DB.NewInsert().Model(a).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
		return a
	}
	approved := addBadge(t, e, "Cloud Architect", "Cloud")
	add(approved, model.StatusApproved)
	add(addBadge(t, e, "Still Pending", "Cloud"), model.StatusPending)
	granted := addBadge(t, e, "Already Granted", "Cloud")
	a3 := add(granted, model.StatusApproved)
	g := addGrant(t, e, u, granted, "pubgranted", now, false)
	if _, err := e.DB.NewUpdate().Model(g).Set("application_id = ?", a3.ID).WherePK().Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	if w := waiting(); len(w) != 1 || w[0] != "Cloud Architect" {
		t.Fatalf("waiting %v, want [Cloud Architect]", w)
	}
	// a confirmed address waits for nothing
	if _, err := e.DB.NewUpdate().Model(u).Set("email_verified_at = ?", now).WherePK().Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	if w := waiting(); len(w) != 0 {
		t.Fatalf("waiting after the confirmation: %v", w)
	}
}
