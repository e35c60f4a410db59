package admin_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/model"
)

var (
	verificationRe = regexp.MustCompile(`^MM-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`)
	publicIDRe     = regexp.MustCompile(`^[a-z2-7]{32}$`)
)

func TestApproveRefusesUnpaidApplication(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("ann@x.io")
	b := newBadge(t, e, "", 4900)
	a := newApplication(t, e, u, b, model.StatusAwaitingPayment)

	ac.Put("/admin/applications/"+a.ID+"/approve", nil).ExpectMsg(http.StatusConflict, admin.MsgPaymentRequired)
	ac.Put("/admin/applications/"+a.ID+"/approve", map[string]any{"grantFree": false}).ExpectMsg(http.StatusConflict, admin.MsgPaymentRequired)

	got := reload(t, e, a)
	apptest.Expect(t, "refused approval changed the application", got,
		apptest.Eq("got.Status", got.Status, model.StatusAwaitingPayment),
		apptest.True("got.ReviewedAt == nil", got.ReviewedAt == nil),
		apptest.True("got.ReviewedBy == nil", got.ReviewedBy == nil))
	if n := len(grantsOf(t, e, a.ID)); n != 0 {
		t.Fatalf("refused approval made %d grants", n)
	}
	if n := len(auditOf(t, e, a.ID)); n != 0 {
		t.Fatalf("refused approval audited %d entries", n)
	}
	if n := len(outboxTo(t, e, u.Email)); n != 0 {
		t.Fatalf("refused approval queued %d mails", n)
	}
}

func TestApproveGrantsOnceAndAudits(t *testing.T) {
	e := apptest.New(t)
	boss, ac := e.Admin("boss@x.io")
	u, _ := e.Member("ann@x.io")
	b := newBadge(t, e, "Go Expert", 4900)
	a := paidApplication(t, e, u, b)

	r := ac.Put("/admin/applications/"+a.ID+"/approve", nil).ExpectMsg(200, admin.MsgApproved)
	var body struct {
		Application  admin.ApplicationJSON `json:"application"`
		GrantCreated bool                  `json:"grantCreated"`
	}
	r.JSON(&body)
	if !body.GrantCreated || body.Application.Status != model.StatusApproved || body.Application.Grant == nil {
		t.Fatalf("approve answer: %s", r.Text())
	}

	got := reload(t, e, a)
	apptest.Expect(t, "application after approve", got,
		apptest.Eq("got.Status", got.Status, model.StatusApproved),
		apptest.True("got.ReviewedAt != nil", got.ReviewedAt != nil),
		apptest.True("got.ReviewedBy != nil", got.ReviewedBy != nil))
	apptest.Expect(t, "application after approve", got,
		apptest.Eq("*got.ReviewedBy", *got.ReviewedBy, boss.ID))
	gs := grantsOf(t, e, a.ID)
	if len(gs) != 1 {
		t.Fatalf("%d grants, want 1", len(gs))
	}
	g := gs[0]
	apptest.Expect(t, "grant", g,
		apptest.Eq("g.UserID", g.UserID, u.ID),
		apptest.Eq("g.BadgeID", g.BadgeID, b.ID),
		apptest.True("g.RevokedAt == nil", g.RevokedAt == nil),
		apptest.True("g.GrantedBy != nil", g.GrantedBy != nil))
	apptest.Expect(t, "grant", g,
		apptest.Eq("*g.GrantedBy", *g.GrantedBy, boss.ID))
	if !verificationRe.MatchString(g.VerificationID) {
		t.Fatalf("verification id %q is not MM-XXXX-XXXX-XXXX", g.VerificationID)
	}
	if !publicIDRe.MatchString(g.PublicVerificationID) {
		t.Fatalf("public verification id %q is not 160-bit base32", g.PublicVerificationID)
	}
	if body.Application.Grant.VerificationID != g.VerificationID || body.Application.Grant.PublicVerificationID != g.PublicVerificationID {
		t.Fatal("answer's grant differs from the stored one")
	}

	mails := outboxTo(t, e, u.Email)
	apptest.Expect(t, "approval mail", mails,
		apptest.Eq("len(mails)", len(mails), 1))
	apptest.Expect(t, "approval mail", mails,
		apptest.Eq("mails[0].Subject", mails[0].Subject, "Your Go Expert badge has been granted"),
		apptest.True("strings.Contains(mails[0].BodyText, g.VerificationID)", strings.Contains(mails[0].BodyText, g.VerificationID)),
		apptest.True("strings.Contains(mails[0].BodyText, \"/verify/\"+g.PublicVerificationID)", strings.Contains(mails[0].BodyText, "/verify/"+g.PublicVerificationID)))

	es := auditOf(t, e, a.ID)
	if len(es) != 1 {
		t.Fatalf("%d audit entries, want 1", len(es))
	}
	apptest.Expect(t, "audit entry", es[0],
		apptest.Eq("es[0].Action", es[0].Action, "application.approve"),
		apptest.Eq("es[0].TargetType", es[0].TargetType, "application"),
		apptest.True("es[0].ActorID != nil", es[0].ActorID != nil))
	apptest.Expect(t, "audit entry", es[0],
		apptest.Eq("*es[0].ActorID", *es[0].ActorID, boss.ID),
		apptest.Eq("es[0].ActorEmail", es[0].ActorEmail, boss.Email))
	var before, after map[string]any
	_ = json.Unmarshal([]byte(es[0].Before), &before)
	_ = json.Unmarshal([]byte(es[0].After), &after)
	if before["status"] != model.StatusPending || before["grant"] != nil || after["status"] != model.StatusApproved ||
		after["grant"].(map[string]any)["id"] != g.ID {
		t.Fatalf("audit before/after: %s -> %s", es[0].Before, es[0].After)
	}

	// a second approve (Re-approve) is accepted, changes no grant and sends no second mail
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).ExpectMsg(200, admin.MsgApproved)
	gs = grantsOf(t, e, a.ID)
	apptest.Expect(t, "second approve changed grants", gs,
		apptest.Eq("len(gs)", len(gs), 1))
	apptest.Expect(t, "second approve changed grants", gs,
		apptest.Eq("gs[0].ID", gs[0].ID, g.ID),
		apptest.Eq("gs[0].VerificationID", gs[0].VerificationID, g.VerificationID))
	if n := len(outboxTo(t, e, u.Email)); n != 1 {
		t.Fatalf("second approve queued another mail (%d)", n)
	}
	if n := len(auditOf(t, e, a.ID)); n != 2 {
		t.Fatalf("second approve: %d audit entries, want 2", n)
	}
}

