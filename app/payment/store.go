package payment

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// Order statuses (payment_orders.status).
const (
	OrderCreated   = "created"   // created at PayPal, not captured
	OrderCapturing = "capturing" // a capture is in flight (coupon use reserved)
	OrderPending   = "pending"   // captured as PENDING: waits for the webhook
	OrderCaptured  = "captured"  // captured and recorded
	OrderFailed    = "failed"    // declined or denied
	OrderMismatch  = "mismatch"  // captured amount or currency differed: not recorded
)

// Payment providers.
const (
	ProviderPayPal    = "paypal"
	ProviderFreeGrant = "free-grant"
)

func notFound(err error) bool { return errors.Is(err, sql.ErrNoRows) }

func badgeByID(ctx context.Context, d bun.IDB, id string) (*model.Badge, error) {
	b := new(model.Badge)
	if err := d.NewSelect().Model(b).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// couponByCode finds a coupon by its code, ignoring case.
func couponByCode(ctx context.Context, d bun.IDB, code string) (*model.Coupon, error) {
	c := new(model.Coupon)
	err := d.NewSelect().Model(c).Where("UPPER(code) = ?", NormalizeCode(code)).OrderExpr("code = ? DESC", NormalizeCode(code)).Limit(1).Scan(ctx)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// latestApplication is the user's newest application for the badge, or nil.
func latestApplication(ctx context.Context, d bun.IDB, userID, badgeID string, status ...string) (*model.Application, error) {
	a := new(model.Application)
	q := d.NewSelect().Model(a).Where("user_id = ?", userID).Where("badge_id = ?", badgeID)
	if len(status) > 0 {
		q = q.Where("status IN (?)", bun.List(status))
	}
	err := q.OrderExpr("created_at DESC, id DESC").Limit(1).Scan(ctx)
	if notFound(err) {
		return nil, nil
	}
	return a, err
}

func orderByID(ctx context.Context, d bun.IDB, id string) (*model.PaymentOrder, error) {
	o := new(model.PaymentOrder)
	if err := d.NewSelect().Model(o).Where("order_id = ?", id).Scan(ctx); err != nil {
		return nil, err
	}
	return o, nil
}

func paymentByOrder(ctx context.Context, d bun.IDB, orderID string) (*model.Payment, error) {
	p := new(model.Payment)
	err := d.NewSelect().Model(p).Where("order_id = ?", orderID).Scan(ctx)
	if notFound(err) {
		return nil, nil
	}
	return p, err
}

// latestPayment is the newest payment recorded for an application, or nil.
func latestPayment(ctx context.Context, d bun.IDB, appID string) (*model.Payment, error) {
	p := new(model.Payment)
	err := d.NewSelect().Model(p).Where("application_id = ?", appID).OrderExpr("created_at DESC, id DESC").Limit(1).Scan(ctx)
	if notFound(err) {
		return nil, nil
	}
	return p, err
}

// busyOrders counts the application's orders other than except that are being captured,
// pending, or captured: while one exists, no other payment may start.
func busyOrders(ctx context.Context, d bun.IDB, appID, except string) (int64, error) {
	return d.NewSelect().Model((*model.PaymentOrder)(nil)).Where("application_id = ?", appID).Where("order_id <> ?", except).
		Where("status IN (?)", bun.List([]string{OrderCapturing, OrderPending, OrderCaptured})).Count(ctx)
}

func setOrderStatus(ctx context.Context, d bun.IDB, orderID, status string, now time.Time) error {
	_, err := d.NewUpdate().Model((*model.PaymentOrder)(nil)).Set("status = ?", status).Set("updated_at = ?", now).
		Where("order_id = ?", orderID).Exec(ctx)
	return err
}

// reserveCoupon counts one use of the coupon for (user, application): the guarded
// increment never passes the usage limit, and the unique redemption row keeps one use per
// application. A use already reserved for this application is kept as is.
func reserveCoupon(ctx context.Context, tx bun.IDB, couponID, userID, appID string, now time.Time) error {
	n, err := tx.NewSelect().Model((*model.CouponRedemption)(nil)).
		Where("coupon_id = ? AND user_id = ? AND application_id = ?", couponID, userID, appID).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	res, err := tx.NewUpdate().Model((*model.Coupon)(nil)).Set("used_count = used_count + 1").Set("updated_at = ?", now).
		Where("id = ?", couponID).Where("(usage_limit IS NULL OR used_count < usage_limit)").Exec(ctx)
	if err != nil {
		return err
	}
	if affected(res) != 1 {
		return errCouponLimit
	}
	_, err = tx.NewInsert().Model(&model.CouponRedemption{ID: model.NewID(), CouponID: couponID, UserID: userID, ApplicationID: appID, CreatedAt: now}).
		On("CONFLICT DO NOTHING").Exec(ctx)
	return err
}

var errCouponLimit = errors.New("coupon usage limit reached")

// releaseCoupon gives back a reserved use that no payment took.
func releaseCoupon(ctx context.Context, tx bun.IDB, couponID, userID, appID string, now time.Time) error {
	res, err := tx.NewDelete().Model((*model.CouponRedemption)(nil)).
		Where("coupon_id = ? AND user_id = ? AND application_id = ? AND payment_id IS NULL", couponID, userID, appID).Exec(ctx)
	if err != nil {
		return err
	}
	if affected(res) > 0 {
		_, err = tx.NewUpdate().Model((*model.Coupon)(nil)).Set("used_count = used_count - 1").Set("updated_at = ?", now).
			Where("id = ? AND used_count > 0", couponID).Exec(ctx)
	}
	return err
}

// linkRedemption ties the application's coupon use to the payment; when no use was
// reserved (a capture that arrived only by webhook), it counts one now.
func linkRedemption(ctx context.Context, tx bun.IDB, couponID, userID, appID, paymentID string, now time.Time) (overLimit bool, err error) {
	res, err := tx.NewUpdate().Model((*model.CouponRedemption)(nil)).Set("payment_id = ?", paymentID).
		Where("coupon_id = ? AND user_id = ? AND application_id = ?", couponID, userID, appID).Exec(ctx)
	if err != nil {
		return false, err
	}
	if affected(res) > 0 {
		return false, nil
	}
	err = reserveCoupon(ctx, tx, couponID, userID, appID, now)
	if errors.Is(err, errCouponLimit) {
		// the money was already taken at the discounted price: record the use anyway
		overLimit = true
		_, err = tx.NewInsert().Model(&model.CouponRedemption{ID: model.NewID(), CouponID: couponID, UserID: userID, ApplicationID: appID, CreatedAt: now}).
			On("CONFLICT DO NOTHING").Exec(ctx)
	}
	if err != nil {
		return overLimit, err
	}
	_, err = tx.NewUpdate().Model((*model.CouponRedemption)(nil)).Set("payment_id = ?", paymentID).
		Where("coupon_id = ? AND user_id = ? AND application_id = ?", couponID, userID, appID).Exec(ctx)
	return overLimit, err
}

func affected(res sql.Result) int64 {
	n, err := res.RowsAffected()
	if err != nil {
		return -1
	}
	return n
}
