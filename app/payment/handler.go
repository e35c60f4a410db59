package payment

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/gofiber/fiber/v3/middleware/adaptor"
	"github.com/uptrace/bun"

	"meritmark/app/events"
	"meritmark/app/grant"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/paypalsim"
	"meritmark/app/ratelimit"
	"meritmark/app/web"
)

// Deps is what the payment feature is built from.
type Deps struct {
	DB      *bun.DB
	Site    *web.Site
	Gateway Gateway // the PayPal or the simulator, chosen by the application's wiring
	Mailer  *mail.Worker
	Limiter *ratelimit.Limiter
	Events  *events.Bus
}

// ProviderView tells the payment page how to take the payment.
type ProviderView struct {
	Mode          string `json:"mode"`                    // simulator | paypal
	ClientID      string `json:"clientId,omitempty"`      // public PayPal client id (SDK)
	SimulatorPath string `json:"simulatorPath,omitempty"` // where the simulator is mounted
}

// Handler serves the payment API and pages.
type Handler struct {
	Svc      *Service
	Sim      *paypalsim.Sim // nil with a real PayPal
	site     *web.Site
	limiter  *ratelimit.Limiter
	provider ProviderView
}

// New builds the feature on d.Gateway; with the simulator, the simulator's webhooks are
// delivered to the service in-process.
func New(d Deps) *Handler {
	svc := &Service{DB: d.DB, Mailer: d.Mailer, Events: d.Events, PayPal: d.Gateway.Client, WebhookID: d.Gateway.WebhookID}
	if sim := d.Gateway.Sim; sim != nil {
		sim.Deliver = func(body []byte, hdr http.Header) error {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err := svc.HandleWebhook(ctx, webhookHeaders(hdr.Get), body)
			return err
		}
	}
	return &Handler{Svc: svc, Sim: d.Gateway.Sim, site: d.Site, limiter: d.Limiter, provider: d.Gateway.Provider}
}

// Routes lists the payment routes.
func (h *Handler) Routes() []web.Route {
	rs := []web.Route{
		web.Post("/coupons/validate", web.Member, h.validateCoupon),
		web.Get("/payments/quote/:badgeId", web.Member, h.quote),
		web.Post("/payments/paypal-order", web.Member, h.createOrder),
		web.Post("/payments/paypal-verify", web.Member, h.verify),
		web.Post("/payments", web.Member, h.freeGrant),
		web.Get("/payments/result/:badgeId", web.Member, h.result),
		web.Post("/payments/paypal-webhook", web.Public, h.webhook),
		web.PageRoute("/payment/:badgeId", web.Member, h.paymentPage),
		web.PageRoute("/payment-success/:badgeId", web.Member, h.successPage),
		web.PageRoute("/payment-failed/:badgeId", web.Member, h.failedPage),
	}
	if h.Sim != nil {
		sim := adaptor.HTTPHandler(http.StripPrefix(SimPath, detached(h.Sim)))
		rs = append(rs,
			web.Route{Method: "GET", Path: SimPath + "/*", Access: web.Public, Kind: web.Asset, Handler: sim},
			web.Route{Method: "POST", Path: SimPath + "/*", Access: web.Public, Kind: web.Asset, Handler: sim},
		)
	}
	return rs
}

