package verify_test

import (
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/verify"
)

type bulkAnswer = verify.BulkResult

// bulkWorld has three holders: one valid, one revoked, one expired.
func bulkWorld(t *testing.T) (*world, [3]*model.BadgeGrant) {
	t.Helper()
	w := newWorld(t)
	var gs [3]*model.BadgeGrant
	_, gs[0] = w.grant(t, "Val Id", email(1), w.badge)
	_, gs[1] = w.grant(t, "Rev Oked", email(2), w.badge)
	_, gs[2] = w.grant(t, "Ex Pired", email(3), w.badge)
	w.admin.Put("/admin/grants/"+gs[1].ID+"/revoke", map[string]any{"category": "fraud", "reason": "Documents were not genuine."}).Expect(http.StatusOK)
	w.backdate(t, gs[2].ID, 72*time.Hour)
	w.admin.Put("/admin/grants/"+gs[2].ID+"/expiry", map[string]any{"expiresAt": time.Now().UTC().Add(-time.Hour).Format(time.RFC3339)}).Expect(http.StatusOK)
	for i := range gs {
		gs[i] = w.reload(t, gs[i].ID)
	}
	return w, gs
}

func TestBulkVerifyMixedList(t *testing.T) {
	w, gs := bulkWorld(t)
	c := w.e.Client()
	unknown := "MM-0000-0000-0000"
	ids := []string{
		gs[0].VerificationID,
		w.e.URL + "/verify/" + gs[1].PublicVerificationID,
		strings.ToLower(gs[2].VerificationID),
		unknown,
		"not an id at all",
		"",
		gs[0].PublicVerificationID,
	}
	var res bulkAnswer
	c.Post("/verify/bulk", map[string]any{"ids": ids}).Expect(http.StatusOK).JSON(&res)
	want := []struct {
		row    int
		status string
		holder string
	}{{1, "valid", "Val Id"}, {2, "revoked", "Rev Oked"}, {3, "expired", "Ex Pired"}, {4, verify.StatusNotFound, ""},
		{5, verify.StatusMalformed, ""}, {7, "valid", "Val Id"}}
	if len(res.Rows) != len(want) {
		t.Fatalf("rows %+v", res.Rows)
	}
	for i, wr := range want {
		r := res.Rows[i]
		if r.Row != wr.row || r.Status != wr.status || r.Holder != wr.holder {
			t.Errorf("row %d: %+v, want %+v", i, r, wr)
		}
	}
	v := res.Rows[0]
	if !v.IsValid || v.Badge != "Go Developer" || v.IssuedAt == nil || v.Checks == nil || !v.Checks.Signature || !v.Checks.NotRevoked ||
		!v.Checks.NotExpired || v.VerifyURL != w.e.URL+"/verify/"+gs[0].PublicVerificationID || v.Input != gs[0].VerificationID {
		t.Errorf("valid row %+v", v)
	}
	if r := res.Rows[1]; r.IsValid || r.Checks.NotRevoked || !strings.HasSuffix(r.Reason, "Reason: Fraudulent or misrepresented evidence") {
		t.Errorf("revoked row %+v", r)
	}
	if r := res.Rows[2]; r.IsValid || r.Checks.NotExpired || r.ExpiresAt == nil || !strings.HasPrefix(r.Reason, "This badge expired on ") {
		t.Errorf("expired row %+v", r)
	}
	if r := res.Rows[3]; r.Reason != verify.MsgNotVerified || r.Checks != nil || r.Input != unknown {
		t.Errorf("unknown row %+v", r)
	}
	if r := res.Rows[4]; r.Reason != verify.MsgBulkMalformed || r.Input != "not an id at all" {
		t.Errorf("malformed row %+v", r)
	}
	if s := res.Summary; s != (verify.BulkSummary{Total: 6, Valid: 2, Revoked: 1, Expired: 1, NotFound: 1, Malformed: 1}) {
		t.Errorf("summary %+v", s)
	}
	if res.Receipt == "" || time.Since(res.CheckedAt) > time.Minute {
		t.Errorf("receipt %q at %v", res.Receipt, res.CheckedAt)
	}
	// no e-mail address in clear, no private data
	body := c.Post("/verify/bulk", map[string]any{"ids": ids}).Text()
	if strings.Contains(body, email(1)) || strings.Contains(body, "credential_jwt") {
		t.Error("the answer leaks an address or a credential column")
	}
}

