package payment

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/model"
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
	Events    *events.Bus  // a completed capture records payment.captured
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

func (s *Service) kick() {
	if s.Mailer != nil {
		s.Mailer.Kick()
	}
}
