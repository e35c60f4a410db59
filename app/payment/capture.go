package payment

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/application"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/web"
)

// applyCapture records what PayPal captured: a COMPLETED capture for the order's exact
// amount and currency becomes the payment; PENDING is recorded as pending; anything else
// is refused.
func (s *Service) applyCapture(ctx context.Context, order *model.PaymentOrder, cp *Capture) (*Result, error) {
	switch cp.Status {
	case "COMPLETED", "PENDING":
		if reason := mismatch(order, cp); reason != "" {
			slog.Error("paypal capture does not match the order: not recorded", "order", order.OrderID, "capture", cp.CaptureID, "status", cp.Status, "reason", reason)
			if err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
				return s.releaseTx(ctx, tx, order, OrderMismatch, s.now())
			}); err != nil {
				return nil, err
			}
			return nil, web.Unprocessable(MsgAmountMismatch)
		}
		// a completed capture becomes the payment; a pending one waits for PayPal's webhook
		record, msg := s.complete, MsgVerified
		if cp.Status == "PENDING" {
			record, msg = s.recordPending, MsgPendingCapture
		}
		var p *model.Payment
		err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
			var err error
			p, err = record(ctx, tx, order, cp.CaptureID)
			return err
		})
		if err != nil {
			return nil, err
		}
		if cp.Status == "COMPLETED" {
			s.kick()
		}
		return s.result(ctx, p, msg)
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
	app, err := model.LockApplication(ctx, tx, order.ApplicationID)
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
	if err := s.Events.Record(ctx, tx, events.PaymentCaptured, "payment", p.ID, map[string]any{"paymentId": p.ID, "applicationId": app.ID,
		"badgeId": p.BadgeID, "userId": p.UserID, "amount": float64(p.AmountCents) / 100, "currency": p.Currency}); err != nil {
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
	if _, err := model.LockApplication(ctx, tx, order.ApplicationID); err != nil {
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
	if _, err := model.LockApplication(ctx, tx, order.ApplicationID); err != nil {
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
	return mail.Queue(ctx, tx, mail.Letter{To: u.Email, Subject: "Meritmark: " + what, Greeting: "Hello " + u.Name + ",",
		Paragraphs: []mail.Paragraph{{Text: fmt.Sprintf("%s for the %s badge. Transaction ID: %s", what, b.Name, p.TransactionID)},
			{Text: "Your application is now with our review team. Reviews take 2-3 business days; we will e-mail you when it is decided."}},
		SignOff: "Meritmark"}.Message())
}