func TestBulkVerifyCSVForms(t *testing.T) {
	w, gs := bulkWorld(t)
	c := w.e.Client()
	csvText := "\uFEFFCandidate name,E-mail,Verification link\r\n" +
		`"Lee, Val",val@example.com,` + w.e.URL + "/verify/" + gs[0].PublicVerificationID + "\r\n" +
		"Rev,rev@example.com," + gs[1].VerificationID + "\r\n" +
		"\r\n" +
		"Nobody,nobody@example.com,no link given\n" +
		"Ex;ex@example.com;" + gs[2].VerificationID + "\n"
	check := func(name string, r *apptest.Resp) {
		t.Helper()
		var res bulkAnswer
		r.Expect(http.StatusOK).JSON(&res)
		got := []string{}
		for _, row := range res.Rows {
			got = append(got, fmt.Sprintf("%d:%s", row.Row, row.Status))
		}
		if strings.Join(got, " ") != "2:valid 3:revoked 5:malformed 6:expired" {
			t.Errorf("%s: rows %v", name, got)
		}
		if res.Rows[2].Input != "Nobody" {
			t.Errorf("%s: malformed input %q", name, res.Rows[2].Input)
		}
	}
	check("text/csv", c.Raw("POST", "/backend/api/v1/verify/bulk", strings.NewReader(csvText), map[string]string{"Content-Type": "text/csv"}))
	check("json csv", c.Post("/verify/bulk", map[string]any{"csv": csvText}))
	check("multipart", c.Multipart("POST", "/verify/bulk", nil, apptest.File{Field: "file", Name: "candidates.csv", Data: []byte(csvText)}))

	// the CSV download: one line per row, formulas defused
	r := c.Raw("POST", "/backend/api/v1/verify/bulk?format=csv", strings.NewReader(gs[0].VerificationID+"\n=HYPERLINK(\"http://evil\")\n"),
		map[string]string{"Content-Type": "text/plain"}).Expect(http.StatusOK)
	apptest.Want(t, "csv headers", r.Header,
		apptest.True("strings.HasPrefix(r.Header.Get(\"Content-Type\"), \"text/csv\")", strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv")),
		apptest.True("strings.Contains(r.Header.Get(\"Content-Disposition\"), \"attachment\")", strings.Contains(r.Header.Get("Content-Disposition"), "attachment")))
	recs, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
	if err != nil || len(recs) != 3 {
		t.Fatalf("csv %v %q", err, r.Text())
	}
	if strings.Join(recs[0], ",") != strings.Join(verify.BulkCSVHeader, ",") {
		t.Errorf("header %v", recs[0])
	}
	apptest.Want(t, "valid line", recs[1],
		apptest.Eq("recs[1][2]", recs[1][2], "valid"),
		apptest.Eq("recs[1][3]", recs[1][3], "Val Id"),
		apptest.Eq("recs[1][4]", recs[1][4], "Go Developer"),
		apptest.Eq("recs[1][7]", recs[1][7], "yes"),
		apptest.Eq("recs[1][5]", recs[1][5], gs[0].GrantedAt.UTC().Format("2006-01-02")))
	apptest.Want(t, "formula line", recs[2],
		apptest.Eq("recs[2][1]", recs[2][1], `'=HYPERLINK("http://evil")`),
		apptest.Eq("recs[2][2]", recs[2][2], verify.StatusMalformed))
}

func TestBulkVerifyBadInput(t *testing.T) {
	w, gs := bulkWorld(t)
	c := w.e.Client()
	post := func(body, ctype string) *apptest.Resp {
		return c.Raw("POST", "/backend/api/v1/verify/bulk", strings.NewReader(body), map[string]string{"Content-Type": ctype})
	}
	post("", "application/json").ExpectMsg(http.StatusBadRequest, verify.MsgBulkEmpty)
	post("{", "application/json").ExpectMsg(http.StatusBadRequest, verify.MsgBulkFormat)
	post(`{"ids": [1, 2]}`, "application/json").ExpectMsg(http.StatusBadRequest, verify.MsgBulkFormat)
	post(`{"other": true}`, "application/json").ExpectMsg(http.StatusBadRequest, verify.MsgBulkFormat)
	post(`{"ids": []}`, "application/json").ExpectMsg(http.StatusBadRequest, verify.MsgBulkEmpty)
	post(`{"ids": ["", "  "]}`, "application/json").ExpectMsg(http.StatusBadRequest, verify.MsgBulkEmpty)
	post("ids", "application/xml").ExpectMsg(http.StatusBadRequest, verify.MsgBulkFormat)
	post("\n\n  \n", "text/csv").ExpectMsg(http.StatusBadRequest, verify.MsgBulkEmpty)
	post("verification id\n", "text/csv").ExpectMsg(http.StatusBadRequest, verify.MsgBulkEmpty)
	post("MM-1\x00\x01\x02", "text/csv").ExpectMsg(http.StatusBadRequest, verify.MsgBulkNotText)
	post("\xff\xfe\xfd", "text/csv").ExpectMsg(http.StatusBadRequest, verify.MsgBulkNotText)
	// too many entries, too large a file, too large a body
	many := make([]string, verify.MaxBulkIDs+1)
	for i := range many {
		many[i] = "MM-0000-0000-" + fmt.Sprintf("%04d", i%10000)
	}
	c.Post("/verify/bulk", map[string]any{"ids": many}).ExpectMsg(http.StatusBadRequest, verify.MsgBulkTooMany)
	post(strings.Join(many, "\n"), "text/csv").ExpectMsg(http.StatusBadRequest, verify.MsgBulkTooMany)
	post(strings.Repeat("x", verify.MaxBulkBytes+1), "text/csv").ExpectMsg(http.StatusRequestEntityTooLarge, verify.MsgBulkTooLarge)
	c.Multipart("POST", "/verify/bulk", nil, apptest.File{Field: "file", Name: "big.csv", Data: bytes.Repeat([]byte("y"), verify.MaxBulkBytes+1)}).
		ExpectMsg(http.StatusRequestEntityTooLarge, verify.MsgBulkTooLarge)
	// a body far over the route's limit is refused from its header: 413, or the connection
	// is closed while the client is still sending
	if r, err := http.Post(w.e.URL+"/backend/api/v1/verify/bulk", "text/csv", strings.NewReader(strings.Repeat("z", 3*verify.MaxBulkBytes))); err == nil {
		r.Body.Close()
		if r.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("far over the limit: %d", r.StatusCode)
		}
	}
	c.Multipart("POST", "/verify/bulk", map[string]string{"other": "x"}).ExpectMsg(http.StatusBadRequest, verify.MsgBulkFormat)

	// exactly the limit is fine: 1,000 entries, unknown ones mixed with a good one
	many = many[:verify.MaxBulkIDs]
	many[500] = gs[0].VerificationID
	var res bulkAnswer
	c.Post("/verify/bulk", map[string]any{"ids": many}).Expect(http.StatusOK).JSON(&res)
	apptest.Want(t, "1000", res.Summary,
		apptest.Eq("res.Summary.Total", res.Summary.Total, 1000),
		apptest.Eq("res.Summary.Valid", res.Summary.Valid, 1),
		apptest.Eq("res.Summary.NotFound", res.Summary.NotFound, 999),
		apptest.Eq("res.Rows[500].Holder", res.Rows[500].Holder, "Val Id"))
	// a huge single cell is one malformed entry, echoed back shortened
	c.Post("/verify/bulk", map[string]any{"csv": strings.Repeat("q", 5000)}).Expect(http.StatusOK).JSON(&res)
	if len(res.Rows) != 1 || res.Rows[0].Status != verify.StatusMalformed || len([]rune(res.Rows[0].Input)) > 121 {
		t.Errorf("huge cell %+v", res.Rows)
	}
}

