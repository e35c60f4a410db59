package oid4vci_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/model"
	"meritmark/app/oid4vci"
)

// world is a holder with one badge granted through the real flow.
type world struct {
	e      *apptest.Env
	admin  *apptest.Client
	holder *model.User
	hc     *apptest.Client
	grant  model.BadgeGrant
}

func newWorld(t *testing.T) *world {
	t.Helper()
	e := apptest.New(t)
	_, adm := e.Admin("admin@meritmark.test")
	u, hc := e.Member("holder@x.io")
	w := &world{e: e, admin: adm, holder: u, hc: hc}
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: "Wallet Badge", Description: "A test badge.", Category: "Development", Type: model.TypeSkill,
		Level: "intermediate", PriceCents: 4900, Icon: "Code", Color: "blue", Criteria: "Pass.", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: b.Type, Status: model.StatusPending,
		PaymentStatus: model.PaymentCompleted, FullName: "Holder", Email: u.Email, Position: "Engineer", PriceCents: b.PriceCents,
		PaymentCompletedAt: &now, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(a).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	adm.Put("/admin/applications/"+a.ID+"/approve", map[string]any{}).Expect(http.StatusOK)
	if err := e.DB.NewSelect().Model(&w.grant).Where("application_id = ?", a.ID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *world) offer(t *testing.T, txCode bool) *oid4vci.OfferView {
	t.Helper()
	var v oid4vci.OfferView
	w.hc.Post("/users/badges/"+w.grant.ID+"/wallet-offer", map[string]any{"txCode": txCode}).Expect(http.StatusOK).JSON(&v)
	return &v
}

// oauthErr is an {"error"} answer.
func oauthErr(t *testing.T, r *apptest.Resp, status int, code string) {
	t.Helper()
	var m struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &m)
	if r.Status != status || m.Error != code {
		t.Fatalf("want %d %s, got %d %s", status, code, r.Status, r.Body)
	}
}

