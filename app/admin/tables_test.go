package admin_test

import (
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
	"time"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/model"
)

// tableFixture: 12 applications of one member (names "Applicant 00".."Applicant 11",
// created a minute apart, price rising with the number), one of them named as a formula.
func tableFixture(t *testing.T, e *apptest.Env) []*model.Application {
	t.Helper()
	ann, _ := e.Member("ann@x.io")
	var out []*model.Application
	for i := 0; i < 12; i++ {
		b := newBadge(t, e, fmt.Sprintf("Table Badge %02d", i), int64(1000+i*100))
		a := newApplication(t, e, ann, b, model.StatusAwaitingPayment)
		name := fmt.Sprintf("Applicant %02d", i)
		if i == 5 {
			name = "=HYPERLINK(\"http://evil\")"
		}
		at := ago(time.Duration(12-i) * time.Minute)
		if _, err := e.DB.NewUpdate().Model(a).Set("full_name = ?", name).Set("created_at = ?", at).WherePK().Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
		a.FullName, a.CreatedAt = name, at
		out = append(out, a)
	}
	return out
}

func TestApplicationTablePagingSortingAndCSV(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	apps := tableFixture(t, e)

	// default: newest first, limit 20 (today's clients)
	var l admin.ApplicationList
	ac.Get("/admin/applications").Expect(200).JSON(&l)
	if l.Total != 12 || len(l.Applications) != 12 || l.Applications[0].ID != apps[11].ID || l.Limit != admin.DefaultLimit || l.Sort != "" {
		t.Fatalf("default page: total %d, %d rows, first %s, limit %d, sort %q", l.Total, len(l.Applications), l.Applications[0].ID, l.Limit, l.Sort)
	}
	// pageSize 10, page 2, sorted by price ascending: the 11th and 12th cheapest
	l = admin.ApplicationList{}
	ac.Get("/admin/applications?pageSize=10&page=2&sort=price").Expect(200).JSON(&l)
	if got, want := ids(l.Applications), apps[10].ID+","+apps[11].ID; got != want || l.Page != 2 || l.Limit != 10 || l.TotalPages != 2 || l.Sort != "price" {
		t.Fatalf("page 2 by price: %s (want %s), %+v", got, want, l.PageInfo)
	}
	// descending price: the dearest first
	l = admin.ApplicationList{}
	ac.Get("/admin/applications?pageSize=10&sort=-price").Expect(200).JSON(&l)
	if l.Applications[0].ID != apps[11].ID || l.Applications[9].ID != apps[2].ID {
		t.Fatalf("by -price: %s", ids(l.Applications))
	}
	// by name: "=HYPERLINK" sorts before the letters
	l = admin.ApplicationList{}
	ac.Get("/admin/applications?pageSize=25&sort=name").Expect(200).JSON(&l)
	if l.Applications[0].ID != apps[5].ID || l.Applications[1].ID != apps[0].ID || l.Applications[11].ID != apps[11].ID {
		t.Fatalf("by name: %s", ids(l.Applications))
	}
	// pages never overlap or skip: walk all pages of 10 by status (all equal: id breaks ties)
	seen := map[string]bool{}
	for p := 1; p <= 2; p++ {
		l = admin.ApplicationList{}
		ac.Get(fmt.Sprintf("/admin/applications?pageSize=10&page=%d&sort=-status", p)).Expect(200).JSON(&l)
		for _, a := range l.Applications {
			if seen[a.ID] {
				t.Fatalf("%s on two pages", a.ID)
			}
			seen[a.ID] = true
		}
	}
	if len(seen) != 12 {
		t.Fatalf("walked %d of 12", len(seen))
	}

	// whitelist and page sizes
	ac.Get("/admin/applications?sort=password_hash").ExpectMsg(400, admin.SortMsg(admin.ApplicationSorts))
	ac.Get("/admin/applications?sort=-created_at;DROP").ExpectMsg(400, admin.SortMsg(admin.ApplicationSorts))
	ac.Get("/admin/applications?pageSize=7").ExpectMsg(400, admin.MsgBadPageSize)
	ac.Get("/admin/applications?format=xml").ExpectMsg(400, admin.MsgBadFormat)

	// CSV: every row the filter shows (beyond one page), in order, formulas defused
	r := ac.Get("/admin/applications?format=csv&pageSize=10&sort=price&status=awaiting_payment").Expect(200)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") || !strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("csv headers: %q %q", ct, r.Header.Get("Content-Disposition"))
	}
	recs, err := csv.NewReader(strings.NewReader(r.Text())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 13 || strings.Join(recs[0], ",") != strings.Join(admin.ApplicationCSVHeader, ",") {
		t.Fatalf("csv: %d lines, header %v", len(recs), recs[0])
	}
	for i, rec := range recs[1:] {
		if rec[0] != apps[i].ID {
			t.Fatalf("csv row %d: %s, want %s", i+1, rec[0], apps[i].ID)
		}
	}
	// the applicant column is the account's name; the formula sits in full_name, so check the cell helper too
	for _, c := range []string{"=1+1", "+1", "-1", "@SUM(A1)", "\tx"} {
		if got := admin.SafeCell(c); got != "'"+c {
			t.Errorf("SafeCell(%q) = %q", c, got)
		}
	}
	if admin.SafeCell("Ann") != "Ann" {
		t.Error("plain cell changed")
	}
	// the filter holds: nothing approved, an empty CSV has its header only
	r = ac.Get("/admin/applications?format=csv&status=approved").Expect(200)
	if strings.Count(strings.TrimSpace(r.Text()), "\n") != 0 {
		t.Fatalf("approved csv: %q", r.Text())
	}
	// members and visitors get nothing
	_, mc := e.Member("mallory@x.io")
	mc.Get("/admin/applications?format=csv").Expect(403)
}

