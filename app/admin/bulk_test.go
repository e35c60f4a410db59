package admin_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/uptrace/bun"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/bulk"
	"meritmark/app/events"
	"meritmark/app/model"
	"meritmark/app/quizadmin"
)

const bulkPath = "/admin/applications/bulk"

func bulkCall(t *testing.T, c *apptest.Client, body map[string]any) bulk.Answer {
	t.Helper()
	var ans bulk.Answer
	c.Post(bulkPath, body).Expect(http.StatusOK).JSON(&ans)
	return ans
}

func resultOf(t *testing.T, ans bulk.Answer, id string) bulk.Result {
	t.Helper()
	for _, r := range ans.Results {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no result for %s in %+v", id, ans.Results)
	return bulk.Result{}
}

func countRows(t *testing.T, e *apptest.Env, m any, where string, args ...any) int {
	t.Helper()
	n, err := e.DB.NewSelect().Model(m).Where(where, args...).Count(e.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func TestBulkApplicationsRefusesBadInput(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	_, mc := e.Member("ann@x.io")
	u, _ := e.Member("bob@x.io")
	a := paidApplication(t, e, u, newBadge(t, e, "", 100))
	many := make([]string, bulk.Max+1)
	for i := range many {
		many[i] = model.NewID()
	}
	mc.Post(bulkPath, map[string]any{"ids": []string{a.ID}, "action": "approve"}).Expect(http.StatusForbidden)
	ac.Post(bulkPath, map[string]any{"ids": []string{}, "action": "approve"}).ExpectMsg(400, "Select at least one of the applications.")
	ac.Post(bulkPath, map[string]any{"ids": many, "action": "approve"}).ExpectMsg(400, bulk.TooMany(bulk.Max+1, "applications"))
	ac.Post(bulkPath, map[string]any{"ids": []string{a.ID}, "action": "delete"}).ExpectMsg(400, "action must be one of: approve, reject, extra_attempt.")
	ac.Post(bulkPath, map[string]any{"ids": []string{a.ID}, "action": "reject", "reason": "  "}).ExpectMsg(400, admin.MsgBulkReasonRequired)
	ac.Post(bulkPath, map[string]any{"ids": []string{a.ID}, "filter": map[string]any{"status": "review"}, "action": "approve"}).ExpectMsg(400, admin.MsgBulkIDsOrFilter)
	ac.Post(bulkPath, map[string]any{"filter": map[string]any{"status": "nope"}, "action": "approve"}).ExpectMsg(400, admin.MsgBadStatus)
	if got := reload(t, e, a); got.Status != model.StatusPending {
		t.Fatalf("a refused call changed the application: %s", got.Status)
	}
	if n := countRows(t, e, (*model.AuditEntry)(nil), "1 = 1"); n != 0 {
		t.Fatalf("refused calls wrote %d audit entries", n)
	}
}

// A preview runs the real rules and keeps nothing; the run does what the preview said, one
// audit entry per item with the batch id; a retry changes nothing.
func TestBulkApprovePreviewRunRetry(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	b := newBadge(t, e, "Go Expert", 4900)
	var paid []*model.Application
	for i := 0; i < 3; i++ {
		u, _ := e.Member(fmt.Sprintf("m%d@x.io", i))
		paid = append(paid, paidApplication(t, e, u, b))
	}
	uu, _ := e.Member("unpaid@x.io")
	unpaid := newApplication(t, e, uu, b, model.StatusAwaitingPayment)
	ids := []string{paid[0].ID, paid[1].ID, unpaid.ID, paid[2].ID, "nope", paid[0].ID}

	pre := bulkCall(t, ac, map[string]any{"ids": ids, "action": "approve", "preview": true})
	apptest.Expect(t, "preview", pre,
		apptest.True("pre.Preview", pre.Preview),
		apptest.Eq("pre.BatchID", pre.BatchID, ""),
		apptest.Eq("pre.Counts.Total", pre.Counts.Total, 5), // the repeated id once
		apptest.Eq("pre.Counts.OK", pre.Counts.OK, 3),
		apptest.Eq("pre.Counts.Skipped", pre.Counts.Skipped, 2),
		apptest.Eq("pre.Counts.Emailed", pre.Counts.Emailed, 3))
	r0 := resultOf(t, pre, paid[0].ID)
	apptest.Expect(t, "preview row", r0,
		apptest.True("r0.OK", r0.OK), apptest.Eq("r0.Msg", r0.Msg, "Will be approved."),
		apptest.Eq("r0.Label", r0.Label, "m0 Applicant — Go Expert"),
		apptest.True("emailed m0", len(r0.Emailed) == 1 && r0.Emailed[0] == "m0@x.io"))
	ru := resultOf(t, pre, unpaid.ID)
	apptest.Expect(t, "unpaid row", ru, apptest.True("!ru.OK", !ru.OK), apptest.Eq("ru.Msg", ru.Msg, admin.MsgPaymentRequired))
	rn := resultOf(t, pre, "nope")
	apptest.Expect(t, "bad id row", rn, apptest.True("!rn.OK", !rn.OK), apptest.Eq("rn.Msg", rn.Msg, admin.MsgApplicationMissing))
	for _, a := range paid {
		if got := reload(t, e, a); got.Status != model.StatusPending || len(grantsOf(t, e, a.ID)) != 0 {
			t.Fatalf("the preview changed %s: %s", a.ID, got.Status)
		}
	}
	for _, tbl := range []any{(*model.AuditEntry)(nil), (*model.OutboxMessage)(nil), (*model.BadgeGrant)(nil)} {
		if n := countRows(t, e, tbl, "1 = 1"); n != 0 {
			t.Fatalf("the preview wrote %d rows of %T", n, tbl)
		}
	}

	run := bulkCall(t, ac, map[string]any{"ids": ids, "action": "approve"})
	apptest.Expect(t, "run", run,
		apptest.True("!run.Preview", !run.Preview), apptest.True("run.BatchID", model.ValidID(run.BatchID)),
		apptest.Eq("run.Counts.OK", run.Counts.OK, 3), apptest.Eq("run.Counts.Skipped", run.Counts.Skipped, 2))
	if r := resultOf(t, run, paid[1].ID); !r.OK || r.Msg != admin.MsgApproved {
		t.Fatalf("run row %+v", r)
	}
	for _, a := range paid {
		got := reload(t, e, a)
		es := auditOf(t, e, a.ID)
		if got.Status != model.StatusApproved || len(grantsOf(t, e, a.ID)) != 1 || len(es) != 1 ||
			es[0].BatchID == nil || *es[0].BatchID != run.BatchID || es[0].Action != "application.approve" {
			t.Fatalf("after the run %s: status %s, %d grants, audit %+v", a.ID, got.Status, len(grantsOf(t, e, a.ID)), es)
		}
		if n := len(outboxTo(t, e, a.Email)); n != 1 {
			t.Fatalf("%s got %d mails", a.Email, n)
		}
	}
	if got := reload(t, e, unpaid); got.Status != model.StatusAwaitingPayment {
		t.Fatalf("the unpaid application became %s", got.Status)
	}
	if n := countRows(t, e, (*model.AuditEntry)(nil), "batch_id = ?", run.BatchID); n != 3 {
		t.Fatalf("%d audit entries carry the batch", n)
	}

	// a retry (the answer was lost): ok, unchanged, nothing written
	again := bulkCall(t, ac, map[string]any{"ids": ids, "action": "approve"})
	if r := resultOf(t, again, paid[2].ID); !r.OK || !r.Already || r.Msg != admin.MsgBulkAlreadyApprove || len(r.Emailed) != 0 {
		t.Fatalf("retry row %+v", r)
	}
	if again.Counts.Unchanged != 3 || again.Counts.Emailed != 0 {
		t.Fatalf("retry counts %+v", again.Counts)
	}
	if n := countRows(t, e, (*model.AuditEntry)(nil), "1 = 1"); n != 3 {
		t.Fatalf("the retry wrote audit entries: %d", n)
	}
	if n := countRows(t, e, (*model.OutboxMessage)(nil), "1 = 1"); n != 3 {
		t.Fatalf("the retry mailed: %d", n)
	}
}

// Each item is all-or-nothing: an item whose transaction fails half-way keeps nothing, the
// others are kept.
func TestBulkItemsAreAtomic(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	b := newBadge(t, e, "Rust", 100)
	var apps []*model.Application
	for i := 0; i < 3; i++ {
		u, _ := e.Member(fmt.Sprintf("r%d@x.io", i))
		apps = append(apps, paidApplication(t, e, u, b))
	}
	bad := apps[1].ID
	e.Deps.Events.InTx(func(ctx context.Context, tx bun.IDB, ev *events.Event) error {
		if ev.SubjectID == bad {
			return errors.New("injected failure after the status was written")
		}
		return nil
	}, events.ApplicationRejected)
	ans := bulkCall(t, ac, map[string]any{"ids": []string{apps[0].ID, bad, apps[2].ID}, "action": "reject", "reason": "Evidence is missing"})
	if r := resultOf(t, ans, bad); r.OK || r.Msg != bulk.MsgInternal {
		t.Fatalf("failed row %+v", r)
	}
	got := reload(t, e, apps[1])
	if got.Status != model.StatusPending || got.RejectionReason != "" || len(auditOf(t, e, bad)) != 0 || len(outboxTo(t, e, got.Email)) != 0 {
		t.Fatalf("the failed item kept a part: %+v", got)
	}
	for _, a := range []*model.Application{apps[0], apps[2]} {
		got := reload(t, e, a)
		if got.Status != model.StatusRejected || got.RejectionReason != "Evidence is missing" || len(auditOf(t, e, a.ID)) != 1 || len(outboxTo(t, e, a.Email)) != 1 {
			t.Fatalf("a good item was not kept: %+v", got)
		}
	}
}

// "All that match the filter": the server selects; above the limit it refuses.
func TestBulkByFilter(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	b := newBadge(t, e, "Kotlin", 100)
	other := newBadge(t, e, "Swift", 100)
	var ks []*model.Application
	for i := 0; i < 4; i++ {
		u, _ := e.Member(fmt.Sprintf("k%d@x.io", i))
		ks = append(ks, paidApplication(t, e, u, b))
		paidApplication(t, e, u, other)
	}
	ans := bulkCall(t, ac, map[string]any{"filter": map[string]any{"status": "review", "search": "kotlin"}, "action": "approve", "preview": true})
	if ans.Counts.Total != 4 || ans.Counts.OK != 4 {
		t.Fatalf("filter preview %+v", ans.Counts)
	}
	for _, a := range ks {
		resultOf(t, ans, a.ID)
	}
	ac.Post(bulkPath, map[string]any{"filter": map[string]any{"search": "no such thing"}, "action": "approve"}).ExpectMsg(400, "No application matches the filter.")
	if n := countRows(t, e, (*model.Application)(nil), "status = ?", model.StatusApproved); n != 0 {
		t.Fatalf("a preview approved %d", n)
	}
}

func TestBulkExtraAttemptNeedsAQuiz(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("q@x.io")
	a := paidApplication(t, e, u, newBadge(t, e, "No quiz", 100))
	ans := bulkCall(t, ac, map[string]any{"ids": []string{a.ID}, "action": "extra_attempt"})
	if r := resultOf(t, ans, a.ID); r.OK || r.Msg != admin.MsgBulkNoQuiz {
		t.Fatalf("row %+v", r)
	}
}

// The wiring gives the bulk action app/quizadmin's granter: with a quiz the row is
// decided by the quiz's rules (this member may start already), not refused as switched off.
func TestBulkExtraAttemptUsesTheQuizRules(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("q@x.io")
	b := newBadge(t, e, "With quiz", 100)
	if _, err := e.DB.NewUpdate().Model(b).Set("type = ?", model.TypeSkill).WherePK().Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	ac.Post("/admin/badges/"+b.ID+"/quiz", map[string]any{}).Expect(http.StatusCreated)
	a := paidApplication(t, e, u, b)
	ans := bulkCall(t, ac, map[string]any{"ids": []string{a.ID}, "action": "extra_attempt"})
	if r := resultOf(t, ans, a.ID); r.OK || r.Msg != quizadmin.MsgGrantNotNeeded {
		t.Fatalf("row %+v", r)
	}
}
