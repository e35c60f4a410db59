package payment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/application"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/web"
)

// Messages the API answers (the spec's where it has one).
const (
	MsgBadgeNotFound     = "Badge not found"
	MsgNoApplication     = "You have no application awaiting payment for this badge."
	MsgAlreadyPaid       = "This application has already been paid."
	MsgNotAwaiting       = "This application is no longer awaiting payment."
	MsgBusy              = "A payment for this application is already being processed. Please wait a moment and try again."
	MsgNothingToPay      = "This badge is free: no payment is needed."
	MsgUseFreeGrant      = "This coupon covers the full fee: use Apply Free Grant Coupon instead."
	MsgNotFree           = "This coupon does not make the badge free, so it cannot be applied as a free grant."
	MsgFreeGrantOnly     = "Only free-grant payments can be recorded here; pay with PayPal instead."
	MsgOrderNotFound     = "Payment order not found."
	MsgOrderOtherBadge   = "This payment order is for a different badge."
	MsgDeclined          = "Your payment was declined by PayPal. Please try another payment method."
	MsgNotApproved       = "The PayPal payment was not approved. Please try again."
	MsgAmountMismatch    = "The amount PayPal captured does not match your order, so the payment was not recorded. Please contact support."
	MsgIndeterminate     = "We could not confirm your payment with PayPal yet. Please try again in a moment; you will not be charged twice."
	MsgPayPalUnavailable = "PayPal is not reachable right now. Please try again in a moment."
	MsgPayPalRefused     = "PayPal could not create the payment order. Please try again."
	MsgNoPayment         = "No payment was found for this badge."

	MsgVerified       = "Payment verified successfully. Your application is now in review."
	MsgPendingCapture = "PayPal is still processing your payment. We will update your application as soon as it completes."
	MsgFreeGranted    = "Free grant coupon applied. Your application is now in review."
)

// Service holds the payment use cases; it owns their transactions.
type Service struct {
	DB        *bun.DB
	PayPal    *Client
	WebhookID string
	Mailer    *mail.Worker // optional: kicked after a receipt is queued
	Now       func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC().Truncate(time.Microsecond)
	}
	return model.Now()
}

// BadgeView is the badge as payment screens show it.
type BadgeView struct {
	ID       string  `json:"_id"`
	Name     string  `json:"name"`
	Category string  `json:"category"`
	Type     string  `json:"type"`
	Level    string  `json:"level"`
	Icon     string  `json:"icon"`
	Color    string  `json:"color"`
	Price    float64 `json:"price"`
}

func badgeView(b *model.Badge) *BadgeView {
	if b == nil {
		return nil
	}
	return &BadgeView{ID: b.ID, Name: b.Name, Category: b.Category, Type: b.Type, Level: b.Level, Icon: b.Icon, Color: b.Color, Price: ToDollars(b.PriceCents)}
}

// QuoteView is a quote in dollars; with a coupon it is also the coupon validation answer
// (code, name, discountType, discountValue, discountAmount, finalAmount).
type QuoteView struct {
	Code              string  `json:"code,omitempty"`
	Name              string  `json:"name,omitempty"`
	Description       string  `json:"description,omitempty"`
	DiscountType      string  `json:"discountType,omitempty"`
	DiscountValue     float64 `json:"discountValue"`
	OriginalAmount    float64 `json:"originalAmount"`
	DiscountAmount    float64 `json:"discountAmount"`
	MinimumAdjustment float64 `json:"minimumAdjustment"`
	MinimumAdjusted   bool    `json:"minimumAdjusted"`
	ProcessingFee     float64 `json:"processingFee"`
	FinalAmount       float64 `json:"finalAmount"`
	FreeGrant         bool    `json:"freeGrant"`
	Currency          string  `json:"currency"`
}

// View renders a quote.
func (q Quote) View() QuoteView {
	v := QuoteView{
		OriginalAmount: ToDollars(q.OriginalCents), DiscountAmount: ToDollars(q.DiscountCents),
		MinimumAdjustment: ToDollars(q.MinimumAdjustmentCents), MinimumAdjusted: q.MinimumAdjustmentCents > 0,
		ProcessingFee: ToDollars(q.ProcessingFeeCents), FinalAmount: ToDollars(q.TotalCents), FreeGrant: q.FreeGrant, Currency: Currency,
	}
	if c := q.Coupon; c != nil {
		v.Code, v.Name, v.Description, v.DiscountType, v.DiscountValue = c.Code, c.Name, c.Description, c.DiscountType, c.DollarsOrPercent()
	}
	return v
}

// Result is a recorded payment as the verify call, the free grant and the success page
// see it.
type Result struct {
	Success             bool       `json:"success"`
	Msg                 string     `json:"msg"`
	Amount              float64    `json:"amount"`
	OriginalAmount      float64    `json:"originalAmount"`
	DiscountAmount      float64    `json:"discountAmount"`
	MinimumAdjustment   float64    `json:"minimumAdjustment"`
	PaymentID           string     `json:"paymentId"`
	ApplicationApproved bool       `json:"applicationApproved"`
	TransactionID       string     `json:"transactionId"`
	Status              string     `json:"status"` // the payment's: completed, pending, failed
	ApplicationID       string     `json:"applicationId"`
	ApplicationStatus   string     `json:"applicationStatus"`
	Provider            string     `json:"provider"`
	CouponCode          string     `json:"couponCode"`
	OrderID             string     `json:"orderId,omitempty"`
	Currency            string     `json:"currency"`
	CreatedAt           time.Time  `json:"createdAt"`
	CompletedAt         *time.Time `json:"completedAt"`
	Badge               *BadgeView `json:"badge"`
}

