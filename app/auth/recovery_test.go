package auth_test

import (
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
)

// Recovery codes are replaced with the password and a current authenticator code; the old
// ones stop working at once, and a spent code gets its own message at sign-in.
func TestRecoveryCodesReplacedAndUsedCodeNamed(t *testing.T) {
	e := apptest.New(t)
	u := e.CreateUser("rec@example.com", "kettle-lamp-91", model.RoleUser)
	c := e.Client()
	login(c, "rec@example.com", "kettle-lamp-91").Expect(200)
	c.Post("/auth/2fa/recovery-codes", map[string]any{"password": "kettle-lamp-91", "code": "123456"}).ExpectMsg(409, auth.MsgMFAOff)
	var setup auth.SetupJSON
	c.Post("/auth/2fa/setup", nil).Expect(200).JSON(&setup)
	var on struct {
		Codes []string `json:"recoveryCodes"`
	}
	c.Post("/auth/2fa/enable", map[string]any{"code": code(t, setup.Secret, 0)}).Expect(200).JSON(&on)

	m := c.Post("/auth/2fa/recovery-codes", map[string]any{"code": code(t, setup.Secret, 1)}).ExpectMsg(400, auth.MsgCurrentPassword).Map()
	if m["field"] != "password" {
		t.Fatalf("field %v", m["field"])
	}
	c.Post("/auth/2fa/recovery-codes", map[string]any{"password": "kettle-lamp-91"}).ExpectMsg(400, auth.MsgMFARequired)
	c.Post("/auth/2fa/recovery-codes", map[string]any{"password": "wrong-kettle", "code": code(t, setup.Secret, 1)}).ExpectMsg(400, auth.MsgCurrentWrong)
	c.Post("/auth/2fa/recovery-codes", map[string]any{"password": "kettle-lamp-91", "code": on.Codes[0]}).ExpectMsg(400, auth.MsgMFACodeWrong)
	e.Client().Post("/auth/2fa/recovery-codes", map[string]any{"password": "kettle-lamp-91", "code": "123456"}).Expect(401)
	if n := countRows(t, e, "mfa_recovery_codes", "user_id = ? AND used_at IS NULL", u.ID); n != 10 {
		t.Fatalf("%d codes left after refusals, want the 10 first ones", n)
	}

	var again struct {
		Msg   string   `json:"msg"`
		Codes []string `json:"recoveryCodes"`
	}
	c.Post("/auth/2fa/recovery-codes", map[string]any{"password": "kettle-lamp-91", "code": code(t, setup.Secret, 1)}).Expect(200).JSON(&again)
	apptest.Expect(t, "replaced", again,
		apptest.Eq("again.Msg", again.Msg, auth.MsgRecoveryReplaced),
		apptest.Eq("len(again.Codes)", len(again.Codes), 10),
		apptest.True("new codes", again.Codes[0] != on.Codes[0]))
	if n := countRows(t, e, "mfa_recovery_codes", "user_id = ?", u.ID); n != 10 {
		t.Fatalf("%d codes stored, want 10", n)
	}

	// an old code no longer works; a new one works once, then is named as used
	s := e.Client()
	login(s, "rec@example.com", "kettle-lamp-91").Expect(200)
	s.Post("/auth/login/2fa", map[string]any{"recoveryCode": on.Codes[1]}).ExpectMsg(400, auth.MsgMFACodeWrong)
	s.Post("/auth/login/2fa", map[string]any{"recoveryCode": again.Codes[0]}).ExpectMsg(200, auth.MsgLoggedIn)
	s2 := e.Client()
	login(s2, "rec@example.com", "kettle-lamp-91").Expect(200)
	s2.Post("/auth/login/2fa", map[string]any{"recoveryCode": again.Codes[0]}).ExpectMsg(400, auth.MsgRecoveryUsed)
	s2.Post("/auth/login/2fa", map[string]any{"recoveryCode": again.Codes[1]}).ExpectMsg(200, auth.MsgLoggedIn)
}
