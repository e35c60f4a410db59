package admin_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
)

// An administrator's change of a member's e-mail waits for the new address's owner: the
// link goes to the new address, a notice to the old one; the address changes only when the
// link is followed (once), and both steps are audited.
func TestAdminEmailChangeWaitsForConfirmation(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("ann@x.io")

	r := ac.Put("/admin/users/"+u.ID, map[string]string{"email": "  Ann.New@X.io "}).ExpectMsg(200, admin.MsgUserUpdated)
	var got struct {
		User admin.UserJSON `json:"user"`
	}
	r.JSON(&got)
	if got.User.Email != "ann@x.io" || got.User.PendingEmail != "ann.new@x.io" {
		t.Fatalf("answer: %s", r.Text())
	}
	var row model.User
	if err := e.DB.NewSelect().Model(&row).Where("id = ?", u.ID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	if row.Email != "ann@x.io" || row.PendingEmail != "ann.new@x.io" || row.EmailChangeHash == "" {
		t.Fatalf("stored: %+v", row)
	}
	if strings.Contains(r.Text(), row.EmailChangeHash) {
		t.Fatal("the token's hash reached a response")
	}
	link := outboxTo(t, e, "ann.new@x.io")
	notice := outboxTo(t, e, "ann@x.io")
	if len(link) != 1 || len(notice) != 1 {
		t.Fatalf("mails: %d to the new address, %d to the old", len(link), len(notice))
	}
	if !strings.Contains(notice[0].BodyText, "ann.new@x.io") || strings.Contains(notice[0].BodyText, "token=") {
		t.Fatalf("notice: %s", notice[0].BodyText)
	}
	m := regexp.MustCompile(`/verify-email\?token=([^\s"<>]+)`).FindStringSubmatch(link[0].BodyText)
	if m == nil {
		t.Fatalf("no link in: %s", link[0].BodyText)
	}
	tok, _ := url.QueryUnescape(m[1])

	// nobody can sign in with the new address before it is confirmed
	n, _ := e.DB.NewSelect().Model((*model.User)(nil)).Where("email = ?", "ann.new@x.io").Count(e.Ctx())
	if n != 0 {
		t.Fatal("the address changed before the confirmation")
	}
	pc := e.Client()
	pc.Post("/auth/verify-email", map[string]string{"token": tok}).ExpectMsg(200, auth.MsgVerified)
	if err := e.DB.NewSelect().Model(&row).Where("id = ?", u.ID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	if row.Email != "ann.new@x.io" || row.PendingEmail != "" || row.EmailChangeHash != "" || row.EmailVerifiedAt == nil {
		t.Fatalf("after the link: %+v", row)
	}
	pc.Post("/auth/verify-email", map[string]string{"token": tok}).ExpectMsg(400, auth.MsgVerifyInvalid)
	acts := []string{}
	for _, a := range auditOf(t, e, u.ID) {
		acts = append(acts, a.Action)
	}
	if strings.Join(acts, ",") != "user.email_change_requested,user.email_change_confirmed" {
		t.Fatalf("audit: %v", acts)
	}

	// a taken address is refused at once; a change to an address taken meanwhile fails at the link
	e.Member("bob@x.io")
	ac.Put("/admin/users/"+u.ID, map[string]string{"email": "bob@x.io"}).ExpectMsg(409, admin.MsgEmailTaken)
	ac.Put("/admin/users/"+u.ID, map[string]string{"email": "carol@x.io"}).ExpectMsg(200, admin.MsgUserUpdated)
	m = regexp.MustCompile(`/verify-email\?token=([^\s"<>]+)`).FindStringSubmatch(outboxTo(t, e, "carol@x.io")[0].BodyText)
	tok, _ = url.QueryUnescape(m[1])
	e.Member("carol@x.io")
	pc.Post("/auth/verify-email", map[string]string{"token": tok}).ExpectMsg(409, auth.MsgEmailChangeTaken)
}