func TestBulkVerifyRateLimitPerClient(t *testing.T) {
	w, gs := bulkWorld(t)
	old := verify.BulkLimit
	verify.BulkLimit = 3
	t.Cleanup(func() { verify.BulkLimit = old })
	c := w.e.Client()
	body := map[string]any{"ids": []string{gs[0].VerificationID}}
	// a refused request (bad input) does not count
	c.Post("/verify/bulk", map[string]any{"ids": []string{}}).Expect(http.StatusBadRequest)
	for i := 0; i < 3; i++ {
		c.Post("/verify/bulk", body).Expect(http.StatusOK)
	}
	r := c.Post("/verify/bulk", body).ExpectMsg(http.StatusTooManyRequests, verify.MsgBulkRateLimited)
	if r.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	// a signed-in recruiter is counted on their own account
	_, member := w.e.Member("recruiter@example.com")
	member.Post("/verify/bulk", body).Expect(http.StatusOK)
}

func TestVerificationReceipt(t *testing.T) {
	w, gs := bulkWorld(t)
	c := w.e.Client()
	var res bulkAnswer
	c.Post("/verify/bulk", map[string]any{"ids": []string{gs[0].VerificationID, gs[1].VerificationID, "MM-0000-0000-0000"}}).Expect(http.StatusOK).JSON(&res)

	var ok verify.CheckedReceipt
	c.Post("/verify/receipts/check", map[string]any{"receipt": res.Receipt}).Expect(http.StatusOK).JSON(&ok)
	apptest.Expect(t, "checked", ok,
		apptest.True("ok.Valid", ok.Valid),
		apptest.Eq("ok.Msg", ok.Msg, verify.MsgReceiptGenuine),
		apptest.True("ok.KeyID != \"\"", ok.KeyID != ""),
		apptest.True("ok.Receipt != nil", ok.Receipt != nil))
	apptest.Expect(t, "checked", ok,
		apptest.Eq("ok.Receipt.Type", ok.Receipt.Type, verify.ReceiptType),
		apptest.Eq("len(ok.Receipt.Rows)", len(ok.Receipt.Rows), 3))
	apptest.Expect(t, "checked", ok,
		apptest.Eq("ok.Receipt.Rows[1].Status", ok.Receipt.Rows[1].Status, "revoked"),
		apptest.Eq("ok.Receipt.Summary", ok.Receipt.Summary, res.Summary),
		apptest.True("ok.Receipt.CheckedAt.Equal(res.CheckedAt)", ok.Receipt.CheckedAt.Equal(res.CheckedAt)),
		apptest.Eq("ok.Receipt.Iss", ok.Receipt.Iss, w.e.URL+"/issuer"))
	// the saved file, as the page downloads it, is accepted as the body
	file, _ := json.Marshal(map[string]any{"type": verify.ReceiptType, "receipt": res.Receipt})
	c.Raw("POST", "/backend/api/v1/verify/receipts/check", bytes.NewReader(file), map[string]string{"Content-Type": "application/json"}).Expect(http.StatusOK)
	// the key that signed it is published
	if !strings.Contains(c.Abs("GET", "/.well-known/jwks.json", nil).Text(), ok.KeyID) {
		t.Error("the receipt's key is not in the JWKS")
	}

	// a receipt changed after signing (the revoked row turned valid) is refused
	parts := strings.Split(res.Receipt, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	forged := bytes.Replace(payload, []byte(`"status":"revoked"`), []byte(`"status":"valid"`), 1)
	if bytes.Equal(forged, payload) {
		t.Fatal("nothing to forge")
	}
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString(forged) + "." + parts[2]
	c.Post("/verify/receipts/check", map[string]any{"receipt": tampered}).ExpectMsg(http.StatusUnprocessableEntity, verify.MsgReceiptTampered)
	// a credential is not a receipt; garbage is not either
	c.Post("/verify/receipts/check", map[string]any{"receipt": gs[0].CredentialJWT}).ExpectMsg(http.StatusBadRequest, verify.MsgReceiptInvalid)
	c.Post("/verify/receipts/check", map[string]any{"receipt": "a.b.c"}).ExpectMsg(http.StatusBadRequest, verify.MsgReceiptInvalid)
	c.Post("/verify/receipts/check", map[string]any{"other": 1}).ExpectMsg(http.StatusBadRequest, verify.MsgReceiptInvalid)
	c.Raw("POST", "/backend/api/v1/verify/receipts/check", strings.NewReader(" "), map[string]string{"Content-Type": "application/json"}).
		ExpectMsg(http.StatusBadRequest, verify.MsgReceiptMissing)
	c.Raw("POST", "/backend/api/v1/verify/receipts/check", strings.NewReader(res.Receipt), map[string]string{"Content-Type": "text/plain"}).Expect(http.StatusOK)
}

// TestBulkVerifyFormPost: the bulk form of /verify-badge posted without JavaScript
// (urlencoded "ids" to /verify-badge) answers the page with the same table and a signed
// receipt, or the message and the text as typed (400); never cached.
func TestBulkVerifyFormPost(t *testing.T) {
	w, gs := bulkWorld(t)
	c := w.e.Client()
	post := func(text string) *apptest.Resp {
		return c.Raw("POST", "/verify-badge", strings.NewReader("ids="+strings.ReplaceAll(strings.ReplaceAll(text, "\n", "%0A"), " ", "+")),
			map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"})
	}
	props := func(r *apptest.Resp) map[string]any {
		s := r.Text()
		i := strings.Index(s, `<pre id="props">`)
		if i < 0 || apptest.PageName(r) != "VerifyPage" {
			t.Fatalf("no VerifyPage in %d %s", r.Status, s)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(html.UnescapeString(s[i+len(`<pre id="props">`):i+strings.Index(s[i:], "</pre>")])), &m); err != nil {
			t.Fatal(err)
		}
		return m["page"].(map[string]any)
	}
	r := post("   \n")
	r.Expect(http.StatusBadRequest)
	if p := props(r); p["bulkError"] != verify.MsgBulkEmpty || p["bulk"] != nil {
		t.Fatalf("empty: %v", p)
	}
	r = post(gs[0].VerificationID + "\n" + gs[1].VerificationID + "\nnot an id")
	r.Expect(http.StatusOK)
	if r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("cache-control %q", r.Header.Get("Cache-Control"))
	}
	p := props(r)
	b := p["bulk"].(map[string]any)
	s := b["summary"].(map[string]any)
	if s["total"] != 3.0 || s["valid"] != 1.0 || s["revoked"] != 1.0 || s["malformed"] != 1.0 || b["receipt"] == "" || p["bulkError"] != nil ||
		!strings.HasPrefix(p["bulkText"].(string), gs[0].VerificationID+"\n") {
		t.Fatalf("table: %v", p)
	}
	if strings.Contains(r.Text(), email(1)) {
		t.Error("the page leaks an address")
	}
}
