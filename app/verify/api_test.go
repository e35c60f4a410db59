package verify_test

import (
	"bytes"
	"crypto"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/grant"
	"meritmark/app/halloffame"
	"meritmark/app/model"
	"meritmark/app/verify"
)

type result struct {
	IsValid          bool       `json:"isValid"`
	Status           string     `json:"status"`
	Reason           string     `json:"reason"`
	RevocationReason string     `json:"revocationReason"`
	VerificationID   string     `json:"verificationId"`
	IssuedAt         time.Time  `json:"issuedAt"`
	ExpiresAt        *time.Time `json:"expiresAt"`
	Badge            struct {
		Name, Type, Description, Category string
	} `json:"badge"`
	User struct {
		Name, Email, Avatar string
	} `json:"user"`
	Checks struct {
		Signature  bool   `json:"signature"`
		IssuerKey  string `json:"issuerKey"`
		NotRevoked bool   `json:"notRevoked"`
		NotExpired bool   `json:"notExpired"`
		// IssuerTrusted: always for an id; a file may name another issuer
		IssuerTrusted bool `json:"issuerTrusted"`
	} `json:"checks"`
	Credential struct {
		ID, JSON, JWT, PNG, VerifyURL, LinkedInAddURL string
	} `json:"credential"`
}

func TestVerifyByEitherIDAsEntered(t *testing.T) {
	w := newWorld(t)
	_, g := w.grant(t, "Ada Lovelace", "Ada@Example.com", w.badge)
	if g.CredentialJWT == "" || g.CredentialOrigin != w.e.URL || g.StatusIndex < 1 {
		t.Fatalf("approval did not sign the credential: jwt %d bytes, origin %q, status index %d", len(g.CredentialJWT), g.CredentialOrigin, g.StatusIndex)
	}
	visitor := w.e.Client()

	var r result
	visitor.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "a fresh grant does not verify", r,
		apptest.True("r.IsValid", r.IsValid),
		apptest.Eq("r.Status", r.Status, "valid"),
		apptest.Eq("r.Reason", r.Reason, ""))
	apptest.Expect(t, "badge", r.Badge,
		apptest.Eq("r.Badge.Name", r.Badge.Name, "Go Developer"),
		apptest.Eq("r.Badge.Type", r.Badge.Type, "skill"),
		apptest.Eq("r.Badge.Category", r.Badge.Category, "Development"),
		apptest.Eq("r.Badge.Description", r.Badge.Description, "Writes idiomatic, tested Go."))
	apptest.Expect(t, "holder (the e-mail must be masked)", r.User,
		apptest.Eq("r.User.Name", r.User.Name, "Ada Lovelace"),
		apptest.Eq("r.User.Email", r.User.Email, "A***@Example.com"))
	apptest.Expect(t, "checks", r.Checks,
		apptest.True("r.Checks.Signature", r.Checks.Signature),
		apptest.True("r.Checks.NotRevoked", r.Checks.NotRevoked),
		apptest.True("r.Checks.NotExpired", r.Checks.NotExpired),
		apptest.True("r.Checks.IssuerKey != \"\"", r.Checks.IssuerKey != ""),
		apptest.True("r.Checks.IssuerTrusted", r.Checks.IssuerTrusted))
	apptest.Expect(t, "ids and dates", r,
		apptest.Eq("r.VerificationID", r.VerificationID, g.VerificationID),
		apptest.True("r.IssuedAt.Equal(g.GrantedAt.Truncate(time.Microsecond))", r.IssuedAt.Equal(g.GrantedAt.Truncate(time.Microsecond))),
		apptest.True("r.ExpiresAt == nil", r.ExpiresAt == nil))
	want := w.e.URL + "/credentials/" + g.PublicVerificationID
	apptest.Expect(t, "links", r.Credential,
		apptest.Eq("r.Credential.ID", r.Credential.ID, want),
		apptest.Eq("r.Credential.JWT", r.Credential.JWT, want+".jwt"),
		apptest.Eq("r.Credential.PNG", r.Credential.PNG, want+".png"),
		apptest.Eq("r.Credential.VerifyURL", r.Credential.VerifyURL, w.e.URL+"/verify/"+g.PublicVerificationID),
		apptest.True("strings.HasPrefix(r.Credential.LinkedInAddURL, \"https://www.linkedin.com/profile/add?\")", strings.HasPrefix(r.Credential.LinkedInAddURL, "https://www.linkedin.com/profile/add?")))
	// the key named is the one in the JWKS
	var set credential.JWKS
	visitor.Abs("GET", "/.well-known/jwks.json", nil).Expect(http.StatusOK).JSON(&set)
	if set.Find(r.Checks.IssuerKey) == nil {
		t.Fatalf("issuer key %s is not in the JWKS %+v", r.Checks.IssuerKey, set)
	}

	// verification ids: case-insensitive, spaces and dashes optional, O/I/L read as 0/1/1
	loose := "  " + strings.ToLower(strings.ReplaceAll(g.VerificationID, "-", " ")) + " "
	visitor.Get("/verify/badge/" + urlPath(loose)).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "loosely typed verification id", r,
		apptest.True("r.IsValid", r.IsValid),
		apptest.Eq("r.VerificationID", r.VerificationID, g.VerificationID))
	// public ids: the same case rule (the verify page says ids are not case-sensitive); the
	// answer always names the one id a holder quotes, MM-XXXX-XXXX-XXXX; a pasted link works too
	for _, id := range []string{g.PublicVerificationID, strings.ToUpper(g.PublicVerificationID)} {
		visitor.Get("/verify/badge/" + id).Expect(http.StatusOK).JSON(&r)
		if !r.IsValid || r.VerificationID != g.VerificationID {
			t.Fatalf("public id %s: %+v", id, r)
		}
	}
	visitor.Get("/verify/badge/" + urlPath(w.e.URL+"/verify/"+g.PublicVerificationID)).Expect(http.StatusOK)

	// unknown and malformed ids: the same 404, byte for byte
	unknown := visitor.Get("/verify/badge/MM-0000-0000-0000").Expect(http.StatusNotFound)
	upper := visitor.Get("/verify/badge/" + strings.Repeat("B", 32)).Expect(http.StatusNotFound)
	malformed := visitor.Get("/verify/badge/not-an-id%3Cscript%3E").Expect(http.StatusNotFound)
	unknownPublic := visitor.Get("/verify/badge/" + strings.Repeat("a", 32)).Expect(http.StatusNotFound)
	for _, res := range []string{upper.Text(), malformed.Text(), unknownPublic.Text()} {
		if res != unknown.Text() {
			t.Fatalf("different answers for unknown and malformed ids: %q vs %q", res, unknown.Text())
		}
	}
	if unknown.Msg() != verify.MsgNotVerified || unknown.Map()["isValid"] != false {
		t.Fatalf("404 body %s", unknown.Text())
	}
}

