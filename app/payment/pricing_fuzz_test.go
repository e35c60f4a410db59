package payment

import (
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"meritmark/app/model"
)

// FuzzPrice: for any badge price and any coupon row (even one no form would save), a
// quote never has a negative amount, a discount above the price, a charge between $0 and
// $1.00, or a total that does not add up; a refused coupon says why.
func FuzzPrice(f *testing.F) {
	f.Add(int64(4900), true, "percentage", int64(1000), int64(0), int64(-1), int64(-1), int64(0), int64(-60), int64(60), true, "Design", "")
	f.Add(int64(4900), true, "percentage", int64(10000), int64(0), int64(-1), int64(-1), int64(0), int64(-60), int64(60), true, "Design", "")
	f.Add(int64(4900), true, "fixed", int64(4850), int64(0), int64(-1), int64(-1), int64(0), int64(-60), int64(60), true, "Design", "")
	f.Add(int64(50), true, "percentage", int64(2000), int64(0), int64(5), int64(3), int64(3), int64(0), int64(0), true, "Design", "Design,DevOps")
	f.Add(int64(0), true, "fixed", int64(100), int64(0), int64(-1), int64(-1), int64(0), int64(-60), int64(60), true, "Design", "")
	f.Add(int64(-100), true, "percentage", int64(99999), int64(-5), int64(-7), int64(-1), int64(0), int64(60), int64(-60), false, "", "x")
	f.Add(int64(4900), false, "", int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), false, "", "")
	at := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, price int64, withCoupon bool, typ string, value, minimum, maxDiscount, limit, used, fromMin, untilMin int64,
		active bool, category, categories string) {
		// prices as the database can hold them (the admin form allows up to $10,000);
		// anything up to $10 billion must still price correctly
		price %= 1_000_000_000_000
		badge := &model.Badge{ID: "0123456789abcdef01234567", Category: category, PriceCents: price}
		var c *model.Coupon
		if withCoupon {
			c = &model.Coupon{Code: "FUZZ", DiscountType: typ, DiscountValue: value % 1_000_000_000, MinimumCents: minimum % 1_000_000_000,
				UsedCount: int(used % 1000), IsActive: active, ValidFrom: at.Add(time.Duration(fromMin%100000) * time.Minute),
				ValidUntil: at.Add(time.Duration(untilMin%100000) * time.Minute)}
			if maxDiscount >= -1_000_000_000 && maxDiscount != -1 {
				m := maxDiscount % 1_000_000_000
				c.MaximumDiscountCents = &m
			}
			if limit != -1 {
				l := int(limit % 1000)
				c.UsageLimit = &l
			}
			if categories != "" {
				c.ApplicableCategories = strings.Split(categories, ",")
			}
		}
		q, err := Price(badge, c, at)
		if err != nil {
			var ce *CouponError
			if c == nil || !errors.As(err, &ce) || ce.Msg == "" || ce.Reason == "" {
				t.Fatalf("Price: %v", err)
			}
			return
		}
		original := max(price, 0)
		switch {
		case q.OriginalCents != original:
			t.Fatalf("original %d for price %d", q.OriginalCents, price)
		case q.DiscountCents < 0 || q.DiscountCents > q.OriginalCents:
			t.Fatalf("discount %d of %d", q.DiscountCents, q.OriginalCents)
		case q.TotalCents < 0 || q.MinimumAdjustmentCents < 0:
			t.Fatalf("negative amount: %+v", q)
		case q.TotalCents != q.OriginalCents-q.DiscountCents+q.MinimumAdjustmentCents+q.ProcessingFeeCents:
			t.Fatalf("total does not add up: %+v", q)
		case q.TotalCents > 0 && q.TotalCents < MinimumChargeCents:
			t.Fatalf("charge %d below the minimum", q.TotalCents)
		case q.FreeGrant && (q.TotalCents != 0 || c == nil || c.DiscountType != DiscountPercentage || c.DiscountValue < fullPercent):
			t.Fatalf("free grant without a 100%% coupon: %+v", q)
		case q.TotalCents == 0 && q.OriginalCents > 0 && !q.FreeGrant:
			t.Fatalf("free without a free grant: %+v", q)
		case c == nil && q.DiscountCents != 0:
			t.Fatalf("a discount without a coupon")
		}
		if c == nil {
			return
		}
		// the coupon's own rules held
		if !c.IsActive || at.Before(c.ValidFrom) || at.After(c.ValidUntil) || (c.UsageLimit != nil && c.UsedCount >= *c.UsageLimit) || original < c.MinimumCents {
			t.Fatalf("an unusable coupon was applied: %+v", c)
		}
		if c.DiscountType == DiscountPercentage {
			// exactly the rounded percentage, capped
			pct := min(c.DiscountValue, fullPercent)
			want := new(big.Int).Mul(big.NewInt(original), big.NewInt(pct))
			want.Add(want, big.NewInt(fullPercent/2)).Div(want, big.NewInt(fullPercent))
			w := want.Int64()
			if c.MaximumDiscountCents != nil && *c.MaximumDiscountCents >= 0 && w > *c.MaximumDiscountCents {
				w = *c.MaximumDiscountCents
			}
			if q.DiscountCents != min(w, original) {
				t.Fatalf("percentage discount %d, want %d: %+v", q.DiscountCents, min(w, original), c)
			}
		}
	})
}

// FuzzParseAmount: PayPal's amount strings are read exactly, or refused; never negative,
// never wrapped around.
func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"49.00", "49.5", "49", "0.01", "", "-1", "1.", ".5", "1.234", "1e3", " 12.00 ", "99999999999999999999", "9223372036854775807", "٣.00", "+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cents, ok := ParseAmount(s)
		if !ok {
			return
		}
		if cents < 0 {
			t.Fatalf("%q -> %d: negative", s, cents)
		}
		r, rok := new(big.Rat).SetString(strings.TrimSpace(s))
		if !rok || r.Mul(r, big.NewRat(100, 1)).Cmp(big.NewRat(cents, 1)) != 0 {
			t.Fatalf("%q -> %d cents: not exact", s, cents)
		}
		if back, ok := ParseAmount(Amount(cents)); !ok || back != cents {
			t.Fatalf("%d -> %q -> %d", cents, Amount(cents), back)
		}
	})
}
