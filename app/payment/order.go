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

	"meritmark/app/model"
	"meritmark/app/web"
)

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
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		app, err := model.LockApplication(ctx, tx, order.ApplicationID)
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
	return s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
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
		Where("order_id = ?", order.OrderID).Where("status IN (?)", bun.List([]string{OrderCreated, OrderCapturing, OrderFailed, OrderMismatch})).Exec(ctx)
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
