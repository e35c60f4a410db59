package payment_test

import (
	"context"
	"errors"
	"net/http"
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

// lossy is an in-process PayPal transport that, while lose > 0, lets PayPal do the work
// of a capture or an order lookup but loses the answer (the call times out).
type lossy struct {
	inner http.RoundTripper
	lose  atomic.Int32
}

var errLost = errors.New("timeout awaiting response headers")

func (l *lossy) RoundTrip(req *http.Request) (*http.Response, error) {
	capture := strings.HasSuffix(req.URL.Path, "/capture")
	lookup := req.Method == http.MethodGet && strings.HasPrefix(req.URL.Path, "/v2/checkout/orders/")
	res, err := l.inner.RoundTrip(req)
	if err == nil && (capture || lookup) && l.lose.Load() > 0 {
		res.Body.Close()
		return nil, errLost
	}
	return res, err
}

// instance is one server process's payment service: its own simulator value on the
// shared database (as payment.New builds it) and its own PayPal client.
func instance(f *fixture, secret string) (*payment.Service, *paypalsim.Sim, *lossy) {
	sim := paypalsim.NewShared(payment.SimClientID, secret, payment.SimWebhookID, f.env.DB)
	tr := &lossy{inner: paypalsim.Transport(sim)}
	c := payment.NewClient("http://paypal-simulator.internal", payment.SimClientID, secret, &http.Client{Transport: tr})
	c.CaptureAttemptTimeout, c.LookupTimeout, c.CaptureBudget = 200*time.Millisecond, time.Second, 5*time.Second
	return &payment.Service{DB: f.env.DB, PayPal: c, WebhookID: payment.SimWebhookID, Events: f.env.Deps.Events}, sim, tr
}

// A capture whose answer never reached instance A (PayPal took the money) is retried
// by the buyer through instance B: B reuses the claim's PayPal-Request-Id, the shared
// simulator answers the capture A made, and the payment is recorded once (with the
// simulator in each process's memory, B would not have known the order at all).
func TestCaptureTimedOutOnOneInstanceIsRecordedOnceThroughAnother(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	svcA, simA, netA := instance(f, "secret-a")
	svcB, simB, _ := instance(f, "secret-b")
	u, _ := f.member("ada@x.io")
	app := f.application(u, f.badge)
	cp := f.coupon("TWICE10", "percentage", 1000, limit(1))

	orderID, err := svcA.CreateOrder(ctx, u, f.badge.ID, "TWICE10")
	if err != nil {
		t.Fatal(err)
	}
	f.approve(orderID, "approve") // the buyer, through the app's simulator mount
	netA.lose.Store(1)
	_, err = svcA.Verify(ctx, u, orderID, f.badge.ID)
	we, ok := web.AsError(err)
	apptest.Expect(t, "A", err,
		apptest.True("ok", ok))
	apptest.Expect(t, "A", err,
		apptest.Eq("we.Status", we.Status, http.StatusServiceUnavailable),
		apptest.Eq("we.Msg", we.Msg, payment.MsgIndeterminate))
	if simA.Stats().Captures != 1 || f.count("payments", "1 = 1") != 0 || f.orderRow(orderID).Status != payment.OrderCapturing {
		t.Fatalf("after A lost the answer: %+v, %d payments, order %s", simA.Stats(), f.count("payments", "1 = 1"), f.orderRow(orderID).Status)
	}

	r, err := svcB.Verify(ctx, u, orderID, f.badge.ID)
	if err != nil {
		t.Fatal(err)
	}
	apptest.Expect(t, "B", r,
		apptest.Eq("r.Status", r.Status, model.PaymentCompleted),
		apptest.Eq("r.Amount", r.Amount, 44.1))
	st := simB.Stats()
	apptest.Expect(t, "B's simulator (want the capture A made answered again, none made)", st,
		apptest.Eq("st.Captures", st.Captures, 0),
		apptest.Eq("st.Replays", st.Replays, 1))
	if f.count("payments", "application_id = ?", app.ID) != 1 || f.couponRow(cp.ID).UsedCount != 1 || f.app(app.ID).Status != model.StatusPending {
		t.Fatal("state after B recorded the payment")
	}

	// A, healthy again, answers the same payment; nothing is captured or recorded again
	netA.lose.Store(0)
	again, err := svcA.Verify(ctx, u, orderID, f.badge.ID)
	if err != nil || again.PaymentID != r.PaymentID {
		t.Fatalf("A afterwards: %+v %v", again, err)
	}
	if f.count("payments", "1 = 1") != 1 || simA.Stats().Captures+simB.Stats().Captures != 1 ||
		f.count("paypal_sim_orders", "id = ? AND capture_id IS NOT NULL", orderID) != 1 {
		t.Fatal("captured or recorded twice")
	}
}