func TestConcurrentApprovesMakeOneGrant(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	_, ac2 := e.Admin("boss2@x.io")
	u, _ := e.Member("ann@x.io")
	b := newBadge(t, e, "", 2500)
	a := paidApplication(t, e, u, b)

	var ok, other atomic.Int32
	apptest.Parallel(6, func(i int) {
		c := ac
		if i%2 == 1 {
			c = ac2
		}
		r := c.Put("/admin/applications/"+a.ID+"/approve", nil)
		if r.Status == 200 && r.Msg() == admin.MsgApproved {
			ok.Add(1)
		} else {
			other.Add(1)
			t.Errorf("concurrent approve: %d %s", r.Status, r.Text())
		}
	})
	if ok.Load() != 6 {
		t.Fatalf("%d approves succeeded, %d did not", ok.Load(), other.Load())
	}
	if n := len(grantsOf(t, e, a.ID)); n != 1 {
		t.Fatalf("%d grants after concurrent approves, want 1", n)
	}
	var n int64
	n, err := e.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Where("user_id = ?", u.ID).Count(e.Ctx())
	if err != nil || n != 1 {
		t.Fatalf("user has %d grants (err %v), want 1", n, err)
	}
	if m := len(outboxTo(t, e, u.Email)); m != 1 {
		t.Fatalf("%d approval mails, want 1", m)
	}
}

func TestGrantFreeApprovesWithoutPayment(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("ann@x.io")
	b := newBadge(t, e, "", 9900)
	a := newApplication(t, e, u, b, model.StatusAwaitingPayment)

	r := ac.Put("/admin/applications/"+a.ID+"/approve", map[string]any{"grantFree": true}).ExpectMsg(200, admin.MsgApproved)
	if !strings.Contains(r.Text(), `"grantCreated":true`) {
		t.Fatalf("grant free answer: %s", r.Text())
	}
	got := reload(t, e, a)
	if got.Status != model.StatusApproved || got.PaymentStatus != model.PaymentPending {
		t.Fatalf("after grant free: status %s payment %s", got.Status, got.PaymentStatus)
	}
	if n := len(grantsOf(t, e, a.ID)); n != 1 {
		t.Fatalf("%d grants", n)
	}
	es := auditOf(t, e, a.ID)
	apptest.Expect(t, "audit", es,
		apptest.Eq("len(es)", len(es), 1))
	apptest.Expect(t, "audit", es,
		apptest.Eq("es[0].Action", es[0].Action, "application.grant_free"))
}

