package credential

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func stdInput() Input {
	exp := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	return Input{Origin: "http://localhost:8443", PublicVerificationID: strings.Repeat("a", 32), StatusIndex: 4242,
		UserID: "u1", Email: "Ann@X.io", BadgeID: "b1", BadgeName: "Go\x01 Expert", BadgeDescription: "Writes Go.",
		BadgeCriteria: "Pass the quiz.\nWith care.", BadgeCategory: "Programming", BadgeLevel: "advanced",
		GrantedAt: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC), ExpiresAt: &exp,
		Evidence: []Evidence{AssessmentEvidence("Go quiz", time.Date(2026, 10, 31, 9, 0, 0, 0, time.UTC), 85, 17, 20, 70)}}
}

func TestES256JWTAndDataIntegrityRoundTrip(t *testing.T) {
	ed, err := KeyFromSeed(NewSeed())
	if err != nil {
		t.Fatal(err)
	}
	// the ES256 key that signs is a key of its own; the one derived from the seed (the
	// VC-JWTs signed before issue 36) is still derived the same way, verify-only
	es, err := ES256KeyFromSecret(strings.TrimPrefix(NewES256Secret(), ES256Prefix))
	if err != nil || !es.IsES256() || es.KID != ECThumbprint(es.EC) || len(es.KID) != 43 || !es.CanSign() {
		t.Fatalf("es256 key %+v %v", es, err)
	}
	again, _ := KeyFromSeed(b64.EncodeToString(ed.private.Seed()))
	if again.Companion.KID != ed.Companion.KID || ed.Companion.CanSign() || ed.Companion.KID == es.KID {
		t.Fatal("the derived ES256 key changed, or can still sign")
	}
	s, err := SignBoth(ed, es, stdInput(), time.Date(2026, 11, 1, 10, 0, 1, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	ring := &Keyring{Keys: []*Key{ed}, ES: []*Key{es}}
	// JWT: ES256, kid = the key's verification method in our DID document, raw R||S signature
	p, err := ParseJWT(s.JWT)
	if err != nil {
		t.Fatal(err)
	}
	wantKid := "did:web:localhost%3A8443#" + es.KID
	if sig, _ := b64.DecodeString(strings.Split(s.JWT, ".")[2]); p.Header != (Header{Alg: "ES256", Kid: wantKid, Typ: "JWT"}) || len(sig) != 64 {
		t.Fatalf("header %+v, sig %d bytes", p.Header, len(sig))
	}
	if k, err := p.VerifySignature(ring.Find); err != nil || k.KID != es.KID {
		t.Fatalf("verify ES256: %v", err)
	}
	// a VC-JWT signed before issue 36 with the key derived from the seed (kid its key URL)
	// still verifies against the keyring, whose derived key can no longer sign
	legacy := es256FromSeed(ed.private.Seed())
	oldTok, err := SignJWTKid(legacy, KeyURL("http://localhost:8443", legacy.KID), []byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if op, err := ParseJWT(oldTok); err != nil {
		t.Fatal(err)
	} else if k, err := op.VerifySignature(ring.Find); err != nil || k.KID != ed.Companion.KID || k.CanSign() {
		t.Fatalf("a VC-JWT signed with the derived key: %v", err)
	}
	if _, err := SignJWTKid(ed.Companion, "x", []byte(`{}`)); err == nil {
		t.Fatal("the derived key still signs")
	}
	var claims map[string]any
	_ = json.Unmarshal(p.Payload, &claims)
	did := "did:web:localhost%3A8443"
	if claims["iss"] != did || claims["sub"] != "http://localhost:8443/profile/u1" || claims["jti"] != "http://localhost:8443/credentials/"+strings.Repeat("a", 32) ||
		claims["nbf"] != float64(time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC).Unix()) || claims["exp"] != float64(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC).Unix()) {
		t.Fatalf("claims %v", claims)
	}
	if probs := Validate(p.Payload); len(probs) > 0 {
		t.Fatalf("payload problems %v", probs)
	}
	// issue 36: a BitstringStatusListEntry per purpose, no 1EdTech list
	st, _ := claims["credentialStatus"].([]any)
	for i, purpose := range []string{"revocation", "suspension"} {
		var e map[string]any
		if i < len(st) {
			e, _ = st[i].(map[string]any)
		}
		list := "http://localhost:8443/credentials/status/" + purpose
		if len(st) != 2 || e["type"] != "BitstringStatusListEntry" || e["statusPurpose"] != purpose || e["statusListIndex"] != "4242" ||
			e["statusListCredential"] != list || e["id"] != list+"#4242" {
			t.Fatalf("JWT credentialStatus %v", claims["credentialStatus"])
		}
	}
	// one flipped byte anywhere in the payload or the signature fails
	parts := strings.Split(s.JWT, ".")
	for _, i := range []int{1, 2} {
		raw, _ := b64.DecodeString(parts[i])
		raw[len(raw)/2] ^= 0x01
		bad := append([]string{}, parts...)
		bad[i] = b64.EncodeToString(raw)
		if bp, err := ParseJWT(strings.Join(bad, ".")); err == nil {
			if _, err := bp.VerifySignature(ring.Find); err == nil {
				t.Fatalf("flipped byte in part %d verified", i)
			}
		}
	}
	// the header cannot pick another algorithm for the ES256 key
	h := b64.EncodeToString([]byte(`{"alg":"EdDSA","kid":"` + wantKid + `","typ":"JWT"}`))
	if bp, err := ParseJWT(h + "." + parts[1] + "." + parts[2]); err == nil {
		if _, err := bp.VerifySignature(ring.Find); !errors.Is(err, ErrAlgorithm) {
			t.Fatalf("alg confusion: %v", err)
		}
	}

	// JSON-LD: DataIntegrityProof eddsa-rdfc-2022 by the did:web key, proof and
	// credentialSchema as arrays, status a BitstringStatusListEntry
	var doc map[string]any
	if err := json.Unmarshal(s.LD, &doc); err != nil {
		t.Fatal(err)
	}
	proofs, _ := doc["proof"].([]any)
	schemas, _ := doc["credentialSchema"].([]any)
	if len(proofs) != 1 || len(schemas) != 1 {
		t.Fatalf("proof %v schema %v", doc["proof"], doc["credentialSchema"])
	}
	pr := proofs[0].(map[string]any)
	if pr["type"] != "DataIntegrityProof" || pr["cryptosuite"] != "eddsa-rdfc-2022" || pr["proofPurpose"] != "assertionMethod" ||
		pr["verificationMethod"] != did+"#"+ed.KID || pr["created"] != "2026-11-01T10:00:01Z" || !strings.HasPrefix(pr["proofValue"].(string), "z") {
		t.Fatalf("proof %v", pr)
	}
	iss := doc["issuer"].(map[string]any)
	if iss["id"] != did || iss["name"] != "Meritmark" || iss["url"] != "http://localhost:8443" || iss["image"].(map[string]any)["id"] != "http://localhost:8443/issuer/image.png" {
		t.Fatalf("issuer %v", iss)
	}
	if ldStatus, _ := json.Marshal(doc["credentialStatus"]); string(ldStatus) != string(mustJSON(t, claims["credentialStatus"])) {
		t.Fatalf("the JSON-LD status %s differs from the JWT's", ldStatus)
	}
	if rs := doc["refreshService"].(map[string]any); rs["id"] != doc["id"] || rs["type"] != "1EdTechCredentialRefresh" {
		t.Fatalf("refreshService %v", rs)
	}
	if doc["awardedDate"] != "2026-11-01T10:00:00Z" || len(doc["evidence"].([]any)) != 1 {
		t.Fatalf("awardedDate %v evidence %v", doc["awardedDate"], doc["evidence"])
	}
	if strings.Contains(string(s.LD), `\u0001`) {
		t.Fatal("control character kept")
	}
	vmKeys := func(vm string) *Key {
		if vm == did+"#"+ed.KID {
			return ed
		}
		return nil
	}
	if _, err := VerifyProof(s.LD, vmKeys); err != nil {
		t.Fatalf("verify proof: %v", err)
	}
	// a flipped byte in the content, or in the signature, fails
	tampered := strings.Replace(string(s.LD), "Writes Go.", "Writes Go!", 1)
	if _, err := VerifyProof([]byte(tampered), vmKeys); !errors.Is(err, ErrProofValue) {
		t.Fatalf("tampered content: %v", err)
	}
	pv := pr["proofValue"].(string)
	c := "2"
	if pv[10] == '2' {
		c = "3"
	}
	flipped := pv[:10] + c + pv[11:]
	if _, err := VerifyProof([]byte(strings.Replace(string(s.LD), pv, flipped, 1)), vmKeys); err == nil {
		t.Fatal("flipped proofValue verified")
	}
	// an inline context in front of ours (an @vocab that changes nothing) is refused
	vocab := strings.Replace(string(s.LD), `"@context": [`, `"@context": [{"@vocab": "http://x.example/"},`, 1)
	if _, err := VerifyProof([]byte(vocab), vmKeys); !errors.Is(err, ErrUnsafeDocument) {
		t.Fatalf("inline context: %v", err)
	}
	other, _ := KeyFromSeed(NewSeed())
	if _, err := VerifyProof(s.LD, func(string) *Key { return other }); !errors.Is(err, ErrProofValue) {
		t.Fatalf("other key: %v", err)
	}
}

func TestOldEdDSACredentialStillVerifies(t *testing.T) {
	ed, _ := KeyFromSeed(NewSeed())
	tok, _, err := Sign(ed, stdInput())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ParseJWT(tok)
	ring := &Keyring{Keys: []*Key{ed}}
	if p.Header.Alg != "EdDSA" || p.Header.Kid != ed.KID {
		t.Fatalf("header %+v", p.Header)
	}
	if k, err := p.VerifySignature(ring.Find); err != nil || k != ed {
		t.Fatalf("EdDSA credential: %v", err)
	}
	// the EdDSA key cannot verify a header claiming ES256
	h := b64.EncodeToString([]byte(`{"alg":"ES256","kid":"` + ed.KID + `"}`))
	parts := strings.Split(tok, ".")
	bp, _ := ParseJWT(h + "." + parts[1] + "." + parts[2])
	if _, err := bp.VerifySignature(ring.Find); !errors.Is(err, ErrAlgorithm) {
		t.Fatalf("alg swap: %v", err)
	}
	// a JWKS with both kinds finds each
	set := JWKS{Keys: []JWK{PublishedJWK("https://m.example", ed.Companion), PublishedJWK("https://m.example", ed)}}
	if set.Keys[0].Kid != "https://m.example/.well-known/jwks/"+ed.Companion.KID || set.Keys[0].Kty != "EC" || set.Keys[0].Y == "" {
		t.Fatalf("ES256 JWK %+v", set.Keys[0])
	}
	if k := set.Find(ed.KID); k == nil || k.IsES256() {
		t.Fatal("Ed25519 key not found in the JWKS")
	}
	if k := set.Find("https://m.example/.well-known/jwks/" + ed.Companion.KID); k == nil || !k.IsES256() || !k.EC.Equal(ed.Companion.EC) {
		t.Fatal("ES256 key not found in the JWKS by its URL")
	}
}

func TestLoaderNeverFetches(t *testing.T) {
	for _, u := range []string{"http://example.com/ctx.json", "https://example.com/ctx.jsonld", "https://www.w3.org/2018/credentials/v1", "file:///etc/passwd"} {
		if _, err := DocumentLoader.LoadDocument(u); err == nil || !strings.Contains(err.Error(), "not embedded") {
			t.Fatalf("%s: %v", u, err)
		}
	}
	for u := range embeddedContexts {
		if d, err := DocumentLoader.LoadDocument(u); err != nil || d.Document == nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	// a document naming a context we do not embed is refused, not fetched
	doc := map[string]any{"@context": []any{ContextVC, "http://127.0.0.1:1/ctx"}, "type": []any{"VerifiableCredential"}}
	if _, err := Canonicalize(doc); !errors.Is(err, ErrUnsafeDocument) {
		t.Fatalf("unknown context: %v", err)
	}
}

func TestCanonicalizePreChecks(t *testing.T) {
	base := func() map[string]any {
		return map[string]any{"@context": []any{ContextVC, ContextOB3}, "id": "urn:x:1",
			"type": []any{"VerifiableCredential", "OpenBadgeCredential"}, "name": "ok"}
	}
	if _, err := Canonicalize(base()); err != nil {
		t.Fatal(err)
	}
	for name, mut := range map[string]func(m map[string]any){
		"undefined property": func(m map[string]any) { m["shoeSize"] = "42" },
		"undefined type":     func(m map[string]any) { m["type"] = []any{"VerifiableCredential", "MadeUpType"} },
		"relative id":        func(m map[string]any) { m["id"] = "relative/path" },
		"control character":  func(m map[string]any) { m["name"] = "a\x00b" },
		"huge number":        func(m map[string]any) { m["credentialSubject"] = map[string]any{"creditsEarned": 1e19} },
		"direction":          func(m map[string]any) { m["name"] = map[string]any{"@value": "x", "@direction": "rtl"} },
	} {
		m := base()
		mut(m)
		if _, err := Canonicalize(m); !errors.Is(err, ErrUnsafeDocument) {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func TestDIDDocumentShape(t *testing.T) {
	k1, _ := KeyFromSeed(NewSeed())
	k2, _ := KeyFromSeed(NewSeed())
	doc := DIDDocumentOf("https://badges.example:8443", []*Key{k1.Companion, k1, k2})
	did := "did:web:badges.example%3A8443"
	if doc.ID != did || doc.Context[0] != "https://www.w3.org/ns/did/v1" || len(doc.VerificationMethod) != 3 || len(doc.AssertionMethod) != 3 {
		t.Fatalf("did doc %+v", doc)
	}
	// issue 36: the P-256 key is a JsonWebKey under assertionMethod, after the Ed25519 keys
	jwk := doc.VerificationMethod[2]
	x, y := ecXY(k1.Companion.EC)
	if jwk.ID != did+"#"+k1.Companion.KID || jwk.Type != "JsonWebKey" || jwk.Controller != did || doc.AssertionMethod[2] != jwk.ID ||
		jwk.PublicKeyMultibase != "" || jwk.PublicKeyJwk == nil || *jwk.PublicKeyJwk != (PublicJWK{Kty: "EC", Crv: "P-256", X: x, Y: y}) ||
		doc.Context[2] != ContextJWK {
		t.Fatalf("JsonWebKey %+v", jwk)
	}
	if doc.VerificationMethod[1].ID != did+"#"+k2.KID {
		t.Fatalf("the Ed25519 keys come first: %+v", doc.VerificationMethod)
	}
	vm := doc.VerificationMethod[0]
	if vm.ID != did+"#"+k1.KID || vm.Type != "Multikey" || vm.Controller != did || doc.AssertionMethod[0] != vm.ID ||
		!strings.HasPrefix(vm.PublicKeyMultibase, "z6Mk") {
		t.Fatalf("verification method %+v", vm)
	}
	raw, _ := Base58Decode(vm.PublicKeyMultibase[1:])
	if len(raw) != 34 || raw[0] != 0xed || raw[1] != 0x01 || string(raw[2:]) != string(k1.Public) {
		t.Fatalf("multikey %x", raw)
	}
	if DIDWeb("https://meritmark.example") != "did:web:meritmark.example" || DIDWeb("not a url") != "" {
		t.Fatal("DIDWeb")
	}
	// the DID document of the Ed25519 keys is itself safe JSON-LD (the JWK context, for the
	// JsonWebKey entries, is not pinned here)
	m, _ := toGeneric(DIDDocumentOf("https://badges.example:8443", []*Key{k1, k2}))
	m["@context"] = []any{ContextDID, ContextMultikey}
	if _, err := Canonicalize(m); err != nil {
		t.Fatal(err)
	}
}

func TestBitstringEncoding(t *testing.T) {
	enc, err := EncodeList(MinListBits, []int{0, 9, MinListBits - 1})
	if err != nil || enc[0] != 'u' {
		t.Fatal(err)
	}
	list, err := DecodeList(enc)
	if err != nil || len(list) != MinListBits/8 {
		t.Fatalf("%d bytes %v", len(list), err)
	}
	if list[0] != 0x80 || list[1] != 0x40 || list[len(list)-1] != 0x01 || !BitSet(list, 9) || BitSet(list, 8) {
		t.Fatalf("bits %x %x %x", list[0], list[1], list[len(list)-1])
	}
	if _, err := EncodeList(MinListBits, []int{MinListBits}); err == nil {
		t.Fatal("index outside the list encoded")
	}
	if ListBits(0) != MinListBits || ListBits(16384) != MinListBits || ListBits(16385) != 2*MinListBits {
		t.Fatal("ListBits")
	}
}

// benchKeys are the Ed25519 key and a signing ES256 key (the Companion derived from the
// seed verifies only, since issue 36).
func benchKeys(b *testing.B) (ed, es *Key) {
	ed, err := KeyFromSeed(NewSeed())
	if err != nil {
		b.Fatal(err)
	}
	if es, err = ES256KeyFromSecret(strings.TrimPrefix(NewES256Secret(), ES256Prefix)); err != nil {
		b.Fatal(err)
	}
	return ed, es
}

func BenchmarkSignBoth(b *testing.B) {
	ed, es := benchKeys(b)
	in := stdInput()
	for b.Loop() {
		if _, err := SignBoth(ed, es, in, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyProof(b *testing.B) {
	ed, es := benchKeys(b)
	s, err := SignBoth(ed, es, stdInput(), time.Now())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := VerifyProof(s.LD, func(string) *Key { return ed }); err != nil {
			b.Fatal(err)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