func urlPath(s string) string {
	return strings.NewReplacer(" ", "%20", "/", "%2F", ":", "%3A").Replace(s)
}

// TestCredentialWithIndependentJOSE checks our credentials with go-jose (not the code that
// signed them): the signature against the published JWKS, the VC-JWT claims, the OB 3.0
// shape, and that one changed byte breaks it.
func TestCredentialWithIndependentJOSE(t *testing.T) {
	w := newWorld(t)
	u, g := w.grant(t, "Grace Hopper", "grace@example.com", w.badge)
	visitor := w.e.Client()
	tok := visitor.Abs("GET", "/credentials/"+g.PublicVerificationID+".jwt", nil).Expect(http.StatusOK).Text()
	if tok != g.CredentialJWT {
		t.Fatal("the .jwt download is not the stored credential")
	}
	var set jose.JSONWebKeySet
	visitor.Abs("GET", "/.well-known/jwks.json", nil).Expect(http.StatusOK).JSON(&set)

	// ES256 only (what the 1EdTech validator accepts)
	jws, err := jose.ParseSignedCompact(tok, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatal(err)
	}
	h := jws.Signatures[0].Header
	// issue 36: the kid is the key's verification method in our DID document
	did := credential.DIDWeb(w.e.URL)
	apptest.Expect(t, "JOSE header", h,
		apptest.Eq("h.Algorithm", h.Algorithm, "ES256"),
		apptest.True("strings.HasPrefix(h.KeyID, did+\"#\")", strings.HasPrefix(h.KeyID, did+"#")),
		apptest.Eq("h.ExtraHeaders[\"typ\"]", h.ExtraHeaders["typ"], "JWT"))
	thumb := strings.TrimPrefix(h.KeyID, did+"#")
	// as a DID-based JWT verifier does: the kid in did.json, a JsonWebKey under assertionMethod
	var dd struct {
		ID                 string   `json:"id"`
		AssertionMethod    []string `json:"assertionMethod"`
		VerificationMethod []struct {
			ID, Type, Controller string
			PublicKeyJwk         json.RawMessage `json:"publicKeyJwk"`
		} `json:"verificationMethod"`
	}
	visitor.Abs("GET", "/.well-known/did.json", nil).Expect(http.StatusOK).JSON(&dd)
	var fromDID *jose.JSONWebKey
	for _, vm := range dd.VerificationMethod {
		if vm.ID == h.KeyID && vm.Type == "JsonWebKey" && vm.Controller == dd.ID && slices.Contains(dd.AssertionMethod, vm.ID) {
			fromDID = &jose.JSONWebKey{}
			if err := json.Unmarshal(vm.PublicKeyJwk, fromDID); err != nil {
				t.Fatal(err)
			}
		}
	}
	if fromDID == nil || dd.ID != did || !fromDID.Valid() || !fromDID.IsPublic() {
		t.Fatalf("kid %s is not a JsonWebKey under assertionMethod in did.json", h.KeyID)
	}
	if tp, err := fromDID.Thumbprint(cryptoSHA256); err != nil || b64(tp) != thumb {
		t.Fatalf("the kid does not end in the key's RFC 7638 thumbprint: %v", err)
	}
	if _, err := jws.Verify(fromDID); err != nil {
		t.Fatalf("the key in did.json does not verify: %v", err)
	}
	// the same key is in the JWKS, named by its key URL, which answers the public JWK
	keyURL := w.e.URL + "/.well-known/jwks/" + thumb
	keys := set.Key(keyURL)
	if len(keys) != 1 {
		t.Fatalf("%s not in the JWKS", keyURL)
	}
	apptest.Expect(t, "JWK", keys[0],
		apptest.True("keys[0].Valid()", keys[0].Valid()),
		apptest.Eq("keys[0].Algorithm", keys[0].Algorithm, "ES256"),
		apptest.Eq("keys[0].Use", keys[0].Use, "sig"))
	var one jose.JSONWebKey
	kidRes := visitor.Abs("GET", "/.well-known/jwks/"+thumb, nil).Expect(http.StatusOK)
	if ct := kidRes.Header.Get("Content-Type"); ct != "application/jwk+json" {
		t.Fatalf("key URL content type %q", ct)
	}
	if err := json.Unmarshal(kidRes.Body, &one); err != nil || one.KeyID != keyURL || !one.Valid() || !one.IsPublic() {
		t.Fatalf("key URL answers %s: %v", kidRes.Body, err)
	}
	if _, err := jws.Verify(one); err != nil {
		t.Fatalf("the JWK at the key URL does not verify: %v", err)
	}
	payload, err := jws.Verify(keys[0])
	if err != nil {
		t.Fatalf("go-jose rejects our signature: %v", err)
	}

	// the payload: the credential's members at the top level and the registered claims
	var m map[string]any
	if err := json.Unmarshal(payload, &m); err != nil {
		t.Fatal(err)
	}
	origin := w.e.URL
	id := origin + "/credentials/" + g.PublicVerificationID
	checks := map[string]any{
		"id": id, "jti": id, "iss": credential.DIDWeb(origin), "sub": origin + "/profile/" + u.ID,
		"nbf": float64(g.GrantedAt.Unix()), "name": "Go Developer",
	}
	for k, v := range checks {
		if m[k] != v {
			t.Errorf("payload %s = %v, want %v", k, m[k], v)
		}
	}
	if _, ok := m["exp"]; ok {
		t.Error("exp without an expiry")
	}
	if _, ok := m["vc"]; ok {
		t.Error("OB 3.0 puts the credential at the top level, not under vc")
	}
	ctx := m["@context"].([]any)
	if len(ctx) != 3 || ctx[0] != "https://www.w3.org/ns/credentials/v2" || ctx[1] != "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json" ||
		ctx[2] != "https://purl.imsglobal.org/spec/ob/v3p0/extensions.json" {
		t.Errorf("@context %v", ctx)
	}
	if probs := credential.Validate(payload); len(probs) > 0 {
		t.Fatalf("not an OB 3.0 credential: %v", probs)
	}
	issuer := m["issuer"].(map[string]any)
	if issuer["id"] != credential.DIDWeb(origin) || !strings.HasPrefix(issuer["id"].(string), "did:web:127.0.0.1%3A") || issuer["name"] != "Meritmark" ||
		issuer["url"] != origin || issuer["type"].([]any)[0] != "Profile" || issuer["image"].(map[string]any)["id"] != origin+"/issuer/image.png" {
		t.Errorf("issuer %v", issuer)
	}
	sub := m["credentialSubject"].(map[string]any)
	ident := sub["identifier"].([]any)[0].(map[string]any)
	if ident["type"] != "IdentityObject" || ident["identityType"] != "emailAddress" || ident["hashed"] != true ||
		ident["identityHash"] != credential.IdentityHash("GRACE@example.com ", ident["salt"].(string)) {
		t.Errorf("identifier %v", ident)
	}
	ach := sub["achievement"].(map[string]any)
	if ach["id"] != origin+"/achievements/"+w.badge.ID || ach["name"] != "Go Developer" ||
		ach["criteria"].(map[string]any)["narrative"] != "Pass the Go quiz with 70% or more." ||
		ach["image"].(map[string]any)["type"] != "Image" {
		t.Errorf("achievement %v", ach)
	}
	// issue 36: both forms name a BitstringStatusListEntry per purpose at the grant's index
	st, _ := m["credentialStatus"].([]any)
	idx := itoa(g.StatusIndex)
	for i, purpose := range []string{"revocation", "suspension"} {
		e := map[string]any{}
		if i < len(st) {
			e, _ = st[i].(map[string]any)
		}
		list := origin + "/credentials/status/" + purpose
		apptest.Want(t, "credentialStatus "+purpose, e,
			apptest.Eq("len(st)", len(st), 2),
			apptest.Eq[any]("type", e["type"], "BitstringStatusListEntry"),
			apptest.Eq[any]("statusPurpose", e["statusPurpose"], purpose),
			apptest.Eq[any]("statusListIndex", e["statusListIndex"], idx),
			apptest.Eq[any]("statusListCredential", e["statusListCredential"], list),
			apptest.Eq[any]("id", e["id"], list+"#"+idx))
	}
	if sc := m["credentialSchema"].([]any); len(sc) != 1 || sc[0].(map[string]any)["type"] != "1EdTechJsonSchemaValidator2019" ||
		sc[0].(map[string]any)["id"] != "https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json" {
		t.Errorf("credentialSchema %v", m["credentialSchema"])
	}
	if m["awardedDate"] != m["validFrom"] {
		t.Errorf("awardedDate %v", m["awardedDate"])
	}

	// one byte changed anywhere fails, with go-jose and with ours
	parts := strings.Split(tok, ".")
	for i, part := range parts {
		b := []byte(part)
		j := len(b) / 2
		if b[j] == 'A' {
			b[j] = 'B'
		} else {
			b[j] = 'A'
		}
		bad := strings.Join(append(append(append([]string{}, parts[:i]...), string(b)), parts[i+1:]...), ".")
		if js, err := jose.ParseSignedCompact(bad, []jose.SignatureAlgorithm{jose.ES256}); err == nil {
			if _, err := js.Verify(keys[0]); err == nil {
				t.Fatalf("go-jose accepts the credential with part %d changed", i)
			}
		}
		p, err := credential.ParseJWT(bad)
		if err == nil {
			if _, err = p.VerifySignature(set2source(set)); err == nil {
				t.Fatalf("our verifier accepts the credential with part %d changed", i)
			}
		}
	}

	// a tampered credential in the database fails verification (signature check false)
	tampered := parts[0] + "." + parts[1] + "." + flip(parts[2])
	if _, err := w.e.DB.NewUpdate().Model((*model.BadgeGrant)(nil)).Set("credential_jwt = ?", tampered).Where("id = ?", g.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // past the cache's freshness
	var r result
	visitor.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "a tampered stored credential still verifies", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.True("!r.Checks.Signature", !r.Checks.Signature),
		apptest.Eq("r.Status", r.Status, "invalid"),
		apptest.Eq("r.Reason", r.Reason, verify.MsgSignatureFailed))
}

