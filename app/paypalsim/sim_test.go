package paypalsim

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// client speaks to a Sim through the in-process transport.
type client struct {
	t     *testing.T
	hc    *http.Client
	token string
}

func newClient(t *testing.T, s *Sim) *client {
	c := &client{t: t, hc: &http.Client{Transport: Transport(s)}}
	req, _ := http.NewRequest("POST", "http://sim/v1/oauth2/token", strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode()))
	req.SetBasicAuth("id", "secret")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if st := c.send(req, &tok); st != 200 || tok.AccessToken == "" || tok.ExpiresIn <= 0 {
		t.Fatalf("token: %d %+v", st, tok)
	}
	c.token = tok.AccessToken
	return c
}

func (c *client) send(req *http.Request, out any) int {
	c.t.Helper()
	res, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		_ = json.Unmarshal(b, out)
	}
	return res.StatusCode
}

func (c *client) do(method, path, requestID string, body any, out any) int {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, _ := http.NewRequest(method, "http://sim"+path, rd)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if requestID != "" {
		req.Header.Set("PayPal-Request-Id", requestID)
	}
	req.Header.Set("Content-Type", "application/json")
	return c.send(req, out)
}

type orderOut struct {
	ID            string `json:"id"`
	Status        string `json:"status"`
	PurchaseUnits []struct {
		Payments struct {
			Captures []struct {
				ID     string `json:"id"`
				Status string `json:"status"`
			} `json:"captures"`
		} `json:"payments"`
	} `json:"purchase_units"`
	Details []struct {
		Issue string `json:"issue"`
	} `json:"details"`
}

func newOrder(amount string) map[string]any {
	return map[string]any{"intent": "CAPTURE", "purchase_units": []any{map[string]any{"custom_id": "app1",
		"amount": map[string]string{"currency_code": "USD", "value": amount}}}}
}

func TestAuth(t *testing.T) {
	s := New("id", "secret", "WH")
	c := &client{t: t, hc: &http.Client{Transport: Transport(s)}}
	req, _ := http.NewRequest("POST", "http://sim/v1/oauth2/token", strings.NewReader("grant_type=client_credentials"))
	req.SetBasicAuth("id", "wrong")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if st := c.send(req, nil); st != 401 {
		t.Fatalf("wrong secret: %d", st)
	}
	if st := c.do("POST", "/v2/checkout/orders", "", newOrder("1.00"), nil); st != 401 {
		t.Fatalf("no token: %d", st)
	}
	c = newClient(t, s)
	s.RevokeTokens()
	if st := c.do("POST", "/v2/checkout/orders", "", newOrder("1.00"), nil); st != 401 {
		t.Fatalf("revoked token: %d", st)
	}
}

func TestOrderLifecycle(t *testing.T) {
	s := New("id", "secret", "WH")
	c := newClient(t, s)
	for _, bad := range []string{"0.00", "1.234", "-1", "abc", ""} {
		if st := c.do("POST", "/v2/checkout/orders", "", newOrder(bad), nil); st != 400 {
			t.Errorf("amount %q: %d", bad, st)
		}
	}
	var o, again orderOut
	if st := c.do("POST", "/v2/checkout/orders", "req-1", newOrder("49.00"), &o); st != 201 || o.Status != "CREATED" || o.ID == "" {
		t.Fatalf("create: %d %+v", st, o)
	}
	// the same PayPal-Request-Id creates nothing new
	c.do("POST", "/v2/checkout/orders", "req-1", newOrder("49.00"), &again)
	if again.ID != o.ID || s.Stats().OrdersCreated != 1 {
		t.Fatalf("idempotent create: %s %s %+v", o.ID, again.ID, s.Stats())
	}
	var e orderOut
	if st := c.do("POST", "/v2/checkout/orders/"+o.ID+"/capture", "cap-0", map[string]any{}, &e); st != 422 || e.Details[0].Issue != "ORDER_NOT_APPROVED" {
		t.Fatalf("capture before approval: %d %+v", st, e)
	}
	if st := c.do("POST", "/sim/orders/"+o.ID+"/approve", "", map[string]string{"outcome": "maybe"}, nil); st != 400 {
		t.Fatalf("bad outcome: %d", st)
	}
	if st := c.do("POST", "/sim/orders/"+o.ID+"/approve", "", map[string]string{"outcome": "approve"}, nil); st != 200 {
		t.Fatalf("approve: %d", st)
	}
	var cp, replay orderOut
	if st := c.do("POST", "/v2/checkout/orders/"+o.ID+"/capture", "cap-1", map[string]any{}, &cp); st != 201 || cp.Status != "COMPLETED" ||
		cp.PurchaseUnits[0].Payments.Captures[0].Status != "COMPLETED" {
		t.Fatalf("capture: %d %+v", st, cp)
	}
	c.do("POST", "/v2/checkout/orders/"+o.ID+"/capture", "cap-1", map[string]any{}, &replay)
	if replay.PurchaseUnits[0].Payments.Captures[0].ID != cp.PurchaseUnits[0].Payments.Captures[0].ID || s.Stats().Captures != 1 {
		t.Fatal("a replayed capture captured again")
	}
	if st := c.do("POST", "/v2/checkout/orders/"+o.ID+"/capture", "cap-2", map[string]any{}, &e); st != 422 || e.Details[0].Issue != "ORDER_ALREADY_CAPTURED" {
		t.Fatalf("second capture: %d %+v", st, e)
	}
	var got orderOut
	if st := c.do("GET", "/v2/checkout/orders/"+o.ID, "", nil, &got); st != 200 || got.Status != "COMPLETED" {
		t.Fatalf("get: %d %+v", st, got)
	}
	if st := c.do("GET", "/v2/checkout/orders/NOPE", "", nil, nil); st != 404 {
		t.Fatalf("unknown order: %d", st)
	}
}

