// Package payment owns the money: pricing a badge with a coupon (one pure function), the
// PayPal Orders v2 client, PayPal orders remembered against applications, capture and
// verification, free grants, coupon redemption and the PayPal webhook.
//
// The browser is never trusted for an amount: every price is computed here from the badge
// (or the application's price at submission) and the coupon row.
package payment

import (
	"fmt"
	"strings"
	"time"

	"meritmark/app/model"
)

// Business constants (spec section 9).
const (
	Currency           = "USD"
	MinimumChargeCents = 100 // the provider's minimum payment, $1.00
	ProcessingFeeCents = 0
	fullPercent        = 10000 // 100% in the coupon's hundredths
)

// Coupon discount types.
const (
	DiscountPercentage = "percentage"
	DiscountFixed      = "fixed"
)

// Quote is what a badge costs with an optional coupon, in cents.
type Quote struct {
	OriginalCents          int64
	DiscountCents          int64
	MinimumAdjustmentCents int64 // added so that a charge above 0 is at least $1.00
	ProcessingFeeCents     int64
	TotalCents             int64
	// FreeGrant is true only when a 100% percentage coupon brings the fee to 0: the
	// application is then submitted for review without a provider payment.
	FreeGrant bool
	Coupon    *model.Coupon
}

// Coupon messages (spec section 8 for the first two; the rest say precisely why).
const (
	MsgCouponEmpty       = "Please enter a coupon code"
	MsgCouponInvalid     = "Coupon code is invalid or expired"
	MsgCouponInactive    = "This coupon is no longer active."
	MsgCouponExpired     = "This coupon has expired."
	MsgCouponLimit       = "This coupon has reached its usage limit."
	MsgCouponNotForBadge = "This coupon does not apply to this badge."
)

// CouponError says why a coupon cannot be used; Msg is for the user.
type CouponError struct {
	Reason string // invalid, inactive, not_yet_valid, expired, limit, not_applicable, minimum
	Msg    string
}

func (e *CouponError) Error() string { return e.Msg }

func couponErr(reason, msg string) *CouponError { return &CouponError{Reason: reason, Msg: msg} }

// Price computes what badge costs at now with coupon (nil: none). It is the only place
// prices are computed; it does no I/O.
//
// Rules: the coupon must be active, now within [validFrom, validUntil] (both inclusive),
// its usage limit unset or not reached, the badge within its applicable badges and
// categories (each list, when not empty), and the fee at least its minimum amount. A
// percentage discount (rounded half up to the cent) is capped by maximumDiscount; any
// discount is capped by the fee. A charge above 0 and below $1.00 is raised to $1.00
// (also when a fixed coupon takes the fee to 0: only a 100% percentage coupon makes a
// free grant). The processing fee is $0.00.
func Price(badge *model.Badge, coupon *model.Coupon, now time.Time) (Quote, error) {
	q := Quote{OriginalCents: badge.PriceCents, ProcessingFeeCents: ProcessingFeeCents}
	if q.OriginalCents < 0 {
		q.OriginalCents = 0
	}
	if coupon != nil {
		if err := checkCoupon(badge, coupon, q.OriginalCents, now); err != nil {
			return Quote{}, err
		}
		q.Coupon = coupon
		q.DiscountCents = discount(coupon, q.OriginalCents)
	}
	after := q.OriginalCents - q.DiscountCents
	switch {
	case after == 0 && q.OriginalCents > 0 && coupon != nil && coupon.DiscountType == DiscountPercentage && coupon.DiscountValue >= fullPercent:
		q.FreeGrant = true
	case q.OriginalCents > 0 && after < MinimumChargeCents:
		q.MinimumAdjustmentCents = MinimumChargeCents - after
	}
	q.TotalCents = after + q.MinimumAdjustmentCents + q.ProcessingFeeCents
	return q, nil
}