func flip(s string) string {
	b := []byte(s)
	if b[3] == 'A' {
		b[3] = 'B'
	} else {
		b[3] = 'A'
	}
	return string(b)
}

func set2source(set jose.JSONWebKeySet) credential.KeySource {
	return func(kid string) *credential.Key {
		for _, k := range set.Key(kid) {
			raw, _ := json.Marshal(k)
			var j credential.JWK
			_ = json.Unmarshal(raw, &j)
			key, err := credential.KeyFromJWK(j)
			if err == nil {
				return key
			}
		}
		return nil
	}
}

func TestDocumentsAndBakedPNG(t *testing.T) {
	w := newWorld(t)
	_, g := w.grant(t, "Alan Turing", "alan@example.com", w.badge)
	c := w.e.Client()
	base := "/credentials/" + g.PublicVerificationID

	// the credential as JSON: the VC (no JWT claims), cacheable with an ETag
	res := c.Abs("GET", base+".json", nil).Expect(http.StatusOK)
	if probs := credential.Validate(res.Body); len(probs) > 0 {
		t.Fatalf("credential JSON: %v", probs)
	}
	m := res.Map()
	apptest.Expect(t, "credential JSON", m,
		apptest.True("m[\"jti\"] == nil", m["jti"] == nil),
		apptest.Eq[any]("m[\"id\"]", m["id"], w.e.URL+base))
	tag := res.Header.Get("ETag")
	apptest.Expect(t, "headers", res.Header,
		apptest.True("tag != \"\"", tag != ""),
		apptest.True("res.Header.Get(\"Cache-Control\") != \"\"", res.Header.Get("Cache-Control") != ""),
		apptest.True("strings.HasPrefix(res.Header.Get(\"Content-Type\"), \"application/ld+json\")", strings.HasPrefix(res.Header.Get("Content-Type"), "application/ld+json")))
	if got := c.Raw("GET", base+".json", nil, map[string]string{"If-None-Match": tag}); got.Status != http.StatusNotModified {
		t.Fatalf("If-None-Match: %d", got.Status)
	}
	// without an extension: JSON for programs, the verify page for browsers
	c.Raw("GET", base, nil, map[string]string{"Accept": "application/json"}).Expect(http.StatusOK)
	if r := c.Raw("GET", base, nil, map[string]string{"Accept": "text/html"}); r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/verify/"+g.PublicVerificationID {
		t.Fatalf("browser at the credential id: %d %s", r.Status, r.Header.Get("Location"))
	}

	// the baked PNG: a real PNG whose openbadgecredential iTXt chunk is the credential
	res = c.Abs("GET", base+".png?download=1", nil).Expect(http.StatusOK)
	apptest.Expect(t, "png headers", res.Header,
		apptest.Eq("res.Header.Get(\"Content-Type\")", res.Header.Get("Content-Type"), "image/png"),
		apptest.True("strings.Contains(res.Header.Get(\"Content-Disposition\"), \"attachment\")", strings.Contains(res.Header.Get("Content-Disposition"), "attachment")))
	if _, err := png.Decode(bytes.NewReader(res.Body)); err != nil {
		t.Fatalf("baked image is not a PNG: %v", err)
	}
	tok, err := credential.Unbake(res.Body)
	if err != nil || tok != g.CredentialJWT {
		t.Fatalf("unbaked %q, %v", tok, err)
	}
	if !bytes.Contains(res.Body, []byte("iTXtopenbadgecredential\x00\x00\x00\x00\x00")) {
		t.Fatal("the credential is not in an uncompressed iTXt chunk keyed openbadgecredential")
	}

	// issuer, achievement, its image
	iss := c.Abs("GET", "/issuer", nil).Expect(http.StatusOK).Map()
	apptest.Expect(t, "issuer", iss,
		apptest.Eq[any]("iss[\"id\"]", iss["id"], credential.DIDWeb(w.e.URL)),
		apptest.Eq("iss[\"name\"]", iss["name"], "Meritmark"))
	apptest.Expect(t, "issuer", iss,
		apptest.Eq("iss[\"type\"].([]any)[0]", iss["type"].([]any)[0], "Profile"),
		apptest.True("iss[\"@context\"] != nil", iss["@context"] != nil))
	ach := c.Abs("GET", "/achievements/"+w.badge.ID, nil).Expect(http.StatusOK).Map()
	apptest.Expect(t, "achievement", ach,
		apptest.Eq[any]("ach[\"id\"]", ach["id"], w.e.URL+"/achievements/"+w.badge.ID),
		apptest.Eq("ach[\"name\"]", ach["name"], "Go Developer"))
	apptest.Expect(t, "achievement", ach,
		apptest.Eq("ach[\"type\"].([]any)[0]", ach["type"].([]any)[0], "Achievement"))
	img := c.Abs("GET", "/achievements/"+w.badge.ID+"/image.png", nil).Expect(http.StatusOK)
	if cfg, err := png.DecodeConfig(bytes.NewReader(img.Body)); err != nil || cfg.Width != 600 {
		t.Fatalf("achievement image: %v %v", cfg, err)
	}
	// unknown and malformed: 404
	for _, p := range []string{"/achievements/" + model.NewID(), "/achievements/nope", "/credentials/" + strings.Repeat("b", 32) + ".jwt",
		"/credentials/nope.png", base + ".exe", "/credentials/" + strings.Repeat("c", 32) + "/card.png"} {
		c.Abs("GET", p, nil).Expect(http.StatusNotFound)
	}
}