func (s *Service) result(ctx context.Context, p *model.Payment, msg string) (*Result, error) {
	app := new(model.Application)
	if err := s.DB.NewSelect().Model(app).Where("id = ?", p.ApplicationID).Scan(ctx); err != nil {
		return nil, err
	}
	b, err := badgeByID(ctx, s.DB, p.BadgeID)
	if err != nil && !notFound(err) {
		return nil, err
	}
	r := &Result{
		Success: p.Status != model.PaymentFailed, Msg: msg,
		Amount: ToDollars(p.AmountCents), OriginalAmount: ToDollars(p.OriginalCents), DiscountAmount: ToDollars(p.DiscountCents),
		PaymentID: p.ID, ApplicationApproved: app.Status == model.StatusApproved, TransactionID: p.TransactionID,
		Status: p.Status, ApplicationID: app.ID, ApplicationStatus: app.Status, Provider: p.Provider, CouponCode: p.CouponCode,
		Currency: p.Currency, CreatedAt: p.CreatedAt, CompletedAt: p.CompletedAt, Badge: badgeView(b),
	}
	if adj := p.AmountCents - (p.OriginalCents - p.DiscountCents); adj > 0 {
		r.MinimumAdjustment = ToDollars(adj)
	}
	if p.OrderID != nil {
		r.OrderID = *p.OrderID
	}
	return r, nil
}

// pricing loads what pricing needs: the badge, the user's application awaiting payment
// (its price at submission is what is charged), and the coupon for code ("" = none).
type pricing struct {
	badge  *model.Badge
	app    *model.Application
	coupon *model.Coupon
	quote  Quote
}

func (s *Service) price(ctx context.Context, d bun.IDB, u *model.User, badgeID, code string, needApp bool) (*pricing, error) {
	if !model.ValidID(badgeID) {
		return nil, web.NotFound(MsgBadgeNotFound)
	}
	b, err := badgeByID(ctx, d, badgeID)
	if notFound(err) {
		return nil, web.NotFound(MsgBadgeNotFound)
	}
	if err != nil {
		return nil, err
	}
	p := &pricing{badge: b}
	if p.app, err = latestApplication(ctx, d, u.ID, b.ID, model.StatusAwaitingPayment); err != nil {
		return nil, err
	}
	if needApp && p.app == nil {
		return nil, s.noApplication(ctx, d, u, b)
	}
	charged := *b
	if p.app != nil {
		charged.PriceCents = p.app.PriceCents
	}
	if code = NormalizeCode(code); code != "" {
		if len(code) > 64 {
			return nil, web.NotFound(MsgCouponInvalid)
		}
		p.coupon, err = couponByCode(ctx, d, code)
		if notFound(err) {
			return nil, web.NotFound(MsgCouponInvalid)
		}
		if err != nil {
			return nil, err
		}
	}
	q, err := Price(&charged, p.coupon, s.now())
	if err != nil {
		var ce *CouponError
		if errors.As(err, &ce) {
			return nil, web.Unprocessable(ce.Msg)
		}
		return nil, err
	}
	p.quote = q
	return p, nil
}

// notAwaiting is the conflict for an application that left awaiting_payment.
func notAwaiting(app *model.Application) error {
	if app.Status == model.StatusPending || app.Status == model.StatusApproved {
		return web.Conflict(MsgAlreadyPaid)
	}
	return web.Conflict(MsgNotAwaiting)
}

// noApplication explains why there is nothing to pay for this badge.
func (s *Service) noApplication(ctx context.Context, d bun.IDB, u *model.User, b *model.Badge) error {
	last, err := latestApplication(ctx, d, u.ID, b.ID)
	if err != nil {
		return err
	}
	if last != nil && (last.Status == model.StatusPending || last.Status == model.StatusApproved) {
		return web.Conflict(MsgAlreadyPaid)
	}
	return web.NotFound(MsgNoApplication)
}

// Quote prices the badge for the user with an optional coupon code. The amount a client
// sends is never an input.
func (s *Service) Quote(ctx context.Context, u *model.User, badgeID, code string) (QuoteView, error) {
	p, err := s.price(ctx, s.DB, u, badgeID, code, false)
	if err != nil {
		return QuoteView{}, err
	}
	return p.quote.View(), nil
}

// ValidateCoupon is Quote with a code that must be given.
func (s *Service) ValidateCoupon(ctx context.Context, u *model.User, badgeID, code string) (QuoteView, error) {
	if NormalizeCode(code) == "" {
		return QuoteView{}, web.BadRequest(MsgCouponEmpty)
	}
	return s.Quote(ctx, u, badgeID, code)
}

