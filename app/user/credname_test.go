package user_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/model"
	"meritmark/app/user"
)

// The holder's choice to be named: new credentials (both forms) carry an unhashed name
// IdentityObject beside the hashed e-mail address; earlier ones keep what they say; the
// choice is audited.
func TestNameInCredentials(t *testing.T) {
	e := apptest.New(t)
	u, c := e.Member("grace@example.com")
	if _, err := e.DB.NewUpdate().Model(u).Set("name = ?", "Grace Hopper").WherePK().Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	b := addBadge(t, e, "COBOL", "Development")
	sign := func(pub string) (*credential.Payload, string) {
		t.Helper()
		g := addGrant(t, e, u, b, pub, model.Now(), false)
		if err := e.Deps.Issuer.SignGrant(e.Ctx(), e.DB, g, e.URL); err != nil {
			t.Fatal(err)
		}
		p, err := credential.ParseJWT(g.CredentialJWT)
		if err != nil {
			t.Fatal(err)
		}
		if probs := credential.Validate(p.Payload); len(probs) > 0 {
			t.Fatalf("the credential does not validate: %v", probs)
		}
		pl, err := credential.Decode(p.Payload)
		if err != nil {
			t.Fatal(err)
		}
		var ld string
		if err := e.DB.NewRaw("SELECT credential_ld FROM badge_grant_credentials WHERE grant_id = ?", g.ID).Scan(e.Ctx(), &ld); err != nil {
			t.Fatal(err)
		}
		return pl, ld
	}
	before, _ := sign(strings.Repeat("a", 32))
	if len(before.CredentialSubject.Identifier) != 1 || before.CredentialSubject.Identifier[0].IdentityType != "emailAddress" {
		t.Fatalf("by default the credential names no one: %+v", before.CredentialSubject.Identifier)
	}

	c.Put("/users/credential-name", map[string]any{}).ExpectMsg(http.StatusBadRequest, user.MsgNameChoiceMissing)
	c.Put("/users/credential-name", map[string]any{"nameInCredentials": "yes"}).Expect(http.StatusBadRequest)
	e.Client().Put("/users/credential-name", map[string]any{"nameInCredentials": true}).Expect(http.StatusUnauthorized)
	var out struct {
		Msg string `json:"msg"`
		On  bool   `json:"nameInCredentials"`
	}
	c.Put("/users/credential-name", map[string]any{"nameInCredentials": true}).Expect(http.StatusOK).JSON(&out)
	if out.Msg != user.MsgNameOn || !out.On || !reload(t, e, u.ID).NameInCredentials {
		t.Fatalf("switching on: %+v", out)
	}
	c.Put("/users/credential-name", map[string]any{"nameInCredentials": true}).ExpectMsg(http.StatusOK, user.MsgNameOn)

	named, ld := sign(strings.Repeat("b", 32))
	ids := named.CredentialSubject.Identifier
	if len(ids) != 2 || ids[0].IdentityType != "emailAddress" || !ids[0].Hashed ||
		ids[1] != (credential.IdentityObject{Type: "IdentityObject", IdentityHash: "Grace Hopper", IdentityType: "name", Hashed: false}) {
		t.Fatalf("identifiers %+v", ids)
	}
	var doc struct {
		CredentialSubject struct {
			Identifier []map[string]any `json:"identifier"`
		} `json:"credentialSubject"`
	}
	if err := json.Unmarshal([]byte(ld), &doc); err != nil || len(doc.CredentialSubject.Identifier) != 2 ||
		doc.CredentialSubject.Identifier[1]["identityHash"] != "Grace Hopper" || doc.CredentialSubject.Identifier[1]["hashed"] != false {
		t.Fatalf("JSON-LD identifiers %v %v", doc.CredentialSubject.Identifier, err)
	}
	if _, err := e.Deps.Issuer.VerifyLD(e.Ctx(), e.URL, []byte(ld)); err != nil {
		t.Fatalf("the named JSON-LD form does not verify: %v", err)
	}

	c.Put("/users/credential-name", map[string]any{"nameInCredentials": false}).ExpectMsg(http.StatusOK, user.MsgNameOff)
	if after, _ := sign(strings.Repeat("c", 32)); len(after.CredentialSubject.Identifier) != 1 {
		t.Fatalf("switched off, yet named: %+v", after.CredentialSubject.Identifier)
	}
	n, err := e.DB.NewSelect().Model((*model.AuditEntry)(nil)).Where("action = 'user.credential_name' AND target_id = ?", u.ID).Count(e.Ctx())
	if err != nil || n != 2 {
		t.Fatalf("%d user.credential_name audit entries (want 2: on, off), %v", n, err)
	}
}
