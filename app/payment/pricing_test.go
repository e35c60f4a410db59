package payment

import (
	"errors"
	"testing"
	"time"

	"meritmark/app/model"
)

func TestPriceTable(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	dev := &model.Badge{ID: "b-dev", Category: "Development", PriceCents: 4900}
	design := &model.Badge{ID: "b-design", Category: "Design", PriceCents: 3900}
	cheap := &model.Badge{ID: "b-cheap", Category: "Design", PriceCents: 80}
	free := &model.Badge{ID: "b-free", Category: "Marketing", PriceCents: 0}
	i64 := func(v int64) *int64 { return &v }
	ip := func(v int) *int { return &v }
	// coupon builds a valid, active coupon, then applies changes
	coupon := func(typ string, value int64, change ...func(*model.Coupon)) *model.Coupon {
		c := &model.Coupon{ID: "c1", Code: "X", DiscountType: typ, DiscountValue: value, IsActive: true,
			ValidFrom: now.Add(-time.Hour), ValidUntil: now.Add(time.Hour), ApplicableBadges: []string{}, ApplicableCategories: []string{}}
		for _, f := range change {
			f(c)
		}
		return c
	}

	type want struct {
		discount, minAdj, total int64
		free                    bool
		reason                  string // coupon error reason, "" for none
	}
	cases := []struct {
		name   string
		badge  *model.Badge
		coupon *model.Coupon
		want   want
	}{
		{"no coupon", dev, nil, want{0, 0, 4900, false, ""}},
		{"free badge, no coupon: nothing to charge, no adjustment", free, nil, want{0, 0, 0, false, ""}},
		{"10 percent", dev, coupon("percentage", 1000), want{490, 0, 4410, false, ""}},
		{"percent rounds half up to the cent (12.5% of 39.00 = 4.875)", design, coupon("percentage", 1250), want{488, 0, 3412, false, ""}},
		{"percent below half a cent rounds down (0.01% of 49.00)", dev, coupon("percentage", 1), want{0, 0, 4900, false, ""}},
		{"fixed 20 dollars", dev, coupon("fixed", 2000), want{2000, 0, 2900, false, ""}},
		{"maximum discount caps a percentage", dev, coupon("percentage", 5000, func(c *model.Coupon) { c.MaximumDiscountCents = i64(1000) }), want{1000, 0, 3900, false, ""}},
		{"maximum discount above the percentage changes nothing", dev, coupon("percentage", 5000, func(c *model.Coupon) { c.MaximumDiscountCents = i64(3000) }), want{2450, 0, 2450, false, ""}},
		{"maximum discount 0 gives no discount", dev, coupon("percentage", 5000, func(c *model.Coupon) { c.MaximumDiscountCents = i64(0) }), want{0, 0, 4900, false, ""}},
		{"100 percent is a free grant", dev, coupon("percentage", 10000), want{4900, 0, 0, true, ""}},
		{"over 100 percent is capped at the fee and is a free grant", dev, coupon("percentage", 15000), want{4900, 0, 0, true, ""}},
		{"100 percent capped by maximum discount is not free", dev, coupon("percentage", 10000, func(c *model.Coupon) { c.MaximumDiscountCents = i64(3000) }), want{3000, 0, 1900, false, ""}},
		{"100 percent capped so 0.50 is left: raised to 1.00", dev, coupon("percentage", 10000, func(c *model.Coupon) { c.MaximumDiscountCents = i64(4850) }), want{4850, 50, 100, false, ""}},
		{"fixed equal to the fee is not a free grant: minimum 1.00", dev, coupon("fixed", 4900), want{4900, 100, 100, false, ""}},
		{"fixed above the fee is capped at the fee: minimum 1.00", dev, coupon("fixed", 9900), want{4900, 100, 100, false, ""}},
		{"leaves 0.99: raised to 1.00", dev, coupon("fixed", 4801), want{4801, 1, 100, false, ""}},
		{"leaves exactly 1.00: no adjustment", dev, coupon("fixed", 4800), want{4800, 0, 100, false, ""}},
		{"leaves 0.01: raised to 1.00", dev, coupon("fixed", 4899), want{4899, 99, 100, false, ""}},
		{"a fee below 1.00 without coupon is raised to 1.00", cheap, nil, want{0, 20, 100, false, ""}},
		{"100 percent on a fee below 1.00 is still a free grant", cheap, coupon("percentage", 10000), want{80, 0, 0, true, ""}},
		{"coupon on a free badge: nothing to discount", free, coupon("percentage", 1000), want{0, 0, 0, false, ""}},
		{"100 percent coupon on a free badge is not a free grant (nothing to grant)", free, coupon("percentage", 10000), want{0, 0, 0, false, ""}},

		// validity window, inclusive at both ends
		{"valid from exactly now", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.ValidFrom = now }), want{490, 0, 4410, false, ""}},
		{"valid until exactly now", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.ValidUntil = now }), want{490, 0, 4410, false, ""}},
		{"valid from 1 microsecond later", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.ValidFrom = now.Add(time.Microsecond) }), want{reason: "not_yet_valid"}},
		{"valid until 1 microsecond earlier", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.ValidUntil = now.Add(-time.Microsecond) }), want{reason: "expired"}},
		{"expired and inactive says expired", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.ValidUntil = now.Add(-time.Hour); c.IsActive = false }), want{reason: "expired"}},

		{"inactive", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.IsActive = false }), want{reason: "inactive"}},
		{"usage limit reached", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.UsageLimit = ip(5); c.UsedCount = 5 }), want{reason: "limit"}},
		{"usage limit one left", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.UsageLimit = ip(5); c.UsedCount = 4 }), want{490, 0, 4410, false, ""}},
		{"usage limit 0 means none may use it", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.UsageLimit = ip(0) }), want{reason: "limit"}},
		{"no usage limit is unlimited", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.UsedCount = 1_000_000 }), want{490, 0, 4410, false, ""}},

		{"minimum amount met exactly", dev, coupon("fixed", 2000, func(c *model.Coupon) { c.MinimumCents = 4900 }), want{2000, 0, 2900, false, ""}},
		{"minimum amount missed by a cent", dev, coupon("fixed", 2000, func(c *model.Coupon) { c.MinimumCents = 4901 }), want{reason: "minimum"}},

		{"applicable badge listed", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.ApplicableBadges = []string{"other", "b-dev"} }), want{490, 0, 4410, false, ""}},
		{"applicable badge not listed", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.ApplicableBadges = []string{"other"} }), want{reason: "not_applicable"}},
		{"applicable category listed", dev, coupon("percentage", 1000, func(c *model.Coupon) { c.ApplicableCategories = []string{"Development"} }), want{490, 0, 4410, false, ""}},
		{"applicable category not listed", design, coupon("percentage", 1000, func(c *model.Coupon) { c.ApplicableCategories = []string{"Development"} }), want{reason: "not_applicable"}},
		{"badge listed but category not: both restrictions apply", design, coupon("percentage", 1000, func(c *model.Coupon) {
			c.ApplicableBadges = []string{"b-design"}
			c.ApplicableCategories = []string{"Development"}
		}), want{reason: "not_applicable"}},

		{"unknown discount type", dev, coupon("bogus", 1000), want{reason: "invalid"}},
		{"zero value", dev, coupon("percentage", 0), want{reason: "invalid"}},
		{"negative value", dev, coupon("fixed", -500), want{reason: "invalid"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := Price(tc.badge, tc.coupon, now)
			if tc.want.reason != "" {
				var ce *CouponError
				if !errors.As(err, &ce) || ce.Reason != tc.want.reason {
					t.Fatalf("err %v, want coupon error %q", err, tc.want.reason)
				}
				if ce.Msg == "" {
					t.Fatal("coupon error without a message")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if q.OriginalCents != tc.badge.PriceCents || q.DiscountCents != tc.want.discount || q.MinimumAdjustmentCents != tc.want.minAdj ||
				q.TotalCents != tc.want.total || q.FreeGrant != tc.want.free || q.ProcessingFeeCents != 0 {
				t.Fatalf("got original %d discount %d minAdj %d fee %d total %d free %v; want discount %d minAdj %d total %d free %v",
					q.OriginalCents, q.DiscountCents, q.MinimumAdjustmentCents, q.ProcessingFeeCents, q.TotalCents, q.FreeGrant,
					tc.want.discount, tc.want.minAdj, tc.want.total, tc.want.free)
			}
			// the invariant behind every row
			if q.TotalCents != q.OriginalCents-q.DiscountCents+q.MinimumAdjustmentCents+q.ProcessingFeeCents {
				t.Fatal("total is not original - discount + adjustment + fee")
			}
			if q.TotalCents > 0 && q.TotalCents < MinimumChargeCents {
				t.Fatal("a charge below the $1.00 minimum")
			}
		})
	}
}