// CreateOrder prices the user's application for the badge, creates the PayPal order for
// that amount and remembers it against the application.
func (s *Service) CreateOrder(ctx context.Context, u *model.User, badgeID, code string) (string, error) {
	p, err := s.price(ctx, s.DB, u, badgeID, code, true)
	if err != nil {
		return "", err
	}
	switch {
	case p.quote.FreeGrant:
		return "", web.Unprocessable(MsgUseFreeGrant)
	case p.quote.TotalCents == 0:
		return "", web.Conflict(MsgNothingToPay)
	}
	if n, err := busyOrders(ctx, s.DB, p.app.ID, ""); err != nil {
		return "", err
	} else if n > 0 {
		return "", web.Conflict(MsgBusy)
	}
	requestID := "mm-" + model.NewID() + model.NewID()[8:]
	o, err := s.PayPal.CreateOrder(ctx, CreateOrderInput{
		AmountCents: p.quote.TotalCents, Currency: Currency, CustomID: p.app.ID, ReferenceID: p.badge.ID,
		Description: "Meritmark badge: " + p.badge.Name,
	}, requestID)
	if err != nil {
		slog.Error("paypal create order failed", "user", u.ID, "application", p.app.ID, "err", err)
		if errors.Is(err, ErrIndeterminate) || errors.Is(err, context.DeadlineExceeded) {
			return "", web.Unavailable(MsgPayPalUnavailable)
		}
		return "", web.E(http.StatusBadGateway, MsgPayPalRefused)
	}
	now := s.now()
	row := &model.PaymentOrder{
		OrderID: o.ID, UserID: u.ID, ApplicationID: p.app.ID, BadgeID: p.badge.ID, AmountCents: p.quote.TotalCents,
		OriginalCents: p.quote.OriginalCents, DiscountCents: p.quote.DiscountCents, Currency: Currency,
		Status: OrderCreated, RequestID: requestID, CreatedAt: now, UpdatedAt: now,
	}
	if p.coupon != nil {
		row.CouponID, row.CouponCode = &p.coupon.ID, p.coupon.Code
	}
	if _, err := s.DB.NewInsert().Model(row).Exec(ctx); err != nil {
		return "", err
	}
	return o.ID, nil
}

// Verify captures the user's PayPal order and records the payment when PayPal says the
// capture is COMPLETED for exactly the amount and currency the server priced, for this
// user's application. Replaying it answers the payment already recorded.
func (s *Service) Verify(ctx context.Context, u *model.User, orderID, badgeID string) (*Result, error) {
	if len(orderID) > 64 || strings.ContainsAny(orderID, "/?#%\\ ") {
		return nil, web.NotFound(MsgOrderNotFound)
	}
	order, err := orderByID(ctx, s.DB, orderID)
	if notFound(err) {
		return nil, web.NotFound(MsgOrderNotFound)
	}
	if err != nil {
		return nil, err
	}
	if order.UserID != u.ID {
		return nil, web.NotFound(MsgOrderNotFound)
	}
	if badgeID != "" && badgeID != order.BadgeID {
		return nil, web.BadRequest(MsgOrderOtherBadge)
	}
	if r, err := s.replay(ctx, order); r != nil || err != nil {
		return r, err
	}
	switch order.Status {
	case OrderFailed:
		return nil, web.Unprocessable(MsgDeclined)
	case OrderMismatch:
		return nil, web.Unprocessable(MsgAmountMismatch)
	}
	s.reconcileStale(ctx, order.ApplicationID, order.OrderID)
	claimedAt, err := s.claim(ctx, u, order)
	if err != nil {
		// a concurrent verify of this order may have recorded it meanwhile
		if r, rerr := s.replay(ctx, order); r != nil {
			return r, nil
		} else if rerr != nil {
			return nil, rerr
		}
		return nil, err
	}
	// one PayPal-Request-Id per claim: retries of an unanswered capture reuse it (PayPal
	// answers the first result instead of capturing twice); a capture after a definite
	// refusal (not approved yet) is a new request
	cp, err := s.PayPal.CaptureOrder(ctx, order.OrderID, fmt.Sprintf("%s-capture-%d", order.RequestID, claimedAt.UnixMicro()))
	if err != nil {
		return nil, s.captureFailed(ctx, order, err)
	}
	return s.applyCapture(ctx, order, cp)
}

// replay answers the payment already recorded for the order, if any.
func (s *Service) replay(ctx context.Context, order *model.PaymentOrder) (*Result, error) {
	p, err := paymentByOrder(ctx, s.DB, order.OrderID)
	if err != nil || p == nil {
		return nil, err
	}
	switch p.Status {
	case model.PaymentFailed:
		return nil, web.Unprocessable(MsgDeclined)
	case model.PaymentPending:
		return s.result(ctx, p, MsgPendingCapture)
	}
	return s.result(ctx, p, MsgVerified)
}

