package auth_test

import (
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
)

func code(t *testing.T, secret string, offset int64) string {
	t.Helper()
	c, err := auth.TOTPCode(secret, time.Now().Unix()/30+offset)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTOTPEnrolSignInSkewReplayAndRecovery(t *testing.T) {
	e := apptest.New(t)
	u := e.CreateUser("two@example.com", "kettle-lamp-91", model.RoleUser)
	c := e.Client()
	login(c, "two@example.com", "kettle-lamp-91").Expect(200)

	c.Post("/auth/2fa/enable", map[string]any{"code": "123456"}).ExpectMsg(400, auth.MsgMFANotStarted)
	var setup auth.SetupJSON
	c.Post("/auth/2fa/setup", nil).Expect(200).JSON(&setup)
	apptest.Expect(t, "setup", setup,
		apptest.True("len(setup.Secret) >= 16", len(setup.Secret) >= 16),
		apptest.True("strings.HasPrefix(setup.OTPAuthURL, \"otpauth://totp/Meritmark:two@example.com?\")", strings.HasPrefix(setup.OTPAuthURL, "otpauth://totp/Meritmark:two@example.com?")),
		apptest.True("strings.HasPrefix(setup.QR, \"data:image/png;base64,\")", strings.HasPrefix(setup.QR, "data:image/png;base64,")))
	c.Post("/auth/2fa/enable", map[string]any{"code": ""}).ExpectMsg(400, auth.MsgMFACodeRequired)
	c.Post("/auth/2fa/enable", map[string]any{"code": code(t, setup.Secret, 5)}).ExpectMsg(400, auth.MsgMFACodeWrong)
	var on struct {
		Msg   string   `json:"msg"`
		Codes []string `json:"recoveryCodes"`
	}
	first := code(t, setup.Secret, 0)
	c.Post("/auth/2fa/enable", map[string]any{"code": first}).Expect(200).JSON(&on)
	apptest.Expect(t, "enable answered", on,
		apptest.Eq("on.Msg", on.Msg, auth.MsgMFAEnabled),
		apptest.Eq("len(on.Codes)", len(on.Codes), 10))
	apptest.Expect(t, "enable answered", on,
		apptest.Eq("len(on.Codes[0])", len(on.Codes[0]), 11))
	if countRows(t, e, "mfa_recovery_codes", "user_id = ?", u.ID) != 10 || countRows(t, e, "mfa_recovery_codes", "id = ?", on.Codes[0]) != 0 {
		t.Fatal("recovery codes not stored as hashes")
	}
	c.Post("/auth/2fa/setup", nil).ExpectMsg(409, auth.MsgMFAAlreadyOn)
	// a security notice goes out through the outbox, once
	if n := countRows(t, e, "outbox", "to_addr = ? AND subject = ?", u.Email, auth.MailTwoStepOn); n != 1 {
		t.Fatalf("two-step on notices: %d", n)
	}

	// sign-in now asks for the code: no session from the password alone
	s := e.Client()
	r := login(s, "two@example.com", "kettle-lamp-91").Expect(200)
	if r.Map()["mfaRequired"] != true || r.Msg() != auth.MsgMFARequired || setCookieHeader(r) != "" {
		t.Fatalf("login answered %s", r.Text())
	}
	s.Get("/auth/me").Expect(401)
	// the code used to enable it is spent: replay refused
	s.Post("/auth/login/2fa", map[string]any{"code": first}).ExpectMsg(400, auth.MsgMFACodeWrong)
	s.Post("/auth/login/2fa", map[string]any{"code": code(t, setup.Secret, 3)}).ExpectMsg(400, auth.MsgMFACodeWrong) // outside the window
	s.Post("/auth/login/2fa", map[string]any{}).ExpectMsg(400, auth.MsgMFACodeRequired)
	// a clock one step ahead is accepted (±1 step)
	ahead := code(t, setup.Secret, 1)
	s.Post("/auth/login/2fa", map[string]any{"code": ahead}).ExpectMsg(200, auth.MsgLoggedIn)
	s.Get("/auth/me").Expect(200)
	// the same code again, in a new sign-in: replay refused (and an older step too)
	s2 := e.Client()
	login(s2, "two@example.com", "kettle-lamp-91").Expect(200)
	s2.Post("/auth/login/2fa", map[string]any{"code": ahead}).ExpectMsg(400, auth.MsgMFACodeWrong)
	s2.Post("/auth/login/2fa", map[string]any{"code": code(t, setup.Secret, 0)}).ExpectMsg(400, auth.MsgMFACodeWrong)
	// a recovery code works once
	s2.Post("/auth/login/2fa", map[string]any{"recoveryCode": strings.ToUpper(on.Codes[0])}).ExpectMsg(200, auth.MsgLoggedIn)
	s3 := e.Client()
	login(s3, "two@example.com", "kettle-lamp-91").Expect(200)
	s3.Post("/auth/login/2fa", map[string]any{"recoveryCode": on.Codes[0]}).ExpectMsg(400, auth.MsgRecoveryUsed)
	// no challenge: nothing to finish
	e.Client().Post("/auth/login/2fa", map[string]any{"code": "123456"}).ExpectMsg(401, auth.MsgMFAChallengeGone)
	// five wrong codes end the challenge
	for i := 0; i < 4; i++ {
		s3.Post("/auth/login/2fa", map[string]any{"code": "000000"}).Expect(400)
	}
	s3.Post("/auth/login/2fa", map[string]any{"recoveryCode": on.Codes[1]}).Expect(401)

	// a member may switch it off with the password
	c.Post("/auth/2fa/disable", map[string]any{"password": "wrong-kettle"}).ExpectMsg(400, auth.MsgCurrentWrong)
	if n := countRows(t, e, "outbox", "to_addr = ? AND subject = ?", u.Email, auth.MailTwoStepOff); n != 0 {
		t.Fatalf("a refused switch-off sent %d notices", n)
	}
	c.Post("/auth/2fa/disable", map[string]any{"password": "kettle-lamp-91"}).ExpectMsg(200, auth.MsgMFADisabled)
	if n := countRows(t, e, "outbox", "to_addr = ? AND subject = ?", u.Email, auth.MailTwoStepOff); n != 1 {
		t.Fatalf("two-step off notices: %d", n)
	}
	login(e.Client(), "two@example.com", "kettle-lamp-91").ExpectMsg(200, auth.MsgLoggedIn)
}

func TestAdminMustSetUpTwoFactorFirst(t *testing.T) {
	e := apptest.New(t)
	a := e.CreateUser("newadmin@example.com", "kettle-lamp-91", model.RoleUser)
	if _, err := e.DB.NewUpdate().Model((*model.User)(nil)).Set("role = 'admin'").Where("id = ?", a.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	c := e.Client()
	login(c, "newadmin@example.com", "kettle-lamp-91").Expect(200)
	c.Get("/admin/applications").ExpectMsg(403, auth.MsgAdminNeedsMFA)
	pr, _ := c.Page("/admin")
	if pr.Header.Get("Location") != "/account/two-factor?next=%2Fadmin" {
		t.Fatalf("/admin: %d %q", pr.Status, pr.Header.Get("Location"))
	}
	pr, props := c.Page("/account/two-factor?next=%2Fadmin")
	apptest.Expect(t, "page", props,
		apptest.Eq("apptest.PageName(pr)", apptest.PageName(pr), "TwoFactorPage"))
	apptest.Expect(t, "page", props,
		apptest.Eq("props[\"page\"].(map[string]any)[\"required\"]", props["page"].(map[string]any)["required"], true))
	var setup auth.SetupJSON
	c.Post("/auth/2fa/setup", nil).Expect(200).JSON(&setup)
	c.Post("/auth/2fa/enable", map[string]any{"code": code(t, setup.Secret, 0)}).Expect(200)
	c.Get("/admin/applications").Expect(200)
	c.Post("/auth/2fa/disable", map[string]any{"password": "kettle-lamp-91"}).ExpectMsg(409, auth.MsgMFAAdminKeep)
	// the test helper's admins have it on already
	_, ac := e.Admin("helper@example.com")
	ac.Get("/admin/applications").Expect(200)
}