func TestCouponMessages(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	b := &model.Badge{ID: "b", Category: "Design", PriceCents: 3900}
	c := &model.Coupon{DiscountType: "fixed", DiscountValue: 2000, MinimumCents: 4000, IsActive: true,
		ValidFrom: now.Add(-time.Hour), ValidUntil: now.Add(time.Hour), ApplicableCategories: []string{"Development"}}
	_, err := Price(b, c, now)
	if err == nil || err.Error() != "This coupon only applies to Development badges." {
		t.Fatalf("category message: %v", err)
	}
	c.ApplicableCategories = nil
	_, err = Price(b, c, now)
	if err == nil || err.Error() != "This coupon requires a badge fee of at least $40.00." {
		t.Fatalf("minimum message: %v", err)
	}
	c.MinimumCents = 0
	c.ValidFrom = time.Date(2027, 1, 2, 9, 30, 0, 0, time.UTC)
	_, err = Price(b, c, now)
	if err == nil || err.Error() != "This coupon is not valid yet. It can be used from Jan 2, 2027 09:30 UTC." {
		t.Fatalf("not yet valid message: %v", err)
	}
}

func TestAmounts(t *testing.T) {
	for cents, s := range map[int64]string{0: "0.00", 1: "0.01", 100: "1.00", 4900: "49.00", 4410: "44.10", 123456: "1234.56"} {
		if Amount(cents) != s {
			t.Errorf("Amount(%d) = %s", cents, Amount(cents))
		}
		if got, ok := ParseAmount(s); !ok || got != cents {
			t.Errorf("ParseAmount(%s) = %d %v", s, got, ok)
		}
	}
	for s, cents := range map[string]int64{"49": 4900, "49.5": 4950, " 1.05 ": 105} {
		if got, ok := ParseAmount(s); !ok || got != cents {
			t.Errorf("ParseAmount(%q) = %d %v", s, got, ok)
		}
	}
	for _, s := range []string{"", ".5", "1.", "1.234", "-1.00", "1e3", "abc", "1,00", "12.3x"} {
		if _, ok := ParseAmount(s); ok {
			t.Errorf("ParseAmount(%q) accepted", s)
		}
	}
	if Dollars(4410) != "$44.10" || Dollars(5) != "$0.05" {
		t.Error("Dollars")
	}
}