func TestDeclineAndPendingWithSignedWebhook(t *testing.T) {
	s := New("id", "secret", "WH")
	var delivered []byte
	var header http.Header
	s.Deliver = func(b []byte, h http.Header) error { delivered, header = b, h; return nil }
	c := newClient(t, s)

	var o, e orderOut
	c.do("POST", "/v2/checkout/orders", "", newOrder("10.00"), &o)
	c.do("POST", "/sim/orders/"+o.ID+"/approve", "", map[string]string{"outcome": "decline"}, nil)
	if st := c.do("POST", "/v2/checkout/orders/"+o.ID+"/capture", "", map[string]any{}, &e); st != 422 || e.Details[0].Issue != "INSTRUMENT_DECLINED" {
		t.Fatalf("decline: %d %+v", st, e)
	}

	var p, cp orderOut
	c.do("POST", "/v2/checkout/orders", "", newOrder("10.00"), &p)
	c.do("POST", "/sim/orders/"+p.ID+"/approve", "", map[string]string{"outcome": "pending"}, nil)
	c.do("POST", "/v2/checkout/orders/"+p.ID+"/capture", "", map[string]any{}, &cp)
	capID := cp.PurchaseUnits[0].Payments.Captures[0].ID
	if cp.PurchaseUnits[0].Payments.Captures[0].Status != "PENDING" {
		t.Fatalf("pending capture: %+v", cp)
	}
	if st := c.do("POST", "/sim/captures/"+capID+"/complete", "", nil, nil); st != 200 || !strings.Contains(string(delivered), "PAYMENT.CAPTURE.COMPLETED") {
		t.Fatalf("settle: %d %s", st, delivered)
	}
	if st := c.do("POST", "/sim/captures/"+capID+"/complete", "", nil, nil); st != 422 {
		t.Fatalf("settling twice: %d", st)
	}
	verify := func(body []byte, webhookID string) string {
		var out struct {
			Status string `json:"verification_status"`
		}
		c.do("POST", "/v1/notifications/verify-webhook-signature", "", map[string]any{
			"auth_algo": header.Get("Paypal-Auth-Algo"), "cert_url": header.Get("Paypal-Cert-Url"),
			"transmission_id": header.Get("Paypal-Transmission-Id"), "transmission_sig": header.Get("Paypal-Transmission-Sig"),
			"transmission_time": header.Get("Paypal-Transmission-Time"), "webhook_id": webhookID, "webhook_event": json.RawMessage(body),
		}, &out)
		return out.Status
	}
	if v := verify(delivered, "WH"); v != "SUCCESS" {
		t.Fatalf("genuine event: %s", v)
	}
	if v := verify(delivered, "OTHER"); v != "FAILURE" {
		t.Fatalf("other webhook id: %s", v)
	}
	tampered := strings.Replace(string(delivered), `"10.00"`, `"0.01"`, 1)
	if v := verify([]byte(tampered), "WH"); v != "FAILURE" {
		t.Fatalf("tampered event: %s", v)
	}
}
