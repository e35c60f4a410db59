package grant_test

import (
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/grant"
)

func TestStandingOf(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { x := now.Add(d); return &x }
	day := 24 * time.Hour
	cases := []struct {
		name  string
		f     grant.Facts
		state string
		label string
		held  bool
		renew bool
		days  int
	}{
		{"no expiry", grant.Facts{}, grant.StateValid, "Valid, no expiry date", true, false, 0},
		{"far expiry", grant.Facts{ExpiresAt: at(31 * day)}, grant.StateValid, "Valid until Dec 27, 2026", true, false, 31},
		{"30 days left", grant.Facts{ExpiresAt: at(30 * day)}, grant.StateExpiring, "Expiring soon: valid until Dec 26, 2026 (30 days left)", true, true, 30},
		{"an hour left", grant.Facts{ExpiresAt: at(time.Hour)}, grant.StateExpiring, "Expiring soon: valid until Nov 26, 2026 (1 day left)", true, true, 1},
		{"expires now", grant.Facts{ExpiresAt: at(0)}, grant.StateExpired, "Expired on Nov 26, 2026", false, true, 0},
		{"expired", grant.Facts{ExpiresAt: at(-3 * day)}, grant.StateExpired, "Expired on Nov 23, 2026", false, true, 0},
		{"revoked beats expiry", grant.Facts{ExpiresAt: at(-3 * day), RevokedAt: at(-5 * day)}, grant.StateRevoked, "Revoked on Nov 21, 2026", false, false, 0},
		{"renewed", grant.Facts{ExpiresAt: at(5 * day), RenewedAt: at(-day)}, grant.StateRenewed, "Renewed on Nov 25, 2026", false, false, 0},
	}
	for _, c := range cases {
		s := grant.StandingOf(c.f, now)
		apptest.Expect(t, c.name, s, apptest.Eq("State", s.State, c.state), apptest.Eq("Label", s.Label, c.label),
			apptest.Eq("Held", s.Held, c.held), apptest.Eq("CanRenew", s.CanRenew, c.renew), apptest.Eq("DaysLeft", s.DaysLeft, c.days))
	}
	s := grant.StandingOf(grant.Facts{Renews: true, GrantedAt: now}, now)
	if s.RenewedOn == nil || !s.RenewedOn.Equal(now) {
		t.Fatalf("a renewal names its date: %+v", s)
	}
}

func TestCurrent(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	old, newer := now.AddDate(-1, 0, 0), now.AddDate(0, 0, -2)
	exp1, exp2 := now.AddDate(0, 0, 10), now.AddDate(1, 0, 0)
	prev := "g1"
	gs := []grant.Entry{
		{ID: "g1", GrantedAt: old, ExpiresAt: &exp1},
		{ID: "g2", GrantedAt: newer, ExpiresAt: &exp2, PreviousGrantID: &prev},
	}
	i, s := grant.Current(gs, now)
	apptest.Expect(t, "renewed badge", s, apptest.Eq("index", i, 1), apptest.Eq("State", s.State, grant.StateValid),
		apptest.True("RenewedOn", s.RenewedOn != nil))
	// a revoked newer grant does not hide the older one in force
	rev := now.Add(-time.Hour)
	gs[1].RevokedAt = &rev
	i, s = grant.Current(gs, now)
	apptest.Expect(t, "revoked renewal", s, apptest.Eq("index", i, 0), apptest.Eq("State", s.State, grant.StateExpiring))
	// only revoked: the latest revoked one stands
	gs[0].RevokedAt = &rev
	i, s = grant.Current(gs, now)
	apptest.Expect(t, "all revoked", s, apptest.Eq("index", i, 1), apptest.Eq("State", s.State, grant.StateRevoked))
	if i, _ := grant.Current(nil, now); i != -1 {
		t.Fatalf("no grants: %d", i)
	}
	if grant.RenewPath("skill", "b") != "/quiz/b" || grant.RenewPath("proof", "b") != "/proof-upload/b" {
		t.Fatal("renew paths")
	}
}
