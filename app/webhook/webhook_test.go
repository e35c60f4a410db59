package webhook_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/events"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/app/webhook"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// receiver is a webhook receiver on loopback that answers codes in turn (then 200).
type receiver struct {
	*httptest.Server
	mu    sync.Mutex
	got   []*http.Request
	body  []string
	codes []int
}

func newReceiver(t *testing.T, codes ...int) *receiver {
	r := &receiver{codes: codes}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, req)
		r.body = append(r.body, string(b))
		code := 200
		if len(r.codes) > 0 {
			code, r.codes = r.codes[0], r.codes[1:]
		}
		r.mu.Unlock()
		if code == http.StatusFound {
			http.Redirect(w, req, "/elsewhere", code)
			return
		}
		w.WriteHeader(code)
		_, _ = w.Write([]byte("ack"))
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.got)
}

// record records an event of typ through the app's bus, as a writer does.
func record(t *testing.T, e *apptest.Env, typ, id string) {
	t.Helper()
	err := e.Deps.Events.RunInTx(e.Ctx(), e.DB, func(ctx context.Context, tx bun.Tx) error {
		return e.Deps.Events.Record(ctx, tx, typ, "grant", id, map[string]string{"grantId": id, "userId": model.NewID()})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func create(t *testing.T, c *apptest.Client, url string, evs ...string) (string, string) {
	t.Helper()
	var out struct {
		Endpoint struct {
			ID string `json:"_id"`
		} `json:"endpoint"`
		Secret string `json:"secret"`
	}
	c.Post("/admin/webhooks", map[string]any{"url": url, "events": evs}).Expect(201).JSON(&out)
	if !strings.HasPrefix(out.Secret, "whsec_") || out.Endpoint.ID == "" {
		t.Fatalf("created %+v", out)
	}
	return out.Endpoint.ID, out.Secret
}

// An endpoint gets the events it chose, signed as Standard Webhooks says (checked here by
// the formula; tests/credentials checks it with the standardwebhooks package); its
// secret is shown only when made and is sealed at rest; the list never shows it.
func TestDeliveryIsSignedAndFiltered(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@hooks.test")
	r := newReceiver(t)
	id, secret := create(t, c, r.URL+"/in", events.GrantIssued)
	if strings.Contains(c.Get("/admin/webhooks").Expect(200).Text(), secret) {
		t.Fatal("the list shows the secret")
	}
	var stored string
	if err := e.DB.NewSelect().Table("webhook_endpoints").Column("secret").Where("id = ?", id).Scan(e.Ctx(), &stored); err != nil || strings.Contains(stored, strings.TrimPrefix(secret, "whsec_")) {
		t.Fatalf("the secret is stored in clear: %q %v", stored, err)
	}
	record(t, e, events.GrantRevoked, "g1") // not chosen
	record(t, e, events.GrantIssued, "g2")
	if n, err := e.App.Webhooks.Flush(e.Ctx()); err != nil || n != 1 || r.count() != 1 {
		t.Fatalf("flush: %d %v, received %d", n, err, r.count())
	}
	req, body := r.got[0], r.body[0]
	msgID, ts := req.Header.Get("webhook-id"), req.Header.Get("webhook-timestamp")
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msgID + "." + ts + "." + body))
	if want := "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil)); req.Header.Get("webhook-signature") != want {
		t.Fatalf("signature %q, want %q", req.Header.Get("webhook-signature"), want)
	}
	if sec, _ := strconv.ParseInt(ts, 10, 64); time.Since(time.Unix(sec, 0)) > time.Minute || !strings.HasPrefix(msgID, "evt_") {
		t.Fatalf("headers: id %q ts %q", msgID, ts)
	}
	if !strings.Contains(body, `"type":"grant.issued"`) || !strings.Contains(body, `"grantId":"g2"`) {
		t.Fatalf("body %s", body)
	}
	var ds struct {
		Deliveries []webhook.DeliveryView `json:"deliveries"`
	}
	c.Get("/admin/webhooks/" + id + "/deliveries").Expect(200).JSON(&ds)
	if len(ds.Deliveries) != 1 || ds.Deliveries[0].Status != "succeeded" || ds.Deliveries[0].ResponseCode != 200 {
		t.Fatalf("deliveries %+v", ds.Deliveries)
	}
	// rotating: a new secret signs from now on
	var rot struct {
		Secret string `json:"secret"`
	}
	c.Post("/admin/webhooks/"+id+"/secret", nil).Expect(200).JSON(&rot)
	if rot.Secret == secret || !strings.HasPrefix(rot.Secret, "whsec_") {
		t.Fatal("no new secret")
	}
}

