package admin_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/model"
)

func ids(apps []admin.ApplicationJSON) string {
	var s []string
	for _, a := range apps {
		s = append(s, a.ID)
	}
	return strings.Join(s, ",")
}

func TestApplicationListFiltersSearchAndShape(t *testing.T) {
	e := apptest.New(t)
	boss, ac := e.Admin("boss@x.io")
	ann, _ := e.Member("ann@x.io")
	bob, _ := e.Member("bob@x.io")
	react := newBadge(t, e, "React Developer", 4900)
	docker := newBadge(t, e, "Docker_Pro", 2900)

	unpaid := newApplication(t, e, ann, react, model.StatusAwaitingPayment)
	paid := paidApplication(t, e, bob, react)
	score := 87.54
	if _, err := e.DB.NewUpdate().Model(paid).Set("quiz_score = ?", score).WherePK().Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	f := &model.ApplicationFile{ID: model.NewID(), ApplicationID: paid.ID, Kind: "proof", StorageKey: "applications/" + paid.ID + "/x.pdf",
		OriginalName: "certificate.pdf", ContentType: "application/pdf", Size: 12345, CreatedAt: model.Now()}
	if _, err := e.DB.NewInsert().Model(f).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	approved := paidApplication(t, e, ann, docker)
	ac.Put("/admin/applications/"+approved.ID+"/approve", nil).Expect(200)
	rejected := paidApplication(t, e, bob, docker)
	ac.Put("/admin/applications/"+rejected.ID+"/reject", map[string]string{"reason": "Not enough"}).Expect(200)

	var l admin.ApplicationList
	ac.Get("/admin/applications?status=review").Expect(200).JSON(&l)
	if l.Total != 2 || len(l.Applications) != 2 {
		t.Fatalf("review: %s", ids(l.Applications))
	}
	want := map[string]int64{"review": 2, "pending": 1, "awaiting_payment": 1, "approved": 1, "rejected": 1, "all": 4}
	for k, v := range want {
		if l.Counts[k] != v {
			t.Errorf("counts[%s] = %d, want %d (%v)", k, l.Counts[k], v, l.Counts)
		}
	}
	var p admin.ApplicationJSON
	for _, a := range l.Applications {
		if a.ID == paid.ID {
			p = a
		}
	}
	apptest.Expect(t, "paid application shape", p,
		apptest.True("p.User != nil", p.User != nil))
	apptest.Expect(t, "paid application shape", p,
		apptest.Eq("p.User.Email", p.User.Email, bob.Email),
		apptest.True("p.Badge != nil", p.Badge != nil))
	apptest.Expect(t, "paid application shape", p,
		apptest.Eq("p.Badge.Name", p.Badge.Name, "React Developer"),
		apptest.Eq("p.Badge.Price", p.Badge.Price, 49),
		apptest.Eq("p.Badge.Type", p.Badge.Type, model.TypeProof),
		apptest.Eq("p.Status", p.Status, model.StatusPending),
		apptest.Eq("p.PaymentStatus", p.PaymentStatus, model.PaymentCompleted),
		apptest.True("p.PaymentID != nil", p.PaymentID != nil))
	apptest.Expect(t, "paid application shape", p,
		apptest.Eq("p.PaymentID.Amount", p.PaymentID.Amount, 49),
		apptest.Eq("p.PaymentID.TransactionID", p.PaymentID.TransactionID, "TX-"+paid.ID),
		apptest.True("p.PaymentCompletedAt != nil", p.PaymentCompletedAt != nil),
		apptest.True("p.QuizScore != nil", p.QuizScore != nil))
	apptest.Expect(t, "paid application shape", p,
		apptest.Eq("*p.QuizScore", *p.QuizScore, score),
		apptest.Eq("p.Price", p.Price, 49),
		apptest.True("p.LinkedinURL != \"\"", p.LinkedinURL != ""),
		apptest.True("p.PortfolioURL != \"\"", p.PortfolioURL != ""),
		apptest.True("p.Description != \"\"", p.Description != ""))
	apptest.Expect(t, "files", p.ProofFiles,
		apptest.Eq("len(p.ProofFiles)", len(p.ProofFiles), 1))
	apptest.Expect(t, "files", p.ProofFiles,
		apptest.Eq("p.ProofFiles[0].OriginalName", p.ProofFiles[0].OriginalName, "certificate.pdf"),
		apptest.Eq("p.ProofFiles[0].Kind", p.ProofFiles[0].Kind, "proof"),
		apptest.Eq("p.ProofFiles[0].Size", p.ProofFiles[0].Size, 12345),
		apptest.Eq("p.ProofFiles[0].DownloadURL", p.ProofFiles[0].DownloadURL, "/backend/api/v1/applications/"+paid.ID+"/files/"+f.ID))

	ac.Get("/admin/applications?status=approved").Expect(200).JSON(&l)
	apptest.Expect(t, "approved", l.Applications,
		apptest.Eq("ids(l.Applications)", ids(l.Applications), approved.ID),
		apptest.True("l.Applications[0].Grant != nil", l.Applications[0].Grant != nil),
		apptest.True("l.Applications[0].ReviewedBy != nil", l.Applications[0].ReviewedBy != nil))
	apptest.Expect(t, "approved", l.Applications,
		apptest.Eq("l.Applications[0].ReviewedBy.ID", l.Applications[0].ReviewedBy.ID, boss.ID),
		apptest.True("l.Applications[0].ReviewedAt != nil", l.Applications[0].ReviewedAt != nil))
	ac.Get("/admin/applications?status=rejected").Expect(200).JSON(&l)
	apptest.Expect(t, "rejected", l.Applications,
		apptest.Eq("ids(l.Applications)", ids(l.Applications), rejected.ID),
		apptest.Eq("l.Applications[0].RejectionReason", l.Applications[0].RejectionReason, "Not enough"))
	ac.Get("/admin/applications?status=awaiting_payment").Expect(200).JSON(&l)
	apptest.Expect(t, "awaiting", l.Applications,
		apptest.Eq("ids(l.Applications)", ids(l.Applications), unpaid.ID),
		apptest.True("l.Applications[0].PaymentID == nil", l.Applications[0].PaymentID == nil))
	ac.Get("/admin/applications").Expect(200).JSON(&l)
	if l.Total != 4 {
		t.Fatalf("all: %d", l.Total)
	}

	// search: applicant, badge (LIKE wildcards literal), transaction id, application id; counts follow the search
	for q, want := range map[string]int64{"ann@": 2, "REACT": 2, "docker_": 2, "dockerXpro": 0, "tx-" + paid.ID[:10]: 1, paid.ID: 1} {
		ac.Get("/admin/applications?search=" + urlq(q)).Expect(200).JSON(&l)
		if l.Total != want || l.Counts["all"] != want {
			t.Errorf("search %q: total %d counts %v, want %d", q, l.Total, l.Counts, want)
		}
	}

	// pages
	var p1, p2 admin.ApplicationList
	ac.Get("/admin/applications?limit=3&page=1").Expect(200).JSON(&p1)
	ac.Get("/admin/applications?limit=3&page=2").Expect(200).JSON(&p2)
	if len(p1.Applications) != 3 || len(p2.Applications) != 1 || p1.TotalPages != 2 || strings.Contains(ids(p1.Applications), p2.Applications[0].ID) {
		t.Fatalf("pages: %s | %s", ids(p1.Applications), ids(p2.Applications))
	}
	ac.Get("/admin/applications?status=done").ExpectMsg(400, admin.MsgBadStatus)
	ac.Get("/admin/applications?page=-1").ExpectMsg(400, admin.MsgBadPage)

	// one application with its history
	var d admin.ApplicationDetail
	ac.Get("/admin/applications/" + rejected.ID).Expect(200).JSON(&d)
	apptest.Expect(t, "detail", d,
		apptest.Eq("d.Application.ID", d.Application.ID, rejected.ID),
		apptest.Eq("len(d.History)", len(d.History), 1))
	apptest.Expect(t, "detail", d,
		apptest.Eq("d.History[0].Action", d.History[0].Action, "application.reject"),
		apptest.Eq("d.History[0].Actor.Email", d.History[0].Actor.Email, boss.Email))
}

