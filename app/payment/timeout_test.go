package payment_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/payment"
	"meritmark/app/paypalsim"
	"meritmark/app/web"
)

// flakyPayPal runs the simulator on its own listener. While lateCaptures > 0, a capture
// is performed but its answer arrives after the client gave up; while broken > 0, every
// capture and order lookup is performed but answered 502 (a gateway failing after PayPal
// did the work).
type flakyPayPal struct {
	sim          *paypalsim.Sim
	srv          *httptest.Server
	lateCaptures atomic.Int32
	broken       atomic.Int32
	captureCalls atomic.Int32
	requestIDs   chan string
}

func newFlaky(t *testing.T) *flakyPayPal {
	fp := &flakyPayPal{sim: paypalsim.New("client", "secret", "WH-1"), requestIDs: make(chan string, 100)}
	fp.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		capture := strings.HasSuffix(r.URL.Path, "/capture")
		if capture {
			fp.captureCalls.Add(1)
			fp.requestIDs <- r.Header.Get("PayPal-Request-Id")
		}
		lookup := r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/v2/checkout/orders/")
		if (capture || lookup) && fp.broken.Load() > 0 {
			fp.broken.Add(-1)
			fp.sim.ServeHTTP(httptest.NewRecorder(), r)
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		if capture && fp.lateCaptures.Load() > 0 {
			fp.lateCaptures.Add(-1)
			rec := httptest.NewRecorder()
			fp.sim.ServeHTTP(rec, r) // PayPal captures...
			time.Sleep(400 * time.Millisecond)
			for k, v := range rec.Header() { // ...but the answer comes too late
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		fp.sim.ServeHTTP(w, r)
	}))
	t.Cleanup(fp.srv.Close)
	return fp
}

func (fp *flakyPayPal) service(f *fixture) *payment.Service {
	c := payment.NewClient(fp.srv.URL, "client", "secret", nil)
	c.CaptureAttemptTimeout = 150 * time.Millisecond
	c.LookupTimeout = 2 * time.Second
	c.CaptureBudget = 10 * time.Second
	return &payment.Service{DB: f.env.DB, PayPal: c, WebhookID: "WH-1", Events: f.env.Deps.Events}
}

func (fp *flakyPayPal) approve(t *testing.T, orderID string) {
	res, err := http.Post(fp.srv.URL+"/sim/orders/"+orderID+"/approve", "application/json", strings.NewReader(`{"outcome":"approve"}`))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("approve: %v %v", err, res)
	}
	res.Body.Close()
}

func (fp *flakyPayPal) drainIDs() []string {
	var ids []string
	for {
		select {
		case id := <-fp.requestIDs:
			ids = append(ids, id)
		default:
			return ids
		}
	}
}

func TestCaptureTimeoutRetriedWithSameRequestIDRecordedOnce(t *testing.T) {
	f := newFixture(t)
	fp := newFlaky(t)
	svc := fp.service(f)
	ctx := context.Background()
	u, _ := f.member("ada@x.io")
	app := f.application(u, f.badge)
	cp := f.coupon("WELCOME10", "percentage", 1000)

	orderID, err := svc.CreateOrder(ctx, u, f.badge.ID, "WELCOME10")
	if err != nil {
		t.Fatal(err)
	}
	fp.approve(t, orderID)
	fp.lateCaptures.Store(1) // the first attempt times out after PayPal captured
	r, err := svc.Verify(ctx, u, orderID, f.badge.ID)
	if err != nil {
		t.Fatal(err)
	}
	apptest.Expect(t, "result", r,
		apptest.Eq("r.Status", r.Status, model.PaymentCompleted),
		apptest.Eq("r.Amount", r.Amount, 44.1))
	ids := fp.drainIDs()
	apptest.Expect(t, "capture attempts with request ids : want 2 with the same id", ids,
		apptest.Eq("len(ids)", len(ids), 2))
	apptest.Expect(t, "capture attempts with request ids : want 2 with the same id", ids,
		apptest.True("ids[0] != \"\"", ids[0] != ""),
		apptest.Eq("ids[0]", ids[0], ids[1]))
	st := fp.sim.Stats()
	apptest.Expect(t, "simulator (one capture, the retry answered from the first)", st,
		apptest.Eq("st.Captures", st.Captures, 1),
		apptest.True("st.Replays >= 1", st.Replays >= 1))
	if n := f.count("payments", "application_id = ?", app.ID); n != 1 {
		t.Fatalf("%d payments", n)
	}
	if f.couponRow(cp.ID).UsedCount != 1 || f.app(app.ID).Status != model.StatusPending {
		t.Fatal("state after the retried capture")
	}
	// and replaying the verify records nothing more
	if _, err := svc.Verify(ctx, u, orderID, f.badge.ID); err != nil {
		t.Fatal(err)
	}
	if n := f.count("payments", "application_id = ?", app.ID); n != 1 || fp.sim.Stats().Captures != 1 {
		t.Fatal("replay captured or recorded again")
	}
}

