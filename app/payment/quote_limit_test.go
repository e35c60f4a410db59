package payment_test

import (
	"fmt"
	"testing"
)

// Guessing coupon codes through the quote endpoint is limited like validate-coupon: the
// two share one budget of 30 a minute per member, and a quote without a coupon is not
// counted.
func TestCouponQuotesAreRateLimited(t *testing.T) {
	f := newFixture(t)
	u, c := f.member("guesser@x.io")
	f.application(u, f.badge)
	for i := 0; i < 40; i++ {
		c.Get("/payments/quote/" + f.badge.ID).Expect(200) // no coupon: no limit
	}
	for i := 0; i < 25; i++ {
		c.Get(fmt.Sprintf("/payments/quote/%s?coupon=GUESS%03d", f.badge.ID, i)).ExpectMsg(404, "Coupon code is invalid or expired")
	}
	for i := 0; i < 5; i++ {
		c.Post("/coupons/validate", map[string]any{"code": fmt.Sprintf("TRY%03d", i), "badgeId": f.badge.ID}).Expect(404)
	}
	c.Get("/payments/quote/"+f.badge.ID+"?coupon=GUESS999").ExpectMsg(429, "Too many attempts. Please wait a minute and try again.")
	c.Post("/coupons/validate", map[string]any{"code": "TRY999", "badgeId": f.badge.ID}).ExpectMsg(429, "Too many attempts. Please wait a minute and try again.")
	// another member has a budget of their own
	u2, c2 := f.member("other@x.io")
	f.application(u2, f.badge)
	c2.Get("/payments/quote/"+f.badge.ID+"?coupon=GUESS000").ExpectMsg(404, "Coupon code is invalid or expired")
}