func TestApplicationCSVDefusesFormulas(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("evil@x.io")
	if _, err := e.DB.NewUpdate().Model(u).Set("name = ?", "=cmd|' /C calc'!A0").WherePK().Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	newApplication(t, e, u, newBadge(t, e, "@Badge", 100), model.StatusAwaitingPayment)
	recs, err := csv.NewReader(strings.NewReader(ac.Get("/admin/applications?format=csv").Expect(200).Text())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1][1] != "'=cmd|' /C calc'!A0" || recs[1][3] != "'@Badge" {
		t.Fatalf("csv: %q", recs)
	}
}

func TestGrantTable(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	ann, _ := e.Member("ann@x.io")
	bob, _ := e.Member("bob@x.io")
	b := newBadge(t, e, "Go Expert", 100)
	now := model.Now()
	past := now.Add(-time.Hour)
	var gs []*model.BadgeGrant
	for i := 0; i < 7; i++ {
		u := ann
		if i%2 == 1 {
			u = bob
		}
		g := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, VerificationID: fmt.Sprintf("MM-T%03d", i),
			PublicVerificationID: fmt.Sprintf("PV-T%03d", i), GrantedAt: now.Add(time.Duration(i-10) * time.Hour)}
		switch i {
		case 2:
			g.RevokedAt, g.RevocationReason = &now, "+fraud"
		case 4:
			g.ExpiresAt = &past
		}
		if _, err := e.DB.NewInsert().Model(g).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	var l admin.GrantList
	ac.Get("/admin/grants?pageSize=10").Expect(200).JSON(&l)
	if l.Total != 7 || l.Grants[0].ID != gs[6].ID || l.Grants[0].Holder == nil || l.Grants[0].Holder.Email != "ann@x.io" || l.Grants[0].Badge.Name != "Go Expert" {
		t.Fatalf("grants: %+v", l)
	}
	for status, want := range map[string]string{"revoked": gs[2].ID, "expired": gs[4].ID} {
		l = admin.GrantList{}
		ac.Get("/admin/grants?status=" + status).Expect(200).JSON(&l)
		if l.Total != 1 || l.Grants[0].ID != want || l.Grants[0].Status != status {
			t.Fatalf("%s: %+v", status, l)
		}
	}
	l = admin.GrantList{}
	ac.Get("/admin/grants?status=active&sort=verificationId&pageSize=10").Expect(200).JSON(&l)
	if l.Total != 5 || l.Grants[0].VerificationID != "MM-T000" || l.Grants[4].VerificationID != "MM-T006" {
		t.Fatalf("active: %+v", l)
	}
	l = admin.GrantList{}
	ac.Get("/admin/grants?search=MM-T003").Expect(200).JSON(&l)
	if l.Total != 1 || l.Grants[0].ID != gs[3].ID {
		t.Fatalf("search id: %+v", l)
	}
	l = admin.GrantList{}
	ac.Get("/admin/grants?search=bob@x").Expect(200).JSON(&l)
	if l.Total != 3 {
		t.Fatalf("search holder: %+v", l)
	}
	l = admin.GrantList{}
	ac.Get("/admin/grants?search=go%20exp").Expect(200).JSON(&l)
	if l.Total != 7 {
		t.Fatalf("search badge: %+v", l)
	}
	l = admin.GrantList{}
	ac.Get("/admin/grants?search=nothing%20like%20it").Expect(200).JSON(&l)
	if l.Total != 0 || l.Grants == nil {
		t.Fatalf("search none: %+v", l)
	}
	ac.Get("/admin/grants?status=lost").ExpectMsg(400, admin.MsgBadGrantStatus)
	ac.Get("/admin/grants?sort=credential_jwt").ExpectMsg(400, admin.SortMsg(admin.GrantSorts))
	recs, err := csv.NewReader(strings.NewReader(ac.Get("/admin/grants?format=csv&status=revoked").Expect(200).Text())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1][1] != "MM-T002" || recs[1][10] != "'+fraud" {
		t.Fatalf("grants csv: %q", recs)
	}
}