// claim marks the order as being captured, after checking that the application still
// waits for payment and that no other order of it is in flight, and reserves the coupon
// use (so that a coupon at its limit is refused before any money moves).
func (s *Service) claim(ctx context.Context, u *model.User, order *model.PaymentOrder) (time.Time, error) {
	now := s.now()
	claimedAt := now
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		app, err := lockApplication(ctx, tx, order.ApplicationID)
		if notFound(err) {
			return web.NotFound(MsgOrderNotFound)
		}
		if err != nil {
			return err
		}
		if app.UserID != u.ID {
			return web.NotFound(MsgOrderNotFound)
		}
		if app.Status != model.StatusAwaitingPayment {
			return notAwaiting(app)
		}
		cur, err := orderByID(ctx, tx, order.OrderID)
		if err != nil {
			return err
		}
		switch cur.Status {
		case OrderFailed:
			return web.Unprocessable(MsgDeclined)
		case OrderMismatch:
			return web.Unprocessable(MsgAmountMismatch)
		case OrderPending, OrderCaptured:
			return web.Conflict(MsgBusy)
		}
		if n, err := busyOrders(ctx, tx, app.ID, order.OrderID); err != nil {
			return err
		} else if n > 0 {
			return web.Conflict(MsgBusy)
		}
		if cur.CouponID != nil {
			if err := reserveCoupon(ctx, tx, *cur.CouponID, u.ID, app.ID, now); errors.Is(err, errCouponLimit) {
				return web.Conflict(MsgCouponLimit + " Please remove it and pay again.")
			} else if err != nil {
				return err
			}
		}
		if cur.Status == OrderCapturing {
			claimedAt = cur.UpdatedAt // a capture whose outcome is unknown: same claim
			return nil
		}
		return setOrderStatus(ctx, tx, order.OrderID, OrderCapturing, now)
	})
	return claimedAt, err
}

// release undoes a claim after PayPal definitely did not take the money: the order goes
// to status and the reserved coupon use is given back.
func (s *Service) release(ctx context.Context, order *model.PaymentOrder, status string) error {
	now := s.now()
	return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return s.releaseTx(ctx, tx, order, status, now)
	})
}

func (s *Service) releaseTx(ctx context.Context, tx bun.Tx, order *model.PaymentOrder, status string, now time.Time) error {
	if order.CouponID != nil {
		if err := releaseCoupon(ctx, tx, *order.CouponID, order.UserID, order.ApplicationID, now); err != nil {
			return err
		}
	}
	// an order recorded meanwhile (captured, or pending at PayPal) keeps its status
	_, err := tx.NewUpdate().Model((*model.PaymentOrder)(nil)).Set("status = ?", status).Set("updated_at = ?", now).
		Where("order_id = ?", order.OrderID).Where("status IN (?)", bun.In([]string{OrderCreated, OrderCapturing, OrderFailed, OrderMismatch})).Exec(ctx)
	return err
}

// captureFailed maps a capture error to the answer, undoing the claim when PayPal's
// answer is definite. An unknown outcome keeps the claim: a retry captures with the same
// request id, or the webhook settles it.
func (s *Service) captureFailed(ctx context.Context, order *model.PaymentOrder, err error) error {
	var ae *APIError
	if !errors.As(err, &ae) {
		slog.Warn("paypal capture outcome unknown", "order", order.OrderID, "err", err)
		return web.Unavailable(MsgIndeterminate)
	}
	slog.Info("paypal refused capture", "order", order.OrderID, "status", ae.Status, "issue", ae.Issue, "debug_id", ae.DebugID)
	switch ae.Issue {
	case "INSTRUMENT_DECLINED", "PAYER_ACTION_REQUIRED", "TRANSACTION_REFUSED", "PAYER_CANNOT_PAY", "PAYEE_BLOCKED_TRANSACTION", "COMPLIANCE_VIOLATION", "MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED":
		if rerr := s.release(ctx, order, OrderFailed); rerr != nil {
			return rerr
		}
		return &declinedError{web.Unprocessable(MsgDeclined)}
	case "ORDER_NOT_APPROVED", "ORDER_NOT_CAPTURED":
		if rerr := s.release(ctx, order, OrderCreated); rerr != nil {
			return rerr
		}
		return web.Unprocessable(MsgNotApproved)
	}
	if ae.Status == http.StatusNotFound {
		if rerr := s.release(ctx, order, OrderFailed); rerr != nil {
			return rerr
		}
		return web.NotFound(MsgOrderNotFound)
	}
	if rerr := s.release(ctx, order, OrderCreated); rerr != nil {
		return rerr
	}
	return web.Unprocessable("Payment verification failed: PayPal refused the capture.")
}

// declinedError is a decline: the handler also tells the page to show the failed screen.
type declinedError struct{ err *web.Error }

func (e *declinedError) Error() string { return e.err.Error() }
func (e *declinedError) Unwrap() error { return e.err }

// IsDeclined reports a declined payment.
func IsDeclined(err error) bool {
	var d *declinedError
	return errors.As(err, &d)
}

// applyCapture records what PayPal captured: a COMPLETED capture for the order's exact
// amount and currency becomes the payment; PENDING is recorded as pending; anything else
// is refused.
func (s *Service) applyCapture(ctx context.Context, order *model.PaymentOrder, cp *Capture) (*Result, error) {
	switch cp.Status {
	case "COMPLETED":
		if reason := mismatch(order, cp); reason != "" {
			slog.Error("paypal capture does not match the order: not recorded", "order", order.OrderID, "capture", cp.CaptureID, "reason", reason)
			if err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				return s.releaseTx(ctx, tx, order, OrderMismatch, s.now())
			}); err != nil {
				return nil, err
			}
			return nil, web.Unprocessable(MsgAmountMismatch)
		}
		var p *model.Payment
		err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			var err error
			p, err = s.complete(ctx, tx, order, cp.CaptureID)
			return err
		})
		if err != nil {
			return nil, err
		}
		s.kick()
		return s.result(ctx, p, MsgVerified)
	case "PENDING":
		if reason := mismatch(order, cp); reason != "" {
			slog.Error("paypal pending capture does not match the order", "order", order.OrderID, "reason", reason)
			if err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				return s.releaseTx(ctx, tx, order, OrderMismatch, s.now())
			}); err != nil {
				return nil, err
			}
			return nil, web.Unprocessable(MsgAmountMismatch)
		}
		var p *model.Payment
		err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			var err error
			p, err = s.recordPending(ctx, tx, order, cp.CaptureID)
			return err
		})
		if err != nil {
			return nil, err
		}
		return s.result(ctx, p, MsgPendingCapture)
	case "DECLINED", "FAILED":
		if err := s.release(ctx, order, OrderFailed); err != nil {
			return nil, err
		}
		return nil, &declinedError{web.Unprocessable(MsgDeclined)}
	}
	slog.Warn("paypal capture in an unexpected state", "order", order.OrderID, "status", cp.Status, "order_status", cp.OrderStatus)
	return nil, web.Unavailable(MsgIndeterminate)
}

