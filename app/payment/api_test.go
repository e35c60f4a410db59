package payment_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/payment"
)

func TestCouponValidate(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("ada@x.io")
	f.application(u, f.badge)
	f.coupon("WELCOME10", "percentage", 1000)
	f.coupon("DEV20", "fixed", 2000, func(c *model.Coupon) { c.MinimumCents = 4000; c.ApplicableCategories = []string{"Development"} })
	f.coupon("OLD", "percentage", 1000, func(c *model.Coupon) { c.ValidUntil = model.Now().Add(-time.Minute) })
	f.coupon("OFF", "percentage", 1000, func(c *model.Coupon) { c.IsActive = false })
	f.coupon("GONE", "percentage", 1000, limit(2), func(c *model.Coupon) { c.UsedCount = 2 })
	f.coupon("ALMOST", "fixed", 4850)
	free := f.coupon("FREE100", "percentage", 10000)
	design := f.addBadge("UX Design Fundamentals", "Design", 3900)

	// lower case is upper-cased; the amount sent by the client is ignored
	var q payment.QuoteView
	c.Post("/coupons/validate", map[string]any{"code": " welcome10 ", "badgeId": f.badge.ID, "amount": 0.01}).Expect(200).JSON(&q)
	apptest.Expect(t, "WELCOME10", q,
		apptest.Eq("q.Code", q.Code, "WELCOME10"),
		apptest.Eq("q.Name", q.Name, "WELCOME10 name"),
		apptest.Eq("q.DiscountType", q.DiscountType, "percentage"),
		apptest.Eq("q.DiscountValue", q.DiscountValue, 10),
		apptest.Eq("q.DiscountAmount", q.DiscountAmount, 4.9),
		apptest.Eq("q.FinalAmount", q.FinalAmount, 44.1),
		apptest.Eq("q.OriginalAmount", q.OriginalAmount, 49),
		apptest.True("!q.FreeGrant", !q.FreeGrant),
		apptest.True("!q.MinimumAdjusted", !q.MinimumAdjusted),
		apptest.Eq("q.ProcessingFee", q.ProcessingFee, 0))
	c.Post("/coupons/validate", map[string]any{"code": "DEV20", "badgeId": f.badge.ID, "amount": 49}).Expect(200).JSON(&q)
	apptest.Expect(t, "DEV20", q,
		apptest.Eq("q.DiscountType", q.DiscountType, "fixed"),
		apptest.Eq("q.DiscountValue", q.DiscountValue, 20),
		apptest.Eq("q.DiscountAmount", q.DiscountAmount, 20),
		apptest.Eq("q.FinalAmount", q.FinalAmount, 29))
	c.Post("/coupons/validate", map[string]any{"code": "ALMOST", "badgeId": f.badge.ID}).Expect(200).JSON(&q)
	apptest.Expect(t, "ALMOST", q,
		apptest.Eq("q.DiscountAmount", q.DiscountAmount, 48.5),
		apptest.Eq("q.MinimumAdjustment", q.MinimumAdjustment, 0.5),
		apptest.True("q.MinimumAdjusted", q.MinimumAdjusted),
		apptest.Eq("q.FinalAmount", q.FinalAmount, 1))
	c.Post("/coupons/validate", map[string]any{"code": free.Code, "badgeId": f.badge.ID}).Expect(200).JSON(&q)
	apptest.Expect(t, "FREE100", q,
		apptest.True("q.FreeGrant", q.FreeGrant),
		apptest.Eq("q.FinalAmount", q.FinalAmount, 0),
		apptest.Eq("q.DiscountAmount", q.DiscountAmount, 49))

	c.Post("/coupons/validate", map[string]any{"code": "  ", "badgeId": f.badge.ID}).ExpectMsg(400, "Please enter a coupon code")
	c.Post("/coupons/validate", map[string]any{"code": nil, "badgeId": f.badge.ID}).ExpectMsg(400, "Please enter a coupon code")
	c.Post("/coupons/validate", map[string]any{"code": "NOPE", "badgeId": f.badge.ID}).ExpectMsg(404, "Coupon code is invalid or expired")
	c.Post("/coupons/validate", map[string]any{"code": "OLD", "badgeId": f.badge.ID}).ExpectMsg(422, "This coupon has expired.")
	c.Post("/coupons/validate", map[string]any{"code": "OFF", "badgeId": f.badge.ID}).ExpectMsg(422, "This coupon is no longer active.")
	c.Post("/coupons/validate", map[string]any{"code": "GONE", "badgeId": f.badge.ID}).ExpectMsg(422, "This coupon has reached its usage limit.")
	c.Post("/coupons/validate", map[string]any{"code": "DEV20", "badgeId": design.ID}).ExpectMsg(422, "This coupon only applies to Development badges.")
	c.Post("/coupons/validate", map[string]any{"code": "WELCOME10"}).ExpectMsg(400, "badgeId is required.")
	c.Post("/coupons/validate", map[string]any{"code": "WELCOME10", "badgeId": "nope"}).ExpectMsg(404, "Badge not found")
	c.Post("/coupons/validate", map[string]any{"code": "WELCOME10", "badgeId": model.NewID()}).ExpectMsg(404, "Badge not found")
	c.Post("/coupons/validate", "not json").ExpectMsg(400, "The request body is not valid JSON.")
	f.env.Client().Post("/coupons/validate", map[string]any{"code": "WELCOME10", "badgeId": f.badge.ID}).Expect(401)

	// the quote endpoint answers the same pricing
	c.Get("/payments/quote/" + f.badge.ID + "?coupon=dev20").Expect(200).JSON(&q)
	if q.FinalAmount != 29 {
		t.Fatalf("quote: %+v", q)
	}
	q = payment.QuoteView{}
	c.Get("/payments/quote/" + f.badge.ID).Expect(200).JSON(&q)
	apptest.Expect(t, "quote without coupon", q,
		apptest.Eq("q.FinalAmount", q.FinalAmount, 49),
		apptest.Eq("q.Code", q.Code, ""))
}