func TestUserTableSortAndCSV(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	e.Member("zed@x.io")
	e.Member("amy@x.io")
	var l admin.UserList
	ac.Get("/admin/users?sort=email&pageSize=10").Expect(200).JSON(&l)
	if len(l.Users) != 3 || l.Users[0].Email != "amy@x.io" || l.Users[2].Email != "zed@x.io" {
		t.Fatalf("users by email: %+v", l.Users)
	}
	ac.Get("/admin/users?sort=password").ExpectMsg(400, admin.SortMsg(admin.UserSorts))
	r := ac.Get("/admin/users?format=csv&sort=-email").Expect(200).Text()
	recs, err := csv.NewReader(strings.NewReader(r)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || recs[1][2] != "zed@x.io" || strings.Contains(strings.ToLower(r), "argon") || strings.Contains(r, "$2") {
		t.Fatalf("users csv: %q", recs)
	}
}

// The audit log as a table: pageSize, a whitelisted sort (the default newest first), the
// action filter kept, and a CSV of what the filter shows with readable targets and no
// snapshots.
func TestAuditTableSortAndCSV(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	for _, c := range [][2]string{{"AAA1", "Coupon AAA1"}, {"BBB2", "Coupon BBB2"}, {"CCC3", "=CMD()"}} {
		ac.Post("/coupons", map[string]any{"code": c[0], "name": c[1]}).Expect(201)
	}
	ann, _ := e.Member("ann@x.io")
	ac.Put("/admin/users/"+ann.ID, map[string]any{"position": "Engineer"}).Expect(200)

	var l struct {
		Entries []admin.AuditJSON `json:"entries"`
		admin.PageInfo
	}
	ac.Get("/admin/audit?pageSize=10").Expect(200).JSON(&l)
	if l.Total != 4 || len(l.Entries) != 4 || l.Entries[0].Action != "user.update" || l.Limit != 10 {
		t.Fatalf("newest first: total %d limit %d %+v", l.Total, l.Limit, l.Entries)
	}
	ac.Get("/admin/audit?sort=action").Expect(200).JSON(&l)
	if l.Entries[0].Action != "coupon.create" || l.Entries[3].Action != "user.update" || l.Sort != "action" {
		t.Fatalf("by action: %+v", l.Entries)
	}
	ac.Get("/admin/audit?sort=-targetType&pageSize=10&page=1").Expect(200).JSON(&l)
	if l.Entries[0].TargetType != "user" {
		t.Fatalf("by target type, descending: %+v", l.Entries)
	}
	ac.Get("/admin/audit?sort=before").ExpectMsg(400, admin.SortMsg(admin.AuditSorts))
	ac.Get("/admin/audit?pageSize=7").ExpectMsg(400, admin.MsgBadPageSize)
	ac.Get("/admin/audit?format=xml").ExpectMsg(400, admin.MsgBadFormat)

	r := ac.Get("/admin/audit?format=csv&action=coupon.create&sort=createdAt").Expect(200).Text()
	recs, err := csv.NewReader(strings.NewReader(r)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || strings.Join(recs[0], ",") != strings.Join(admin.AuditCSVHeader, ",") {
		t.Fatalf("audit csv: %q", recs)
	}
	if recs[1][4] != "coupon.create" || recs[1][6] != "Coupon AAA1" || recs[1][3] != "boss@x.io" || recs[3][6] != "'=CMD()" {
		t.Fatalf("audit csv rows: %q", recs)
	}
	if strings.Contains(r, `"before"`) || strings.Contains(r, "{") {
		t.Fatalf("the snapshots stay out of the csv: %s", r)
	}
}