// mismatch says why a capture is not the order the server priced ("" when it is).
func mismatch(order *model.PaymentOrder, cp *Capture) string {
	switch {
	case cp.CaptureID == "":
		return "no capture id"
	case !cp.AmountOK || cp.AmountCents != order.AmountCents:
		return fmt.Sprintf("amount %d cents, order %d cents", cp.AmountCents, order.AmountCents)
	case !strings.EqualFold(cp.Currency, order.Currency):
		return fmt.Sprintf("currency %s, order %s", cp.Currency, order.Currency)
	case cp.CustomID != "" && cp.CustomID != order.ApplicationID:
		return "custom id names another application"
	case cp.OrderID != "" && cp.OrderID != order.OrderID:
		return "another order"
	}
	return ""
}

// complete records a completed capture inside tx: the payment (or the pending one turned
// completed), the coupon redemption tied to it, and the application's move to review.
// Doing it twice changes nothing.
func (s *Service) complete(ctx context.Context, tx bun.Tx, order *model.PaymentOrder, captureID string) (*model.Payment, error) {
	now := s.now()
	app, err := lockApplication(ctx, tx, order.ApplicationID)
	if err != nil {
		return nil, err
	}
	p, err := paymentByOrder(ctx, tx, order.OrderID)
	if err != nil {
		return nil, err
	}
	if p != nil && p.Status == model.PaymentCompleted {
		return p, nil
	}
	if p != nil {
		if _, err := tx.NewUpdate().Model((*model.Payment)(nil)).Set("status = ?", model.PaymentCompleted).Set("completed_at = ?", now).
			Where("id = ?", p.ID).Exec(ctx); err != nil {
			return nil, err
		}
		p.Status, p.CompletedAt = model.PaymentCompleted, &now
	} else {
		p = s.paymentRow(order, captureID, model.PaymentCompleted, now)
		res, err := tx.NewInsert().Model(p).On("CONFLICT DO NOTHING").Exec(ctx)
		if err != nil {
			return nil, err
		}
		if affected(res) != 1 { // recorded by a concurrent call
			return paymentByOrder(ctx, tx, order.OrderID)
		}
	}
	if order.CouponID != nil {
		over, err := linkRedemption(ctx, tx, *order.CouponID, order.UserID, order.ApplicationID, p.ID, now)
		if err != nil {
			return nil, err
		}
		if over {
			slog.Warn("coupon used past its limit by a capture that arrived without a reservation", "coupon", *order.CouponID, "order", order.OrderID)
		}
	}
	if err := s.markPaid(ctx, tx, app, p, now); err != nil {
		return nil, err
	}
	if err := setOrderStatus(ctx, tx, order.OrderID, OrderCaptured, now); err != nil {
		return nil, err
	}
	return p, s.queueReceipt(ctx, tx, app, p)
}

func (s *Service) paymentRow(order *model.PaymentOrder, captureID, status string, now time.Time) *model.Payment {
	oid, cid := order.OrderID, captureID
	p := &model.Payment{
		ID: model.NewID(), UserID: order.UserID, ApplicationID: order.ApplicationID, BadgeID: order.BadgeID, Provider: ProviderPayPal,
		OrderID: &oid, CaptureID: &cid, TransactionID: captureID, Status: status, AmountCents: order.AmountCents,
		OriginalCents: order.OriginalCents, DiscountCents: order.DiscountCents, Currency: order.Currency,
		CouponID: order.CouponID, CouponCode: order.CouponCode, CreatedAt: now,
	}
	if status == model.PaymentCompleted {
		p.CompletedAt = &now
	}
	return p
}

// markPaid moves the application from awaiting_payment to pending review (the
// lifecycle's pay event) with the payment recorded on it. An application that left
// awaiting_payment meanwhile keeps its status but still records the payment.
func (s *Service) markPaid(ctx context.Context, tx bun.Tx, app *model.Application, p *model.Payment, now time.Time) error {
	if app.PaymentStatus == model.PaymentCompleted && app.PaymentID != nil && *app.PaymentID != p.ID {
		// money arrived twice for one application (e.g. a stale capture settled by webhook
		// after another payment): keep the first on the application, flag for a refund
		slog.Error("second payment for an application: refund needed", "application", app.ID, "kept", *app.PaymentID, "extra", p.ID)
		return nil
	}
	q := tx.NewUpdate().Model((*model.Application)(nil)).Set("payment_status = ?", model.PaymentCompleted).
		Set("payment_id = ?", p.ID).Set("payment_completed_at = ?", now).Set("updated_at = ?", now).Where("id = ?", app.ID)
	next, err := application.Next(app.Status, app.PaymentStatus, application.EventPay)
	if err == nil {
		q = q.Set("status = ?", next).Where("status = ?", model.StatusAwaitingPayment)
	} else {
		slog.Warn("payment recorded for an application not awaiting payment", "application", app.ID, "status", app.Status, "payment", p.ID)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return err
	}
	if affected(res) != 1 {
		return fmt.Errorf("payment: application %s changed while recording payment %s", app.ID, p.ID)
	}
	return nil
}

