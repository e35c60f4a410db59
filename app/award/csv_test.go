package award_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/award"
	"meritmark/app/grant"
	"meritmark/app/model"
)

func upload(c *apptest.Client, badgeID, csv string, preview bool) *apptest.Resp {
	f := map[string]string{"badgeId": badgeID}
	if preview {
		f["preview"] = "1"
	}
	return c.Multipart("POST", "/admin/awards/csv", f, apptest.File{Field: "file", Name: "awards.csv", ContentType: "text/csv", Data: []byte(csv)})
}

func uploadAnswer(t *testing.T, c *apptest.Client, badgeID, csv string, preview bool) award.UploadAnswer {
	t.Helper()
	var ans award.UploadAnswer
	upload(c, badgeID, csv, preview).Expect(http.StatusOK).JSON(&ans)
	return ans
}

func TestParseCSVRows(t *testing.T) {
	today := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	rows, msg := award.ParseCSV([]byte("\xef\xbb\xbfName,E-mail,Evidence note,Expiry\n"+
		"Ann Lee,ANN@x.io,Gave the keynote,2027-01-31\n"+
		",bob@x.io,,\n"+
		"Cy,not-an-address,,\n"+
		"Di,di@x.io,,31/01/2027\n"+
		"\n"+
		"Ed,ed@x.io,,2026-11-26\n"+
		"Ann again,ann@x.io,,\n"+
		"Fay,fay@x.io,\""+strings.Repeat("n", 501)+"\",\n"), today)
	if msg != "" {
		t.Fatal(msg)
	}
	want := []struct {
		line   int
		status string
		msg    string
	}{
		{2, "ok", award.MsgWillSend}, {3, "invalid", award.MsgNameRequired}, {4, "invalid", award.MsgEmailInvalid},
		{5, "invalid", award.MsgExpiryFormat}, {7, "invalid", award.MsgExpiryPast}, {8, "duplicate", "Repeats line 2: this address is already in the file."},
		{9, "invalid", award.MsgNoteTooLong},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	for i, w := range want {
		r := rows[i]
		if r.Line != w.line || r.Status != w.status || r.Msg != w.msg || r.OK != (w.status == "ok") {
			t.Errorf("row %d = %+v, want %+v", i, r, w)
		}
	}
	if r := rows[0]; r.Email != "ann@x.io" || r.Name != "Ann Lee" || r.Note != "Gave the keynote" || r.ExpiresAt == nil || r.ExpiresAt.Format("2006-01-02") != "2027-01-31" {
		t.Errorf("first row %+v", r)
	}
	// no header: email, name, expiry, note
	rows, msg = award.ParseCSV([]byte("zed@x.io,Zed,,Thanks\n"), today)
	if msg != "" || len(rows) != 1 || !rows[0].OK || rows[0].Name != "Zed" || rows[0].Note != "Thanks" || rows[0].Line != 1 {
		t.Fatalf("headerless %q %+v", msg, rows)
	}
	for in, want := range map[string]string{
		"":                         award.MsgNoRows,
		"name,note\nAnn,x\n":       award.MsgNoEmailColumn,
		"email,name\n\"a@x.io,A\n": "The file is not valid CSV: line 2: extraneous or missing \" in quoted-field.",
		tooMany(award.MaxRows + 1): award.MsgTooManyRows,
	} {
		if _, msg := award.ParseCSV([]byte(in), today); msg != want {
			t.Errorf("%.40q: %q, want %q", in, msg, want)
		}
	}
	if rows, msg := award.ParseCSV([]byte(tooMany(award.MaxRows)), today); msg != "" || len(rows) != award.MaxRows {
		t.Fatalf("1,000 rows: %q %d", msg, len(rows))
	}
}

func tooMany(n int) string {
	var b strings.Builder
	b.WriteString("email,name,expiry,note\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "p%d@example.com,Person %d,,\n", i, i)
	}
	return b.String()
}

func TestCSVUploadPreviewSendRegisterWithdraw(t *testing.T) {
	f := newFx(t)
	// kim holds the badge already
	kim, _ := f.e.Member("kim@example.com")
	if err := f.e.Deps.Events.RunInTx(f.e.Ctx(), f.e.DB, func(ctx context.Context, tx bun.Tx) error {
		_, err := grant.IssueDirect(ctx, tx, grant.DirectInput{Issuer: f.e.Deps.Issuer, UserID: kim.ID, Badge: f.badge, Now: model.Now(), Origin: f.e.URL})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	exp := time.Now().UTC().AddDate(2, 0, 0).Format("2006-01-02")
	csv := "email,name,expiry,note\nlee@example.com,Lee Park," + exp + ",Speaker at the summit\nkim@example.com,Kim,,\nbad-address,X,,\nlee@example.com,Lee again,,\nmo@example.com,Mo,,\n"

	pre := uploadAnswer(t, f.admin, f.badge.ID, csv, true)
	if pre.Counts.Total != 5 || pre.Counts.Valid != 2 || pre.Counts.Invalid != 3 || pre.Counts.Sent != 0 || pre.BatchID != "" ||
		pre.Rows[1].Status != "holder" || pre.Rows[1].Msg != award.MsgAlreadyHolds || pre.Rows[2].Line != 4 || pre.Rows[3].Status != "duplicate" {
		t.Fatalf("preview %+v", pre)
	}
	if n, _ := f.e.DB.NewSelect().Model((*award.Award)(nil)).Count(f.e.Ctx()); n != 0 {
		t.Fatalf("the preview wrote %d awards", n)
	}
	if n, _ := f.e.DB.NewSelect().Model((*model.OutboxMessage)(nil)).Count(f.e.Ctx()); n != 0 {
		t.Fatalf("the preview mailed %d", n)
	}

	run := uploadAnswer(t, f.admin, f.badge.ID, csv, false)
	if run.Counts.Sent != 2 || run.BatchID == "" || run.Rows[0].Status != "sent" || run.Rows[0].AwardID == "" || run.Rows[1].Status != "holder" {
		t.Fatalf("run %+v", run)
	}
	var a award.Award
	if err := f.e.DB.NewSelect().Model(&a).Where("id = ?", run.Rows[0].AwardID).Scan(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	if a.Name != "Lee Park" || a.Note != "Speaker at the summit" || a.GrantExpiresAt == nil || a.GrantExpiresAt.Format("2006-01-02") != exp || a.BatchID == nil || *a.BatchID != run.BatchID {
		t.Fatalf("stored %+v", a)
	}
	if n, _ := f.e.DB.NewSelect().Model((*model.AuditEntry)(nil)).Where("batch_id = ? AND action = 'award.create'", run.BatchID).Count(f.e.Ctx()); n != 2 {
		t.Fatalf("%d audit entries carry the batch", n)
	}
	ms := outbox(t, f.e, "lee@example.com")
	if len(ms) != 1 || !strings.Contains(ms[0].BodyText, "Hello Lee Park,") {
		t.Fatalf("mail %+v", ms)
	}
	tok := claimRe.FindStringSubmatch(ms[0].BodyText)[1]

	// the register
	var reg struct {
		Awards     []award.RegisterRow `json:"awards"`
		Total      int                 `json:"total"`
		Pages      int                 `json:"pages"`
		TotalPages int                 `json:"totalPages"`
	}
	f.admin.Get("/admin/awards?state=sent").Expect(200).JSON(&reg)
	if reg.Total != 2 || reg.Awards[0].State != "sent" || reg.TotalPages != 1 || reg.Pages != 1 {
		t.Fatalf("register %+v", reg)
	}
	// each row carries its note and batch (the side panel shows them), never a token
	f.admin.Get("/admin/awards?search=LEE@example").Expect(200).JSON(&reg)
	if reg.Total != 1 || reg.Awards[0].Email != "lee@example.com" || reg.Awards[0].Note != "Speaker at the summit" ||
		reg.Awards[0].BatchID == nil || *reg.Awards[0].BatchID != run.BatchID || reg.Awards[0].GrantExpiresAt == nil {
		t.Fatalf("register searched %+v", reg)
	}
	f.admin.Get("/admin/awards?search=mo@&pageSize=10").Expect(200).JSON(&reg)
	if reg.Total != 1 || reg.Awards[0].Email != "mo@example.com" || reg.Awards[0].Note != "" {
		t.Fatalf("register searched for mo %+v", reg)
	}
	// the badge filter: this badge's awards, none of another's
	f.admin.Get("/admin/awards?badgeId=" + f.badge.ID).Expect(200).JSON(&reg)
	if reg.Total != 2 || reg.Awards[0].BadgeID != f.badge.ID {
		t.Fatalf("register of the badge %+v", reg)
	}
	f.admin.Get("/admin/awards?badgeId=" + model.NewID()).Expect(200).JSON(&reg)
	if reg.Total != 0 || len(reg.Awards) != 0 || reg.TotalPages != 0 {
		t.Fatalf("register of another badge %+v", reg)
	}
	f.admin.Get("/admin/awards?state=bogus").ExpectMsg(400, "state must be sent, claimed, expired, withdrawn or all.")
	// the register as a table: sorted, a page size, CSV of what the filter shows
	f.admin.Get("/admin/awards?state=sent&sort=email&pageSize=10").Expect(200).JSON(&reg)
	if reg.Total != 2 || reg.Awards[0].Email != "lee@example.com" || reg.Awards[1].Email != "mo@example.com" {
		t.Fatalf("register by email %+v", reg)
	}
	f.admin.Get("/admin/awards?state=sent&sort=-email").Expect(200).JSON(&reg)
	if reg.Awards[0].Email != "mo@example.com" {
		t.Fatalf("register by email, descending %+v", reg)
	}
	f.admin.Get("/admin/awards?sort=token").ExpectMsg(400, admin.SortMsg(award.RegisterSorts))
	f.admin.Get("/admin/awards?pageSize=3").ExpectMsg(400, admin.MsgBadPageSize)
	f.admin.Get("/admin/awards?format=pdf").ExpectMsg(400, admin.MsgBadFormat)
	regCSV := f.admin.Get("/admin/awards?state=sent&sort=-email&format=csv").Expect(200).Text()
	if lines := strings.Split(strings.TrimSpace(regCSV), "\n"); len(lines) != 3 || lines[0] != strings.Join(award.RegisterCSVHeader, ",") ||
		!strings.Contains(lines[1], "mo@example.com") || !strings.Contains(lines[2], "lee@example.com") ||
		!strings.HasSuffix(lines[2], ","+run.BatchID+",Speaker at the summit") || !strings.HasSuffix(lines[1], ","+run.BatchID+",") ||
		strings.Contains(regCSV, "token") {
		t.Fatalf("register csv:\n%s", regCSV)
	}

	// resend: a new link, the old one stops working
	f.admin.Post("/admin/awards/"+a.ID+"/resend", nil).ExpectMsg(200, award.MsgResent)
	ms = outbox(t, f.e, "lee@example.com")
	tok2 := claimRe.FindStringSubmatch(ms[len(ms)-1].BodyText)[1]
	lee, lc := f.e.Member("lee@example.com")
	lc.Post("/awards/claim", map[string]any{"token": tok}).ExpectMsg(http.StatusNotFound, award.MsgLinkInvalid)

	// withdraw: the link refuses at once
	f.admin.Post("/admin/awards/"+a.ID+"/withdraw", nil).ExpectMsg(200, award.MsgWithdrawnOK)
	lc.Post("/awards/claim", map[string]any{"token": tok2}).ExpectMsg(http.StatusGone, award.MsgWithdrawn)
	if _, s := pageState(t, lc, tok2); s != "withdrawn" {
		t.Fatalf("page state %q", s)
	}
	if len(f.grants(t, lee.ID)) != 0 {
		t.Fatal("a withdrawn award was claimed")
	}
	f.admin.Post("/admin/awards/"+a.ID+"/withdraw", nil).ExpectMsg(409, award.MsgAlreadyWithdrawn)
	f.admin.Post("/admin/awards/"+a.ID+"/resend", nil).ExpectMsg(409, award.MsgAlreadyWithdrawn)
	f.admin.Get("/admin/awards?state=withdrawn").Expect(200).JSON(&reg)
	if reg.Total != 1 || reg.Awards[0].ID != a.ID || reg.Awards[0].State != "withdrawn" {
		t.Fatalf("withdrawn register %+v", reg)
	}

	// mo claims: the credential carries the badge's own validity (no expiry in the file)
	mo, mc := f.e.Member("mo@example.com")
	mtok := claimRe.FindStringSubmatch(outbox(t, f.e, "mo@example.com")[0].BodyText)[1]
	mc.Post("/awards/claim", map[string]any{"token": mtok}).ExpectMsg(200, award.MsgClaimed)
	if gs := f.grants(t, mo.ID); len(gs) != 1 {
		t.Fatalf("mo grants %d", len(gs))
	}
	f.admin.Get("/admin/awards?state=claimed").Expect(200).JSON(&reg)
	if reg.Total != 1 {
		t.Fatalf("claimed register %+v", reg)
	}
}

// A credential expiry from the file is the grant's expiry when claimed.
func TestCSVExpiryReachesTheGrant(t *testing.T) {
	f := newFx(t)
	exp := time.Now().UTC().AddDate(0, 3, 0).Format("2006-01-02")
	run := uploadAnswer(t, f.admin, f.badge.ID, "email,name,expiry\nnia@example.com,Nia,"+exp+"\n", false)
	if run.Counts.Sent != 1 {
		t.Fatalf("run %+v", run)
	}
	nia, nc := f.e.Member("nia@example.com")
	tok := claimRe.FindStringSubmatch(outbox(t, f.e, "nia@example.com")[0].BodyText)[1]
	nc.Post("/awards/claim", map[string]any{"token": tok}).ExpectMsg(200, award.MsgClaimed)
	gs := f.grants(t, nia.ID)
	if len(gs) != 1 || gs[0].ExpiresAt == nil || gs[0].ExpiresAt.UTC().Format("2006-01-02") != exp {
		t.Fatalf("grant %+v", gs)
	}
}

func TestCSVUploadRefusals(t *testing.T) {
	f := newFx(t)
	ok := "email,name\na@example.com,A\n"
	upload(f.admin, "", ok, true).ExpectMsg(400, award.MsgBadgeRequired)
	upload(f.admin, model.NewID(), ok, true).ExpectMsg(404, award.MsgBadgeNotFound)
	f.admin.Multipart("POST", "/admin/awards/csv", map[string]string{"badgeId": f.badge.ID}).ExpectMsg(400, award.MsgFileRequired)
	upload(f.admin, f.badge.ID, tooMany(award.MaxRows+1), true).ExpectMsg(400, award.MsgTooManyRows)
	upload(f.admin, f.badge.ID, strings.Repeat("x", award.MaxCSVBytes+1), true).Expect(http.StatusRequestEntityTooLarge)
	_, member := f.e.Member("m@example.com")
	upload(member, f.badge.ID, ok, true).Expect(http.StatusForbidden)
	// drafts: inactive, or a skill badge without a usable quiz
	now := model.Now()
	skill := &model.Badge{ID: model.NewID(), Name: "Skill", Description: "d", Category: "Development", Type: model.TypeSkill,
		Level: "beginner", Icon: "Code", Color: "blue", Criteria: "c", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := f.e.DB.NewInsert().Model(skill).Exec(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	upload(f.admin, skill.ID, ok, false).ExpectMsg(422, award.MsgBadgeNoQuiz)
	if _, err := f.e.DB.NewUpdate().Model(f.badge).Set("is_active = ?", false).WherePK().Exec(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	upload(f.admin, f.badge.ID, ok, false).ExpectMsg(422, award.MsgBadgeInactive)
	f.admin.Post("/admin/awards", map[string]any{"badgeId": f.badge.ID, "email": "a@example.com"}).ExpectMsg(422, award.MsgBadgeInactive)
	if n, _ := f.e.DB.NewSelect().Model((*award.Award)(nil)).Count(f.e.Ctx()); n != 0 {
		t.Fatalf("refused uploads wrote %d awards", n)
	}
}

// 1,000 rows: the preview checks them all, the send awards them all, one audit entry each.
func TestCSVThousandRows(t *testing.T) {
	f := newFx(t)
	csv := tooMany(award.MaxRows)
	start := time.Now()
	pre := uploadAnswer(t, f.admin, f.badge.ID, csv, true)
	t.Logf("preview of 1,000 rows: %v", time.Since(start))
	if pre.Counts.Valid != award.MaxRows {
		t.Fatalf("preview %+v", pre.Counts)
	}
	start = time.Now()
	run := uploadAnswer(t, f.admin, f.badge.ID, csv, false)
	t.Logf("send of 1,000 rows: %v", time.Since(start))
	if run.Counts.Sent != award.MaxRows {
		t.Fatalf("run %+v", run.Counts)
	}
	if n, _ := f.e.DB.NewSelect().Model((*model.AuditEntry)(nil)).Where("batch_id = ?", run.BatchID).Count(f.e.Ctx()); n != award.MaxRows {
		t.Fatalf("%d audit entries", n)
	}
}

func BenchmarkCSVPreview1000(b *testing.B) {
	e := apptest.New(b)
	_, adm := e.Admin("admin@meritmark.test")
	now := model.Now()
	bd := &model.Badge{ID: model.NewID(), Name: "Bench", Description: "d", Category: "Development", Type: model.TypeProof,
		Level: "beginner", Icon: "Code", Color: "blue", Criteria: "c", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(bd).Exec(e.Ctx()); err != nil {
		b.Fatal(err)
	}
	csv := tooMany(award.MaxRows)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		upload(adm, bd.ID, csv, true).Expect(200)
	}
}

func outbox(t *testing.T, e *apptest.Env, to string) []model.OutboxMessage {
	t.Helper()
	var ms []model.OutboxMessage
	if err := e.DB.NewSelect().Model(&ms).Where("to_addr = ?", to).OrderExpr("created_at, id").Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return ms
}
