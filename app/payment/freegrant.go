package payment

import (
	"context"
	"errors"
	"strings"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/web"
)

// FreeGrant records a free grant: accepted only when the server's own pricing with the
// coupon makes the fee 0 through a 100% percentage coupon. The coupon use, the payment
// (amount 0) and the application's move to pending review are one transaction; the
// application is never approved by it.
func (s *Service) FreeGrant(ctx context.Context, u *model.User, badgeID, code string) (*Result, error) {
	if NormalizeCode(code) == "" {
		return nil, web.BadRequest(MsgCouponEmpty)
	}
	var p *model.Payment
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		pr, err := s.price(ctx, tx, u, badgeID, code, true)
		if err != nil {
			return err
		}
		if !pr.quote.FreeGrant {
			return web.Unprocessable(MsgNotFree)
		}
		app, err := model.LockApplication(ctx, tx, pr.app.ID)
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
