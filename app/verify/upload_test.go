package verify_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/credential"
	"meritmark/app/verify"
)

type fileResult struct {
	result
	Source        string `json:"source"`
	Format        string `json:"format"`
	ClaimedIssuer string `json:"claimedIssuer"`
	CredentialID  string `json:"credentialId"`
	TrustDetail   string `json:"trustDetail"`
}

func upload(c *apptest.Client, name, ctype string, data []byte) *apptest.Resp {
	return c.Multipart("POST", "/verify/file", nil, apptest.File{Field: "file", Name: name, ContentType: ctype, Data: data})
}

func roomyLimits(t *testing.T) {
	b, r := verify.LimitBurst, verify.LimitRate
	verify.LimitBurst = 500
	t.Cleanup(func() { verify.LimitBurst, verify.LimitRate = b, r })
}

// TestVerifyAFile: a baked PNG, a JWT (uploaded or sent as the body) and the JSON form
// dropped on /verify-badge get the checks an id gets; a forged copy signed by an attacker's
// key is reported untrusted, never fetched from; a changed byte is a failed signature;
// revocation and a later expiry reach copies downloaded before them.
func TestVerifyAFile(t *testing.T) {
	roomyLimits(t)
	w := newWorld(t)
	_, g := w.grant(t, "Ada Lovelace", "ada@example.com", w.badge)
	c := w.e.Client()
	base := "/credentials/" + g.PublicVerificationID
	pngBody := c.Abs("GET", base+".png", nil).Expect(http.StatusOK).Body
	jwt := c.Abs("GET", base+".jwt", nil).Expect(http.StatusOK).Text()

	var r fileResult
	upload(c, "badge.png", "image/png", pngBody).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "baked PNG", r,
		apptest.True("r.IsValid", r.IsValid),
		apptest.Eq("r.Status", r.Status, "valid"),
		apptest.Eq("r.Source", r.Source, "file"),
		apptest.Eq("r.Format", r.Format, "png"),
		apptest.Eq("r.Reason", r.Reason, ""),
		apptest.True("r.Checks.Signature", r.Checks.Signature),
		apptest.True("r.Checks.NotRevoked", r.Checks.NotRevoked),
		apptest.True("r.Checks.NotExpired", r.Checks.NotExpired),
		apptest.True("r.Checks.IssuerTrusted", r.Checks.IssuerTrusted),
		apptest.True("r.Checks.IssuerKey != \"\"", r.Checks.IssuerKey != ""),
		apptest.Eq("r.VerificationID", r.VerificationID, g.PublicVerificationID),
		apptest.Eq("r.Badge.Name", r.Badge.Name, "Go Developer"),
		apptest.Eq("r.User.Name", r.User.Name, "Ada Lovelace"),
		apptest.Eq("r.User.Email", r.User.Email, "a***@example.com"),
		apptest.Eq("r.ClaimedIssuer", r.ClaimedIssuer, credential.DIDWeb(w.e.URL)),
		apptest.Eq("r.CredentialID", r.CredentialID, w.e.URL+base),
		apptest.Eq("r.TrustDetail", r.TrustDetail, "issued by the trusted issuer "+w.e.URL),
		apptest.Eq("r.Credential.VerifyURL", r.Credential.VerifyURL, w.e.URL+"/verify/"+g.PublicVerificationID))
	upload(c, "c.jwt", "application/octet-stream", []byte("\n"+jwt+"\n")).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "JWT file", r,
		apptest.True("r.IsValid", r.IsValid),
		apptest.Eq("r.Format", r.Format, "jwt"))
	c.Raw("POST", "/backend/api/v1/verify/file", strings.NewReader(jwt), map[string]string{"Content-Type": "application/vc+jwt"}).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "JWT body", r,
		apptest.True("r.IsValid", r.IsValid),
		apptest.Eq("r.Format", r.Format, "jwt"))
	// the JSON download: its eddsa-rdfc-2022 Data Integrity proof by our did:web
	jsonBody := c.Abs("GET", base+".json", nil).Expect(http.StatusOK).Body
	upload(c, "c.json", "application/json", jsonBody).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "JSON-LD file", r,
		apptest.True("r.IsValid", r.IsValid),
		apptest.Eq("r.Format", r.Format, "json"),
		apptest.True("r.Checks.Signature", r.Checks.Signature),
		apptest.True("r.Checks.IssuerTrusted", r.Checks.IssuerTrusted),
		apptest.Eq("r.ClaimedIssuer", r.ClaimedIssuer, credential.DIDWeb(w.e.URL)),
		apptest.Eq("r.VerificationID", r.VerificationID, g.PublicVerificationID))
	// one changed character in its content, or in its proof; the proof taken away
	changed := bytes.Replace(jsonBody, []byte(`"Go Developer"`), []byte(`"Go Developes"`), 1)
	upload(c, "c.json", "application/json", changed).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "JSON-LD with a changed name", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.True("!r.Checks.Signature", !r.Checks.Signature),
		apptest.Eq("r.Status", r.Status, "invalid"),
		apptest.Eq("r.Reason", r.Reason, verify.MsgSignatureFailed))
	i := bytes.Index(jsonBody, []byte(`"proofValue": "z`)) + len(`"proofValue": "z`) + 5
	changed = append([]byte{}, jsonBody...)
	if changed[i] == 'A' {
		changed[i] = 'B'
	} else {
		changed[i] = 'A'
	}
	upload(c, "c.json", "application/json", changed).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "JSON-LD with a changed proof", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.True("!r.Checks.Signature", !r.Checks.Signature))
	var doc map[string]any
	_ = json.Unmarshal(jsonBody, &doc)
	delete(doc, "proof")
	unsigned, _ := json.Marshal(doc)
	upload(c, "c.json", "application/json", unsigned).ExpectMsg(http.StatusUnprocessableEntity, verify.MsgUnsigned)

	// one changed byte in the signature, or in the payload
	parts := strings.Split(jwt, ".")
	upload(c, "c.jwt", "", []byte(parts[0]+"."+parts[1]+"."+flip(parts[2]))).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "flipped signature byte", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.Eq("r.Status", r.Status, "invalid"),
		apptest.True("!r.Checks.Signature", !r.Checks.Signature),
		apptest.Eq("r.Reason", r.Reason, verify.MsgSignatureFailed),
		apptest.True("r.Checks.IssuerTrusted", r.Checks.IssuerTrusted))
	tampered, err := credential.Bake(pngBody, parts[0]+"."+flip(parts[1])+"."+parts[2])
	if err != nil {
		t.Fatal(err)
	}
	res := upload(c, "c.png", "image/png", tampered)
	if res.Status == http.StatusOK {
		res.JSON(&r)
		apptest.Expect(t, "flipped payload byte", r,
			apptest.True("!r.IsValid", !r.IsValid),
			apptest.True("!r.Checks.Signature", !r.Checks.Signature))
	} else if res.Status != http.StatusBadRequest || res.Msg() != verify.MsgJWTMalformed {
		t.Fatalf("flipped payload byte: %d %s", res.Status, res.Text())
	}

	// the forgery: the real credential re-signed by an attacker whose iss names the
	// attacker's JWKS, baked into the real image
	evil := newAttacker(t)
	forged := forge(t, jwt, evil.key, func(m map[string]any) {
		m["iss"] = evil.srv.URL + "/issuer"
		m["issuer"].(map[string]any)["id"] = evil.srv.URL + "/issuer"
	})
	baked, _ := credential.Bake(pngBody, forged)
	upload(c, "forged.png", "image/png", baked).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "forged PNG", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.Eq("r.Status", r.Status, verify.StatusUntrusted),
		apptest.True("!r.Checks.Signature", !r.Checks.Signature),
		apptest.True("!r.Checks.IssuerTrusted", !r.Checks.IssuerTrusted),
		apptest.Eq("r.Checks.IssuerKey", r.Checks.IssuerKey, ""),
		apptest.Eq("r.Reason", r.Reason, verify.MsgUntrusted+" It names "+evil.srv.URL+"/issuer."),
		apptest.Eq("r.ClaimedIssuer", r.ClaimedIssuer, evil.srv.URL+"/issuer"),
		apptest.Eq("r.User.Name", r.User.Name, ""),
		apptest.True("!strings.Contains(r.Reason, \"signature\")", !strings.Contains(r.Reason, "signature")),
		apptest.Eq("r.TrustDetail", r.TrustDetail, "not trusted: the credential names the issuer "+evil.srv.URL+"/issuer; trusted: "+w.e.URL))
	for name, edit := range map[string]func(m map[string]any){
		"iss only": func(m map[string]any) { m["iss"] = evil.srv.URL + "/issuer" },
		"whole":    func(m map[string]any) { setOrigin(m, w.e.URL, evil.srv.URL) },
		"id only": func(m map[string]any) {
			m["id"], m["jti"] = evil.srv.URL+"/credentials/x", evil.srv.URL+"/credentials/x"
		},
	} {
		upload(c, "f.jwt", "", []byte(forge(t, jwt, evil.key, edit))).Expect(http.StatusOK).JSON(&r)
		apptest.Expect(t, fmt.Sprintf("forged (%s)", name), r,
			apptest.True("!r.IsValid", !r.IsValid),
			apptest.Eq("r.Status", r.Status, verify.StatusUntrusted),
			apptest.True("!r.Checks.Signature", !r.Checks.Signature))
	}
	k := *evil.key
	k.KID = evil.srv.URL + "/.well-known/jwks.json#" + evil.key.KID
	upload(c, "f.jwt", "", []byte(forge(t, jwt, &k, func(map[string]any) {}))).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "forged kid", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.Eq("r.Status", r.Status, verify.StatusUntrusted),
		apptest.True("strings.Contains(r.TrustDetail, \"the signing key \"+k.KID+\" is not published by the issuer\")", strings.Contains(r.TrustDetail, "the signing key "+k.KID+" is not published by the issuer")))
	// our ids throughout but the attacker's key: a failed signature, not a trust question
	upload(c, "f.jwt", "", []byte(forge(t, jwt, evil.key, func(map[string]any) {}))).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "our ids, attacker's key", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.Eq("r.Status", r.Status, "invalid"),
		apptest.Eq("r.Reason", r.Reason, verify.MsgSignatureFailed),
		apptest.True("r.Checks.IssuerTrusted", r.Checks.IssuerTrusted))
	if n := evil.hits.Load(); n != 0 {
		t.Fatalf("the server asked the attacker's server %d times", n)
	}

	// a signed credential of ours naming no grant we know
	ghost := forge(t, jwt, w.e.Deps.Issuer.Keys.Active(), func(m map[string]any) {
		m["id"], m["jti"] = w.e.URL+"/credentials/"+strings.Repeat("a", 32), w.e.URL+"/credentials/"+strings.Repeat("a", 32)
	})
	upload(c, "ghost.jwt", "", []byte(ghost)).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "a credential we never issued", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.Eq("r.Status", r.Status, "invalid"),
		apptest.True("r.Checks.IssuerTrusted", r.Checks.IssuerTrusted),
		apptest.True("r.Checks.IssuerKey != \"\"", r.Checks.IssuerKey != ""),
		apptest.Eq("r.Reason", r.Reason, verify.MsgNotVerified+" No badge issued by Meritmark has this credential's id."))

	// revoked, then expired: a copy downloaded before is judged by today's records
	w.admin.Put("/admin/grants/"+g.ID+"/revoke", map[string]any{"category": "issued_in_error", "reason": "Issued in error"}).Expect(http.StatusOK)
	upload(c, "badge.png", "image/png", pngBody).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "revoked", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.Eq("r.Status", r.Status, "revoked"),
		apptest.True("r.Checks.Signature", r.Checks.Signature),
		apptest.True("!r.Checks.NotRevoked", !r.Checks.NotRevoked),
		apptest.Eq("r.RevocationReason", r.RevocationReason, "Issued in error"))
	_, g2 := w.grant(t, "Dorothy Vaughan", "dv@example.com", w.badge)
	old := c.Abs("GET", "/credentials/"+g2.PublicVerificationID+".png", nil).Expect(http.StatusOK).Body
	w.backdate(t, g2.ID, 10*24*time.Hour)
	w.admin.Put("/admin/grants/"+g2.ID+"/expiry", map[string]any{"expiresAt": time.Now().UTC().Add(-time.Hour).Format(time.RFC3339)}).Expect(http.StatusOK)
	upload(c, "old.png", "image/png", old).Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "expired after download", r,
		apptest.True("!r.IsValid", !r.IsValid),
		apptest.Eq("r.Status", r.Status, "expired"),
		apptest.True("!r.Checks.NotExpired", !r.Checks.NotExpired))
}

