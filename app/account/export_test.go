package account_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"meritmark/app/account"
	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
	"meritmark/app/session"
)

// The member's export holds every part of their data, the credentials exactly as their
// download links serve them and the uploaded files, and no secret or answer key.
func TestExportContents(t *testing.T) {
	w := newWorld(t)
	e, m := w.e, w.m
	// two-step sign-in on, so that a secret and recovery codes exist to leak
	if _, err := e.DB.NewUpdate().Model((*model.User)(nil)).Set("totp_secret = ?", apptest.TestTOTPSecret).
		Set("totp_enabled_at = ?", model.Now()).Where("id = ?", m.u.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	r := m.c.Get("/users/export").Expect(http.StatusOK)
	apptest.Expect(t, "headers", r.Header,
		apptest.Eq("Content-Type", r.Header.Get("Content-Type"), "application/zip"),
		apptest.Eq("Content-Disposition", r.Header.Get("Content-Disposition"), `attachment; filename="`+account.ExportName(model.Now())+`"`),
		apptest.Eq("Cache-Control", r.Header.Get("Cache-Control"), "no-store"))
	files := unzip(t, r.Body)
	for _, name := range []string{"README.txt", "profile.json", "applications.json", "quiz-attempts.json", "payments.json", "grants.json",
		"sessions.json", "connected-apps.json", "files/profile-picture.png",
		"credentials/" + m.grant.PublicVerificationID + ".jwt", "credentials/" + m.grant.PublicVerificationID + ".json"} {
		if _, ok := files[name]; !ok {
			t.Errorf("zip has no %s (has %v)", name, keys(files))
		}
	}

	var profile map[string]any
	mustJSON(t, files["profile.json"], &profile)
	apptest.Expect(t, "profile.json", profile,
		apptest.Eq("email", profile["email"], any(m.u.Email)), apptest.Eq("name", profile["name"], any("Ada Lovelace")),
		apptest.Eq("phone", profile["phone"], any("+44 20 7946 0000")), apptest.Eq("twoStepSignIn", profile["twoStepSignIn"], any(true)),
		apptest.Eq("profilePicture", profile["profilePicture"], any("files/profile-picture.png")))
	if string(files["files/profile-picture.png"]) != pictureBytes {
		t.Errorf("picture %q", files["files/profile-picture.png"])
	}

	var apps []struct {
		ID          string  `json:"id"`
		FullName    string  `json:"fullName"`
		Description string  `json:"description"`
		Status      string  `json:"status"`
		Price       float64 `json:"price"`
		Files       []struct {
			Kind, OriginalName, Path string
		} `json:"files"`
	}
	mustJSON(t, files["applications.json"], &apps)
	if len(apps) != 1 || len(apps[0].Files) != 1 {
		t.Fatalf("applications.json %s", files["applications.json"])
	}
	apptest.Expect(t, "application", apps[0],
		apptest.Eq("ID", apps[0].ID, m.app.ID), apptest.Eq("FullName", apps[0].FullName, "Ada King Lovelace"),
		apptest.Eq("Description", apps[0].Description, "My analytical engine notes"), apptest.Eq("Status", apps[0].Status, model.StatusApproved),
		apptest.Eq("Price", apps[0].Price, 49.0), apptest.Eq("file kind", apps[0].Files[0].Kind, "proof"),
		apptest.Eq("file name", apps[0].Files[0].OriginalName, "engine notes.pdf"))
	if got := string(files[apps[0].Files[0].Path]); got != proofBytes {
		t.Errorf("proof file at %q: %q", apps[0].Files[0].Path, got)
	}

	var attempts []map[string]any
	mustJSON(t, files["quiz-attempts.json"], &attempts)
	if len(attempts) != 1 {
		t.Fatalf("quiz-attempts.json %s", files["quiz-attempts.json"])
	}
	a := attempts[0]
	apptest.Expect(t, "attempt", a, apptest.Eq("score", a["score"], any(100.0)), apptest.Eq("passed", a["passed"], any(true)),
		apptest.Eq("correctCount", a["correctCount"], any(1.0)), apptest.True("submittedAt", a["submittedAt"] != nil),
		apptest.Eq("quiz", a["quiz"].(map[string]any)["name"], any("Go Quiz")))

	var pays struct {
		Payments []map[string]any `json:"payments"`
	}
	mustJSON(t, files["payments.json"], &pays)
	if len(pays.Payments) != 1 || pays.Payments[0]["amount"] != 49.0 || pays.Payments[0]["transactionId"] != m.payment.TransactionID {
		t.Fatalf("payments.json %s", files["payments.json"])
	}

	var grants []map[string]any
	mustJSON(t, files["grants.json"], &grants)
	if len(grants) != 1 || grants[0]["verificationId"] != m.grant.VerificationID ||
		grants[0]["credentialJwt"] != "credentials/"+m.grant.PublicVerificationID+".jwt" {
		t.Fatalf("grants.json %s", files["grants.json"])
	}
	// the credentials are the ones the public download links serve
	anon := e.Client()
	jwt := anon.Abs("GET", "/credentials/"+m.grant.PublicVerificationID+".jwt", nil).Expect(http.StatusOK).Body
	ld := anon.Abs("GET", "/credentials/"+m.grant.PublicVerificationID+".json", nil).Expect(http.StatusOK).Body
	if !bytes.Equal(files["credentials/"+m.grant.PublicVerificationID+".jwt"], jwt) || len(jwt) < 100 {
		t.Errorf("jwt in zip differs from the download")
	}
	if !bytes.Equal(files["credentials/"+m.grant.PublicVerificationID+".json"], ld) || !bytes.Contains(ld, []byte(`"proof"`)) {
		t.Errorf("JSON-LD in zip differs from the download")
	}

	var conns []map[string]any
	mustJSON(t, files["connected-apps.json"], &conns)
	if len(conns) != 1 || conns[0]["app"] != "Test Wallet" {
		t.Fatalf("connected-apps.json %s", files["connected-apps.json"])
	}
	if !strings.Contains(string(files["sessions.json"]), "203.0.113.7") {
		t.Errorf("sessions.json %s", files["sessions.json"])
	}

	// no secret and no answer key anywhere in it
	u := w.reloadUser(t, m.u.ID)
	hashParts := strings.Split(u.PasswordHash, "$")
	secrets := map[string]string{
		"password hash":          u.PasswordHash,
		"password hash key":      hashParts[len(hashParts)-1],
		"TOTP secret":            apptest.TestTOTPSecret,
		"stored TOTP secret":     u.TOTPSecret,
		"recovery code hash":     auth.HashToken("recovery|abcdefghij"),
		"session token":          m.token,
		"session id":             session.Hash(m.token),
		"OAuth token signature":  m.oauthSig,
		"OAuth client secret":    "client-secret-hash-",
		"explanation":            explanation,
		"correct option":         correctText,
		"question id (answers)":  w.question.ID,
		"question text":          w.question.Text,
		"layout key":             `"o":`,
		"internal statusindex":   `"statusIndex"`,
		"another user's address": w.admin.Email,
	}
	for _, content := range append([][]byte{r.Body}, values(files)...) {
		for what, s := range secrets {
			if s != "" && bytes.Contains(content, []byte(s)) {
				t.Errorf("the export contains the %s", what)
			}
		}
	}
	// audited
	if n := count(t, e, "audit_log", "action = 'user.export' AND target_id = ? AND actor_id = ?", m.u.ID, m.u.ID); n != 1 {
		t.Errorf("%d export audit rows", n)
	}
}

// Who may export whose data.
func TestExportAccess(t *testing.T) {
	w := newWorld(t)
	e := w.e
	e.Client().Get("/users/export").ExpectMsg(http.StatusUnauthorized, "Please log in to continue.")
	other, oc := e.Member("grace@example.com")
	// another member gets their own data only, and no admin route
	files := unzip(t, oc.Get("/users/export").Expect(http.StatusOK).Body)
	var p map[string]any
	mustJSON(t, files["profile.json"], &p)
	if p["email"] != other.Email || bytes.Contains(files["grants.json"], []byte(w.m.grant.VerificationID)) {
		t.Fatalf("other member's export: %s", files["profile.json"])
	}
	for _, c := range [][]byte{files["profile.json"], files["applications.json"], files["payments.json"]} {
		if bytes.Contains(c, []byte(w.m.u.Email)) {
			t.Fatal("another member's export holds the member's data")
		}
	}
	oc.Get("/admin/users/" + w.m.u.ID + "/export").Expect(http.StatusForbidden)
	e.Client().Get("/admin/users/" + w.m.u.ID + "/export").Expect(http.StatusUnauthorized)

	// the admin exports a member's data; audited with the admin as actor
	r := w.adminC.Get("/admin/users/" + w.m.u.ID + "/export").Expect(http.StatusOK)
	files = unzip(t, r.Body)
	mustJSON(t, files["profile.json"], &p)
	if p["email"] != w.m.u.Email {
		t.Fatalf("admin export %s", files["profile.json"])
	}
	if n := count(t, e, "audit_log", "action = 'user.export' AND target_id = ? AND actor_id = ?", w.m.u.ID, w.admin.ID); n != 1 {
		t.Errorf("%d admin export audit rows", n)
	}
	w.adminC.Get("/admin/users/not-an-id/export").ExpectMsg(http.StatusNotFound, account.MsgUserNotFound)
	w.adminC.Get("/admin/users/"+model.NewID()+"/export").ExpectMsg(http.StatusNotFound, account.MsgUserNotFound)
}

// Exports are expensive: a member gets a few an hour, then 429 with the message.
func TestExportRateLimit(t *testing.T) {
	w := newWorld(t)
	for i := 0; i < 5; i++ {
		w.m.c.Get("/users/export").Expect(http.StatusOK)
	}
	r := w.m.c.Get("/users/export").ExpectMsg(http.StatusTooManyRequests, account.MsgTooManyExports)
	if r.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
}

func mustJSON(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func values(m map[string][]byte) [][]byte {
	var out [][]byte
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