// A failing receiver is retried with backoff (the same webhook-id), a paused endpoint is
// not sent to until resumed, a redirect is not followed, and after the last attempt the
// endpoint is marked failing and the admins mailed once; a resend queues it again.
func TestRetriesPauseAndFailure(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@hooks.test")
	r := newReceiver(t, 500, http.StatusFound)
	id, _ := create(t, c, r.URL, events.All)
	svc := e.App.Webhooks
	record(t, e, events.BadgeChanged, "b1")
	now := time.Now()
	svc.Now = func() time.Time { return now }
	if n, _ := svc.Flush(e.Ctx()); n != 0 || r.count() != 1 {
		t.Fatalf("first attempt: %d ok, %d received", n, r.count())
	}
	if n, _ := svc.Flush(e.Ctx()); n != 0 || r.count() != 1 {
		t.Fatal("retried before its time")
	}
	now = now.Add(6 * time.Second)
	if n, _ := svc.Flush(e.Ctx()); n != 0 || r.count() != 2 { // 302: a failure, not followed
		t.Fatalf("second attempt: %d ok, %d received", n, r.count())
	}
	if r.got[0].Header.Get("webhook-id") != r.got[1].Header.Get("webhook-id") {
		t.Fatal("a retry changed the webhook-id")
	}
	for _, req := range r.got {
		if req.URL.Path == "/elsewhere" {
			t.Fatal("a redirect was followed")
		}
	}
	// paused: nothing is sent, however late
	c.Put("/admin/webhooks/"+id, map[string]any{"paused": true}).Expect(200)
	now = now.Add(time.Hour)
	if _, _ = svc.Flush(e.Ctx()); r.count() != 2 {
		t.Fatal("a paused endpoint was sent to")
	}
	c.Put("/admin/webhooks/"+id, map[string]any{"paused": false}).Expect(200)
	r.codes = []int{503, 503, 503, 503, 503, 503, 503, 503, 503, 503}
	for i := 0; i < webhook.MaxAttempts; i++ {
		now = now.Add(25 * time.Hour)
		_, _ = svc.Flush(e.Ctx())
	}
	var ds struct {
		Deliveries []webhook.DeliveryView `json:"deliveries"`
	}
	c.Get("/admin/webhooks/" + id + "/deliveries?status=failed").Expect(200).JSON(&ds)
	if len(ds.Deliveries) != 1 || ds.Deliveries[0].Attempts != webhook.MaxAttempts || ds.Deliveries[0].ResponseCode != 503 {
		t.Fatalf("failed deliveries %+v (received %d)", ds.Deliveries, r.count())
	}
	var ep struct {
		Endpoint webhook.View `json:"endpoint"`
	}
	c.Get("/admin/webhooks/" + id).Expect(200).JSON(&ep)
	if !ep.Endpoint.Failing {
		t.Fatal("the endpoint is not marked failing")
	}
	n, err := e.DB.NewSelect().Model((*model.OutboxMessage)(nil)).Where("subject = ?", "A Meritmark webhook endpoint is failing").Count(e.Ctx())
	if err != nil || n != 1 {
		t.Fatalf("admins mailed %d times: %v", n, err)
	}
	// resend: delivered now, and the endpoint is no longer failing
	r.mu.Lock()
	r.codes = nil
	r.mu.Unlock()
	c.Post("/admin/webhooks/"+id+"/deliveries/"+ds.Deliveries[0].ID+"/resend", nil).Expect(200)
	if n, _ := svc.Flush(e.Ctx()); n != 1 {
		t.Fatal("the resent delivery was not delivered")
	}
	c.Get("/admin/webhooks/" + id).Expect(200).JSON(&ep)
	if ep.Endpoint.Failing {
		t.Fatal("still failing after a success")
	}
}