func TestPayPalPaymentRecordedOnceWithServerPrice(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("ada@x.io")
	app := f.application(u, f.badge)
	cp := f.coupon("WELCOME10", "percentage", 1000)

	// the client says $0.01: the server charges its own price, 49.00 - 10% = 44.10
	orderID := f.order(c, f.badge, "welcome10")
	o := f.orderRow(orderID)
	apptest.Expect(t, "order row", o,
		apptest.Eq("o.AmountCents", o.AmountCents, 4410),
		apptest.Eq("o.OriginalCents", o.OriginalCents, 4900),
		apptest.Eq("o.DiscountCents", o.DiscountCents, 490),
		apptest.Eq("o.Currency", o.Currency, "USD"),
		apptest.Eq("o.CouponCode", o.CouponCode, "WELCOME10"),
		apptest.Eq("o.ApplicationID", o.ApplicationID, app.ID),
		apptest.Eq("o.Status", o.Status, payment.OrderCreated),
		apptest.True("o.RequestID != \"\"", o.RequestID != ""))
	// PayPal was asked for 44.10 with the application as custom_id
	po := f.sim("GET", "/v2/checkout/orders/"+orderID, nil).Expect(200).Map()
	pu := po["purchase_units"].([]any)[0].(map[string]any)
	apptest.Expect(t, "paypal order", pu,
		apptest.Eq("pu[\"amount\"].(map[string]any)[\"value\"]", pu["amount"].(map[string]any)["value"], "44.10"))
	apptest.Expect(t, "paypal order", pu,
		apptest.Eq("pu[\"amount\"].(map[string]any)[\"currency_code\"]", pu["amount"].(map[string]any)["currency_code"], "USD"),
		apptest.Eq[any]("pu[\"custom_id\"]", pu["custom_id"], app.ID))
	if po["intent"] != "CAPTURE" {
		t.Fatalf("intent %v", po["intent"])
	}

	f.approve(orderID, "approve")
	var r verifyResult
	f.verify(c, orderID, f.badge).Expect(200).JSON(&r)
	apptest.Expect(t, "verify", r,
		apptest.True("r.Success", r.Success),
		apptest.Eq("r.Amount", r.Amount, 44.1),
		apptest.Eq("r.OriginalAmount", r.OriginalAmount, 49),
		apptest.Eq("r.DiscountAmount", r.DiscountAmount, 4.9),
		apptest.True("r.PaymentID != \"\"", r.PaymentID != ""),
		apptest.True("r.TransactionID != \"\"", r.TransactionID != ""),
		apptest.True("!r.ApplicationApproved", !r.ApplicationApproved),
		apptest.Eq("r.Status", r.Status, "completed"),
		apptest.Eq("r.ApplicationStatus", r.ApplicationStatus, "pending"),
		apptest.Eq("r.Msg", r.Msg, payment.MsgVerified))
	// one transaction: payment, redemption, application in review
	p := new(model.Payment)
	f.reload(p, "id = ?", r.PaymentID)
	apptest.Expect(t, "payment", p,
		apptest.Eq("p.Status", p.Status, model.PaymentCompleted),
		apptest.Eq("p.AmountCents", p.AmountCents, 4410),
		apptest.Eq("*p.OrderID", *p.OrderID, orderID),
		apptest.Eq("*p.CaptureID", *p.CaptureID, r.TransactionID),
		apptest.Eq("p.Provider", p.Provider, "paypal"),
		apptest.True("p.CompletedAt != nil", p.CompletedAt != nil),
		apptest.Eq("p.CouponCode", p.CouponCode, "WELCOME10"))
	a := f.app(app.ID)
	apptest.Expect(t, "application", a,
		apptest.Eq("a.Status", a.Status, model.StatusPending),
		apptest.Eq("a.PaymentStatus", a.PaymentStatus, model.PaymentCompleted),
		apptest.True("a.PaymentID != nil", a.PaymentID != nil))
	apptest.Expect(t, "application", a,
		apptest.Eq("*a.PaymentID", *a.PaymentID, p.ID),
		apptest.True("a.PaymentCompletedAt != nil", a.PaymentCompletedAt != nil))
	if got := f.couponRow(cp.ID).UsedCount; got != 1 {
		t.Fatalf("used_count %d", got)
	}
	if n := f.count("coupon_redemptions", "coupon_id = ? AND payment_id = ?", cp.ID, p.ID); n != 1 {
		t.Fatalf("redemptions %d", n)
	}
	if o := f.orderRow(orderID); o.Status != payment.OrderCaptured {
		t.Fatalf("order status %s", o.Status)
	}
	if n := f.count("outbox", "to_addr = ? AND subject LIKE ?", u.Email, "%Payment received%"); n != 1 {
		t.Fatalf("receipt mails %d", n)
	}

	// replaying the verify answers the same payment and records nothing new
	var again verifyResult
	f.verify(c, orderID, f.badge).Expect(200).JSON(&again)
	apptest.Expect(t, "replay answered another payment", again,
		apptest.Eq("again.PaymentID", again.PaymentID, r.PaymentID),
		apptest.Eq("again.TransactionID", again.TransactionID, r.TransactionID))
	if n := f.count("payments", "application_id = ?", app.ID); n != 1 {
		t.Fatalf("payments after replay: %d", n)
	}
	// one payment.captured event, for this payment, from the first capture only
	if n := f.count("domain_events", "type = ? AND subject_id = ?", "payment.captured", p.ID); n != 1 {
		t.Fatalf("payment.captured events for the payment: %d, want 1", n)
	}
	if got := f.couponRow(cp.ID).UsedCount; got != 1 {
		t.Fatalf("used_count after replay %d", got)
	}
	// the application is paid: no new order
	c.Post("/payments/paypal-order", map[string]any{"badgeId": f.badge.ID}).ExpectMsg(409, payment.MsgAlreadyPaid)

	// the result endpoint (success page after a reload)
	var res verifyResult
	c.Get("/payments/result/" + f.badge.ID).Expect(200).JSON(&res)
	apptest.Expect(t, "result", res,
		apptest.Eq("res.PaymentID", res.PaymentID, r.PaymentID),
		apptest.Eq("res.Amount", res.Amount, 44.1),
		apptest.Eq("res.CouponCode", res.CouponCode, "WELCOME10"))

	// another member cannot verify or read it
	_, other := f.member("eve@x.io")
	f.verify(other, orderID, f.badge).ExpectMsg(404, payment.MsgOrderNotFound)
	other.Get("/payments/result/"+f.badge.ID).ExpectMsg(404, payment.MsgNoPayment)
}