// recordPending records a PENDING capture; the application keeps waiting for payment
// (and no other payment may start) until the webhook settles it.
func (s *Service) recordPending(ctx context.Context, tx bun.Tx, order *model.PaymentOrder, captureID string) (*model.Payment, error) {
	now := s.now()
	if _, err := lockApplication(ctx, tx, order.ApplicationID); err != nil {
		return nil, err
	}
	p, err := paymentByOrder(ctx, tx, order.OrderID)
	if err != nil || p != nil {
		return p, err
	}
	p = s.paymentRow(order, captureID, model.PaymentPending, now)
	res, err := tx.NewInsert().Model(p).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return nil, err
	}
	if affected(res) != 1 {
		return paymentByOrder(ctx, tx, order.OrderID)
	}
	return p, setOrderStatus(ctx, tx, order.OrderID, OrderPending, now)
}

// fail records that PayPal denied a pending capture: the payment fails, the order fails,
// the reserved coupon use is given back and the application may be paid again.
func (s *Service) fail(ctx context.Context, tx bun.Tx, order *model.PaymentOrder) error {
	now := s.now()
	if _, err := lockApplication(ctx, tx, order.ApplicationID); err != nil {
		return err
	}
	p, err := paymentByOrder(ctx, tx, order.OrderID)
	if err != nil {
		return err
	}
	if p != nil && p.Status == model.PaymentCompleted {
		slog.Warn("a denial for a completed payment: left for an administrator", "payment", p.ID, "order", order.OrderID)
		return nil
	}
	if p != nil {
		if _, err := tx.NewUpdate().Model((*model.Payment)(nil)).Set("status = ?", model.PaymentFailed).Where("id = ?", p.ID).Exec(ctx); err != nil {
			return err
		}
	}
	if err := s.releaseTx(ctx, tx, order, OrderFailed, now); err != nil {
		return err
	}
	return setOrderStatus(ctx, tx, order.OrderID, OrderFailed, now) // also from pending
}

// reconcileStale settles the application's other orders stuck in 'capturing' (the
// capture's outcome was never learned) by reading them from PayPal.
func (s *Service) reconcileStale(ctx context.Context, appID, except string) {
	var stale []*model.PaymentOrder
	if err := s.DB.NewSelect().Model(&stale).Where("application_id = ?", appID).Where("order_id <> ?", except).
		Where("status = ?", OrderCapturing).Where("updated_at < ?", s.now().Add(-2*time.Minute)).Scan(ctx); err != nil {
		return
	}
	for _, o := range stale {
		po, err := s.PayPal.GetOrder(ctx, o.OrderID)
		if err != nil {
			var ae *APIError
			if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
				_ = s.release(ctx, o, OrderFailed)
			}
			continue
		}
		cp := captureFromOrder(po)
		switch {
		case cp.CaptureID != "":
			_, _ = s.applyCapture(ctx, o, cp)
		case po.Status == "VOIDED":
			_ = s.release(ctx, o, OrderFailed)
		default: // CREATED, APPROVED: never captured
			_ = s.release(ctx, o, OrderCreated)
		}
	}
}

// FreeGrant records a free grant: accepted only when the server's own pricing with the
// coupon makes the fee 0 through a 100% percentage coupon. The coupon use, the payment
// (amount 0) and the application's move to pending review are one transaction; the
// application is never approved by it.
func (s *Service) FreeGrant(ctx context.Context, u *model.User, badgeID, code string) (*Result, error) {
	if NormalizeCode(code) == "" {
		return nil, web.BadRequest(MsgCouponEmpty)
	}
	var p *model.Payment
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		pr, err := s.price(ctx, tx, u, badgeID, code, true)
		if err != nil {
			return err
		}
		if !pr.quote.FreeGrant {
			return web.Unprocessable(MsgNotFree)
		}
		app, err := lockApplication(ctx, tx, pr.app.ID)
		if err != nil {
			return err
		}
		if app.Status != model.StatusAwaitingPayment {
			return notAwaiting(app)
		}
		if n, err := busyOrders(ctx, tx, app.ID, ""); err != nil {
			return err
		} else if n > 0 {
			return web.Conflict(MsgBusy)
		}
		now := s.now()
		if err := reserveCoupon(ctx, tx, pr.coupon.ID, u.ID, app.ID, now); errors.Is(err, errCouponLimit) {
			return web.Conflict(MsgCouponLimit)
		} else if err != nil {
			return err
		}
		id := model.NewID()
		cid := pr.coupon.ID
		p = &model.Payment{
			ID: id, UserID: u.ID, ApplicationID: app.ID, BadgeID: pr.badge.ID, Provider: ProviderFreeGrant,
			TransactionID: "FREE-" + strings.ToUpper(id[len(id)-12:]), Status: model.PaymentCompleted,
			AmountCents: 0, OriginalCents: pr.quote.OriginalCents, DiscountCents: pr.quote.DiscountCents, Currency: Currency,
			CouponID: &cid, CouponCode: pr.coupon.Code, CreatedAt: now, CompletedAt: &now,
		}
		if _, err := tx.NewInsert().Model(p).Exec(ctx); err != nil {
			return err
		}
		if _, err := linkRedemption(ctx, tx, cid, u.ID, app.ID, p.ID, now); err != nil {
			return err
		}
		if err := s.markPaid(ctx, tx, app, p, now); err != nil {
			return err
		}
		return s.queueReceipt(ctx, tx, app, p)
	})
	if err != nil {
		return nil, err
	}
	s.kick()
	return s.result(ctx, p, MsgFreeGranted)
}