func (w *world) token(code, txCode string, withTx bool) *apptest.Resp {
	f := url.Values{"grant_type": {oid4vci.GrantPreAuthorized}, "pre-authorized_code": {code}}
	if withTx {
		f.Set("tx_code", txCode)
	}
	return w.e.Client().Raw("POST", oid4vci.TokenPath, strings.NewReader(f.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
}

func (w *world) accessToken(t *testing.T, v *oid4vci.OfferView) string {
	t.Helper()
	var tok oid4vci.TokenAnswer
	w.token(v.Offer.Grants[oid4vci.GrantPreAuthorized].PreAuthorizedCode, v.TxCode, v.TxCode != "").Expect(http.StatusOK).JSON(&tok)
	if tok.AccessToken == "" || tok.TokenType != "Bearer" {
		t.Fatalf("token: %+v", tok)
	}
	return tok.AccessToken
}

func (w *world) nonce(t *testing.T) string {
	t.Helper()
	var n struct {
		CNonce string `json:"c_nonce"`
	}
	w.e.Client().Raw("POST", oid4vci.NoncePath, nil, nil).Expect(http.StatusOK).JSON(&n)
	return n.CNonce
}

func (w *world) credential(token string, body any) *apptest.Resp {
	b, _ := json.Marshal(body)
	return w.e.Client().Raw("POST", oid4vci.CredentialPath, strings.NewReader(string(b)),
		map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + token})
}

// wallet is a holder key.
type wallet struct {
	ed  ed25519.PrivateKey
	ec  *ecdsa.PrivateKey
	did string
}

func newWallet(t *testing.T) *wallet {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &wallet{ed: priv, ec: ec, did: oid4vci.DIDKeyOf(pub)}
}

// proof signs a proof JWT; kid "" puts the P-256 key in the header as jwk.
func (wl *wallet) proof(t *testing.T, aud, nonce string, iat time.Time, typ string, kid string, key any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType(jose.ContentType(typ))
	alg := jose.EdDSA
	if _, ok := key.(*ecdsa.PrivateKey); ok {
		alg = jose.ES256
	}
	if kid == "" {
		opts.EmbedJWK = true
	} else {
		opts = opts.WithHeader(jose.HeaderKey("kid"), kid)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	claims, _ := json.Marshal(map[string]any{"aud": aud, "iat": iat.Unix(), "nonce": nonce})
	jws, err := s.Sign(claims)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (wl *wallet) kid() string { return wl.did + "#" + strings.TrimPrefix(wl.did, "did:key:") }

// TestOfferToWalletBothForms: an offer taken end to end gives a VC-JWT bound to the
// holder's did:key and a JSON-LD credential bound to their did:jwk, each a new credential
// with its own status index, both verifying with the issuer's keys.
func TestOfferToWalletBothForms(t *testing.T) {
	w := newWorld(t)
	ctx := w.e.Ctx()
	origin := w.e.URL
	md := w.e.Client().Abs("GET", oid4vci.IssuerMetadataPath, nil).Expect(http.StatusOK).Map()
	if md["credential_issuer"] != origin || md["nonce_endpoint"] != origin+oid4vci.NoncePath {
		t.Fatalf("metadata: %v", md)
	}
	// only the holder may ask: another member's is not found, a visitor's is refused
	_, other := w.e.Member("other@x.io")
	other.Post("/users/badges/"+w.grant.ID+"/wallet-offer", map[string]any{}).ExpectMsg(http.StatusNotFound, oid4vci.MsgGrantNotFound)
	if r := w.e.Client().Post("/users/badges/"+w.grant.ID+"/wallet-offer", map[string]any{}); r.Status != http.StatusUnauthorized {
		t.Fatalf("visitor: %d", r.Status)
	}
	v := w.offer(t, true)
	apptest.Expect(t, "offer", v,
		apptest.Eq("issuer", v.Offer.CredentialIssuer, origin),
		apptest.True("tx code", len(v.TxCode) == oid4vci.TxCodeLength && v.Offer.Grants[oid4vci.GrantPreAuthorized].TxCode != nil),
		apptest.True("uri", strings.HasPrefix(v.OfferURI, "openid-credential-offer://?credential_offer=")),
		apptest.True("tx code not in the uri", !strings.Contains(v.OfferURI, v.TxCode)),
		apptest.True("dcc", strings.HasPrefix(v.DCCRequestURL, "dccrequest://request?") && strings.HasPrefix(v.LCWRequestURL, "https://lcw.app/request.html?")),
		apptest.True("qr", strings.HasPrefix(v.QR.Offer, "data:image/svg+xml;base64,")))
	tok := w.accessToken(t, v)
	wl := newWallet(t)

	// jwt_vc_json with a did:key (Ed25519) proof
	r := w.credential(tok, map[string]any{"credential_configuration_id": oid4vci.ConfigJWT,
		"proofs": map[string]any{"jwt": []string{wl.proof(t, origin, w.nonce(t), time.Now(), oid4vci.ProofTyp, wl.kid(), wl.ed)}}})
	var ans struct {
		Credentials []struct {
			Credential json.RawMessage `json:"credential"`
		} `json:"credentials"`
	}
	r.Expect(http.StatusOK).JSON(&ans)
	var jwt string
	if len(ans.Credentials) != 1 || json.Unmarshal(ans.Credentials[0].Credential, &jwt) != nil {
		t.Fatalf("credential answer: %s", r.Body)
	}
	iss := w.e.Deps.Issuer
	vj, err := iss.Verify(ctx, jwt)
	if err != nil {
		t.Fatal(err)
	}
	apptest.Expect(t, "VC-JWT", vj.Payload,
		apptest.Eq("subject", vj.Payload.CredentialSubject.ID, wl.did),
		apptest.Eq("sub", vj.Payload.Sub, wl.did),
		apptest.True("own id", strings.HasPrefix(vj.Payload.ID, "urn:uuid:")),
		apptest.True("own index", vj.Payload.StatusIndexOf() > 0 && vj.Payload.StatusIndexOf() != w.grant.StatusIndex))

	// ldp_vc with a jwk (P-256) proof: bound to the did:jwk of that key
	r = w.credential(tok, map[string]any{"credential_configuration_id": oid4vci.ConfigLDP,
		"proof": map[string]any{"proof_type": "jwt", "jwt": wl.proof(t, origin, w.nonce(t), time.Now(), oid4vci.ProofTyp, "", wl.ec)}})
	r.Expect(http.StatusOK).JSON(&ans)
	if _, err := iss.VerifyLD(ctx, origin, ans.Credentials[0].Credential); err != nil {
		t.Fatalf("ldp_vc: %v", err)
	}
	var ld credential.Credential
	_ = json.Unmarshal(ans.Credentials[0].Credential, &ld)
	if !strings.HasPrefix(ld.CredentialSubject.ID, "did:jwk:") {
		t.Fatalf("ldp_vc subject: %q", ld.CredentialSubject.ID)
	}
	var copies []oid4vci.Copy
	if err := w.e.DB.NewSelect().Model(&copies).Where("grant_id = ?", w.grant.ID).OrderExpr("format").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if len(copies) != 2 || copies[0].StatusIndex == copies[1].StatusIndex || copies[0].HolderDID != wl.did {
		t.Fatalf("copies: %+v", copies)
	}
	// the same configuration twice on one offer is refused
	r = w.credential(tok, map[string]any{"credential_configuration_id": oid4vci.ConfigJWT,
		"proofs": map[string]any{"jwt": []string{wl.proof(t, origin, w.nonce(t), time.Now(), oid4vci.ProofTyp, wl.kid(), wl.ed)}}})
	oauthErr(t, r, http.StatusBadRequest, "credential_request_denied")

	// a copy taken out of the wallet and checked on /verify-badge is recognised as ours:
	// found by its own index and DID, it verifies as the grant it was made from
	type fileResult struct {
		IsValid        bool   `json:"isValid"`
		Status         string `json:"status"`
		VerificationID string `json:"verificationId"`
		Checks         struct {
			Signature bool `json:"signature"`
		} `json:"checks"`
	}
	uploadCopy := func(body []byte, ctype string) fileResult {
		var fr fileResult
		w.e.Client().Raw("POST", "/backend/api/v1/verify/file", bytes.NewReader(body), map[string]string{"Content-Type": ctype}).Expect(http.StatusOK).JSON(&fr)
		return fr
	}
	for _, f := range []struct {
		name, ctype string
		body        []byte
	}{{"VC-JWT copy", "application/vc+jwt", []byte(jwt)}, {"ldp_vc copy", "application/json", ans.Credentials[0].Credential}} {
		fr := uploadCopy(f.body, f.ctype)
		apptest.Expect(t, f.name+" uploaded", fr,
			apptest.True("valid", fr.IsValid), apptest.True("signature", fr.Checks.Signature),
			apptest.Eq("verification id", fr.VerificationID, w.grant.PublicVerificationID))
	}
	// the same index claimed for another DID is no copy we made (and its signature breaks)
	forged := bytes.Replace(ans.Credentials[0].Credential, []byte(ld.CredentialSubject.ID), []byte("did:key:z6MkforgedHolder"), 1)
	if fr := uploadCopy(forged, "application/json"); fr.IsValid || fr.VerificationID != "" {
		t.Fatalf("a copy with another subject: %+v", fr)
	}

	// revoking the grant revokes every copy, for good
	w.admin.Put("/admin/grants/"+w.grant.ID+"/revoke", map[string]any{"category": "issued_in_error", "reason": "issued in error"}).Expect(http.StatusOK)
	if fr := uploadCopy([]byte(jwt), "application/vc+jwt"); fr.IsValid || fr.Status != "revoked" {
		t.Fatalf("a copy of a revoked grant uploaded: %+v", fr)
	}
	for _, c := range copies {
		if revoked, err := credential.IndexRevoked(ctx, w.e.DB, c.StatusIndex); err != nil || !revoked {
			t.Fatalf("copy %d not revoked: %v", c.StatusIndex, err)
		}
	}
	list := w.e.Client().Abs("GET", credential.StatusListPath(credential.PurposeRevocation), nil).Expect(http.StatusOK)
	var sl struct {
		CredentialSubject struct {
			EncodedList string `json:"encodedList"`
		} `json:"credentialSubject"`
	}
	list.JSON(&sl)
	bits, err := credential.DecodeList(sl.CredentialSubject.EncodedList)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range copies {
		if !credential.BitSet(bits, c.StatusIndex) {
			t.Fatalf("revocation list: bit %d off", c.StatusIndex)
		}
	}
	// and no new offer is made for it
	w.hc.Post("/users/badges/"+w.grant.ID+"/wallet-offer", map[string]any{}).ExpectMsg(http.StatusConflict, oid4vci.MsgRevoked)
}

// TestRefusals: replayed and expired offers, tx_code errors, wrong and spent nonces,
// proofs by another key, for another audience, of another type or too old are refused
// with OpenID4VCI's error codes.
func TestRefusals(t *testing.T) {
	w := newWorld(t)
	origin := w.e.URL
	v := w.offer(t, true)
	code := v.Offer.Grants[oid4vci.GrantPreAuthorized].PreAuthorizedCode
	oauthErr(t, w.token(code, "", false), http.StatusBadRequest, "invalid_request") // tx_code missing
	oauthErr(t, w.token(code, "000000x", true), http.StatusBadRequest, "invalid_grant")
	oauthErr(t, w.token("nope", "", false), http.StatusBadRequest, "invalid_grant")
	tok := w.accessToken(t, v)
	oauthErr(t, w.token(code, v.TxCode, true), http.StatusBadRequest, "invalid_grant") // replayed

	// an expired offer
	v2 := w.offer(t, false)
	if _, err := w.e.DB.NewRaw("UPDATE wallet_offers SET expires_at = ? WHERE code_hash = ?", model.Now().Add(-time.Second),
		oid4vci.Hash(v2.Offer.Grants[oid4vci.GrantPreAuthorized].PreAuthorizedCode)).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	oauthErr(t, w.token(v2.Offer.Grants[oid4vci.GrantPreAuthorized].PreAuthorizedCode, "", false), http.StatusBadRequest, "invalid_grant")
	// tx_code sent to an offer without one
	v3 := w.offer(t, false)
	oauthErr(t, w.token(v3.Offer.Grants[oid4vci.GrantPreAuthorized].PreAuthorizedCode, "123456", true), http.StatusBadRequest, "invalid_request")
	// five wrong tx_codes spend the offer
	v4 := w.offer(t, true)
	c4 := v4.Offer.Grants[oid4vci.GrantPreAuthorized].PreAuthorizedCode
	for i := 0; i < oid4vci.MaxTxCodeTry; i++ {
		oauthErr(t, w.token(c4, "x", true), http.StatusBadRequest, "invalid_grant")
	}
	oauthErr(t, w.token(c4, v4.TxCode, true), http.StatusBadRequest, "invalid_grant")

	wl, thief := newWallet(t), newWallet(t)
	req := func(proof string) *apptest.Resp {
		return w.credential(tok, map[string]any{"credential_configuration_id": oid4vci.ConfigJWT, "proofs": map[string]any{"jwt": []string{proof}}})
	}
	oauthErr(t, req(wl.proof(t, origin, "not-a-nonce", time.Now(), oid4vci.ProofTyp, wl.kid(), wl.ed)), http.StatusBadRequest, "invalid_nonce")
	// signed by another key than the kid names
	oauthErr(t, req(wl.proof(t, origin, w.nonce(t), time.Now(), oid4vci.ProofTyp, wl.kid(), thief.ed)), http.StatusBadRequest, "invalid_proof")
	oauthErr(t, req(wl.proof(t, "https://evil.example", w.nonce(t), time.Now(), oid4vci.ProofTyp, wl.kid(), wl.ed)), http.StatusBadRequest, "invalid_proof")
	oauthErr(t, req(wl.proof(t, origin, w.nonce(t), time.Now(), "JWT", wl.kid(), wl.ed)), http.StatusBadRequest, "invalid_proof")
	oauthErr(t, req(wl.proof(t, origin, w.nonce(t), time.Now().Add(-time.Hour), oid4vci.ProofTyp, wl.kid(), wl.ed)), http.StatusBadRequest, "invalid_proof")
	oauthErr(t, w.credential(tok, map[string]any{"credential_configuration_id": oid4vci.ConfigJWT}), http.StatusBadRequest, "invalid_proof")
	oauthErr(t, w.credential(tok, map[string]any{"credential_configuration_id": "nope"}), http.StatusBadRequest, "unknown_credential_configuration")
	r := w.credential("not-a-token", map[string]any{"credential_configuration_id": oid4vci.ConfigJWT})
	oauthErr(t, r, http.StatusUnauthorized, "invalid_token")
	if !strings.Contains(r.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Fatalf("WWW-Authenticate: %q", r.Header.Get("WWW-Authenticate"))
	}
	// a nonce is spent by its use
	n := w.nonce(t)
	req(wl.proof(t, origin, n, time.Now(), oid4vci.ProofTyp, wl.kid(), wl.ed)).Expect(http.StatusOK)
	r = w.credential(tok, map[string]any{"credential_configuration_id": oid4vci.ConfigLDP,
		"proofs": map[string]any{"jwt": []string{wl.proof(t, origin, n, time.Now(), oid4vci.ProofTyp, wl.kid(), wl.ed)}}})
	oauthErr(t, r, http.StatusBadRequest, "invalid_nonce")
	var copies int
	if err := w.e.DB.NewRaw("SELECT count(*) FROM wallet_copies").Scan(w.e.Ctx(), &copies); err != nil || copies != 1 {
		t.Fatalf("copies: %d %v", copies, err)
	}
}

// TestExchange: the VC API exchange answers a DIDAuthentication request, refuses a
// presentation over another challenge or by a key that is not the holder's, answers the
// credential bound to the holder's did:key once, and refuses a replay.
func TestExchange(t *testing.T) {
	w := newWorld(t)
	ctx := w.e.Ctx()
	v := w.offer(t, false)
	exPath := strings.TrimPrefix(v.ExchangeURL, w.e.URL)
	var vpr struct {
		VPR struct {
			Query []struct {
				Type string `json:"type"`
			} `json:"query"`
			Challenge string `json:"challenge"`
			Domain    string `json:"domain"`
		} `json:"verifiablePresentationRequest"`
	}
	w.e.Client().Abs("POST", exPath, map[string]any{}).Expect(http.StatusOK).JSON(&vpr)
	if len(vpr.VPR.Query) != 1 || vpr.VPR.Query[0].Type != "DIDAuthentication" || vpr.VPR.Challenge == "" || vpr.VPR.Domain != w.e.URL {
		t.Fatalf("request: %+v", vpr)
	}
	if !strings.Contains(v.DCCRequestURL, "challenge="+url.QueryEscape(vpr.VPR.Challenge)) {
		t.Fatalf("deep link %s lacks the challenge", v.DCCRequestURL)
	}
	k, err := credential.KeyFromSeed(credential.NewSeed())
	if err != nil {
		t.Fatal(err)
	}
	did := oid4vci.DIDKeyOf(k.Public)
	vm := did + "#" + strings.TrimPrefix(did, "did:key:")
	vp := func(holder, challenge string) json.RawMessage {
		b, err := credential.SignPresentation(map[string]any{"@context": []string{credential.ContextVC}, "type": []string{"VerifiablePresentation"}, "holder": holder},
			k, vm, challenge, vpr.VPR.Domain, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	post := func(p json.RawMessage) *apptest.Resp {
		return w.e.Client().Abs("POST", exPath, map[string]any{"verifiablePresentation": p})
	}
	post(vp(did, "another")).ExpectMsg(http.StatusBadRequest, "The presentation's proof is not over this exchange's challenge.")
	other := oid4vci.DIDKeyOf(newWallet(t).ed.Public().(ed25519.PublicKey))
	post(vp(other, vpr.VPR.Challenge)).ExpectMsg(http.StatusBadRequest, "The presentation is not signed by its holder.")
	withVC := strings.Replace(string(vp(did, vpr.VPR.Challenge)), `"holder"`, `"verifiableCredential":[{"id":"urn:x"}],"holder"`, 1)
	post(json.RawMessage(withVC)).ExpectMsg(http.StatusBadRequest, oid4vci.MsgPresentationShape)
	tampered := strings.Replace(string(vp(did, vpr.VPR.Challenge)), `"VerifiablePresentation"`, `"VerifiablePresentation","VerifiableCredential"`, 1)
	post(json.RawMessage(tampered)).ExpectMsg(http.StatusBadRequest, "The presentation's signature does not verify.")

	var out struct {
		VP struct {
			VCs []json.RawMessage `json:"verifiableCredential"`
		} `json:"verifiablePresentation"`
	}
	post(vp(did, vpr.VPR.Challenge)).Expect(http.StatusOK).JSON(&out)
	if len(out.VP.VCs) != 1 {
		t.Fatalf("answer: %+v", out)
	}
	if _, err := w.e.Deps.Issuer.VerifyLD(ctx, w.e.URL, out.VP.VCs[0]); err != nil {
		t.Fatal(err)
	}
	var c credential.Credential
	_ = json.Unmarshal(out.VP.VCs[0], &c)
	if c.CredentialSubject.ID != did {
		t.Fatalf("subject %q, want %q", c.CredentialSubject.ID, did)
	}
	post(vp(did, vpr.VPR.Challenge)).ExpectMsg(http.StatusConflict, oid4vci.MsgExchangeUsed)
	w.e.Client().Abs("POST", oid4vci.ExchangePath+strings.Repeat("a", 48), map[string]any{}).ExpectMsg(http.StatusNotFound, oid4vci.MsgExchangeNotFound)
}

// listBit reads bit idx of our status list of purpose.
func (w *world) listBit(t *testing.T, purpose string, idx int) bool {
	t.Helper()
	var sl struct {
		CredentialSubject struct {
			EncodedList string `json:"encodedList"`
		} `json:"credentialSubject"`
	}
	w.e.Client().Abs("GET", credential.StatusListPath(purpose), nil).Expect(http.StatusOK).JSON(&sl)
	bits, err := credential.DecodeList(sl.CredentialSubject.EncodedList)
	if err != nil {
		t.Fatal(err)
	}
	return credential.BitSet(bits, idx)
}

// TestCopiesSuspendedWithTheirGrant: an expiry the admin brings forward after a wallet
// took its copy (whose validUntil says nothing of it) suspends the copy too: reversible,
// never a revocation.
func TestCopiesSuspendedWithTheirGrant(t *testing.T) {
	w := newWorld(t)
	// granted two days ago, so an expiry an hour ago is after the grant
	if _, err := w.e.DB.NewRaw("UPDATE badge_grants SET granted_at = ? WHERE id = ?", model.Now().Add(-48*time.Hour), w.grant.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	v := w.offer(t, false)
	tok := w.accessToken(t, v)
	wl := newWallet(t)
	w.credential(tok, map[string]any{"credential_configuration_id": oid4vci.ConfigLDP,
		"proofs": map[string]any{"jwt": []string{wl.proof(t, w.e.URL, w.nonce(t), time.Now(), oid4vci.ProofTyp, wl.kid(), wl.ed)}}}).Expect(http.StatusOK)
	var c oid4vci.Copy
	if err := w.e.DB.NewSelect().Model(&c).Where("grant_id = ?", w.grant.ID).Scan(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	if w.listBit(t, credential.PurposeSuspension, c.StatusIndex) {
		t.Fatal("suspended before any expiry")
	}
	past := model.Now().Add(-time.Hour).Format(time.RFC3339)
	w.admin.Put("/admin/grants/"+w.grant.ID+"/expiry", map[string]any{"expiresAt": past}).Expect(http.StatusOK)
	if !w.listBit(t, credential.PurposeSuspension, c.StatusIndex) || w.listBit(t, credential.PurposeRevocation, c.StatusIndex) {
		t.Fatal("the copy of an expired grant must read suspended, not revoked")
	}
	w.admin.Put("/admin/grants/"+w.grant.ID+"/expiry", map[string]any{"expiresAt": nil}).Expect(http.StatusOK)
	if w.listBit(t, credential.PurposeSuspension, c.StatusIndex) {
		t.Fatal("clearing the expiry lifts the copy's suspension")
	}
}
