package auth_test

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/credential"
	"meritmark/app/mail/mailtest"
	"meritmark/app/model"
)

var verifyRe = regexp.MustCompile(`https?://[^\s"<>]+/verify-email\?token=[^\s"<>]+`)

// verifyToken reads the confirmation token from the newest confirmation mail to addr.
func verifyToken(t *testing.T, e *apptest.Env, srv *mailtest.Server, addr string) string {
	t.Helper()
	flush(t, e)
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, m := range srv.To(addr) {
			if m.Subject() == "Confirm your Meritmark email address" {
				link := verifyRe.FindString(m.Text())
				if link == "" {
					t.Fatalf("no link in %q", m.Text())
				}
				u, err := url.Parse(link)
				if err != nil {
					t.Fatal(err)
				}
				return u.Query().Get("token")
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no confirmation mail to %s", addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// approvedTarget is a paid application of u for a new free-to-review badge.
func newApplicationFor(t *testing.T, e *apptest.Env, u *model.User, status string) (*model.Badge, *model.Application) {
	t.Helper()
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: "Go " + model.NewID()[12:], Description: "d", Category: "Development",
		Type: model.TypeProof, Level: "beginner", Icon: "Award", Color: "blue", Criteria: "c", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: b.Type, Status: status,
		PaymentStatus: model.PaymentPending, FullName: u.Name, Email: u.Email, Description: "work", CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(a).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return b, a
}

func TestUnverifiedAddressGetsNoCredentialUntilConfirmed(t *testing.T) {
	srv := mailtest.Start(t)
	e := apptest.New(t, withSMTP(srv))
	c := e.Client()
	c.Post("/auth/register", map[string]any{"name": "Vic Tim", "email": "victim@example.com", "password": "correct horse battery"}).Expect(201)
	tok := verifyToken(t, e, srv, "victim@example.com")
	// only the token's hash is kept; the token is in no table
	if countRows(t, e, "email_verifications", "id = ?", auth.HashToken(tok)) != 1 || countRows(t, e, "email_verifications", "id = ?", tok) != 0 {
		t.Fatal("the confirmation token is not stored as its hash")
	}
	c.Post("/auth/login", map[string]any{"email": "victim@example.com", "password": "correct horse battery"}).Expect(200)
	if v := c.Get("/auth/me").Expect(200).Map()["user"].(map[string]any)["emailVerified"]; v != false {
		t.Fatalf("emailVerified = %v", v)
	}
	u := userByEmail(t, e, "victim@example.com")

	// an unverified member may apply; an approval leaves the grant waiting
	_, a := newApplicationFor(t, e, u, model.StatusPending)
	_, ac := e.Admin("boss@example.com")
	r := ac.Put("/admin/applications/"+a.ID+"/approve", map[string]any{"grantFree": true}).Expect(200)
	m := r.Map()
	if m["msg"] != "Application approved. The badge is waiting for e-mail verification: it is granted when the applicant confirms their address." ||
		m["waitingForEmailVerification"] != true || m["grantCreated"] != false {
		t.Fatalf("approve answered %s", r.Text())
	}
	if n := countRows(t, e, "badge_grants", "user_id = ?", u.ID); n != 0 {
		t.Fatalf("%d grants for an unverified address", n)
	}
	if st := apptest.Row[model.Application](e, a.ID).Status; st != model.StatusApproved {
		t.Fatalf("status %s", st)
	}
	list := ac.Get("/admin/applications").Expect(200).Text()
	if !strings.Contains(list, `"waitingForEmailVerification":true`) {
		t.Fatalf("the admin list does not show the waiting grant: %.400s", list)
	}
	if strings.Contains(c.Get("/auth/me").Text(), `"verificationId"`) {
		t.Fatal("the member holds a badge before confirming")
	}

	// a bad token changes nothing
	e.Client().Post("/auth/verify-email", map[string]any{"token": "nope"}).ExpectMsg(400, auth.MsgVerifyInvalid)
	e.Client().Post("/auth/verify-email", map[string]any{"token": ""}).ExpectMsg(400, auth.MsgVerifyInvalid)
	// confirming issues the waiting grant, signed for the proven address
	r = e.Client().Post("/auth/verify-email", map[string]any{"token": tok}).Expect(200)
	if r.Msg() != auth.MsgVerified || r.Map()["grantsIssued"] != float64(1) {
		t.Fatalf("verify answered %s", r.Text())
	}
	var g model.BadgeGrant
	if err := e.DB.NewSelect().Model(&g).Where("application_id = ?", a.ID).Scan(e.Ctx()); err != nil {
		t.Fatalf("no grant after confirming: %v", err)
	}
	apptest.Expect(t, "grant", g,
		apptest.True("g.CredentialJWT != \"\"", g.CredentialJWT != ""),
		apptest.True("g.GrantedBy != nil", g.GrantedBy != nil))
	if uu := userByEmail(t, e, "victim@example.com"); uu.EmailVerifiedAt == nil {
		t.Fatal("not verified")
	}
	flush(t, e)
	if s := srv.WaitFor(t, "victim@example.com").Subject(); !strings.Contains(s, "badge has been granted") {
		t.Fatalf("no grant mail: %q", s)
	}
	// single use
	e.Client().Post("/auth/verify-email", map[string]any{"token": tok}).ExpectMsg(400, auth.MsgVerifyInvalid)
	if n := countRows(t, e, "badge_grants", "user_id = ?", u.ID); n != 1 {
		t.Fatalf("%d grants", n)
	}
	// verified now: approvals grant at once, and no more confirmations are sent
	_, a2 := newApplicationFor(t, e, u, model.StatusPending)
	if r := ac.Put("/admin/applications/"+a2.ID+"/approve", map[string]any{"grantFree": true}).Expect(200).Map(); r["grantCreated"] != true {
		t.Fatalf("approve after verification: %v", r)
	}
	c.Post("/auth/resend-verification", nil).ExpectMsg(409, auth.MsgAlreadyVerified)

	// an admin changing the address changes nothing until the new one is confirmed (its
	// link then proves it: app/admin TestAdminEmailChangeWaitsForConfirmation)
	ac.Put("/admin/users/"+u.ID, map[string]any{"email": "victim2@example.com"}).Expect(200)
	if uu := userByEmail(t, e, "victim@example.com"); uu.EmailVerifiedAt == nil || uu.PendingEmail != "victim2@example.com" {
		t.Fatal("the address changed before its confirmation")
	}
	// an unproven address gets no credential, whoever asks
	if _, err := e.DB.NewUpdate().Model((*model.User)(nil)).Set("email_verified_at = NULL").Where("id = ?", u.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	iss := e.Deps.Issuer
	if iss == nil {
		t.Fatal("no issuer")
	}
	if err := iss.SignGrant(e.Ctx(), e.DB, &g, "http://x.example"); !errors.Is(err, credential.ErrHolderUnverified) {
		t.Fatalf("signing for an unverified address: %v", err)
	}
}

func TestVerificationLinkExpiresAndResendIsLimited(t *testing.T) {
	srv := mailtest.Start(t)
	e := apptest.New(t, withSMTP(srv))
	c := e.Client()
	c.Post("/auth/register", map[string]any{"name": "Lee", "email": "lee@example.com", "password": "another long one"}).Expect(201)
	tok := verifyToken(t, e, srv, "lee@example.com")
	// a link older than 48 hours is refused
	if _, err := e.DB.NewUpdate().Table("email_verifications").Set("expires_at = ?", model.Now().Add(-time.Second)).
		Where("id = ?", auth.HashToken(tok)).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	e.Client().Post("/auth/verify-email", map[string]any{"token": tok}).ExpectMsg(400, auth.MsgVerifyInvalid)

	// resend needs a session, then one a minute
	e.Client().Post("/auth/resend-verification", nil).Expect(401)
	c.Post("/auth/login", map[string]any{"email": "lee@example.com", "password": "another long one"}).Expect(200)
	c.Post("/auth/resend-verification", nil).ExpectMsg(200, auth.MsgVerifySent)
	r := c.Post("/auth/resend-verification", nil).ExpectMsg(429, auth.MsgTooManyVerify)
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	// the new link works; the expired one was cleared
	flush(t, e)
	deadline := time.Now().Add(10 * time.Second)
	for len(srv.To("lee@example.com")) < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	msgs := srv.To("lee@example.com")
	link := verifyRe.FindString(msgs[len(msgs)-1].Text())
	u, _ := url.Parse(link)
	tok2 := u.Query().Get("token")
	if tok2 == "" || tok2 == tok {
		t.Fatalf("resent link %q", link)
	}
	e.Client().Post("/auth/verify-email", map[string]any{"token": tok2}).ExpectMsg(200, auth.MsgVerified)
	if countRows(t, e, "email_verifications", "id = ?", auth.HashToken(tok)) != 0 {
		t.Fatal("the expired link was kept")
	}
	// the page carries the token to the island, never indexed or cached
	pr, props := e.Client().Page("/verify-email?token=abc")
	if apptest.PageName(pr) != "VerifyEmailPage" || props["page"].(map[string]any)["token"] != "abc" || !strings.Contains(pr.Header.Get("Cache-Control"), "no-store") {
		t.Fatalf("page %d %s %v %q", pr.Status, apptest.PageName(pr), props, pr.Header.Get("Cache-Control"))
	}
}