func TestPaymentsList(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	ann, _ := e.Member("ann@x.io")
	b := newBadge(t, e, "Figma Master", 3000)
	for i := 0; i < 5; i++ {
		paidApplication(t, e, ann, b)
		// keep one open application per user and badge: close it
		if _, err := e.DB.NewUpdate().Model((*model.Application)(nil)).Set("status = ?", model.StatusRejected).Where("user_id = ? AND status = ?", ann.ID, model.StatusPending).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	var l admin.PaymentList
	ac.Get("/admin/payments?limit=2").Expect(200).JSON(&l)
	apptest.Expect(t, "payments page", l.PageInfo,
		apptest.Eq("l.Total", l.Total, 5),
		apptest.Eq("len(l.Payments)", len(l.Payments), 2),
		apptest.Eq("l.TotalPages", l.TotalPages, 3))
	p := l.Payments[0]
	apptest.Expect(t, "payment", p,
		apptest.True("p.User != nil", p.User != nil),
		apptest.Eq("p.User.Email", p.User.Email, ann.Email),
		apptest.True("p.Badge != nil", p.Badge != nil),
		apptest.Eq("p.Badge.Name", p.Badge.Name, "Figma Master"),
		apptest.Eq("p.Amount", p.Amount, 30),
		apptest.Eq("p.Status", p.Status, "completed"),
		apptest.True("p.ApplicationID != \"\"", p.ApplicationID != ""))
	ac.Get("/admin/payments?search=figma").Expect(200).JSON(&l)
	if l.Total != 5 {
		t.Fatalf("search by badge: %d", l.Total)
	}
	ac.Get("/admin/payments?search=" + p.TransactionID).Expect(200).JSON(&l)
	apptest.Expect(t, "search by transaction", l.Payments,
		apptest.Eq("l.Total", l.Total, 1),
		apptest.Eq("l.Payments[0].ID", l.Payments[0].ID, p.ID))
	ac.Get("/admin/payments?status=failed").Expect(200).JSON(&l)
	apptest.Expect(t, "failed filter", l,
		apptest.Eq("l.Total", l.Total, 0),
		apptest.True("l.Payments != nil", l.Payments != nil))
	ac.Get("/admin/payments?status=refunded").Expect(400)
}

func TestSummary(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	ann, _ := e.Member("ann@x.io")
	bob, _ := e.Member("bob@x.io")
	b1 := newBadge(t, e, "", 4900)
	b2 := newBadge(t, e, "", 1999)
	if _, err := e.DB.NewUpdate().Model(b2).Set("is_active = ?", false).WherePK().Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	a1 := paidApplication(t, e, ann, b1) // $49.00 today
	a2 := paidApplication(t, e, bob, b2) // $19.99 today
	newApplication(t, e, ann, b2, model.StatusAwaitingPayment)
	// an older application and payment, 3 days ago, and one outside the window
	old := newApplication(t, e, bob, b1, model.StatusRejected)
	op := pay(t, e, old, 1000, "TX-OLD")
	three := ago(72 * time.Hour)
	e.DB.NewUpdate().Model(old).Set("created_at = ?", three).WherePK().Exec(e.Ctx())
	e.DB.NewUpdate().Model(op).Set("completed_at = ?", three).WherePK().Exec(e.Ctx())
	ancient := newApplication(t, e, ann, b1, model.StatusRejected)
	e.DB.NewUpdate().Model(ancient).Set("created_at = ?", ago(45*24*time.Hour)).WherePK().Exec(e.Ctx())
	// a failed payment never counts
	failed := &model.Payment{ID: model.NewID(), UserID: ann.ID, ApplicationID: a1.ID, BadgeID: b1.ID, Provider: "paypal",
		TransactionID: "TX-FAIL", Status: model.PaymentFailed, AmountCents: 50000, Currency: "USD", CreatedAt: model.Now()}
	e.DB.NewInsert().Model(failed).Exec(e.Ctx())
	ac.Put("/admin/applications/"+a1.ID+"/approve", nil).Expect(200)
	ac.Put("/admin/applications/"+a2.ID+"/reject", nil).Expect(200)

	var s admin.Summary
	ac.Get("/admin/summary").Expect(200).JSON(&s)
	apptest.Expect(t, "summary", s,
		apptest.Eq("s.TotalApplications", s.TotalApplications, 5),
		apptest.Eq("s.PendingApplications", s.PendingApplications, 1),
		apptest.Eq("s.AwaitingPayment", s.AwaitingPayment, 1),
		apptest.Eq("s.PaidPending", s.PaidPending, 0),
		apptest.Eq("s.ApprovedApplications", s.ApprovedApplications, 1),
		apptest.Eq("s.RejectedApplications", s.RejectedApplications, 3),
		apptest.Eq("s.TotalUsers", s.TotalUsers, 3),
		apptest.Eq("s.TotalAdmins", s.TotalAdmins, 1),
		apptest.Eq("s.TotalBadges", s.TotalBadges, 2),
		apptest.Eq("s.ActiveBadges", s.ActiveBadges, 1),
		apptest.Eq("s.BadgesGranted", s.BadgesGranted, 1),
		apptest.Eq("s.CompletedPayments", s.CompletedPayments, 3),
		apptest.Eq("s.Revenue", s.Revenue, 78.99))
	if len(s.Days) != admin.SummaryDays {
		t.Fatalf("%d days", len(s.Days))
	}
	today := model.Now().Format("2006-01-02")
	last := s.Days[len(s.Days)-1]
	apptest.Expect(t, "today", last,
		apptest.Eq("last.Date", last.Date, today),
		apptest.Eq("last.Applications", last.Applications, 3),
		apptest.Eq("last.Revenue", last.Revenue, 68.99))
	d3 := s.Days[len(s.Days)-4]
	apptest.Expect(t, "three days ago", d3,
		apptest.Eq("d3.Date", d3.Date, three.Format("2006-01-02")),
		apptest.Eq("d3.Applications", d3.Applications, 1),
		apptest.Eq("d3.Revenue", d3.Revenue, 10))
	var apps int64
	var rev float64
	for _, d := range s.Days {
		apps += d.Applications
		rev += d.Revenue
	}
	if apps != 4 || rev < 78.98 || rev > 79 {
		t.Fatalf("window totals: %d apps, $%.2f", apps, rev)
	}
}

func TestAuditLogList(t *testing.T) {
	e := apptest.New(t)
	boss, ac := e.Admin("boss@x.io")
	ann, _ := e.Member("ann@x.io")
	a := paidApplication(t, e, ann, newBadge(t, e, "Audit Badge", 100))
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).Expect(200)
	ac.Put("/admin/applications/"+a.ID+"/reject", map[string]string{"reason": "Oops"}).Expect(200)
	ac.Put("/admin/users/"+ann.ID, map[string]string{"position": "CTO"}).Expect(200)
	ac.Put("/admin/users/"+ann.ID, map[string]string{"role": "admin"}).Expect(200)

	var l admin.AuditList
	ac.Get("/admin/audit").Expect(200).JSON(&l)
	apptest.Expect(t, "audit", l.PageInfo,
		apptest.Eq("l.Total", l.Total, 4),
		apptest.Eq("len(l.Entries)", len(l.Entries), 4))
	newest := l.Entries[0]
	apptest.Expect(t, "newest entry", newest,
		apptest.Eq("newest.Action", newest.Action, "user.role_change"),
		apptest.True("newest.Actor != nil", newest.Actor != nil),
		apptest.Eq("newest.Actor.ID", newest.Actor.ID, boss.ID),
		apptest.Eq("newest.TargetID", newest.TargetID, ann.ID),
		apptest.Eq("newest.TargetLabel", newest.TargetLabel, ann.Name+" <"+ann.Email+">"),
		apptest.Eq("string(newest.Before)", string(newest.Before), `{"role":"user"}`),
		apptest.Eq("string(newest.After)", string(newest.After), `{"role":"admin"}`))
	oldest := l.Entries[3]
	apptest.Expect(t, "oldest entry", oldest,
		apptest.Eq("oldest.Action", oldest.Action, "application.approve"),
		apptest.Eq("oldest.TargetLabel", oldest.TargetLabel, "Audit Badge for ann@x.io"),
		apptest.True("!oldest.CreatedAt.IsZero()", !oldest.CreatedAt.IsZero()))
	ac.Get("/admin/audit?action=application.reject").Expect(200).JSON(&l)
	apptest.Expect(t, "action filter", l.Entries,
		apptest.Eq("l.Total", l.Total, 1),
		apptest.Eq("l.Entries[0].Action", l.Entries[0].Action, "application.reject"))
	// a whole area: every application action, every user action; "_" and "%" are literal
	ac.Get("/admin/audit?action=application.*").Expect(200).JSON(&l)
	apptest.Expect(t, "area filter", l.Entries,
		apptest.Eq("l.Total", l.Total, 2),
		apptest.Eq("l.Entries[0].Action", l.Entries[0].Action, "application.reject"),
		apptest.Eq("l.Entries[1].Action", l.Entries[1].Action, "application.approve"))
	ac.Get("/admin/audit?action=user.*").Expect(200).JSON(&l)
	if l.Total != 2 {
		t.Fatalf("user area filter: %d", l.Total)
	}
	for _, f := range []string{"coupon.*", "_ser.*", "%.*"} {
		ac.Get("/admin/audit?action=" + url.QueryEscape(f)).Expect(200).JSON(&l)
		if l.Total != 0 {
			t.Fatalf("filter %s: %d", f, l.Total)
		}
	}
	ac.Get("/admin/audit?targetId=" + a.ID).Expect(200).JSON(&l)
	if l.Total != 2 {
		t.Fatalf("target filter: %d", l.Total)
	}
	// the user's two rows and the two rows of her application (labelled "Audit Badge for
	// ann@x.io"): the search finds what the rows show
	ac.Get("/admin/audit?search=ann%40x").Expect(200).JSON(&l)
	if l.Total != 4 {
		t.Fatalf("search by target user: %d", l.Total)
	}
	ac.Get("/admin/audit?limit=3&page=2").Expect(200).JSON(&l)
	apptest.Expect(t, "page 2", l,
		apptest.Eq("len(l.Entries)", len(l.Entries), 1),
		apptest.Eq("l.Page", l.Page, 2))
	ac.Get("/admin/audit?targetId=bad").Expect(400)
}