func TestConcurrentVerifiesOfOneOrderRecordOnePayment(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("ada@x.io")
	app := f.application(u, f.badge)
	cp := f.coupon("HALFOFF", "percentage", 5000, limit(100))
	orderID := f.order(c, f.badge, "HALFOFF")
	f.approve(orderID, "approve")
	ids := make([]string, 10)
	var ok atomic.Int32
	apptest.Parallel(10, func(i int) {
		r := f.verify(c, orderID, f.badge)
		if r.Status == 200 {
			var v verifyResult
			r.JSON(&v)
			ids[i] = v.PaymentID
			ok.Add(1)
		} else if r.Status != 409 {
			t.Errorf("verify %d: %d %s", i, r.Status, r.Text())
		}
	})
	if ok.Load() == 0 {
		t.Fatal("no verify succeeded")
	}
	if n := f.count("payments", "application_id = ?", app.ID); n != 1 {
		t.Fatalf("%d payments for one order", n)
	}
	var pid string
	for _, id := range ids {
		if id != "" && pid != "" && id != pid {
			t.Fatalf("different payments answered: %v", ids)
		}
		if id != "" {
			pid = id
		}
	}
	if got := f.couponRow(cp.ID).UsedCount; got != 1 {
		t.Fatalf("used_count %d", got)
	}
	// every later verify sees the one payment
	var v verifyResult
	f.verify(c, orderID, f.badge).Expect(200).JSON(&v)
	if v.PaymentID != pid {
		t.Fatal("replay answered another payment")
	}
}

func TestCaptureWithDifferentAmountIsRefused(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("ada@x.io")
	app := f.application(u, f.badge)
	cp := f.coupon("WELCOME10", "percentage", 1000)
	orderID := f.order(c, f.badge, "WELCOME10")
	// the order PayPal holds (44.10) no longer matches what the server priced
	if _, err := f.env.DB.NewUpdate().Model((*model.PaymentOrder)(nil)).Set("amount_cents = 4000").Where("order_id = ?", orderID).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	f.approve(orderID, "approve")
	f.verify(c, orderID, f.badge).ExpectMsg(422, payment.MsgAmountMismatch)
	if n := f.count("payments", "application_id = ?", app.ID); n != 0 {
		t.Fatalf("a mismatched capture was recorded: %d", n)
	}
	a := f.app(app.ID)
	apptest.Expect(t, "application moved", a,
		apptest.Eq("a.Status", a.Status, model.StatusAwaitingPayment),
		apptest.Eq("a.PaymentStatus", a.PaymentStatus, model.PaymentPending),
		apptest.True("a.PaymentID == nil", a.PaymentID == nil))
	if got := f.couponRow(cp.ID).UsedCount; got != 0 {
		t.Fatalf("coupon use kept for a refused capture: %d", got)
	}
	if f.orderRow(orderID).Status != payment.OrderMismatch {
		t.Fatal("order not marked as mismatch")
	}
	// verifying again is refused the same way and still records nothing
	f.verify(c, orderID, f.badge).ExpectMsg(422, payment.MsgAmountMismatch)
	if n := f.count("payments", "application_id = ?", app.ID); n != 0 {
		t.Fatal("recorded on retry")
	}
}