// LatestResult is the newest payment of the user's newest paid application for the
// badge (the success page after a reload).
func (s *Service) LatestResult(ctx context.Context, u *model.User, badgeID string) (*Result, error) {
	if !model.ValidID(badgeID) {
		return nil, web.NotFound(MsgBadgeNotFound)
	}
	p := new(model.Payment)
	err := s.DB.NewSelect().Model(p).Where("user_id = ?", u.ID).Where("badge_id = ?", badgeID).
		OrderExpr("created_at DESC, id DESC").Limit(1).Scan(ctx)
	if notFound(err) {
		return nil, web.NotFound(MsgNoPayment)
	}
	if err != nil {
		return nil, err
	}
	msg := MsgVerified
	switch {
	case p.Provider == ProviderFreeGrant:
		msg = MsgFreeGranted
	case p.Status == model.PaymentPending:
		msg = MsgPendingCapture
	case p.Status == model.PaymentFailed:
		msg = MsgDeclined
	}
	return s.result(ctx, p, msg)
}

func (s *Service) queueReceipt(ctx context.Context, tx bun.Tx, app *model.Application, p *model.Payment) error {
	u := new(model.User)
	if err := tx.NewSelect().Model(u).Where("id = ?", p.UserID).Scan(ctx); err != nil {
		return err
	}
	b, err := badgeByID(ctx, tx, p.BadgeID)
	if err != nil {
		return err
	}
	what := "Payment received: " + Dollars(p.AmountCents)
	if p.Provider == ProviderFreeGrant {
		what = "Free grant applied (coupon " + p.CouponCode + ")"
	}
	text := fmt.Sprintf("Hello %s,\n\n%s for the %s badge.\nTransaction ID: %s\n\nYour application is now with our review team. Reviews take 2-3 business days; we will e-mail you when it is decided.\n\nMeritmark",
		u.Name, what, b.Name, p.TransactionID)
	htm := fmt.Sprintf("<p>Hello %s,</p><p>%s for the <strong>%s</strong> badge.<br>Transaction ID: %s</p><p>Your application is now with our review team. Reviews take 2-3 business days; we will e-mail you when it is decided.</p><p>Meritmark</p>",
		html.EscapeString(u.Name), html.EscapeString(what), html.EscapeString(b.Name), html.EscapeString(p.TransactionID))
	return mail.Queue(ctx, tx, mail.Message{To: u.Email, Subject: "Meritmark: " + what, Text: text, HTML: htm})
}

func (s *Service) kick() {
	if s.Mailer != nil {
		s.Mailer.Kick()
	}
}

// Webhook outcomes.
var (
	ErrWebhookNotConfigured = web.Unavailable("PayPal webhooks are not configured.")
	ErrWebhookSignature     = web.BadRequest("The webhook signature could not be verified.")
	ErrWebhookBody          = web.BadRequest("The webhook body is not a valid PayPal event.")
)

// HandleWebhook processes a PayPal webhook event once: its signature is verified through
// PayPal's verify-webhook-signature API, and the event id is recorded in the same
// transaction as its effect, so a redelivery changes nothing.
func (s *Service) HandleWebhook(ctx context.Context, h WebhookHeaders, body []byte) (string, error) {
	var ev struct {
		ID        string          `json:"id"`
		EventType string          `json:"event_type"`
		Resource  json.RawMessage `json:"resource"`
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.ID == "" || len(ev.ID) > 128 || ev.EventType == "" {
		return "", ErrWebhookBody
	}
	if s.WebhookID == "" {
		return "", ErrWebhookNotConfigured
	}
	if h.TransmissionID == "" || h.TransmissionSig == "" {
		return "", ErrWebhookSignature
	}
	ok, err := s.PayPal.VerifyWebhookSignature(ctx, h, s.WebhookID, body)
	if err != nil {
		slog.Warn("paypal webhook signature check failed to run", "event", ev.ID, "err", err)
		return "", web.Unavailable(MsgPayPalUnavailable)
	}
	if !ok {
		slog.Warn("paypal webhook with a bad signature", "event", ev.ID, "type", ev.EventType)
		return "", ErrWebhookSignature
	}
	var cp CaptureObj
	if strings.HasPrefix(ev.EventType, "PAYMENT.CAPTURE.") {
		if err := json.Unmarshal(ev.Resource, &cp); err != nil {
			return "", ErrWebhookBody
		}
	}
	msg := "Event processed."
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewInsert().Model(&webhookEvent{ID: ev.ID, Type: ev.EventType, ReceivedAt: s.now()}).On("CONFLICT DO NOTHING").Exec(ctx)
		if err != nil {
			return err
		}
		if affected(res) != 1 {
			msg = "Event already processed."
			return nil
		}
		m, err := s.applyEvent(ctx, tx, ev.EventType, &cp)
		if m != "" {
			msg = m
		}
		return err
	})
	if err != nil {
		return "", err
	}
	s.kick()
	return msg, nil
}