func TestEveryCaptureAttemptTimesOutThenOrderLookupTellsTheTruth(t *testing.T) {
	f := newFixture(t)
	fp := newFlaky(t)
	svc := fp.service(f)
	ctx := context.Background()
	u, _ := f.member("ada@x.io")
	app := f.application(u, f.badge)
	orderID, err := svc.CreateOrder(ctx, u, f.badge.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	fp.approve(t, orderID)
	fp.lateCaptures.Store(100)
	r, err := svc.Verify(ctx, u, orderID, f.badge.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != model.PaymentCompleted || fp.captureCalls.Load() != 3 || fp.sim.Stats().Captures != 1 {
		t.Fatalf("result %+v, %d attempts, %d captures", r, fp.captureCalls.Load(), fp.sim.Stats().Captures)
	}
	if n := f.count("payments", "application_id = ?", app.ID); n != 1 {
		t.Fatalf("%d payments", n)
	}
}

func TestUnknownCaptureOutcomeKeepsTheClaimAndIsSettledOnce(t *testing.T) {
	f := newFixture(t)
	fp := newFlaky(t)
	svc := fp.service(f)
	ctx := context.Background()
	u, _ := f.member("ada@x.io")
	app := f.application(u, f.badge)
	cp := f.coupon("HALFOFF", "percentage", 5000, limit(1))
	orderID, err := svc.CreateOrder(ctx, u, f.badge.ID, "HALFOFF")
	if err != nil {
		t.Fatal(err)
	}
	fp.approve(t, orderID)
	fp.broken.Store(100) // PayPal captures, but every answer (captures and lookups) is lost
	_, err = svc.Verify(ctx, u, orderID, f.badge.ID)
	we, ok := web.AsError(err)
	apptest.Expect(t, "err", err,
		apptest.True("ok", ok))
	apptest.Expect(t, "err", err,
		apptest.Eq("we.Status", we.Status, http.StatusServiceUnavailable),
		apptest.Eq("we.Msg", we.Msg, payment.MsgIndeterminate))
	// nothing recorded yet, the claim and the coupon use are kept, the application waits
	if f.count("payments", "1 = 1") != 0 || f.orderRow(orderID).Status != payment.OrderCapturing ||
		f.couponRow(cp.ID).UsedCount != 1 || f.app(app.ID).Status != model.StatusAwaitingPayment {
		t.Fatal("state after an unknown outcome")
	}
	// no other payment may start meanwhile
	if _, err := svc.CreateOrder(ctx, u, f.badge.ID, ""); err == nil || err.Error() != (&web.Error{Status: 409, Msg: payment.MsgBusy}).Error() {
		t.Fatalf("second order while one is in flight: %v", err)
	}
	fp.broken.Store(0)
	fp.drainIDs()
	r, err := svc.Verify(ctx, u, orderID, f.badge.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != model.PaymentCompleted || fp.sim.Stats().Captures != 1 {
		t.Fatalf("result %+v captures %d", r, fp.sim.Stats().Captures)
	}
	if ids := fp.drainIDs(); len(ids) != 1 || fp.sim.Stats().Replays < 1 {
		t.Fatalf("the retry should reuse the first request id and be answered from it: %v %+v", ids, fp.sim.Stats())
	}
	if f.count("payments", "1 = 1") != 1 || f.couponRow(cp.ID).UsedCount != 1 || f.app(app.ID).Status != model.StatusPending {
		t.Fatal("state after settling")
	}
}

func TestTokenIsCachedAndRenewedAfterRejection(t *testing.T) {
	sim := paypalsim.New("client", "secret", "WH")
	var tokens atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/oauth2/token" {
			tokens.Add(1)
		}
		sim.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := payment.NewClient(srv.URL, "client", "secret", nil)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if _, err := c.CreateOrder(ctx, payment.CreateOrderInput{AmountCents: 4900, Currency: "USD", CustomID: "app"}, model.NewID()); err != nil {
			t.Fatal(err)
		}
	}
	if tokens.Load() != 1 {
		t.Fatalf("%d tokens for 3 calls", tokens.Load())
	}
	// PayPal revokes the token early: the client fetches a new one once
	sim.RevokeTokens()
	if _, err := c.CreateOrder(ctx, payment.CreateOrderInput{AmountCents: 4900, Currency: "USD", CustomID: "app"}, model.NewID()); err != nil {
		t.Fatal(err)
	}
	if tokens.Load() != 2 {
		t.Fatalf("%d tokens", tokens.Load())
	}
	// wrong credentials are a definite refusal
	bad := payment.NewClient(srv.URL, "client", "wrong", nil)
	_, err := bad.CreateOrder(ctx, payment.CreateOrderInput{AmountCents: 4900, Currency: "USD"}, model.NewID())
	var ae *payment.APIError
	apptest.Expect(t, "bad credentials", err,
		apptest.True("errors.As(err, &ae)", errors.As(err, &ae)),
		apptest.Eq("ae.Status", ae.Status, 401))
}