func TestOrderRules(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("ada@x.io")
	c.Post("/payments/paypal-order", map[string]any{"amount": 49, "badgeId": f.badge.ID}).ExpectMsg(404, payment.MsgNoApplication)
	c.Post("/payments/paypal-order", map[string]any{"amount": 49}).ExpectMsg(400, "badgeId is required.")
	c.Post("/payments/paypal-order", map[string]any{"badgeId": model.NewID()}).ExpectMsg(404, payment.MsgBadgeNotFound)
	f.env.Client().Post("/payments/paypal-order", map[string]any{"badgeId": f.badge.ID}).Expect(401)
	f.application(u, f.badge)
	f.coupon("FREE100", "percentage", 10000)
	f.coupon("OLD", "percentage", 1000, func(c *model.Coupon) { c.ValidUntil = model.Now().Add(-time.Minute) })
	c.Post("/payments/paypal-order", map[string]any{"badgeId": f.badge.ID, "couponCode": "FREE100"}).ExpectMsg(422, payment.MsgUseFreeGrant)
	c.Post("/payments/paypal-order", map[string]any{"badgeId": f.badge.ID, "couponCode": "OLD"}).ExpectMsg(422, "This coupon has expired.")
	c.Post("/payments/paypal-order", map[string]any{"badgeId": f.badge.ID, "couponCode": "NOPE"}).ExpectMsg(404, payment.MsgCouponInvalid)
	orderID := f.order(c, f.badge, nil)
	if f.orderRow(orderID).AmountCents != 4900 {
		t.Fatal("full price expected")
	}

	// verify rules
	c.Post("/payments/paypal-verify", map[string]any{"badgeId": f.badge.ID}).ExpectMsg(400, "orderId is required.")
	c.Post("/payments/paypal-verify", map[string]any{"orderId": "NOPE", "badgeId": f.badge.ID}).ExpectMsg(404, payment.MsgOrderNotFound)
	other := f.addBadge("Other", "Design", 1000)
	c.Post("/payments/paypal-verify", map[string]any{"orderId": orderID, "badgeId": other.ID}).ExpectMsg(400, payment.MsgOrderOtherBadge)
	// not approved by the buyer yet: nothing captured, the order can still be paid
	f.verify(c, orderID, f.badge).ExpectMsg(422, payment.MsgNotApproved)
	if f.orderRow(orderID).Status != payment.OrderCreated {
		t.Fatal("order should be back to created")
	}
	f.approve(orderID, "approve")
	f.verify(c, orderID, f.badge).Expect(200)
}

func TestDeclinedPaymentCanBeRetried(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("ada@x.io")
	app := f.application(u, f.badge)
	cp := f.coupon("HALFOFF", "percentage", 5000, limit(1))
	orderID := f.order(c, f.badge, "HALFOFF")
	f.approve(orderID, "decline")
	r := f.verify(c, orderID, f.badge).ExpectMsg(422, payment.MsgDeclined)
	if r.Map()["declined"] != true {
		t.Fatalf("declined flag missing: %s", r.Text())
	}
	if f.count("payments", "application_id = ?", app.ID) != 0 || f.app(app.ID).Status != model.StatusAwaitingPayment {
		t.Fatal("a declined payment changed state")
	}
	if got := f.couponRow(cp.ID).UsedCount; got != 0 {
		t.Fatalf("a declined payment kept the coupon use: %d", got)
	}
	if f.orderRow(orderID).Status != payment.OrderFailed {
		t.Fatal("order not failed")
	}
	// the coupon with limit 1 is still available for the retry
	second := f.order(c, f.badge, "HALFOFF")
	f.approve(second, "approve")
	var v verifyResult
	f.verify(c, second, f.badge).Expect(200).JSON(&v)
	if v.Amount != 24.5 || f.couponRow(cp.ID).UsedCount != 1 {
		t.Fatalf("retry: %+v used %d", v, f.couponRow(cp.ID).UsedCount)
	}
	// the declined order stays declined
	f.verify(c, orderID, f.badge).ExpectMsg(422, payment.MsgDeclined)
}