func TestRejectStoresReasonAndReRejectRevokes(t *testing.T) {
	e := apptest.New(t)
	boss, ac := e.Admin("boss@x.io")
	u, _ := e.Member("ann@x.io")
	b := newBadge(t, e, "Design Lead", 3900)

	// a plain reject without a reason stores the default
	a1 := paidApplication(t, e, u, b)
	ac.Put("/admin/applications/"+a1.ID+"/reject", nil).ExpectMsg(200, admin.MsgRejected)
	got := reload(t, e, a1)
	apptest.Expect(t, "after reject", got,
		apptest.Eq("got.Status", got.Status, model.StatusRejected),
		apptest.Eq("got.RejectionReason", got.RejectionReason, admin.DefaultRejectionReason),
		apptest.True("got.ReviewedBy != nil", got.ReviewedBy != nil))
	apptest.Expect(t, "after reject", got,
		apptest.Eq("*got.ReviewedBy", *got.ReviewedBy, boss.ID))
	// re-reject with a typed reason replaces it (trimmed)
	ac.Put("/admin/applications/"+a1.ID+"/reject", map[string]string{"reason": "  Proof is unreadable  "}).ExpectMsg(200, admin.MsgRejected)
	if got := reload(t, e, a1); got.RejectionReason != "Proof is unreadable" {
		t.Fatalf("reason %q", got.RejectionReason)
	}
	if n := len(outboxTo(t, e, u.Email)); n != 1 {
		t.Fatalf("re-rejecting a rejected application mailed again: %d mails", n)
	}
	ac.Put("/admin/applications/"+a1.ID+"/reject", map[string]string{"reason": strings.Repeat("x", admin.MaxReason+1)}).
		ExpectMsg(400, admin.MsgReasonTooLong)

	// approve a second application, then reject it: its grant is revoked, not deleted
	a2 := paidApplication(t, e, u, b)
	ac.Put("/admin/applications/"+a2.ID+"/approve", nil).ExpectMsg(200, admin.MsgApproved)
	g := grantsOf(t, e, a2.ID)[0]
	r := ac.Put("/admin/applications/"+a2.ID+"/reject", map[string]string{"reason": "Certificate was forged"}).ExpectMsg(200, admin.MsgRejected)
	if !strings.Contains(r.Text(), `"grantRevoked":true`) {
		t.Fatalf("reject answer: %s", r.Text())
	}
	gs := grantsOf(t, e, a2.ID)
	apptest.Expect(t, "grant after re-reject", gs,
		apptest.Eq("len(gs)", len(gs), 1))
	apptest.Expect(t, "grant after re-reject", gs,
		apptest.Eq("gs[0].ID", gs[0].ID, g.ID),
		apptest.True("gs[0].RevokedAt != nil", gs[0].RevokedAt != nil),
		apptest.Eq("gs[0].RevocationReason", gs[0].RevocationReason, "Certificate was forged"))
	got = reload(t, e, a2)
	apptest.Expect(t, "application after re-reject", got,
		apptest.Eq("got.Status", got.Status, model.StatusRejected),
		apptest.Eq("got.RejectionReason", got.RejectionReason, "Certificate was forged"))
	es := auditOf(t, e, a2.ID)
	apptest.Expect(t, "audit", es,
		apptest.Eq("len(es)", len(es), 2))
	apptest.Expect(t, "audit", es,
		apptest.Eq("es[1].Action", es[1].Action, "application.reject"))
	var after struct {
		Status string `json:"status"`
		Grant  struct {
			ID        string  `json:"id"`
			RevokedAt *string `json:"revokedAt"`
		} `json:"grant"`
	}
	_ = json.Unmarshal([]byte(es[1].After), &after)
	if after.Status != model.StatusRejected || after.Grant.ID != g.ID || after.Grant.RevokedAt == nil {
		t.Fatalf("audit after: %s", es[1].After)
	}
	mails := outboxTo(t, e, u.Email)
	last := mails[len(mails)-1]
	apptest.Expect(t, "revocation mail", last,
		apptest.True("strings.Contains(last.BodyText, \"Certificate was forged\")", strings.Contains(last.BodyText, "Certificate was forged")),
		apptest.True("strings.Contains(last.BodyText, \"withdrawn\")", strings.Contains(last.BodyText, "withdrawn")))

	// re-approve restores the same grant only once confirmed, knowing the reason: no
	// confirmation is a 409 that names it, and changes nothing
	before := len(outboxTo(t, e, u.Email))
	ac.Put("/admin/applications/"+a2.ID+"/approve", nil).ExpectMsg(409, admin.RestoreConfirmMsg("Certificate was forged"))
	if gs := grantsOf(t, e, a2.ID); len(gs) != 1 || gs[0].RevokedAt == nil || reload(t, e, a2).Status != model.StatusRejected || len(outboxTo(t, e, u.Email)) != before {
		t.Fatalf("an unconfirmed re-approve changed something: %+v", gs)
	}
	// re-approve with the confirmation restores the same grant: same ids, no second grant
	r = ac.Put("/admin/applications/"+a2.ID+"/approve", map[string]any{"restoreRevoked": true}).ExpectMsg(200, admin.MsgApproved)
	if !strings.Contains(r.Text(), `"grantRestored":true`) {
		t.Fatalf("re-approve answer: %s", r.Text())
	}
	gs = grantsOf(t, e, a2.ID)
	apptest.Expect(t, "grant after re-approve", gs,
		apptest.Eq("len(gs)", len(gs), 1))
	apptest.Expect(t, "grant after re-approve", gs,
		apptest.Eq("gs[0].ID", gs[0].ID, g.ID),
		apptest.True("gs[0].RevokedAt == nil", gs[0].RevokedAt == nil),
		apptest.Eq("gs[0].RevocationReason", gs[0].RevocationReason, ""),
		apptest.Eq("gs[0].VerificationID", gs[0].VerificationID, g.VerificationID),
		apptest.Eq("gs[0].PublicVerificationID", gs[0].PublicVerificationID, g.PublicVerificationID))
	if got := reload(t, e, a2); got.Status != model.StatusApproved || got.RejectionReason != "" {
		t.Fatalf("application after re-approve: %+v", got)
	}
	n, _ := e.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Where("user_id = ?", u.ID).Count(e.Ctx())
	if n != 1 {
		t.Fatalf("user has %d grants, want 1", n)
	}
}