// Bad input is refused with a message and nothing saved; an event recorded in a
// transaction that rolls back queues nothing; Record outside RunInTx is an error.
func TestBadInputAndRollback(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@hooks.test")
	for body, msg := range map[string]string{
		`{"url":"ftp://x.example/h","events":["grant.issued"]}`:                                                    webhook.MsgURLInvalid,
		`{"url":"https://x.example/h","events":[]}`:                                                                webhook.MsgEventsNeeded,
		`{"url":"https://x.example/h","events":["grant.nope"]}`:                                                    "Unknown event: grant.nope.",
		`{"url":"https://user:pw@x.example/h","events":["grant.issued"]}`:                                          webhook.MsgURLInvalid,
		`{"events":["grant.issued"]}`:                                                                              webhook.MsgURLInvalid,
		`{"url":"https://x.example/h","events":["grant.issued"],"description":"` + strings.Repeat("d", 201) + `"}`: webhook.MsgDescTooLong,
	} {
		c.Raw("POST", web.APIBase+"/admin/webhooks", strings.NewReader(body), map[string]string{"Content-Type": "application/json"}).ExpectMsg(400, msg)
	}
	c.Get("/admin/webhooks/"+model.NewID()).ExpectMsg(404, webhook.MsgNotFound)
	if n, _ := e.DB.NewSelect().Table("webhook_endpoints").Count(e.Ctx()); n != 0 {
		t.Fatal("a refused endpoint was saved")
	}
	r := newReceiver(t)
	create(t, c, r.URL, events.All)
	boom := errors.New("boom")
	err := e.Deps.Events.RunInTx(e.Ctx(), e.DB, func(ctx context.Context, tx bun.Tx) error {
		if err := e.Deps.Events.Record(ctx, tx, events.BadgeChanged, "badge", "b", nil); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if n, _ := e.DB.NewSelect().Table("webhook_deliveries").Count(e.Ctx()); n != 0 {
		t.Fatal("a rolled-back event queued a delivery")
	}
	if err := e.Deps.Events.Record(e.Ctx(), e.DB, events.GrantIssued, "grant", "g", nil); !errors.Is(err, events.ErrOutsideTx) {
		t.Fatalf("Record outside RunInTx: %v", err)
	}
}

// Egress on a production (https) site: https only, no private, loopback or link-local
// address, checked again when connecting (a name may resolve anywhere).
func TestEgressPolicy(t *testing.T) {
	prod := webhook.Policy{}
	for _, u := range []string{"http://hooks.example/x", "https://127.0.0.1/x", "https://10.1.2.3/x", "https://169.254.169.254/latest",
		"https://[::1]/x", "https://192.168.1.1/x", "https://100.64.0.1/x", "https://localhost/x", "https://[fe80::1]/x"} {
		if _, err := prod.CheckURL(u); err == nil {
			t.Errorf("%s accepted", u)
		}
	}
	if _, err := prod.CheckURL("https://hooks.example.com/meritmark"); err != nil {
		t.Fatal(err)
	}
	// the dial check: an http receiver on loopback with a policy that allows http only
	r := newReceiver(t)
	_, err := webhook.Policy{AllowHTTP: true}.Client().Post(r.URL, "application/json", strings.NewReader("{}"))
	if err == nil || !strings.Contains(err.Error(), "address refused") || r.count() != 0 {
		t.Fatalf("a loopback receiver was reached: %v", err)
	}
}
