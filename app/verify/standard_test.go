package verify_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/model"
)

// TestJSONLDCredentialDIDAndBitstringList: the JSON download carries an eddsa-rdfc-2022
// proof by a key of our did:web, the DID document lists that key, and revoking sets the
// credential's bit in the signed Bitstring Status List.
func TestJSONLDCredentialDIDAndBitstringList(t *testing.T) {
	w := newWorld(t)
	u, g := w.grant(t, "Ada Lovelace", "ada@example.com", w.badge)
	ctx := w.e.Ctx()
	iss := w.e.Deps.Issuer
	if iss == nil {
		t.Fatal("no issuer")
	}
	// the holder's passed quiz becomes the evidence (re-signed through the expiry action)
	now := model.Now()
	q := &model.Quiz{ID: model.NewID(), BadgeID: w.badge.ID, Title: "Go fundamentals", PassingScore: 70, TimeLimit: 20, IsActive: true, CreatedAt: now}
	sub := now.Add(-time.Hour)
	a := &model.QuizAttempt{ID: model.NewID(), UserID: u.ID, QuizID: q.ID, BadgeID: w.badge.ID, Layout: []model.AttemptItem{}, Answers: map[string]int{},
		StartedAt: sub.Add(-10 * time.Minute), Deadline: sub.Add(10 * time.Minute), SubmittedAt: &sub, CorrectCount: 17, Total: 20, Score: 85, PassingScore: 70, Passed: true}
	for _, m := range []any{q, a} {
		if _, err := w.e.DB.NewInsert().Model(m).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	w.admin.Put("/admin/grants/"+g.ID+"/expiry", map[string]any{"expiresAt": nil}).Expect(http.StatusOK)
	g = w.reload(t, g.ID)

	c := w.e.Client()
	origin := w.e.URL
	did := credential.DIDWeb(origin)
	res := c.Abs("GET", "/credentials/"+g.PublicVerificationID+".json", nil).Expect(http.StatusOK)
	if k, err := iss.VerifyLD(ctx, origin, res.Body); err != nil || k.KID != iss.Keys.Active().KID {
		t.Fatalf("the JSON credential's proof: %v", err)
	}
	if probs := credential.Validate(res.Body); len(probs) > 0 {
		t.Fatalf("JSON credential: %v", probs)
	}
	var doc struct {
		Context  []string `json:"@context"`
		ID       string   `json:"id"`
		Issuer   struct{ ID, Name, URL string }
		Proof    []credential.Proof  `json:"proof"`
		Schema   []credential.Schema `json:"credentialSchema"`
		Status   credential.Statuses `json:"credentialStatus"`
		Evidence []credential.Evidence
		Awarded  string `json:"awardedDate"`
		Jti      *string
	}
	if err := json.Unmarshal(res.Body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.ID != origin+"/credentials/"+g.PublicVerificationID || doc.Issuer.ID != did || doc.Issuer.Name != "Meritmark" || doc.Issuer.URL != origin || doc.Jti != nil ||
		len(doc.Context) != 4 || doc.Context[2] != credential.ContextOBExtensions || doc.Context[3] != credential.ContextOBAssessment {
		t.Fatalf("JSON credential %s", res.Body)
	}
	// the passed quiz is the credential's result (issue 35): score against the pass mark,
	// the Assessment Extension's fields, the public report linked
	var withResult struct {
		Subject struct {
			Achievement struct {
				ResultDescription []credential.ResultDescription `json:"resultDescription"`
			} `json:"achievement"`
			Result []credential.Result `json:"result"`
		} `json:"credentialSubject"`
	}
	if err := json.Unmarshal(res.Body, &withResult); err != nil {
		t.Fatal(err)
	}
	rds, rs := withResult.Subject.Achievement.ResultDescription, withResult.Subject.Result
	if len(rds) != 1 || len(rs) != 1 {
		t.Fatalf("result %s", res.Body)
	}
	rd := rds[0]
	apptest.Expect(t, "resultDescription", rd,
		apptest.Eq("ID", rd.ID, origin+"/achievements/"+w.badge.ID+"#result"),
		apptest.Eq("ResultType", rd.ResultType, "Percent"), apptest.Eq("RequiredValue", rd.RequiredValue, "70"),
		apptest.Eq("ValueMin", rd.ValueMin, "0"), apptest.Eq("ValueMax", rd.ValueMax, "100"),
		apptest.Eq("AssessmentType", rd.AssessmentType, "Exam"),
		apptest.Eq("AssessmentEvaluation", rd.AssessmentEvaluation, origin+"/badges/"+w.badge.ID+"/assessment"),
		apptest.True("EvaluationMethod names the form and the mark", strings.Contains(rd.EvaluationMethod, "a form of 20 questions") && strings.Contains(rd.EvaluationMethod, "Pass mark: 70%")))
	apptest.Expect(t, "result", rs[0], apptest.Eq("ResultDescription", rs[0].ResultDescription, rd.ID),
		apptest.Eq("Value", rs[0].Value, "85"), apptest.Eq("Status", rs[0].Status, "Completed"))
	if len(doc.Proof) != 1 || doc.Proof[0].VerificationMethod != did+"#"+iss.Keys.Active().KID || doc.Proof[0].Cryptosuite != "eddsa-rdfc-2022" ||
		len(doc.Schema) != 1 || doc.Schema[0].Type != "1EdTechJsonSchemaValidator2019" {
		t.Fatalf("proof %+v schema %+v", doc.Proof, doc.Schema)
	}
	idx := itoa(g.StatusIndex)
	if len(doc.Status) != 2 || doc.Status[0] != (credential.Status{ID: origin + "/credentials/status/revocation#" + idx, Type: "BitstringStatusListEntry", StatusPurpose: "revocation",
		StatusListIndex: idx, StatusListCredential: origin + "/credentials/status/revocation"}) ||
		doc.Status[1] != (credential.Status{ID: origin + "/credentials/status/suspension#" + idx, Type: "BitstringStatusListEntry", StatusPurpose: "suspension",
			StatusListIndex: idx, StatusListCredential: origin + "/credentials/status/suspension"}) {
		t.Fatalf("status %+v", doc.Status)
	}
	if len(doc.Evidence) != 1 || doc.Evidence[0].Name != "Assessment: Go fundamentals" ||
		!strings.Contains(doc.Evidence[0].Description, "with a score of 85% (17 of 20 answers correct; passing score 70%)") ||
		!strings.Contains(doc.Evidence[0].Description, sub.UTC().Format("2006-01-02")) || doc.Awarded == "" {
		t.Fatalf("evidence %+v awarded %q", doc.Evidence, doc.Awarded)
	}
	// one changed character in the downloaded JSON fails the proof
	bad := strings.Replace(string(res.Body), "Ada", "Adb", 1)
	bad = strings.Replace(bad, `"Go Developer"`, `"Go Develooper"`, 1)
	if _, err := iss.VerifyLD(ctx, origin, []byte(bad)); !errors.Is(err, credential.ErrProofValue) {
		t.Fatalf("tampered JSON: %v", err)
	}
	// a proof naming another origin's DID is not ours
	if _, err := iss.VerifyLD(ctx, "https://elsewhere.example", res.Body); err == nil {
		t.Fatal("a proof verified for another origin")
	}

	// the DID document
	dres := c.Abs("GET", "/.well-known/did.json", nil).Expect(http.StatusOK)
	var dd credential.DIDDocument
	if err := json.Unmarshal(dres.Body, &dd); err != nil || dres.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatal(err)
	}
	// the Ed25519 key as Multikey; then (issue 36) the ES256 key that signs the VC-JWTs and
	// the one once derived from the seed (older VC-JWTs) as JsonWebKey
	es := iss.Keys.ActiveES256()
	if len(dd.VerificationMethod) != 3 || dd.VerificationMethod[1].ID != did+"#"+es.KID || dd.VerificationMethod[1].Type != "JsonWebKey" ||
		dd.VerificationMethod[1].PublicKeyJwk == nil || dd.VerificationMethod[1].PublicKeyJwk.X != credential.JWKOf(es).X ||
		dd.AssertionMethod[1] != dd.VerificationMethod[1].ID || dd.VerificationMethod[2].ID != did+"#"+iss.Keys.Active().Companion.KID {
		t.Fatalf("did.json JsonWebKeys %s", dres.Body)
	}
	if dd.ID != did || dd.Context[0] != "https://www.w3.org/ns/did/v1" || dd.AssertionMethod[0] != doc.Proof[0].VerificationMethod ||
		dd.VerificationMethod[0].Controller != did || dd.VerificationMethod[0].Type != "Multikey" ||
		dd.VerificationMethod[0].PublicKeyMultibase != credential.Multikey(iss.Keys.Active().Public) {
		t.Fatalf("did.json %s", dres.Body)
	}
	// key URLs: unknown or malformed answer 404
	c.Abs("GET", "/.well-known/jwks/"+strings.Repeat("A", 43), nil).Expect(http.StatusNotFound)
	c.Abs("GET", "/.well-known/jwks/nope", nil).Expect(http.StatusNotFound)
	if c.Abs("GET", "/issuer/image.png", nil).Expect(http.StatusOK).Header.Get("Content-Type") != "image/png" {
		t.Fatal("issuer image")
	}

	// the Bitstring Status List: signed, at least 131072 bits, bit off, then on after a revoke
	readList := func() []byte {
		t.Helper()
		lr := c.Abs("GET", "/credentials/status/revocation", nil).Expect(http.StatusOK)
		if _, err := iss.VerifyLD(ctx, origin, lr.Body); err != nil {
			t.Fatalf("status list proof: %v", err)
		}
		var l credential.StatusListCredential
		if err := json.Unmarshal(lr.Body, &l); err != nil {
			t.Fatal(err)
		}
		if l.ID != origin+"/credentials/status/revocation" || l.Issuer != did || l.CredentialSubject.StatusPurpose != "revocation" ||
			l.CredentialSubject.Type != "BitstringStatusList" || l.Type[1] != "BitstringStatusListCredential" {
			t.Fatalf("status list %s", lr.Body)
		}
		bits, err := credential.DecodeList(l.CredentialSubject.EncodedList)
		if err != nil || len(bits)*8 < credential.MinListBits {
			t.Fatalf("list of %d bytes: %v", len(bits), err)
		}
		return bits
	}
	if credential.BitSet(readList(), g.StatusIndex) {
		t.Fatal("bit set before the revoke")
	}
	w.admin.Put("/admin/grants/"+g.ID+"/revoke", map[string]any{"category": "issued_in_error", "reason": "Issued in error"}).Expect(http.StatusOK)
	list := readList()
	if !credential.BitSet(list, g.StatusIndex) {
		t.Fatal("revoked credential's bit is not set")
	}
	n := 0
	for i := 0; i < len(list)*8; i++ {
		if credential.BitSet(list, i) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d bits set", n)
	}
}

// TestProofBadgeEvidenceNamesNoDocuments: a proof badge's evidence says documents were
// reviewed, never which.
func TestProofBadgeEvidenceNamesNoDocuments(t *testing.T) {
	w := newWorld(t)
	b := w.newBadge(t, "Design Portfolio", "Design", nil)
	if _, err := w.e.DB.NewUpdate().Model(b).Set("type = ?", model.TypeProof).WherePK().Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	b.Type = model.TypeProof
	_, g := w.grant(t, "Grace", "grace@example.com", b)
	body := w.e.Client().Abs("GET", "/credentials/"+g.PublicVerificationID+".json", nil).Expect(http.StatusOK).Body
	var doc struct{ Evidence []credential.Evidence }
	_ = json.Unmarshal(body, &doc)
	apptest.Expect(t, "evidence", doc.Evidence,
		apptest.Eq("len(doc.Evidence)", len(doc.Evidence), 1))
	apptest.Expect(t, "evidence", doc.Evidence,
		apptest.Eq("doc.Evidence[0].Name", doc.Evidence[0].Name, "Review of submitted proof"),
		apptest.True("strings.Contains(doc.Evidence[0].Description, \"reviewed the documents\")", strings.Contains(doc.Evidence[0].Description, "reviewed the documents")),
		apptest.True("!strings.Contains(string(body), \"Engineer\")", !strings.Contains(string(body), "Engineer")))
}

// TestOldEdDSACredentialStillVerifies: a credential signed before ES256 (EdDSA, issuer
// /issuer, its index in the status id) keeps verifying on the verify API.
func TestOldEdDSACredentialStillVerifies(t *testing.T) {
	w := newWorld(t)
	_, g := w.grant(t, "Old Holder", "old@example.com", w.badge)
	iss := w.e.Deps.Issuer
	origin := w.e.URL
	p := credential.Build(credential.Input{Origin: origin, PublicVerificationID: g.PublicVerificationID, UserID: g.UserID, Email: "old@example.com",
		BadgeID: w.badge.ID, BadgeName: w.badge.Name, BadgeDescription: w.badge.Description, BadgeCriteria: w.badge.Criteria, GrantedAt: g.GrantedAt})
	p.Issuer.ID, p.Iss = credential.IssuerURL(origin), credential.IssuerURL(origin)
	p.CredentialStatus = credential.Statuses{{ID: origin + "/credentials/status#" + itoa(g.StatusIndex), Type: "1EdTechRevocationList"}}
	p.CredentialSchema, p.Evidence, p.AwardedDate = nil, nil, ""
	raw, _ := json.Marshal(p)
	tok, err := credential.SignJWT(iss.Keys.Active(), raw)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.e.DB.NewUpdate().Model((*model.BadgeGrant)(nil)).Set("credential_jwt = ?", tok).Where("id = ?", g.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	var r result
	w.e.Client().Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "old EdDSA credential", r,
		apptest.True("r.IsValid", r.IsValid),
		apptest.True("r.Checks.Signature", r.Checks.Signature),
		apptest.Eq("r.Checks.IssuerKey", r.Checks.IssuerKey, iss.Keys.Active().KID))
	// its JSON download (no JSON-LD form yet) signs the grant again in both forms; the old
	// token still verifies against the published keys
	if _, err := w.e.DB.NewRaw("DELETE FROM badge_grant_credentials WHERE grant_id = ?", g.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	body := w.e.Client().Abs("GET", "/credentials/"+g.PublicVerificationID+".json", nil).Expect(http.StatusOK).Body
	if _, err := iss.VerifyLD(w.e.Ctx(), origin, body); err != nil {
		t.Fatalf("re-signed JSON: %v", err)
	}
	if p2, _ := credential.ParseJWT(w.reload(t, g.ID).CredentialJWT); p2 == nil || p2.Header.Alg != "ES256" {
		t.Fatal("the grant was not signed again with ES256")
	}
	if _, err := iss.Verify(w.e.Ctx(), tok); err != nil {
		t.Fatalf("old token after re-signing: %v", err)
	}

	// the same old token with another status index does not match the record
	p.CredentialStatus[0].ID = origin + "/credentials/status#999999"
	raw, _ = json.Marshal(p)
	tok2, _ := credential.SignJWT(iss.Keys.Active(), raw)
	_, g2 := w.grant(t, "Other", "other@example.com", w.badge)
	if _, err := w.e.DB.NewUpdate().Model((*model.BadgeGrant)(nil)).Set("credential_jwt = ?", tok2).Where("id = ?", g2.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	w.e.Client().Get("/verify/badge/" + g2.VerificationID).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "another grant's credential verified", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.True("!r.Checks.Signature", !r.Checks.Signature))
}

// TestStatusIndexesAreRandomAndUnique: indexes are drawn at random over at least 131072
// slots and never handed out twice (the table refuses a duplicate).
func TestStatusIndexesAreRandomAndUnique(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	seen := map[int]bool{}
	var got []int
	for i := 0; i < 400; i++ {
		idx, err := credential.AllocateStatusIndex(ctx, w.e.DB, model.NewID())
		if err != nil {
			t.Fatal(err)
		}
		if idx < 1 || idx >= credential.MinListBits || seen[idx] {
			t.Fatalf("index %d (seen %v)", idx, seen[idx])
		}
		seen[idx] = true
		got = append(got, idx)
	}
	if sort.IntsAreSorted(got) {
		t.Fatal("indexes come out in order")
	}
	maxIdx := 0
	for _, v := range got {
		maxIdx = max(maxIdx, v)
	}
	if maxIdx < 4*len(got) {
		t.Fatalf("indexes are not spread: max %d", maxIdx)
	}
	if _, err := w.e.DB.NewRaw("INSERT INTO credential_status_slots (idx, grant_id) VALUES (?, ?)", got[0], "x").Exec(ctx); err == nil {
		t.Fatal("a duplicate index was stored")
	}
	if n, _ := w.e.DB.NewSelect().Table("credential_status_slots").Count(ctx); n != 400 {
		t.Fatalf("%d slots", n)
	}
}

// TestStatusIndexSkipsIndexesHeldWithoutASlot: an index held by a grant row written
// without a slot (imports, benchmarks) is never handed out again.
func TestStatusIndexSkipsIndexesHeldWithoutASlot(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	// index 1 held by a slot, the grant's index by its row only
	if _, err := w.e.DB.NewRaw("INSERT INTO credential_status_slots (idx, grant_id) VALUES (?, 'x')", 1).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	_, g := w.grant(t, "Held", "held@example.com", w.badge)
	if _, err := w.e.DB.NewRaw("DELETE FROM credential_status_slots WHERE grant_id = ?", g.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	// the draws hit the held indexes first: both are skipped
	draws := []int{g.StatusIndex, 1, g.StatusIndex, 77}
	defer func(f func(int) int) { credential.DrawIndex = f }(credential.DrawIndex)
	credential.DrawIndex = func(int) int { v := draws[0]; draws = draws[1:]; return v }
	idx, err := credential.AllocateStatusIndex(ctx, w.e.DB, model.NewID())
	if err != nil || idx != 77 || len(draws) != 0 {
		t.Fatalf("index %d, %v", idx, err)
	}
}

// TestTamperedStoredJSONLDFailsTheVerifyPage: the verify API checks the JSON-LD form's
// proof too.
func TestTamperedStoredJSONLDFailsTheVerifyPage(t *testing.T) {
	w := newWorld(t)
	_, g := w.grant(t, "Tamper Target", "tt@example.com", w.badge)
	if _, err := w.e.DB.NewRaw("UPDATE badge_grant_credentials SET credential_ld = REPLACE(credential_ld, 'idiomatic', 'idiomatik') WHERE grant_id = ?", g.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	var r result
	w.e.Client().Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "tampered JSON-LD", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.True("!r.Checks.Signature", !r.Checks.Signature),
		apptest.Eq("r.Status", r.Status, "invalid"))
}