type webhookEvent struct {
	bun.BaseModel `bun:"table:webhook_events"`

	ID         string    `bun:"id,pk"`
	Type       string    `bun:"type"`
	ReceivedAt time.Time `bun:"received_at"`
}

func (s *Service) applyEvent(ctx context.Context, tx bun.Tx, typ string, cp *CaptureObj) (string, error) {
	switch typ {
	case "PAYMENT.CAPTURE.COMPLETED", "PAYMENT.CAPTURE.PENDING", "PAYMENT.CAPTURE.DENIED", "PAYMENT.CAPTURE.DECLINED":
	default:
		return "Event ignored.", nil
	}
	orderID := ""
	if cp.SupplementaryData != nil {
		orderID = cp.SupplementaryData.RelatedIDs.OrderID
	}
	var order *model.PaymentOrder
	var err error
	if orderID != "" {
		order, err = orderByID(ctx, tx, orderID)
	} else if cp.ID != "" { // find the order through the payment recorded for the capture
		p := new(model.Payment)
		if err = tx.NewSelect().Model(p).Where("capture_id = ?", cp.ID).Scan(ctx); err == nil && p.OrderID != nil {
			order, err = orderByID(ctx, tx, *p.OrderID)
		}
	}
	if notFound(err) || (err == nil && order == nil) {
		slog.Info("paypal webhook for an unknown order", "type", typ, "capture", cp.ID, "order", orderID)
		return "Event ignored.", nil
	}
	if err != nil {
		return "", err
	}
	c := &Capture{OrderID: order.OrderID, CaptureID: cp.ID, Status: cp.Status, CustomID: cp.CustomID, Currency: cp.Amount.CurrencyCode}
	c.AmountCents, c.AmountOK = ParseAmount(cp.Amount.Value)
	switch typ {
	case "PAYMENT.CAPTURE.COMPLETED", "PAYMENT.CAPTURE.PENDING":
		if reason := mismatch(order, c); reason != "" {
			slog.Error("paypal webhook capture does not match the order: not recorded", "order", order.OrderID, "reason", reason)
			return "Event ignored.", s.releaseTx(ctx, tx, order, OrderMismatch, s.now())
		}
		if typ == "PAYMENT.CAPTURE.COMPLETED" {
			_, err = s.complete(ctx, tx, order, cp.ID)
		} else {
			_, err = s.recordPending(ctx, tx, order, cp.ID)
		}
		return "", err
	default:
		return "", s.fail(ctx, tx, order)
	}
}

// Page states of /payment/:badgeId.
const (
	PageReady         = "ready"          // an application awaits payment
	PageProcessing    = "processing"     // PayPal is still processing a capture
	PageNoApplication = "no-application" // nothing to pay: apply first
	PageInReview      = "in-review"      // paid (or free): waiting for review
	PageApproved      = "approved"       // the badge was granted
	PageRejected      = "rejected"       // the last application was rejected
	PageNotFound      = "not-found"      // no such badge
)

// PageData is what the payment page needs.
type PageData struct {
	State             string     `json:"state"`
	Badge             *BadgeView `json:"badge"`
	ApplicationID     string     `json:"applicationId"`
	ApplicationStatus string     `json:"applicationStatus"`
	AppliedAt         *time.Time `json:"appliedAt"`
	Quote             *QuoteView `json:"quote"`
	LastPayment       *Result    `json:"lastPayment"`
}

// Page works out the payment page's state for the user and badge.
func (s *Service) Page(ctx context.Context, u *model.User, badgeID string) (*PageData, error) {
	d := &PageData{State: PageNotFound}
	if !model.ValidID(badgeID) {
		return d, nil
	}
	b, err := badgeByID(ctx, s.DB, badgeID)
	if notFound(err) {
		return d, nil
	}
	if err != nil {
		return nil, err
	}
	d.Badge = badgeView(b)
	app, err := latestApplication(ctx, s.DB, u.ID, b.ID)
	if err != nil {
		return nil, err
	}
	if app == nil {
		d.State = PageNoApplication
		return d, nil
	}
	d.ApplicationID, d.ApplicationStatus, d.AppliedAt = app.ID, app.Status, &app.CreatedAt
	if p, err := latestPayment(ctx, s.DB, app.ID); err != nil {
		return nil, err
	} else if p != nil {
		if d.LastPayment, err = s.result(ctx, p, ""); err != nil {
			return nil, err
		}
	}
	switch app.Status {
	case model.StatusAwaitingPayment:
		d.State = PageReady
		if d.LastPayment != nil && d.LastPayment.Status == model.PaymentPending {
			d.State = PageProcessing
		}
		charged := *b
		charged.PriceCents = app.PriceCents
		q, err := Price(&charged, nil, s.now())
		if err != nil {
			return nil, err
		}
		v := q.View()
		d.Quote = &v
	case model.StatusPending:
		d.State = PageInReview
	case model.StatusApproved:
		d.State = PageApproved
	case model.StatusRejected:
		d.State = PageRejected
	}
	return d, nil
}
