package verify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// world is a running app with an admin, a badge and helpers to grant it.
type world struct {
	e     *apptest.Env
	admin *apptest.Client
	badge *model.Badge
	seq   int
}

func newWorld(t *testing.T, opts ...apptest.Option) *world {
	t.Helper()
	e := apptest.New(t, opts...)
	_, adm := e.Admin("admin@meritmark.test")
	w := &world{e: e, admin: adm}
	w.badge = w.newBadge(t, "Go Developer", "Development", nil)
	return w
}

func (w *world) newBadge(t *testing.T, name, category string, validDays *int) *model.Badge {
	t.Helper()
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: name, Description: "Writes idiomatic, tested Go.", Category: category,
		Type: model.TypeSkill, Level: "intermediate", PriceCents: 4900, Icon: "Code", Color: "blue",
		Criteria: "Pass the Go quiz with 70% or more.", IsActive: true, ValidDays: validDays, CreatedAt: now, UpdatedAt: now}
	if _, err := w.e.DB.NewInsert().Model(b).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return b
}

// grant makes a member (name, email) hold b through the real flow: a paid application
// approved by the admin through the API. It returns the member and the grant.
func (w *world) grant(t *testing.T, name, email string, b *model.Badge) (*model.User, *model.BadgeGrant) {
	t.Helper()
	w.seq++
	u := w.e.CreateUser(email, "password123", model.RoleUser)
	u.Name = name
	if _, err := w.e.DB.NewUpdate().Model(u).Column("name").WherePK().Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	now := model.Now()
	a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: b.Type, Status: model.StatusPending,
		PaymentStatus: model.PaymentCompleted, FullName: name, Email: email, Position: "Engineer", PriceCents: b.PriceCents,
		PaymentCompletedAt: &now, CreatedAt: now, UpdatedAt: now}
	if _, err := w.e.DB.NewInsert().Model(a).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	w.admin.Put("/admin/applications/"+a.ID+"/approve", map[string]any{}).Expect(http.StatusOK)
	var g model.BadgeGrant
	if err := w.e.DB.NewSelect().Model(&g).Where("application_id = ?", a.ID).Scan(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return u, &g
}

func (w *world) reload(t *testing.T, id string) *model.BadgeGrant {
	t.Helper()
	var g model.BadgeGrant
	if err := w.e.DB.NewSelect().Model(&g).Where("id = ?", id).Scan(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return &g
}

// backdate moves a grant's issue date (and re-signs nothing: callers re-sign).
func (w *world) backdate(t *testing.T, id string, d time.Duration) {
	t.Helper()
	if _, err := w.e.DB.NewUpdate().Model((*model.BadgeGrant)(nil)).Set("granted_at = ?", model.Now().Add(-d)).
		Where("id = ?", id).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func email(i int) string { return fmt.Sprintf("holder%d@example.com", i) }

// statusBits reads the signed Bitstring Status List of purpose (its proof checked by our
// issuer, its purpose and id checked) and answers its bits.
func (w *world) statusBits(t *testing.T, purpose string) []byte {
	t.Helper()
	_, bits := w.statusList(t, purpose)
	return bits
}

func (w *world) statusList(t *testing.T, purpose string) (credential.StatusListCredential, []byte) {
	t.Helper()
	lr := w.e.Client().Abs("GET", "/credentials/status/"+purpose, nil).Expect(http.StatusOK)
	if _, err := w.e.Deps.Issuer.VerifyLD(w.e.Ctx(), w.e.URL, lr.Body); err != nil {
		t.Fatalf("%s list proof: %v", purpose, err)
	}
	var l credential.StatusListCredential
	if err := json.Unmarshal(lr.Body, &l); err != nil {
		t.Fatal(err)
	}
	if l.ID != w.e.URL+"/credentials/status/"+purpose || l.CredentialSubject.StatusPurpose != purpose || l.Issuer != credential.DIDWeb(w.e.URL) {
		t.Fatalf("%s list %s", purpose, lr.Body)
	}
	bits, err := credential.DecodeList(l.CredentialSubject.EncodedList)
	if err != nil || len(bits)*8 < credential.MinListBits {
		t.Fatalf("%s list of %d bytes: %v", purpose, len(bits), err)
	}
	return l, bits
}
