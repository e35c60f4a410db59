package admin_test

import (
	"context"
	"testing"
	"time"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/mail"
	"meritmark/app/model"
)

type countSender struct{ to []string }

func (s *countSender) Send(_ context.Context, _ string, m *model.OutboxMessage) error {
	s.to = append(s.to, m.To)
	return nil
}

// A rejection from review holds its mail back for the undo window; an undo in time
// withdraws the mail and puts the application back in review (audited); afterwards, or
// once the mail has gone, the undo is refused.
func TestUndoRejectWithdrawsTheWaitingMail(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("ann@x.io")
	b := newBadge(t, e, "Design Lead", 3900)
	a := paidApplication(t, e, u, b)
	before := reload(t, e, a)

	r := ac.Put("/admin/applications/"+a.ID+"/reject", map[string]string{"reason": "Blurry proof"}).ExpectMsg(200, admin.MsgRejected)
	if _, ok := r.Map()["undoUntil"]; !ok {
		t.Fatalf("a rejection from review offers an undo: %s", r.Text())
	}
	ms := outboxTo(t, e, u.Email)
	if len(ms) != 1 || ms[0].NotBefore == nil || ms[0].NotBefore.Sub(ms[0].CreatedAt) < admin.RejectUndoWindow-time.Second {
		t.Fatalf("the rejection mail waits for the undo window: %+v", ms)
	}
	// the mailer leaves it alone until then
	s := &countSender{}
	w := mail.NewWorker(e.DB, s, "x@y.z")
	if n, err := w.Flush(e.Ctx()); err != nil || n != 0 {
		t.Fatalf("a waiting mail was sent: %d %v", n, err)
	}

	ac.Put("/admin/applications/"+a.ID+"/reject/undo", nil).ExpectMsg(200, admin.MsgRejectUndone)
	got := reload(t, e, a)
	apptest.Expect(t, "after undo", got,
		apptest.Eq("got.Status", got.Status, before.Status),
		apptest.Eq("got.RejectionReason", got.RejectionReason, ""),
		apptest.True("got.ReviewedAt == nil", got.ReviewedAt == nil),
		apptest.Eq("got.UndoMailID", got.UndoMailID, ""))
	if n := len(outboxTo(t, e, u.Email)); n != 0 {
		t.Fatalf("the undone rejection's mail is still queued: %d", n)
	}
	var types []string
	if err := e.DB.NewSelect().Table("domain_events").Column("type").Where("subject_id = ?", a.ID).OrderExpr("created_at, id").Scan(e.Ctx(), &types); err != nil {
		t.Fatal(err)
	}
	if n := len(types); n < 2 || types[n-2] != "application.rejected" || types[n-1] != "application.reject_undone" {
		t.Fatalf("the undo is an event webhook receivers hear: %v", types)
	}
	es := auditOf(t, e, a.ID)
	if len(es) != 2 || es[0].Action != "application.reject" || es[1].Action != "application.reject_undo" {
		t.Fatalf("audit: %+v", es)
	}
	// twice: nothing left to undo
	ac.Put("/admin/applications/"+a.ID+"/reject/undo", nil).ExpectMsg(409, admin.MsgUndoTooLate)

	// rejected again; once the window has passed the mailer sends it and undo is refused
	ac.Put("/admin/applications/"+a.ID+"/reject", nil).ExpectMsg(200, admin.MsgRejected)
	w.Now = func() time.Time { return time.Now().Add(admin.RejectUndoWindow + time.Second) }
	if n, err := w.Flush(e.Ctx()); err != nil || n != 1 || len(s.to) != 1 || s.to[0] != u.Email {
		t.Fatalf("the mail goes after the window: %d %v %v", n, err, s.to)
	}
	ac.Put("/admin/applications/"+a.ID+"/reject/undo", nil).ExpectMsg(409, admin.MsgUndoTooLate)
	if got := reload(t, e, a); got.Status != model.StatusRejected {
		t.Fatalf("status %s", got.Status)
	}

	// an approved application's rejection (a grant revoked) offers no undo
	a2 := paidApplication(t, e, u, b)
	ac.Put("/admin/applications/"+a2.ID+"/approve", nil).ExpectMsg(200, admin.MsgApproved)
	r = ac.Put("/admin/applications/"+a2.ID+"/reject", nil).ExpectMsg(200, admin.MsgRejected)
	if _, ok := r.Map()["undoUntil"]; ok {
		t.Fatalf("no undo after a revocation: %s", r.Text())
	}
	ac.Put("/admin/applications/"+a2.ID+"/reject/undo", nil).ExpectMsg(409, admin.MsgUndoTooLate)
	ac.Put("/admin/applications/nope/reject/undo", nil).Expect(404)
}

// Approving a rejected application whose mail still waits withdraws that mail.
func TestApproveWithdrawsAWaitingRejectionMail(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("ann@x.io")
	b := newBadge(t, e, "Design Lead", 3900)
	a := paidApplication(t, e, u, b)
	ac.Put("/admin/applications/"+a.ID+"/reject", nil).ExpectMsg(200, admin.MsgRejected)
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).ExpectMsg(200, admin.MsgApproved)
	for _, m := range outboxTo(t, e, u.Email) {
		if m.NotBefore != nil {
			t.Fatalf("the rejection mail is still queued after the approval: %s", m.Subject)
		}
	}
}