func TestRevokeAndExpiryShowTheReasons(t *testing.T) {
	w := newWorld(t)
	holder, g := w.grant(t, "Katherine Johnson", "kj@example.com", w.badge)
	c := w.e.Client()
	path := "/admin/grants/" + g.ID

	// validation
	w.admin.Put(path+"/revoke", map[string]any{}).ExpectMsg(http.StatusBadRequest, grant.MsgCategoryInvalid)
	w.admin.Put(path+"/revoke", map[string]any{"reason": "Submitted documents were not genuine."}).ExpectMsg(http.StatusBadRequest, grant.MsgCategoryInvalid)
	w.admin.Put(path+"/revoke", map[string]any{"category": "holder lied", "reason": "x"}).ExpectMsg(http.StatusBadRequest, grant.MsgCategoryInvalid)
	w.admin.Put(path+"/revoke", map[string]any{"category": "other", "reason": "   "}).ExpectMsg(http.StatusBadRequest, grant.MsgOtherNeedsDetail)
	w.admin.Put(path+"/revoke", map[string]any{"category": "fraud", "reason": strings.Repeat("x", 501)}).ExpectMsg(http.StatusBadRequest, grant.MsgReasonTooLong)
	w.admin.Put("/admin/grants/"+model.NewID()+"/revoke", map[string]any{"category": "fraud", "reason": "x"}).ExpectMsg(http.StatusNotFound, grant.MsgGrantNotFound)
	w.admin.Put("/admin/grants/nope/revoke", map[string]any{"category": "fraud", "reason": "x"}).ExpectMsg(http.StatusNotFound, grant.MsgGrantNotFound)
	_, member := w.e.Member("someone@example.com")
	member.Put(path+"/revoke", map[string]any{"category": "fraud", "reason": "x"}).Expect(http.StatusForbidden)
	if r := w.reload(t, g.ID); r.RevokedAt != nil {
		t.Fatal("a refused revoke changed the grant")
	}

	// warm the caches, then revoke: the next answer shows it at once
	c.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK)
	c.Page("/verify/" + g.PublicVerificationID)
	res := w.admin.Put(path+"/revoke", map[string]any{"category": "fraud", "reason": "  Submitted  documents were not genuine. "}).ExpectMsg(http.StatusOK, grant.MsgRevoked).Map()
	gr := res["grant"].(map[string]any)
	apptest.Expect(t, "grant", gr,
		apptest.Eq("gr[\"revocationReason\"]", gr["revocationReason"], "Fraudulent or misrepresented evidence: Submitted documents were not genuine."),
		apptest.True("gr[\"revokedAt\"] != nil", gr["revokedAt"] != nil))
	w.admin.Put(path+"/revoke", map[string]any{"category": "fraud", "reason": "again"}).ExpectMsg(http.StatusConflict, grant.MsgAlreadyRevoked)

	var r result
	c.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "revoked", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.Eq("r.Status", r.Status, "revoked"),
		apptest.True("!r.Checks.NotRevoked", !r.Checks.NotRevoked),
		apptest.True("r.Checks.Signature", r.Checks.Signature),
		// the category's label only: the note stays with the administrators
		apptest.Eq("r.RevocationReason", r.RevocationReason, "Fraudulent or misrepresented evidence"),
		apptest.Eq("r.Reason", r.Reason, "This badge was revoked on "+time.Now().UTC().Format("Jan 2, 2006")+". Reason: Fraudulent or misrepresented evidence"))
	if body := c.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).Body; bytes.Contains(body, []byte("genuine")) {
		t.Fatalf("the verify API shows the administrator's note: %s", body)
	}
	_, props := c.Page("/verify/" + g.PublicVerificationID)
	pr := props["page"].(map[string]any)["result"].(map[string]any)
	apptest.Expect(t, "page after revoke", pr,
		apptest.Eq("pr[\"isValid\"]", pr["isValid"], false),
		apptest.Eq("pr[\"status\"]", pr["status"], "revoked"),
		apptest.Eq("pr[\"revocationReason\"]", pr["revocationReason"], "Fraudulent or misrepresented evidence"))
	// the revocation list, the audit log, the holder told, the Hall of Fame
	// the 1EdTech Revocation List: revokedCredential entries with revoked: true, no reason
	listRes := c.Abs("GET", "/credentials/status", nil).Expect(http.StatusOK)
	list := listRes.Map()
	entries, _ := list["revokedCredential"].([]any)
	if len(entries) != 1 || entries[0].(map[string]any)["id"] != w.e.URL+"/credentials/"+g.PublicVerificationID ||
		entries[0].(map[string]any)["revoked"] != true || len(entries[0].(map[string]any)) != 2 ||
		list["id"] != w.e.URL+"/credentials/status" || bytes.Contains(listRes.Body, []byte("genuine")) {
		t.Fatalf("status list %s", listRes.Body)
	}
	var audits []model.AuditEntry
	if err := w.e.DB.NewSelect().Model(&audits).Where("target_id = ? AND action = 'grant.revoke'", g.ID).Scan(w.e.Ctx()); err != nil || len(audits) != 1 ||
		!strings.Contains(audits[0].After, "not genuine") || audits[0].ActorEmail != "admin@meritmark.test" {
		t.Fatalf("audit %v %v", audits, err)
	}
	if n, _ := w.e.DB.NewSelect().Model((*model.OutboxMessage)(nil)).Where("to_addr = ? AND subject LIKE ?", holder.Email, "%revoked%").Count(w.e.Ctx()); n != 1 {
		t.Fatalf("%d revocation e-mails", n)
	}
	if n, _ := w.e.DB.NewSelect().Table("hall_of_fame").Where("user_id = ?", holder.ID).Count(w.e.Ctx()); n != 0 {
		t.Fatal("a revoked grant still counts in the Hall of Fame")
	}

	// expiry: a second holder; issued ten days ago, expired yesterday
	_, g2 := w.grant(t, "Dorothy Vaughan", "dv@example.com", w.badge)
	w.backdate(t, g2.ID, 10*24*time.Hour)
	p2 := "/admin/grants/" + g2.ID + "/expiry"
	w.admin.Put(p2, map[string]any{}).ExpectMsg(http.StatusBadRequest, grant.MsgExpiryRequired)
	w.admin.Put(p2, map[string]any{"expiresAt": "next tuesday"}).ExpectMsg(http.StatusBadRequest, grant.MsgExpiryInvalid)
	w.admin.Put(p2, map[string]any{"expiresAt": 12}).ExpectMsg(http.StatusBadRequest, grant.MsgExpiryInvalid)
	w.admin.Put(p2, map[string]any{"expiresAt": time.Now().Add(-20 * 24 * time.Hour).Format(time.RFC3339)}).ExpectMsg(http.StatusBadRequest, grant.MsgExpiryBefore)
	before := w.reload(t, g2.ID).CredentialJWT
	yesterday := time.Now().UTC().Add(-24 * time.Hour).Truncate(time.Second)
	w.admin.Put(p2, map[string]any{"expiresAt": yesterday.Format(time.RFC3339)}).ExpectMsg(http.StatusOK, grant.MsgExpirySet)
	after := w.reload(t, g2.ID)
	apptest.Expect(t, "expiry not stored or credential not re-signed", after.ExpiresAt,
		apptest.True("after.CredentialJWT != before", after.CredentialJWT != before),
		apptest.True("after.ExpiresAt != nil", after.ExpiresAt != nil))
	apptest.Expect(t, "expiry not stored or credential not re-signed", after.ExpiresAt,
		apptest.True("after.ExpiresAt.Equal(yesterday)", after.ExpiresAt.Equal(yesterday)))
	p, _ := credential.ParseJWT(after.CredentialJWT)
	pl, _ := credential.Decode(p.Payload)
	if pl.ValidUntil != yesterday.Format(time.RFC3339) || pl.Exp != yesterday.Unix() || pl.Nbf != after.GrantedAt.Unix() {
		t.Fatalf("re-signed credential: validUntil %s exp %d nbf %d", pl.ValidUntil, pl.Exp, pl.Nbf)
	}
	c.Get("/verify/badge/" + g2.PublicVerificationID).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "expired", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.Eq("r.Status", r.Status, "expired"),
		apptest.True("!r.Checks.NotExpired", !r.Checks.NotExpired),
		apptest.True("r.Checks.Signature", r.Checks.Signature),
		apptest.True("r.Checks.NotRevoked", r.Checks.NotRevoked),
		apptest.Eq("r.Reason", r.Reason, "This badge expired on "+yesterday.Format("Jan 2, 2006")+"."),
		apptest.True("r.ExpiresAt != nil", r.ExpiresAt != nil))
	// cleared: valid again, no exp in the new signature
	w.admin.Put(p2, map[string]any{"expiresAt": nil}).ExpectMsg(http.StatusOK, grant.MsgExpiryCleared)
	c.Get("/verify/badge/" + g2.PublicVerificationID).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "after clearing the expiry", r,
		apptest.True("r.IsValid", r.IsValid),
		apptest.True("r.ExpiresAt == nil", r.ExpiresAt == nil))
	if n, _ := w.e.DB.NewSelect().Model((*model.AuditEntry)(nil)).Where("target_id = ? AND action = 'grant.expiry'", g2.ID).Count(w.e.Ctx()); n != 2 {
		t.Fatalf("%d expiry audit entries", n)
	}
	// a badge with valid_days: validUntil from the start
	days := 30
	b3 := w.newBadge(t, "Cloud Security", "DevOps", &days)
	_, g3 := w.grant(t, "Mary Jackson", "mj@example.com", b3)
	p, _ = credential.ParseJWT(g3.CredentialJWT)
	pl, _ = credential.Decode(p.Payload)
	if g3.ExpiresAt == nil || pl.Exp != g3.ExpiresAt.Truncate(time.Second).Unix() || pl.ValidUntil == "" {
		t.Fatalf("valid_days: expires %v, exp %d", g3.ExpiresAt, pl.Exp)
	}
	var hof halloffame.Result
	c.Get("/hall-of-fame").Expect(http.StatusOK).JSON(&hof)
	apptest.Expect(t, "hall of fame after a revoke", hof.Stats,
		apptest.Eq("hof.Stats.Earners", hof.Stats.Earners, 2),
		apptest.Eq("hof.Stats.TotalBadges", hof.Stats.TotalBadges, 2))
}

