package ops_test

import (
	"errors"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
	"meritmark/app/ops"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func login(c *apptest.Client, email, password string) *apptest.Resp {
	return c.Post("/auth/login", map[string]string{"email": email, "password": password})
}

func mails(t *testing.T, e *apptest.Env, to, subject string) int {
	t.Helper()
	n, err := e.DB.NewSelect().Model((*model.OutboxMessage)(nil)).Where("to_addr = ? AND subject = ?", to, subject).Count(e.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func audits(t *testing.T, e *apptest.Env, action, userID string) int {
	t.Helper()
	n, err := e.DB.NewSelect().Model((*model.AuditEntry)(nil)).Where("action = ? AND target_id = ?", action, userID).Count(e.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// reset-password: the new password signs in, the old one and every old session do not,
// a temporary password must be changed, the member is mailed and the change audited; a
// weak password and an unknown address are refused.
func TestResetPassword(t *testing.T) {
	e := apptest.New(t)
	u, old := e.Member("reset@example.com")
	old.Get("/auth/me").Expect(200)
	if err := ops.ResetPassword(e.Ctx(), e.DB, "Reset@Example.com", "quartz-window-harbour", true); err != nil {
		t.Fatal(err)
	}
	old.Get("/auth/me").Expect(401)
	login(e.Client(), "reset@example.com", "password123").Expect(401)
	login(e.Client(), "reset@example.com", "quartz-window-harbour").Expect(200)
	if got := apptest.Row[model.User](e, u.ID); !got.MustChangePassword {
		t.Fatal("a temporary password need not be changed")
	}
	if mails(t, e, u.Email, "Your Meritmark password was reset") != 1 || audits(t, e, "user.password_reset_by_operator", u.ID) != 1 {
		t.Fatal("the reset was not mailed and audited once")
	}
	if err := ops.ResetPassword(e.Ctx(), e.DB, u.Email, "password", false); err == nil {
		t.Fatal("a common password was accepted")
	}
	if err := ops.ResetPassword(e.Ctx(), e.DB, "nobody@example.com", "quartz-window-harbour", false); !errors.Is(err, ops.ErrNoUser) {
		t.Fatalf("unknown address: %v", err)
	}
}

// reset-2fa: a member who lost their authenticator signs in with the password alone.
func TestReset2FA(t *testing.T) {
	e := apptest.New(t)
	u := e.CreateUser("lost@example.com", "password123", model.RoleAdmin) // two-step on
	login(e.Client(), u.Email, "password123").ExpectMsg(200, auth.MsgMFARequired)
	if err := ops.Reset2FA(e.Ctx(), e.DB, u.Email); err != nil {
		t.Fatal(err)
	}
	if got := apptest.Row[model.User](e, u.ID); got.TOTPEnabled() || got.TOTPSecret != "" {
		t.Fatal("two-step sign-in is still on")
	}
	if r := login(e.Client(), u.Email, "password123").Expect(200); r.Msg() == auth.MsgMFARequired {
		t.Fatal("a code is still asked for")
	}
	if mails(t, e, u.Email, "Two-step sign-in was switched off") != 1 {
		t.Fatal("the member was not told")
	}
}

// disable-user: the account's session stops working at once, a correct password is told
// the account is disabled (a wrong one learns nothing), the last admin cannot be disabled,
// and enable-user lets it sign in again.
func TestDisableAndEnableUser(t *testing.T) {
	e := apptest.New(t)
	u, c := e.Member("gone@example.com")
	c.Get("/auth/me").Expect(200)
	if err := ops.SetDisabled(e.Ctx(), e.DB, u.Email, true); err != nil {
		t.Fatal(err)
	}
	c.Get("/auth/me").Expect(401)
	login(e.Client(), u.Email, "password123").ExpectMsg(403, auth.MsgAccountDisabled)
	login(e.Client(), u.Email, "wrong-password-1").ExpectMsg(401, auth.MsgBadCredentials)
	if audits(t, e, "user.disabled_by_operator", u.ID) != 1 {
		t.Fatal("not audited")
	}
	if err := ops.SetDisabled(e.Ctx(), e.DB, u.Email, false); err != nil {
		t.Fatal(err)
	}
	login(e.Client(), u.Email, "password123").Expect(200)

	admin := e.CreateUser("only-admin@example.com", "password123", model.RoleAdmin)
	if err := ops.SetDisabled(e.Ctx(), e.DB, admin.Email, true); !errors.Is(err, ops.ErrLastAdmin) {
		t.Fatalf("disabling the last admin: %v", err)
	}
	e.CreateUser("second-admin@example.com", "password123", model.RoleAdmin)
	if err := ops.SetDisabled(e.Ctx(), e.DB, admin.Email, true); err != nil {
		t.Fatalf("with another admin: %v", err)
	}
}

// flush-sessions: one account's, or everyone's.
func TestFlushSessions(t *testing.T) {
	e := apptest.New(t)
	a, ca := e.Member("a@example.com")
	_, cb := e.Member("b@example.com")
	if n, err := ops.FlushSessions(e.Ctx(), e.DB, a.Email); err != nil || n != 1 {
		t.Fatalf("flush one: %d %v", n, err)
	}
	ca.Get("/auth/me").Expect(401)
	cb.Get("/auth/me").Expect(200)
	if n, err := ops.FlushSessions(e.Ctx(), e.DB, ""); err != nil || n != 1 {
		t.Fatalf("flush all: %d %v", n, err)
	}
	cb.Get("/auth/me").Expect(401)
	if !strings.Contains(apptest.Row[model.User](e, a.ID).Email, "a@") {
		t.Fatal("the account itself changed")
	}
}
