package admin_test

import (
	"testing"
	"time"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/grant"
)

// TestUserListShowsGrantState: User Management's list carries what its grant actions need
// (the grant id, expiresAt, revokedAt, revocationReason, with null rather than a missing
// key), and follows the admin's Set expiry and Revoke (app/verify) at once.
func TestUserListShowsGrantState(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	carol, _ := e.Member("carol@x.io")
	b := newBadge(t, e, "Kubernetes Pro", 1000)
	a := paidApplication(t, e, carol, b)
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).Expect(200)
	g := grantsOf(t, e, a.ID)[0]

	carols := func() userList {
		t.Helper()
		l := listUsers(t, ac, "?search=carol")
		apptest.Expect(t, "carol's grants", l.Users,
			apptest.Eq("len(l.Users)", len(l.Users), 1))
		apptest.Expect(t, "carol's grants", l.Users,
			apptest.Eq("len(l.Users[0].BadgeGrants)", len(l.Users[0].BadgeGrants), 1))
		apptest.Expect(t, "carol's grants", l.Users,
			apptest.Eq("l.Users[0].BadgeGrants[0].ID", l.Users[0].BadgeGrants[0].ID, g.ID))
		return l
	}

	// the wire format: every key present, null when unset
	raw := ac.Get("/admin/users?search=carol").Expect(200).Map()
	rg := raw["users"].([]any)[0].(map[string]any)["badgeGrants"].([]any)[0].(map[string]any)
	for k, want := range map[string]any{"_id": g.ID, "expiresAt": nil, "revokedAt": nil, "revocationReason": ""} {
		if v, ok := rg[k]; !ok || v != want {
			t.Errorf("grant %s = %v (present %v), want %v", k, v, ok, want)
		}
	}

	// Set expiry: a date is the start of that day, UTC
	ac.Put("/admin/grants/"+g.ID+"/expiry", map[string]any{"expiresAt": "2031-03-15"}).ExpectMsg(200, grant.MsgExpirySet)
	ug := carols().Users[0].BadgeGrants[0]
	apptest.Expect(t, "after Set expiry", ug,
		apptest.True("ug.ExpiresAt != nil", ug.ExpiresAt != nil))
	apptest.Expect(t, "after Set expiry", ug,
		apptest.True("ug.ExpiresAt.Equal(time.Date(2031, 3, 15, 0, 0, 0, 0, time.UTC))", ug.ExpiresAt.Equal(time.Date(2031, 3, 15, 0, 0, 0, 0, time.UTC))),
		apptest.True("ug.RevokedAt == nil", ug.RevokedAt == nil))
	// No expiry clears it
	ac.Put("/admin/grants/"+g.ID+"/expiry", map[string]any{"expiresAt": nil}).ExpectMsg(200, grant.MsgExpiryCleared)
	if ug := carols().Users[0].BadgeGrants[0]; ug.ExpiresAt != nil {
		t.Fatalf("after No expiry: %+v", ug)
	}
	// an expiry before the issue date is refused and changes nothing
	ac.Put("/admin/grants/"+g.ID+"/expiry", map[string]any{"expiresAt": "2001-01-01"}).ExpectMsg(400, grant.MsgExpiryBefore)

	// Revoke with a reason: the card shows when and why; the badge no longer counts
	ac.Put("/admin/grants/"+g.ID+"/expiry", map[string]any{"expiresAt": "2031-03-15"}).Expect(200)
	ac.Put("/admin/grants/"+g.ID+"/revoke", map[string]any{"category": "fraud", "reason": "  The proof was   copied. "}).ExpectMsg(200, grant.MsgRevoked)
	l := carols()
	ug = l.Users[0].BadgeGrants[0]
	apptest.Expect(t, "after Revoke", ug,
		apptest.True("ug.RevokedAt != nil", ug.RevokedAt != nil),
		apptest.Eq("ug.RevocationReason", ug.RevocationReason, "Fraudulent or misrepresented evidence: The proof was copied."),
		apptest.True("ug.ExpiresAt != nil", ug.ExpiresAt != nil),
		apptest.Eq("ug.VerificationID", ug.VerificationID, g.VerificationID))
	apptest.Expect(t, "stats after Revoke", l.Stats,
		apptest.Eq("l.Stats.TotalBadgesEarned", l.Stats.TotalBadgesEarned, 0),
		apptest.Eq("l.Stats.VerificationIDs", l.Stats.VerificationIDs, 1))
	// a second revoke (another admin's stale screen) is a conflict, and keeps the first reason
	ac.Put("/admin/grants/"+g.ID+"/revoke", map[string]any{"category": "fraud", "reason": "Again."}).ExpectMsg(409, grant.MsgAlreadyRevoked)
	if ug := carols().Users[0].BadgeGrants[0]; ug.RevocationReason != "Fraudulent or misrepresented evidence: The proof was copied." {
		t.Fatalf("after a second revoke: %+v", ug)
	}
}

