package paypalsim_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/paypalsim"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// instance is one server process's simulator (NewShared on the common database) and a
// client speaking to it in-process, as the payment client does.
type instance struct {
	t     *testing.T
	sim   *paypalsim.Sim
	hc    *http.Client
	token string
}

func newInstance(t *testing.T, sim *paypalsim.Sim) *instance {
	in := &instance{t: t, sim: sim, hc: &http.Client{Transport: paypalsim.Transport(sim)}}
	req, _ := http.NewRequest("POST", "http://sim/v1/oauth2/token", strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode()))
	req.SetBasicAuth("id", sim.Secret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if st := in.send(req, &tok); st != 200 || tok.AccessToken == "" {
		t.Fatalf("token: %d", st)
	}
	in.token = tok.AccessToken
	return in
}

func (in *instance) send(req *http.Request, out any) int {
	res, err := in.hc.Do(req)
	if err != nil {
		in.t.Error(err)
		return 0
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		_ = json.Unmarshal(b, out)
	}
	return res.StatusCode
}

func (in *instance) do(method, path, requestID, token string, body any, out any) int {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, _ := http.NewRequest(method, "http://sim"+path, rd)
	if token == "" {
		token = in.token
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if requestID != "" {
		req.Header.Set("PayPal-Request-Id", requestID)
	}
	req.Header.Set("Content-Type", "application/json")
	return in.send(req, out)
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

func (o orderOut) captureID() string {
	if len(o.PurchaseUnits) == 0 || len(o.PurchaseUnits[0].Payments.Captures) == 0 {
		return ""
	}
	return o.PurchaseUnits[0].Payments.Captures[0].ID
}

func newOrder(amount string) map[string]any {
	return map[string]any{"intent": "CAPTURE", "purchase_units": []any{map[string]any{"custom_id": "app1",
		"amount": map[string]string{"currency_code": "USD", "value": amount}}}}
}

// Two instances with different secrets share one simulated PayPal through the database:
// an order created on A is approved, captured and read on B, replays are answered from
// either, tokens issued by one are honoured by the other, and a new process (a restart)
// still knows everything.
func TestSharedStateAcrossInstances(t *testing.T) {
	d := apptest.OpenDB(t)
	a := newInstance(t, paypalsim.NewShared("id", "secret-a", "WH", d))
	b := newInstance(t, paypalsim.NewShared("id", "secret-b", "WH", d))

	var o, again orderOut
	if st := a.do("POST", "/v2/checkout/orders", "req-1", "", newOrder("49.00"), &o); st != 201 || o.ID == "" || o.Status != "CREATED" {
		t.Fatalf("create on A: %d %+v", st, o)
	}
	if st := b.do("POST", "/v2/checkout/orders", "req-1", "", newOrder("49.00"), &again); st != 201 || again.ID != o.ID {
		t.Fatalf("the same request id on B: %d %s, want the order %s", st, again.ID, o.ID)
	}
	if a.sim.Stats().OrdersCreated != 1 || b.sim.Stats().Replays != 1 || b.sim.Stats().OrdersCreated != 0 {
		t.Fatalf("stats A %+v B %+v", a.sim.Stats(), b.sim.Stats())
	}
	// B's bearer token works on A (tokens are shared), a made-up one does not
	var got orderOut
	if st := a.do("GET", "/v2/checkout/orders/"+o.ID, "", b.token, nil, &got); st != 200 || got.ID != o.ID {
		t.Fatalf("B's token on A: %d", st)
	}
	if st := a.do("GET", "/v2/checkout/orders/"+o.ID, "", "A21AAnope", nil, nil); st != 401 {
		t.Fatalf("unknown token: %d", st)
	}
	if st := b.do("POST", "/sim/orders/"+o.ID+"/approve", "", "", map[string]string{"outcome": "approve"}, nil); st != 200 {
		t.Fatalf("approve on B: %d", st)
	}
	var cp, replay orderOut
	if st := b.do("POST", "/v2/checkout/orders/"+o.ID+"/capture", "cap-1", "", map[string]any{}, &cp); st != 201 || cp.captureID() == "" {
		t.Fatalf("capture on B: %d %+v", st, cp)
	}
	if st := a.do("POST", "/v2/checkout/orders/"+o.ID+"/capture", "cap-1", "", map[string]any{}, &replay); st != 201 || replay.captureID() != cp.captureID() {
		t.Fatalf("retry on A: %d %s, want the capture %s", st, replay.captureID(), cp.captureID())
	}
	var e orderOut
	if st := a.do("POST", "/v2/checkout/orders/"+o.ID+"/capture", "cap-2", "", map[string]any{}, &e); st != 422 || e.Details[0].Issue != "ORDER_ALREADY_CAPTURED" {
		t.Fatalf("second capture on A: %d %+v", st, e)
	}

	// a restarted process (a new Sim on the same database) knows the order and its capture
	c := newInstance(t, paypalsim.NewShared("id", "secret-c", "WH", d))
	if st := c.do("GET", "/v2/checkout/orders/"+o.ID, "", "", nil, &got); st != 200 || got.Status != "COMPLETED" || got.captureID() != cp.captureID() {
		t.Fatalf("after a restart: %d %+v", st, got)
	}
}

// Captures of one order sent at once through two instances capture it once: with
// different request ids one wins and the others are told it is already captured; with
// one request id every caller gets the same capture.
func TestConcurrentCapturesAcrossInstancesCaptureOnce(t *testing.T) {
	d := apptest.OpenDB(t)
	ins := []*instance{
		newInstance(t, paypalsim.NewShared("id", "s1", "WH", d)),
		newInstance(t, paypalsim.NewShared("id", "s2", "WH", d)),
	}
	for _, sameID := range []bool{false, true} {
		var o orderOut
		ins[0].do("POST", "/v2/checkout/orders", "", "", newOrder("10.00"), &o)
		ins[1].do("POST", "/sim/orders/"+o.ID+"/approve", "", "", map[string]string{"outcome": "approve"}, nil)
		const n = 8
		statuses := make([]int, n)
		ids := make([]string, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				rid := fmt.Sprintf("cap-%s-%d", o.ID, i)
				if sameID {
					rid = "cap-" + o.ID
				}
				var out orderOut
				statuses[i] = ins[i%2].do("POST", "/v2/checkout/orders/"+o.ID+"/capture", rid, "", map[string]any{}, &out)
				ids[i] = out.captureID()
			}(i)
		}
		wg.Wait()
		won, captureID := 0, ""
		for i, st := range statuses {
			switch {
			case st == 201:
				won++
				if captureID != "" && ids[i] != captureID {
					t.Fatalf("same request id %v: two captures %s and %s", sameID, captureID, ids[i])
				}
				captureID = ids[i]
			case st == 422 && !sameID:
			default:
				t.Fatalf("same request id %v: status %d", sameID, st)
			}
		}
		if captureID == "" || (!sameID && won != 1) || (sameID && won != n) {
			t.Fatalf("same request id %v: %d answered 201 (%v)", sameID, won, statuses)
		}
		captures := ins[0].sim.Stats().Captures + ins[1].sim.Stats().Captures
		ins[0].sim = paypalsim.NewShared("id", "s1", "WH", d) // fresh counters for the next round
		ins[1].sim = paypalsim.NewShared("id", "s2", "WH", d)
		ins[0].hc.Transport, ins[1].hc.Transport = paypalsim.Transport(ins[0].sim), paypalsim.Transport(ins[1].sim)
		if captures != 1 {
			t.Fatalf("same request id %v: %d captures performed", sameID, captures)
		}
	}
}

// A pending capture made through A is settled through B, which delivers the signed
// webhook to its own receiver.
func TestSettleThroughAnotherInstance(t *testing.T) {
	d := apptest.OpenDB(t)
	a := newInstance(t, paypalsim.NewShared("id", "sa", "WH", d))
	bsim := paypalsim.NewShared("id", "sb", "WH", d)
	var delivered []byte
	bsim.Deliver = func(body []byte, _ http.Header) error { delivered = body; return nil }
	b := newInstance(t, bsim)
	var o, cp orderOut
	a.do("POST", "/v2/checkout/orders", "", "", newOrder("10.00"), &o)
	a.do("POST", "/sim/orders/"+o.ID+"/approve", "", "", map[string]string{"outcome": "pending"}, nil)
	if st := a.do("POST", "/v2/checkout/orders/"+o.ID+"/capture", "", "", map[string]any{}, &cp); st != 201 || cp.PurchaseUnits[0].Payments.Captures[0].Status != "PENDING" {
		t.Fatalf("pending capture: %d %+v", st, cp)
	}
	if st := b.do("POST", "/sim/captures/"+cp.captureID()+"/complete", "", "", nil, nil); st != 200 || !strings.Contains(string(delivered), "PAYMENT.CAPTURE.COMPLETED") {
		t.Fatalf("settle on B: %d %s", st, delivered)
	}
	if st := a.do("POST", "/sim/captures/"+cp.captureID()+"/deny", "", "", nil, nil); st != 422 {
		t.Fatalf("settling twice: %d", st)
	}
	var got orderOut
	a.do("GET", "/v2/checkout/orders/"+o.ID, "", "", nil, &got)
	if got.PurchaseUnits[0].Payments.Captures[0].Status != "COMPLETED" {
		t.Fatalf("order on A after settling on B: %+v", got)
	}
}