func TestRejectAfterApprovalRevokesAndReapproveRestores(t *testing.T) {
	w := newWorld(t)
	_, g := w.grant(t, "Hedy Lamarr", "hedy@example.com", w.badge)
	c := w.e.Client()
	c.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK)
	oldLD := c.Abs("GET", "/credentials/"+g.PublicVerificationID+".json", nil).Expect(http.StatusOK).Body
	w.admin.Put("/admin/applications/"+*g.ApplicationID+"/reject", map[string]any{"reason": "Plagiarised proof"}).Expect(http.StatusOK)
	time.Sleep(1100 * time.Millisecond) // another path changed it: within the cache's freshness
	var r result
	c.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "after reject", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.Eq("r.Status", r.Status, "revoked"),
		// the rejection's text is the applicant's, not the public's: no category, no reason
		apptest.Eq("r.RevocationReason", r.RevocationReason, ""),
		apptest.Eq("r.Reason", r.Reason, "This badge was revoked on "+time.Now().UTC().Format("Jan 2, 2006")+"."))
	w.admin.Put("/admin/applications/"+*g.ApplicationID+"/approve", map[string]any{"restoreRevoked": true}).Expect(http.StatusOK)
	time.Sleep(1100 * time.Millisecond)
	c.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).JSON(&r)
	if !r.IsValid {
		t.Fatalf("after re-approve: %+v", r)
	}
	// issue 36: the revocation stays final. The restored grant has a new credential under
	// a new index (same verification ids); the old index stays on in the revocation list and
	// the old credential's id stays in the 1EdTech list; the new index is on in neither list.
	g2 := w.reload(t, g.ID)
	if g2.StatusIndex == g.StatusIndex || g2.StatusIndex < 1 || g2.CredentialJWT == "" || g2.CredentialJWT == g.CredentialJWT ||
		g2.PublicVerificationID != g.PublicVerificationID {
		t.Fatalf("re-approve: status index %d -> %d, new credential %v", g.StatusIndex, g2.StatusIndex, g2.CredentialJWT != g.CredentialJWT)
	}
	p, _ := credential.ParseJWT(g2.CredentialJWT)
	pl, _ := credential.Decode(p.Payload)
	if pl == nil || !pl.NamesStatusLists(w.e.URL, g2.StatusIndex) {
		t.Fatalf("the new credential's status: %+v", pl)
	}
	rev := w.statusBits(t, "revocation")
	sus := w.statusBits(t, "suspension")
	apptest.Expect(t, "status lists after the restore", g2,
		apptest.True("old index revoked", credential.BitSet(rev, g.StatusIndex)),
		apptest.True("new index not revoked", !credential.BitSet(rev, g2.StatusIndex)),
		apptest.True("new index not suspended", !credential.BitSet(sus, g2.StatusIndex)),
		apptest.True("old credential in the 1EdTech list", strings.Contains(string(c.Abs("GET", "/credentials/status", nil).Expect(http.StatusOK).Body),
			`"`+credential.CredentialURL(w.e.URL, g.PublicVerificationID)+`"`)))
	// the copies downloaded before the reject, dropped on /verify-badge: still revoked (the
	// new credential verifies)
	roomyLimits(t)
	for name, data := range map[string][]byte{"old.jwt": []byte(g.CredentialJWT), "old.json": oldLD, "new.jwt": []byte(g2.CredentialJWT)} {
		var fr result
		upload(c, name, "", data).Expect(http.StatusOK).JSON(&fr)
		if name == "new.jwt" {
			apptest.Expect(t, "the new credential", fr, apptest.True("fr.IsValid", fr.IsValid), apptest.Eq("fr.Status", fr.Status, "valid"))
			continue
		}
		apptest.Expect(t, name+" after the restore", fr,
			apptest.True("!fr.IsValid", !fr.IsValid),
			apptest.Eq("fr.Status", fr.Status, "revoked"),
			apptest.True("fr.Checks.Signature", fr.Checks.Signature),
			apptest.True("reason", strings.HasPrefix(fr.Reason, "This badge was revoked on ")))
	}
}

