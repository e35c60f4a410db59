package payment

import (
	"context"
	"errors"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/web"
)

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