func checkCoupon(badge *model.Badge, c *model.Coupon, original int64, now time.Time) error {
	if (c.DiscountType != DiscountPercentage && c.DiscountType != DiscountFixed) || c.DiscountValue <= 0 {
		return couponErr("invalid", MsgCouponInvalid)
	}
	if now.After(c.ValidUntil) {
		return couponErr("expired", MsgCouponExpired)
	}
	if !c.IsActive {
		return couponErr("inactive", MsgCouponInactive)
	}
	if now.Before(c.ValidFrom) {
		return couponErr("not_yet_valid", fmt.Sprintf("This coupon is not valid yet. It can be used from %s.", c.ValidFrom.UTC().Format("Jan 2, 2006 15:04 UTC")))
	}
	if c.UsageLimit != nil && c.UsedCount >= *c.UsageLimit {
		return couponErr("limit", MsgCouponLimit)
	}
	if len(c.ApplicableBadges) > 0 && !containsFold(c.ApplicableBadges, badge.ID) {
		return couponErr("not_applicable", MsgCouponNotForBadge)
	}
	if len(c.ApplicableCategories) > 0 && !containsFold(c.ApplicableCategories, badge.Category) {
		return couponErr("not_applicable", fmt.Sprintf("This coupon only applies to %s badges.", strings.Join(c.ApplicableCategories, ", ")))
	}
	if original < c.MinimumCents {
		return couponErr("minimum", fmt.Sprintf("This coupon requires a badge fee of at least %s.", Dollars(c.MinimumCents)))
	}
	return nil
}

// discount is the coupon's discount on original cents, capped by maximumDiscount and by
// the fee itself.
func discount(c *model.Coupon, original int64) int64 {
	var d int64
	switch c.DiscountType {
	case DiscountPercentage:
		pct := c.DiscountValue
		if pct > fullPercent {
			pct = fullPercent
		}
		d = (original*pct + fullPercent/2) / fullPercent
		if c.MaximumDiscountCents != nil && *c.MaximumDiscountCents >= 0 && d > *c.MaximumDiscountCents {
			d = *c.MaximumDiscountCents
		}
	case DiscountFixed:
		d = c.DiscountValue
	}
	if d > original {
		d = original
	}
	if d < 0 {
		d = 0
	}
	return d
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(strings.TrimSpace(x), s) {
			return true
		}
	}
	return false
}

// NormalizeCode is a coupon code as stored: trimmed and upper-cased.
func NormalizeCode(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

// Dollars formats cents as $49.00.
func Dollars(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s$%d.%02d", sign, cents/100, cents%100)
}

// Amount formats cents as PayPal's amount value: 49.00.
func Amount(cents int64) string { return fmt.Sprintf("%d.%02d", cents/100, cents%100) }

// ParseAmount reads PayPal's amount value ("49.00", "49.5", "49") as cents without
// floating point; ok is false for anything else.
func ParseAmount(v string) (int64, bool) {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 20 {
		return 0, false
	}
	whole, frac, hasFrac := strings.Cut(v, ".")
	// at most 13 whole digits: more would wrap int64 cents around (to any value, even
	// the expected one); PayPal's own limit is far below
	if whole == "" || len(whole) > 13 || (hasFrac && (frac == "" || len(frac) > 2)) {
		return 0, false
	}
	var cents int64
	for _, r := range whole {
		if r < '0' || r > '9' {
			return 0, false
		}
		cents = cents*10 + int64(r-'0')
	}
	cents *= 100
	if hasFrac {
		if len(frac) == 1 {
			frac += "0"
		}
		for i, r := range frac {
			if r < '0' || r > '9' {
				return 0, false
			}
			if i == 0 {
				cents += int64(r-'0') * 10
			} else {
				cents += int64(r - '0')
			}
		}
	}
	return cents, true
}

// ToDollars is cents as dollars for JSON.
func ToDollars(cents int64) float64 { return float64(cents) / 100 }