func TestUnsignedGrantIsSignedOnFirstVerification(t *testing.T) {
	w := newWorld(t)
	u := w.e.CreateUser("old@example.com", "password123", model.RoleUser)
	g := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: w.badge.ID, VerificationID: "MM-ABCD-EFGH-JKMN",
		PublicVerificationID: strings.Repeat("q", 32), GrantedAt: model.Now().Add(-time.Hour)}
	if _, err := w.e.DB.NewInsert().Model(g).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	var r result
	w.e.Client().Get("/verify/badge/mm-abcd-efgh-jkmn").Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "lazily signed", r,
		apptest.True("r.IsValid", r.IsValid),
		apptest.True("r.Checks.Signature", r.Checks.Signature))
	g2 := w.reload(t, g.ID)
	apptest.Expect(t, "not stored", g2,
		apptest.True("g2.CredentialJWT != \"\"", g2.CredentialJWT != ""),
		apptest.True("g2.StatusIndex >= 1", g2.StatusIndex >= 1),
		apptest.Eq("g2.CredentialOrigin", g2.CredentialOrigin, w.e.URL))
}

func TestRateLimitPerIP(t *testing.T) {
	defer func(b, r float64) { verify.LimitBurst, verify.LimitRate = b, r }(verify.LimitBurst, verify.LimitRate)
	verify.LimitBurst, verify.LimitRate = 5, 0.001
	w := newWorld(t)
	_, g := w.grant(t, "Radia Perlman", "radia@example.com", w.badge)
	_, g2 := w.grant(t, "Frances Allen", "fran@example.com", w.badge)
	c := w.e.Client()
	c.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK) // costs one (not cached yet)
	for i := 0; i < 4; i++ {                                         // unknown and malformed cost one each
		id := []string{"MM-0000-0000-0001", "%20garbage", strings.Repeat("z", 32), "MM-1111-1111-1111"}[i]
		c.Get("/verify/badge/" + id).Expect(http.StatusNotFound)
	}
	c.Get("/verify/badge/MM-2222-2222-2222").ExpectMsg(http.StatusTooManyRequests, verify.MsgRateLimited)
	res := c.Get("/verify/badge/" + g2.VerificationID)
	res.ExpectMsg(http.StatusTooManyRequests, verify.MsgRateLimited)
	if res.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	if r, _ := c.Page("/verify/MM-3333-3333-3333"); r.Status != http.StatusTooManyRequests {
		t.Fatalf("page: %d", r.Status)
	}
	// an id someone already verified is answered from the cache, which costs nothing
	c.Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK)
}

func itoa(n int) string { return strconv.Itoa(n) }

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

const cryptoSHA256 = crypto.SHA256
