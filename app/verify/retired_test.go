package verify_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"meritmark/app/credential"
	"meritmark/app/model"
	"meritmark/app/verify"
)

// A credential whose signing key was retired (`meritmark rotate-key --retire`, here by
// another instance: straight in signing_keys) fails on the verify API and page with the
// reason, although nothing about its grant changed.
func TestRetiredKeyFailsVerification(t *testing.T) {
	old := credential.RefreshEvery
	credential.RefreshEvery = 0
	defer func() { credential.RefreshEvery = old }()
	w := newWorld(t)
	_, g := w.grant(t, "Ada Lovelace", "ada@example.com", w.badge)
	c := w.e.Client()
	var r struct {
		result
		Checks struct {
			Signature  bool `json:"signature"`
			KeyRetired bool `json:"keyRetired"`
		} `json:"checks"`
	}
	c.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).JSON(&r)
	if !r.IsValid || r.Checks.KeyRetired {
		t.Fatalf("before: %+v", r)
	}
	es := w.e.Deps.Issuer.Keys.ActiveES256().KID
	if _, err := w.e.DB.NewUpdate().Model((*credential.SigningKey)(nil)).Set("retired_at = ?", model.Now()).Where("kid = ?", es).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // past the cache's freshness
	r.Checks.KeyRetired = false
	c.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).JSON(&r)
	if r.IsValid || r.Status != verify.StatusInvalid || r.Reason != verify.MsgKeyRetired || !r.Checks.KeyRetired || r.Checks.Signature {
		t.Fatalf("after the key was retired: %+v", r)
	}
	_, props := c.Page("/verify/" + g.PublicVerificationID)
	b, _ := json.Marshal(props)
	if !strings.Contains(string(b), verify.MsgKeyRetired) {
		t.Fatalf("the page does not say the key was retired: %s", b)
	}
}
