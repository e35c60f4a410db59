package auth_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
)

func storedSecret(t *testing.T, e *apptest.Env, userID string) string {
	t.Helper()
	var s string
	if err := e.DB.NewSelect().Model((*model.User)(nil)).Column("totp_secret").Where("id = ?", userID).Scan(e.Ctx(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TOTP secrets are sealed at rest (AES-GCM, a key kept 0600 in the data dir when
// MERITMARK_SECRET_KEY is not set): the row never holds the secret, sign-in with a code
// still works, a sealed secret copied onto another account does not open, and a row
// written in plaintext before keeps working and is sealed the first time it is used.
func TestTOTPSecretSealedAtRest(t *testing.T) {
	e := apptest.New(t)
	u := e.CreateUser("sealed@example.com", "kettle-lamp-91", model.RoleUser)
	c := e.Client()
	login(c, "sealed@example.com", "kettle-lamp-91").Expect(200)
	var setup auth.SetupJSON
	c.Post("/auth/2fa/setup", nil).Expect(200).JSON(&setup)
	row := storedSecret(t, e, u.ID)
	if !auth.Sealed(row) || strings.Contains(row, setup.Secret) || strings.Contains(strings.ToUpper(row), setup.Secret) {
		t.Fatalf("pending secret stored as %q (secret %s)", row, setup.Secret)
	}
	c.Post("/auth/2fa/enable", map[string]any{"code": code(t, setup.Secret, 0)}).ExpectMsg(200, auth.MsgMFAEnabled)
	if r := storedSecret(t, e, u.ID); r != row {
		t.Fatalf("enabling changed the stored secret: %q", r)
	}
	// the key: generated once in the data dir, 0600
	fi, err := os.Stat(filepath.Join(e.DataDir, "secrets", "key"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("secret key file: %v %v", fi, err)
	}
	// sign-in with a code
	s := e.Client()
	login(s, "sealed@example.com", "kettle-lamp-91").ExpectMsg(200, auth.MsgMFARequired)
	s.Post("/auth/login/2fa", map[string]any{"code": code(t, setup.Secret, 1)}).ExpectMsg(200, auth.MsgLoggedIn)
	s.Get("/auth/me").Expect(200)

	// the sealed secret copied onto another account with two-step on does not open there
	other := e.CreateUser("copy@example.com", "kettle-lamp-92", model.RoleUser)
	if _, err := e.DB.NewUpdate().Model((*model.User)(nil)).Set("totp_secret = ?, totp_enabled_at = ?", row, model.Now()).Where("id = ?", other.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	o := e.Client()
	login(o, "copy@example.com", "kettle-lamp-92").ExpectMsg(200, auth.MsgMFARequired)
	if r := o.Post("/auth/login/2fa", map[string]any{"code": code(t, setup.Secret, 0)}); r.Status == 200 {
		t.Fatal("a sealed secret copied onto another account signs in")
	}

	// a plaintext row from before (the test admins are written that way): sign-in works
	// and the row is sealed by it
	admin := e.CreateUser("boss@example.com", "kettle-lamp-93", model.RoleAdmin)
	if storedSecret(t, e, admin.ID) != apptest.TestTOTPSecret {
		t.Fatal("the test admin is not a plaintext row")
	}
	a := e.Client()
	login(a, "boss@example.com", "kettle-lamp-93").ExpectMsg(200, auth.MsgMFARequired)
	a.Post("/auth/login/2fa", map[string]any{"code": code(t, apptest.TestTOTPSecret, 0)}).ExpectMsg(200, auth.MsgLoggedIn)
	if r := storedSecret(t, e, admin.ID); !auth.Sealed(r) || strings.Contains(r, apptest.TestTOTPSecret) {
		t.Fatalf("the plaintext row was not sealed on use: %q", r)
	}
	a2 := e.Client()
	login(a2, "boss@example.com", "kettle-lamp-93").ExpectMsg(200, auth.MsgMFARequired)
	a2.Post("/auth/login/2fa", map[string]any{"code": code(t, apptest.TestTOTPSecret, 1)}).ExpectMsg(200, auth.MsgLoggedIn)

	// a second instance on the same database, started with plaintext rows present, seals
	// them at start (the sweep); with the same data dir's key it signs them in
	plain := e.CreateUser("boss2@example.com", "kettle-lamp-94", model.RoleAdmin)
	e2 := apptest.New(t, apptest.SharedDB(e), func(d *app.Deps) { d.Config.DataDir = e.DataDir })
	if r := storedSecret(t, e, plain.ID); !auth.Sealed(r) {
		t.Fatalf("the start-up sweep left %q", r)
	}
	b := e2.Client()
	login(b, "boss2@example.com", "kettle-lamp-94").ExpectMsg(200, auth.MsgMFARequired)
	b.Post("/auth/login/2fa", map[string]any{"code": code(t, apptest.TestTOTPSecret, 0)}).ExpectMsg(200, auth.MsgLoggedIn)
}

// Two keys do not open each other's secrets; a short key is refused.
func TestSecretBoxKeys(t *testing.T) {
	a, err := auth.NewSecretBox("first-secret-key-0123456789")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := auth.NewSecretBox("second-secret-key-0123456789")
	s, err := a.Seal("user-1", "JBSWY3DPEHPK3PXP")
	if err != nil {
		t.Fatal(err)
	}
	if p, err := a.Open("user-1", s); err != nil || p != "JBSWY3DPEHPK3PXP" {
		t.Fatalf("open: %q %v", p, err)
	}
	if _, err := b.Open("user-1", s); err == nil {
		t.Fatal("another key opens it")
	}
	if _, err := a.Open("user-2", s); err == nil {
		t.Fatal("it opens for another user")
	}
	if s2, _ := a.Seal("user-1", "JBSWY3DPEHPK3PXP"); s2 == s {
		t.Fatal("sealing twice gives the same text (nonce reused)")
	}
	if p, err := a.Open("user-1", "JBSWY3DPEHPK3PXP"); err != nil || p != "JBSWY3DPEHPK3PXP" {
		t.Fatal("a plaintext value does not read as itself")
	}
	if _, err := auth.NewSecretBox("short"); err == nil {
		t.Fatal("a short key is accepted")
	}
}

// A database restored (or shared) without the secret key its TOTP secrets were sealed
// with: a code answers 503 with a message that says what still works (it was a 500), the
// log names the setting to fix, and a recovery code still signs in.
func TestTOTPKeyMismatchAnswersClearly(t *testing.T) {
	e := apptest.New(t)
	e.CreateUser("restored@example.com", "kettle-lamp-95", model.RoleUser)
	c := e.Client()
	login(c, "restored@example.com", "kettle-lamp-95").Expect(200)
	var setup auth.SetupJSON
	c.Post("/auth/2fa/setup", nil).Expect(200).JSON(&setup)
	var enabled struct {
		RecoveryCodes []string `json:"recoveryCodes"`
	}
	c.Post("/auth/2fa/enable", map[string]any{"code": code(t, setup.Secret, 0)}).Expect(200).JSON(&enabled)
	if len(enabled.RecoveryCodes) == 0 {
		t.Fatal("no recovery codes")
	}

	// another data dir: another generated secret key, as after a restore without it
	logs := apptest.CaptureLogs(t)
	e2 := apptest.New(t, apptest.SharedDB(e), func(d *app.Deps) { d.Config.DataDir = t.TempDir() })
	s := e2.Client()
	login(s, "restored@example.com", "kettle-lamp-95").ExpectMsg(200, auth.MsgMFARequired)
	s.Post("/auth/login/2fa", map[string]any{"code": code(t, setup.Secret, 1)}).ExpectMsg(503, auth.MsgMFAKeyMismatch)
	if !strings.Contains(logs.String(), "MERITMARK_SECRET_KEY") {
		t.Fatalf("the log does not name the setting to fix:\n%s", logs.String())
	}
	s.Post("/auth/login/2fa", map[string]any{"recoveryCode": enabled.RecoveryCodes[0]}).ExpectMsg(200, auth.MsgLoggedIn)
}
