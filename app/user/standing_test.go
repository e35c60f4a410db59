package user_test

import (
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/halloffame"
	"meritmark/app/model"
)

// A renewed badge is one badge with its state, and the profile, the public profile and
// the Hall of Fame count the same badges in force.
func TestProfileStandingAndOneCount(t *testing.T) {
	e := apptest.New(t)
	u, c := e.Member("holder@example.com")
	now := model.Now()
	day := 24 * time.Hour
	at := func(d time.Duration) *time.Time { x := now.Add(d); return &x }

	renewed := addBadge(t, e, "Renewed Badge", "Design")
	old := addGrant(t, e, u, renewed, "pubold", now.Add(-400*day), false)
	old.ExpiresAt = at(10 * day)
	fresh := addGrant(t, e, u, renewed, "pubnew", now.Add(-day), false)
	fresh.ExpiresAt, fresh.PreviousGrantID = at(364*day), &old.ID
	expiring := addGrant(t, e, u, addBadge(t, e, "Expiring Badge", "Development"), "pubsoon", now.Add(-300*day), false)
	expiring.ExpiresAt = at(12 * day)
	expired := addGrant(t, e, u, addBadge(t, e, "Expired Badge", "Marketing"), "pubgone", now.Add(-400*day), false)
	expired.ExpiresAt = at(-2 * day)
	for _, g := range []*model.BadgeGrant{old, fresh, expiring, expired} {
		if _, err := e.DB.NewUpdate().Model(g).Column("expires_at", "previous_grant_id").WherePK().Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	if err := halloffame.Rebuild(e.Ctx(), e.DB); err != nil {
		t.Fatal(err)
	}

	r, props := c.Page("/profile")
	r.Expect(200)
	page := props["page"].(map[string]any)
	badges := page["badges"].([]any)
	states := map[string]map[string]any{}
	for _, b := range badges {
		m := b.(map[string]any)
		states[m["name"].(string)] = m
	}
	st := func(name string) map[string]any { return states[name]["standing"].(map[string]any) }
	apptest.Expect(t, "profile", page,
		apptest.Eq("entries", len(badges), 3),
		apptest.Eq[any]("held", page["held"], float64(2)),
		apptest.Eq[any]("categories", page["categories"], float64(2)),
		apptest.Eq[any]("renewed state", st("Renewed Badge")["state"], "valid"),
		apptest.True("renewed names its date", st("Renewed Badge")["renewedOn"] != nil),
		apptest.Eq[any]("renewed shows the new credential", states["Renewed Badge"]["verificationId"], "pubnew"),
		apptest.Eq[any]("expiring", st("Expiring Badge")["state"], "expiring"),
		apptest.Eq[any]("expiring renew link", states["Expiring Badge"]["renewHref"], "/proof-upload/"+expiring.BadgeID),
		apptest.Eq[any]("expired", st("Expired Badge")["state"], "expired"),
		apptest.Eq[any]("expired label", st("Expired Badge")["label"], "Expired on "+expired.ExpiresAt.UTC().Format("Jan 2, 2006")),
		apptest.Eq[any]("expired renew link", states["Expired Badge"]["renewHref"], "/proof-upload/"+expired.BadgeID),
		apptest.Eq[any]("valid has none", states["Renewed Badge"]["renewHref"], ""))

	// the public profile: the same entries and count, no renew links
	_, props = e.Client().Page("/profile/" + u.ID)
	p := props["page"].(map[string]any)["profile"].(map[string]any)
	apptest.Expect(t, "public profile", p,
		apptest.Eq("entries", len(p["badges"].([]any)), 3),
		apptest.Eq[any]("held", p["held"], float64(2)),
		apptest.Eq[any]("no renew link", p["badges"].([]any)[0].(map[string]any)["renewHref"], ""))

	// the Hall of Fame: the same count
	var total int
	if err := e.DB.NewRaw(`SELECT total_badges FROM hall_of_fame WHERE user_id = ?`, u.ID).Scan(e.Ctx(), &total); err != nil {
		t.Fatal(err)
	}
	if total != 2 {
		t.Fatalf("hall of fame counts %d, want 2", total)
	}
}

// The holder's own profile reads the grants once for both of its lists: the account's
// badgeGrants (as /auth/me gives them) leave a revoked grant out, the badges list shows it.
func TestOwnProfileListsRevokedOnlyAmongBadges(t *testing.T) {
	e := apptest.New(t)
	u, c := e.Member("revoked-holder@example.com")
	now := model.Now()
	kept := addGrant(t, e, u, addBadge(t, e, "Kept Badge", "Design"), "pubkept", now.Add(-48*time.Hour), false)
	addGrant(t, e, u, addBadge(t, e, "Revoked Badge", "Marketing"), "pubrevoked", now.Add(-24*time.Hour), true)

	r, props := c.Page("/profile")
	r.Expect(200)
	page := props["page"].(map[string]any)
	grants := page["user"].(map[string]any)["badgeGrants"].([]any)
	names := map[string]bool{}
	for _, b := range page["badges"].([]any) {
		names[b.(map[string]any)["name"].(string)] = true
	}
	apptest.Expect(t, "own profile", page,
		apptest.Eq("account grants", len(grants), 1),
		apptest.Eq[any]("the account's grant is the kept one", grants[0].(map[string]any)["id"], kept.ID),
		apptest.True("badges show the kept badge", names["Kept Badge"]),
		apptest.True("badges show the revoked badge", names["Revoked Badge"]))
}