func TestPendingCaptureCompletedByWebhook(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("ada@x.io")
	app := f.application(u, f.badge)
	cp := f.coupon("WELCOME10", "percentage", 1000)
	orderID := f.order(c, f.badge, "WELCOME10")
	f.approve(orderID, "pending")
	var v verifyResult
	f.verify(c, orderID, f.badge).Expect(200).JSON(&v)
	apptest.Expect(t, "pending verify", v,
		apptest.Eq("v.Status", v.Status, "pending"),
		apptest.Eq("v.Msg", v.Msg, payment.MsgPendingCapture),
		apptest.Eq("v.ApplicationStatus", v.ApplicationStatus, model.StatusAwaitingPayment))
	if a := f.app(app.ID); a.Status != model.StatusAwaitingPayment || a.PaymentID != nil {
		t.Fatalf("a pending capture moved the application: %+v", a)
	}
	// no second payment may start while PayPal holds this one
	c.Post("/payments/paypal-order", map[string]any{"badgeId": f.badge.ID}).ExpectMsg(409, payment.MsgBusy)
	_, props := c.Page("/payment/" + f.badge.ID)
	if st := props["page"].(map[string]any)["data"].(map[string]any)["state"]; st != payment.PageProcessing {
		t.Fatalf("page state %v", st)
	}
	// PayPal completes it: the simulator sends PAYMENT.CAPTURE.COMPLETED
	res := f.sim("POST", "/sim/captures/"+v.TransactionID+"/complete", nil).Expect(200).Map()
	if res["delivered"] != true {
		t.Fatalf("webhook not delivered: %v", res)
	}
	p := new(model.Payment)
	f.reload(p, "id = ?", v.PaymentID)
	apptest.Expect(t, "payment", p,
		apptest.Eq("p.Status", p.Status, model.PaymentCompleted),
		apptest.True("p.CompletedAt != nil", p.CompletedAt != nil))
	if a := f.app(app.ID); a.Status != model.StatusPending || a.PaymentStatus != model.PaymentCompleted || *a.PaymentID != p.ID {
		t.Fatalf("application %+v", a)
	}
	if f.couponRow(cp.ID).UsedCount != 1 || f.count("coupon_redemptions", "payment_id = ?", p.ID) != 1 {
		t.Fatal("coupon not redeemed")
	}
	if f.count("webhook_events", "type = ?", "PAYMENT.CAPTURE.COMPLETED") != 1 {
		t.Fatal("event not recorded")
	}
	f.verify(c, orderID, f.badge).Expect(200).JSON(&v)
	if v.Status != "completed" {
		t.Fatalf("after webhook: %+v", v)
	}

	// a pending capture that PayPal denies: the payment fails, the coupon use comes back
	u2, c2 := f.member("bob@x.io")
	app2 := f.application(u2, f.badge)
	o2 := f.order(c2, f.badge, "WELCOME10")
	f.approve(o2, "pending")
	f.verify(c2, o2, f.badge).Expect(200).JSON(&v)
	if f.couponRow(cp.ID).UsedCount != 2 {
		t.Fatal("pending capture should hold a coupon use")
	}
	f.sim("POST", "/sim/captures/"+v.TransactionID+"/deny", nil).Expect(200)
	p2 := new(model.Payment)
	f.reload(p2, "id = ?", v.PaymentID)
	if p2.Status != model.PaymentFailed || f.app(app2.ID).Status != model.StatusAwaitingPayment || f.couponRow(cp.ID).UsedCount != 1 {
		t.Fatalf("denied: payment %s app %s used %d", p2.Status, f.app(app2.ID).Status, f.couponRow(cp.ID).UsedCount)
	}
	f.verify(c2, o2, f.badge).ExpectMsg(422, payment.MsgDeclined)
	// and the member can pay again
	o3 := f.order(c2, f.badge, nil)
	f.approve(o3, "approve")
	f.verify(c2, o3, f.badge).Expect(200)
}

func TestWebhookVerifiedAndIdempotent(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("ada@x.io")
	app := f.application(u, f.badge)
	cp := f.coupon("WELCOME10", "percentage", 1000)
	orderID := f.order(c, f.badge, "WELCOME10")
	f.approve(orderID, "approve")
	// PayPal captured, but our verify never ran (the browser closed): capture straight at
	// the simulator, then let the webhook record it
	cap := f.sim("POST", "/v2/checkout/orders/"+orderID+"/capture", map[string]any{}).Expect(201).Map()
	capture := cap["purchase_units"].([]any)[0].(map[string]any)["payments"].(map[string]any)["captures"].([]any)[0]
	s := f.signer()

	body, h := s.SignedEvent("WH-EVENT-1", "PAYMENT.CAPTURE.COMPLETED", capture)
	// a wrong signature is refused and records nothing
	bad := h.Clone()
	bad.Set("Paypal-Transmission-Sig", "AAAA")
	f.postEvent(body, bad).ExpectMsg(400, "The webhook signature could not be verified.")
	noSig := h.Clone()
	noSig.Del("Paypal-Transmission-Sig")
	f.postEvent(body, noSig).ExpectMsg(400, "The webhook signature could not be verified.")
	// a body changed after signing is refused
	tampered := []byte(string(body[:len(body)-1]) + `,"x":1}`)
	f.postEvent(tampered, h).ExpectMsg(400, "The webhook signature could not be verified.")
	f.postEvent([]byte("nope"), h).ExpectMsg(400, "The webhook body is not a valid PayPal event.")
	if f.count("webhook_events", "1 = 1") != 0 || f.count("payments", "1 = 1") != 0 {
		t.Fatal("refused events left state")
	}

	f.postEvent(body, h).ExpectMsg(200, "Event processed.")
	f.postEvent(body, h).ExpectMsg(200, "Event already processed.")
	// the same event delivered concurrently
	apptest.Parallel(5, func(int) {
		if r := f.postEvent(body, h); r.Status != 200 {
			t.Errorf("redelivery: %d %s", r.Status, r.Text())
		}
	})
	if n := f.count("payments", "application_id = ?", app.ID); n != 1 {
		t.Fatalf("%d payments", n)
	}
	if f.count("webhook_events", "id = ?", "WH-EVENT-1") != 1 {
		t.Fatal("event id not recorded once")
	}
	a := f.app(app.ID)
	apptest.Expect(t, "application", a,
		apptest.Eq("a.Status", a.Status, model.StatusPending),
		apptest.Eq("a.PaymentStatus", a.PaymentStatus, model.PaymentCompleted))
	if f.couponRow(cp.ID).UsedCount != 1 {
		t.Fatal("coupon not counted")
	}
	// the same capture in another event changes nothing either
	body2, h2 := s.SignedEvent("WH-EVENT-2", "PAYMENT.CAPTURE.COMPLETED", capture)
	f.postEvent(body2, h2).ExpectMsg(200, "Event processed.")
	if f.count("payments", "application_id = ?", app.ID) != 1 || f.couponRow(cp.ID).UsedCount != 1 {
		t.Fatal("a second event for the same capture changed state")
	}
	// and a verify after it answers the recorded payment
	var v verifyResult
	f.verify(c, orderID, f.badge).Expect(200).JSON(&v)
	apptest.Expect(t, "verify after webhook", v,
		apptest.Eq("v.Status", v.Status, "completed"),
		apptest.Eq("v.Amount", v.Amount, 44.1))
	// events the app does not handle are acknowledged
	body3, h3 := s.SignedEvent("WH-EVENT-3", "CHECKOUT.ORDER.APPROVED", map[string]any{"id": orderID})
	f.postEvent(body3, h3).ExpectMsg(200, "Event ignored.")
	// a capture for an unknown order is acknowledged and ignored
	body4, h4 := s.SignedEvent("WH-EVENT-4", "PAYMENT.CAPTURE.COMPLETED", map[string]any{"id": "X", "status": "COMPLETED",
		"amount": map[string]string{"currency_code": "USD", "value": "1.00"}, "supplementary_data": map[string]any{"related_ids": map[string]string{"order_id": "UNKNOWN"}}})
	f.postEvent(body4, h4).ExpectMsg(200, "Event ignored.")
}

