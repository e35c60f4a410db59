package admin_test

import (
	"net/url"
	"testing"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/model"
)

type auditRows struct {
	Entries []struct {
		Action      string `json:"action"`
		TargetType  string `json:"targetType"`
		TargetID    string `json:"targetId"`
		TargetLabel string `json:"targetLabel"`
	} `json:"entries"`
	Total int `json:"total"`
}

// The audit log's search finds what its rows show (badge names, applicants, coupon codes,
// grant ids), rows name their targets, and the filter offers every action.
func TestAuditSearchFindsWhatRowsShow(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("ann@x.io")
	b := newBadge(t, e, "Kotlin Mastery", 2500)
	a := paidApplication(t, e, u, b)
	ac.Put("/admin/applications/"+a.ID+"/approve", map[string]any{}).ExpectMsg(200, admin.MsgApproved)
	g := grantsOf(t, e, a.ID)[0]
	ac.Put("/admin/grants/"+g.ID+"/revoke", map[string]any{"category": "issued_in_error", "reason": "Issued by mistake"}).Expect(200)
	ac.Post("/coupons", map[string]any{"code": "SPRING24", "name": "Spring"}).Expect(201)

	search := func(q string) auditRows {
		var l auditRows
		ac.Get("/admin/audit?search=" + url.QueryEscape(q)).Expect(200).JSON(&l)
		return l
	}
	has := func(l auditRows, action string) string {
		for _, r := range l.Entries {
			if r.Action == action {
				return r.TargetLabel
			}
		}
		return "<missing>"
	}
	l := search("kotlin")
	apptest.Expect(t, "search by badge name", l,
		apptest.Eq("approve row label", has(l, "application.approve"), "Kotlin Mastery for ann@x.io"),
		apptest.Eq("revoke row label", has(l, "grant.revoke"), "Kotlin Mastery ("+g.VerificationID+") of ann@x.io"))
	l = search("spring24")
	apptest.Expect(t, "search by coupon code", l,
		apptest.Eq("coupon row label", has(l, "coupon.create"), "Spring"),
		apptest.Eq("total", l.Total, 1))
	l = search(g.VerificationID)
	if has(l, "grant.revoke") == "<missing>" {
		t.Fatalf("search by verification id: %+v", l)
	}
	if l := search("no-such-thing-xyz"); l.Total != 0 {
		t.Fatalf("search for nothing found %d rows", l.Total)
	}

	var acts struct {
		Actions []string `json:"actions"`
	}
	// a row of an action no list knows still gets its option
	if _, err := e.DB.NewInsert().Model(&model.AuditEntry{ID: model.NewID(), Action: "ops.something_new", TargetType: "user",
		TargetID: u.ID, Before: "null", After: "null", CreatedAt: model.Now()}).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	ac.Get("/admin/audit/actions").Expect(200).JSON(&acts)
	set := map[string]bool{}
	for _, x := range acts.Actions {
		set[x] = true
	}
	for _, want := range []string{"application.approve", "grant.revoke", "coupon.create", "question.retire", "quiz.grant_attempt", "webhook.rotate_secret", "ops.something_new"} {
		if !set[want] {
			t.Errorf("filter lacks %s", want)
		}
	}
	e.Client().Get("/admin/audit/actions").Expect(401)
}