func TestReApproveRejectedUnpaidNeedsGrantFree(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("ann@x.io")
	a := newApplication(t, e, u, newBadge(t, e, "", 1500), model.StatusAwaitingPayment)
	ac.Put("/admin/applications/"+a.ID+"/reject", map[string]string{"reason": ""}).ExpectMsg(200, admin.MsgRejected)
	if got := reload(t, e, a); got.RejectionReason != admin.DefaultRejectionReason {
		t.Fatalf("blank reason stored as %q", got.RejectionReason)
	}
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).ExpectMsg(409, admin.MsgPaymentRequired)
	ac.Put("/admin/applications/"+a.ID+"/approve", map[string]bool{"grantFree": true}).ExpectMsg(200, admin.MsgApproved)
	if got := reload(t, e, a); got.Status != model.StatusApproved {
		t.Fatalf("status %s", got.Status)
	}
}

func TestApproveRefusesASecondCopyOfAHeldBadge(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("ann@x.io")
	b := newBadge(t, e, "", 1000)
	a1 := paidApplication(t, e, u, b)
	ac.Put("/admin/applications/"+a1.ID+"/approve", nil).Expect(200)
	a2 := paidApplication(t, e, u, b)
	ac.Put("/admin/applications/"+a2.ID+"/approve", nil).ExpectMsg(409, admin.MsgAlreadyHolds)
	if got := reload(t, e, a2); got.Status != model.StatusPending {
		t.Fatalf("refused approve changed status to %s", got.Status)
	}
	// once the first grant is revoked, the second application can be approved
	ac.Put("/admin/applications/"+a1.ID+"/reject", nil).Expect(200)
	ac.Put("/admin/applications/"+a2.ID+"/approve", nil).ExpectMsg(200, admin.MsgApproved)
	// and now the first cannot be restored while the second is held
	ac.Put("/admin/applications/"+a1.ID+"/approve", nil).ExpectMsg(409, admin.MsgAlreadyHolds)
}

func TestReviewBadRequests(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	ac.Put("/admin/applications/"+model.NewID()+"/approve", nil).ExpectMsg(404, admin.MsgApplicationMissing)
	ac.Put("/admin/applications/not-an-id/approve", nil).ExpectMsg(404, admin.MsgApplicationMissing)
	ac.Put("/admin/applications/"+model.NewID()+"/reject", nil).ExpectMsg(404, admin.MsgApplicationMissing)
	ac.Get("/admin/applications/"+model.NewID()).ExpectMsg(404, admin.MsgApplicationMissing)
	u, _ := e.Member("ann@x.io")
	a := paidApplication(t, e, u, newBadge(t, e, "", 100))
	ac.Put("/admin/applications/"+a.ID+"/approve", "{not json").ExpectMsg(400, "The request body is not valid JSON.")
	ac.Put("/admin/applications/"+a.ID+"/reject", "[1,2]").ExpectMsg(400, "The request body is not valid JSON.")
	if got := reload(t, e, a); got.Status != model.StatusPending {
		t.Fatalf("bad requests changed the application: %s", got.Status)
	}
}