func TestWebhookWithWrongAmountIsNotRecorded(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("ada@x.io")
	app := f.application(u, f.badge)
	orderID := f.order(c, f.badge, nil)
	s := f.signer()
	body, h := s.SignedEvent("WH-EVENT-9", "PAYMENT.CAPTURE.COMPLETED", map[string]any{"id": "CAP1", "status": "COMPLETED",
		"amount": map[string]string{"currency_code": "USD", "value": "1.00"}, "custom_id": app.ID,
		"supplementary_data": map[string]any{"related_ids": map[string]string{"order_id": orderID}}})
	f.postEvent(body, h).ExpectMsg(200, "Event ignored.")
	if f.count("payments", "1 = 1") != 0 || f.app(app.ID).Status != model.StatusAwaitingPayment {
		t.Fatal("a capture of the wrong amount was recorded")
	}
}

func TestFreeGrant(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("ada@x.io")
	app := f.application(u, f.badge)
	free := f.coupon("FREEGRANT", "percentage", 10000, limit(25))
	f.coupon("WELCOME10", "percentage", 1000)
	f.coupon("CAPPED", "percentage", 10000, func(c *model.Coupon) { m := int64(3000); c.MaximumDiscountCents = &m })
	f.coupon("BIGFIXED", "fixed", 100000)

	grant := func(code any) *apptest.Resp {
		return c.Post("/payments", map[string]any{"badgeId": f.badge.ID, "amount": 0, "status": "success", "provider": "free-grant", "couponCode": code})
	}
	// refused whenever the server's own pricing does not make the fee 0 with a 100% coupon
	for _, code := range []string{"WELCOME10", "CAPPED", "BIGFIXED"} {
		grant(code).ExpectMsg(422, payment.MsgNotFree)
	}
	grant(nil).ExpectMsg(400, "Please enter a coupon code")
	grant("NOPE").ExpectMsg(404, payment.MsgCouponInvalid)
	c.Post("/payments", map[string]any{"badgeId": f.badge.ID, "amount": 0, "status": "success", "provider": "paypal", "couponCode": "FREEGRANT"}).
		ExpectMsg(400, payment.MsgFreeGrantOnly)
	if f.count("payments", "1 = 1") != 0 || f.app(app.ID).Status != model.StatusAwaitingPayment || f.count("coupon_redemptions", "1 = 1") != 0 {
		t.Fatal("a refused free grant changed state")
	}

	r := grant("freegrant").Expect(201).Map()
	pay := r["payment"].(map[string]any)
	pid, _ := pay["_id"].(string)
	apptest.Expect(t, "free grant answer", r,
		apptest.True("pid != \"\"", pid != ""),
		apptest.Eq("pay[\"amount\"]", pay["amount"], 0.0),
		apptest.Eq("pay[\"provider\"]", pay["provider"], "free-grant"),
		apptest.Eq("pay[\"status\"]", pay["status"], "completed"),
		apptest.Eq("r[\"applicationApproved\"]", r["applicationApproved"], false))
	a := f.app(app.ID)
	// a free grant always leaves an unapproved application for review
	apptest.Expect(t, "application", a,
		apptest.Eq("a.Status", a.Status, model.StatusPending),
		apptest.Eq("a.PaymentStatus", a.PaymentStatus, model.PaymentCompleted),
		apptest.Eq("*a.PaymentID", *a.PaymentID, pid),
		apptest.True("a.ReviewedAt == nil", a.ReviewedAt == nil))
	if f.couponRow(free.ID).UsedCount != 1 || f.count("coupon_redemptions", "coupon_id = ? AND payment_id = ?", free.ID, pid) != 1 {
		t.Fatal("coupon not redeemed")
	}
	if f.count("badge_grants", "user_id = ?", u.ID) != 0 {
		t.Fatal("a free grant granted the badge")
	}
	// twice is refused
	grant("FREEGRANT").ExpectMsg(409, payment.MsgAlreadyPaid)
	if f.couponRow(free.ID).UsedCount != 1 {
		t.Fatal("counted twice")
	}
	_, page := c.Page("/payment-success/" + f.badge.ID)
	res := page["page"].(map[string]any)["result"].(map[string]any)
	apptest.Expect(t, "success page props", res,
		apptest.Eq[any]("res[\"paymentId\"]", res["paymentId"], pid),
		apptest.Eq("res[\"provider\"]", res["provider"], "free-grant"),
		apptest.Eq("res[\"applicationApproved\"]", res["applicationApproved"], false))
}