// TestReapproveRevokedGrantNeedsConfirmation: a grant revoked in User Management shows on
// the application (the review list carries grant.revokedAt and the reason), and
// Re-approve does not silently bring it back: without restoreRevoked it is a 409 naming
// the revocation reason and changes nothing (no grant, no mail); confirmed, it restores
// the same grant and tells the holder.
func TestReapproveRevokedGrantNeedsConfirmation(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	carol, _ := e.Member("carol@x.io")
	b := newBadge(t, e, "Kubernetes Pro", 1000)
	a := paidApplication(t, e, carol, b)
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).Expect(200)
	g := grantsOf(t, e, a.ID)[0]
	ac.Put("/admin/grants/"+g.ID+"/revoke", map[string]any{"category": "fraud", "reason": "The proof was copied."}).ExpectMsg(200, grant.MsgRevoked)

	var list struct {
		Applications []struct {
			ID     string `json:"_id"`
			Status string `json:"status"`
			Grant  *struct {
				RevokedAt        *time.Time `json:"revokedAt"`
				RevocationReason string     `json:"revocationReason"`
			} `json:"grant"`
		} `json:"applications"`
	}
	ac.Get("/admin/applications?status=approved").Expect(200).JSON(&list)
	apptest.Expect(t, "the review list does not show the revocation", list.Applications,
		apptest.Eq("len(list.Applications)", len(list.Applications), 1))
	apptest.Expect(t, "the review list does not show the revocation", list.Applications,
		apptest.True("list.Applications[0].Grant != nil", list.Applications[0].Grant != nil))
	apptest.Expect(t, "the review list does not show the revocation", list.Applications,
		apptest.True("list.Applications[0].Grant.RevokedAt != nil", list.Applications[0].Grant.RevokedAt != nil),
		apptest.Eq("list.Applications[0].Grant.RevocationReason", list.Applications[0].Grant.RevocationReason, "Fraudulent or misrepresented evidence: The proof was copied."))

	mails := len(outboxTo(t, e, carol.Email))
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).ExpectMsg(409, admin.RestoreConfirmMsg("Fraudulent or misrepresented evidence: The proof was copied."))
	ac.Put("/admin/applications/"+a.ID+"/approve", map[string]any{"grantFree": true}).ExpectMsg(409, admin.RestoreConfirmMsg("Fraudulent or misrepresented evidence: The proof was copied."))
	if gs := grantsOf(t, e, a.ID); len(gs) != 1 || gs[0].RevokedAt == nil || len(outboxTo(t, e, carol.Email)) != mails {
		t.Fatalf("an unconfirmed re-approve restored the grant or mailed: %+v", gs)
	}

	r := ac.Put("/admin/applications/"+a.ID+"/approve", map[string]any{"restoreRevoked": true}).ExpectMsg(200, admin.MsgApproved)
	if r.Map()["grantRestored"] != true {
		t.Fatalf("confirmed re-approve: %s", r.Text())
	}
	if gs := grantsOf(t, e, a.ID); len(gs) != 1 || gs[0].ID != g.ID || gs[0].RevokedAt != nil || len(outboxTo(t, e, carol.Email)) != mails+1 {
		t.Fatalf("after the confirmed restore: %+v", gs)
	}
	// a grant in force needs no confirmation
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).ExpectMsg(200, admin.MsgApproved)
}
