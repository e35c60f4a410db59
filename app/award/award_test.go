package award_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/award"
	"meritmark/app/credential"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

var claimRe = regexp.MustCompile(`/claim/([A-Za-z0-9_-]{43})`)

type fx struct {
	e     *apptest.Env
	admin *apptest.Client
	badge *model.Badge
}

func newFx(t *testing.T) *fx {
	t.Helper()
	e := apptest.New(t)
	_, adm := e.Admin("admin@meritmark.test")
	now := model.Now()
	months := 24
	b := &model.Badge{ID: model.NewID(), Name: "Open Source Contributor", Description: "d", Category: "Development", Type: model.TypeProof,
		Level: "intermediate", Icon: "Code", Color: "blue", Criteria: "c", IsActive: true, ValidMonths: &months, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return &fx{e: e, admin: adm, badge: b}
}

// send awards the badge to email and answers the token from the mail.
func (f *fx) send(t *testing.T, email string) string {
	t.Helper()
	var out struct {
		Msg   string          `json:"msg"`
		Award award.AwardJSON `json:"award"`
	}
	f.admin.Post("/admin/awards", map[string]any{"badgeId": f.badge.ID, "email": email, "note": "  Thanks for   the talk!  "}).Expect(http.StatusCreated).JSON(&out)
	apptest.Expect(t, "answer", out,
		apptest.Eq("out.Msg", out.Msg, award.MsgSent),
		apptest.Eq("out.Award.BadgeName", out.Award.BadgeName, f.badge.Name),
		apptest.Eq("out.Award.Email", out.Award.Email, strings.ToLower(strings.TrimSpace(email))))
	var ms []model.OutboxMessage
	if err := f.e.DB.NewSelect().Model(&ms).Where("to_addr = ?", out.Award.Email).OrderExpr("created_at DESC").Limit(1).Scan(f.e.Ctx()); err != nil || len(ms) != 1 {
		t.Fatalf("mail %v %v", ms, err)
	}
	m := ms[0]
	if m.Subject != "You have been awarded the Open Source Contributor badge" || !strings.Contains(m.BodyText, "A note from the issuer: Thanks for the talk!") {
		t.Errorf("mail %q %q", m.Subject, m.BodyText)
	}
	sub := claimRe.FindStringSubmatch(m.BodyText)
	if sub == nil || !strings.Contains(m.BodyText, f.e.URL+"/claim/"+sub[1]) {
		t.Fatalf("no claim link in %q", m.BodyText)
	}
	// only the token's hash is stored
	var a award.Award
	if err := f.e.DB.NewSelect().Model(&a).Where("id = ?", out.Award.ID).Scan(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	apptest.Want(t, "stored", a,
		apptest.Eq("a.TokenHash", a.TokenHash, award.HashToken(sub[1])),
		apptest.True("a.TokenHash != sub[1]", a.TokenHash != sub[1]),
		apptest.Eq("a.Note", a.Note, "Thanks for the talk!"))
	if strings.Contains(f.admin.Post("/admin/awards", map[string]any{"badgeId": f.badge.ID, "email": "probe@example.com"}).Text(), sub[1]) {
		t.Error("token in an answer")
	}
	return sub[1]
}

func (f *fx) grants(t *testing.T, userID string) []model.BadgeGrant {
	t.Helper()
	var gs []model.BadgeGrant
	if err := f.e.DB.NewSelect().Model(&gs).Where("user_id = ?", userID).Scan(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return gs
}

func pageState(t *testing.T, c *apptest.Client, tok string) (int, string) {
	t.Helper()
	r, props := c.Page("/claim/" + tok)
	p, _ := props["page"].(map[string]any)
	s, _ := p["state"].(string)
	return r.Status, s
}

func TestAwardValidation(t *testing.T) {
	f := newFx(t)
	post := func(body map[string]any) *apptest.Resp { return f.admin.Post("/admin/awards", body) }
	post(map[string]any{"badgeId": f.badge.ID, "email": "not-an-address"}).ExpectMsg(http.StatusBadRequest, award.MsgEmailInvalid)
	post(map[string]any{"badgeId": f.badge.ID}).ExpectMsg(http.StatusBadRequest, award.MsgEmailInvalid)
	post(map[string]any{"email": "a@example.com"}).ExpectMsg(http.StatusBadRequest, award.MsgBadgeRequired)
	post(map[string]any{"badgeId": model.NewID(), "email": "a@example.com"}).ExpectMsg(http.StatusNotFound, award.MsgBadgeNotFound)
	post(map[string]any{"badgeId": "../x", "email": "a@example.com"}).ExpectMsg(http.StatusNotFound, award.MsgBadgeNotFound)
	post(map[string]any{"badgeId": f.badge.ID, "email": "a@example.com", "note": strings.Repeat("n", 501)}).ExpectMsg(http.StatusBadRequest, award.MsgNoteTooLong)
	_, member := f.e.Member("m@example.com")
	member.Post("/admin/awards", map[string]any{"badgeId": f.badge.ID, "email": "a@example.com"}).Expect(http.StatusForbidden)
	f.e.Client().Post("/awards/claim", map[string]any{"token": "x"}).Expect(http.StatusUnauthorized)
	if n, _ := f.e.DB.NewSelect().Model((*award.Award)(nil)).Count(f.e.Ctx()); n != 0 {
		t.Fatalf("refused awards left %d rows", n)
	}
}

// The whole flow: an address with no account is awarded a badge, opens the link, signs up
// with that address and claims it; the link then works no more.
// signupPrefill answers the e-mail address and badge name /signup?next=… starts with.
func signupPrefill(t *testing.T, c *apptest.Client, next string) (string, string) {
	t.Helper()
	r, props := c.Page("/signup?next=" + url.QueryEscape(next))
	if r.Status != http.StatusOK {
		t.Fatalf("sign-up page %d", r.Status)
	}
	p, _ := props["page"].(map[string]any)
	email, _ := p["email"].(string)
	badge, _ := p["claimBadge"].(string)
	return email, badge
}

func TestAwardToAnAddressWithoutAccount(t *testing.T) {
	f := newFx(t)
	tok := f.send(t, " Kim@Example.com ")

	if st, s := pageState(t, f.e.Client(), tok); st != http.StatusOK || s != "signin" {
		t.Fatalf("visitor page %d %q", st, s)
	}
	if st, s := pageState(t, f.e.Client(), strings.Repeat("A", 43)); st != http.StatusNotFound || s != "invalid" {
		t.Fatalf("unknown token page %d %q", st, s)
	}
	// the claim link's sign-up starts with the awarded address (and only an open award's)
	if email, badge := signupPrefill(t, f.e.Client(), "/claim/"+tok); email != "kim@example.com" || badge != f.badge.Name {
		t.Fatalf("sign-up prefill %q %q", email, badge)
	}
	for _, next := range []string{"/claim/" + strings.Repeat("A", 43), "/claim/" + tok + "/x", "/badges", ""} {
		if email, _ := signupPrefill(t, f.e.Client(), next); email != "" {
			t.Fatalf("sign-up with next %q prefilled %q", next, email)
		}
	}
	// someone else signed in: refused, nothing issued
	other, oc := f.e.Member("other@example.com")
	if _, s := pageState(t, oc, tok); s != "wrong" {
		t.Fatalf("other page %q", s)
	}
	oc.Post("/awards/claim", map[string]any{"token": tok}).ExpectMsg(http.StatusForbidden, award.MsgWrongAccount)
	if len(f.grants(t, other.ID)) != 0 {
		t.Fatal("issued to the wrong account")
	}
	oc.Post("/awards/claim", map[string]any{"token": "nope"}).ExpectMsg(http.StatusNotFound, award.MsgLinkInvalid)

	// the recipient creates an account with the address, and claims; until the address is
	// confirmed no credential names it
	kim, kc := f.e.Member("kim@example.com")
	if _, err := f.e.DB.NewUpdate().Table("users").Set("email_verified_at = NULL").Where("id = ?", kim.ID).Exec(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	kc.Post("/awards/claim", map[string]any{"token": tok}).ExpectMsg(http.StatusForbidden, award.MsgConfirmFirst)
	if _, props := kc.Page("/claim/" + tok); props["page"].(map[string]any)["unconfirmed"] != true {
		t.Fatalf("the claim page does not ask for the confirmation: %v", props["page"])
	}
	if len(f.grants(t, kim.ID)) != 0 {
		t.Fatal("issued to an unconfirmed address")
	}
	if _, err := f.e.DB.NewUpdate().Table("users").Set("email_verified_at = ?", model.Now()).Where("id = ?", kim.ID).Exec(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	if _, s := pageState(t, kc, tok); s != "ready" {
		t.Fatalf("recipient page %q", s)
	}
	var res award.ClaimResult
	// the recipient chooses at claim that their credentials name them
	kc.Post("/awards/claim", map[string]any{"token": tok, "nameInCredentials": true}).Expect(http.StatusOK).JSON(&res)
	gs := f.grants(t, kim.ID)
	if len(gs) != 1 || res.Msg != award.MsgClaimed || res.VerificationID != gs[0].VerificationID {
		t.Fatalf("claim %+v grants %+v", res, gs)
	}
	g := gs[0]
	if g.ApplicationID != nil || g.BadgeID != f.badge.ID || g.CredentialJWT == "" || g.ExpiresAt == nil || !g.ExpiresAt.Equal(g.GrantedAt.AddDate(0, 24, 0)) {
		t.Errorf("grant %+v", g)
	}
	if p, err := credential.ParseJWT(g.CredentialJWT); err != nil {
		t.Fatal(err)
	} else if pl, err := credential.Decode(p.Payload); err != nil || len(pl.CredentialSubject.Identifier) != 2 ||
		pl.CredentialSubject.Identifier[1].IdentityType != "name" || pl.CredentialSubject.Identifier[1].IdentityHash != kim.Name {
		t.Errorf("the claimed credential does not name its holder: %+v %v", pl, err)
	}
	var kimNow model.User
	if err := f.e.DB.NewSelect().Model(&kimNow).Where("id = ?", kim.ID).Scan(f.e.Ctx()); err != nil || !kimNow.NameInCredentials {
		t.Errorf("the choice made at claim was not kept: %v", err)
	}
	var v struct {
		IsValid bool `json:"isValid"`
	}
	f.e.Client().Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).JSON(&v)
	if !v.IsValid || res.VerifyURL != f.e.URL+"/verify/"+g.PublicVerificationID {
		t.Errorf("verify %+v %s", v, res.VerifyURL)
	}
	var a award.Award
	if err := f.e.DB.NewSelect().Model(&a).Where("email = ?", "kim@example.com").Scan(f.e.Ctx()); err != nil ||
		a.ClaimedAt == nil || a.ClaimedBy == nil || *a.ClaimedBy != kim.ID || a.GrantID == nil || *a.GrantID != g.ID {
		t.Fatalf("award %+v %v", a, err)
	}
	var hof int
	if err := f.e.DB.NewRaw(`SELECT total_badges FROM hall_of_fame WHERE user_id = ?`, kim.ID).Scan(f.e.Ctx(), &hof); err != nil || hof != 1 {
		t.Errorf("hall of fame %d %v", hof, err)
	}
	// single use
	kc.Post("/awards/claim", map[string]any{"token": tok}).ExpectMsg(http.StatusConflict, award.MsgLinkUsed)
	if _, s := pageState(t, kc, tok); s != "claimed" {
		t.Errorf("page after claim %q", s)
	}
	if email, _ := signupPrefill(t, f.e.Client(), "/claim/"+tok); email != "" {
		t.Errorf("a claimed award still prefills the sign-up: %q", email)
	}
	// the holder cannot be awarded the badge again while it is valid
	f.admin.Post("/admin/awards", map[string]any{"badgeId": f.badge.ID, "email": "kim@example.com"}).ExpectMsg(http.StatusConflict, award.MsgAlreadyHolds)
}

func TestAwardReplacedExpiredAndRaced(t *testing.T) {
	f := newFx(t)
	first := f.send(t, "lee@example.com")
	second := f.send(t, "lee@example.com") // sent again: the first link stops working
	lee, lc := f.e.Member("lee@example.com")
	lc.Post("/awards/claim", map[string]any{"token": first}).ExpectMsg(http.StatusNotFound, award.MsgLinkInvalid)

	// expired
	if _, err := f.e.DB.NewUpdate().Model((*award.Award)(nil)).Set("expires_at = ?", model.Now().Add(-time.Minute)).
		Where("token_hash = ?", award.HashToken(second)).Exec(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	lc.Post("/awards/claim", map[string]any{"token": second}).ExpectMsg(http.StatusGone, award.MsgLinkExpired)
	if _, s := pageState(t, lc, second); s != "expired" {
		t.Errorf("expired page %q", s)
	}
	if len(f.grants(t, lee.ID)) != 0 {
		t.Fatal("an expired link issued a badge")
	}

	// a fresh award claimed from several sessions at once: one grant
	third := f.send(t, "lee@example.com")
	var ok, conflict atomic.Int32
	apptest.Parallel(4, func(int) {
		r := f.e.LoginAs(lee).Post("/awards/claim", map[string]any{"token": third})
		switch r.Status {
		case http.StatusOK:
			ok.Add(1)
		case http.StatusConflict:
			conflict.Add(1)
		default:
			t.Errorf("claim: %d %s", r.Status, r.Text())
		}
	})
	if ok.Load() != 1 || conflict.Load() != 3 || len(f.grants(t, lee.ID)) != 1 {
		t.Fatalf("ok %d conflict %d grants %d", ok.Load(), conflict.Load(), len(f.grants(t, lee.ID)))
	}
}