// TestVerifyAFileRefusesBadInput: what is not a credential gets a 4xx and a message that
// says what is wrong, never a 5xx.
func TestVerifyAFileRefusesBadInput(t *testing.T) {
	roomyLimits(t)
	w := newWorld(t)
	_, g := w.grant(t, "Alan Turing", "alan@example.com", w.badge)
	c := w.e.Client()
	jwt := c.Abs("GET", "/credentials/"+g.PublicVerificationID+".jwt", nil).Expect(http.StatusOK).Text()
	var plain bytes.Buffer
	_ = png.Encode(&plain, image.NewGray(image.Rect(0, 0, 4, 4)))
	baked, _ := credential.Bake(plain.Bytes(), jwt)

	cases := []struct {
		name   string
		data   []byte
		status int
		msg    string
	}{
		{"empty", nil, 400, verify.MsgFileEmpty},
		{"spaces", []byte(" \n\t "), 400, verify.MsgFileEmpty},
		{"random bytes", []byte("\x00\x01\x02\xff\xfe garbage"), 400, verify.MsgFileUnknown},
		{"text", []byte("hello, I am a badge"), 400, verify.MsgFileUnknown},
		{"a plain PNG", plain.Bytes(), 400, verify.MsgPNGNotBaked},
		{"a truncated PNG", baked[:len(baked)/2], 400, verify.MsgPNGBroken},
		{"a PNG with a bad CRC", append(append([]byte{}, baked[:len(baked)-5]...), 0, 0, 0, 0, 0), 400, verify.MsgPNGBroken},
		{"a PNG claiming a 4 GB chunk", []byte("\x89PNG\r\n\x1a\n\xff\xff\xff\xffIHDR"), 400, verify.MsgPNGBroken},
		{"a PNG baked with junk", mustBake(t, plain.Bytes(), "<script>alert(1)</script>"), 400, verify.MsgJWTMalformed},
		{"a JWT of nothing", []byte("a.b.c"), 400, verify.MsgJWTMalformed},
		{"alg none", []byte("eyJhbGciOiJub25lIn0.eyJ4IjoxfQ."), 400, verify.MsgJWTMalformed},
		{"a JWT that is no credential", []byte("eyJhbGciOiJFZERTQSJ9.eyJ4IjoxfQ.AAAA"), 400, verify.MsgJWTMalformed},
		{"broken JSON", []byte(`{"id": "x",`), 400, verify.MsgJSONBroken},
		{"deep JSON", []byte(strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)), 400, verify.MsgJSONBroken},
		{"JSON that is no credential", []byte(`{"id":"https://x.example/1","type":["VerifiableCredential"],"issuer":"https://x.example"}`), 400, verify.MsgJSONNotOB},
		{"JSON with a wrong issuer shape", []byte(`{"id":"https://x.example/1","type":"OpenBadgeCredential","issuer":[1,2]}`), 400, verify.MsgJSONNotOB},
		{"JSON without proof", []byte(`{"id":"https://x.example/1","type":["VerifiableCredential","OpenBadgeCredential"],"issuer":{"id":"https://x.example"}}`), 422, verify.MsgUnsigned},
		{"too large", bytes.Repeat([]byte("a"), verify.MaxFileBytes+1), 413, verify.MsgFileTooLarge},
		{"UTF-16", []byte("\xff\xfe{\x00}\x00"), 400, verify.MsgFileUnknown},
	}
	for _, tc := range cases {
		res := upload(c, "f", "", tc.data)
		if res.Status != tc.status || res.Msg() != tc.msg {
			t.Errorf("%s: %d %s, want %d %q", tc.name, res.Status, res.Text(), tc.status, tc.msg)
		}
	}
	// no file, another field, a wrong content type, a compressed body, too large a body
	c.Multipart("POST", "/verify/file", map[string]string{"file": jwt}).ExpectMsg(http.StatusBadRequest, verify.MsgFileMissing)
	c.Multipart("POST", "/verify/file", nil, apptest.File{Field: "other", Name: "x.jwt", Data: []byte(jwt)}).ExpectMsg(http.StatusBadRequest, verify.MsgFileMissing)
	c.Raw("POST", "/backend/api/v1/verify/file", strings.NewReader(jwt), map[string]string{"Content-Type": "application/x-www-form-urlencoded"}).
		ExpectMsg(http.StatusUnsupportedMediaType, verify.MsgFileMissing)
	c.Raw("POST", "/backend/api/v1/verify/file", strings.NewReader(""), map[string]string{"Content-Type": "text/plain"}).ExpectMsg(http.StatusBadRequest, verify.MsgFileMissing)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(jwt))
	_ = zw.Close()
	if res := c.Raw("POST", "/backend/api/v1/verify/file", &gz, map[string]string{"Content-Type": "text/plain", "Content-Encoding": "gzip"}); res.Status != http.StatusUnsupportedMediaType {
		t.Fatalf("gzip body: %d", res.Status)
	}
	// far over the body limit: refused from the headers, before the body is read; the server
	// may close the connection while the client is still sending, so the client sees the 413
	// or a reset (app/abuse covers the 413 itself), never another answer
	req, _ := http.NewRequest("POST", w.e.URL+"/backend/api/v1/verify/file", bytes.NewReader(bytes.Repeat([]byte("\x89PNG"), 300_000)))
	req.Header.Set("Content-Type", "image/png")
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("1.2 MB upload: %d", res.StatusCode)
		}
	}
	c.Get("/verify/file").Expect(http.StatusNotFound)
}

func mustBake(t *testing.T, img []byte, text string) []byte {
	t.Helper()
	b, err := credential.Bake(img, text)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestVerifyAFileIsRateLimited: every upload costs a token of the verify rate limit.
func TestVerifyAFileIsRateLimited(t *testing.T) {
	defer func(b, r float64) { verify.LimitBurst, verify.LimitRate = b, r }(verify.LimitBurst, verify.LimitRate)
	verify.LimitBurst, verify.LimitRate = 3, 0.001
	w := newWorld(t)
	c := w.e.Client()
	for i := 0; i < 3; i++ {
		upload(c, "x", "", []byte("nothing")).ExpectMsg(http.StatusBadRequest, verify.MsgFileUnknown)
	}
	res := upload(c, "x", "", []byte("nothing"))
	res.ExpectMsg(http.StatusTooManyRequests, verify.MsgRateLimited)
	if res.Header.Get("Retry-After") != "60" {
		t.Fatal("no Retry-After")
	}
}