// Fifty members race for a coupon with usage limit 5: exactly 5 get it.
func TestConcurrentFreeGrantsRespectUsageLimit(t *testing.T) {
	f := newFixture(t)
	cp := f.coupon("FIVE", "percentage", 10000, limit(5))
	clients := make([]*apptest.Client, 50)
	for i := range clients {
		u, c := f.member(fmt.Sprintf("m%d@x.io", i))
		f.application(u, f.badge)
		clients[i] = c
	}
	var ok, refused atomic.Int32
	apptest.Parallel(50, func(i int) {
		r := clients[i].Post("/payments", map[string]any{"badgeId": f.badge.ID, "amount": 0, "status": "success", "provider": "free-grant", "couponCode": "FIVE"})
		switch {
		case r.Status == 201:
			ok.Add(1)
		case r.Status == 409 && r.Msg() == payment.MsgCouponLimit, r.Status == 422 && r.Msg() == payment.MsgCouponLimit:
			refused.Add(1)
		default:
			t.Errorf("member %d: %d %s", i, r.Status, r.Text())
		}
	})
	if ok.Load() != 5 || refused.Load() != 45 {
		t.Fatalf("granted %d, refused %d", ok.Load(), refused.Load())
	}
	if got := f.couponRow(cp.ID).UsedCount; got != 5 {
		t.Fatalf("used_count %d", got)
	}
	if n := f.count("coupon_redemptions", "coupon_id = ?", cp.ID); n != 5 {
		t.Fatalf("%d redemptions", n)
	}
	if n := f.count("payments", "coupon_id = ?", cp.ID); n != 5 {
		t.Fatalf("%d payments", n)
	}
	if n := f.count("applications", "status = ?", model.StatusPending); n != 5 {
		t.Fatalf("%d applications in review", n)
	}
}

// Fifty members approved PayPal orders priced with a coupon limited to 5 and verify at
// once: 5 are captured and recorded; the others are refused before any money moves.
func TestConcurrentPayPalRedemptionsRespectUsageLimit(t *testing.T) {
	f := newFixture(t)
	cp := f.coupon("FIVE", "percentage", 2000, limit(5))
	clients := make([]*apptest.Client, 50)
	orders := make([]string, 50)
	for i := range clients {
		u, c := f.member(fmt.Sprintf("m%d@x.io", i))
		f.application(u, f.badge)
		clients[i], orders[i] = c, f.order(c, f.badge, "FIVE")
		f.approve(orders[i], "approve")
	}
	var ok, refused atomic.Int32
	apptest.Parallel(50, func(i int) {
		r := f.verify(clients[i], orders[i], f.badge)
		switch {
		case r.Status == 200:
			ok.Add(1)
		case r.Status == 409 && r.Msg() == payment.MsgCouponLimit+" Please remove it and pay again.":
			refused.Add(1)
		default:
			t.Errorf("member %d: %d %s", i, r.Status, r.Text())
		}
	})
	if ok.Load() != 5 || refused.Load() != 45 {
		t.Fatalf("paid %d, refused %d", ok.Load(), refused.Load())
	}
	if got := f.couponRow(cp.ID).UsedCount; got != 5 {
		t.Fatalf("used_count %d", got)
	}
	if n := f.count("coupon_redemptions", "coupon_id = ? AND payment_id IS NOT NULL", cp.ID); n != 5 {
		t.Fatalf("%d redemptions", n)
	}
	if n := f.count("payments", "status = ?", model.PaymentCompleted); n != 5 {
		t.Fatalf("%d payments", n)
	}
	// PayPal captured exactly 5 orders: the refused ones were never captured
	captured := 0
	for _, id := range orders {
		if f.sim("GET", "/v2/checkout/orders/"+id, nil).Expect(200).Map()["status"] == "COMPLETED" {
			captured++
		}
	}
	if captured != 5 {
		t.Fatalf("PayPal captured %d orders", captured)
	}
}

