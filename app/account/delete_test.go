package account_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"meritmark/app/account"
	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
)

// snapshot is what a refused deletion must leave as it was.
type snapshot struct {
	email, name   string
	grantsRevoked int
	sessions      int
	files         int
	attempts      int
	tokens        int
	audit         int
}

func (w *world) snap(t *testing.T) snapshot {
	t.Helper()
	u := w.reloadUser(t, w.m.u.ID)
	return snapshot{email: u.Email, name: u.Name,
		grantsRevoked: count(t, w.e, "badge_grants", "user_id = ? AND revoked_at IS NOT NULL", u.ID),
		sessions:      count(t, w.e, "sessions", "user_id = ?", u.ID),
		files:         count(t, w.e, "application_files", "application_id = ?", w.m.app.ID),
		attempts:      count(t, w.e, "quiz_attempts", "user_id = ?", u.ID),
		tokens:        count(t, w.e, "oauth_tokens", "user_id = ?", u.ID),
		audit:         count(t, w.e, "audit_log", "action = 'user.delete'"),
	}
}

// A wrong or missing password or two-step code is refused with a clear message and
// changes nothing.
func TestDeleteRefused(t *testing.T) {
	w := newWorld(t)
	m := w.m
	before := w.snap(t)
	w.e.Client().Post("/users/delete", map[string]any{"password": "password123"}).Expect(http.StatusUnauthorized)
	m.c.Post("/users/delete", map[string]any{}).ExpectMsg(http.StatusBadRequest, auth.MsgCurrentPassword)
	m.c.Post("/users/delete", map[string]any{"password": "wrong-password"}).ExpectMsg(http.StatusBadRequest, auth.MsgCurrentWrong)
	m.c.Post("/users/delete", map[string]any{"password": 12}).Expect(http.StatusBadRequest)
	m.c.Post("/users/delete", "not an object").Expect(http.StatusBadRequest)

	// with two-step sign-in on, the code is required and must be right
	if _, err := w.e.DB.NewUpdate().Model((*model.User)(nil)).Set("totp_secret = ?", apptest.TestTOTPSecret).
		Set("totp_enabled_at = ?", model.Now()).Where("id = ?", m.u.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	m.c.Post("/users/delete", map[string]any{"password": "password123"}).ExpectMsg(http.StatusBadRequest, auth.MsgMFARequired)
	wrong := "000000"
	if code(t, apptest.TestTOTPSecret) == wrong {
		wrong = "111111"
	}
	m.c.Post("/users/delete", map[string]any{"password": "password123", "code": wrong}).ExpectMsg(http.StatusBadRequest, auth.MsgMFACodeWrong)
	m.c.Post("/users/delete", map[string]any{"password": "nope", "code": code(t, apptest.TestTOTPSecret)}).ExpectMsg(http.StatusBadRequest, auth.MsgCurrentWrong)

	if after := w.snap(t); after != before {
		t.Fatalf("a refused deletion changed %+v into %+v", before, after)
	}
	m.c.Get("/auth/me").Expect(http.StatusOK)

	// the sole administrator cannot delete their own account
	w.adminC.Post("/users/delete", map[string]any{"password": "password123", "code": code(t, apptest.TestTOTPSecret)}).
		ExpectMsg(http.StatusConflict, account.MsgLastAdmin)
	if u := w.reloadUser(t, w.admin.ID); u.Deleted() || u.Email != w.admin.Email {
		t.Fatal("the last admin was deleted")
	}
}

// A deletion revokes the grants for good (the public verify says revoked), keeps the
// payments without the person, erases the rest, ends the sessions, audits and mails.
func TestDeleteByMember(t *testing.T) {
	w := newWorld(t)
	e, m := w.e, w.m
	anon := e.Client()
	anon.Get("/verify/badge/" + m.grant.VerificationID).Expect(http.StatusOK) // cached as valid first
	other, oc := e.Member("grace@example.com")

	r := m.c.Post("/users/delete", map[string]any{"password": "password123"}).ExpectMsg(http.StatusOK, account.MsgDeleted)
	if r.Map()["redirect"] != "/" {
		t.Errorf("answer %s", r.Body)
	}
	// the session is over: the old cookie no longer works, here or replayed
	m.c.Get("/auth/me").Expect(http.StatusUnauthorized)
	withCookie(e, m.token).Get("/auth/me").Expect(http.StatusUnauthorized)
	if n := count(t, e, "sessions", "user_id = ?", m.u.ID); n != 0 {
		t.Errorf("%d sessions left", n)
	}
	relog := e.Client().Post("/auth/login", map[string]any{"email": m.u.Email, "password": "password123"})
	if relog.Status == http.StatusOK {
		t.Fatal("signed in to a deleted account")
	}

	// the grant: revoked with the reason, and the public verify says so
	g := apptest.Row[model.BadgeGrant](e, m.grant.ID)
	apptest.Expect(t, "grant", g, apptest.True("revoked", g.RevokedAt != nil),
		apptest.Eq("reason", g.RevocationReason, account.RevokeReason))
	var res struct {
		IsValid          bool   `json:"isValid"`
		Status           string `json:"status"`
		RevocationReason string `json:"revocationReason"`
	}
	anon.Get("/verify/badge/" + m.grant.VerificationID).Expect(http.StatusOK).JSON(&res)
	apptest.Expect(t, "verify", res, apptest.Eq("status", res.Status, "revoked"), apptest.True("!isValid", !res.IsValid),
		apptest.Eq("reason", res.RevocationReason, account.RevokeReason))
	list := anon.Abs("GET", "/credentials/status", nil).Expect(http.StatusOK).Text()
	if !strings.Contains(list, m.grant.PublicVerificationID) {
		t.Error("the revocation list does not list the grant")
	}

	// payments kept, pointing at the tombstone; the application keeps no personal field
	p := apptest.Row[model.Payment](e, m.payment.ID)
	apptest.Expect(t, "payment", p, apptest.Eq("amount", p.AmountCents, int64(4900)), apptest.Eq("user", p.UserID, m.u.ID),
		apptest.Eq("transaction", p.TransactionID, m.payment.TransactionID))
	a := apptest.Row[model.Application](e, m.app.ID)
	apptest.Expect(t, "application", a, apptest.Eq("FullName", a.FullName, ""), apptest.Eq("Email", a.Email, ""),
		apptest.Eq("Description", a.Description, ""), apptest.Eq("LinkedIn", a.LinkedIn, ""), apptest.Eq("price", a.PriceCents, int64(4900)))
	u := w.reloadUser(t, m.u.ID)
	apptest.Expect(t, "tombstone", u, apptest.True("deleted", u.Deleted()), apptest.Eq("name", u.Name, account.TombstoneName),
		apptest.Eq("email", u.Email, account.TombstoneEmail(m.u.ID)), apptest.Eq("hash", u.PasswordHash, ""),
		apptest.Eq("phone", u.Phone, ""), apptest.Eq("bio", u.Bio, ""), apptest.Eq("pic", u.ProfilePicKey, ""),
		apptest.Eq("totp", u.TOTPSecret, ""))
	for table, where := range map[string]string{"application_files": "application_id = '" + m.app.ID + "'", "quiz_attempts": "user_id = ?",
		"oauth_tokens": "user_id = ?", "oauth_consents": "user_id = ?", "mfa_recovery_codes": "user_id = ?", "hall_of_fame": "user_id = ?"} {
		args := []any{m.u.ID}
		if !strings.Contains(where, "?") {
			args = nil
		}
		if n := count(t, e, table, where, args...); n != 0 {
			t.Errorf("%d rows left in %s", n, table)
		}
	}
	// the stored files are gone
	for _, k := range []string{m.fileKey, m.picKey} {
		if _, err := os.Stat(filepath.Join(e.DataDir, "uploads", k)); !os.IsNotExist(err) {
			t.Errorf("stored file %s still there (%v)", k, err)
		}
	}
	// no public profile any more
	if r, _ := anon.Page("/profile/" + m.u.ID); r.Status != http.StatusNotFound {
		t.Errorf("public profile answers %d", r.Status)
	}
	// audited: the deletion (no address of the member) and the revocation
	var audits []model.AuditEntry
	if err := e.DB.NewSelect().Model(&audits).Where("target_id = ? AND action = 'user.delete'", m.u.ID).Scan(e.Ctx()); err != nil || len(audits) != 1 {
		t.Fatalf("audit %v %v", audits, err)
	}
	if audits[0].ActorEmail == m.u.Email || strings.Contains(audits[0].Before+audits[0].After, m.u.Email) || *audits[0].ActorID != m.u.ID {
		t.Errorf("audit row %+v", audits[0])
	}
	if n := count(t, e, "audit_log", "action = 'grant.revoke' AND target_id = ?", m.grant.ID); n != 1 {
		t.Errorf("%d revoke audit rows", n)
	}
	// the member is told, once; no separate revocation notice
	var mails []model.OutboxMessage
	if err := e.DB.NewSelect().Model(&mails).Where("to_addr = ?", m.u.Email).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	deleted := 0
	for _, ml := range mails {
		if strings.Contains(ml.Subject, "deleted") {
			deleted++
			if !strings.Contains(ml.BodyText, "Go Developer") || !strings.Contains(ml.BodyText, "as you asked") {
				t.Errorf("mail %s", ml.BodyText)
			}
		}
		if strings.Contains(ml.Subject, "revoked") {
			t.Errorf("a separate revocation mail: %s", ml.Subject)
		}
	}
	if deleted != 1 {
		t.Errorf("%d deletion mails", deleted)
	}
	// other members are untouched; the address is free for a new account
	oc.Get("/auth/me").Expect(http.StatusOK)
	if u := w.reloadUser(t, other.ID); u.Deleted() {
		t.Fatal("another member deleted")
	}
	e.Client().Post("/auth/register", map[string]any{"name": "Ada Again", "email": m.u.Email, "password": "a-new-Passw0rd!long"}).Expect(http.StatusCreated)
}

// An administrator deletes a member's account with their own password and code; never
// their own account this way.
func TestDeleteByAdmin(t *testing.T) {
	w := newWorld(t)
	e, m := w.e, w.m
	path := "/admin/users/" + m.u.ID + "/delete"
	_, oc := e.Member("grace@example.com")
	oc.Post(path, map[string]any{"password": "password123"}).Expect(http.StatusForbidden)
	e.Client().Post(path, map[string]any{"password": "password123"}).Expect(http.StatusUnauthorized)
	w.adminC.Post(path, map[string]any{"password": "password123"}).ExpectMsg(http.StatusBadRequest, auth.MsgMFARequired)
	w.adminC.Post(path, map[string]any{"password": "wrong", "code": "123456"}).ExpectMsg(http.StatusBadRequest, auth.MsgCurrentWrong)
	w.adminC.Post("/admin/users/"+w.admin.ID+"/delete", map[string]any{"password": "password123", "code": "123456"}).
		ExpectMsg(http.StatusForbidden, account.MsgNotYourself)
	w.adminC.Post("/admin/users/"+model.NewID()+"/delete", map[string]any{"password": "password123"}).ExpectMsg(http.StatusNotFound, account.MsgUserNotFound)
	w.adminC.Post("/admin/users/x/delete", map[string]any{"password": "password123"}).ExpectMsg(http.StatusNotFound, account.MsgUserNotFound)
	if u := w.reloadUser(t, m.u.ID); u.Deleted() {
		t.Fatal("deleted by a refused request")
	}
	m.c.Get("/auth/me").Expect(http.StatusOK)

	w.adminC.Post(path, map[string]any{"password": "password123", "code": code(t, apptest.TestTOTPSecret)}).ExpectMsg(http.StatusOK, account.MsgAdminDeleted)
	m.c.Get("/auth/me").Expect(http.StatusUnauthorized)
	if u := w.reloadUser(t, m.u.ID); !u.Deleted() {
		t.Fatal("not deleted")
	}
	if g := apptest.Row[model.BadgeGrant](e, m.grant.ID); g.RevokedAt == nil || g.RevocationReason != account.RevokeReason {
		t.Fatalf("grant %+v", g)
	}
	if n := count(t, e, "audit_log", "action = 'user.delete' AND target_id = ? AND actor_id = ? AND actor_email = ?", m.u.ID, w.admin.ID, w.admin.Email); n != 1 {
		t.Errorf("%d admin deletion audit rows", n)
	}
	if n := count(t, e, "audit_log", "action = 'grant.revoke' AND target_id = ? AND actor_id = ?", m.grant.ID, w.admin.ID); n != 1 {
		t.Errorf("%d revoke audit rows by the admin", n)
	}
	if n := count(t, e, "outbox", "to_addr = ? AND body_text LIKE ?", m.u.Email, "%by an administrator%"); n != 1 {
		t.Errorf("%d deletion mails", n)
	}
	// gone means gone: a second deletion or an export finds no such member
	w.adminC.Post(path, map[string]any{"password": "password123"}).ExpectMsg(http.StatusNotFound, account.MsgUserNotFound)
	w.adminC.Get("/admin/users/"+m.u.ID+"/export").ExpectMsg(http.StatusNotFound, account.MsgUserNotFound)

	// another administrator may be deleted by an administrator (not the last one)
	second, _ := e.Admin("second@meritmark.test")
	// a code is accepted once: the step used above is forgotten so that this step's code works again
	if _, err := e.DB.NewUpdate().Model((*model.User)(nil)).Set("totp_last_step = 0").Where("id = ?", w.admin.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	w.adminC.Post("/admin/users/"+second.ID+"/delete", map[string]any{"password": "password123", "code": code(t, apptest.TestTOTPSecret)}).ExpectMsg(http.StatusOK, account.MsgAdminDeleted)
	if u := w.reloadUser(t, second.ID); !u.Deleted() || u.Role != model.RoleUser {
		t.Fatalf("second admin %+v", u)
	}
}