// detached serves the browser's calls to the simulator with a context of their own: the
// adaptor's request context is fasthttp's RequestCtx, which the simulator's database
// queries must not watch (its Done races with the server's shutdown).
func detached(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// Provider is how the payment page takes payments.
func (h *Handler) Provider() ProviderView { return h.provider }

func (h *Handler) allow(c fiber.Ctx, what string, n int, per time.Duration) error {
	if h.limiter == nil {
		return nil
	}
	key := what + ":" + c.IP()
	if u := web.Viewer(c); u != nil {
		key = what + ":" + u.ID
	}
	ok, err := h.limiter.Allow(c.Context(), key, n, per)
	if err != nil {
		return err
	}
	if !ok {
		return web.TooMany("Too many attempts. Please wait a minute and try again.")
	}
	return nil
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

const msgBadgeRequired = "badgeId is required."

func (h *Handler) validateCoupon(c fiber.Ctx) error {
	var in struct {
		Code    *string         `json:"code"`
		BadgeID string          `json:"badgeId"`
		Amount  json.RawMessage `json:"amount"` // ignored: the server prices
	}
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	if strings.TrimSpace(str(in.Code)) == "" {
		return web.BadRequest(MsgCouponEmpty)
	}
	if strings.TrimSpace(in.BadgeID) == "" {
		return web.BadRequest(msgBadgeRequired)
	}
	if err := h.allow(c, "coupon", 30, time.Minute); err != nil {
		return err
	}
	q, err := h.Svc.ValidateCoupon(c.Context(), web.Viewer(c), strings.TrimSpace(in.BadgeID), str(in.Code))
	if err != nil {
		return err
	}
	return c.JSON(q)
}

func (h *Handler) quote(c fiber.Ctx) error {
	// a quote with a coupon is a coupon check: it shares validate-coupon's limit, so codes
	// cannot be guessed through it without limit either
	if strings.TrimSpace(c.Query("coupon")) != "" {
		if err := h.allow(c, "coupon", 30, time.Minute); err != nil {
			return err
		}
	}
	q, err := h.Svc.Quote(c.Context(), web.Viewer(c), c.Params("badgeId"), c.Query("coupon"))
	if err != nil {
		return err
	}
	return c.JSON(q)
}

func (h *Handler) createOrder(c fiber.Ctx) error {
	var in struct {
		Amount     json.RawMessage `json:"amount"` // ignored: the server prices
		BadgeID    string          `json:"badgeId"`
		CouponCode *string         `json:"couponCode"`
	}
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	if strings.TrimSpace(in.BadgeID) == "" {
		return web.BadRequest(msgBadgeRequired)
	}
	if err := h.allow(c, "paypal-order", 20, 10*time.Minute); err != nil {
		return err
	}
	id, err := h.Svc.CreateOrder(c.Context(), web.Viewer(c), strings.TrimSpace(in.BadgeID), str(in.CouponCode))
	if err != nil {
		return err
	}
	return c.Status(http.StatusCreated).JSON(fiber.Map{"success": true, "orderId": id, "msg": "Payment order created."})
}

func (h *Handler) verify(c fiber.Ctx) error {
	var in struct {
		OrderID    string  `json:"orderId"`
		BadgeID    string  `json:"badgeId"`
		CouponCode *string `json:"couponCode"` // informational: the order keeps the coupon it was priced with
	}
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	if strings.TrimSpace(in.OrderID) == "" {
		return web.BadRequest("orderId is required.")
	}
	if err := h.allow(c, "paypal-verify", 30, 10*time.Minute); err != nil {
		return err
	}
	r, err := h.Svc.Verify(c.Context(), web.Viewer(c), strings.TrimSpace(in.OrderID), strings.TrimSpace(in.BadgeID))
	if IsDeclined(err) {
		return c.Status(http.StatusUnprocessableEntity).JSON(fiber.Map{"success": false, "declined": true, "msg": MsgDeclined})
	}
	if err != nil {
		return err
	}
	return c.JSON(r)
}

func (h *Handler) freeGrant(c fiber.Ctx) error {
	var in struct {
		BadgeID    string          `json:"badgeId"`
		Amount     json.RawMessage `json:"amount"` // ignored: the server prices
		Status     string          `json:"status"`
		Provider   string          `json:"provider"`
		CouponCode *string         `json:"couponCode"`
	}
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	if in.Provider != ProviderFreeGrant {
		return web.BadRequest(MsgFreeGrantOnly)
	}
	if strings.TrimSpace(in.BadgeID) == "" {
		return web.BadRequest(msgBadgeRequired)
	}
	if strings.TrimSpace(str(in.CouponCode)) == "" {
		return web.BadRequest(MsgCouponEmpty)
	}
	if err := h.allow(c, "free-grant", 10, 10*time.Minute); err != nil {
		return err
	}
	r, err := h.Svc.FreeGrant(c.Context(), web.Viewer(c), strings.TrimSpace(in.BadgeID), str(in.CouponCode))
	if err != nil {
		return err
	}
	return c.Status(http.StatusCreated).JSON(fiber.Map{
		"msg": r.Msg,
		"payment": fiber.Map{
			"_id": r.PaymentID, "status": r.Status, "amount": r.Amount, "originalAmount": r.OriginalAmount,
			"discountAmount": r.DiscountAmount, "provider": r.Provider, "transactionId": r.TransactionID,
			"couponCode": r.CouponCode, "currency": r.Currency, "createdAt": r.CreatedAt,
		},
		"applicationApproved": r.ApplicationApproved,
		"applicationStatus":   r.ApplicationStatus,
	})
}

func (h *Handler) result(c fiber.Ctx) error {
	r, err := h.Svc.LatestResult(c.Context(), web.Viewer(c), c.Params("badgeId"))
	if err != nil {
		return err
	}
	return c.JSON(r)
}

func webhookHeaders(get func(string) string) WebhookHeaders {
	return WebhookHeaders{
		AuthAlgo: get("Paypal-Auth-Algo"), CertURL: get("Paypal-Cert-Url"), TransmissionID: get("Paypal-Transmission-Id"),
		TransmissionSig: get("Paypal-Transmission-Sig"), TransmissionTime: get("Paypal-Transmission-Time"),
	}
}

func (h *Handler) webhook(c fiber.Ctx) error {
	get := func(k string) string { return c.Get(k) }
	msg, err := h.Svc.HandleWebhook(c.Context(), webhookHeaders(get), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": msg})
}

// Pages.

func (h *Handler) paymentPage(c fiber.Ctx) error {
	d, err := h.Svc.Page(c.Context(), web.Viewer(c), c.Params("badgeId"))
	if err != nil {
		return err
	}
	status := http.StatusOK
	if d.State == PageNotFound {
		status = http.StatusNotFound
	}
	title := "Payment"
	if d.Badge != nil {
		title = "Payment: " + d.Badge.Name
		if free := d.Badge.Price <= 0; (d.Quote == nil && free) || (d.Quote != nil && d.Quote.OriginalAmount <= 0) {
			title = "No payment needed: " + d.Badge.Name
		}
	}
	ren, err := h.renewal(c)
	if err != nil {
		return err
	}
	return h.site.Render(c, "PaymentPage", fiber.Map{"data": d, "provider": h.provider, "badgeId": c.Params("badgeId"), "renewal": ren},
		web.Meta{Title: title, NoIndex: true, Status: status})
}

func (h *Handler) successPage(c fiber.Ctx) error {
	r, err := h.Svc.LatestResult(c.Context(), web.Viewer(c), c.Params("badgeId"))
	var we *web.Error
	if errors.As(err, &we) && we.Status == http.StatusNotFound {
		r, err = nil, nil
	}
	if err != nil {
		return err
	}
	// without a payment, say what the application needs (a free one needs nothing)
	appState := ""
	if r == nil {
		d, err := h.Svc.Page(c.Context(), web.Viewer(c), c.Params("badgeId"))
		if err != nil {
			return err
		}
		appState = d.State
	}
	title := "Payment Successful!"
	switch {
	case r == nil && (appState == PageInReview || appState == PageApproved):
		title = "No payment needed"
	case r == nil:
		title = "No payment found"
	case r.ApplicationApproved:
		title = "Badge Granted!"
	case r.Status == "pending":
		title = "Payment Processing"
	}
	ren, err := h.renewal(c)
	if err != nil {
		return err
	}
	return h.site.Render(c, "PaymentSuccessPage", fiber.Map{"result": r, "badgeId": c.Params("badgeId"), "applicationState": appState, "renewal": ren},
		web.Meta{Title: title, NoIndex: true})
}

// failedPage: the payment did not go through. For a badge the member never applied for
// there was no payment to fail: the page says so and offers the badge instead of a retry.
func (h *Handler) failedPage(c fiber.Ctx) error {
	d, err := h.Svc.Page(c.Context(), web.Viewer(c), c.Params("badgeId"))
	if err != nil {
		return err
	}
	title := "Payment failed"
	if d.State == PageNoApplication {
		title = "No application for this badge"
	}
	ren, err := h.renewal(c)
	if err != nil {
		return err
	}
	return h.site.Render(c, "PaymentFailedPage", fiber.Map{"badge": d.Badge, "badgeId": c.Params("badgeId"), "applicationState": d.State, "renewal": ren},
		web.Meta{Title: title, NoIndex: true})
}

// renewal is what the payment pages say when the member's application renews their badge
// (expiring or expired; nil when it is a first application, as after the renewal's grant).
func (h *Handler) renewal(c fiber.Ctx) (*grant.Renewal, error) {
	u, badgeID := web.Viewer(c), c.Params("badgeId")
	if u == nil || !model.ValidID(badgeID) {
		return nil, nil
	}
	var typ []string
	if err := h.Svc.DB.NewSelect().Model((*model.Badge)(nil)).Column("type").Where("id = ?", badgeID).Scan(c.Context(), &typ); err != nil || len(typ) == 0 {
		return nil, err
	}
	return grant.RenewalFor(c.Context(), h.Svc.DB, u.ID, badgeID, typ[0], model.Now())
}