func TestPaymentPages(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("ada@x.io")
	// visitors are sent to log in
	r := f.env.Client().Abs("GET", "/payment/"+f.badge.ID, nil)
	if r.Status != 303 && r.Status != 302 {
		t.Fatalf("visitor: %d", r.Status)
	}
	state := func(path string) (int, map[string]any) {
		r, props := c.Page(path)
		return r.Status, props["page"].(map[string]any)
	}
	st, p := state("/payment/" + f.badge.ID)
	if st != 200 || p["data"].(map[string]any)["state"] != payment.PageNoApplication || p["provider"].(map[string]any)["mode"] != "simulator" {
		t.Fatalf("no application: %d %v", st, p)
	}
	st, p = state("/payment/" + model.NewID())
	if st != 404 || p["data"].(map[string]any)["state"] != payment.PageNotFound {
		t.Fatalf("unknown badge: %d %v", st, p)
	}
	st, _ = state("/payment/not-an-id")
	if st != 404 {
		t.Fatalf("malformed id: %d", st)
	}
	app := f.application(u, f.badge)
	st, p = state("/payment/" + f.badge.ID)
	d := p["data"].(map[string]any)
	apptest.Expect(t, "ready", d,
		apptest.Eq("st", st, 200),
		apptest.Eq("d[\"state\"]", d["state"], payment.PageReady),
		apptest.Eq[any]("d[\"applicationId\"]", d["applicationId"], app.ID))
	apptest.Expect(t, "ready", d,
		apptest.Eq("d[\"quote\"].(map[string]any)[\"finalAmount\"]", d["quote"].(map[string]any)["finalAmount"], 49.0))
	if prov := p["provider"].(map[string]any); prov["simulatorPath"] != payment.SimPath {
		t.Fatalf("provider %v", prov)
	}
	// success page before paying
	_, p = state("/payment-success/" + f.badge.ID)
	if p["result"] != nil {
		t.Fatalf("result before paying: %v", p)
	}
	orderID := f.order(c, f.badge, nil)
	f.approve(orderID, "approve")
	f.verify(c, orderID, f.badge).Expect(200)
	_, p = state("/payment/" + f.badge.ID)
	if p["data"].(map[string]any)["state"] != payment.PageInReview {
		t.Fatalf("after paying: %v", p)
	}
	_, p = state("/payment-success/" + f.badge.ID)
	res := p["result"].(map[string]any)
	apptest.Expect(t, "success props", res,
		apptest.Eq("res[\"amount\"]", res["amount"], 49.0),
		apptest.Eq("res[\"status\"]", res["status"], "completed"),
		apptest.Eq("res[\"applicationApproved\"]", res["applicationApproved"], false))
	// approved later: the success page says so
	if _, err := f.env.DB.NewUpdate().Model((*model.Application)(nil)).Set("status = ?", model.StatusApproved).Where("id = ?", app.ID).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	_, p = state("/payment-success/" + f.badge.ID)
	if p["result"].(map[string]any)["applicationApproved"] != true {
		t.Fatal("approved not shown")
	}
	st, p = state("/payment-failed/" + f.badge.ID)
	if st != 200 || p["badge"].(map[string]any)["name"] != f.badge.Name || p["applicationState"] != payment.PageApproved {
		t.Fatalf("failed page: %d %v", st, p)
	}
	// a badge never applied for: there was no payment to fail, and the page says so
	other := f.addBadge("Never Applied", "Design", 19)
	st, p = state("/payment-failed/" + other.ID)
	if st != 200 || p["badge"].(map[string]any)["name"] != other.Name || p["applicationState"] != payment.PageNoApplication {
		t.Fatalf("failed page, never applied: %d %v", st, p)
	}
}

// TestFreeBadgeNeedsNoPayment: a $0 badge's application goes straight to review with no
// payment row. The payment page must not link to "payment details" that do not exist, and
// the success page must not send the member back to payment (the old loop between 'View
// payment details' and 'No payment found … Go to payment').
func TestFreeBadgeNeedsNoPayment(t *testing.T) {
	f := newFixture(t)
	free := f.addBadge("Community Helper", "Management", 0)
	u, c := f.member("free@x.io")
	state := func(path string) map[string]any {
		_, props := c.Page(path)
		return props["page"].(map[string]any)
	}
	// before applying: the success page still says no payment and offers the payment page
	if p := state("/payment-success/" + free.ID); p["result"] != nil || p["applicationState"] != payment.PageNoApplication {
		t.Fatalf("before applying: %v", p)
	}
	a := f.application(u, free)
	if _, err := f.env.DB.NewUpdate().Model((*model.Application)(nil)).Set("status = ?", model.StatusPending).Set("payment_status = ?", model.PaymentCompleted).
		Where("id = ?", a.ID).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	p := state("/payment/" + free.ID)
	d := p["data"].(map[string]any)
	apptest.Expect(t, "payment page", d,
		apptest.Eq("d[\"state\"]", d["state"], payment.PageInReview),
		apptest.True("d[\"lastPayment\"] == nil", d["lastPayment"] == nil))
	if r, _ := c.Page("/payment/" + free.ID); !strings.Contains(r.Text(), "<title>No payment needed: Community Helper | Meritmark</title>") {
		t.Error("the free badge's payment page is not titled 'No payment needed'")
	}
	r, props := c.Page("/payment-success/" + free.ID)
	pg := props["page"].(map[string]any)
	apptest.Expect(t, "success page of a free application", pg,
		apptest.True("pg[\"result\"] == nil", pg["result"] == nil),
		apptest.Eq("pg[\"applicationState\"]", pg["applicationState"], payment.PageInReview),
		apptest.True("strings.Contains(r.Text(), \"<title>No payment needed | Meritmark</title>\")", strings.Contains(r.Text(), "<title>No payment needed | Meritmark</title>")))
}
