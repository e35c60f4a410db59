package coupon_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"meritmark/app/apptest"
	"meritmark/app/coupon"
	"meritmark/app/input"
	"meritmark/app/model"
	"meritmark/app/payment"
)

// FuzzCouponForm: any coupon form (POST/PUT /coupons body) is refused with a message or
// gives a coupon that keeps every rule: a code of 3-32 of [A-Z0-9_-], a percentage of 1-100
// or a fixed amount above $0, amounts within $10,000, a usage limit of at least 1 and not
// below the uses, a validity window in order, existing-shaped badge ids and known
// categories. Pricing any badge with it then gives a sane quote.
func FuzzCouponForm(f *testing.F) {
	for _, s := range []string{
		`{"code":"save10"}`,
		`{"code":" welcome-2026 ","name":"Welcome","discountType":"percentage","discountValue":"15.5","minimumAmount":10,"maximumDiscount":"","usageLimit":"100","validFrom":"2026-01-01","validUntil":"2026-12-31","applicableBadges":[{"_id":"0123456789abcdef01234567"}],"applicableCategories":["Design"]}`,
		`{"code":"FIXED","discountType":"fixed","discountValue":49.99,"maximumDiscount":null,"usageLimit":null}`,
		`{"code":"BAD CODE!"}`, `{"code":"AB"}`, `{"code":"X<script>"}`,
		`{"code":"NEG","discountValue":-5}`, `{"code":"BIG","discountValue":101}`, `{"code":"BIG","discountType":"fixed","discountValue":1e308}`,
		`{"code":"EXP","discountValue":"1e-99999999999999999999"}`, `{"code":"NAN","discountValue":"NaN"}`, `{"code":"INF","minimumAmount":"Infinity"}`,
		`{"code":"DATE","validFrom":"2026-12-31","validUntil":"2026-01-01"}`, `{"code":"DATE","validUntil":"99999-01-01"}`,
		`{"code":"IDS","applicableBadges":["../x"]}`, `{"code":"CAT","applicableCategories":["<b>"]}`, `{"code":"LIM","usageLimit":"1.5"}`,
		`{"code":"MAX","maximumDiscount":0}`, `{"code":"FULL","discountValue":100}`, `{"code":"FRACT","discountValue":0.001}`,
	} {
		f.Add([]byte(s), int64(4900), int64(0))
	}
	at := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, body []byte, price int64, used int64) {
		var in coupon.Input
		if json.Unmarshal(body, &in) != nil {
			return
		}
		c := coupon.NewCoupon(at)
		c.UsedCount = int(used % 1000)
		if c.UsedCount < 0 {
			c.UsedCount = -c.UsedCount
		}
		msg, ids := coupon.Apply(&c, in)
		if msg != "" {
			return
		}
		switch {
		case !coupon.ValidCode(c.Code) || coupon.NormalizeCode(c.Code) != c.Code || len(c.Code) < 3 || len(c.Code) > 32:
			t.Fatalf("code %q", c.Code)
		case strings.Trim(c.Code, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "":
			t.Fatalf("code %q holds other characters", c.Code)
		case c.DiscountType == coupon.Percentage && (c.DiscountValue < 100 || c.DiscountValue > 10000):
			t.Fatalf("percentage %d", c.DiscountValue)
		case c.DiscountType == coupon.Fixed && (c.DiscountValue <= 0 || c.DiscountValue > input.MaxMoneyCents):
			t.Fatalf("fixed %d", c.DiscountValue)
		case c.DiscountType != coupon.Percentage && c.DiscountType != coupon.Fixed:
			t.Fatalf("type %q", c.DiscountType)
		case c.MinimumCents < 0 || c.MinimumCents > input.MaxMoneyCents:
			t.Fatalf("minimum %d", c.MinimumCents)
		case c.MaximumDiscountCents != nil && (*c.MaximumDiscountCents <= 0 || *c.MaximumDiscountCents > input.MaxMoneyCents):
			t.Fatalf("maximum %d", *c.MaximumDiscountCents)
		case c.UsageLimit != nil && (*c.UsageLimit < 1 || *c.UsageLimit < c.UsedCount || *c.UsageLimit > coupon.MaxUsageLimit):
			t.Fatalf("usage limit %d (used %d)", *c.UsageLimit, c.UsedCount)
		case !c.ValidFrom.Before(c.ValidUntil) || c.ValidFrom.Year() < 2000 || c.ValidUntil.Year() > 2999:
			t.Fatalf("window %s - %s", c.ValidFrom, c.ValidUntil)
		case utf8.RuneCountInString(c.Name) > coupon.MaxName || utf8.RuneCountInString(c.Description) > coupon.MaxDescription:
			t.Fatalf("name or description too long")
		}
		seen := map[string]bool{}
		for _, id := range append(append([]string{}, c.ApplicableBadges...), ids...) {
			if !model.ValidID(id) {
				t.Fatalf("badge id %q", id)
			}
		}
		for _, id := range c.ApplicableBadges {
			if seen[id] {
				t.Fatalf("badge id %q twice", id)
			}
			seen[id] = true
		}
		for _, cat := range c.ApplicableCategories {
			if !model.ValidCategory(cat) || seen[cat] {
				t.Fatalf("category %q", cat)
			}
			seen[cat] = true
		}

		// pricing a badge with it, at a time inside its window
		p := price % (input.MaxMoneyCents + 1)
		if p < 0 {
			p = -p
		}
		cat := model.Categories[int(p)%len(model.Categories)]
		badge := &model.Badge{ID: "0123456789abcdef01234567", Category: cat, PriceCents: p}
		q, err := payment.Price(badge, &c, c.ValidFrom)
		if err != nil {
			var ce *payment.CouponError
			apptest.Expect(t, "Price", err,
				apptest.True("errors.As(err, &ce)", errors.As(err, &ce)),
				apptest.True("ce.Msg != \"\"", ce.Msg != ""))
			return
		}
		checkQuote(t, q, p)
	})
}

func checkQuote(t *testing.T, q payment.Quote, price int64) {
	t.Helper()
	switch {
	case q.OriginalCents != price:
		t.Fatalf("original %d for price %d", q.OriginalCents, price)
	case q.DiscountCents < 0 || q.DiscountCents > q.OriginalCents:
		t.Fatalf("discount %d of %d", q.DiscountCents, q.OriginalCents)
	case q.TotalCents < 0:
		t.Fatalf("negative total %d", q.TotalCents)
	case q.TotalCents != q.OriginalCents-q.DiscountCents+q.MinimumAdjustmentCents+q.ProcessingFeeCents:
		t.Fatalf("total %d does not add up: %+v", q.TotalCents, q)
	case q.TotalCents > 0 && q.TotalCents < payment.MinimumChargeCents:
		t.Fatalf("a charge of %d cents is below the $1.00 minimum", q.TotalCents)
	case q.FreeGrant && q.TotalCents != 0:
		t.Fatalf("free grant with a total of %d", q.TotalCents)
	case q.TotalCents == 0 && q.OriginalCents > 0 && !q.FreeGrant:
		t.Fatalf("a paid badge costs 0 without a free grant: %+v", q)
	case q.TotalCents > max(q.OriginalCents, payment.MinimumChargeCents):
		t.Fatalf("the total %d is above the price %d", q.TotalCents, q.OriginalCents)
	}
}
